"""What `ruling journal` prints: a French table for the terminal, CSV for a spreadsheet (UTF-8 with
a BOM and `;`, as a French spreadsheet opens it), Markdown for the club's newsletter, and the replay.

Cancelled entries stay listed, struck through. Every recorded text is escaped for where it goes.
"""
from __future__ import annotations

import csv
import io
from datetime import datetime

from ruling.decide.engine import answer_text
from ruling.errors import shown

HEADERS = ["n°", "date et heure", "événement", "table", "joueurs", "livre", "révision", "procédure", "issue",
           "décision", "règles citées", "note", "annulée le", "réponse du journal écartée"]


def _when(stamp: str | None) -> str:
    if not stamp:
        return ""
    moment = datetime.fromisoformat(stamp)
    return f"{moment:%d/%m/%Y %H:%M}"


def _row(entry) -> list[str]:
    return [str(entry.id), _when(entry.recorded_at), entry.event, "" if entry.table is None else str(entry.table),
            ", ".join(p.name for p in entry.players), entry.book, entry.revision, entry.procedure, entry.outcome,
            entry.decision, ", ".join(c.citation for c in entry.citations), entry.note or "", _when(entry.cancelled_at), overridden_text(entry)]


def overridden_text(entry) -> str:
    """« precedents=avertissement » for each journal answer the TD overrode."""
    return ", ".join(f"{qid}={answer_text(value)}" for qid, value in entry.overridden.items())


def strike(text: str) -> str:
    """Struck through in any terminal: a combining long stroke after every character."""
    return "".join(ch + "\u0336" for ch in text)


def table_text(entries: list) -> str:
    """The French table of the terminal: one line per ruling, grouped by event, cancelled ones struck through."""
    if not entries:
        return "Aucune décision enregistrée."
    heads = ["n°", "date et heure", "table", "joueurs", "procédure", "issue"]
    cells = {e.id: [shown(v) for v in (str(e.id), _when(e.recorded_at), "" if e.table is None else str(e.table),
                                       ", ".join(p.name for p in e.players), f"{e.book}:{e.procedure}", e.outcome)]
             for e in entries}
    widths = [max(len(h), *(len(row[k]) for row in cells.values())) for k, h in enumerate(heads)]

    def line(values):
        return "  ".join(v.ljust(w) for v, w in zip(values, widths)).rstrip()

    lines: list[str] = []
    event = None
    for entry in entries:
        if entry.event != event:
            event = entry.event
            lines += ([""] if lines else []) + [f"Événement « {shown(event)} »", "  " + line(heads)]
        text = line(cells[entry.id])
        if entry.cancelled:
            text = strike(text) + f"  (annulée le {_when(entry.cancelled_at)})"
        lines.append("  " + text)
        if entry.note:
            lines.append("      note : " + (strike(shown(entry.note)) if entry.cancelled else shown(entry.note)))
        if entry.overridden:
            lines.append("      réponse du journal écartée par l'arbitre : " + overridden_text(entry))
    standing = sum(1 for e in entries if not e.cancelled)
    lines += ["", f"{standing} décision(s), {len(entries) - standing} annulée(s)."]
    return "\n".join(lines)


def csv_bytes(entries: list) -> bytes:
    """Every entry as CSV a French spreadsheet opens with accents intact: UTF-8 with BOM, `;`, CRLF."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(HEADERS)
    for entry in entries:
        writer.writerow([_formula_safe(cell) for cell in _row(entry)])
    return out.getvalue().encode("utf-8-sig")


def _formula_safe(cell: str) -> str:
    """A cell a spreadsheet will not run as a formula (a player's name typed as « =… »)."""
    return "'" + cell if cell[:1] in ("=", "+", "-", "@") and not cell[1:2].isdigit() else cell


def _md(text: str) -> str:
    """Text for a Markdown table cell, whole and with its punctuation: only what Markdown would read
    otherwise is escaped (`|`, `*`, `_`, backticks, `<`), line breaks become spaces."""
    text = shown(" ".join(str(text).splitlines()), limit=len(str(text)) + 1)  # controls escaped, nothing cut
    text = text.replace("\\", "\\\\")
    for ch in "|*_`":
        text = text.replace(ch, "\\" + ch)
    return text.replace("<", "&lt;")


def markdown(entries: list) -> str:
    """A Markdown table for the newsletter, decisions and notes in full; cancelled rulings struck through (~~…~~)."""
    if not entries:
        return "Aucune décision enregistrée.\n"
    heads = ["n°", "heure", "table", "joueurs", "procédure", "issue", "décision", "règles citées", "note"]
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    for entry in entries:
        row = _row(entry)
        cells = [_md(v) for v in (row[0], row[1], row[3], row[4], f"{entry.book}:{row[7]}", row[8], row[9], row[10],
                                  row[11])]
        if entry.cancelled:
            cells = [f"~~{c}~~" if c else c for c in cells]
            cells[-1] += " (annulée)"
        lines.append("| " + " | ".join(cells) + " |")
    events = sorted({e.event for e in entries})
    title = f"## Journal — {', '.join(_md(e) for e in events)}"
    return title + "\n\n" + "\n".join(lines) + "\n"


def replay_text(results: list) -> str:
    """`ruling journal --replay`: the rulings that would change on the current base, and why."""
    changed = [r for r in results if r.changed]
    lines = [f"{len(results)} décision(s) rejouée(s) sur la base actuelle : "
             + (f"{len(changed)} changerai(en)t." if changed else "aucune ne change.")]
    for r in changed:
        e = r.entry
        lines.append(f"  n° {e.id}  {_when(e.recorded_at)}  {_whole(e.event)}  {e.book}:{e.procedure} [{e.outcome}] : "
                     + " ; ".join(_whole(c) for c in r.changes))
        if r.decision is not None and r.decision != e.decision:
            lines.append(f"      décision enregistrée : {_whole(e.decision)}")
            lines.append(f"      décision actuelle : {_whole(r.decision)}")
        elif r.why_no_decision:
            lines.append(f"      pas de décision actuelle : {_whole(r.why_no_decision)}")
    return "\n".join(lines)


def _whole(text: str) -> str:
    """A recorded text printed in full (never cut), on one line; the terminal guard escapes controls."""
    text = " ".join(str(text).splitlines())
    return shown(text, limit=len(text) + 1)
