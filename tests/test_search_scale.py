"""The search on bases of another shape: several index segments, a synthetic base of 2,040 entries.

bench/synthetic.py makes 4 books × 500 clauses drawn from the rulebooks' vocabulary and 10
situations with a procedure in each book, so every everyday word is in hundreds of entries and
each situation has four procedures that whoosh must collapse into one hit.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import yaml

from ruling.search import QueryPlan, ranked, search
from ruling.search.index import Lexicon, SearchIndex, documents, indexed, open_index, schema

ROOT = Path(__file__).resolve().parent.parent
SUITE = yaml.safe_load((ROOT / "tests" / "search_queries.yaml").read_text(encoding="utf-8"))["queries"]


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """The index of a synthetic base of 4 books × 500 clauses and 40 procedures."""
    spec = importlib.util.spec_from_file_location("bench_synthetic", ROOT / "bench" / "synthetic.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from ruling.kb.load import load_kb

    kb = load_kb(module.generate(tmp_path_factory.mktemp("synthetic") / "kb", books=4, clauses=500, procedures=40))
    return kb, open_index(kb)


def test_procedures_are_collapsed_per_situation_on_the_synthetic_base(synthetic):
    kb, index = synthetic
    assert index.searcher.doc_count() == 4 * 500 + 40
    hits = search(kb, "cas volontaire", kind="procedure", limit=20).hits
    assert len(hits) == 10 and len({h.ref for h in hits}) == 10  # each situation in all 4 books, listed once


def test_house_book_comes_first_without_filtering_the_others(synthetic):
    kb, _ = synthetic
    plain = search(kb, "joueur carte jeton", kind="clause", limit=30).hits
    housed = search(kb, "joueur carte jeton", kind="clause", limit=30, house="livre03").hits
    assert {h.book for h in plain[:5]} != {"livre03"}  # without it the books are mixed
    assert [h.book for h in housed[:10]] == ["livre03"] * 10
    # a preference, not a filter: the other books follow (« joueur carte jeton » is in most of the
    # 500 clauses of livre03, so they come after more than 300 of them)
    wider = search(kb, "joueur carte jeton", kind="clause", limit=1000, house="livre03").hits
    assert any(h.book != "livre03" for h in wider)


def test_an_index_of_several_segments_ranks_as_one(kb):
    from whoosh.filedb.filestore import RamStorage

    docs = documents(kb)
    ix = RamStorage().create_index(schema())
    for chunk in (docs[:120], docs[120:240], docs[240:]):
        writer = ix.writer()
        for doc in chunk:
            writer.add_document(**indexed(doc))
        writer.commit(merge=False)
    lexicon = Lexicon.build(docs, kb.glossary, [b.id for b in kb.books])
    lexicon.note_documents(ix)
    split = SearchIndex(ix, lexicon, None, "test-segments")
    assert len(split.searcher.leaf_searchers()) == 3
    whole = open_index(kb)
    for case in SUITE[:20] + [{"query": "relance"}]:
        for house in (None, "club"):
            a = ranked(split, QueryPlan.build(case["query"], split), house=house, book=None, kind=None, limit=10)
            b = ranked(whole, QueryPlan.build(case["query"], whole), house=house, book=None, kind=None, limit=10)
            assert [n for n, _ in a] == [n for n, _ in b], case["query"]
            assert [round(s, 6) for _, s in a] == [round(s, 6) for _, s in b], case["query"]
