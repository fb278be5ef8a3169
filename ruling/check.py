"""`ruling check`: every problem of the knowledge base, and the coverage of its rules.

A normative clause is covered when a procedure outcome cites it, or when the clause
says why no procedure applies (`procedure: none — organisation`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Problem
from .load import parse_kb, resolve_root


@dataclass
class CheckReport:
    problems: list[Problem]
    coverage: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        return {"problems": [p.to_json() for p in self.problems], "coverage": self.coverage}

    def to_text(self) -> str:
        lines = [str(p) for p in self.problems]
        for book, cov in self.coverage.items():
            pct = 100 * cov["covered"] / cov["normative"] if cov["normative"] else 100.0
            lines.append(f"couverture {book} : {cov['covered']}/{cov['normative']} règles normatives ({pct:.0f} %)")
            if cov["uncovered"]:
                lines.append("  sans procédure ni raison : " + ", ".join(cov["uncovered"]))
        lines.append("base valide" if self.ok else f"{len(self.problems)} problème(s)")
        return "\n".join(lines)


def coverage(kb) -> dict:
    """Per book: normative clauses of the current revision, how many are covered, which are not."""
    cited = set()
    for proc in kb.procedures:
        cited.update(proc.cited_citations())
    out = {}
    for book in kb.books:
        normative = [c for c in book.current.clauses() if c.kind == "normative"]
        uncovered = [c.citation for c in normative if c.citation not in cited and not c.procedure]
        out[book.id] = {"normative": len(normative), "covered": len(normative) - len(uncovered),
                        "uncovered": uncovered}
    return out


def check_kb(path=None) -> CheckReport:
    """Parse and validate from scratch (no cache) and compute coverage."""
    root = resolve_root(path)
    kb, problems = parse_kb(root)
    return CheckReport(problems=problems, coverage=coverage(kb))
