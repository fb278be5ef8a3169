"""Benchmark of the `ruling` processes and of a federation-sized knowledge base.

    python bench/bench_cli.py [--runs 10] [--skip-synthetic]

Prints two Markdown tables: process times of the everyday commands beside
`python -c "import click"` (the floor for any click program, measured in the same run),
and load/index/query/check/export figures on a synthetic base of 20 books × 500 clauses
and 200 procedures, each with its peak memory.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from synthetic import generate  # noqa: E402

PY = sys.executable


def ruling_cmd() -> list[str]:
    script = Path(PY).parent / "ruling"
    return [str(script)] if script.exists() else [PY, "-m", "ruling"]


def peak_mb(cmd: list[str], env: dict) -> tuple[float, float, str]:
    """Run once, returning wall time, peak resident memory in MB (from wait4) and stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"échec de {' '.join(cmd)} : {err.decode(errors='replace').strip()[-300:]}")
    return elapsed, usage.ru_maxrss / 1024, out.decode()


def median_time(cmd: list[str], env: dict, runs: int) -> float:
    peak_mb(cmd, env)  # warm the caches (parsed knowledge base, search index, OS)
    return statistics.median(peak_mb(cmd, env)[0] for _ in range(runs))


def process_table(runs: int, env: dict) -> list[tuple[str, float, float | None]]:
    r = ruling_cmd()
    floor = median_time([PY, "-c", "import click"], env, runs)
    rows = [("python -c \"import click\"", floor, None)]
    commands = [
        ("ruling show club:9-13", r + ["show", "club:9-13"], 2.0),
        ("ruling search \"carte brulee\"", r + ["search", "carte brulee"], 3.5),
        ("ruling decide flop-irregulier … --json", r + ["decide", "flop-irregulier", "--book", "club",
                                                         "-a", "defaut=premature", "--json"], 2.0),
        ("ruling check", r + ["check"], None),
    ]
    for label, cmd, target in commands:
        t = median_time(cmd, env, runs)
        rows.append((label, t, target))
    return [(label, t, t / floor, target) for label, t, target in rows]


LOAD_CODE = "from ruling.kb.load import load_kb; load_kb(P)"
INDEX_CODE = "from ruling.kb.load import load_kb; from ruling.search import search; search(load_kb(P), 'carte')"

QUERY_CODE = """
import statistics, time
from ruling.kb.load import load_kb
from ruling.search import search
kb = load_kb(P)
search(kb, 'carte')
qs = ['carte brulee', 'relance minimum tapis', 'joueur absent', 'jeton superieur', 'fausse donne']
times = []
for i in range(50):
    t = time.perf_counter(); search(kb, qs[i % len(qs)]); times.append(time.perf_counter() - t)
print('QUERY', statistics.median(times))
"""

TIMED = "import time; _t = time.perf_counter()\n{code}\nprint('TIME', time.perf_counter() - _t)"


def synthetic_table(env: dict) -> list[tuple[str, float, float]]:
    work = Path(tempfile.mkdtemp(prefix="ruling-bench-"))
    kb = generate(work / "kb")
    env = {**env, "XDG_CACHE_HOME": str(work / "cache")}
    rows = []

    def in_process(label, code):
        _, mem, out = peak_mb([PY, "-c", f"P = {str(kb)!r}\n" + TIMED.format(code=code)], env)
        rows.append((label, float(out.split("TIME")[-1]), mem))

    in_process("load, cold (parse + validate + cache)", LOAD_CODE)
    in_process("load, from the parsed cache", LOAD_CODE)
    try:
        in_process("index build + first query", INDEX_CODE)
        _, mem, out = peak_mb([PY, "-c", f"P = {str(kb)!r}\n" + QUERY_CODE], env)
        rows.append(("query in process (median of 50)", float(out.split("QUERY")[-1]), mem))
    except SystemExit as e:
        rows.append((f"search: {e}", float("nan"), float("nan")))
    r = ruling_cmd()
    for label, args in [("ruling check (process)", ["check"]), ("ruling export --json (process)", ["export", "--json"])]:
        t, mem, _ = peak_mb(r + ["--kb", str(kb)] + args, env)
        rows.append((label, t, mem))
    shutil.rmtree(work, ignore_errors=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--skip-synthetic", action="store_true")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE: every run recompiles ruling's modules (worst case)")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "RULING_KB"}
    if not args.no_bytecode:  # as installed by pip, which compiles the modules once
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([PY, "-m", "compileall", "-q", str(HERE.parent / "ruling")], env=env, check=True)
    print(f"bytecode cache: {'off (worst case)' if args.no_bytecode else 'on (as installed)'}\n")
    print("| command | median (s) | × import click | target |\n|---|---|---|---|")
    for label, t, ratio, target in process_table(args.runs, env):
        print(f"| `{label}` | {t:.3f} | {ratio:.2f} | {f'≤ {target:.1f}×' if target else ''} |")
    if not args.skip_synthetic:
        print("\nSynthetic knowledge base: 20 books × 500 clauses, 200 procedures\n")
        print("| measure | time (s) | peak memory (MB) |\n|---|---|---|")
        for label, t, mem in synthetic_table(env):
            print(f"| {label} | {t:.3f} | {mem:.0f} |")


if __name__ == "__main__":
    main()
