"""From what a user typed to a whoosh query: analysed words, glossary synonyms, typo neighbours.

Queries are built from analysed words, never parsed as whoosh syntax, so any string is a
valid query. Each thing the user asked about is a `Concept`: the term typed plus weighted
alternatives (glossary phrasings, typo corrections); `whoosh_query` turns the plan into
plain whoosh `Or`/`Term`/`Phrase` queries whose boosts are the weights of `ranking`.
"""
from __future__ import annotations

import re

from ruling.search import ranking

#: Longer queries (pasted text) keep their first MAX_CONCEPTS distinct words, and a long
#: query keeps only its LONG_QUERY_CONCEPTS rarest ones, without word pairs: the everyday
#: words of a pasted paragraph would score every entry and rank none of them better, and
#: would take whoosh 0.3-0.7 s on a 10,000-clause base.
MAX_CONCEPTS = 32
LONG_QUERY_CONCEPTS = 8
MAX_QUERY_WORDS = 200
MAX_PAIRS = 8  # pairs of neighbouring words looked for as near phrases (the first ones)


# -- glossary: groups of equivalent phrasings ------------------------------------------------

class GlossaryMap:
    """Each glossary entry's phrasings as analysed term sequences.

    `by_terms` recognises any phrasing of an entry in a query; `groups` lists, per entry,
    the phrasings a recognised one is expanded to. (This module's classes are plain ones:
    a dataclass would import `inspect` into every `ruling search`.)
    """

    __slots__ = ("groups", "by_terms", "longest")

    def __init__(self, groups: list[list[tuple[str, ...]]], by_terms: dict[tuple[str, ...], list[int]], longest: int):
        self.groups = groups
        self.by_terms = by_terms
        self.longest = longest

    def to_json(self) -> dict:
        return {"groups": [[list(t) for t in g] for g in self.groups],
                "by_terms": [[list(t), g] for t, g in self.by_terms.items()]}

    @classmethod
    def from_json(cls, data: dict) -> GlossaryMap:
        by_terms = {tuple(t): list(g) for t, g in data["by_terms"]}
        return cls([[tuple(t) for t in g] for g in data["groups"]], by_terms,
                   max((len(t) for t in by_terms), default=1))

    def single_words(self) -> list[str]:
        """The one-word phrasings, sorted (what a typo is corrected against)."""
        return sorted({t[0] for t in self.by_terms if len(t) == 1})


def stands_for_others(phrasing: str, terms) -> bool:
    """Whether a glossary phrasing, analysed as `terms`, may stand for its entry's other phrasings:
    not when its stop words reduce it to one word. « un contre un » is recognised when typed, but
    « contre » alone would find « par contre »; « je parle » (a check) is not « ils ont parlé »."""
    from ruling.search.analysis import words

    return len(terms) > 1 or len(words(phrasing)) == 1


def glossary_map(glossary: list) -> GlossaryMap:
    """The glossary analysed: which phrasings are recognised, and what they expand to."""
    from ruling.search.analysis import analyze

    groups: list[list[tuple[str, ...]]] = []
    by_terms: dict[tuple[str, ...], list[int]] = {}
    for entry in glossary:
        if not isinstance(entry, dict):
            continue
        phrasings = [entry.get("term", "")] + list(entry.get("en") or []) + list(entry.get("synonyms") or [])
        recognised: list[tuple[str, ...]] = []
        expansions: list[tuple[str, ...]] = []
        for phrasing in phrasings:
            terms = tuple(analyze(str(phrasing)))
            if not terms or terms in recognised:
                continue
            recognised.append(terms)
            if stands_for_others(str(phrasing), terms):
                expansions.append(terms)
        for terms in recognised:
            by_terms.setdefault(terms, []).append(len(groups))
        groups.append(expansions)
    return GlossaryMap(groups, by_terms, max((len(t) for t in by_terms), default=1))


# -- from a query string to weighted alternatives ---------------------------------------------

def fuzzy_distance(word: str) -> int:
    """Typos tolerated in a typed word: none under 5 letters, 1 up to 7, 2 from 8."""
    if len(word) >= 8:
        return 2
    if len(word) >= 5:
        return 1
    return 0


class Concept:
    """One thing the user asked about: alternative term sequences, each with a weight."""

    __slots__ = ("variants",)

    def __init__(self, variants: list[tuple[tuple[str, ...], float]]):
        self.variants = variants

    def __repr__(self) -> str:
        return f"Concept({self.variants!r})"


