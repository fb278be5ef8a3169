"""The one-class French analyzer gives exactly the tokens of whoosh's tokenizer-and-filters chain.

`FrenchAnalyzer` replaced `FrenchTokenizer | FoldFilter | StopFilter | StemFilter` for speed (the
first search after install builds the index). The chain is rebuilt here from whoosh's own
filters as the reference, and both are run on every indexed text of the real base, in the
modes whoosh uses: indexing (positions), highlighting (chars, stop words kept), queries.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from whoosh.analysis import Filter, StemFilter, StopFilter, Tokenizer
from whoosh.analysis.acore import Token

from ruling.search.analysis import STOP_WORDS, FrenchAnalyzer, analyze, fold, stem, words
from ruling.search.index import SEARCH_FIELDS, documents


class _WordsTokenizer(Tokenizer):
    def __call__(self, value, positions=False, chars=False, keeporiginal=False, removestops=True,
                 start_pos=0, start_char=0, tokenize=True, mode="", **kwargs):
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        pieces = words(value) if tokenize else [(value, 0, len(value))]
        for pos, (word, start, end) in enumerate(pieces):
            t.text, t.boost, t.stopped = word, 1.0, False
            if keeporiginal:
                t.original = word
            if positions:
                t.pos = start_pos + pos
            if chars:
                t.startchar, t.endchar = start_char + start, start_char + end
            yield t


class _Fold(Filter):
    def __call__(self, tokens):
        for t in tokens:
            t.text = fold(t.text)
            yield t


def _reference():
    return _WordsTokenizer() | _Fold() | StopFilter(stoplist=STOP_WORDS, minsize=1) | StemFilter(stemfn=stem, cachesize=None)


MODES = [
    {"positions": True},  # indexing a phrase field
    {},  # indexing "all" (no positions)
    {"chars": True, "mode": "query", "removestops": False},  # highlighting a snippet
    {"chars": True, "positions": True, "keeporiginal": True, "start_pos": 3, "start_char": 7},
    {"tokenize": False},
]


def _stream(analyzer, text, mode):
    return [(t.text, t.stopped, getattr(t, "pos", None), getattr(t, "startchar", None), getattr(t, "endchar", None),
             getattr(t, "original", None)) for t in analyzer(text, **mode)]


@pytest.mark.parametrize("mode", MODES, ids=lambda m: ",".join(m) or "plain")
def test_same_tokens_as_the_whoosh_chain_on_the_whole_base(kb, mode):
    texts = [doc[name] for doc in documents(kb) for name in SEARCH_FIELDS if doc[name]]
    texts += ["Qu'il n'ait pas l’as", "le la les", "", "  ", "a" * 45 + " mot", "n'importe quoi d'autre"]
    ours, reference = FrenchAnalyzer(), _reference()
    assert len(texts) > 500
    for text in texts:
        assert _stream(ours, text, mode) == _stream(reference, text, mode), text[:80]


def test_stop_words_kept_for_highlighting_are_marked_and_not_stemmed():
    tokens = [(t.text, t.stopped) for t in FrenchAnalyzer()("les cartes brûlées", chars=True, removestops=False)]
    assert tokens == [("les", True), ("cart", False), ("brul", False)]


def test_positions_are_renumbered_over_the_words_kept():
    assert [(t.text, t.pos) for t in FrenchAnalyzer()("le joueur et la carte", positions=True)] == [("joueur", 1), ("cart", 2)]


def test_analyze_many_is_analyze_for_each_text():
    """The index build analyses the 3,200 phrasings through a memo of written words: the same terms."""
    import yaml

    from ruling.search.analysis import analyze_many

    said = yaml.safe_load((Path(__file__).resolve().parent.parent / "rulebook" / "phrasings.yaml").read_text(encoding="utf-8"))
    texts = [p for part in ("clauses", "situations") for v in said[part].values() for p in v]
    texts += ["N'a pas vu", "l’ordre d'arrivée", "Qu'il relance ET relance", "", "2-5 9.13 été Été"]
    memo: dict = {}
    assert analyze_many(texts, memo) == [analyze(t) for t in texts]
    assert memo["relance"] == "relanc" and memo["les"] is None
    assert analyze_many(["relance insuffisante"], {"relance": "zzz"}) == [["zzz", "insuffis"]]  # the memo is read
