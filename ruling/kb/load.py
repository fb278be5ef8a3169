"""Reading the knowledge base from `rulebook/`: find it, validate it, cache it.

`load_kb()` is what every command calls. It reads every file of the base once
(`take_snapshot`: regular files only, bounded, hidden and editor files skipped, symlinked
folders followed once) and hashes those bytes; the parsed base is then taken from the user
cache when that hash was seen before, and otherwise parsed *from the same bytes*, validated
(JSON Schema + cross-checks) and cached as plain data (`ruling.kb.plain`, never a pickle). So
what is cached under a hash is always what was hashed, and an edit is always seen. A broken base raises `KnowledgeBaseError`
listing each problem with file and line. A cache hit imports neither yaml nor jsonschema.
"""
from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Set
from pathlib import Path, PurePosixPath

from ruling.errors import KnowledgeBaseError, Problem, shown
from ruling.kb import plain
from ruling.kb.cache import cache_dir, prune, touch, trusted_entry, usable_cache_dir, write_atomically
from ruling.kb.model import Book, Chapter, Clause, KnowledgeBase, Revision
from ruling.kb.root import base_digest, default_root, resolve_root
from ruling.kb.schemas import Schemas
from ruling.kb.snapshot import Snapshot, YamlDoc, already_defined, read_yaml, take_snapshot

__all__ = ["base_digest", "cache_dir", "default_root", "load_kb", "parse_kb", "resolve_root", "take_snapshot", "Snapshot"]

#: A cross-reference written in a clause: "(cf 2-17)", "cf 2-18", "(cf 2-15 & 2-16)", "(5-2)".
REF_IN_TEXT_RE = re.compile(r"\(cf\s*(\d+-\d+)(?:\s*&\s*(\d+-\d+))?\)|cf\s+(\d+-\d+)|\((\d+-\d+)\)")


def refs_in_text(text: str) -> list[str]:
    """The clause numbers a text refers to, in order of appearance."""
    found: list[str] = []
    for m in REF_IN_TEXT_RE.finditer(text):
        for g in m.groups():
            if g and g not in found:
                found.append(g)
    return found


# -- the parsed cache ------------------------------------------------------------------

def _read_cache(path: Path, root: Path) -> KnowledgeBase | None:
    """The cached base, or None when missing, damaged, foreign, or of another shape (then rebuilt)."""
    try:
        if not trusted_entry(path):
            return None
        kb = plain.loads(path.read_bytes(), str(root))
    except Exception:  # missing, truncated, garbage, or from another version: rebuild
        return None
    touch(path)
    return kb


def load_kb(path: str | os.PathLike | None = None, use_cache: bool = True) -> KnowledgeBase:
    """Load the knowledge base at `path` (default: the bundled one), or raise."""
    root = resolve_root(path)
    snap = take_snapshot(root)
    folder = usable_cache_dir() if use_cache else None
    cache_file = folder / f"kb-{snap.digest}.marshal" if folder else None
    if cache_file is not None:
        kb = _read_cache(cache_file, root)
        if kb is not None and kb.digest == snap.digest:
            _rebase(kb, root)
            return kb
    kb, problems = parse_kb(root, snap)
    if problems:
        raise KnowledgeBaseError(problems)
    kb.digest = snap.digest
    if cache_file is not None:
        if write_atomically(cache_file, plain.dumps(kb)):
            prune(cache_file.parent)
    return kb


def _rebase(kb: KnowledgeBase, root: Path) -> None:
    """Point a cached base at the folder it was loaded from (the same bytes may live elsewhere)."""
    for book in kb.books:
        book.dir = str(root / book.id)


# -- parsing -----------------------------------------------------------------------------

def parse_kb(root: Path, snap: Snapshot | None = None) -> tuple[KnowledgeBase, list[Problem]]:
    """Parse and validate the base under `root` (from `snap`, its files as read once);
    never raises on bad content."""
    snap = take_snapshot(root) if snap is None else snap
    problems: list[Problem] = list(snap.problems)
    schemas = Schemas(root, snap)
    books: list[Book] = []
    seen_books: dict[str, str] = {}
    book_files = sorted(rel for rel in snap.files if rel.count("/") == 1 and rel.endswith("/book.yaml"))
    unloaded: set[str] = set()  # books with a file that did not load: refs into them are not checked
    for book_rel in book_files:
        doc = read_yaml(snap, book_rel, problems)
        if doc is None or not schemas.validate("book", doc, problems):
            unloaded.add(posixpath.dirname(book_rel))
            continue
        book = _build_book(doc, snap, schemas, problems, unloaded)
        if already_defined(seen_books, book.id, doc, "id", f"le livre « {book.id} » est déjà défini dans {{first}} ; "
                           "chaque livre doit avoir un id unique", problems):
            continue
        books.append(book)
    if not books and not problems:
        problems.append(Problem(str(root), 0, "aucun livre : attendu des dossiers <livre>/book.yaml"))
    glossary: list = []
    if snap.kind("glossary.yaml") is not None:
        doc = read_yaml(snap, "glossary.yaml", problems)
        if doc is not None and schemas.validate("glossary", doc, problems):
            glossary = doc.data["terms"]
    house_book = _house_book(snap, schemas, problems, {b.id for b in books})
    clauses_only = KnowledgeBase(books, glossary=glossary, root=str(root))
    _check_refs(clauses_only, problems, unloaded)
    # only on a cache miss: a cached base never imports the procedure loader, its checks and the
    # engine (about 20 ms that `ruling show` would pay for nothing)
    from ruling.decide.loading import load_procedures

    # cites resolve against the clauses; a cite into a book whose file did not load is not
    # reported (the file's own problem is the cause)
    procedures, catalogue, parameters = load_procedures(clauses_only, snap, schemas, problems, unloaded)
    phrasings = _phrasings(snap, schemas, problems, clauses_only, procedures, unloaded)
    kb = KnowledgeBase(books, procedures, glossary, str(root), catalogue=catalogue, parameters=parameters,
                       house_book=house_book, phrasings=phrasings)
    return kb, problems


