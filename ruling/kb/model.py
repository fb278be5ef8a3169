"""The knowledge base as plain objects: books, revisions, chapters, clauses.

Nothing here reads files; `ruling.kb.load` builds these objects, and everything else
(engine, search, diff, site) reads them. Lookups that a user can get wrong raise
`UserError` with a French message and a suggestion.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ruling.errors import UserError, shown
from ruling.kb.names import MAX_SUGGESTED_NAME, closest, edit_distance  # noqa: F401  (re-exported)

#: What each `kind` of book.yaml is, in the words of the reader (CLI listing and site).
BOOK_KIND_LABELS = {"tournament": "tournoi", "cash": "partie d'argent (cash game)", "house": "règles de la maison"}

CITATION_RE = re.compile(r"^(?:(?P<book>[A-Za-z0-9_-]+)(?:@(?P<rev>[A-Za-z0-9_.-]+))?:)?(?P<id>[^\s:@]+)$")


@dataclass
class Clause:
    """One clause of one revision of a book, with its verbatim text."""

    book: str
    revision: str
    chapter: str
    id: str
    text: str
    label: str | None = None
    title: str | None = None
    items: list[str] = field(default_factory=list)
    after: str | None = None
    refs: list[str] = field(default_factory=list)
    kind: str = "normative"
    topics: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)  # search only: how people describe the case
    note: str | None = None
    procedure: str | None = None  # why no procedure applies ("none — organisation")
    file: str = ""
    line: int = 0
    current: bool = True  # False for the clauses of an older revision

    @property
    def citation(self) -> str:
        """`club:9-13` for the current revision, `club@v1:8-10` for an older one."""
        if self.current:
            return f"{self.book}:{self.id}"
        return f"{self.book}@{self.revision}:{self.id}"

    @property
    def full_text(self) -> str:
        """Lead text, items and closing text joined: what a reader reads aloud."""
        parts = [self.text] if self.text else []
        parts += self.items
        if self.after:
            parts.append(self.after)
        return "\n".join(parts)

    def ref_citation(self, ref: str) -> str:
        """The citation of a ref written in this clause (refs are ids in the same revision)."""
        if ":" in ref:
            return ref
        if self.current:
            return f"{self.book}:{ref}"
        return f"{self.book}@{self.revision}:{ref}"

    def to_json(self) -> dict:
        """The clause object of DESIGN.md, plus the fields a client may find useful."""
        return {
            "citation": self.citation,
            "book": self.book,
            "revision": self.revision,
            "chapter": self.chapter,
            "id": self.id,
            "label": self.label,
            "title": self.title,
            "text": self.text,
            "items": list(self.items),
            "after": self.after,
            "refs": [self.ref_citation(r) for r in self.refs],
            "kind": self.kind,
            "topics": list(self.topics),
            "note": self.note,
        }


@dataclass
class Chapter:
    """A chapter (or section) of a book revision: a title and its clauses, in order."""

    id: str
    title: str | None
    clauses: list[Clause]
    note: str | None = None
    file: str = ""


@dataclass
class Revision:
    """One edition of a book; `partial` when only some chapters of it are known."""

    id: str
    title: str
    path: str
    source: str | None = None
    partial: bool = False
    note: str | None = None
    chapters: list[Chapter] = field(default_factory=list)

    def clauses(self) -> list[Clause]:
        return [c for ch in self.chapters for c in ch.clauses]


@dataclass
class Book:
    """A rulebook and its revisions; the last revision listed is the current one."""

    id: str
    title: str
    kind: str
    description: str
    source: str
    revisions: list[Revision]
    labels: str = "explicit"
    note: str | None = None
    dir: str = ""
    sanction_clauses: list = field(default_factory=list)  # ids of the clauses that set sanctions (book.yaml)

    @property
    def current(self) -> Revision:
        return self.revisions[-1]

    def revision(self, rev_id: str | None) -> Revision:
        if rev_id is None:
            return self.current
        for rev in self.revisions:
            if rev.id == rev_id or rev.id.lower() == rev_id.lower():
                return rev
        known = ", ".join(r.id for r in self.revisions)
        raise UserError(f"la révision « {shown(rev_id)} » du livre {self.id} n'existe pas ; révisions connues : {known}")

    def previous(self, rev_id: str | None = None) -> Revision | None:
        """The revision before `rev_id` (before the current one by default)."""
        ids = [r.id for r in self.revisions]
        pos = ids.index(self.revision(rev_id).id)
        return self.revisions[pos - 1] if pos > 0 else None

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "kind": self.kind,
            "description": self.description,
            "source": self.source,
            "note": self.note,
            "current": self.current.id,
            "revisions": [
                {"id": r.id, "title": r.title, "partial": r.partial, "note": r.note,
                 "chapters": [{"id": ch.id, "title": ch.title, "clauses": [c.id for c in ch.clauses]}
                              for ch in r.chapters]}
                for r in self.revisions
            ],
        }


class KnowledgeBase:
    """Every book, clause and procedure, with lookups by citation and backlinks."""

    def __init__(self, books: list[Book], procedures: list | None = None,
                 glossary: list | None = None, root: str = "", digest: str = "",
                 catalogue=None, parameters: dict | None = None, house_book: str | None = None,
                 phrasings: dict | None = None):
        self.books = books
        #: phrasings.yaml: {"situations": {book:procedure: [words]}, "clauses": {citation: [words]}}
        self.phrasings = phrasings or {}
        self.house_book = house_book  # base.yaml: the book whose situations `ask` proposes first
        self.catalogue = catalogue  # calculator declarations (ruling.decide.catalogue.Catalogue)
        self.parameters = parameters or {}  # book id -> {parameter id -> Parameter}
        self.procedures = procedures or []
        self.glossary = glossary or []
        self.root = root
        self.digest = digest
        self._books = {b.id: b for b in books}
        self._clauses: dict[str, Clause] = {}
        for book in books:
            for rev in book.revisions:
                for clause in rev.clauses():
                    self._clauses.setdefault(clause.citation, clause)
        self._cited_by: dict[str, list[str]] | None = None

    # -- books -----------------------------------------------------------------
    def book(self, book_id: str) -> Book:
        """The book with this id (case does not matter: CLUB is club)."""
        found = self._books.get(book_id) or self._books.get(book_id.lower())
        if found is None:
            raise _unknown("le livre", book_id, list(self._books))
        return found

    # -- clauses ---------------------------------------------------------------
    def clauses(self, book: str | None = None, all_revisions: bool = False) -> list[Clause]:
        """Clauses in reading order: the current revisions, or every revision."""
        out = []
        for b in self.books:
            if book and b.id != book:
                continue
            for rev in (b.revisions if all_revisions else [b.current]):
                out.extend(rev.clauses())
        return out

    def find(self, citation: str) -> Clause | None:
        """The clause a full citation names, or None."""
        return self._clauses.get(citation)

    def clause(self, citation: str, book: str | None = None) -> Clause:
        """Resolve `club:9-13`, `club@v1:8-10` or a bare `9-13` (unique across books)."""
        citation = citation.strip()
        m = CITATION_RE.match(citation)
        if not m:
            raise UserError(f"« {shown(citation)} » n'est pas une citation ; attendu par exemple club:9-13 ou 9-13")
        named, rev_id, clause_id = m.group("book"), m.group("rev"), m.group("id")
        if named and book and self.book(named).id != self.book(book).id:
            same = [c.citation for c in self.clauses(self.book(book).id) if _same_id(c.id, clause_id)]
            raise UserError(f"« {shown(citation)} » nomme déjà le livre {self.book(named).id}, et --book dit {book} ; "
                            "gardez l'un des deux", suggestions=[f"{self.book(named).id}:{clause_id}"] + same)
        book_id = named or book
        if book_id is None:
            hits = [c for c in self.clauses() if _same_id(c.id, clause_id)]
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                names = [c.citation for c in hits]
                raise UserError(f"« {shown(clause_id)} » existe dans plusieurs livres : {', '.join(names)} ; précisez le livre",
                                suggestions=names)
            raise _unknown("la règle", clause_id, [c.citation for c in self.clauses()], key=_clause_id)
        bk = self.book(book_id)
        rev = bk.revision(rev_id)
        for c in rev.clauses():
            if _same_id(c.id, clause_id):
                return c
        prefix = f"{bk.id}@{rev.id}:" if rev_id else f"{bk.id}:"
        elsewhere = [c.citation for c in self.clauses() if c.book != bk.id and _same_id(c.id, clause_id)]
        raise _unknown("la règle", prefix + clause_id, [prefix + c.id for c in rev.clauses()], also=elsewhere)

    def cited_by(self, clause: Clause) -> list[str]:
        """Citations of the clauses whose refs point at this clause."""
        if self._cited_by is None:
            index: dict[str, list[str]] = {}
            for b in self.books:
                for rev in b.revisions:
                    for c in rev.clauses():
                        for ref in c.refs:
                            index.setdefault(c.ref_citation(ref), []).append(c.citation)
            self._cited_by = index
        return self._cited_by.get(clause.citation, [])

    def procedures_citing(self, clause: Clause) -> list:
        """Procedures with an outcome that cites this clause."""
        return [p for p in self.procedures if clause.citation in p.cited_citations()]

    def chapter_of(self, clause: Clause) -> Chapter:
        rev = self.book(clause.book).revision(clause.revision)
        for ch in rev.chapters:
            if ch.id == clause.chapter:
                return ch
        raise LookupError(clause.chapter)  # cannot happen for a loaded clause

    def to_json(self) -> dict:
        """The whole knowledge base as one JSON-ready document (every revision)."""
        return {
            "books": [b.to_json() for b in self.books],
            "clauses": [c.to_json() for c in self.clauses(all_revisions=True)],
            "procedures": [p.to_json() for p in self.procedures],
            "glossary": list(self.glossary),
            "phrasings": dict(self.phrasings),
        }


def _same_id(clause_id: str, typed: str) -> bool:
    return clause_id == typed or clause_id.lower() == typed.lower()


def _clause_id(citation: str) -> str:
    return citation.rpartition(":")[2]


def _unknown(what: str, name: str, candidates: list[str], key=None, also: Sequence[str] = ()) -> UserError:
    """`La règle « 9-31 » n'existe pas ; vouliez-vous club:9-13 ?`: the closest existing names
    (compared through `key`, e.g. the clause id of a citation), then `also` (the same id elsewhere)."""
    if key is None:
        close = closest(name, candidates)
    else:
        by_key: dict[str, list[str]] = {}
        for cand in candidates:
            by_key.setdefault(key(cand), []).append(cand)
        close = [c for k in closest(name, list(by_key)) for c in by_key[k]][:3]
    close = list(also) + [c for c in close if c not in also]
    msg = f"{what} « {shown(name)} » n'existe pas"
    if close:
        msg += " ; vouliez-vous " + " ou ".join(close) + " ?"
    elif candidates and len(candidates) <= 10:
        msg += " ; connus : " + ", ".join(candidates)
        close = list(candidates)
    return UserError(msg[0].upper() + msg[1:], suggestions=close)
