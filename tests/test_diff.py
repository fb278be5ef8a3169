"""`ruling diff`: the club's chapter 8 between its two editions, pairing rules, sides, bad input."""
from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruling.diff.redline import fold, new_text, old_text, render_markdown, render_terminal, word_diff
from ruling.diff.revisions import Side, _assign, clause_text, diff, diff_sides, resolve_side
from ruling.errors import UserError
from ruling.kb.model import Chapter, Clause

ROOT = Path(__file__).resolve().parent.parent
CH8_OLD = ROOT / "rulebook/club/revisions/v1/08-blinds-et-les-changements-de-place.yaml"
CH8_NEW = ROOT / "rulebook/club/08-blinds-et-les-changements-de-place.yaml"


def side(name: str, clauses: list[tuple], chapter: str = "1", book: str = "demo") -> Side:
    """A side made of (id, text[, refs]) tuples, all in one chapter."""
    made = [Clause(book=book, revision=name, chapter=chapter, id=c[0], text=c[1],
                   refs=list(c[2]) if len(c) > 2 else []) for c in clauses]
    return Side(name=name, book=book, title=name, chapters=[Chapter(id=chapter, title=None, clauses=made)])


def pairs(result) -> dict:
    """(old id, new id) -> status, for every change."""
    return {(c.old.id if c.old else None, c.new.id if c.new else None): c.status for c in result.changes}


@pytest.fixture(scope="module")
def club8(kb):
    return diff(None, "club", kb)


# -- the club's chapter 8, checked against both editions read by hand ----------------------

def test_club_chapter8_counts(club8):
    assert club8.old.name == "club@v1" and club8.new.name == "club@v2"
    assert club8.scope == ["8"]
    assert club8.counts() == {"unchanged": 0, "typography": 3, "modified": 10, "renumbered": 4,
                              "added": 1, "removed": 1}


def test_club_chapter8_each_clause(club8):
    expected = {("8-4", "8-4"): "typography", ("8-16", "8-16"): "typography", ("8-17", "8-17"): "typography",
                ("8-11", None): "removed", (None, "8-15"): "added",
                ("8-12", "8-11"): "renumbered", ("8-13", "8-12"): "renumbered",
                ("8-14", "8-13"): "renumbered", ("8-15", "8-14"): "renumbered"}
    for n in (1, 2, 3, 5, 6, 7, 8, 9, 10, 18):
        expected[(f"8-{n}", f"8-{n}")] = "modified"
    assert pairs(club8) == expected


def test_renumbered_text_changed_flag(club8):
    flags = {c.old.id: c.text_changed for c in club8.changes if c.status == "renumbered"}
    # 8-14 -> 8-13 differs only by its apostrophe ("l’ancien" / "l'ancien")
    assert flags == {"8-12": True, "8-13": True, "8-14": False, "8-15": True}
    moved = next(c for c in club8.changes if c.old and c.old.id == "8-14")
    assert moved.typography_only and moved.to_json()["text_changed"] is False


def test_8_10_redline_words(club8):
    change = next(c for c in club8.changes if c.new and c.new.id == "8-10")
    inserted = [s["text"].strip() for s in change.words if s["op"] == "insert"]
    deleted = [s["text"].strip() for s in change.words if s["op"] == "delete"]
    assert "(Small Blind) et jouera le suivant." in inserted
    assert any(d.endswith("Le coup suivant il peut jouer mais la donne passe à sa gauche.") for d in deleted)


def test_redline_keeps_every_character(club8):
    """Typography is folded for the comparison only: each side's exact text comes back out."""
    for change in club8.changes:
        if change.old is not None:
            assert old_text(change.words) == clause_text(change.old)
        if change.new is not None:
            assert new_text(change.words) == clause_text(change.new)
    typo = next(c for c in club8.changes if c.new and c.new.id == "8-4")
    assert "d’un nouveau round" in old_text(typo.words) and "d'un nouveau round" in new_text(typo.words)


def test_text_report_summary_and_partial_notice(run):
    result = run("diff", "club")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "révision partielle : comparée sur le chapitre 8"
    assert lines[2] == ("18 règles avant, 18 après : 0 inchangée, 3 typographie, 10 modifiées, "
                        "4 renumérotées, 1 ajoutée, 1 supprimée")
    assert "8-12 → 8-11 · renumérotée, texte modifié · similarité 0,83" in lines
    assert "8-14 → 8-13 · renumérotée, texte inchangé (typographie seulement)" in lines
    assert "    Si le nouveau donneur est absent : l'ancien redonne 1 fois." in lines
    assert "8-11 · supprimée" in lines and "8-15 · ajoutée" in lines


