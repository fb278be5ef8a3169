"""The printable rulebook: one PDF per book (current edition, verbatim) and a « ce qui a changé » sheet.

Clubs post their rules at the venue and hand them to new players. The PDF is laid out from the
knowledge base itself (not from the site's HTML): clause numbers, cross-references as page
numbers (CSS `target-counter`), the editor's notes, a table of contents, the edition and the
printing date at the foot of each page. WeasyPrint renders it; without it (or without Debian's
pango) the build says so in one French line and goes on.
"""
from __future__ import annotations

import datetime
import os
from html import escape

PDF_FOLDER = "imprimer"

_CSS = """
@page { size: A4; margin: 18mm 16mm 20mm;
  @bottom-right { content: "page " counter(page) " / " counter(pages); font-size: 8pt; color: #555; } }
body { font-family: "DejaVu Serif", serif; font-size: 10pt; line-height: 1.35; }
h1 { font-size: 20pt; margin: 0 0 4mm; }
h2 { font-size: 14pt; margin: 6mm 0 2mm; break-after: avoid; border-bottom: 1px solid #999; }
h2.chapter { break-before: page; }
.clause { margin: 0 0 3mm; break-inside: avoid-page; }
.clause h3 { font-size: 10.5pt; margin: 0 0 1mm; break-after: avoid; }
.num { font-weight: bold; margin-right: 2mm; }
.text, .after { white-space: pre-line; margin: 0 0 1mm; }
ul { margin: 0 0 1mm 5mm; padding-left: 4mm; }
.note { font-size: 8.5pt; font-style: italic; color: #333; border-left: 2px solid #999; padding-left: 2mm; }
.refs { font-size: 8.5pt; color: #333; }
.refs a { color: inherit; text-decoration: none; }
.refs a::after { content: " (p. " target-counter(attr(href), page) ")"; }
nav.toc ol { list-style: none; padding: 0; }
nav.toc li { margin: 1mm 0; }
nav.toc a { color: inherit; text-decoration: none; }
nav.toc a::after { content: leader(".") " " target-counter(attr(href), page); }
.meta { color: #444; }
del { color: #8b0000; } ins { color: #004d00; }
.change { margin: 0 0 1.2mm; break-inside: avoid; font-size: 8pt; line-height: 1.25; }
.change p { margin: 0.5mm 0 0; }
body.sheet { font-size: 8pt; } body.sheet h1 { font-size: 14pt; margin-bottom: 1mm; }
"""


def weasyprint_missing() -> str | None:
    """Why the PDFs cannot be made here (one French line), or None when they can."""
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as e:  # OSError: pango or its fonts absent
        return f"PDF non produits : WeasyPrint indisponible ({type(e).__name__} : {str(e).splitlines()[0][:120]})"
    return None


def printing_date() -> str:
    """The day the PDFs are printed, `SOURCE_DATE_EPOCH` if set (a reproducible build)."""
    stamp = os.environ.get("SOURCE_DATE_EPOCH")
    day = (datetime.datetime.fromtimestamp(int(stamp), datetime.UTC).date() if stamp and stamp.isdigit()
           else datetime.date.today())
    months = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
              "octobre", "novembre", "décembre"]
    return f"{day.day} {months[day.month - 1]} {day.year}"


def _foot(edition: str) -> str:
    """The page rule writing the edition and date at the foot of every page (a CSS string)."""
    quoted = "".join(f"\\{ord(ch):x} " if ch in '"\\<>' or ord(ch) < 32 else ch for ch in edition)
    return f'@page {{ @bottom-left {{ content: "{quoted}"; font-size: 8pt; color: #555; }} }}'


def _anchor(clause) -> str:
    return "r-" + "".join(ch if ch.isalnum() else "-" for ch in clause.id)


def _number(clause) -> str:
    return clause.label or clause.id


