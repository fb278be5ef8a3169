"""The whoosh index: its schema, the documents it holds, building it, caching it per content hash.

Built once per knowledge-base content hash in the user cache
(`$XDG_CACHE_HOME/ruling/index-<digest>`), atomically (a temporary folder renamed); a cached
index without its marker, damaged, or not trusted (`ruling.kb.cache`: whoosh unpickles its table
of contents) is removed and rebuilt; an unwritable cache gives an index in memory.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from ruling.search import whoosh_fast  # noqa: F401  (before any whoosh import: see its docstring)
from ruling.search.query import GlossaryMap, glossary_map

INDEX_FORMAT = "26"  # bump when the schema or the analysis changes: older indexes get rebuilt
MARKER = "ruling-index.ok"  # written last, before the rename: its absence means half-written
LEXICON = "lexicon.json"  # the analysed glossary, books, stems: what whoosh does not keep
WORDS = "words.json"  # the written forms a suggestion prints: read only when a search finds nothing
SEARCH_FIELDS = ("title", "keywords", "chapter", "body", "questions", "cited", "phrasings")
#: The fields whose words a suggestion may propose (« Vouliez-vous dire … ? ») and whose terms the
#: lexicon keeps: the rulebook's words, not "phrasings" (what people typed: « anonce », « arivant »).
LEXICON_FIELDS = ("title", "keywords", "chapter", "body", "questions", "cited")
#: The fields whose words make up "all" (word rarity, typo neighbours): not "cited", a
#: procedure's copy of its clauses' keywords, which would make those words look common; not
#: "phrasings", words as people typed them (their typos are no words of the rulebook).
ALL_FIELDS = ("title", "keywords", "chapter", "body", "questions")
#: Between an entry's phrasings in its "phrasings" field: a line break, since 96 phrasings hold « ; »
#: (the stored "said" field keeps them one by one, split on it).
PHRASINGS_SEPARATOR = "\n"
DASHED_NUMBER = re.compile(r"\d+-\d+(-bis)?$")  # a printed rule number: 9-13, 14-8-bis


def schema():
    """The fields of an entry; every searchable text also goes in "all" (word rarity, typos)."""
    from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema

    from ruling.search.analysis import french_analyzer

    analyzer = french_analyzer()
    return Schema(
        key=ID(unique=True, stored=True),
        kind=ID(stored=True),
        ref=ID(stored=True),
        book=ID(stored=True),
        number=KEYWORD(lowercase=True),
        group=ID(stored=True, sortable=True),  # sortable: whoosh collapses on its column
        display_title=STORED(),
        title=TEXT(analyzer=analyzer),
        chapter=TEXT(analyzer=analyzer),
        keywords=TEXT(analyzer=analyzer),
        body=TEXT(analyzer=analyzer, stored=True),
        questions=TEXT(analyzer=analyzer, stored=True),  # a procedure's questions: a field of its own
        # a procedure: the topics and keywords of the clauses it cites; no phrase looked for in it
        cited=TEXT(analyzer=analyzer, phrase=False),
        phrasings=TEXT(analyzer=analyzer, phrase=False),  # phrasings.yaml: what people typed to find this entry
        said=STORED(),  # the same phrasings analysed, a line each (`said_of`): ranking.SAID_WEIGHT compares the query to each
        all=TEXT(analyzer=analyzer, phrase=False),
    )


def documents(kb) -> list[dict]:
    """What gets indexed: every clause of the current revisions, every procedure."""
    said = kb.phrasings or {}
    said_of_clause, said_of_situation = said.get("clauses") or {}, said.get("situations") or {}
    docs = []
    for clause in kb.clauses():
        chapter = kb.chapter_of(clause).title or ""
        numbers = {clause.id, clause.citation}
        if clause.label:
            numbers.add(clause.label)
        # "article 9.13": the book prints 9-13, people also write it with a dot
        numbers |= {n.replace("-", ".", 1) for n in numbers if DASHED_NUMBER.match(n)}
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
            "keywords": " ; ".join(list(clause.topics) + list(getattr(clause, "keywords", None) or [])),
            "body": clause.full_text,
            "questions": "",
            "cited": "",
            "phrasings": PHRASINGS_SEPARATOR.join(said_of_clause.get(clause.citation, [])),
        })
    keywords_of = {clause.citation: list(clause.topics) + list(getattr(clause, "keywords", None) or []) + [clause.full_text]
                   for clause in kb.clauses()}
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
            "cited": " ; ".join(_cited_keywords(proc, keywords_of) + _decision_texts(proc)),
            "body": "",
            "questions": "\n".join(_question_texts(getattr(proc, "questions", None))),
            "phrasings": PHRASINGS_SEPARATOR.join(said_of_situation.get(f"{pbook}:{pid}", [])),
        })
    return docs


def _cited_keywords(proc, keywords_of: dict[str, list[str]]) -> list[str]:
    """The topics, keywords and text of the clauses a procedure cites: they describe its situation
    the way people at the table do, so the picker (`ruling ask`) finds a situation by them too
    (the clause texts took the picker's cv from 178 to 180 of 244, `scripts/picker_accuracy.py cv`)."""
    cites = proc.cites_in_order() if hasattr(proc, "cites_in_order") else []
    return list(dict.fromkeys(k for citation in cites for k in keywords_of.get(citation, [])))


def _decision_texts(proc) -> list[str]:
    """What a procedure's outcomes decide, without their calculator placeholders: the words of
    the ruling are those a TD describes the situation with (picker cv 180 -> 182 of 244)."""
    decisions = []
    for rule in getattr(proc, "rules", None) or []:
        d = getattr(rule, "decision", "")
        decisions += list(d.values()) if isinstance(d, dict) else [d]
    return [re.sub(r"\{+[^{}]*\}+", " ", str(d)) for d in decisions if d]


LEAD_HEADING_RE = re.compile(r"^\s*([^:.;!?()]{3,80}?)\s*:(?!\d)")


def _lead_heading(text: str) -> str:
    """The few words before a clause's first colon ("Fausse donne :"): searched as its title."""
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


class Lexicon:
    """What a search needs besides the whoosh index, computed once when it is built.

    `words`: each folded word of the rulebook's indexed texts (`LEXICON_FIELDS`) -> its most
    frequent written form (what a suggestion prints); `stems`: each such word -> its term
    (snippets analyse without stemming; the site's map of known words); `glossary`: the analysed glossary; `books`: the book ids (to check
    `--book`); `house_book`: the base's house book (`base.yaml`, the default `--house`);
    `doc_books`: each entry's book, by document number (the house-book factor);
    `procedure_groups`: which entries are procedures, and of which situation.
    (A plain class: a dataclass would import `inspect` into every `ruling search`.)
    """

    __slots__ = ("_words", "_words_file", "glossary", "books", "doc_books", "procedure_groups", "stems", "house_book")

    def __init__(self, words: dict[str, str] | None, glossary: GlossaryMap, books: list[str] | None = None,
                 doc_books: list[str] | None = None, procedure_groups: dict[int, str] | None = None,
                 stems: dict[str, str] | None = None, house_book: str | None = None, words_file: Path | None = None):
        self._words, self._words_file = words, words_file
        self.glossary = glossary
        self.books = [] if books is None else books
        self.doc_books = [] if doc_books is None else doc_books
        self.procedure_groups = {} if procedure_groups is None else procedure_groups
        self.stems = {} if stems is None else stems
        self.house_book = house_book

    @classmethod
    def build(cls, docs: list[dict], glossary: list, books: list[str], house_book: str | None = None) -> Lexicon:
        from collections import Counter

        from ruling.search.analysis import STOP_WORDS, fold, stem, word_list

        written: Counter = Counter()
        pieces: dict[str, list[str]] = {}  # a clause's text is cited by several procedures: split once
        for doc in docs:
            for name in LEXICON_FIELDS:
                for piece in doc[name].split(" ; "):
                    if piece not in pieces:
                        pieces[piece] = word_list(piece)
                    written.update(pieces[piece])
        forms: dict[str, Counter] = {}
        for word, count in written.items():
            forms.setdefault(fold(word), Counter())[word.lower()] += count
        table = {folded: counts.most_common(1)[0][0] for folded, counts in sorted(forms.items())}
        stems = {folded: stem(folded) for folded in table if folded not in STOP_WORDS}
        return cls(table, glossary_map(glossary), list(books), stems=stems, house_book=house_book)

    @property
    def words(self) -> dict[str, str]:
        """Folded word -> written form, read from the index folder on first use (a search that
        finds nothing asks for it; the others never do)."""
        if self._words is None:
            try:
                loaded = json.loads(self._words_file.read_text(encoding="utf-8")) if self._words_file else {}
            except (OSError, ValueError):
                loaded = {}
            self._words = loaded if isinstance(loaded, dict) else {}
        return self._words

    def to_json(self) -> dict:
        """All but `words` (written apart, `WORDS`)."""
        return {"glossary": self.glossary.to_json(), "books": self.books,
                "doc_books": self.doc_books, "procedure_groups": [[n, g] for n, g in self.procedure_groups.items()],
                "stems": self.stems, "house_book": self.house_book}

    @classmethod
    def from_json(cls, data: dict, words_file: Path | None = None) -> Lexicon:
        return cls(None, GlossaryMap.from_json(data["glossary"]), list(data["books"]),
                   list(data["doc_books"]), {n: g for n, g in data["procedure_groups"]}, data["stems"],
                   data.get("house_book"), words_file)

    def note_documents(self, ix) -> None:
        """Record each entry's book and which entries are procedures (kept with the index)."""
        with ix.searcher() as s:
            self.doc_books = [""] * s.doc_count_all()
            for n, stored in s.iter_docs():
                self.doc_books[n] = stored["book"]
            self.procedure_groups = {n: s.stored_fields(n)["group"] for n in s.document_numbers(kind="procedure")}


#: whoosh's postings codec, built for a base of a few hundred entries: blocks not compressed
#: (zlib took a quarter of writing them; the index is 2 MB) and large enough (512 postings) that
#: most terms fit in one. The first search after install builds the index: this saves about 0.15 s.
POSTINGS_CODEC = {"compression": 0, "blocklimit": 512}


def indexed(doc: dict, memo: dict[str, str | None] | None = None) -> dict:
    """What whoosh is given for an entry of `documents`: its fields, "all", and its phrasings one
    by one, analysed ("said"; `memo`: the written words already analysed, `analyze_many`)."""
    from ruling.search.analysis import analyze_many

    phrasings = analyze_many(doc["phrasings"].split(PHRASINGS_SEPARATOR), {} if memo is None else memo)
    said = "\n".join(" ".join(dict.fromkeys(terms)) for terms in phrasings if terms)
    return {**doc, "all": "\n".join(doc[name] for name in ALL_FIELDS), "said": said}


def said_of(stored: dict) -> list[list[str]]:
    """An entry's phrasings, each its distinct terms, from its stored fields ("said")."""
    said = stored.get("said") or ""
    return [phrasing.split(" ") for phrasing in said.split("\n")] if said else []


def _fill(ix, docs: list[dict]) -> None:
    from whoosh.codec.whoosh3 import W3Codec

    writer = ix.writer(codec=W3Codec(**POSTINGS_CODEC))
    memo: dict[str, str | None] = {}
    for doc in docs:
        writer.add_document(**indexed(doc, memo))
    writer.commit()


def build_index_dir(target_parent: Path, digest: str, docs: list[dict], glossary: list, books: list[str],
                    house_book: str | None = None) -> Path:
    """Build the index in a fresh temporary directory of `target_parent`; returns it."""
    import shutil
    import tempfile

    from whoosh.filedb.filestore import FileStorage

    target_parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".index-{digest}.", dir=target_parent))
    try:
        ix = FileStorage(str(tmp)).create_index(schema())
        _fill(ix, docs)
        lexicon = Lexicon.build(docs, glossary, books, house_book)
        lexicon.note_documents(ix)
        ix.close()
        (tmp / LEXICON).write_text(json.dumps(lexicon.to_json(), ensure_ascii=False), encoding="utf-8")
        (tmp / WORDS).write_text(json.dumps(lexicon.words, ensure_ascii=False), encoding="utf-8")
        (tmp / MARKER).write_text(f"{INDEX_FORMAT}\n{len(docs)}\n", encoding="utf-8")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return tmp