def _phrasings(snap: Snapshot, schemas: Schemas, problems: list[Problem], kb: KnowledgeBase,
               procedures: list, unloaded: Set[str]) -> dict:
    """`phrasings.yaml`: the words people typed for a situation or a clause (searched, never
    shown); each target must exist, else a problem (a book whose file did not load is skipped)."""
    if snap.kind("phrasings.yaml") is None:
        return {}
    doc = read_yaml(snap, "phrasings.yaml", problems)
    if doc is None or not schemas.validate("phrasings", doc, problems):
        return {}
    data = doc.data or {}
    known_procedures = {f"{p.book}:{p.id}" for p in procedures}
    for section, known, what in (("situations", known_procedures, "procédure"), ("clauses", None, "règle")):
        for target in data.get(section) or {}:
            book, _, entry = target.partition(":")
            if book in unloaded:
                continue
            if section == "situations" and (snap.kind(f"{book}/procedures") == "file"
                                            or f"{book}/procedures/{entry}.yaml" in snap.files):
                continue  # its file did not load (or its folder is a file): that problem is the cause
            if (target not in known) if known is not None else kb.find(target) is None:
                problems.append(Problem(doc.display, doc.line(section, target),
                                        f"{section}.{target} : {what} inconnue ; attendu livre:id d'une {what} de la base"))
    return {section: {k: list(v) for k, v in (data.get(section) or {}).items()} for section in ("situations", "clauses")}


def _house_book(snap: Snapshot, schemas: Schemas, problems: list[Problem], book_ids: set[str]) -> str | None:
    """`house_book` of `base.yaml` (the book whose situations `ruling ask` proposes first), or None."""
    if snap.kind("base.yaml") is None:
        return None
    doc = read_yaml(snap, "base.yaml", problems)
    if doc is None or not schemas.validate("base", doc, problems):
        return None
    house = (doc.data or {}).get("house_book")
    if house is not None and house not in book_ids and snap.kind(f"{house}/book.yaml") is None:
        # (a book whose book.yaml did not load has its own problem)
        problems.append(Problem(doc.display, doc.line("house_book"),
                                f"house_book « {shown(house)} » n'est pas un livre de la base ; "
                                f"attendu l'un de : {', '.join(sorted(book_ids))}"))
        return None
    return house


def path_problem(name: str) -> str | None:
    """Why a path written in book.yaml would leave its book's folder (or hide in it), or None."""
    if "\\" in name or "\0" in name:
        return "caractère non permis (\\ ou NUL)"
    p = PurePosixPath(name)
    if p.is_absolute():
        return "chemin absolu"
    if ".." in p.parts:
        return "« .. » sort du dossier du livre"
    if any(part.startswith(".") for part in p.parts if part != "."):
        return "dossier ou fichier caché"
    return None


def _named_path(doc: YamlDoc, snap: Snapshot, book_rel: str, name: str, keys: tuple, what: str,
                problems: list[Problem]) -> str | None:
    """`name` (a path book.yaml gives, relative to the book) as a snapshot path, or None
    (and a problem) if it leaves the book's folder, even through a symbolic link."""
    why = path_problem(name)
    rel = posixpath.normpath(posixpath.join(book_rel, name))
    if why is None:
        book_dir = os.path.realpath(snap.root / book_rel)
        target = os.path.realpath(snap.root / rel)
        if target != book_dir and not target.startswith(book_dir + os.sep):
            why = "un lien symbolique mène hors du dossier du livre"
    if why:
        problems.append(Problem(doc.display, doc.line(*keys),
                                f"{what} « {shown(name)} » refusé : {why} ; attendu un chemin relatif "
                                f"à l'intérieur de {snap.display(book_rel)}/"))
        return None
    return rel


