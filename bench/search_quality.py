"""Recall of `ruling search` on the query suites: the outside suite split train / held-out, the old suite.

Run: `python bench/search_quality.py [train|heldout|old|all] [--show-failures]`. A query of the
outside suite is held out when `int(sha1(query), 16) % 5 == 0` (about 20 %), else it is a
training query; held-out failures are never printed (tune on train only). Clauses only, with the
house book as a preference (`house=`) and without it.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = ROOT / "tests" / "suites" / "search_queries_outside.yaml"
OLD = ROOT / "tests" / "search_queries.yaml"


def held_out(query: str) -> bool:
    """The deterministic 80/20 split of the outside suite."""
    return int(hashlib.sha1(query.encode()).hexdigest(), 16) % 5 == 0


def load(path: Path) -> list[dict]:
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))["queries"]


def split(part: str) -> list[dict]:
    cases = load(OUTSIDE)
    if part == "train":
        return [c for c in cases if not held_out(c["query"])]
    if part == "heldout":
        return [c for c in cases if held_out(c["query"])]
    return cases


def passes(case: dict, refs: list[str]) -> tuple[bool, bool]:
    """(right at 1, right in the top 3) for one case, as the suites define them."""
    if "expect" in case:
        wanted = case["expect"]
        at1 = len(wanted) == 1 and bool(refs) and refs[0] == wanted[0]
        return at1, all(e in refs[:3] for e in wanted)
    wanted = case["expect_any"]
    return bool(refs) and refs[0] in wanted, any(e in refs[:3] for e in wanted)


def recall(kb, cases: list[dict], *, house: bool, kind: str | None = "clause", failures: list | None = None):
    """(recall@1, recall@3) over `cases`; failing cases appended to `failures` when given."""
    from ruling.search import search

    one = three = 0
    for case in cases:
        refs = [h.ref for h in search(kb, case["query"], kind=kind, limit=5,
                                      house=case.get("book") if house else "").hits]
        at1, at3 = passes(case, refs)
        one += at1
        three += at3
        if failures is not None and not at1:
            failures.append((case, refs[:3], at3))
    n = max(1, len(cases))
    return one / n, three / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=["train", "heldout", "old", "all"], default="train", nargs="?")
    parser.add_argument("--show-failures", action="store_true", help="train and old suites only")
    args = parser.parse_args()
    from ruling.kb.load import load_kb

    kb = load_kb()
    if args.part == "old":
        failures: list = []
        r1, r3 = recall(kb, load(OLD), house=False, kind=None, failures=failures)
        print(f"old suite ({len(load(OLD))}): r@1 {r1:.1%}  r@3 {r3:.1%}")
    else:
        cases = split(args.part)
        failures = []
        r1, r3 = recall(kb, cases, house=True,
                        failures=failures if args.show_failures and args.part == "train" else None)
        n1, n3 = recall(kb, cases, house=False)
        print(f"{args.part} ({len(cases)}): with house book r@1 {r1:.1%} r@3 {r3:.1%}; "
              f"without r@1 {n1:.1%} r@3 {n3:.1%}")
    if args.show_failures and args.part in ("train", "old"):
        for case, refs, at3 in failures:
            want = case.get("expect") or case.get("expect_any")
            print(f"{'  3' if at3 else 'XX '} {case['query']!r} want {want} got {refs}", file=sys.stderr)


if __name__ == "__main__":
    main()
