"""Issue 11: decisions say where the text is silent, and cite a sanction clause when they speak of one.

`interpretation:` outcomes are listed by `ruling check --json` and carried by `ruling decide --json`;
`ruling check` flags a decision that speaks of a sanction, a warning or a disqualification without
citing one of its book's `sanction_clauses` (book.yaml).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruling.decide.loading import _each_texts  # the `each` templates, as `ruling check` reads them

FAUSSE_DONNE = "club/procedures/fausse-donne.yaml"


def _check(run, kb_path=None):
    result = run("check", "--json", kb_path=kb_path)
    return result.exit_code, json.loads(result.output)


def test_check_lists_every_reading_with_its_place(run):
    code, data = _check(run)
    assert code == 0, data["problems"]
    found = {(r["procedure"], r["outcome"], r["case"]) for r in data["interpretations"]}
    assert ("club:elimination-simultanee", "decision-du-td", None) in found
    assert ("club:blinds-places-vides", "bouton-mort", "donneurs-absents") in found
    assert ("cash:relance-minimum", "montants-fixes-a-limite", None) in found
    for reading in data["interpretations"]:
        assert reading["file"].startswith("rulebook/") and reading["line"] > 0
        assert reading["interpretation"].endswith(".") and " ; " in reading["interpretation"]


def test_check_text_counts_the_readings(run):
    code, data = _check(run)
    text = run("check").output
    assert f"lectures d'un texte muet : {len(data['interpretations'])} issue(s)" in text


def test_decide_json_carries_the_reading_only_where_the_text_is_silent(run):
    silent = json.loads(run("decide", "blinds-places-vides", "--book", "club", "-a", "win-the-button=non",
                            "-a", "sieges-occupes=3,4,5,6", "-a", "ancien-bouton=1", "-a", "ancienne-petite-blind=2",
                            "-a", "ancienne-grosse-blind=3", "--json").output)
    assert silent["interpretation"].startswith("8-13 fait redonner l'ancien donneur")
    assert "Le règlement ne le précise pas ; " in silent["decision"]
    spoken = json.loads(run("decide", "blinds-places-vides", "--book", "club", "-a", "win-the-button=non",
                            "-a", "sieges-occupes=1,2,3,4,5", "-a", "ancien-bouton=1", "-a", "ancienne-petite-blind=2",
                            "-a", "ancienne-grosse-blind=3", "--json").output)
    assert spoken["interpretation"] is None
    assert "Le règlement ne le précise pas" not in spoken["decision"]


def _mutate(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_sanction_without_its_clause_is_flagged_and_the_base_still_decides(run, kb_copy):
    path = kb_copy / FAUSSE_DONNE
    text = path.read_text(encoding="utf-8")
    cite = next(line for line in text.splitlines() if "outcome: fausse-donne-redonner" in line)
    rule_line = text.splitlines().index(cite)  # the rule's « - when: » line, just above its outcome (1-based)
    _mutate(path, '"2-9#79c79e", "15-1#c8a2dc"]', '"2-9#79c79e"]')
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    flagged = [line for line in result.output.splitlines() if "sans citer une règle de sanction" in line]
    assert flagged == [f"rulebook/{FAUSSE_DONNE}:{rule_line}: la décision « fausse-donne-redonner » parle de « sanction… » "
                       "sans citer une règle de sanction du livre club ; règles de sanction : 15-1, 15-2"], result.output
    assert cite
    decided = run("decide", "fausse-donne", "--book", "club", "-a", "volontaire=non", "-a", "cause=premiere-carte",
                  "-a", "deux-mises=non", kb_path=kb_copy)
    assert decided.exit_code == 0, decided.output  # a check problem, not a broken base


@pytest.mark.parametrize("word", ["un avertissement", "la disqualification", "est sanctionné"])
def test_each_sanction_word_needs_the_clause(run, kb_copy, word):
    path = kb_copy / "club/procedures/elimination-simultanee.yaml"
    _mutate(path, "est classé avant l'autre.", f"est classé avant l'autre, sous peine d'{word}.")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert "la décision « plus-riche-classe-avant » parle de" in result.output


def test_saying_the_text_sets_no_sanction_is_not_a_sanction(run, kb_copy):
    """infos: « Le règlement ne fixe pas de sanction » names none; removing the book's list changes nothing there."""
    _mutate(kb_copy / "infos/book.yaml", 'sanction_clauses: ["triche"]', "sanction_clauses: []")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 0, result.output


