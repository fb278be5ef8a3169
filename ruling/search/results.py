"""Search results: the hits, their JSON shape, and how `ruling search` prints them."""
from __future__ import annotations

import re

from ruling.errors import shown


class Hit:
    """One search hit: a clause (by citation) or a procedure (by id), with a snippet.

    Plain classes here (equal when their fields are): a dataclass would import `inspect`
    into every `ruling search` (11-14 ms)."""

    __slots__ = ("kind", "ref", "book", "title", "snippet", "score")

    def __init__(self, kind: str, ref: str, book: str, title: str, snippet: str, score: float):
        self.kind = kind
        self.ref = ref
        self.book = book
        self.title = title
        self.snippet = snippet
        self.score = score

    def _fields(self) -> tuple:
        return (self.kind, self.ref, self.book, self.title, self.snippet, self.score)

    def __eq__(self, other) -> bool:
        return self._fields() == other._fields() if isinstance(other, Hit) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        return "Hit(" + ", ".join(f"{n}={v!r}" for n, v in zip(self.__slots__, self._fields())) + ")"

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


class SearchResult:
    """Ranked hits for a query, and a suggestion when there are none."""

    __slots__ = ("query", "hits", "suggestion")

    def __init__(self, query: str, hits: list[Hit] | None = None, suggestion: str | None = None):
        self.query = query
        self.hits = [] if hits is None else hits
        self.suggestion = suggestion

    def __eq__(self, other) -> bool:
        if not isinstance(other, SearchResult):
            return NotImplemented
        return (self.query, self.hits, self.suggestion) == (other.query, other.hits, other.suggestion)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SearchResult(query={self.query!r}, hits={self.hits!r}, suggestion={self.suggestion!r})"

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
