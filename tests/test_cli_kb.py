"""The knowledge-base commands as a user runs them: show, list, export, check."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from conftest import ROOT


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_show_prints_the_clause_verbatim_with_chapter_and_backlinks(run, kb):
    result = run("show", "club:2-18")
    assert result.exit_code == 0
    out = words(result.output)
    assert out.startswith("club:2-18")
    assert "LA DONNE :" in out
    assert words(kb.clause("club:2-18").text) in out
    assert "Cité par : club:3-2" in out


def test_show_lists_refs_and_items(run):
    out = words(run("show", "club:2-17").output)
    assert "· Mauvais ordre de donne" in out
    assert "Aucune fausse donne ne peut être annoncée sur un acte volontaire d'un joueur" in out
    assert "Cité par : club:2-4" in out
    assert "Renvoie à : club:2-15, club:2-16" in words(run("show", "4-1").output)


def test_show_bare_number_when_only_one_book_has_it(run):
    result = run("show", "9-13")
    assert result.exit_code == 0
    assert result.output.startswith("club:9-13")
    assert "ouverture à 200, tapis à 290, relance minimum à 490 (total)" in words(result.output)


def test_show_old_revision(run):
    result = run("show", "club@v1:8-11")
    assert result.exit_code == 0
    assert "révision v1" in result.output
    assert "située à l’emplacement du nouveau donneur" in words(result.output)


def test_show_json_has_the_clause_object(run):
    data = json.loads(run("show", "club:9-7", "--json").output)
    assert data["citation"] == "club:9-7" and data["book"] == "club" and data["id"] == "9-7"
    assert data["label"] == "9-7" and data["title"] is None
    assert data["text"].endswith("relance minimum 130 (total).")
    assert data["items"] == [] and data["refs"] == []


def test_unknown_clause_suggests_the_nearest(run):
    result = run("show", "club:9-31")
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert "club:9-31" in result.output and "n'existe pas" in result.output and "club:9-13" in result.output
    assert "Traceback" not in result.output


def test_unknown_book_and_revision(run):
    result = run("show", "clubb:9-13")
    assert result.exit_code == 2 and "vouliez-vous club" in result.output
    result = run("show", "club@v9:8-1")
    assert result.exit_code == 2 and "v1, v2" in result.output


def test_ambiguous_bare_number_lists_candidates(run, kb_copy):
    tda = kb_copy / "tda" / "reglement.yaml"
    tda.write_text(tda.read_text(encoding="utf-8") + "- id: 9-13\n  text: Homonyme.\n  kind: informative\n  topics: [test]\n",
                   encoding="utf-8")
    result = run("show", "9-13", kb_path=kb_copy)
    assert result.exit_code == 2
    assert "club:9-13" in result.output and "tda:9-13" in result.output


def test_list_books(run, kb):
    out = run("list").output
    for book in kb.books:
        assert book.id in out and book.title in out
    assert "révisions : v1 (partielle), v2" in out
    assert f"{len(kb.book('club').current.clauses())} règles" in out


def test_list_book_chapters(run):
    out = run("list", "club").output
    assert "9 · LES ACTIONS ET LES RELANCES :" in out
    assert re.search(r"^  14-8-bis +Le poker est un jeu individuel", out, re.M)
    out_v1 = run("list", "club@v1").output
    assert "révision v1" in out_v1 and "8-18" in out_v1 and "9-1" not in out_v1


def test_export_has_every_revision_and_the_clause_shape(run, kb):
    data = json.loads(run("export", "--json").output)
    assert {b["id"] for b in data["books"]} == {"club", "tda", "cash", "infos"}
    citations = {c["citation"] for c in data["clauses"]}
    assert "club:9-13" in citations and "club@v1:8-11" in citations and "cash:maldonnes-1" in citations
    assert len(data["clauses"]) == len(kb.clauses(all_revisions=True))
    for clause in data["clauses"]:
        assert {"citation", "book", "id", "label", "title", "text", "items", "refs"} <= clause.keys()
    assert "procedures" in data


def test_check_is_clean_on_the_real_base(run):
    result = run("check")
    assert result.exit_code == 0, result.output
    assert "base valide" in result.output


def test_kb_option_and_env_var(run, kb_copy, monkeypatch):
    chapter = kb_copy / "club" / "09-actions-et-les-relances.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("Le « check-raise » (l'embuscade) est autorisé.",
                                                                   "Le « check-raise » est interdit.", 1), encoding="utf-8")
    assert "est interdit" in run("show", "club:9-1", kb_path=kb_copy).output
    monkeypatch.setenv("RULING_KB", str(kb_copy))
    assert "est interdit" in run("show", "club:9-1").output


EMPTY_KB = ("Erreur : --kb vide ; indiquez le dossier de la base de règles (par exemple --kb rulebook/), "
            "ou retirez --kb pour utiliser la base fournie avec ruling\n")


@pytest.mark.parametrize("argv", [["--kb", "", "show", "9-13"], ["show", "9-13", "--kb", ""], ["--kb=", "list"]])
def test_an_empty_kb_option_is_refused_not_taken_for_the_bundled_base(run, argv):
    result = run(*argv)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", EMPTY_KB)


def test_an_empty_kb_option_with_json_is_a_json_error(run):
    result = run("show", "9-13", "--json", "--kb", "")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["message"] == EMPTY_KB[len("Erreur : "):-1]


def test_an_empty_ruling_kb_counts_as_unset(run, monkeypatch):
    monkeypatch.setenv("RULING_KB", "")
    result = run("show", "9-13")
    assert result.exit_code == 0
    assert result.stdout.startswith("club:9-13 ")


def test_missing_kb_folder(run, tmp_path):
    result = run("list", kb_path=tmp_path / "nulle-part")
    assert result.exit_code == 2
    assert "introuvable" in result.output


def test_show_does_not_import_jinja2_or_whoosh():
    code = ("import sys; from ruling.cli import main; sys.argv=['ruling','show','club:9-13']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "heavy=[m for m in ('jinja2','whoosh','jsonschema','rapidfuzz') if m in sys.modules]\n"
            "print('HEAVY', heavy)")
    # twice: the first run may fill the cache (and validate with jsonschema); the second is the common case
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert "HEAVY []" in out
    assert "club:9-13" in out


def test_paths_with_control_characters_get_a_french_line(run):
    result = run("--kb", "a\x00b", "list")
    assert result.exit_code == 2 and "« a\\x00b » n'est pas un dossier" in result.output
    result = run("decide", "flop-irregulier", "--profile", "\x00")
    assert result.exit_code == 2 and "le fichier de profil « \\x00 » est illisible" in result.output