def book_html(kb, book, date: str) -> str:
    """The current edition of `book` as one printable HTML document (every text escaped)."""
    rev = book.current
    edition = f"{book.title} — {rev.title} ({rev.id}) — imprimé le {date}"
    ids = {c.id: c for c in rev.clauses()}
    out = [f'<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>{escape(book.title)}</title>',
           f"<style>{_CSS}{_foot(edition)}</style></head><body>",
           f"<h1>{escape(book.title)}</h1>",
           f'<p class="meta">{escape(rev.title)} ({escape(rev.id)}), imprimé le {escape(date)}. '
           "Texte intégral, mot pour mot.</p>"]
    if book.description:
        out.append(f'<p class="meta">{escape(book.description)}</p>')
    out.append('<nav class="toc"><h2>Sommaire</h2><ol>')
    for n, ch in enumerate(rev.chapters):
        out.append(f'<li><a href="#ch-{n}">{escape(ch.title or ch.id)}</a></li>')
    out.append("</ol></nav>")
    for n, ch in enumerate(rev.chapters):
        out.append(f'<h2 class="chapter" id="ch-{n}">{escape(ch.title or ch.id)}</h2>')
        if ch.note:
            out.append(f'<p class="note">Note de l\'éditeur : {escape(ch.note)}</p>')
        for c in ch.clauses:
            out.append(f'<div class="clause" id="{_anchor(c)}"><h3><span class="num">{escape(_number(c))}</span>'
                       f'{escape(c.title or "")}</h3>')
            if c.text:
                out.append(f'<p class="text">{escape(c.text)}</p>')
            if c.items:
                out.append("<ul>" + "".join(f"<li>{escape(i)}</li>" for i in c.items) + "</ul>")
            if c.after:
                out.append(f'<p class="after">{escape(c.after)}</p>')
            refs = []
            for ref in c.refs:
                target = ids.get(ref)
                if target is not None:
                    refs.append(f'<a href="#{_anchor(target)}">{escape(_number(target))}</a>')
                else:
                    refs.append(escape(ref))
            if refs:
                out.append(f'<p class="refs">Voir aussi : {", ".join(refs)}</p>')
            if c.note:
                out.append(f'<p class="note">Note de l\'éditeur : {escape(c.note)}</p>')
            out.append("</div>")
    out.append("</body></html>")
    return "".join(out)


def changes_html(kb, book, date: str) -> str | None:
    """One page: what the latest revision of `book` changed (None when the book has one edition)."""
    from ruling.site.history import redline_html, revision_diff, typography_marked

    old = book.previous()
    if old is None:
        return None
    result = revision_diff(kb, book, old, book.current)
    if result is None:
        return None
    labels = {"modified": "modifiée", "typography": "typographie seulement (’ et ', espaces)",
              "renumbered": "renumérotée", "added": "ajoutée", "removed": "supprimée"}
    edition = f"{book.title} — ce qui a changé — imprimé le {date}"
    out = [f'<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>{escape(book.title)} : ce qui a changé</title>',
           f"<style>{_CSS}{_foot(edition)}@page {{ margin: 10mm 12mm 14mm; }}</style></head><body class=\"sheet\">",
           f"<h1>Ce qui a changé</h1><p class=\"meta\">{escape(book.title)} : de « {escape(old.title)} » "
           f"({escape(old.id)}) à « {escape(book.current.title)} » ({escape(book.current.id)}).</p>"]
    shown = 0
    for change in result.changes:
        if change.status == "unchanged":
            continue
        clause = change.new or change.old
        number = _number(clause)
        if change.old and change.new and change.old.id != change.new.id:
            number = f"{_number(change.old)} → {_number(change.new)}"
        out.append(f'<div class="change"><strong>{escape(number)}</strong> '
                   f'{escape(clause.title or "")} — <em>{escape(labels.get(change.status, change.status))}</em>'
                   f"{redline_html(typography_marked(change.words))}</div>")
        shown += 1
    if not shown:
        out.append("<p>Aucune règle n'a changé.</p>")
    out.append("</body></html>")
    return "".join(out)


def pdf_names(book) -> tuple[str, str]:
    """The two files of a book inside PDF_FOLDER: the rulebook and its « ce qui a changé » sheet."""
    return f"{book.id}.pdf", f"{book.id}-changements.pdf"


def pdf_documents(kb) -> list[tuple[str, bytes]]:
    """(path under the site, PDF bytes) of every book's rulebook and, when it has an older
    edition, of its change sheet."""
    import weasyprint

    date = printing_date()
    out = []
    for book in kb.books:
        rulebook, sheet = pdf_names(book)
        out.append((f"{PDF_FOLDER}/{rulebook}", weasyprint.HTML(string=book_html(kb, book, date)).write_pdf()))
        changes = changes_html(kb, book, date)
        if changes is not None:
            out.append((f"{PDF_FOLDER}/{sheet}", weasyprint.HTML(string=changes).write_pdf()))
    return out