class SearchIndex:
    """An open whoosh index (on disk or in memory) with its lexicon and its searchers."""

    def __init__(self, ix, lexicon: Lexicon, path: Path | None, cache_key: str):
        from whoosh.searching import Searcher

        from ruling.search.ranking import weighting

        self.ix = ix
        self.lexicon = lexicon
        self.glossary = lexicon.glossary
        self.path = path  # None for an in-memory index
        self.cache_key = cache_key
        # One reader for every searcher: each `ix.searcher()` would read and unpickle the table
        # of contents again and reopen the segment's files (3-5 ms each in `ruling search`).
        self.reader = ix.reader()
        self.searcher = Searcher(self.reader, weighting=weighting(lexicon, None), fromindex=ix)
        self._searchers: dict[tuple[str | None, str | None, str | None], Any] = {(None, None, None): self.searcher}
        self._known: dict[str, bool] = {}
        self._near: dict[tuple[str, int], list[str]] = {}
        self._glossary_words: Any = None  # whoosh's ListCorrector, made on first use

    def searcher_for(self, house: str | None, book: str | None = None, kind: str | None = None):
        """A searcher ranking with `house` as the house book and the `book` / `kind` filters
        (one per combination, opened on demand: the weighting holds the entry factors)."""
        key = (house, book, kind)
        if key not in self._searchers:
            from whoosh.searching import Searcher

            from ruling.search.ranking import weighting

            self._searchers[key] = Searcher(self.reader, weighting=weighting(self.lexicon, house, book, kind),
                                            closereader=False, fromindex=self.ix)  # the reader is the first searcher's
        return self._searchers[key]

    def forget_searchers(self) -> None:
        """Drop the searchers opened for a house book or a filter: their weighting holds the
        ranking constants read when they opened (a benchmark that changes them calls this)."""
        for key in [k for k in self._searchers if k != (None, None, None)]:
            self._searchers.pop(key).close()

    def close(self) -> None:
        for s in reversed(self._searchers.values()):  # the first searcher, which closes the reader, last
            try:
                s.close()
            except Exception:
                pass

    def knows(self, term: str) -> bool:
        """Whether `term` (an analysed term) occurs in some searchable field."""
        if term not in self._known:
            self._known[term] = ("all", term) in self.reader
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
            df = self.reader.doc_frequency("all", term)
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
        """Indexed terms within `maxdist` edits of `term` (same first letter), not `term` itself:
        whoosh's `terms_within` on the "all" field."""
        if not maxdist or not term.isalpha():
            return []
        key = (term, maxdist)
        if key not in self._near:  # a word is looked up by the glossary reading and by its concept
            self._near[key] = [t for t in self.reader.terms_within("all", term, maxdist, prefix=1) if t != term]
        return self._near[key]

    def closest_term(self, term: str, maxdist: int) -> str | None:
        """The indexed term fewest edits away from `term` (same first letter), or None."""
        for dist in range(1, maxdist + 1):
            near = sorted(self.near_terms(term, dist), key=lambda t: (abs(len(t) - len(term)), t))
            if near:
                return near[0]
        return None

    def glossary_typo(self, word: str, maxdist: int) -> list[int]:
        """Glossary groups of the one-word phrasing closest to `word` within `maxdist` typos
        ("maldone" -> misdeal), through whoosh's `ListCorrector`."""
        from whoosh.spelling import ListCorrector

        from ruling.search.analysis import stem

        if not maxdist:
            return []
        if self._glossary_words is None:
            self._glossary_words = ListCorrector(self.glossary.single_words())
        found = self._glossary_words.suggest(stem(word), limit=1, maxdist=maxdist, prefix=1)
        return list(self.glossary.by_terms[(found[0],)]) if found else []

    def check(self, expected_docs: int) -> None:
        """Raise if the index is not the one its marker describes (a search checks the rest)."""
        if self.searcher.doc_count() != expected_docs:
            raise ValueError("index incomplet")


