"""The decision engine, the procedure loader's checks, `ruling decide`, `procedures`, `compare`, `check --stamp`."""
from __future__ import annotations

import json
import re

import pytest

from ruling.decide.engine import analyse, compare, decide, parse_answer
from ruling.decide.procedures import Procedure, Question, Rule, text_hash
from ruling.errors import UserError

FLOP = "club/procedures/flop-irregulier.yaml"


# -- backward chaining -------------------------------------------------------------------------------

def test_first_question_is_the_one_that_splits_the_rules(kb):
    result = decide(kb, "club", "flop-irregulier", {})
    assert not result.decided
    assert result.missing[0].id == "defaut"


def test_premature_flop_needs_no_other_answer(kb):
    result = decide(kb, "club", "flop-irregulier", {"defaut": "premature"})
    assert result.decided and result.outcome == "flop-repris"
    assert [c.citation for c in result.citations] == ["club:2-10", "club:2-13"]
    assert "redonné sans carte brûlée" in result.decision
    assert result.answers == {"defaut": "premature"}


def test_only_questions_that_can_still_change_the_outcome_are_missing(kb):
    result = decide(kb, "club", "flop-irregulier", {"defaut": "quatre-cartes"})
    assert [q.id for q in result.missing] == ["ordre-connu"]  # never the burned-cards order question
    result = decide(kb, "club", "flop-irregulier", {"defaut": "deux-brulees"})
    assert [q.id for q in result.missing] == ["ordre-brulees-connu", "ordre-connu"]


def test_irrelevant_answers_are_not_part_of_the_decision(kb):
    result = decide(kb, "club", "flop-irregulier",
                    {"defaut": "deux-brulees", "ordre-brulees-connu": "non", "ordre-connu": "oui"})
    assert result.outcome == "flop-et-brulees-remelanges"
    assert result.answers == {"defaut": "deux-brulees", "ordre-brulees-connu": False}


def test_calculator_inputs_are_asked_once_the_rule_is_known(kb):
    result = decide(kb, "club", "relance-minimum", {"demande": "minimum", "tour": "apres-flop"})
    assert not result.decided
    assert [q.id for q in result.missing] == ["grosse-blind", "mises"]
    assert result.missing[0].default is None  # a figure of the event: never proposed, typed by the TD


@pytest.mark.parametrize("bets,to_call,minimum", [("30", 30, 130), ("100,200", 200, 300), ("200, 290", 290, 490)])
def test_worked_examples_of_the_club_rules(kb, bets, to_call, minimum):
    result = decide(kb, "club", "relance-minimum",
                    {"demande": "minimum", "tour": "apres-flop", "grosse-blind": "100", "mises": bets})
    assert result.figures["a-suivre"] == to_call and result.figures["relance-minimum"] == minimum
    assert f"minimum {minimum} au total" in result.decision


def test_context_question_answered_by_a_profile(kb):
    result = decide(kb, "club", "blinds-places-vides", {}, profile={"win-the-button": "oui", "format": "interne"})
    assert result.outcome == "gagnant-prend-la-grosse-blind"
    result = decide(kb, "club", "blinds-places-vides", {}, profile={"structure": "limite"})  # a cash context question
    assert [q.id for q in result.missing] == ["win-the-button", "sieges"]


# -- answers -------------------------------------------------------------------------------------------

def test_answers_are_read_as_a_td_types_them():
    yes_no = Question("q", "Vrai ?", type="bool")
    assert [parse_answer(yes_no, v) for v in ("o", "Oui", "n", "NON", "true", "false", True)] == \
        [True, True, False, False, True, False, True]
    choice = Question("c", "Quoi ?", choices={"sans-brulee": "a", "premature": "b"})
    assert parse_answer(choice, "2") == "premature"
    assert parse_answer(choice, "Sans-Brulee") == "sans-brulee"
    amounts = Question("m", "Montants ?", type="amounts")
    assert parse_answer(amounts, "100, 200") == [100, 200]
    assert parse_answer(amounts, "1 000; 2 500") == [1000, 2500]
    assert parse_answer(amounts, "") == []
    assert parse_answer(Question("a", "Montant ?", type="amount"), "1 000") == 1000


