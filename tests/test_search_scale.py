"""The search's fast scoring lists exactly what scoring every match lists.

`ruling.search.top_scores` skips the entries that provably cannot be among the hits (MaxScore);
these tests compare each search with whoosh's exhaustive search of the same query, ranked the
same way: on the real base, on an index of several segments, and on a synthetic base made by
bench/synthetic.py (4 books × 500 clauses drawn from the rulebooks' vocabulary, 10 situations
with a procedure in each book), where everyday words are in hundreds of entries and most of
them are really skipped. Both bases hold fewer than 5,000 entries, so whoosh adds the parts'
scores in query order as `top_scores` does: the scores must be equal to the last bit.
"""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
import yaml

from ruling import search as S

ROOT = Path(__file__).resolve().parent.parent
SUITE = yaml.safe_load((ROOT / "tests" / "search_queries.yaml").read_text(encoding="utf-8"))["queries"]
EVERYDAY = ["carte brulee", "relance minimum tapis", "joueur absent", "jeton superieur", "fausse donne",
            "joueur", "le joueur montre ses cartes a la table", "relanse insufisante", "mise tapis joueur jeton"]
FILTERS = [(None, None), (None, "clause"), (None, "procedure")]


def exhaustive_scores(index, plan, allowed) -> dict[int, float]:
    """Every match scored by whoosh itself, as searches did before `top_scores`."""
    return dict(index.searcher.search(S._whoosh_query(plan), limit=None, filter=allowed).items())


def check_same_hits(index, query, book=None, kind=None, limits=(1, 3, 10, 30)) -> tuple[int, int]:
    """Assert `index.run` equals the exhaustive ranking; return (entries scored, entries matched)."""
    plan = S.QueryPlan.build(query, index)
    if plan.empty:
        return 0, 0
    allowed = index.allowed(book, kind)
    reference = exhaustive_scores(index, plan, allowed)
    for limit in limits:
        assert index.run(plan, book, kind, limit) == index.hits(reference, plan, limit), (query, book, kind, limit)
    scored = S.top_scores(index.searcher, S._whoosh_query(plan), 10, allowed, index.lexicon.procedure_groups)
    assert all(scored[n] == reference[n] for n in scored), query  # same scores, to the last bit
    return len(scored), len(reference)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """The index of a synthetic base of 4 books × 500 clauses and 40 procedures."""
    spec = importlib.util.spec_from_file_location("bench_synthetic", ROOT / "bench" / "synthetic.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from ruling.kb.load import load_kb

    kb = load_kb(module.generate(tmp_path_factory.mktemp("synthetic") / "kb", books=4, clauses=500, procedures=40))
    return kb, S.open_index(kb)


def test_real_base_hits_are_those_of_scoring_every_match(kb):
    index = S.open_index(kb)
    filters = [(None, "clause"), (None, "procedure"), ("tda", None), ("club", "clause")]
    for n, case in enumerate(SUITE):  # unfiltered, and one filter in turn
        for book, kind in [(None, None), filters[n % len(filters)]]:
            check_same_hits(index, case["query"], book, kind, limits=(1, 10))


def test_synthetic_base_hits_are_those_of_scoring_every_match_and_most_are_skipped(synthetic):
    kb, index = synthetic
    assert index.searcher.doc_count() == 4 * 500 + 40
    vocabulary = sorted({w for w, (_, term) in index.lexicon.words.items() if term and w.isalpha()})
    rng = random.Random(5)
    queries = EVERYDAY + [" ".join(rng.sample(vocabulary, rng.randint(1, 4))) for _ in range(25)]
    queries += ["2-7", "livre02:3-14 carte", "situation-3 joueur", "procedure situation"]
    scored = matched = 0
    for query in queries:
        for book, kind in FILTERS + [("livre03", None)]:
            s, m = check_same_hits(index, query, book, kind)
            scored, matched = scored + s, matched + m
    for query in EVERYDAY[:5]:
        s, m = check_same_hits(index, query)
        assert s < m / 2, f"{query!r}: {s} entries scored out of {m}"  # the skipping is exercised
    assert scored < matched / 2


def test_procedures_are_collapsed_per_situation_on_the_synthetic_base(synthetic):
    kb, index = synthetic
    hits = S.search(kb, "cas volontaire", kind="procedure", limit=20).hits
    assert hits and len({h.ref for h in hits}) == len(hits)  # each situation is in all 4 books, listed once


def test_an_index_of_several_segments_ranks_as_one(kb):
    from whoosh.filedb.filestore import RamStorage

    docs = S.documents(kb)
    ix = RamStorage().create_index(S._schema())
    for chunk in (docs[:120], docs[120:240], docs[240:]):
        writer = ix.writer()
        for doc in chunk:
            writer.add_document(**doc, all="\n".join(doc[name] for name in S.FIELD_BOOSTS))
        writer.commit(merge=False)
    lexicon = S.Lexicon.build(docs, kb.glossary, [b.id for b in kb.books])
    lexicon.note_procedures(ix)
    index = S.SearchIndex(ix, lexicon, None, "test-segments")
    assert len(index.searcher.leaf_searchers()) == 3
    for case in SUITE[:20]:
        check_same_hits(index, case["query"], limits=(1, 10))
    check_same_hits(index, "relance", kind="procedure")
