"""A new outside batch measured as it is, before it joins the suites (and before any tuning on it).

`python bench/measure_batch.py QUERIES.yaml [SITUATIONS.yaml] [--show]`

QUERIES.yaml holds `queries:` in the format of tests/suites/search_queries_outside.yaml,
SITUATIONS.yaml `situations:` as in situations_outside.yaml. Prints `ruling search`'s recall@1 /
@3 per book and in all (the query's book as house book, clauses only, as bench/search_quality.py),
how many queries the suites already hold, and the picker's first proposals right
(scripts/picker_accuracy.py); `--show` lists the picker's misses.
"""
from __future__ import annotations

import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "scripts"))


def main() -> None:
    import picker_accuracy
    import search_quality
    import yaml

    from ruling.kb.load import load_kb

    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit(__doc__.strip().splitlines()[2])
    kb = load_kb()
    queries = yaml.safe_load(Path(args[0]).read_text(encoding="utf-8"))["queries"]
    known = {c["query"] for c in search_quality.load(search_quality.OUTSIDE) + search_quality.load(search_quality.FRESH)}
    print(f"already in the suites: {sum(c['query'] in known for c in queries)} of {len(queries)}")
    by_book = collections.defaultdict(list)
    for case in queries:
        by_book[case["book"]].append(case)
    one = three = 0
    for book, cases in by_book.items():
        r1, r3 = search_quality.recall(kb, cases, house=True)
        one, three = one + round(r1 * len(cases)), three + round(r3 * len(cases))
        print(f"search {book} ({len(cases)}): r@1 {r1:.1%} r@3 {r3:.1%}")
    print(f"search, all ({len(queries)}): {one} first, {three} in the top 3 ({one / len(queries):.1%} / {three / len(queries):.1%})")
    if len(args) > 1:
        entries = picker_accuracy.yaml_entries(Path(args[1]))
        proposals = picker_accuracy.first_proposals(kb, entries)
        right = sum(first == entry["expect"] for entry, first in proposals)
        print(f"picker: {right}/{len(entries)} first proposals right ({right / len(entries):.1%})")
        if "--show" in sys.argv[1:]:
            for entry, first in proposals:
                if first != entry["expect"]:
                    print(f"   {entry['words']!r}: attendu {entry['expect']}, proposé {first}")


if __name__ == "__main__":
    main()
