"""Every command given a huge argument (100,000 characters): process time and output size.

Input lengths are bounded before any quadratic work (nearest-name suggestions, answer parsing),
so each answer should take about as long as the command itself, and print one bounded line.
Run: python bench/bench_huge_args.py [--size 100000]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def cases(huge: str) -> list[tuple[str, list[str]]]:
    return [
        ("show CITATION", ["show", "9-13" + huge]),
        ("show club:CITATION", ["show", "club:" + huge]),
        ("show --book LIVRE", ["show", "9-13", "--book", huge]),
        ("list LIVRE", ["list", huge]),
        ("decide PROCÉDURE", ["decide", huge]),
        ("decide -a mises=…", ["decide", "relance-minimum", "--book", "club", "-a", "demande=minimum",
                               "-a", "tour=apres-flop", "-a", "grosse-blind=100", "-a", "mises=" + "9" * len(huge)]),
        ("decide -a QUESTION=…", ["decide", "flop-irregulier", "--book", "club", "-a", huge + "=1"]),
        ("compare SITUATION", ["compare", huge]),
        ("procedures --book LIVRE", ["procedures", "--book", huge]),
        ("search MOTS", ["search", huge]),
        ("search MOTS (words)", ["search", " ".join(["relance"] * (len(huge) // 8))]),
        ("diff CÔTÉ", ["diff", huge]),
        ("ask MOTS", ["ask", huge]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100_000)
    args = parser.parse_args()
    huge = "a" * args.size
    ruling = [sys.executable, "-m", "ruling"]
    subprocess.run(ruling + ["show", "9-13"], capture_output=True, check=True)  # warm the cache
    print(f"| command ({args.size:,} characters) | time (s) | exit | output (bytes) |")
    print("|---|---|---|---|")
    for label, argv in cases(huge):
        start = time.perf_counter()
        proc = subprocess.run(ruling + argv, capture_output=True, input=b"", env=dict(os.environ), timeout=600)
        took = time.perf_counter() - start
        print(f"| {label} | {took:.2f} | {proc.returncode} | {len(proc.stdout) + len(proc.stderr):,} |")


if __name__ == "__main__":
    main()
