"""French text analysis for search: words, accent folding, stop words, stems.

The same steps run on the rulebook when the index is built and on what a user types,
so "penalite", "pénalités" and "Pénalité" meet on one term. Order matters: elisions
are split (l', d', qu', also with ’), words are lowercased and accent-folded, folded
stop words are dropped (negations are kept: they change a ruling), then stemmed.
Part of `ruling.search` (it needs whoosh for the analyzer classes).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from whoosh.analysis import Analyzer
from whoosh.analysis.acore import Token
from whoosh.lang import stopwords_for_language

from ruling.search import whoosh_fast  # first: see its docstring

#: Elided particles written before an apostrophe: "l'ordre", "qu'il", "n’a".
ELISIONS = ("l", "d", "j", "m", "t", "s", "c", "n", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu")
_APOSTROPHES = "'’‘`´ʼ"
WORD_RE = re.compile(
    r"(?:(?P<elision>" + "|".join(sorted(ELISIONS, key=len, reverse=True)) + r")[" + _APOSTROPHES + r"])?"
    r"(?P<word>[^\W_]+)",
    re.IGNORECASE,
)
MAX_WORD = 40  # longer "words" (pasted garbage) are not indexed nor searched

#: Words that say nothing about a ruling situation; negations are not among them.
NEGATIONS = frozenset({"ne", "pas", "sans", "aucun", "aucune", "jamais", "plus", "ni", "non", "rien"})
_EXTRA_STOPS = {
    "a", "les", "cet", "cette", "ca", "cela", "ceci", "ils", "elles", "leurs", "si", "quoi", "comment",
    "quand", "quel", "quelle", "quels", "quelles", "lequel", "laquelle", "dont", "donc", "alors", "car",
    "the", "an", "is", "of", "in", "to", "and", "what", "when", "if", "with", "for",
}


@lru_cache(maxsize=50000)
def fold(text: str) -> str:
    """Lowercase and strip accents: "Brûlée" -> "brulee", "cœur" -> "coeur"."""
    text = text.lower().replace("œ", "oe").replace("æ", "ae")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


STOP_WORDS = frozenset(fold(w) for w in set(stopwords_for_language("fr")) | _EXTRA_STOPS) - NEGATIONS
_snowball = whoosh_fast.FrenchStemmer().stem  # stemmer_for_language("fr"), without the 13 other languages


@lru_cache(maxsize=20000)
def stem(word: str) -> str:
    """French Snowball stem of a folded word, plus the endings folding hides from it.

    Snowball knows "-é/-ée" and "-ité" only with their accents; once folded, "brulee" and
    "brule" would stem apart, so a final "e", a doubled consonant and "-it"/"-ier" are
    trimmed after the stemmer, the same way on both sides of the search. Negations are
    kept whole ("sans", not "san").
    """
    if not word.isalpha() or word in NEGATIONS:
        return word
    s = _snowball(word)
    while len(s) > 3 and s.endswith("e"):
        s = s[:-1]
    for double in ("enn", "onn", "ett", "ell", "eill"):
        if s.endswith(double):
            s = s[:-1]
            break
    if len(s) > 5 and s.endswith("ier"):
        s = s[:-2]
    elif len(s) >= 6 and s.endswith("it"):
        s = s[:-2]
    return s


def words(text: str) -> list[tuple[str, int, int]]:
    """(word, start, end) for each word of `text`; "n'" comes out as the negation "ne"."""
    out = []
    for m in WORD_RE.finditer(text):
        if m.group("elision") and m.group("elision").lower() == "n":
            out.append(("ne", m.start(), m.start("word")))
        word = m.group("word")
        if len(word) <= MAX_WORD:
            out.append((word, m.start("word"), m.end()))
    return out


def word_list(text: str) -> list[str]:
    """The words of `words(text)` without their offsets, in one regex pass (building an index
    needs no offsets: about four times faster than `words`, the bulk of a cold index build)."""
    out = []
    for elision, word in WORD_RE.findall(text):
        if elision and elision in "nN":
            out.append("ne")
        if len(word) <= MAX_WORD:
            out.append(word)
    return out


def analyze(text: str) -> list[str]:
    """The terms `text` is indexed (or searched) under, in order."""
    return [stem(w) for w in (fold(w) for w in word_list(text)) if w not in STOP_WORDS]


def analyze_many(texts: Iterable[str], memo: dict[str, str | None]) -> list[list[str]]:
    """`analyze` of each text, each written word looked up once in `memo` (word -> its term, None
    for a stop word) instead of folded, checked and stemmed again: the phrasings of an index
    build, 3,200 texts of few words."""
    out = []
    for text in texts:
        terms = []
        for word in word_list(text):
            term = memo.get(word, "")
            if term == "":
                folded = fold(word)
                term = memo[word] = None if folded in STOP_WORDS else stem(folded)
            if term is not None:
                terms.append(term)
        out.append(terms)
    return out


def analyze_spans(text: str) -> list[tuple[str, int, int]]:
    """(term, start, end) for each indexed word of `text`: what highlighting marks."""
    out = []
    for word, start, end in words(text):
        folded = fold(word)
        if folded not in STOP_WORDS:
            out.append((stem(folded), start, end))
    return out


# -- the same steps as one whoosh analyzer (pickled in the index schema) -------------------

class FrenchAnalyzer(Analyzer):
    """`words`, `fold`, stop words, `stem` as whoosh tokens: the analyzer of every text field.

    One class rather than a tokenizer and three filters: building the index (the first search
    after install) spent a third of its time passing tokens down whoosh's generator chain. It
    keeps that chain's behaviour exactly (`tests/test_search_analysis.py` compares them): stop
    words dropped, or kept marked `stopped` and not stemmed when `removestops=False` (what
    highlighting asks); positions renumbered over the words kept, from the first one's.
    `known` (folded word -> its term, from the index's lexicon) spares the stemmer the words
    already analysed when the index was built: what highlighting a snippet mostly meets.
    """

    def __init__(self, known: dict[str, str] | None = None):
        self.known = known

    def __eq__(self, other):
        return self.__class__ is other.__class__

    def __getstate__(self):  # the schema pickled in the index never carries a lexicon
        return {"known": None}

    def __call__(self, value, positions=False, chars=False, keeporiginal=False, removestops=True,
                 start_pos=0, start_char=0, tokenize=True, mode="", **kwargs):
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        known = self.known
        if not tokenize:
            pieces: Iterable[tuple[str, int, int]] = [(value, 0, len(value))]
        elif chars:
            pieces = words(value)
        else:  # indexing: no offsets wanted, one regex pass
            pieces = ((word, 0, 0) for word in word_list(value))
        kept_pos = None
        for pos, (word, start, end) in enumerate(pieces):
            folded = fold(word)
            if not folded or folded in STOP_WORDS:  # whoosh's StopFilter drops "" too (minsize 1)
                if removestops:
                    continue
                t.text, t.stopped = folded, True
                if positions:
                    t.pos = start_pos + pos
            else:
                t.text, t.stopped = (known.get(folded) or stem(folded)) if known else stem(folded), False
                if positions:
                    kept_pos = start_pos + pos if kept_pos is None else kept_pos + 1
                    t.pos = kept_pos
            t.boost = 1.0
            if keeporiginal:
                t.original = word
            if chars:
                t.startchar = start_char + start
                t.endchar = start_char + end
            yield t


def french_analyzer(known: dict[str, str] | None = None) -> FrenchAnalyzer:
    """The analyzer of every searchable text field of the index (see `FrenchAnalyzer`)."""
    return FrenchAnalyzer(known)
