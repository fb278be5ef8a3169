"""Query time in process with whoosh's block-quality skipping on and off (`optimize=` of `Searcher.search`).

Run: `python bench/bench_search_skipping.py [--rounds 12]`. Every query of the three suites
(outside, old, fresh) is searched through `ruling.search.search` once per round and per mode, the
two modes in a random order each round so that both share the machine's load; the hits of the two
modes are compared first (they must be the same, in the same order, with the same scores).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import search_quality  # noqa: E402
import whoosh.searching  # noqa: E402

from ruling.kb.load import load_kb  # noqa: E402
from ruling.search import search  # noqa: E402

_real_search = whoosh.searching.Searcher.search
_mode = {"optimize": False}


def _search_with_mode(self, query, **options):
    options["optimize"] = _mode["optimize"]
    return _real_search(self, query, **options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    rounds = parser.parse_args().rounds
    whoosh.searching.Searcher.search = _search_with_mode
    kb = load_kb()
    cases = sum((search_quality.load(p) for p in (search_quality.OUTSIDE, search_quality.OLD, search_quality.FRESH)), [])
    queries = [case["query"] for case in cases]
    answers = {}
    for optimize in (True, False):
        _mode["optimize"] = optimize
        answers[optimize] = [[(hit.ref, round(hit.score, 9)) for hit in search(kb, q).hits] for q in queries]
    differ = sum(a != b for a, b in zip(answers[True], answers[False]))
    print(f"{len(queries)} queries, hits differing between the two modes: {differ}")
    times: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(rounds):
        order = [True, False]
        random.shuffle(order)
        for optimize in order:
            _mode["optimize"] = optimize
            start = time.perf_counter()
            for query in queries:
                search(kb, query)
            times[optimize].append((time.perf_counter() - start) / len(queries) * 1000)
    faster = sum(off < on for on, off in zip(times[True], times[False]))
    for optimize in (True, False):
        print(f"optimize={optimize}: median {statistics.median(times[optimize]):.2f} ms/query, "
              f"min {min(times[optimize]):.2f}")
    print(f"rounds where optimize=False was faster: {faster}/{rounds}")


if __name__ == "__main__":
    main()