_OPEN: dict[str, SearchIndex] = {}


def open_index(kb) -> SearchIndex:
    """The index of `kb`: from this process, from the cache directory, or built now."""
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
    for _attempt in range(3 if root is not None and final is not None else 0):
        assert root is not None and final is not None
        index = _open_cached(final)
        if index is not None:
            return index
        docs = documents(kb) if docs is None else docs
        try:
            tmp = build_index_dir(root, digest, docs, kb.glossary, [b.id for b in kb.books], default_house(kb))
        except OSError:
            break  # read-only or full cache directory
        try:
            os.rename(tmp, final)
            prune(root)
        except OSError:
            remove_dir(tmp)  # another process won the race: use its index
    docs = documents(kb) if docs is None else docs
    index = ram_index(docs, kb.glossary, [b.id for b in kb.books], f"ram:{digest}", default_house(kb))
    _OPEN[index.cache_key] = index
    return index


def default_house(kb) -> str | None:
    """The base's house book (`base.yaml`), if it is one of its books."""
    house = getattr(kb, "house_book", None)
    return house if house in {b.id for b in kb.books} else None


def _open_cached(final: Path) -> SearchIndex | None:
    """The finished index folder `final`, opened; a damaged or untrusted one is removed."""
    from ruling.kb.cache import touch, trusted_folder

    if not final.is_dir() and not final.is_symlink():
        return None
    index = _open_dir(final, str(final)) if trusted_folder(final) else None
    if index is None:
        remove_dir(final)
        return None
    touch(final)
    _OPEN[str(final)] = index
    return index