def test_a_book_without_sanction_clauses_says_what_to_add(run, kb_copy):
    _mutate(kb_copy / "tda/book.yaml", 'sanction_clauses: ["sanctions"]', "sanction_clauses: []")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert "règles de sanction : (aucune : ajoutez sanction_clauses à book.yaml)" in result.output


def test_the_site_questionnaire_receives_each_reading(kb):
    from ruling.site.procview import procedure_data

    proc = next(p for p in kb.procedures if p.citation == "club:blinds-places-vides")
    rule = next(r for r in procedure_data(proc)["rules"] if r["outcome"] == "bouton-mort")
    assert set(rule["interpretation"]) == {"donneurs-absents", "sans-petite-blind-donneur-absent",
                                           "sans-petite-blind", "apres-coup-sans-petite-blind",
                                           "apres-coup-sans-petite-blind-ni-grosse-blind"}
    assert "petite-blind-avancee" not in rule["interpretation"]  # the text decides it: no reading
    assert "ancien-donneur-redonne" not in rule["interpretation"]  # 8-13 with 3-2, to the letter (reading 17)
    script = (Path(__file__).parent.parent / "site" / "assets" / "questionnaire.js").read_text(encoding="utf-8")
    assert '"Lecture d\'un texte muet : " + said' in script  # shown under the decision, by case


@pytest.mark.parametrize("book", ["tda", "cash"])
def test_odd_chip_seats_are_counted_from_the_button(kb, book):
    """TDA and cash give the odd chip left of the button: with a house dealer, « left of the dealer » names another seat."""
    proc = next(p for p in kb.procedures if p.citation == f"{book}:partage-du-pot")
    assert "à gauche du bouton" in proc.question("engagements").text


SAID = "Le règlement ne le précise pas ; "


def _unmatched_readings(kb) -> list[tuple]:
    """Outcomes (and cases) whose decision says « Le règlement ne le précise pas » without an `interpretation:`,
    or carry one without saying it: the TD reading aloud and `ruling check --json` must see the same readings.
    A reading that depends on a figure is said by that figure's `each` template (the 9-13 example after a
    short all-in), which the decision tells whenever the figure has a record."""
    out = []
    for proc in kb.procedures:
        for rule in proc.rules:
            texts = rule.decision if isinstance(rule.decision, dict) else {None: rule.decision}
            conditional = " ".join(_each_texts(rule.each or {}))
            for case, text in texts.items():
                text = f"{text} {conditional}"
                reading = rule.interpretation.get(case) if isinstance(rule.interpretation, dict) else rule.interpretation
                if (SAID in text) != (reading is not None):
                    out.append((proc.citation, rule.outcome, case))
    return out


def test_every_reading_said_aloud_is_declared_and_every_declared_one_is_said(kb):
    assert _unmatched_readings(kb) == []


def test_a_reading_said_but_not_declared_is_found(kb_copy):
    from ruling.kb.load import load_kb

    path = kb_copy / "cash/procedures/fausse-donne.yaml"
    text = path.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("    interpretation: \"maldonnes-1 dit"))
    path.write_text(text.replace(line + "\n", ""), encoding="utf-8")
    assert _unmatched_readings(load_kb(kb_copy)) == [("cash:fausse-donne", "maldonne-cartes-en-trop", None)]


