"""Paired timing of two source trees of ruling: is a change slower for the everyday commands?

    mkdir /tmp/avant && git archive <rev> | tar -x -C /tmp/avant
    python bench/bench_compare.py /tmp/avant [--runs 60]

Runs each command (from a neutral folder) alternately with the other tree's `ruling/` and `rulebook/` and with this
checkout's (order swapped every run, separate caches, bytecode compiled first), so machine load
hits both sides alike; prints the medians and the median of the paired differences.
"""
from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
COMMANDS = {
    "decide flop-irregulier": ["decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature", "--json"],
    "decide relance-minimum (calcul)": ["decide", "relance-minimum", "--book", "club", "-a", "demande=minimum",
                                        "-a", "tour=apres-flop", "-a", "grosse-blind=100", "-a", "mises=200,290",
                                        "--json"],
    "show club:9-13": ["show", "club:9-13"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other source tree (with ruling/ and rulebook/)")
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    trees = {"autre": args.other.resolve(), "ici": HERE}
    caches = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    envs = {}
    for name, root in trees.items():
        compileall.compile_dir(str(root / "ruling"), quiet=1, force=True)
        envs[name] = dict(os.environ, PYTHONPATH=str(root), RULING_KB=str(root / "rulebook"),
                          XDG_CACHE_HOME=str(caches / name))
    print("| commande | autre arbre (s) | cet arbre (s) | écart apparié médian (ms) |")
    print("|---|---|---|---|")
    for label, command in COMMANDS.items():
        times: dict[str, list[float]] = {name: [] for name in trees}
        for name in trees:  # warm each side's cache
            subprocess.run([sys.executable, "-m", "ruling", *command], env=envs[name], capture_output=True, check=True,
                       cwd=caches)
        for i in range(args.runs):
            for name in (list(trees) if i % 2 == 0 else list(trees)[::-1]):
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "ruling", *command], env=envs[name], capture_output=True, cwd=caches,
                               check=True)
                times[name].append(time.perf_counter() - start)
        paired = [b - a for a, b in zip(times["autre"], times["ici"])]
        print(f"| `{label}` | {statistics.median(times['autre']):.4f} | {statistics.median(times['ici']):.4f} | "
              f"{1000 * statistics.median(paired):+.1f} |")


if __name__ == "__main__":
    main()