def _build_book(doc: YamlDoc, snap: Snapshot, schemas: Schemas, problems: list[Problem],
                unloaded: set[str]) -> Book:
    data = doc.data
    book_dir = doc.path.parent
    book_rel = book_dir.name  # book files are <base>/<book>/book.yaml
    if data["id"] != book_dir.name:
        problems.append(Problem(doc.display, doc.line("id"),
                                f"l'id « {data['id']} » diffère du nom du dossier « {book_dir.name} »"))
    source = _named_path(doc, snap, book_rel, data["source"], ("source",), "le document source", problems)
    if source is not None and snap.kind(source) != "file":
        problems.append(Problem(doc.display, doc.line("source"),
                                f"le document source « {shown(data['source'])} » n'existe pas"))
    revisions = []
    for i, r in enumerate(data["revisions"]):
        rev = Revision(id=r["id"], title=r["title"], path=r["path"], source=r.get("source"),
                       partial=r.get("partial", False), note=r.get("note"))
        rev_rel = _named_path(doc, snap, book_rel, r["path"], ("revisions", i, "path"), "le dossier de révision",
                              problems)
        if rev_rel is None:
            continue
        if snap.kind(rev_rel) != "dir":
            problems.append(Problem(doc.display, doc.line("revisions", i, "path"),
                                    f"la révision « {rev.id} » désigne le dossier « {shown(r['path'])} » qui n'existe pas"))
            continue
        if rev.source:
            rev_source = _named_path(doc, snap, book_rel, rev.source, ("revisions", i, "source"),
                                     "le document source", problems)
            if rev_source is not None and snap.kind(rev_source) != "file":
                problems.append(Problem(doc.display, doc.line("revisions", i, "source"),
                                        f"le document source « {shown(rev.source)} » n'existe pas"))
        current = i == len(data["revisions"]) - 1
        chapters_seen: dict[str, str] = {}
        for chapter_rel in snap.children(rev_rel):
            if posixpath.basename(chapter_rel) in ("book.yaml", "context.yaml", "parameters.yaml"):  # not chapters
                continue
            cdoc = read_yaml(snap, chapter_rel, problems)
            if cdoc is None or not schemas.validate("chapter", cdoc, problems):
                unloaded.add(data["id"])
                continue
            chapter = build_chapter(cdoc, data, rev, current)
            if already_defined(chapters_seen, chapter.id, cdoc, "chapter", f"le chapitre « {chapter.id} » est déjà "
                               "défini dans {first} ; un seul fichier par numéro de chapitre", problems):
                continue
            rev.chapters.append(chapter)
        _check_unique_ids(rev, problems)
        revisions.append(rev)
    return Book(id=data["id"], title=data["title"], kind=data["kind"], description=data.get("description", ""),
                source=data["source"], revisions=revisions, labels=data.get("labels", "explicit"),
                note=data.get("note"), dir=str(book_dir), sanction_clauses=list(data.get("sanction_clauses") or []))


def build_chapter(doc: YamlDoc, book: dict, rev: Revision, current: bool) -> Chapter:
    """The clauses of one validated chapter file, as objects of `rev`."""
    data = doc.data
    clauses = []
    for i, c in enumerate(data["clauses"]):
        label = c.get("label")
        if label is None and book.get("labels") == "id":
            label = c["id"]
        clauses.append(Clause(
            book=book["id"], revision=rev.id, chapter=str(data["chapter"]), id=str(c["id"]), text=c["text"],
            label=label, title=c.get("title"), items=list(c.get("items", [])), after=c.get("after"),
            refs=[str(r) for r in c.get("refs", [])], kind=c.get("kind", "normative"),
            topics=list(c.get("topics", [])), keywords=list(c.get("keywords", [])), note=c.get("note"), procedure=c.get("procedure"),
            file=doc.display, line=doc.line("clauses", i), current=current,
        ))
    return Chapter(id=str(data["chapter"]), title=data.get("title"), clauses=clauses,
                   note=data.get("note"), file=doc.display)


def _check_unique_ids(rev: Revision, problems: list[Problem]) -> None:
    seen: dict[str, Clause] = {}
    for c in rev.clauses():
        if c.id in seen:
            first = seen[c.id]
            problems.append(Problem(c.file, c.line, f"id « {c.id} » en double (déjà utilisé en {first.file}:{first.line})"))
        else:
            seen[c.id] = c
        if not c.full_text.strip() and not c.note:
            problems.append(Problem(c.file, c.line, f"la règle « {c.id} » est vide sans note qui l'explique"))


def _check_refs(kb: KnowledgeBase, problems: list[Problem], unloaded: Set[str] = frozenset()) -> None:
    for book in kb.books:
        if book.id in unloaded:  # a ref may point into the chapter that did not load
            continue
        for rev in book.revisions:
            ids = {c.id for c in rev.clauses()}
            for c in rev.clauses():
                for ref in c.refs:
                    target = c.ref_citation(ref)
                    if ref not in ids and kb.find(target) is None:
                        problems.append(Problem(c.file, c.line, f"ref « {ref} » de la règle {c.id} n'existe pas"))
                for ref in refs_in_text(c.full_text):
                    if ref not in c.refs:
                        problems.append(Problem(c.file, c.line,
                                                f"la règle {c.id} renvoie à « {ref} » dans son texte, absent de refs"))