def test_json_shape(run):
    result = run("diff", "club@v1", "club", "--json")
    data = json.loads(result.output)
    assert (data["old"], data["new"], data["partial"], data["chapters"]) == ("club@v1", "club@v2", True, ["8"])
    by_old = {c["old"]: c for c in data["changes"]}
    renum = by_old["club@v1:8-12"]
    assert (renum["status"], renum["new"], renum["text_changed"]) == ("renumbered", "club:8-11", True)
    assert by_old["club@v1:8-11"]["new"] is None and by_old["club@v1:8-11"]["status"] == "removed"
    added = [c for c in data["changes"] if c["status"] == "added"]
    assert [(c["old"], c["new"]) for c in added] == [(None, "club:8-15")]
    assert {"procedures", "refs"} <= set(data["impact"])
    assert "text_changed" not in by_old["club@v1:8-1"]


def test_markdown_uses_del_and_ins(run):
    out = run("diff", "club", "--markdown").output
    assert "*Révision partielle : comparée sur le chapitre 8.*" in out
    assert "été <del>suivit</del><ins>suivi</ins>." in out
    assert "| renumérotée | 4 |" in out


# -- pairing ------------------------------------------------------------------------------------

def test_swapped_texts_are_renumbered_not_modified():
    a = "Le joueur qui montre ses cartes avant la fin du coup voit sa main déclarée morte par l'arbitre."
    b = "Un jeton oublié derrière la ligne ne compte pas dans la mise, sauf annonce verbale claire."
    result = diff_sides(side("old", [("1-1", a), ("1-2", b)]), side("new", [("1-1", b), ("1-2", a)]))
    assert pairs(result) == {("1-1", "1-2"): "renumbered", ("1-2", "1-1"): "renumbered"}


def test_replaced_text_under_same_number_is_removed_and_added():
    old = side("old", [("3-1", "Les cartes sont mélangées par le croupier avant chaque donne du tournoi.")])
    new = side("new", [("3-1", "Toute annonce verbale engage le joueur, même hors de son tour de parole.")])
    assert pairs(diff_sides(old, new)) == {("3-1", None): "removed", (None, "3-1"): "added"}


def test_number_moves_to_make_room_for_a_new_clause():
    texts = ["Un joueur absent au début du tournoi reçoit son tapis et paie les blinds en son absence.",
             "Le joueur qui arrive en retard peut jouer dès la donne suivante, sans pénalité.",
             "Si une carte est retournée pendant la donne, elle est remplacée par la carte du dessus."]
    new_clause = "Les téléphones sont interdits à la table pendant le déroulement des coups."
    old = side("old", [("2-1", texts[0]), ("2-2", texts[1]), ("2-3", texts[2])])
    new = side("new", [("2-1", texts[0]), ("2-2", new_clause), ("2-3", texts[1] + " Il en informe l'arbitre."),
                       ("2-4", texts[2])])
    assert pairs(diff_sides(old, new)) == {("2-1", "2-1"): "unchanged", (None, "2-2"): "added",
                                           ("2-2", "2-3"): "renumbered", ("2-3", "2-4"): "renumbered"}
    texts_changed = {c.old.id: c.text_changed for c in diff_sides(old, new).changes if c.status == "renumbered"}
    assert texts_changed == {"2-2": True, "2-3": False}


def test_typography_only_status():
    old = side("old", [("1-1", "L’arbitre  décide   seul : sa décision est Définitive.")])
    new = side("new", [("1-1", "L'arbitre décide seul : sa decision est définitive.")])
    change = diff_sides(old, new).changes[0]
    assert change.status == "typography" and change.similarity == 1.0
    assert old_text(change.words) == "L’arbitre  décide   seul : sa décision est Définitive."


def test_assignment_beats_greedy():
    """Greedy would take the best single pair (0, 1) and leave 1 unpaired; the optimum pairs both."""
    assert sorted(_assign({(0, 1): 0.8, (0, 0): 0.79, (1, 1): 0.78})) == [(0, 0), (1, 1)]


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 4), st.integers(0, 4)), st.floats(0.35, 1.2), max_size=14))
def test_assignment_is_a_maximum_weight_matching(edges):
    """Against brute force on small graphs: a matching (no clause twice) of the best total score."""
    chosen = _assign(edges)
    assert len({i for i, _ in chosen}) == len(chosen) == len({j for _, j in chosen})
    best = 0.0
    for perm in itertools.permutations(range(5)):
        best = max(best, sum(edges.get((i, perm[i]), 0.0) for i in range(5)))
    assert sum(edges[e] for e in chosen) == pytest.approx(best)


def test_large_components_are_matched_greedily():
    edges = {(k, k): 0.9 for k in range(80)} | {(k, k + 1): 0.6 for k in range(79)}
    assert sorted(_assign(edges)) == [(k, k) for k in range(80)]