def test_the_second_reading_findings_are_listed_by_check(run):
    """The readings the outside second reading found hidden are now listed, each at its outcome."""
    code, data = _check(run)
    assert code == 0
    found = {(r["procedure"], r["outcome"], r["case"]) for r in data["interpretations"]}
    for expected in [("club:relance-minimum", "minimum", "avant-flop"), ("club:relance-insuffisante", "regle-des-50", "suivi"),
                     ("club:chip-race", "remplacement-direct", None), ("club:duree-penalite", "suspension-en-tours", None),
                     ("club:absence-prolongee", "delai-quinze-minutes", None), ("club:joueur-absent", "appeler-le-td", None),
                     ("club:melange-et-coupe", "coupe-a-refaire", None), ("club:annonce-verbale", "annonce-engage-avec-croupier", None),
                     ("club:action-hors-tour", "perd-le-droit-de-miser", None), ("club:main-morte", "recuperable-exceptionnellement", None),
                     ("tda:relance-insuffisante", "regle-des-50", "suivi"), ("tda:joueur-absent", "rester-a-la-table", None),
                     ("cash:carte-exposee-donne", "remplacee-par-la-carte-a-bruler", None),
                     ("cash:relance-minimum", "relance-minimum", None), ("infos:jetons-sur-la-table", "pause-non-concernee", None)]:
        assert expected in found, expected


def test_the_sng_question_adds_no_condition_to_8_1(kb):
    """8-1 exempts any « tournoi joué en mode SNG » from balancing: the question must not gloss SNG as one table,
    or a multi-table SNG answered « non » because of the gloss gets balanced."""
    proc = next(p for p in kb.procedures if p.citation == "club:equilibrage")
    question = proc.question("sng")
    assert "une seule table" not in question.text
    assert "à une ou plusieurs tables" in question.text


MELANGE = "club/procedures/melange-et-coupe.yaml"


def test_a_quotation_that_is_not_the_clause_word_for_word_is_flagged(run, kb_copy):
    """A TD reads « … » aloud as the rule's own words: one word changed inside the guillemets is a problem
    (here 2-23's oddity « ci-avant ,le » silently mended, as a reading found once)."""
    path = kb_copy / MELANGE
    lines = path.read_text(encoding="utf-8").splitlines()
    rule_line = next(i for i, line in enumerate(lines) if "outcome: donne-sans-melange-td-juge" in line)  # 1-based: the line above
    _mutate(path, "ci-avant ,le directeur", "ci-avant, le directeur")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert (f"rulebook/{MELANGE}:{rule_line}: la décision « donne-sans-melange-td-juge » cite entre guillemets "
            "« Pour les cas non statués ci-avant, le directeur de tournoi sera seul juge en … », qui n'est mot "
            "pour mot dans aucune règle du livre club ; recopiez le texte de la règle (« […] » pour une coupure) ou "
            "retirez les guillemets") in result.output.splitlines(), result.output


def test_a_quotation_with_a_straight_apostrophe_or_a_lowered_capital_is_flagged(run, kb_copy):
    """The source's characters inside the guillemets too: cash writes « d’un jeton impair » with a curly
    apostrophe, and an outside audit found nine decisions quoting it with a straight one (2026-12-06)."""
    path = kb_copy / "cash/procedures/partage-du-pot.yaml"
    _mutate(path, "Aucun joueur ne recevra plus d’un jeton impair", "Aucun joueur ne recevra plus d'un jeton impair")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert "cite entre guillemets « Aucun joueur ne recevra plus d'un jeton impair », qui n'est mot pour mot" in result.output
    path = kb_copy / "club/procedures/echelle-des-sanctions.yaml"
    _mutate(path, "Si une même faute se répète avec le même joueur", "si une même faute se répète avec le même joueur")
    result = run("check", kb_path=kb_copy)
    assert "cite entre guillemets « si une même faute se répète avec le même joueur », qui n'est mot" in result.output


def test_a_quotation_cut_with_brackets_or_naming_a_procedure_is_accepted(run, kb_copy):
    path = kb_copy / MELANGE
    _mutate(path, "« Pour les cas non statués ci-avant ,le directeur de tournoi sera seul juge en la matière. »",
            "« Pour les cas non statués […] le directeur de tournoi sera seul juge en la matière. » "
            "(voir aussi « Jeton de valeur supérieure misé seul »)")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 0, result.output
    _mutate(path, "(voir aussi « Jeton de valeur supérieure misé seul »)", "(voir aussi « Jeton de valeur supérieure misé deux fois »)")
    assert "« Jeton de valeur supérieure misé deux fois »" in run("check", kb_path=kb_copy).output