NUMBER_RE = re.compile(r"^[a-z0-9@:._-]*\d[a-z0-9@:._-]*$")
ID_RE = re.compile(r"^[a-z][a-z0-9]*(?:[:-][a-z0-9]+)+$")
NUMBER_PUNCTUATION = "\"'«»“”()[]{}<>,;!?"
#: Words that announce a rule number (« règle 9-13 », « article 9.13 »): beside a number the
#: query names, they are about that number, not words to look for (« règle » would otherwise
#: find 1-6, which says « règlement » three times, before 9-13). Folded, as typed words are. A
#: bare integer is a rule number only right after one of them (« article 5 »): the cash book
#: numbers its rules 1 to 16 within each section, and « seat 5 » or « 3 joueurs » named them.
NUMBER_WORDS = frozenset({"regle", "regles", "article", "articles", "art", "reglement", "numero", "no"})


class QueryPlan:
    """What to look for: the concepts of the query, the pairs of words typed side by side
    (a small bonus where the text has them together) and the printed numbers it names."""

    __slots__ = ("concepts", "pairs", "numbers")

    def __init__(self, concepts: list[Concept], pairs: list[tuple[str, str]], numbers: list[str]):
        self.concepts = concepts
        self.pairs = pairs
        self.numbers = numbers

    def __repr__(self) -> str:
        return f"QueryPlan(concepts={self.concepts!r}, pairs={self.pairs!r}, numbers={self.numbers!r})"

    @property
    def empty(self) -> bool:
        return not self.concepts and not self.numbers

    @property
    def highlight_terms(self) -> set[str]:
        """The analysed terms to mark in snippets."""
        return {t for c in self.concepts for terms, _ in c.variants for t in terms}

    @classmethod
    def build(cls, query: str, index) -> QueryPlan:
        from ruling.search.analysis import STOP_WORDS, fold, stem, words

        gmap = index.glossary
        numbers, named = [], []
        before = ""
        for m in list(re.finditer(r"\S+", query))[:MAX_CONCEPTS]:
            raw = m.group().lower().strip(NUMBER_PUNCTUATION)
            announced, before = fold(before) in NUMBER_WORDS, raw
            if raw.isascii() and raw.isdigit() and not announced and index.knows_number(raw):
                named.append((m.start(), m.end()))  # « seat 5 », « 3 joueurs »: not the cash rules numbered 5,
                continue  # and, as before, not a word either
            # a number ("9-13"), or an id written with a dash or colon that names an entry
            # ("flop-irregulier", a procedure): that entry, not its words
            if raw and len(raw) <= 40 and (NUMBER_RE.match(raw) or (ID_RE.match(raw) and index.knows_number(raw))):
                if raw not in numbers:
                    numbers.append(raw)
                if index.knows_number(raw):
                    named.append((m.start(), m.end()))
        # A printed number that exists ("9-13") names its entry: its digits are not words.
        spans = [(w, s, e) for w, s, e in words(query)[:MAX_QUERY_WORDS]
                 if not any(a <= s and e <= b for a, b in named)]
        typed = [fold(w) for w, _, _ in spans]
        typed = [w for w in typed if w not in STOP_WORDS and not (named and w in NUMBER_WORDS)]
        stems = [stem(w) for w in typed]
        concepts: list[Concept] = []
        seen: dict[frozenset, Concept] = {}

        def add(variants):
            """Add a concept; the same alternatives met again keep their best weights."""
            key = frozenset(v for v, _ in variants)
            if key in seen:
                concept = seen[key]
                best = dict(concept.variants)
                for v, w in variants:
                    best[v] = max(best.get(v, 0.0), w)
                concept.variants = list(best.items())
            elif len(concepts) < MAX_CONCEPTS:
                seen[key] = Concept(list(variants))
                concepts.append(seen[key])

        def word_concept(i, scale=1.0):
            variants = [((stems[i],), scale)]
            if index.knows(stems[i]):
                return variants  # a word of the rulebook: its typo neighbours would only add noise
            near = index.near_terms(stems[i], fuzzy_distance(typed[i]))
            return variants + [((t,), ranking.FUZZY_WEIGHT * scale) for t in near]

        # A mistyped word is read as its closest indexed term when looking for glossary
        # phrasings, so "relanse insufisante" is still the entry "relance insuffisante".
        corrected = [s if index.knows(s) else index.closest_term(s, fuzzy_distance(w)) or s
                     for s, w in zip(stems, typed)]
        i = 0
        while i < len(stems) and len(concepts) < MAX_CONCEPTS:
            span, groups = _glossary_span(corrected, i, gmap)
            if not groups and not index.knows(stems[i]):
                groups = index.glossary_typo(typed[i], fuzzy_distance(typed[i]))
                span = 1 if groups else 0
            if not groups:
                add(word_concept(i))
                i += 1
                continue
            typed_terms = tuple(stems[i:i + span])
            variants = [(typed_terms, 1.0)]
            weight = ranking.SYNONYM_WEIGHT if index.rarity(typed_terms) else ranking.SYNONYM_WEIGHT_UNKNOWN
            for g in groups:
                # A phrasing made of the phrase's own words ("brûlée" for "carte brûlée") is
                # left out: those words count one by one below, and the score sums.
                variants += [(v, weight * index.rarity_cap(typed_terms, v))
                             for v in gmap.groups[g] if v != typed_terms
                             and not (span > 1 and set(v) <= set(typed_terms))]
            if span == 1 and not index.knows(stems[i]):
                variants += word_concept(i)[1:]
            add(variants)
            if span > 1:  # the words of a phrase also count one by one, a little
                for j in range(i, i + span):
                    add(word_concept(j, ranking.PHRASE_WORD_WEIGHT))
            i += span
        pairs = list(dict.fromkeys(zip(stems, stems[1:])))[:MAX_PAIRS]
        if len(concepts) > LONG_QUERY_CONCEPTS:  # pasted text: its rarest words, no phrases
            concepts, pairs = _rarest(concepts, index), []
        return cls(concepts, pairs, numbers)


