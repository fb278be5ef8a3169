"""Plain-text renderings for the terminal: a clause to read aloud, listings of books.

Only the standard library and the base's model (loaded anyway): `ruling show` must stay fast.
"""
from __future__ import annotations

import shutil
import textwrap

from ruling.kb.model import BOOK_KIND_LABELS


def _wrap(text: str, indent: str = "", first: str | None = None) -> str:
    width = min(shutil.get_terminal_size((88, 20)).columns, 100)
    lines = []
    for para in text.split("\n"):
        lines.append(textwrap.fill(para, width=width, initial_indent=first if first is not None else indent,
                                   subsequent_indent=indent, break_long_words=False, break_on_hyphens=False))
        first = None
    return "\n".join(lines)


def bold(text: str, color: bool) -> str:
    return f"\x1b[1m{text}\x1b[0m" if color else text


def clause_body(clause) -> str:
    """The verbatim text of a clause: lead, bullets, closing text."""
    parts = []
    if clause.text:
        parts.append(_wrap(clause.text))
    for item in clause.items:
        parts.append(_wrap(item, indent="    ", first="  · "))
    if clause.after:
        parts.append(_wrap(clause.after))
    if not parts:
        parts.append("(règle vide dans la source)")
    return "\n".join(parts)


def clause_heading(kb, clause) -> str:
    chapter = kb.chapter_of(clause)
    book = kb.book(clause.book)
    where = f"{book.title}"
    if not clause.current:
        where += f" — révision {clause.revision} ({book.revision(clause.revision).title})"
    chap = f"chapitre {chapter.id}" if chapter.id.isdigit() else "section"
    if chapter.title:
        chap += f" · {chapter.title}"
    # a number the source prints twice (two 14-8): the id tells them apart, the TD reads the printed one
    printed = f" (imprimée « {clause.label} » dans le livre)" if clause.label and clause.label != clause.id \
        and clause.id[:1].isdigit() else ""
    return f"{clause.citation}{printed}  [{where}, {chap}]"


def clause_report(kb, clause, color: bool = False) -> str:
    """What `ruling show` prints: heading, verbatim text, note, refs, backlinks, procedures."""
    out = [bold(clause_heading(kb, clause), color)]
    if clause.title:
        out.append(bold(clause.title, color))
    out.append(clause_body(clause))
    if clause.note:
        out.append(_wrap(f"Note de l'éditeur : {clause.note}"))
    if clause.refs:
        out.append("Renvoie à : " + ", ".join(clause.ref_citation(r) for r in clause.refs))
    cited_by = kb.cited_by(clause)
    if cited_by:
        out.append("Cité par : " + ", ".join(cited_by))
    procs = kb.procedures_citing(clause)
    if procs:
        out.append("Procédures : " + ", ".join(f"{p.id} ({p.book})" for p in procs))
    return "\n".join(out)


def books_listing(kb) -> str:
    """One entry per book: id and title, then its kind, revisions and rule counts (all, normative)."""
    lines = []
    for b in kb.books:
        revs = ", ".join(r.id + (" (partielle)" if r.partial else "") for r in b.revisions)
        clauses = b.current.clauses()
        normative = sum(1 for c in clauses if c.kind == "normative")
        lines.append(f"{b.id:<6} {b.title}")
        lines.append(f"       type : {BOOK_KIND_LABELS.get(b.kind, b.kind)} · révisions : {revs} · "
                     f"{len(clauses)} règles, dont {normative} normatives")
    return "\n".join(lines)


def book_listing(book, rev) -> str:
    width = min(shutil.get_terminal_size((88, 20)).columns, 100)
    lines = [f"{book.title} — révision {rev.id} ({rev.title})"]
    for ch in rev.chapters:
        lines.append("")
        lines.append(f"{ch.id} · {ch.title}" if ch.title else ch.id)
        for c in ch.clauses:
            label = c.id
            summary = c.title or c.text or (c.items[0] if c.items else "(vide)")
            line = f"  {label:<12} {summary}"
            lines.append(line if len(line) <= width else line[: width - 1] + "…")
    return "\n".join(lines)
