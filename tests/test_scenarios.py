"""Every scenario file (rulebook/<book>/scenarios/<procedure>.yaml) replayed through the engine.

The same files and the same comparison as `ruling test`: pytest parametrises over them so a
failing scenario is named in the test report.
"""
from __future__ import annotations

import json

import pytest

from ruling.decide.scenarios import read_scenario_files, replay, run_tests
from ruling.kb.load import default_root, load_kb

from conftest import tda_scenario_count

KB = load_kb()
FILES, PROBLEMS = read_scenario_files(default_root(), [b.id for b in KB.books])
CASES = [pytest.param(f, i, id=f"{f.book}/{f.procedure}/{sc['name']}")
         for f in FILES for i, sc in enumerate(f.scenarios)]


def test_every_scenario_file_is_valid():
    assert not PROBLEMS, "\n".join(map(str, PROBLEMS))
    assert len(FILES) == len(KB.procedures)


@pytest.mark.parametrize("file,index", CASES)
def test_scenario(kb, file, index):
    result = replay(kb, file, index)
    assert result.passed, f"{file.display}:{file.lines[index]} « {result.name} » : " + " ; ".join(result.problems)


def test_every_procedure_has_enough_scenarios_and_every_outcome_is_tested(kb):
    assert not run_tests(kb).untested


def test_ruling_test_passes_on_the_bundled_books(run):
    result = run("test", "--book", "tda")
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == f"{tda_scenario_count()} scénario(s) réussi(s), 0 échoué(s)"


def test_ruling_test_names_each_failure_with_file_line_and_reason(run, kb_copy):
    path = kb_copy / "club" / "scenarios" / "chip-race.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("ecart-de-valeur: 125", "ecart-de-valeur: 126", 1), encoding="utf-8")
    result = run("test", "--book", "club", kb_path=kb_copy)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[0].endswith("club/scenarios/chip-race.yaml:9: échec « remplacement direct, un jeton unique "
                             "non arrondi sauf s'il ne reste rien au joueur » : ecart-de-valeur = 125, attendu 126")
    club = sum(len(f.scenarios) for f in read_scenario_files(kb_copy, ["club"])[0])
    assert club > 200
    assert lines[-1] == f"{club - 1} scénario(s) réussi(s), 1 échoué(s)"
    data = json.loads(run("test", "--book", "club", "--json", kb_path=kb_copy).output)
    assert (data["passed"], data["failed"]) == (club - 1, 1)
    failed = [r for r in data["results"] if not r["passed"]]
    assert failed[0]["problems"] == ["ecart-de-valeur = 125, attendu 126"]


def test_ruling_test_reports_an_outcome_left_without_scenario(run, kb_copy):
    (kb_copy / "infos" / "scenarios" / "recave.yaml").unlink()
    result = run("test", "--book", "infos", kb_path=kb_copy)
    assert result.exit_code == 1
    assert "non couvert : infos:recave : pas de fichier de scénarios" in result.output.splitlines()


def test_ruling_test_refuses_an_invalid_scenario_file_with_its_line(run, kb_copy):
    path = kb_copy / "tda" / "scenarios" / "donner-des-jetons.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("outcome:", "outcom:", 1), encoding="utf-8")
    result = run("test", "--book", "tda", kb_path=kb_copy)
    assert result.exit_code == 1
    assert f"tda/scenarios/{path.name}:" in result.output and "champ inconnu : outcom" in result.output


def test_ruling_test_unknown_book_is_a_user_error(run):
    result = run("test", "--book", "nope")
    assert result.exit_code == 2 and "« nope » n'existe pas" in result.output