@pytest.mark.parametrize("qtype,raw,expected_text", [
    ("bool", "peut-être", "oui ou non"),
    ("amount", "-5", "nombre entier"),
    ("amount", "cent", "nombre entier"),
    ("amounts", "100, deux cents", "liste de nombres"),
])
def test_bad_answer_says_what_is_expected(qtype, raw, expected_text):
    with pytest.raises(UserError) as e:
        parse_answer(Question("q", "Question ?", type=qtype), raw)
    assert f"« {raw} »" in str(e.value) and expected_text in str(e.value)


def test_bad_choice_lists_the_choices(kb):
    with pytest.raises(UserError) as e:
        decide(kb, "club", "flop-irregulier", {"defaut": "brulee"})
    assert "sans-brulee, deux-brulees, quatre-cartes, premature" in str(e.value)


def test_unknown_question_lists_the_valid_ones(kb):
    with pytest.raises(UserError) as e:
        decide(kb, "club", "flop-irregulier", {"ordre": "oui"})
    assert "« ordre »" in str(e.value) and "ordre-connu" in str(e.value)


def test_unknown_and_ambiguous_procedures(kb):
    with pytest.raises(UserError) as e:
        decide(kb, "club", "flop-irreguliere", {})
    assert "vouliez-vous flop-irregulier" in str(e.value)
    with pytest.raises(UserError) as e:
        decide(kb, None, "partage-du-pot", {})
    assert "club:partage-du-pot" in str(e.value) and "tda:partage-du-pot" in str(e.value)
    with pytest.raises(UserError) as e:
        decide(kb, "clubb", "flop-irregulier", {})
    assert "club" in str(e.value)


def test_calculator_refusal_is_a_french_user_error(kb):
    with pytest.raises(UserError) as e:
        decide(kb, "club", "relance-minimum",
               {"demande": "minimum", "tour": "apres-flop", "grosse-blind": 100, "mises": "200, 150"})
    assert "doivent croître" in str(e.value)


# -- static analysis ---------------------------------------------------------------------------------------

def _proc(rules, questions=None):
    questions = questions or {"a": Question("a", "A ?", choices={"x": "X", "y": "Y", "z": "Z"}),
                              "b": Question("b", "B ?", type="bool")}
    return Procedure(id="p", book="club", situation="p", title="P", keywords=[], questions=questions, context={},
                     rules=[Rule(when=w, outcome=o, decision="d", cites=[]) for w, o in rules])


def test_analysis_finds_a_combination_without_rule():
    result = analyse(_proc([({"a": ("x",)}, "o1"), ({"a": ("y",), "b": (True,)}, "o2"), ({"a": ("z",)}, "o3")]))
    assert result.gaps == [{"a": "y", "b": False}]
    assert not result.overlaps


def test_analysis_finds_overlapping_rules_even_through_unasked_questions():
    result = analyse(_proc([({"a": ("x", "y")}, "o1"), ({"b": (True,)}, "o2"), ({"a": ("z",), "b": (False,)}, "o3")]))
    pairs = {(a.outcome, b.outcome) for a, b, _ in result.overlaps}
    assert ("o1", "o2") in pairs


def test_every_real_procedure_is_exhaustive_and_without_overlap():
    """Parsed without the loader's refusal (a broken procedure would stop `load_kb` before this
    test could name it): every real procedure answers every path exactly once."""
    from ruling.kb.load import default_root, parse_kb

    kb, _ = parse_kb(default_root())
    assert len(kb.procedures) >= 90
    for proc in kb.procedures:
        result = analyse(proc)
        assert not result.gaps and not result.overlaps, proc.citation
        assert result.outcomes == {r.outcome for r in proc.rules}, proc.citation


# -- the command line ------------------------------------------------------------------------------------------

