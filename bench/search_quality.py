"""Recall of `ruling search` on the query suites: the outside suite split train / held-out, the old suite.

Run: `python bench/search_quality.py [train|heldout|old|all|cv|fresh] [--show-failures]`. A query of the
outside suite is held out when `int(sha1(query), 16) % 5 == 0` (about 20 %), else it is a
training query; held-out failures are never printed (tune on train only). `fresh` is a second
held-out suite, written by another outside writer after the tuning (never tuned on, failures never printed). Clauses only, with the
house book as a preference (`house=`) and without it.

`cv` estimates how a change generalises without looking at the held-out part: the training
queries are split in 4 folds (`sha1("cv:" + query) % 4`); each fold is searched in an index
whose clause keywords copied from that fold's own queries are removed (a keyword most of whose
words are in one query), and its queries themselves from the phrasings (rulebook/phrasings.yaml),
so a fold only gains from what other queries taught. With
`--grid NAME=v1,v2` (a constant of `ruling.search.ranking`, `field.title` for a field boost),
each fold is scored with the values that do best on the three other folds.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = ROOT / "tests" / "suites" / "search_queries_outside.yaml"
OLD = ROOT / "tests" / "search_queries.yaml"
FRESH = ROOT / "tests" / "suites" / "search_queries_fresh.yaml"  # a second held-out set, never tuned on


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


FOLDS = 4
COPIED = 0.6  # a keyword is a copy of a query when this share of its words is in the query


def fold_of(query: str) -> int:
    """The cross-validation fold of a training query (a hash independent of the 80/20 split)."""
    return int(hashlib.sha1(f"cv:{query}".encode()).hexdigest(), 16) % FOLDS


def copied_from(keyword: str, queries: list[str]) -> bool:
    """Whether `keyword` repeats one of `queries` (most of its analysed words are in it)."""
    from ruling.search.analysis import analyze

    terms = set(analyze(keyword))
    return bool(terms) and any(len(terms & set(analyze(q))) >= COPIED * len(terms) for q in queries)


def phrasings_without(phrasings: str, own) -> str:
    """An entry's "phrasings" field without the phrasings in `own` (a fold's own queries, exactly)."""
    from ruling.search.index import PHRASINGS_SEPARATOR

    return PHRASINGS_SEPARATOR.join(w for w in phrasings.split(PHRASINGS_SEPARATOR) if w and w not in own)


def fold_index(kb, queries: list[str], cache_key: str):
    """An index in memory of `kb` whose clause keywords copied from `queries`, and `queries` as
    phrasings, are left out."""
    from ruling.search.index import default_house, documents, ram_index

    docs, own = documents(kb), set(queries)
    for clause, doc in zip(kb.clauses(), docs):
        kept = [k for k in (getattr(clause, "keywords", None) or []) if not copied_from(k, queries)]
        doc["keywords"] = " ; ".join(list(clause.topics) + kept)
        # a fold's own queries, exactly: the phrasings of other queries stay, as they do for held-out ones
        doc["phrasings"] = phrasings_without(doc["phrasings"], own)
    return ram_index(docs, kb.glossary, [b.id for b in kb.books], cache_key, default_house(kb))


def fold_recall(index, cases: list[dict], failures: list | None = None) -> tuple[float, float]:
    """(recall@1, recall@3) of `cases` in `index`, clauses only, the case's book as house book."""
    from ruling.search import _search

    one = three = 0
    for case in cases:
        refs = [h.ref for h in _search(index, case["query"], None, "clause", 5, case.get("book")).hits]
        at1, at3 = passes(case, refs)
        one, three = one + at1, three + at3
        if failures is not None and not at1:
            failures.append((case, refs[:3], at3))
    return one / max(1, len(cases)), three / max(1, len(cases))


def grid_settings(specs: list[str]) -> list[dict]:
    """Every combination of the `NAME=v1,v2` values given (one empty setting without any)."""
    import itertools

    names, values = [], []
    for spec in specs:
        name, _, vals = spec.partition("=")
        names.append(name.strip())
        values.append([float(v) for v in vals.split(",")])
    return [dict(zip(names, combo)) for combo in itertools.product(*values)]


def apply_setting(setting: dict) -> dict:
    """Set the ranking constants of `setting`; returns the previous values."""
    from ruling.search import ranking

    old = {}
    for name, value in setting.items():
        if name.startswith("field."):
            old[name] = ranking.FIELD_BOOSTS[name[6:]]
            ranking.FIELD_BOOSTS[name[6:]] = value
        else:
            old[name] = getattr(ranking, name)
            setattr(ranking, name, type(old[name])(value))
    return old


def cross_validate(kb, specs: list[str], failures: list | None = None) -> None:
    """Print each setting's mean over folds, and the honest estimate (values chosen elsewhere)."""
    cases = split("train")
    folds = [[c for c in cases if fold_of(c["query"]) == k] for k in range(FOLDS)]
    settings = grid_settings(specs)
    scores = []  # scores[k][s]: (r@1, r@3) of fold k, setting s, keywords of fold k removed
    for k, fold in enumerate(folds):
        index = fold_index(kb, [c["query"] for c in fold], f"cv-{k}")
        row = []
        for setting in settings:
            old = apply_setting(setting)
            index.forget_searchers()
            row.append(fold_recall(index, fold, failures if len(settings) == 1 else None))
            apply_setting(old)
        scores.append(row)
    for s, setting in enumerate(settings):
        r1 = sum(scores[k][s][0] for k in range(FOLDS)) / FOLDS
        r3 = sum(scores[k][s][1] for k in range(FOLDS)) / FOLDS
        print(f"cv {setting or 'as is'}: r@1 {r1:.1%} r@3 {r3:.1%}")
    if len(settings) > 1:
        honest1 = honest3 = 0.0
        for k in range(FOLDS):
            best = max(range(len(settings)), key=lambda s: sum(
                scores[j][s][0] + scores[j][s][1] for j in range(FOLDS) if j != k))
            honest1 += scores[k][best][0] / FOLDS
            honest3 += scores[k][best][1] / FOLDS
            print(f"fold {k}: chosen on the others {settings[best]}")
        print(f"cv, values chosen on the other folds: r@1 {honest1:.1%} r@3 {honest3:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=["train", "heldout", "old", "all", "cv", "fresh"], default="train", nargs="?")
    parser.add_argument("--show-failures", action="store_true", help="train, cv and old suites only")
    parser.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2",
                        help="cv: a ranking constant's values to try")
    args = parser.parse_args()
    from ruling.kb.load import load_kb

    kb = load_kb()
    failures: list = []
    if args.part == "cv":
        cross_validate(kb, args.grid, failures)
    elif args.part == "old":
        r1, r3 = recall(kb, load(OLD), house=False, kind=None, failures=failures)
        print(f"old suite ({len(load(OLD))}): r@1 {r1:.1%}  r@3 {r3:.1%}")
    else:
        cases = load(FRESH) if args.part == "fresh" else split(args.part)
        r1, r3 = recall(kb, cases, house=True,
                        failures=failures if args.show_failures and args.part == "train" else None)
        n1, n3 = recall(kb, cases, house=False)
        print(f"{args.part} ({len(cases)}): with house book r@1 {r1:.1%} r@3 {r3:.1%}; "
              f"without r@1 {n1:.1%} r@3 {n3:.1%}")
    if args.show_failures and args.part in ("train", "old", "cv"):
        for case, refs, at3 in failures:
            want = case.get("expect") or case.get("expect_any")
            print(f"{'  3' if at3 else 'XX '} {case['query']!r} want {want} got {refs}", file=sys.stderr)


if __name__ == "__main__":
    main()