def _rarest(concepts: list[Concept], index) -> list[Concept]:
    """The LONG_QUERY_CONCEPTS concepts whose typed words are rarest, in query order."""
    rarity = [index.rarity(c.variants[0][0]) or 99.0 for c in concepts]  # an unknown word: typo, keep
    keep = sorted(range(len(concepts)), key=lambda k: -rarity[k])[:LONG_QUERY_CONCEPTS]
    return [concepts[k] for k in sorted(keep)]


def _glossary_span(stems: list[str], i: int, gmap: GlossaryMap) -> tuple[int, list[int]]:
    """The longest glossary phrasing starting at word `i`: (its length, its groups)."""
    for span in range(min(gmap.longest, len(stems) - i), 0, -1):
        groups = gmap.by_terms.get(tuple(stems[i:i + span]))
        if groups:
            return span, groups
    return 0, []


def whoosh_query(plan: QueryPlan):
    """The plan as one whoosh `Or`: every alternative of every concept in every field, the pair
    phrases and the numbers, each boosted by its weight times its field's boost (see ranking)."""
    from whoosh.query import Or, Phrase

    parts = [part for concept in plan.concepts for part in _concept_parts(concept)]
    for pair in plan.pairs:
        parts += [Phrase(name, list(pair), slop=ranking.PAIR_SLOP, boost=ranking.FIELD_BOOSTS[name] * ranking.PAIR_WEIGHT)
                  for name in ranking.PAIR_FIELDS]
    parts += [_number_part(n) for n in plan.numbers]
    return Or(parts)


def asked(plan: QueryPlan) -> list[list[tuple[str, tuple[str, ...]]]]:
    """Each thing asked about (each concept, each printed number) as its alternatives, (field,
    terms): "" for a word of any field, "number" for a printed number (see ranking.COVERAGE_POWER)."""
    return [[("", terms) for terms, _ in c.variants] for c in plan.concepts] + [[("number", (n,))] for n in plan.numbers]


def _concept_parts(concept: Concept) -> list:
    """Every alternative of `concept` in every field (one of several words in the phrase fields
    only), boosted by its weight times the field's boost."""
    from whoosh.query import Phrase, Term

    parts = []
    for terms, weight in concept.variants:
        for name, boost in ranking.FIELD_BOOSTS.items():
            if len(terms) == 1:
                parts.append(Term(name, terms[0], boost=boost * weight))
            elif name in ranking.PHRASE_FIELDS:
                parts.append(Phrase(name, list(terms), boost=boost * weight))
    return parts


def _number_part(number: str):
    from whoosh.query import Term

    return Term("number", number, boost=ranking.NUMBER_BOOST)