def test_decide_json_decision_shape(run):
    result = run("decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data) >= {"procedure", "book", "outcome", "decision", "answers", "citations", "figures"}
    assert data["outcome"] == "flop-repris"
    assert data["citations"][0]["citation"] == "club:2-10"
    assert data["citations"][0]["text"].startswith("Flop prématuré")


def test_decide_missing_answers_exit_2_with_questions(run):
    result = run("decide", "flop-irregulier", "--book", "club", "--json")
    assert result.exit_code == 2
    data = json.loads(result.output[: result.output.rindex("}") + 1])
    assert data["procedure"] == "flop-irregulier" and data["book"] == "club"
    first = data["missing"][0]
    assert first["id"] == "defaut" and first["type"] == "choice"
    assert {"value": "premature", "label": "Le flop a été exposé avant la fin du tour de mises"} in first["choices"]
    text = run("decide", "flop-irregulier", "--book", "club", "-a", "defaut=sans-brulee")
    assert text.exit_code == 2 and "-a ordre-connu=<oui|non>" in text.output and "Erreur : " in text.output


def test_replay_command_gives_the_same_decision(run):
    result = run("decide", "relance-minimum", "--book", "club", "-a", "demande=minimum", "-a", "tour=apres-flop",
                 "-a", "grosse-blind=100", "-a", "mises=200,290")
    assert result.exit_code == 0 and "minimum 490 au total" in result.output
    replay = result.output.split("Pour rejouer : ")[1].strip()
    assert replay == ("ruling decide relance-minimum --book club -a demande=minimum -a tour=apres-flop "
                      "-a grosse-blind=100 -a mises=200,290")
    again = run(*replay.split()[1:])
    assert again.exit_code == 0 and "minimum 490 au total" in again.output


def test_decide_answers_and_profile_files(run, tmp_path):
    answers = tmp_path / "answers.yaml"
    answers.write_text("demande: minimum\ntour: avant-flop\ngrosse-blind: 200\nmises: []\n", encoding="utf-8")
    result = run("decide", "relance-minimum", "--book", "club", "--answers", answers, "--json")
    assert json.loads(result.output)["figures"]["relance-minimum"] == 400
    profile = tmp_path / "tournoi.yaml"
    profile.write_text("win-the-button: oui\nformat: payant\n", encoding="utf-8")
    result = run("decide", "blinds-places-vides", "--book", "club", "--profile", profile)
    assert result.exit_code == 0 and "Win The Button" in result.output


@pytest.mark.parametrize("content,expected", [
    (None, "n'existe pas"),
    ("demande: [minimum\n", "n'est pas du YAML valide"),
    ("- minimum\n", "doit contenir un mapping"),
    ("vitesse: 3\n", "question inconnue"),
])
def test_bad_answers_or_profile_file_is_one_french_line(run, tmp_path, content, expected):
    path = tmp_path / "f.yaml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    for option in ("--answers", "--profile"):
        result = run("decide", "relance-minimum", "--book", "club", option, path)
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Erreur : ") and expected in lines[0], result.output


def test_malformed_answer_pair(run):
    result = run("decide", "flop-irregulier", "--book", "club", "-a", "premature")
    assert result.exit_code == 2 and "question=réponse" in result.output


def test_procedures_json_shape(run):
    data = json.loads(run("procedures", "--book", "club", "--json").output)
    proc = next(p for p in data["procedures"] if p["id"] == "flop-irregulier")
    assert set(proc) >= {"id", "book", "situation", "title", "cites", "questions"}
    assert proc["cites"][:2] == ["club:2-10", "club:2-13"]
    assert [q["id"] for q in proc["questions"]] == ["defaut", "ordre-connu", "ordre-brulees-connu"]
    assert all(p["book"] == "club" for p in data["procedures"])


def test_procedures_text_and_calculators(run):
    out = run("procedures", "--book", "tda").output
    assert "tda:relance-insuffisante" in out and "club:" not in out
    calcs = run("procedures", "--calculators").output
    assert "relance-insuffisante-sans-annonce" in calcs and "entrée grosse-blind (amount)" in calcs
    assert "paramètre seuil-completion" in calcs and "cas : completee, suivi" in calcs


def test_show_lists_procedures_citing_the_clause(run):
    out = run("show", "club:9-13").output
    assert "relance-minimum (club)" in out


def test_compare_says_where_books_differ(kb, run):
    result = compare(kb, "donner-des-jetons", {"cas": "don"})
    row = result.rows[0]
    assert row.differs
    assert row.cells["club"].outcome != row.cells["tda"].outcome
    out = run("compare", "donner-des-jetons").output
    assert "club → [" in out and "tda  → [" in out and "les livres diffèrent" in out
    assert "disqualifiés immédiatement" in out
    data = json.loads(run("compare", "donner-des-jetons", "-a", "cas=don", "--json").output)
    assert data["same"] is False and data["rows"][0]["books"]["tda"]["decided"] is True


def test_compare_same_numbers_in_every_book(run):
    out = run("compare", "partage-du-pot", "-a", "engagements=500,1000,1000", "-a", "classement=1,2,2",
              "-a", "plus-petit-jeton=100", "-a", "mixte=non", "-a", "jeu=bouton").output
    assert out.count("1500, 500, 500") == 3 and "même issue dans tous les livres" in out


def test_compare_unknown_situation(run):
    result = run("compare", "donner-des-jeton")
    assert result.exit_code == 2 and "vouliez-vous donner-des-jetons" in result.output


# -- check: hashes and stamping --------------------------------------------------------------------------------

def test_stale_hash_is_flagged_and_stamp_refreshes_only_the_cites(run, kb_copy):
    chapter = kb_copy / "club" / "02-donne.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace(
        "Flop prématuré : le flop seul est repris", "Flop prématuré : le flop est repris"), encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert "le texte de club:2-10 a changé depuis l'écriture de la procédure flop-irregulier" in result.output
    before = (kb_copy / FLOP).read_text(encoding="utf-8")
    stamped = run("check", "--stamp", kb_path=kb_copy)
    assert stamped.exit_code == 0, stamped.output
    after = (kb_copy / FLOP).read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert len(before.splitlines()) == len(after.splitlines())
    assert changed and all("cites:" in a and "2-10#" in b for a, b in changed)


