"""The first `ruling search` after install (empty cache), an old tree and this one interleaved.

Prints figures, asserts nothing. Run: `python bench/bench_search_cold.py --before DIR [--rounds 4]`
where DIR holds an old source tree (`git archive <commit> | tar -x -C DIR`). Each round runs both
trees once, each with a fresh cache folder and its own bytecode folder; CPU time (user + system)
is printed beside wall time, since a loaded machine disturbs it least.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="an old source tree")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    sides = {"before": str(Path(args.before).resolve()), "after": str(ROOT)}
    cpu: dict[str, list[float]] = {k: [] for k in sides}
    wall: dict[str, list[float]] = {k: [] for k in sides}
    with tempfile.TemporaryDirectory() as pycache:
        for _ in range(args.rounds):
            for name, path in sides.items():
                with tempfile.TemporaryDirectory() as cache:
                    env = dict(os.environ, XDG_CACHE_HOME=cache, PYTHONPATH=path,
                               PYTHONPYCACHEPREFIX=os.path.join(pycache, name))
                    env.pop("PYTHONDONTWRITEBYTECODE", None)
                    env.pop("RULING_KB", None)
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    start = time.perf_counter()
                    subprocess.run([sys.executable, "-m", "ruling", "search", "relanse", "insufisante"], env=env,
                                   check=True, stdout=subprocess.DEVNULL, cwd=path)
                    wall[name].append(time.perf_counter() - start)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    for name in sides:
        print(f"cold {name}: CPU median {statistics.median(cpu[name]) * 1000:.0f} ms "
              f"(min {min(cpu[name]) * 1000:.0f}), wall median {statistics.median(wall[name]) * 1000:.0f} ms "
              f"over {args.rounds} rounds")


if __name__ == "__main__":
    main()