def test_fold_and_word_diff():
    assert fold("Qu’IL  était Déjà\u00a0là") == "qu'il etait deja la"
    words = word_diff("le gros blind paie", "la Big Blind paie")
    assert render_terminal(words, color=False) == "[-le gros-]{+la Big+} Blind paie"
    assert render_markdown(words) == "<del>le gros</del><ins>la Big</ins> Blind paie"
    assert "\x1b[9;31mle gros\x1b[0m" in render_terminal(words, color=True)


# -- impact ------------------------------------------------------------------------------------------

def test_impact_on_procedures_citing_moved_numbers(kb):
    stub = SimpleNamespace(id="places-vacantes", book="club",
                           cited_citations=lambda: ["club:8-11", "club:8-4", "club:8-10", "club:9-7"])
    old, new = resolve_side("club@v1", kb), resolve_side("club", kb)
    result = diff_sides(old, new, SimpleNamespace(procedures=[stub]))
    found = {(p["citation"], p["status"], p["old"], p["new"]) for p in result.impact["procedures"]}
    assert found == {("club:8-11", "renumbered", "club@v1:8-12", "club:8-11"),
                     ("club:8-11", "removed", "club@v1:8-11", None),
                     ("club:8-10", "modified", "club@v1:8-10", "club:8-10")}


def test_impact_on_refs_to_a_renumbered_clause():
    body = "Le joueur qui montre ses cartes avant la fin du coup voit sa main déclarée morte."
    other = "En cas de doute, voir la règle sur les mains mortes (cf 1-2) pour la décision."
    old = side("old", [("1-1", "Une règle qui disparaît de la nouvelle édition du règlement."), ("1-2", body),
                       ("1-3", other, ["1-2"])])
    new = side("new", [("1-1", body), ("1-3", other, ["1-2"])])
    refs = diff_sides(old, new).impact["refs"]
    assert [(r["clause"], r["ref"], r["now"]) for r in refs] == [("demo:1-3", "1-2", "1-1")]


# -- sides -------------------------------------------------------------------------------------------

def test_yaml_files_folders_and_git_give_the_same_result(kb, club8):
    expected = club8.counts()
    assert diff(str(CH8_OLD), str(CH8_NEW), kb).counts() == expected
    folder = diff(str(CH8_OLD.parent), str(ROOT / "rulebook/club"), kb)
    assert folder.counts() == expected and folder.book == "club" and folder.scope == ["8"]
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--error-unmatch", str(CH8_OLD)],
                             capture_output=True).returncode == 0
    if tracked:
        via_git = diff("git:HEAD:rulebook/club/revisions/v1", "git:HEAD:rulebook/club", kb)
        assert via_git.counts() == expected and via_git.partial


def test_loose_yaml_file_takes_the_book_of_the_other_side(kb, tmp_path):
    edited = tmp_path / "chapitre8.yaml"
    text = CH8_NEW.read_text(encoding="utf-8").replace("- id: 8-18", "- id: 8-19")
    edited.write_text(text, encoding="utf-8")
    result = diff("club", str(edited), kb)
    assert result.book == "club" and result.scope == ["8"]
    assert pairs(result)[("8-18", "8-19")] == "renumbered"
    assert result.counts()["unchanged"] == 17


def test_edited_copy_of_the_book_folder(kb, kb_copy):
    chapter = kb_copy / "club" / "09-actions-et-les-relances.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("montant", "Montant"), encoding="utf-8")
    result = diff("club", str(kb_copy / "club"), kb)
    assert not result.partial
    counts = result.counts()
    assert counts["typography"] >= 1 and counts["modified"] == counts["renumbered"] == 0
    assert all(c.new.chapter == "9" for c in result.changes if c.status == "typography")


@pytest.mark.parametrize("args, message", [
    (["club@v9", "club"], "la révision « v9 » du livre club n'existe pas"),
    (["absent.yaml", "club"], "« absent.yaml » n'existe pas"),
    (["git:pas-une-revision:rulebook/club", "club"], "la révision git « pas-une-revision » n'existe pas"),
    (["club", "tda"], "les deux côtés ne sont pas le même livre"),
    (["tda"], "le livre tda n'a pas de révision avant v1"),
    (["git:HEAD", "club"], "attendu git:RÉVISION:chemin"),
])
def test_bad_input_is_one_french_line(run, args, message):
    result = run("diff", *args)
    assert result.exit_code == 2
    err = result.stderr if hasattr(result, "stderr") else result.output
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_invalid_chapter_file(run, tmp_path):
    bad = tmp_path / "08.yaml"
    shutil.copy(CH8_NEW, bad)
    bad.write_text(bad.read_text(encoding="utf-8").replace("- id: 8-1\n", "- idd: 8-1\n"), encoding="utf-8")
    result = run("diff", "club", str(bad))
    assert result.exit_code == 2 and "chapitre invalide" in result.output


