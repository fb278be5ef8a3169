"""Search results: the hits, their JSON shape, and how `ruling search` prints them."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ruling.errors import shown


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
