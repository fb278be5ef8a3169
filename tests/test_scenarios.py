"""Every scenario file (tests/scenarios/<book>/<procedure>.yaml) replayed through the engine.

A scenario gives answers and the outcome, cited clauses and computed figures a TD expects.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ruling.engine import decide

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def _load_files():
    out = []
    for path in sorted(SCENARIOS.glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out.append((path, data))
    return out


FILES = _load_files()
CASES = [pytest.param(path, data, sc, id=f"{data['book']}/{data['procedure']}/{sc['name']}")
         for path, data in FILES for sc in data["scenarios"]]


@pytest.mark.parametrize("path,data,scenario", CASES)
def test_scenario(kb, path, data, scenario):
    result = decide(kb, data["book"], data["procedure"], scenario["answers"])
    assert result.decided, f"{path.name} « {scenario['name']} » : il manque {[q.id for q in result.missing]}"
    assert result.outcome == scenario["outcome"], scenario["name"]
    if "cites" in scenario:
        assert sorted(c.citation for c in result.citations) == sorted(scenario["cites"]), scenario["name"]
    for name, value in (scenario.get("figures") or {}).items():
        assert name in result.figures, f"{scenario['name']} : pas de résultat {name}"
        assert result.figures[name] == value, f"{scenario['name']} : {name}"
    if "decision_contains" in scenario:
        for text in ([scenario["decision_contains"]] if isinstance(scenario["decision_contains"], str)
                     else scenario["decision_contains"]):
            assert text in result.decision, scenario["name"]


@pytest.mark.parametrize("path,data", [pytest.param(p, d, id=p.relative_to(SCENARIOS).as_posix()) for p, d in FILES])
def test_scenario_file_names_its_procedure(kb, path, data):
    assert path.parent.name == data["book"] and path.stem == data["procedure"]
    assert any(p.book == data["book"] and p.id == data["procedure"] for p in kb.procedures), path


def test_every_procedure_has_enough_scenarios_and_every_outcome_is_tested(kb):
    by_proc = {(d["book"], d["procedure"]): d["scenarios"] for _, d in FILES}
    problems = []
    for proc in kb.procedures:
        scenarios = by_proc.get((proc.book, proc.id))
        if scenarios is None:
            problems.append(f"{proc.book}:{proc.id} : pas de fichier de scénarios")
            continue
        need = min(3, len(proc.rules))
        if len(scenarios) < need:
            problems.append(f"{proc.book}:{proc.id} : {len(scenarios)} scénario(s), il en faut {need}")
        untested = {r.outcome for r in proc.rules} - {s["outcome"] for s in scenarios}
        if untested:
            problems.append(f"{proc.book}:{proc.id} : issues sans scénario : {', '.join(sorted(untested))}")
    assert not problems, "\n".join(problems)
