"""Scenarios: the decisions a rule editor expects, kept beside the book and replayed.

`rulebook/<book>/scenarios/<procedure>.yaml` gives answers and the expected outcome, cited
clauses, computed figures and decision text. `ruling test` replays them (as OpenFisca's
`openfisca test` does for its YAML tests), pytest parametrises over the same files, and
`ruling diff --rulings` replays them against another edition.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ruling.decide.engine import decide
from ruling.errors import Problem, UserError
from ruling.kb.schemas import Schemas
from ruling.kb.snapshot import read_yaml, take_snapshot


def scenario_folder(root: Path, book: str) -> Path:
    """Where the scenarios of `book` live in the base at `root`."""
    return Path(root) / book / "scenarios"


@dataclass
class ScenarioFile:
    """One scenario file: the procedure it tests and its scenarios, as written."""

    path: Path
    display: str
    book: str
    procedure: str
    scenarios: list[dict]
    lines: list[int]  # the line of each scenario, for messages


@dataclass
class ScenarioResult:
    """One scenario replayed: `problems` is empty when the decision is the expected one."""

    file: ScenarioFile
    index: int
    problems: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.file.scenarios[self.index].get("name", ""))

    @property
    def passed(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        return {"file": self.file.display, "line": self.file.lines[self.index], "book": self.file.book,
                "procedure": self.file.procedure, "scenario": self.name, "passed": self.passed,
                "problems": self.problems}


def read_scenario_files(root: Path, books: list[str]) -> tuple[list[ScenarioFile], list[Problem]]:
    """Parse and validate the scenario files of `books`; problems are returned, never raised.

    The files are read through the loader's snapshot, so they meet the same limits and
    French errors as the rest of the base (regular files, bounded size, safe YAML)."""
    snap = take_snapshot(Path(root))
    schemas = Schemas(snap.root, snap)
    problems: list[Problem] = []
    files: list[ScenarioFile] = []
    for book in books:
        for rel in snap.children(f"{book}/scenarios"):
            doc = read_yaml(snap, rel, problems)
            if doc is None or not schemas.validate("scenarios", doc, problems):
                continue
            data, stem = doc.data, Path(rel).stem
            if data["book"] != book or data["procedure"] != stem:
                problems.append(Problem(doc.display, doc.line("procedure"),
                                        f"ce fichier doit décrire la procédure {book}:{stem} "
                                        f"(il dit {data['book']}:{data['procedure']})"))
                continue
            lines = [doc.line("scenarios", i) for i in range(len(data["scenarios"]))]
            files.append(ScenarioFile(doc.path, doc.display, book, stem, data["scenarios"], lines))
    return files, problems


def replay(kb, file: ScenarioFile, index: int) -> ScenarioResult:
    """Decide scenario `index` of `file` on `kb` and compare with what it expects."""
    scenario = file.scenarios[index]
    result = ScenarioResult(file, index)
    problems = result.problems
    try:
        decision = decide(kb, file.book, file.procedure, scenario["answers"])
    except UserError as e:
        problems.append(f"ne se décide pas : {e}")
        return result
    if decision.decision is None:  # not decided
        problems.append("ne se décide pas : il manque " + ", ".join(q.id for q in decision.missing))
        return result
    if decision.outcome != scenario["outcome"]:
        problems.append(f"issue {decision.outcome}, attendue {scenario['outcome']}")
    if "cites" in scenario:
        got = sorted(c.citation for c in decision.citations)
        if got != sorted(scenario["cites"]):
            problems.append(f"cite {', '.join(got) or 'rien'}, attendu {', '.join(sorted(scenario['cites']))}")
    for name, value in (scenario.get("figures") or {}).items():
        if name not in decision.figures:
            problems.append(f"pas de chiffre « {name} » dans la décision")
        elif decision.figures[name] != value:
            problems.append(f"{name} = {decision.figures[name]!r}, attendu {value!r}")
    expected = scenario.get("decision_contains")
    for text in ([expected] if isinstance(expected, str) else expected or []):
        if text not in decision.decision:
            problems.append(f"la décision ne contient pas « {text} »")
    return result


@dataclass
class TestReport:
    """Every scenario of the chosen books, replayed; plus the procedures left without scenarios."""

    results: list[ScenarioResult]
    problems: list[Problem]  # unreadable or invalid scenario files
    untested: list[str]  # "book:procedure : raison" for procedures or outcomes without scenarios

    __test__ = False  # not a pytest class

    @property
    def failed(self) -> list[ScenarioResult]:
        return [r for r in self.results if not r.passed]

    @property
    def ok(self) -> bool:
        return not self.failed and not self.problems and not self.untested

    def to_text(self) -> str:
        """The French report: one line per failure or problem, then the totals."""
        lines = [str(p) for p in self.problems]
        for r in self.failed:
            where = f"{r.file.display}:{r.file.lines[r.index]}"
            lines.append(f"{where}: échec « {r.name} » : " + " ; ".join(r.problems))
        lines += [f"non couvert : {u}" for u in self.untested]
        passed = len(self.results) - len(self.failed)
        total = f"{passed} scénario(s) réussi(s), {len(self.failed)} échoué(s)"
        if self.problems:
            total += f", {len(self.problems)} fichier(s) invalide(s)"
        lines.append(total)
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"passed": len(self.results) - len(self.failed), "failed": len(self.failed),
                "results": [r.to_json() for r in self.results],
                "problems": [p.to_json() for p in self.problems], "untested": self.untested}


def untested_procedures(kb, files: list[ScenarioFile], books: list[str]) -> list[str]:
    """Procedures of `books` with no scenario file, too few scenarios, or an outcome never expected."""
    by_proc = {(f.book, f.procedure): f.scenarios for f in files}
    out = []
    for proc in kb.procedures:
        if proc.book not in books:
            continue
        scenarios = by_proc.get((proc.book, proc.id))
        if scenarios is None:
            out.append(f"{proc.book}:{proc.id} : pas de fichier de scénarios")
            continue
        need = min(3, len(proc.rules))
        if len(scenarios) < need:
            out.append(f"{proc.book}:{proc.id} : {len(scenarios)} scénario(s), il en faut {need}")
        untested = {r.outcome for r in proc.rules} - {s["outcome"] for s in scenarios}
        if untested:
            out.append(f"{proc.book}:{proc.id} : issues sans scénario : {', '.join(sorted(untested))}")
    known = {(p.book, p.id) for p in kb.procedures}
    out += [f"{f.book}:{f.procedure} : scénarios d'une procédure qui n'existe pas ({f.display})"
            for f in files if (f.book, f.procedure) not in known]
    return out


def run_tests(kb, book: str | None = None) -> TestReport:
    """`ruling test`: replay every scenario of `book` (or of every book) on `kb`."""
    books = [kb.book(book).id] if book else [b.id for b in kb.books]
    files, problems = read_scenario_files(Path(kb.root), books)
    results = [replay(kb, f, i) for f in files for i in range(len(f.scenarios))]
    return TestReport(results, problems, untested_procedures(kb, files, books))