def test_missing_hash_is_flagged_then_stamped(run, kb_copy):
    path = kb_copy / FLOP
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'"2-5#[0-9a-f]{6}"', '"2-5"', text, count=1), encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1 and "« 2-5 »" in result.output and "--stamp" in result.output
    run("check", "--stamp", kb_path=kb_copy)
    from ruling.kb.load import load_kb

    clause = load_kb(kb_copy).clause("club:2-5")
    assert f'"2-5#{text_hash(clause.full_text)}"' in path.read_text(encoding="utf-8")
    assert run("check", kb_path=kb_copy).exit_code == 0


def test_broken_procedure_stops_other_commands(run, kb_copy):
    path = kb_copy / FLOP
    path.write_text(path.read_text(encoding="utf-8").replace("when: {defaut: sans-brulee, ordre-connu: false}",
                                                             "when: {defaut: sans-brulee}"), encoding="utf-8")
    check = run("check", kb_path=kb_copy)
    assert check.exit_code == 1 and "s'appliquent toutes deux" in check.output
    result = run("decide", "flop-irregulier", "--book", "club", kb_path=kb_copy)
    assert result.exit_code == 2 and result.output.startswith("Erreur : base de règles invalide")


def test_uncovered_normative_clause_is_a_problem(run, kb_copy):
    path = kb_copy / "club" / "procedures" / "partage-du-pot.yaml"
    path.write_text(re.sub(r'cites: \["10-8#\w+", ', "cites: [", path.read_text(encoding="utf-8")), encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert "club/10-etalage.yaml:" in result.output and "la règle normative club:10-8 n'est citée par aucune" in result.output
    assert "couverture club : 116/117" in result.output
    chapter = kb_copy / "club" / "10-etalage.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace(
        "- id: 10-8\n", "- id: 10-8\n  procedure: \"none — pour le test\"\n"), encoding="utf-8")
    assert run("check", kb_path=kb_copy).exit_code == 0
