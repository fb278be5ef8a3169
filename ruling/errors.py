"""The errors a user can meet: a wrong request, a broken knowledge base, a refused decision.

All carry French text meant to be printed as is and an `exit_code`; the CLI turns them into one
line (or one line per problem) and that exit status, never a traceback. The questionnaire tells
them apart: a calculator refusal re-asks the amounts, a stale citation ends the questionnaire.
"""
from __future__ import annotations


class RulingError(Exception):
    """Every error `ruling` reports to a user: a French message and the exit status to end with.

    `suggestions` are the valid names the message proposes (« vouliez-vous … ? »), for `--json`.
    """

    exit_code = 2

    def __init__(self, message: str = "", suggestions=()):
        super().__init__(message)
        self.suggestions = list(suggestions)

    def to_json(self) -> dict:
        """The error document of `--json` (DESIGN.md): `{"error": {"message", "suggestions"}}`."""
        return {"error": {"message": str(self), "suggestions": list(self.suggestions)}}


class UserError(RulingError):
    """A request that cannot be served: unknown clause, bad answer, odd option."""


class CalculatorError(UserError):
    """A calculator refuses the amounts it was given (bets that do not increase, a rank missing…):
    other amounts can still give a decision."""


class StaleCitationError(UserError):
    """A decision cites a clause whose text changed since the procedure was written: no amount can
    fix that; someone must reread the decision and run `ruling check --stamp`."""


class Problem:
    """One problem found in the knowledge base, located by file and line; immutable.

    A plain class, not a dataclass nor a NamedTuple: every command imports this module, and
    `dataclasses` (with its decorator) or `typing.NamedTuple` would cost each process 2-4 ms."""

    __slots__ = ("file", "line", "message")
    file: str
    line: int
    message: str

    def __init__(self, file: str, line: int, message: str):
        object.__setattr__(self, "file", file)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "message", message)

    def __setattr__(self, name, value):
        raise AttributeError(f"Problem is immutable: cannot set {name}")

    def __eq__(self, other) -> bool:
        if not isinstance(other, Problem):
            return NotImplemented
        return (self.file, self.line, self.message) == (other.file, other.line, other.message)

    def __hash__(self) -> int:
        return hash((self.file, self.line, self.message))

    def __reduce__(self):  # copy and pickle rebuild it through __init__
        return (Problem, (self.file, self.line, self.message))

    def __repr__(self) -> str:
        return f"Problem(file={self.file!r}, line={self.line!r}, message={self.message!r})"

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


#: Longest user text quoted whole in a message; a longer one is cut and its length given.
SHOWN_CHARS = 160  # a path or a long name still shows whole; a pasted page does not


def shown(text, limit: int = SHOWN_CHARS) -> str:
    """`text` fit to quote in a message: control characters escaped (\\x00), a text longer than
    `limit` cut with its length (a 100,000-character argument is not printed back whole)."""
    text = str(text)
    cut = len(text) > limit
    head = text[:limit] if cut else text
    if not head.isprintable():  # only the unprintable characters escaped: « règle\x00 », not « r\xe8gle »
        head = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in head)
    return f"{head}… ({len(text):,} caractères)".replace(",", "\u202f") if cut else head

