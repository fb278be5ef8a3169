"""Where each piece of the knowledge base lives in the published site.

Paths are Markdown source paths (`livres/club/09.md`), relative to the site's docs folder;
mkdocs turns them into URLs (`livres/club/09/`). A clause's anchor is its id, so a permalink
(`livres/club/09/#9-13`) stays the same from one build to the next.
"""
from __future__ import annotations

import posixpath
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def slug(value: str) -> str:
    """A file-name-safe form of an id (ids are already safe; this guards synthetic ones)."""
    return _UNSAFE.sub("-", str(value)).strip("-") or "x"


def chapter_file_name(chapter_id: str) -> str:
    """`9` -> `09` so pages sort in reading order; other ids stay as they are."""
    return f"{int(chapter_id):02d}" if str(chapter_id).isdigit() else slug(chapter_id)


def book_dir(book_id: str, revision_id: str | None = None) -> str:
    """`livres/club` for the current revision, `livres/club/revisions/v1` for an older one."""
    base = f"livres/{slug(book_id)}"
    return f"{base}/revisions/{slug(revision_id)}" if revision_id else base


def book_index(book_id: str, revision_id: str | None = None) -> str:
    return f"{book_dir(book_id, revision_id)}/index.md"


def chapter_page(book, revision, chapter) -> str:
    """The page of one chapter of one revision of a book."""
    older = None if revision.id == book.current.id else revision.id
    return f"{book_dir(book.id, older)}/{chapter_file_name(chapter.id)}.md"


def clause_anchor(clause) -> str:
    return clause.id


def procedure_page(book_id: str, procedure_id: str) -> str:
    return f"procedures/{slug(book_id)}/{slug(procedure_id)}.md"


def source_document(book, revision) -> str:
    """Where the original document of a revision is offered for download."""
    name = posixpath.basename(revision.source or book.source or "source.txt")
    if len(book.revisions) > 1 and revision.id != book.current.id:
        return f"documents/{slug(book.id)}/{slug(revision.id)}/{name}"
    return f"documents/{slug(book.id)}/{name}"


def situation_anchor(situation: str) -> str:
    return f"situation-{slug(situation)}"


def glossary_anchor(term: str) -> str:
    """`fausse donne` -> `terme-fausse-donne` (accents kept out of anchors)."""
    import unicodedata

    ascii_term = unicodedata.normalize("NFKD", term).encode("ascii", "ignore").decode()
    return "terme-" + (re.sub(r"[^a-z0-9]+", "-", ascii_term.lower()).strip("-") or "x")


def relative(from_page: str, target: str) -> str:
    """A Markdown link from one source page to another (`target` may carry `#anchor`)."""
    path, _, anchor = target.partition("#")
    rel = posixpath.relpath(path, posixpath.dirname(from_page) or ".")
    return f"{rel}#{anchor}" if anchor else rel
