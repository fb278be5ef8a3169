"""Shell completion of the names a user types: book ids, citations, procedure ids, situations.

click does the shell side (`eval "$(_RULING_COMPLETE=bash_source ruling)"`, see README); these
are the `shell_complete` callbacks of the arguments and options. The base is loaded as the
commands load it (cached), from `--kb` or `RULING_KB`; a base that cannot be loaded completes
nothing rather than printing an error into the shell.
"""
from __future__ import annotations

import os

from ruling.errors import UserError


def _kb(ctx):
    """The base for a completion, or None when it cannot be loaded."""
    from ruling.kb.load import load_kb  # on a TAB only: the cli imports this module for every command

    path = ctx.find_root().params.get("kb_path") or os.environ.get("RULING_KB")
    try:
        return load_kb(path)
    except (UserError, OSError):
        return None


def _matching(names, incomplete: str) -> list[str]:
    """The names starting with what is typed (case does not matter), in order, once each."""
    typed = incomplete.lower()
    return [n for n in dict.fromkeys(names) if n.lower().startswith(typed)]


def book_ids(ctx, param, incomplete: str) -> list[str]:
    kb = _kb(ctx)
    return _matching([b.id for b in kb.books], incomplete) if kb else []


def book_revisions(ctx, param, incomplete: str) -> list[str]:
    """`club`, then `club@v1`…: what `ruling list` and `ruling diff` accept."""
    kb = _kb(ctx)
    if kb is None:
        return []
    return _matching([name for b in kb.books for name in [b.id] + [f"{b.id}@{r.id}" for r in b.revisions]],
                     incomplete)


def citations(ctx, param, incomplete: str) -> list[str]:
    """`club:9-13`, `club@v1:8-10`; a bare number completes within `--book` when it is given,
    and otherwise when only one book's current revision has it (as `ruling show 9-13` reads it)."""
    kb = _kb(ctx)
    if kb is None:
        return []
    book = ctx.params.get("book")
    if book and ":" not in incomplete:
        return _matching([c.id for c in kb.clauses(book.lower())], incomplete)
    full = [c.citation for c in kb.clauses(all_revisions=True)]
    if ":" in incomplete:
        return _matching(full, incomplete)
    return _matching(unique_bare_ids(kb) + full, incomplete)


def unique_bare_ids(kb) -> list[str]:
    """Clause ids that only one book's current revision has, in reading order."""
    books_of: dict[str, set[str]] = {}
    for c in kb.clauses():
        books_of.setdefault(c.id, set()).add(c.book)
    return [i for i, books in books_of.items() if len(books) == 1]


def procedure_ids(ctx, param, incomplete: str) -> list[str]:
    """Procedure ids, of the `--book` given if any."""
    kb = _kb(ctx)
    if kb is None:
        return []
    book = ctx.params.get("book")
    return _matching(sorted(p.id for p in kb.procedures if not book or p.book == book.lower()), incomplete)


def situations(ctx, param, incomplete: str) -> list[str]:
    kb = _kb(ctx)
    return _matching(sorted({p.situation for p in kb.procedures}), incomplete) if kb else []
