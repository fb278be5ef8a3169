"""Whole-process times of `show`, `decide` and `search`, before and after a change, interleaved.

    git archive <old-commit> | tar -x -C /tmp/before
    python bench/bench_compare.py --before /tmp/before [--rounds 30] [--only search]

On a busy machine two separate `bench_cli.py` runs are not comparable (the floor,
`python -c "import click"`, moves by 3× between runs); here every round runs the floor, the
old and the new command in a random order, so they share the same load. The old code is
the tree given by --before (put first on PYTHONPATH), each side with its own warm cache.
Each process runs in its own tree's folder: `python -m` puts the current folder first on
sys.path, so run from a checkout both sides would otherwise import that checkout's code.
CPU time (user + system) is printed beside wall time: the load disturbs it least.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
COMMANDS = {
    "show": ["show", "club:9-13"],
    "decide": ["decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature", "--json"],
    "search": ["search", "relanse", "insufisante"],  # the index cached (warmed below)
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, type=Path, help="a source tree of the old version")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--only", action="append", choices=sorted(COMMANDS), help="these commands only (repeatable)")
    args = parser.parse_args()
    commands = {name: argv for name, argv in COMMANDS.items() if not args.only or name in args.only}
    work = Path(tempfile.mkdtemp(prefix="ruling-compare-"))
    env = {k: v for k, v in os.environ.items() if k not in ("RULING_KB", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    sides = {"before": {**env, "PYTHONPATH": str(args.before.resolve()), "XDG_CACHE_HOME": str(work / "before")},
             "after": {**env, "PYTHONPATH": str(HERE.parent), "XDG_CACHE_HOME": str(work / "after")}}
    subprocess.run([PY, "-m", "compileall", "-q", str(args.before / "ruling"), str(HERE.parent / "ruling")],
                   env=env, check=True)
    trees = {"before": str(args.before.resolve()), "after": str(HERE.parent)}
    runs = {"click": ([PY, "-c", "import click"], env, str(work))}
    for side, side_env in sides.items():
        for name, argv in commands.items():
            runs[f"{name} {side}"] = ([PY, "-m", "ruling", *argv], side_env, trees[side])
    for cmd, run_env, cwd in runs.values():  # warm the caches
        subprocess.run(cmd, env=run_env, cwd=cwd, capture_output=True, check=True)
    times: dict[str, list[float]] = {k: [] for k in runs}
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    import resource
    import time

    for _ in range(args.rounds):
        order = list(runs)
        random.shuffle(order)
        for key in order:
            cmd, run_env, cwd = runs[key]
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(cmd, env=run_env, cwd=cwd, capture_output=True, check=True)
            times[key].append(time.perf_counter() - start)
            now = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[key].append(now.ru_utime - used.ru_utime + now.ru_stime - used.ru_stime)
    floor, cpu_floor = statistics.median(times["click"]), statistics.median(cpu["click"])
    print(f"load average {os.getloadavg()[0]:.1f}, {args.rounds} rounds")
    print("| command | wall median (s) | × import click | CPU median (ms) | CPU × import click |\n|---|---|---|---|---|")
    for key, values in times.items():
        label = 'python -c "import click"' if key == "click" else f"ruling {key}"
        wall, used = statistics.median(values), statistics.median(cpu[key])
        print(f"| `{label}` | {wall:.3f} | {wall / floor:.2f} | {used * 1000:.0f} | {used / cpu_floor:.2f} |")


if __name__ == "__main__":
    main()
