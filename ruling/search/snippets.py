"""What a hit shows and what a miss suggests: whoosh's highlighter and its spelling corrector.

Snippets are `whoosh.highlight.highlight` over the clause text with the French analyzer, a
context fragmenter and a formatter that wraps each run of matched words in `**` (neighbouring
matched words make one run: "**Relance insuffisante**"). Suggestions ("vouliez-vous dire") are
whoosh's `ListCorrector` over the written words of the indexed texts.
"""
from __future__ import annotations

import re

SNIPPET_CHARS = 220
SNIPPET_SURROUND = 60  # context kept around the matched words
SNIPPET_CHARLIMIT = 2 ** 15  # whoosh.highlight.DEFAULT_CHARLIMIT: text further on is not looked at
SUGGEST_WORDS = 32

_FORMATTER = None


def _formatter():
    """A whoosh formatter writing `**word**`, one run for matched words separated by blanks only."""
    global _FORMATTER
    if _FORMATTER is None:
        from whoosh.highlight import Formatter, get_text

        class MarkdownBold(Formatter):
            between = " … "

            def format_token(self, text, token, replace=False):
                return f"**{get_text(text, token, replace)}**"

            def format_fragment(self, fragment, replace=False):
                out = super().format_fragment(fragment, replace)
                return re.sub(r"\*\*([\s'’-]+)\*\*", r"\1", out)  # "**a** **b**" -> "**a b**"

        _FORMATTER = MarkdownBold()
    return _FORMATTER


def snippet(text: str, terms: set[str], width: int = SNIPPET_CHARS, known: dict[str, str] | None = None) -> str:
    """A window of `text` around the matched terms (analysed), each run of them in `**`.

    The steps of `whoosh.highlight.highlight`, kept apart to know where the fragment starts
    and ends (an ellipsis marks text left out). `known`: see `analysis.french_analyzer`.
    """
    from whoosh.highlight import FIRST, BasicFragmentScorer, ContextFragmenter, set_matched_filter, top_fragments

    from ruling.search.analysis import french_analyzer

    text = text or ""
    fragments = []
    if terms and text:
        tokens = french_analyzer(known)(text, chars=True, mode="query", removestops=False)
        fragments = top_fragments(ContextFragmenter(maxchars=width, surround=SNIPPET_SURROUND, charlimit=SNIPPET_CHARLIMIT).fragment_tokens(
            text, set_matched_filter(tokens, frozenset(terms))), 1, BasicFragmentScorer(), FIRST)
    if fragments:
        fragment = fragments[0]
        start, end = fragment.startchar, fragment.endchar
        shown = _formatter().format_fragment(fragment)
    else:
        start, end = 0, len(text)
        if len(text) > width:
            end = len(text[:width].rsplit(" ", 1)[0])
        shown = text[start:end]
    shown = ("… " if text[:start].strip() else "") + shown + (" …" if text[end:].strip() else "")
    return re.sub(r"\s+", " ", shown.replace("\n", " · ")).strip()


def suggest(index, query: str, rerun) -> str | None:
    """The query with its unknown words replaced by the closest written words of the rulebook,
    if that finds something (`rerun(suggestion)` says whether it does)."""
    from whoosh.spelling import ListCorrector

    from ruling.search.analysis import STOP_WORDS, fold, stem, words

    corrector = ListCorrector(sorted(w for w in index.lexicon.words
                                     if len(w) >= 3 and w.isalpha() and w not in STOP_WORDS))
    pieces, pos, changed = [], 0, False
    for word, start, end in words(query)[:SUGGEST_WORDS]:
        folded = fold(word)
        if len(folded) < 3 or folded in STOP_WORDS or not folded.isalpha() or index.knows(stem(folded)):
            continue
        maxdist = 1 if len(folded) <= 4 else 2
        found = corrector.suggest(folded, limit=1, maxdist=maxdist)
        if not found:
            continue
        pieces += [query[pos:start], index.lexicon.words[found[0]]]
        pos, changed = end, True
    if not changed:
        return None
    suggestion = re.sub(r"\s+", " ", "".join(pieces) + query[pos:]).strip()
    return suggestion if rerun(suggestion) else None
