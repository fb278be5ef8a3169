"""The two errors a user can meet: a wrong request, and a broken knowledge base.

Both carry French text meant to be printed as is; the CLI turns them into one line
(or one line per problem) and exit status 2, never a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass


class UserError(Exception):
    """A request that cannot be served: unknown clause, bad answer, odd option.

    `suggestions` are the valid names the message proposes (« vouliez-vous … ? »), for `--json`.
    """

    exit_code = 2

    def __init__(self, message: str = "", suggestions=()):
        super().__init__(message)
        self.suggestions = list(suggestions)

    def to_json(self) -> dict:
        """The error document of `--json` (DESIGN.md): `{"error": {"message", "suggestions"}}`."""
        return {"error": {"message": str(self), "suggestions": list(self.suggestions)}}


@dataclass(frozen=True)
class Problem:
    """One problem found in the knowledge base, located by file and line."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "message": self.message}


class KnowledgeBaseError(UserError):
    """The knowledge base does not pass validation; `problems` says where and why."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        first = problems[0]
        more = f" (et {len(problems) - 1} autre(s) problème(s) ; lancez « ruling check »)" if len(problems) > 1 else ""
        super().__init__(f"base de règles invalide : {first}{more}")


def shown(text: str) -> str:
    """`text` fit to print in a message: control characters escaped (\\x00), the rest as typed."""
    text = str(text)
    return text if text.isprintable() else text.encode("unicode_escape").decode("ascii")