def cached_index(digest: str) -> SearchIndex | None:
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
        lexicon = Lexicon.from_json(json.loads((path / LEXICON).read_text(encoding="utf-8")), path / WORDS)
        # Our schema, not the one pickled in the table of contents: whoosh then skips unpickling it
        # (twice: opening and the reader), and the index was built from this same code (INDEX_FORMAT).
        ix = _Storage(str(path), readonly=True).open_index(schema=schema())
        index = SearchIndex(ix, lexicon, path, cache_key)
        index.check(int(count))
        return index
    except Exception:
        if index is not None:
            index.close()
        for f in opened:
            try:
                f.close()
            except Exception:
                pass
        return None


def ram_index(docs: list[dict], glossary: list, books: list[str], cache_key: str,
              house_book: str | None = None) -> SearchIndex:
    """An index in memory (no usable cache directory, or a test)."""
    import uuid

    from whoosh.filedb.filestore import RamStorage

    # whoosh writes a RAM segment's columns through <tmp>/<indexname>.tmp: the default name, "MAIN",
    # is the same for every process, so two building at once delete each other's files
    ix = RamStorage().create_index(schema(), indexname=f"ram{uuid.uuid4().hex}")
    _fill(ix, docs)
    lexicon = Lexicon.build(docs, glossary, books, house_book)
    lexicon.note_documents(ix)
    return SearchIndex(ix, lexicon, None, cache_key)


def remove_dir(path: Path) -> None:
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


def forget(index: SearchIndex) -> None:
    """Drop an index from this process (a broken one, before it is rebuilt)."""
    _OPEN.pop(index.cache_key, None)
    index.close()