def test_unknown_side_raises_user_error(kb):
    with pytest.raises(UserError):
        resolve_side("pas-un-livre", kb)


# -- rulings -----------------------------------------------------------------------------------------

PROCEDURE = """\
id: essai-diff
situation: essai-diff
title: Place vacante au bouton (essai du diff)
keywords: [place vacante, bouton]
questions:
  au-bouton:
    text: La place vacante est-elle au bouton ?
    type: bool
rules:
  - when: {au-bouton: true}
    outcome: joue-immediatement
    decision: Le nouveau joueur reçoit des cartes immédiatement.
    cites: ["8-11"]
  - when: {au-bouton: false}
    outcome: nouvelles-blinds
    decision: Les nouvelles blinds s'appliquent.
    cites: ["8-4"]
"""

SCENARIOS = """\
book: club
procedure: essai-diff
scenarios:
  - name: place vacante au bouton
    answers: {au-bouton: true}
    outcome: joue-immediatement
    cites: [club:8-11]
  - name: place ailleurs
    answers: {au-bouton: false}
    outcome: nouvelles-blinds
    cites: [club:8-4]
  - name: issue enregistrée autrement
    answers: {au-bouton: false}
    outcome: passe-un-coup
    cites: [club:8-4]
"""


def test_rulings_replay_lists_what_changes(run, kb_copy):
    (kb_copy / "club" / "procedures" / "essai-diff.yaml").write_text(PROCEDURE, encoding="utf-8")
    scen_dir = kb_copy / "club" / "scenarios"
    (scen_dir / "essai-diff.yaml").write_text(SCENARIOS, encoding="utf-8")
    result = run("diff", "club", "--rulings", "--json", kb_path=kb_copy)
    assert result.exit_code == 0, result.output
    rulings = {r["scenario"]: r for r in json.loads(result.output)["rulings"] if r["procedure"] == "essai-diff"}
    assert set(rulings) == {"place vacante au bouton", "issue enregistrée autrement"}
    moved = rulings["place vacante au bouton"]
    assert moved["changed_clauses"] == [{"citation": "club:8-11", "status": "renumbered", "old": "club@v1:8-12"}]
    assert moved["message"] == "8-11 était 8-12, texte modifié"
    other = rulings["issue enregistrée autrement"]
    assert (other["outcome_old"], other["outcome_new"]) == ("passe-un-coup", "nouvelles-blinds")
    text = run("diff", "club", "--rulings", kb_path=kb_copy).output
    assert "  essai-diff · place vacante au bouton : 8-11 était 8-12, texte modifié" in text.splitlines()
    impact = json.loads(run("diff", "club", "--json", kb_path=kb_copy).output)["impact"]["procedures"]
    mine = {(p["status"], p["old"]) for p in impact if p["procedure"] == "essai-diff"}
    assert mine == {("renumbered", "club@v1:8-12"), ("removed", "club@v1:8-11")}


def test_rulings_refuse_a_git_scenario_file_of_the_wrong_shape(run, kb_copy):
    """An old revision's scenario file is read like any file of the base: one without `procedure:`
    is one French line and exit 2 (it used to reach the engine as None: a TypeError traceback)."""
    (kb_copy / "club" / "scenarios" / "sans-procedure.yaml").write_text(
        "book: club\nscenarios:\n  - name: x\n    answers: {}\n    outcome: y\n", encoding="utf-8")
    git = ["git", "-C", str(kb_copy), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(git + args, check=True, capture_output=True)
    result = run("diff", "git:HEAD:club", "club", "--rulings", kb_path=kb_copy)
    assert result.exit_code == 2, result.output
    assert "scénario invalide" in result.output and "sans-procedure.yaml" in result.output
    assert "procedure" in result.output


def test_rulings_without_scenarios_is_a_user_error(run, kb_copy):
    shutil.rmtree(kb_copy / "club" / "scenarios")
    result = run("diff", "club", "--rulings", kb_path=kb_copy)
    assert result.exit_code == 2 and "aucun scénario pour club" in result.output


def test_rulings_replay_runs_on_the_bundled_base(run):
    """The scenarios ship with the rulebook, so an installed package can replay them."""
    result = run("diff", "club", "--rulings", "--json")
    assert result.exit_code == 0, result.output
    rulings = json.loads(result.output)["rulings"]
    assert rulings and all(r["book"] == "club" for r in rulings)
    assert any(c["citation"] == "club:8-11" for r in rulings for c in r["changed_clauses"])
