"""A rule editor breaks the knowledge base: `ruling check` says where, other commands refuse."""
from __future__ import annotations

import json

import pytest

CHAPTER9 = "club/09-actions-et-les-relances.yaml"


def edit(kb_copy, rel, old, new, count=1):
    path = kb_copy / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return text


BREAKAGES = {
    "yaml-syntax": (CHAPTER9, "- id: 9-2\n", "- id: 9-2\n  text: [non fermé\n", "YAML invalide"),
    "duplicate-id": (CHAPTER9, "- id: 9-2\n", "- id: 9-1\n", "id « 9-1 » en double"),
    "missing-text": (CHAPTER9, "  text: Le « check-raise » (l'embuscade) est autorisé.\n", "", "champ obligatoire manquant : text"),
    "dangling-ref": ("club/02-donne.yaml", "  - 2-17\n", "  - 2-71\n", "ref « 2-71 » de la règle 2-4 n'existe pas"),
    "unknown-kind": (CHAPTER9, "kind: normative", "kind: normatif", "valeur « normatif » inconnue"),
    "unknown-field": (CHAPTER9, "- id: 9-2\n", "- id: 9-2\n  texte: oubli\n", "champ inconnu : texte"),
    "book-id-twice": ("tda/book.yaml", "id: tda\n", "id: club\n", "le livre « club » est déjà défini"),
    "missing-revision-dir": ("club/book.yaml", "path: revisions/v1", "path: revisions/v0", "n'existe pas"),
}


@pytest.mark.parametrize("name", sorted(BREAKAGES))
def test_check_names_file_line_and_problem(run, kb_copy, name):
    rel, old, new, message = BREAKAGES[name]
    edit(kb_copy, rel, old, new)
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    problems = [line for line in result.output.splitlines() if message in line]
    assert problems, result.output
    assert problems[0].split(":")[0].endswith(rel.split("/")[-1]) or "book.yaml" in problems[0]
    assert "Traceback" not in result.output


def test_problem_line_numbers_point_at_the_clause(run, kb_copy):
    edit(kb_copy, CHAPTER9, "- id: 9-2\n", "- id: 9-1\n")
    text = (kb_copy / CHAPTER9).read_text(encoding="utf-8").splitlines()
    first, second = [n for n, line in enumerate(text, 1) if line == "- id: 9-1"]
    out = run("check", kb_path=kb_copy).output
    assert f"rulebook/{CHAPTER9}:{second}: id « 9-1 » en double (déjà utilisé en rulebook/{CHAPTER9}:{first})" in out


def test_yaml_error_has_the_line(run, kb_copy):
    edit(kb_copy, CHAPTER9, "- id: 9-2\n", "- id: 9-2\n  text: [non fermé\n")
    out = run("check", kb_path=kb_copy).output
    assert f"rulebook/{CHAPTER9}:" in out and "YAML invalide" in out


def test_check_json_lists_problems(run, kb_copy):
    edit(kb_copy, "club/02-donne.yaml", "  - 2-17\n", "  - 2-71\n")
    data = json.loads(run("check", "--json", kb_path=kb_copy).output)
    assert data["problems"][0]["file"] == "rulebook/club/02-donne.yaml"
    assert data["problems"][0]["line"] > 0
    assert "2-71" in data["problems"][0]["message"]
    assert "club" in data["coverage"]


@pytest.mark.parametrize("args", [("show", "club:9-13"), ("list",), ("export",)])
def test_other_commands_refuse_a_broken_base(run, kb_copy, args):
    edit(kb_copy, "club/02-donne.yaml", "  - 2-17\n", "  - 2-71\n")
    result = run(*args, kb_path=kb_copy)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert result.output.startswith("Erreur : base de règles invalide : rulebook/club/02-donne.yaml:")
    assert "ref « 2-71 » de la règle 2-4 n'existe pas" in result.output


def test_with_json_a_broken_base_is_a_json_error(run, kb_copy):
    edit(kb_copy, "club/02-donne.yaml", "  - 2-17\n", "  - 2-71\n")
    result = run("export", "--json", kb_path=kb_copy)
    assert result.exit_code == 2
    message = json.loads(result.stdout)["error"]["message"]
    assert message.startswith("base de règles invalide : rulebook/club/02-donne.yaml:")
    assert "ref « 2-71 » de la règle 2-4 n'existe pas" in message


def test_a_ref_written_in_the_text_must_be_listed(run, kb_copy):
    edit(kb_copy, "club/02-donne.yaml", "  refs:\n  - 2-17\n", "")
    out = run("check", kb_path=kb_copy).output
    assert "la règle 2-4 renvoie à « 2-17 » dans son texte, absent de refs" in out
