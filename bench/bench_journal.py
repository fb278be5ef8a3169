"""The event journal's cost: `decide` with and without `--event` (process time, medians), recording
in process, listing and replaying a long event.

    python bench/bench_journal.py [--runs 9] [--entries 5000]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DECIDE = [sys.executable, "-m", "ruling", "decide", "echelle-des-sanctions", "--book", "club",
          "-a", "cas=choisir", "-a", "gravite=non"]


def process_median(argv, env, runs) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--entries", type=int, default=5000)
    args = parser.parse_args()
    from ruling.decide.engine import decide
    from ruling.journal.rulings import entry_for, parse_player, replay
    from ruling.journal.store import Journal
    from ruling.kb.load import load_kb
    from ruling.render.journal import csv_bytes, table_text

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "RULING_JOURNAL": str(Path(tmp) / "cli.sqlite3")}
        subprocess.run([*DECIDE, "-a", "precedents=aucun"], env=env, stdout=subprocess.DEVNULL)  # warm the cache
        plain = process_median([*DECIDE, "-a", "precedents=aucun"], env, args.runs)
        subprocess.run([sys.executable, "-m", "ruling", "decide", "action-hors-tour", "--book", "club", "-a",
                        "cas=repetition", "--event", "bench", "--player", "Dupont"], env=env, stdout=subprocess.DEVNULL)
        recorded = process_median([*DECIDE, "--event", "bench", "--player", "Dupont"], env, args.runs)
        print(f"decide (ladder), no event:                {plain:.3f} s")
        print(f"decide (ladder), --event, journal answers: {recorded:.3f} s  (+{recorded - plain:.3f} s)")

        kb = load_kb()
        decision = decide(kb, "club", "echelle-des-sanctions", {"cas": "choisir", "gravite": "non", "precedents": "aucun"})
        path = Path(tmp) / "long.sqlite3"
        start = time.perf_counter()
        with Journal(path) as journal:
            for k in range(args.entries):
                journal.record(entry_for(kb, decision, "long", table=k % 20, players=[parse_player(f"J{k % 300}")]))
        elapsed = time.perf_counter() - start
        print(f"record {args.entries} entries in process: {elapsed:.2f} s ({1000 * elapsed / args.entries:.2f} ms each)")
        start = time.perf_counter()
        with Journal(path, create=False) as journal:
            entries = journal.entries("long")
        read = time.perf_counter() - start
        start = time.perf_counter()
        table_text(entries)
        csv_bytes(entries)
        rendered = time.perf_counter() - start
        print(f"read {len(entries)} entries: {read:.3f} s; table + CSV: {rendered:.3f} s")
        start = time.perf_counter()
        replay(kb, entries)
        print(f"replay {len(entries)} entries: {time.perf_counter() - start:.3f} s")
        print(f"file size: {path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
