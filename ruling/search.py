"""Full-text search over clauses and procedures, the way a tournament director types.

`search(kb, "relanse insufisante")` returns ranked hits (clauses of the current
revisions and decision procedures) with highlighted snippets, and a "vouliez-vous
dire …" suggestion when nothing matches. Behind it: a whoosh index built once per
knowledge-base content hash in the user cache (`$XDG_CACHE_HOME/ruling/index-<digest>`),
the French analysis of `ruling.analysis`, glossary synonyms expanded at query time and
typo-tolerant terms. Queries are built from analysed words, never parsed as whoosh
syntax, so any string is a valid query. whoosh is imported only with this module, which
only the commands that search import.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ruling import whoosh_fast  # noqa: F401  (before any whoosh import: see its docstring)
from ruling.errors import UserError, shown

INDEX_FORMAT = "9"  # bump when the schema or the analysis changes: older indexes get rebuilt
MARKER = "ruling-index.ok"  # written last, before the rename: its absence means half-written
LEXICON = "lexicon.json"  # the words and the analysed glossary, so a search analyses almost nothing

#: How much a word found in each field counts (a title match beats a mention in the text).
FIELD_BOOSTS = {"title": 3.0, "keywords": 2.0, "chapter": 0.6, "body": 1.0}
FIELD_TIEBREAK = 0.3  # a word in several fields: the best field counts, the others a little
#: Procedures are ranked among clauses, their score scaled down: their questions and
#: keyword lists hold many everyday words that would otherwise push the clause aside.
PROCEDURE_WEIGHT = 0.6
NUMBER_BOOST = 12.0  # "9-13", "club:9-13", a procedure id: straight to that entry
#: A glossary equivalent counts less than the word typed when that word is in the rulebook
#: (exact hits first), and almost as much when it is not ("overchip"): it is then the only
#: reading of what was typed.
SYNONYM_WEIGHT, SYNONYM_WEIGHT_UNKNOWN = 0.5, 0.9
#: Words one or two typos away are looked for only when the word typed is in no entry
#: ("relanse"), so they never outrank an entry that has the exact word.
FUZZY_WEIGHT = 0.8
PAIR_WEIGHT = 0.5  # two typed words found side by side (within PAIR_SLOP) earn a bonus
PAIR_SLOP = 3
PHRASE_WORD_WEIGHT = 0.5  # each word of a glossary phrase ("carte brûlée") also counts alone
MAX_CONCEPTS = 32  # longer queries (pasted text) keep their first 32 distinct words
MAX_QUERY_WORDS = 200
SNIPPET_CHARS = 220
KINDS = ("clause", "procedure")


# -- results ------------------------------------------------------------------------------

@dataclass
class Hit:
    """One search hit: a clause (by citation) or a procedure (by id), with a snippet."""

    kind: str
    ref: str
    book: str
    title: str
    snippet: str
    score: float

    @property
    def citation(self) -> str | None:
        return self.ref if self.kind == "clause" else None

    @property
    def procedure(self) -> str | None:
        return self.ref if self.kind == "procedure" else None

    def to_json(self) -> dict:
        key = "citation" if self.kind == "clause" else "procedure"
        return {"kind": self.kind, key: self.ref, "book": self.book, "title": self.title,
                "snippet": self.snippet, "score": self.score}


@dataclass
class SearchResult:
    """Ranked hits for a query, and a suggestion when there are none."""

    query: str
    hits: list[Hit] = field(default_factory=list)
    suggestion: str | None = None

    def to_json(self) -> dict:
        return {"query": self.query, "hits": [h.to_json() for h in self.hits], "suggestion": self.suggestion}


def search(kb, query: str, *, book: str | None = None, kind: str | None = None, limit: int = 10) -> SearchResult:
    """Search the clauses (current revisions) and procedures of `kb` for `query`."""
    if book is not None:
        kb.book(book)  # raises a French UserError with the closest book id
    _check_options(kind, limit)
    query = query if isinstance(query, str) else str(query)
    index = open_index(kb)
    try:
        return _search(index, query, book, kind, limit)
    except Exception:
        if not index.path:
            raise
        # A cached index that opened but breaks while searching: rebuild it once.
        _forget(index)
        _remove_dir(index.path)
        return _search(open_index(kb), query, book, kind, limit)


def search_path(path, query: str, *, book: str | None = None, kind: str | None = None,
                limit: int = 10) -> SearchResult:
    """`search` in the knowledge base at `path` (None: the default one), as `ruling search` does.

    When the index of the base's current content is cached, the base itself is not loaded:
    its content hash finds the index, which holds everything a search shows.
    """
    from ruling.kb.load import base_digest, load_kb, resolve_root

    root = resolve_root(path)
    index = _cached_index(base_digest(root))
    if index is None:
        return search(load_kb(path), query, book=book, kind=kind, limit=limit)
    if book is not None and book not in index.lexicon.books:
        from ruling.kb.model import _unknown

        raise _unknown("le livre", book, index.lexicon.books)
    _check_options(kind, limit)
    try:
        return _search(index, query if isinstance(query, str) else str(query), book, kind, limit)
    except Exception:
        return search(load_kb(path), query, book=book, kind=kind, limit=limit)  # rebuilds a broken index


def _check_options(kind, limit) -> None:
    if kind is not None and kind not in KINDS:
        raise UserError(f"type « {kind} » inconnu ; attendu clause ou procedure")
    if limit < 1:
        raise UserError(f"--limit doit être au moins 1 (reçu {limit})")


def _search(index, query, book, kind, limit) -> SearchResult:
    plan = QueryPlan.build(query, index)
    if plan.empty:
        return SearchResult(query)
    hits = index.run(plan, book, kind, limit)
    suggestion = None
    if not hits:
        suggestion = _suggest(index, query, book, kind)
    return SearchResult(query, hits, suggestion)


# -- glossary: groups of equivalent phrasings ------------------------------------------------

@dataclass
class GlossaryMap:
    """Each glossary entry's phrasings as analysed term sequences.

    `by_terms` recognises any phrasing of an entry in a query; `groups` lists, per entry,
    the phrasings a recognised one is expanded to.
    """

    groups: list[list[tuple[str, ...]]]
    by_terms: dict[tuple[str, ...], list[int]]
    longest: int

    def to_json(self) -> dict:
        return {"groups": [[list(t) for t in g] for g in self.groups],
                "by_terms": [[list(t), g] for t, g in self.by_terms.items()]}

    @classmethod
    def from_json(cls, data: dict) -> GlossaryMap:
        by_terms = {tuple(t): list(g) for t, g in data["by_terms"]}
        return cls([[tuple(t) for t in g] for g in data["groups"]], by_terms,
                   max((len(t) for t in by_terms), default=1))


def glossary_map(glossary: list) -> GlossaryMap:
    """The glossary analysed: which phrasings are recognised, and what they expand to."""
    from ruling.analysis import analyze, words

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
            # "un contre un" is recognised when typed, but searching for "contre" alone
            # would find "par contre": a phrasing that its stop words reduce to one word
            # is not used to expand other phrasings.
            if len(terms) > 1 or len(words(str(phrasing))) == 1:
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


@dataclass
class Concept:
    """One thing the user asked about: alternative term sequences, each with a weight.

    A document's score for a concept is that of its best alternative, so a word and its
    synonyms or typo corrections never add up.
    """

    variants: list[tuple[tuple[str, ...], float]]


NUMBER_RE = re.compile(r"^[a-z0-9@:._-]*\d[a-z0-9@:._-]*$")
NUMBER_PUNCTUATION = "\"'«»“”()[]{}<>,;!?"


@dataclass
class QueryPlan:
    """What to look for: the concepts of the query, the pairs of words typed side by side
    (a small bonus where the text has them together) and the printed numbers it names."""

    concepts: list[Concept]
    pairs: list[tuple[str, str]]
    numbers: list[str]

    @property
    def empty(self) -> bool:
        return not self.concepts and not self.numbers

    @property
    def highlight_terms(self) -> set[tuple[str, ...]]:
        """The term sequences to mark in snippets: single words, and phrases as a whole."""
        return {terms for c in self.concepts for terms, _ in c.variants}

    @classmethod
    def build(cls, query: str, index) -> QueryPlan:
        from ruling.analysis import STOP_WORDS, fold, stem, words

        gmap = index.glossary
        numbers, named = [], []
        for m in list(re.finditer(r"\S+", query))[:MAX_CONCEPTS]:
            raw = m.group().lower().strip(NUMBER_PUNCTUATION)
            if raw and len(raw) <= 40 and NUMBER_RE.match(raw):
                if raw not in numbers:
                    numbers.append(raw)
                if index.knows_number(raw):
                    named.append((m.start(), m.end()))
        # A printed number that exists ("9-13") names its entry: its digits are not words.
        spans = [(w, s, e) for w, s, e in words(query)[:MAX_QUERY_WORDS]
                 if not any(a <= s and e <= b for a, b in named)]
        typed = [fold(w) for w, _, _ in spans]
        typed = [w for w in typed if w not in STOP_WORDS]
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
            return variants + [((t,), FUZZY_WEIGHT * scale) for t in near]

        i = 0
        while i < len(stems) and len(concepts) < MAX_CONCEPTS:
            span, groups = _glossary_span(stems, i, gmap)
            if not groups and not index.knows(stems[i]):
                groups = _fuzzy_glossary(typed[i], gmap)
                span = 1 if groups else 0
            if not groups:
                add(word_concept(i))
                i += 1
                continue
            typed_terms = tuple(stems[i:i + span])
            variants = [(typed_terms, 1.0)]
            weight = SYNONYM_WEIGHT if index.rarity(typed_terms) else SYNONYM_WEIGHT_UNKNOWN
            for g in groups:
                variants += [(v, weight * index.rarity_cap(typed_terms, v))
                             for v in gmap.groups[g] if v != typed_terms]
            if span == 1 and not index.knows(stems[i]):
                variants += word_concept(i)[1:]
            add(variants)
            if span > 1:  # the words of a phrase also count one by one, a little
                for j in range(i, i + span):
                    add(word_concept(j, PHRASE_WORD_WEIGHT))
            i += span
        pairs = list(dict.fromkeys(zip(stems, stems[1:])))[:MAX_CONCEPTS]
        return cls(concepts, pairs, numbers)


def _glossary_span(stems: list[str], i: int, gmap: GlossaryMap) -> tuple[int, list[int]]:
    """The longest glossary phrasing starting at word `i`: (its length, its groups)."""
    for span in range(min(gmap.longest, len(stems) - i), 0, -1):
        groups = gmap.by_terms.get(tuple(stems[i:i + span]))
        if groups:
            return span, groups
    return 0, []


def _fuzzy_glossary(word: str, gmap: GlossaryMap) -> list[int]:
    """Glossary groups with a one-word phrasing a typo or two away from `word` ("maldone")."""
    from ruling.analysis import stem

    maxdist = fuzzy_distance(word)
    if not maxdist:
        return []
    target = stem(word)
    best: list[int] = []
    best_dist = maxdist + 1
    for terms, groups in gmap.by_terms.items():
        if len(terms) != 1 or terms[0][:1] != target[:1] or abs(len(terms[0]) - len(target)) > maxdist:
            continue  # like typo neighbours in the index: same first letter
        d = edit_distance(target, terms[0], maxdist)
        if d < best_dist:
            best, best_dist = list(groups), d
        elif d == best_dist:
            best += [g for g in groups if g not in best]
    return best if best_dist <= maxdist else []


def edit_distance(a: str, b: str, limit: int) -> int:
    """Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`, capped at `limit + 1`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before, previous = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if before is not None and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                d = min(d, before[j - 2] + 1)
            current.append(d)
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return min(previous[-1], limit + 1)


# -- the index: schema, documents, build, cache -------------------------------------------------

def _schema():
    from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema

    from ruling.analysis import french_analyzer

    analyzer = french_analyzer()
    return Schema(
        key=ID(unique=True, stored=True),
        kind=ID(stored=True),
        ref=ID(stored=True),
        book=ID(stored=True),
        number=KEYWORD(lowercase=True),
        group=ID(stored=True),
        display_title=STORED(),
        title=TEXT(analyzer=analyzer),
        chapter=TEXT(analyzer=analyzer),
        keywords=TEXT(analyzer=analyzer),
        body=TEXT(analyzer=analyzer, stored=True),
        all=TEXT(analyzer=analyzer, phrase=False),  # every searchable text: for word rarity only
    )


def documents(kb) -> list[dict]:
    """What gets indexed: every clause of the current revisions, every procedure."""
    docs = []
    for clause in kb.clauses():
        chapter = kb.chapter_of(clause).title or ""
        numbers = {clause.id, clause.citation}
        if clause.label:
            numbers.add(clause.label)
        docs.append({
            "key": f"clause:{clause.citation}",
            "group": f"clause:{clause.citation}",
            "kind": "clause",
            "ref": clause.citation,
            "book": clause.book,
            "number": " ".join(sorted(n.lower() for n in numbers)),
            "display_title": clause.title or _clean_heading(chapter),
            "title": clause.title or _lead_heading(clause.text),
            "chapter": chapter,
            "keywords": " ; ".join(clause.topics),
            "body": clause.full_text,
        })
    for proc in kb.procedures:
        pid, pbook = str(getattr(proc, "id", "")), str(getattr(proc, "book", ""))
        if not pid:
            continue
        situation = str(getattr(proc, "situation", "") or "")
        title = str(getattr(proc, "title", "") or pid)
        docs.append({
            "key": f"procedure:{pbook}:{pid}",
            "group": f"situation:{situation or pbook + ':' + pid}",
            "kind": "procedure",
            "ref": pid,
            "book": pbook,
            "number": " ".join(sorted({pid.lower(), f"{pbook}:{pid}".lower(), situation.lower()} - {""})),
            "display_title": title,
            "title": title,
            "chapter": "",
            "keywords": " ; ".join(str(k) for k in (getattr(proc, "keywords", None) or [])),
            "body": "\n".join(_question_texts(getattr(proc, "questions", None))),
        })
    return docs


LEAD_HEADING_RE = re.compile(r"^\s*([^:.;!?()]{3,80}?)\s*:(?!\d)")


def _lead_heading(text: str) -> str:
    """The few words before a clause's first colon ("Fausse donne :", "Flop prématuré :").

    Many untitled clauses open with such a heading; it is searched as the clause's title.
    """
    m = LEAD_HEADING_RE.match(text or "")
    return m.group(1) if m and len(m.group(1).split()) <= 10 else ""


def _clean_heading(title: str) -> str:
    return title.strip().rstrip(":").strip()


def _question_texts(questions) -> list[str]:
    """The question and answer wordings of a procedure, whatever shape its questions have."""
    if not questions:
        return []
    items = questions.values() if isinstance(questions, dict) else questions
    texts = []
    for q in items:
        get = q.get if isinstance(q, dict) else (lambda name, q=q: getattr(q, name, None))
        for name in ("text", "help"):
            if get(name):
                texts.append(str(get(name)))
        choices = get("choices") or {}
        texts += [str(c) for c in (choices.values() if isinstance(choices, dict) else choices)]
    return texts


def index_digest(kb, docs: list[dict] | None = None) -> str:
    """The knowledge base's content hash, or a hash of what gets indexed without one."""
    if kb.digest:
        return kb.digest
    import hashlib

    docs = documents(kb) if docs is None else docs
    h = hashlib.blake2b(digest_size=16)
    h.update(json.dumps([docs, kb.glossary], sort_keys=True, ensure_ascii=False, default=str).encode())
    return h.hexdigest()


@dataclass
class Lexicon:
    """What a search needs besides the whoosh index, computed once when it is built.

    `words`: each folded word of the indexed texts -> its most frequent written form
    (for suggestions) and its term (so snippets are highlighted without stemming);
    `glossary`: the analysed glossary; `books`: the ids of the books, to check `--book`;
    `procedure_groups`: which index documents are procedures, and of which situation.
    """

    words: dict[str, tuple[str, str]]
    glossary: GlossaryMap
    books: list[str] = field(default_factory=list)
    procedure_groups: dict[int, str] = field(default_factory=dict)  # docnum -> situation
    _by_initial: dict[str, list[str]] | None = None

    @classmethod
    def build(cls, docs: list[dict], glossary: list, books: list[str]) -> Lexicon:
        from collections import Counter

        from ruling.analysis import STOP_WORDS, fold, stem, words

        forms: dict[str, Counter] = {}
        for doc in docs:
            for name in FIELD_BOOSTS:
                for word, _, _ in words(doc[name]):
                    forms.setdefault(fold(word), Counter())[word.lower()] += 1
        table = {folded: (counts.most_common(1)[0][0], "" if folded in STOP_WORDS else stem(folded))
                 for folded, counts in sorted(forms.items())}
        return cls(table, glossary_map(glossary), list(books))

    def to_json(self) -> dict:
        return {"words": {k: list(v) for k, v in self.words.items()}, "glossary": self.glossary.to_json(),
                "books": self.books, "procedure_groups": [[n, g] for n, g in self.procedure_groups.items()]}

    @classmethod
    def from_json(cls, data: dict) -> Lexicon:
        return cls({k: tuple(v) for k, v in data["words"].items()}, GlossaryMap.from_json(data["glossary"]),
                   list(data["books"]), {n: g for n, g in data["procedure_groups"]})

    def note_procedures(self, ix) -> None:
        """Record which documents of the built index `ix` are procedures (kept with the index)."""
        with ix.searcher() as s:
            self.procedure_groups = {n: s.stored_fields(n)["group"] for n in s.document_numbers(kind="procedure")}

    def near_terms(self, term: str, maxdist: int) -> list[str]:
        """Indexed terms within `maxdist` edits of `term`, with the same first letter, not `term`."""
        if self._by_initial is None:
            self._by_initial = {}
            for t in sorted({t for _, t in self.words.values() if t.isalpha()}):
                self._by_initial.setdefault(t[0], []).append(t)
        return [t for t in self._by_initial.get(term[:1], ())
                if t != term and edit_distance(term, t, maxdist) <= maxdist]

    def term_spans(self, text: str) -> list[tuple[str, int, int]]:
        """(term, start, end) of each indexed word of `text` (as `analysis.analyze_spans`)."""
        from ruling.analysis import STOP_WORDS, fold, stem, words

        out = []
        for word, start, end in words(text):
            folded = fold(word)
            known = self.words.get(folded)
            term = known[1] if known else ("" if folded in STOP_WORDS else stem(folded))
            if term:
                out.append((term, start, end))
        return out


def _fill(ix, docs: list[dict]) -> None:
    writer = ix.writer()
    for doc in docs:
        writer.add_document(**doc, all="\n".join(doc[name] for name in FIELD_BOOSTS))
    writer.commit()


def build_index_dir(target_parent: Path, digest: str, docs: list[dict], glossary: list, books: list[str]) -> Path:
    """Build the index in a fresh temporary directory of `target_parent`; returns it."""
    import shutil
    import tempfile

    from whoosh.filedb.filestore import FileStorage

    target_parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".index-{digest}.", dir=target_parent))
    try:
        ix = FileStorage(str(tmp)).create_index(_schema())
        _fill(ix, docs)
        lexicon = Lexicon.build(docs, glossary, books)
        lexicon.note_procedures(ix)
        ix.close()
        (tmp / LEXICON).write_text(json.dumps(lexicon.to_json(), ensure_ascii=False), encoding="utf-8")
        (tmp / MARKER).write_text(f"{INDEX_FORMAT}\n{len(docs)}\n", encoding="utf-8")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return tmp


class SearchIndex:
    """An open whoosh index (on disk or in memory) with its lexicon and one searcher."""

    def __init__(self, ix, lexicon: Lexicon, path: Path | None, cache_key: str):
        self.ix = ix
        self.lexicon = lexicon
        self.glossary = lexicon.glossary
        self.path = path  # None for an in-memory index
        self.cache_key = cache_key
        self.searcher = ix.searcher(weighting=weighting_model())
        self.reader = self.searcher.reader()
        self._known: dict[str, bool] = {}

    def knows(self, term: str) -> bool:
        """Whether `term` (an analysed term) occurs in some searchable field."""
        if term not in self._known:
            self._known[term] = any((name, term) in self.reader for name in FIELD_BOOSTS)
        return self._known[term]

    def knows_number(self, number: str) -> bool:
        """Whether `number` is the printed number, citation or id of an indexed entry."""
        return ("number", number) in self.reader

    def rarity(self, terms: tuple[str, ...]) -> float:
        """Inverse document frequency of a term sequence (that of its rarest term); 0 if absent."""
        import math

        n = max(1, self.reader.doc_count())
        best = 0.0
        for term in terms:
            df = max((self.reader.doc_frequency(name, term) for name in FIELD_BOOSTS), default=0)
            if not df:
                return 0.0
            best = max(best, math.log(n / df) + 1.0)
        return best

    def rarity_cap(self, typed: tuple[str, ...], synonym: tuple[str, ...]) -> float:
        """Scale for a synonym rarer than the words typed, so its rarity does not outscore them.

        "jetons" expands to "chip"; "chip" is rare, and without this cap every chip-race
        clause would outrank the clauses about chips that the user asked for.
        """
        typed_idf, synonym_idf = self.rarity(typed), self.rarity(synonym)
        if not typed_idf or not synonym_idf or synonym_idf <= typed_idf:
            return 1.0
        return typed_idf / synonym_idf

    def near_terms(self, term: str, maxdist: int) -> list[str]:
        """Indexed terms within `maxdist` edits of `term` (same first letter), not `term` itself."""
        if not maxdist or not term.isalpha():
            return []
        return self.lexicon.near_terms(term, maxdist)

    def check(self, expected_docs: int) -> None:
        """Raise if the index is not the one its marker describes (a search checks the rest)."""
        if self.searcher.doc_count() != expected_docs:
            raise ValueError("index incomplet")

    def run(self, plan: QueryPlan, book: str | None, kind: str | None, limit: int) -> list[Hit]:
        """The best `limit` hits: clauses and procedures ranked together, one procedure per situation.

        `top_scores` scores every entry that can be among them and skips the others (scoring
        every match made a query on a 10,000-clause base take 70-120 ms); stored fields are
        read for the hits kept only.
        """
        allowed = self.allowed(book, kind)
        scores = top_scores(self.searcher, _whoosh_query(plan), limit, allowed, self.lexicon.procedure_groups)
        return self.hits(scores, plan, limit)

    def allowed(self, book: str | None, kind: str | None) -> set[int] | None:
        """The document numbers a `book` / `kind` filter keeps (None: no filter)."""
        from whoosh.query import And, Term

        filters = [Term(name, value) for name, value in (("book", book), ("kind", kind)) if value]
        if not filters:
            return None
        return set(self.searcher.docs_for_query(And(filters) if len(filters) > 1 else filters[0]))

    def hits(self, scores: dict[int, float], plan: QueryPlan, limit: int) -> list[Hit]:
        """The best `limit` of the scored entries as hits: a procedure counts PROCEDURE_WEIGHT of
        its score and only the best one of a situation is listed; equal scores keep index order."""
        groups = self.lexicon.procedure_groups
        ranked = sorted((-score * (PROCEDURE_WEIGHT if n in groups else 1.0), n in groups, n)
                        for n, score in scores.items())
        hits, seen = [], set()
        terms = plan.highlight_terms
        for negative_score, is_procedure, docnum in ranked:
            if is_procedure:
                if groups[docnum] in seen:
                    continue  # the same situation in several books: only its best procedure is listed
                seen.add(groups[docnum])
            doc = self.searcher.stored_fields(docnum)
            hits.append(Hit(kind=doc["kind"], ref=doc["ref"], book=doc["book"], title=doc.get("display_title") or "",
                            snippet=snippet(doc.get("body") or "", terms, self.lexicon.term_spans),
                            score=round(-negative_score, 3)))
            if len(hits) == limit:
                break
        return hits


_WEIGHTING = None


def weighting_model():
    """BM25F with each word's rarity measured over whole entries, not field by field.

    With per-field statistics "jeton", a common word, looks rare in titles (few entries
    have one) and a title mention of it outweighs the one rare word the user typed.
    """
    global _WEIGHTING
    if _WEIGHTING is not None:
        return _WEIGHTING
    from whoosh.scoring import BM25F

    class EntryIdfBM25F(BM25F):
        def idf(self, searcher, fieldname, text):
            if fieldname in FIELD_BOOSTS:
                fieldname = "all"
            return super().idf(searcher, fieldname, text)

    _WEIGHTING = EntryIdfBM25F()
    return _WEIGHTING


_BEST_OF = None


def best_of_query_class():
    """A whoosh query scoring a document by its best-matching subquery (plus a tiebreak).

    whoosh's own DisjunctionMax compares sub-matchers without checking they sit on the
    same document, and drops one side when the other runs out; this one does neither.
    Searches go through `top_scores`, which computes the same scores from the leaves'
    matchers (see `_combine`); this matcher is what it is checked against.
    """
    global _BEST_OF
    if _BEST_OF is not None:
        return _BEST_OF
    from whoosh.matching import NullMatcher, UnionMatcher, WrappingMatcher
    from whoosh.query import DisjunctionMax

    class BestOfMatcher(UnionMatcher):
        def __init__(self, a, b, tiebreak=0.0):
            super().__init__(a, b)
            self.tiebreak = tiebreak

        def copy(self):
            return self.__class__(self.a.copy(), self.b.copy(), tiebreak=self.tiebreak)

        def supports_block_quality(self):
            return False

        def max_quality(self):
            return max(self.a.max_quality(), self.b.max_quality()) * (1 + self.tiebreak)

        def replace(self, minquality=0):
            a, b = self.a, self.b
            if not (a.is_active() or b.is_active()):
                return NullMatcher()
            if not a.is_active():
                return b.replace()
            if not b.is_active():
                return a.replace()
            a, b = a.replace(), b.replace()
            if a is not self.a or b is not self.b:
                return self.__class__(a, b, tiebreak=self.tiebreak)
            self._id = None
            return self

        def score(self):
            a, b = self.a, self.b
            if not a.is_active():
                return b.score()
            if not b.is_active():
                return a.score()
            id_a, id_b = a.id(), b.id()
            if id_a != id_b:
                return a.score() if id_a < id_b else b.score()
            sa, sb = a.score(), b.score()
            return max(sa, sb) + self.tiebreak * min(sa, sb)

    class BestOf(DisjunctionMax):
        def normalize(self):
            # Never merged into an enclosing BestOf: the two may have different tiebreaks.
            return self.__class__([q.normalize() for q in self.subqueries], boost=self.boost,
                                  tiebreak=self.tiebreak)

        def _matcher(self, subs, searcher, context):
            matchers = [q.matcher(searcher, context) for q in subs]
            m = matchers[0]
            for other in matchers[1:]:
                m = BestOfMatcher(m, other, tiebreak=self.tiebreak)
            return WrappingMatcher(m, self.boost) if self.boost != 1.0 else m

    _BEST_OF = BestOf
    return BestOf


def _whoosh_query(plan: QueryPlan):
    """The plan as a whoosh query: an Or of one BestOf per concept, the pair phrases and the numbers."""
    from whoosh.query import Or, Phrase, Term

    BestOf = best_of_query_class()

    parts = []
    for concept in plan.concepts:
        alternatives = []
        for terms, weight in concept.variants:
            per_field = []
            for name, boost in FIELD_BOOSTS.items():
                if len(terms) == 1:
                    per_field.append(Term(name, terms[0], boost=boost * weight))
                else:
                    per_field.append(Phrase(name, list(terms), boost=boost * weight))
            alternatives.append(BestOf(per_field, tiebreak=FIELD_TIEBREAK))
        parts.append(BestOf(alternatives) if len(alternatives) > 1 else alternatives[0])
    for pair in plan.pairs:
        parts += [Phrase(name, list(pair), slop=PAIR_SLOP, boost=FIELD_BOOSTS[name] * PAIR_WEIGHT)
                  for name in ("title", "body")]
    parts += [Term("number", n, boost=NUMBER_BOOST) for n in plan.numbers]
    return Or(parts)


# -- scoring: the entries that can rank, without scoring every match -------------------------------

def top_scores(searcher, query, limit: int, allowed: set | None = None, procedures=()) -> dict[int, float]:
    """The score of every entry that can be among the `limit` best of `query`, by document number.

    `query` is what `_whoosh_query` builds: an Or of parts, each a BestOf tree over "units" (a
    term in a field, a phrase); `allowed` restricts the documents (None: all), `procedures`
    holds the document numbers of procedures. Every entry that can still rank gets the score
    that scoring every match gives (the others are left out): whoosh's own matchers score the
    units, combined as `BestOfMatcher` does and summed part by part in query order, as
    `searcher.search` does on an index of fewer than 5,000 entries (a larger one sums the
    parts in another order, which can differ in the last bits).

    Why: on a federation-sized base an everyday word ("joueur") is in thousands of entries,
    and scoring each one took most of a query's time. This is the MaxScore method: once
    `limit` clauses score at least θ, an entry scoring below θ cannot be listed (a procedure
    counts PROCEDURE_WEIGHT ≤ 1 of its score, and a situation never lists a procedure scoring
    below another of its own). Units whose best possible scores together stay below θ (the
    common words of the body text, first) stop bringing candidates: they are looked up, with
    `skip_to`, only in the entries the other units bring, and only while those can still
    reach θ. A phrase made of the query's words never brings candidates (its entries have
    its words); where its words are, their scores give its own, and its positions are read
    last, through its words' matchers. Nothing is estimated: an entry is either scored
    exactly or provably below θ.
    """
    import heapq
    from bisect import bisect_left

    units, parts = _score_tree(query)
    words = _phrase_words(units)
    scores: dict[int, float] = {}
    heap: list[float] = []  # the best `limit` clause scores so far: heap[0] is θ once it is full
    theta = 0.0
    context = searcher.context()
    for subsearcher, offset in searcher.leaf_searchers():
        size = len(units)
        ms, boosts = [None] * size, [1.0] * size  # score = the matcher's score × boost
        for i, q in enumerate(units):
            if words[i] is None:
                m = q.matcher(subsearcher, context)
                if type(m) is _wrapping_matcher():  # a boosted term or phrase
                    m, boosts[i] = m.child, m.boost
                ms[i] = m
            else:
                boosts[i] = q.boost
        free = [i for i, m in enumerate(ms) if m is not None and m.is_active()]  # may bring candidates
        if not free:
            continue
        tied = [i for i, w in enumerate(words) if w is not None and all(j in free for j in w)]
        best = [0.0] * size  # the highest score each unit can give
        for i in free:
            best[i] = ms[i].max_quality() * boosts[i]
        for i in tied:
            best[i] = _phrase_score([ms[j].max_quality() for j in words[i]], boosts[i])
        reader = subsearcher.reader()
        by_cost = sorted(free, key=lambda i: (-units[i].estimate_size(reader), best[i]))  # most postings first
        end = subsearcher.doc_count_all()
        doors = None
        if allowed is not None:
            doors = sorted(n - offset for n in allowed if offset <= n < offset + end)
            if not doors:
                continue
        at = [m.id() if m is not None and m.is_active() else end for m in ms]  # each unit's entry (end: done)
        essential, lazy, lazy_mass, theta_used, since, pos = free, [], 0.0, 0.0, 0, 0
        while True:
            if theta > theta_used and (since >= 32 or not theta_used):
                # Split the units again for the θ reached (every 32 entries at most: each split
                # costs a bound per unit, and any split made for a lower θ stays valid).
                theta_used, since = theta, 0
                lazy = _lazy_units(parts, by_cost, tied, words, best, theta)
                was, essential = set(essential), [i for i in free if i not in lazy]
                for i in essential:  # back to bringing candidates: catch up with the current entry
                    if i not in was and at[i] < pos:
                        at[i] = _move(ms[i], pos, end)
                vals = [None] * size
                for i in list(lazy) + tied:
                    vals[i] = best[i]
                lazy_mass = _total(parts, vals)  # the most the other units add to an entry
            since += 1
            doc = min(map(at.__getitem__, essential), default=end)
            if doc >= end:
                break
            if doors is not None:
                k = bisect_left(doors, doc)
                if k == len(doors):
                    break
                if doors[k] != doc:  # a filtered-out entry: on to the next allowed one
                    for i in essential:
                        at[i] = _move(ms[i], doors[k], end)
                    continue
            pos = doc + 1
            here = [i for i in essential if at[i] == doc]
            vals, raw = [None] * size, [None] * size
            for i in here:
                raw[i] = ms[i].score()
                vals[i] = raw[i] * boosts[i]
            # The other units at their best (unless that alone reaches θ); then the lazy ones
            # looked up and each phrase at its score should it be there; then the phrases'
            # positions read. The entry is dropped as soon as it provably stays below θ.
            dropped = False
            if lazy_mass < theta:
                for i in lazy:
                    vals[i] = best[i]
                for i in tied:
                    vals[i] = best[i]
                dropped = _total(parts, vals) < theta
            if not dropped:
                for i in lazy:
                    if at[i] < doc:
                        at[i] = _move(ms[i], doc, end)
                    if at[i] == doc:
                        raw[i] = ms[i].score()
                        vals[i] = raw[i] * boosts[i]
                    else:
                        vals[i] = None
                for i in tied:
                    found = [raw[j] for j in words[i]]
                    vals[i] = None if None in found else _phrase_score(found, boosts[i])
                dropped = bool(theta) and _total(parts, vals) < theta
            if not dropped:
                for i in tied:
                    if vals[i] is not None and not _phrase_here(units[i], [ms[j] for j in words[i]]):
                        vals[i] = None
                score = _total(parts, vals)
                number = offset + doc
                scores[number] = score
                if number not in procedures:
                    if len(heap) < limit:
                        heapq.heappush(heap, score)
                        if len(heap) == limit:
                            theta = heap[0]
                    elif score > heap[0]:
                        heapq.heapreplace(heap, score)
                        theta = heap[0]
            for i in here:
                m = ms[i]
                m.next()
                at[i] = m.id() if m.is_active() else end
    return scores


def _lazy_units(parts, by_cost, tied, words, best, theta) -> set[int]:
    """The units that need not bring candidates at θ: together, at their best, they stay below θ.

    Taken greedily in `by_cost` order. A phrase of `tied` counts only when all its words are
    lazy: an entry brought by no other unit cannot hold it otherwise.
    """
    at_best = [None] * len(best)
    lazy: set[int] = set()
    for i in by_cost:
        at_best[i] = best[i]
        for p in tied:
            at_best[p] = best[p] if all(at_best[j] is not None for j in words[p]) else None
        if _total(parts, at_best) < theta:
            lazy.add(i)
        else:
            at_best[i] = None
    return lazy


def _move(m, doc, end) -> int:
    """Skip matcher `m` to its first entry from `doc` on; that entry, or `end` when it has none."""
    if m.is_active():
        m.skip_to(doc)
        if m.is_active():
            return m.id()
    return end


def _phrase_words(units) -> list:
    """Per unit: for a phrase whose words are all term units of its field, those units; else None."""
    from whoosh.query import Phrase, Term

    terms: dict[tuple, int] = {}
    for i, q in enumerate(units):
        if type(q) is Term:
            terms.setdefault((q.fieldname, q.text), i)
    out = []
    for q in units:
        found = [terms.get((q.fieldname, w)) for w in q.words] if type(q) is Phrase and len(q.words) > 1 else [None]
        out.append(None if None in found else found)
    return out


def _phrase_score(word_scores: list[float], boost: float) -> float:
    """A phrase's score from its words' (unboosted) scores, as whoosh's phrase matcher computes it:
    their sum over a binary tree, times the span matcher's own boost (1.0), times the phrase's."""
    if len(word_scores) == 2:
        total = word_scores[0] + word_scores[1]
    else:
        from operator import add

        from whoosh.util import make_binary_tree

        total = make_binary_tree(add, word_scores)
    return total * 1.0 * boost


class _PhraseAt:
    """What whoosh's phrase matcher reads to find a phrase: its words' matchers, all on one
    entry, and its settings (a Phrase query searches a SpanNear2 of its words, in order)."""

    __slots__ = ("ms", "slop", "ordered", "mindist")

    def __init__(self, ms, slop):
        self.ms, self.slop, self.ordered, self.mindist = ms, slop, True, 1


def _phrase_here(phrase, word_matchers) -> bool:
    """Whether `phrase` is in the entry its words' matchers all sit on, as whoosh's matcher decides.

    The words' own matchers answer, so no posting is read twice; the span check is whoosh's
    (`SpanNear2Matcher._get_spans`, the hook its span matchers implement).
    """
    from whoosh.query.spans import SpanNear2

    return bool(SpanNear2.SpanNear2Matcher._get_spans(_PhraseAt(word_matchers, phrase.slop)))


def _wrapping_matcher():
    """whoosh's WrappingMatcher (imported here: whoosh is imported only when searching)."""
    from whoosh.matching import WrappingMatcher

    return WrappingMatcher


def _score_tree(query):
    """(units, parts) of a query built by `_whoosh_query`.

    `units` are its leaf queries (terms, phrases: each has a matcher, a score and a highest
    possible score); each part of the top-level Or becomes a tree over unit positions: an int
    is a unit, a tuple `(tiebreak, boost, children)` a BestOf. `_total` computes from it
    exactly what the whoosh matchers of the same query compute.
    """
    from whoosh.query import Or

    BestOf = best_of_query_class()
    units: list = []

    def node(q):
        if isinstance(q, BestOf):
            subs = [c for c in (node(s) for s in q.subqueries) if c is not None]
            if len(q.subqueries) == 1:  # whoosh then uses the sub-query's matcher alone (no boost)
                return subs[0] if subs else None
            return (q.tiebreak, q.boost, subs) if subs else None
        units.append(q)
        return len(units) - 1

    if isinstance(query, Or) and query.boost != 1.0:
        raise ValueError("Or boost not supported")
    parts = [p for p in (node(q) for q in (query.subqueries if isinstance(query, Or) else [query])) if p is not None]
    return units, parts


def _combine(node, vals):
    """A BestOf tree's score from its units' (None: not in this entry), as `BestOfMatcher` scores."""
    tiebreak, boost, children = node
    best = None
    for child in children:
        x = vals[child] if child.__class__ is int else _combine(child, vals)
        if x is not None:
            best = x if best is None else max(best, x) + tiebreak * min(best, x)
    if best is not None and boost != 1.0:
        best = best * boost
    return best


def _total(parts, vals) -> float:
    """The sum of the parts' scores in query order (0.0 when none matches)."""
    total = 0.0
    for part in parts:
        x = vals[part] if part.__class__ is int else _combine(part, vals)
        if x is not None:
            total += x
    return total


_OPEN: dict[str, SearchIndex] = {}


def open_index(kb) -> SearchIndex:
    """The index of `kb`: from this process, from the cache directory, or built now.

    A cached index without its marker, or that fails to open or answer, is removed and
    rebuilt; when the cache directory is unwritable or refused (`ruling.kb.cache`: another user
    could have planted an index, whose table of contents whoosh unpickles) the index lives
    in memory.
    """
    from ruling.kb.cache import prune, usable_cache_dir

    docs = None if kb.digest else documents(kb)
    digest = index_digest(kb, docs)
    cached = _OPEN.get(f"ram:{digest}")
    if cached is not None:
        return cached
    root = usable_cache_dir()
    final = root / f"index-{digest}" if root is not None else None
    cached = _OPEN.get(str(final)) if final is not None else None
    if cached is not None:
        return cached
    for _attempt in range(3 if final is not None else 0):
        index = _open_cached(final)
        if index is not None:
            return index
        docs = documents(kb) if docs is None else docs
        try:
            tmp = build_index_dir(root, digest, docs, kb.glossary, [b.id for b in kb.books])
        except OSError:
            break  # read-only or full cache directory
        try:
            os.rename(tmp, final)
            prune(root)
        except OSError:
            _remove_dir(tmp)  # another process won the race: use its index
    docs = documents(kb) if docs is None else docs
    index = _ram_index(docs, kb.glossary, [b.id for b in kb.books], f"ram:{digest}")
    _OPEN[index.cache_key] = index
    return index


def _open_cached(final: Path) -> SearchIndex | None:
    """The finished index folder `final`, opened; a damaged or untrusted one is removed."""
    from ruling.kb.cache import touch, trusted_folder

    if not final.is_dir() and not final.is_symlink():
        return None
    index = _open_dir(final, str(final)) if trusted_folder(final) else None
    if index is None:
        _remove_dir(final)
        return None
    touch(final)
    _OPEN[str(final)] = index
    return index


def _cached_index(digest: str) -> SearchIndex | None:
    """The index for `digest` if this process or the cache directory already has it."""
    from ruling.kb.cache import usable_cache_dir

    index = _OPEN.get(f"ram:{digest}")
    if index is not None:
        return index
    root = usable_cache_dir()
    if root is None:
        return None
    final = root / f"index-{digest}"
    return _OPEN.get(str(final)) or _open_cached(final)


def _open_dir(path: Path, cache_key: str) -> SearchIndex | None:
    """Open a finished index directory, or None if it is incomplete or damaged.

    whoosh leaves a file open when it cannot read it (a damaged table of contents), so every
    file opened here is closed again when opening fails.
    """
    from whoosh.filedb.filestore import FileStorage

    opened: list = []

    class _Storage(FileStorage):
        def open_file(self, name, **kwargs):
            f = super().open_file(name, **kwargs)
            opened.append(f)
            return f

    index = None
    try:
        fmt, count = (path / MARKER).read_text(encoding="utf-8").split()
        if fmt != INDEX_FORMAT:
            return None
        lexicon = Lexicon.from_json(json.loads((path / LEXICON).read_text(encoding="utf-8")))
        ix = _Storage(str(path), readonly=True).open_index()
        index = SearchIndex(ix, lexicon, path, cache_key)
        index.check(int(count))
        return index
    except Exception:
        if index is not None:
            _close_quietly(index.searcher)
        for f in opened:
            _close_quietly(f)
        return None


def _close_quietly(resource) -> None:
    try:
        resource.close()
    except Exception:
        pass


def _ram_index(docs: list[dict], glossary: list, books: list[str], cache_key: str) -> SearchIndex:
    from whoosh.filedb.filestore import RamStorage

    ix = RamStorage().create_index(_schema())
    _fill(ix, docs)
    lexicon = Lexicon.build(docs, glossary, books)
    lexicon.note_procedures(ix)
    return SearchIndex(ix, lexicon, None, cache_key)


def _remove_dir(path: Path) -> None:
    """Move a damaged index aside (atomic), then delete it; never fails."""
    import shutil

    if path.is_symlink():
        try:
            path.unlink()
        except OSError:
            pass
        return
    trash = path.with_name(f".trash-{path.name}-{os.getpid()}")
    try:
        os.rename(path, trash)
    except OSError:
        trash = path
    shutil.rmtree(trash, ignore_errors=True)


def _forget(index: SearchIndex) -> None:
    _OPEN.pop(index.cache_key, None)
    try:
        index.searcher.close()
    except Exception:
        pass


# -- snippets and suggestions -------------------------------------------------------------------

def snippet(text: str, terms: set[tuple[str, ...]], term_spans=None, width: int = SNIPPET_CHARS) -> str:
    """A window of `text` around the matched words, each run of them wrapped in `**`.

    `terms` holds analysed term sequences: a one-word sequence is marked wherever it
    occurs, a phrase only where its words follow each other (stop words aside).
    """
    if term_spans is None:
        from ruling.analysis import analyze_spans as term_spans

    spans = term_spans(text)
    stems = [term for term, _, _ in spans]
    marked = [False] * len(spans)
    for seq in terms:
        n = len(seq)
        for i in range(len(spans) - n + 1):
            if tuple(stems[i:i + n]) == seq:
                marked[i:i + n] = [True] * n
    marks = [(s, e) for (_, s, e), m in zip(spans, marked) if m]
    start, end = 0, len(text)
    if len(text) > width:
        start = _best_window(marks, width) if marks else 0
        start = _word_start(text, start)
        end = _word_end(text, min(len(text), start + width))
    runs: list[list[int]] = []
    for s, e in marks:
        if s < start or e > end:
            continue
        if runs and not text[runs[-1][1]:s].strip(" -'’"):
            runs[-1][1] = e
        else:
            runs.append([s, e])
    out, pos = [], start
    for s, e in runs:
        out += [text[pos:s], "**", text[s:e], "**"]
        pos = e
    out.append(text[pos:end])
    body = re.sub(r"\s+", " ", "".join(out).replace("\n", " · ")).strip()
    return ("… " if start > 0 else "") + body + (" …" if end < len(text) else "")


def _best_window(marks: list[tuple[int, int]], width: int) -> int:
    """Start of the window of `width` characters holding the most marks (a little before the first)."""
    best_start, best_count = marks[0][0], 0
    for s, _ in marks:
        count = sum(1 for s2, e2 in marks if s2 >= s and e2 <= s + width - 40)
        if count > best_count:
            best_start, best_count = s, count
    return max(0, best_start - 40)


def _word_start(text: str, i: int) -> int:
    if i <= 0:
        return 0
    while i < len(text) and not text[i - 1].isspace():
        i += 1
    return i


def _word_end(text: str, i: int) -> int:
    while i < len(text) and not text[i].isspace():
        i += 1
    return i


def _suggest(index: SearchIndex, query: str, book, kind) -> str | None:
    """The query with unknown words replaced by the closest indexed words, if that finds hits."""
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import extractOne

    from ruling.analysis import STOP_WORDS, fold, stem, words

    candidates = [w for w, (written, term) in index.lexicon.words.items() if term and len(w) >= 3 and w.isalpha()]
    pieces, pos, changed = [], 0, False
    for word, start, end in words(query)[:MAX_CONCEPTS]:
        folded = fold(word)
        if len(folded) < 3 or folded in STOP_WORDS or not folded.isalpha() or index.knows(stem(folded)):
            continue
        maxdist = 1 if len(folded) <= 4 else 2 if len(folded) <= 7 else 3
        best = extractOne(folded, candidates, scorer=Levenshtein.distance, score_cutoff=maxdist)
        if best is None:
            continue
        pieces += [query[pos:start], index.lexicon.words[best[0]][0]]
        pos, changed = end, True
    if not changed:
        return None
    suggestion = re.sub(r"\s+", " ", "".join(pieces) + query[pos:]).strip()
    plan = QueryPlan.build(suggestion, index)
    if plan.empty or not index.run(plan, book, kind, 1):
        return None
    return suggestion


# -- terminal output ---------------------------------------------------------------------------

HIGHLIGHT_RE = re.compile(r"\*\*(.+?)\*\*")


def result_text(result: SearchResult, color: bool = False) -> str:
    """The hits as `ruling search` prints them; matched words in colour, or plain text when piped
    (the `**` of the snippets are for `--json` and Markdown readers)."""
    import click

    def paint(text, **style):
        return click.style(text, **style) if color else text

    if not result.hits:
        line = f"Aucun résultat pour « {shown(result.query.strip())} »."
        if result.suggestion:
            line += f" Vouliez-vous dire « {result.suggestion} » ?"
        return line
    lines = []
    for n, hit in enumerate(result.hits, 1):
        if hit.kind == "clause":
            head = f"{n:>2}. {paint(hit.ref, bold=True)} — {hit.title}"
        else:
            head = (f"{n:>2}. procédure {paint(hit.ref, bold=True)} ({hit.book}) — {hit.title}"
                    f"  → ruling ask {hit.ref} --book {hit.book}")
        text = hit.snippet
        if color:
            text = HIGHLIGHT_RE.sub(lambda m: click.style(m.group(1), fg="yellow", bold=True), text)
        else:
            text = HIGHLIGHT_RE.sub(lambda m: m.group(1), text)
        lines += [head, f"    {text}"] if text else [head]
    return "\n".join(lines)
