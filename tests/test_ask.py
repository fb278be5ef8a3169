"""`ruling ask` driven as a TD would: typed words, numbered choices, o/n, amounts, mistakes, Ctrl-C."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml

from ruling.decide.engine import answer_text, decide, decide_procedure, find_procedure, normalise_answers
from ruling.decide.questionnaire import rank_situations

SCENARIOS = Path(__file__).resolve().parent.parent / "rulebook"


def test_flop_with_four_cards(run):
    result = run("ask", "flop", "quatre", "cartes", "--book", "club", input="1\n3\no\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "1. Flop exposé de façon irrégulière  [club:flop-irregulier]" in out
    assert "Sait-on laquelle des deux cartes brûlées" not in out  # cannot change the outcome: never asked
    assert "La quatrième carte du flop est brûlée ; la turn sera exposée directement." in out
    assert "club:2-7  [Règlement des tournois du club, chapitre 2" in out
    assert "Si l'ordre d'apparition des cartes est connu : la quatrième du flop est brûlée" in out
    assert "Pour rejouer : ruling decide flop-irregulier --book club -a defaut=quatre-cartes -a ordre-connu=oui" in out


def test_minimum_raise_with_a_wrong_answer_and_no_big_blind_proposed(run):
    typed = "relance minimum tapis\n1\n1\n3\nx\n2\n\n100\n200, 290\n"
    result = run("ask", "--book", "club", input=typed)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Réponse « 3 » invalide pour la question « tour »" in out and "recommencez" in out
    assert "Réponse « x » invalide" in out
    # no figure of the event is proposed: Enter is refused, the TD types the big blind
    assert "Montant en jetons [" not in out and "Une réponse est nécessaire : un nombre entier de jetons" in out
    assert "minimum 490 au total" in out
    assert "ex : ouverture à 200, tapis à 290, relance minimum à 490 (total)." in out.replace("\n", " ")
    assert "-a grosse-blind=100 -a mises=200,290" in out


def test_amounts_refused_by_the_calculator_are_asked_again(run):
    typed = "1\n1\n2\n100\n300, 200\n100\n200, 290\n"
    result = run("ask", "relance", "minimum", "--book", "club", input=typed)
    assert result.exit_code == 0, result.output
    assert "les montants des mises doivent croître" in result.output and "reprenons les chiffres du calcul" in result.output
    # the case kept is said: a refusal may come from a wrong case rather than from the figures
    assert "(réponses gardées : Le montant minimum pour ouvrir ou relancer ; Au flop, à la turn ou à la river ;" in result.output
    assert "minimum 490 au total" in result.output


def test_empty_answer_at_first_prompt_quits_cleanly(run):
    result = run("ask", input="\n")
    assert result.exit_code == 0
    assert result.output.strip().endswith("Questionnaire abandonné : aucune décision.")
    assert "Traceback" not in result.output


def test_end_of_input_mid_questionnaire_exits_1_saying_no_decision(run):
    result = run("ask", "flop", "--book", "club", input="1\n")
    assert result.exit_code == 1
    assert result.output.rstrip().endswith("Fin de l'entrée avant la décision : aucune décision.")


class CtrlCAfter(io.BytesIO):
    """Typed input, then Ctrl-C (reading raises KeyboardInterrupt, as input() does on SIGINT)."""

    def _then_interrupt(self, data: bytes, size) -> bytes:
        if not data and size != 0:
            raise KeyboardInterrupt
        return data

    def read(self, size=-1):
        return self._then_interrupt(super().read(size), size)

    def read1(self, size=-1):
        return self._then_interrupt(super().read1(size), size)

    def readinto(self, buffer):
        raise io.UnsupportedOperation  # TextIOWrapper then reads through read1


def test_ctrl_c_exits_130(run):
    result = run("ask", "flop", "--book", "club", input=CtrlCAfter(b"1\n"))
    assert result.exit_code == 130
    assert result.output.rstrip().endswith("Questionnaire interrompu (Ctrl-C) : aucune décision.")


def test_words_that_match_nothing_are_asked_again(run):
    result = run("ask", "--book", "club", input="xyzzy qwerty\nchip race\n1\n2\n")
    assert "Aucune situation ne correspond à « xyzzy qwerty »" in result.output
    assert "ne peuvent plus être convertis" in result.output


def test_profile_answers_context_questions(run, tmp_path):
    profile = tmp_path / "tournoi.yaml"
    profile.write_text("win-the-button: oui\n", encoding="utf-8")
    result = run("ask", "qui", "met", "les", "blinds", "place", "vide", "--book", "club", "--profile", profile,
                 input="1\n")
    assert result.exit_code == 0, result.output
    assert "Win The Button" in result.output and "o/n" not in result.output


def test_bad_profile_is_one_french_line(run, tmp_path):
    result = run("ask", "--profile", tmp_path / "absent.yaml")
    assert result.exit_code == 2 and result.output.startswith("Erreur : le fichier de profil")


# -- ten situations as a new TD would meet them, replaying scenarios through the questionnaire -----------------

TEN = [
    ("club", "carte-tombee", "carte tombée par terre"),
    ("club", "fausse-donne", "fausse donne"),
    ("club", "joueur-absent", "joueur absent retard"),
    ("club", "telephone", "téléphone portable à la table"),
    ("club", "chip-race", "chip race"),
    ("club", "partage-du-pot", "partage side pot jeton indivisible"),
    ("club", "relance-insuffisante", "relance insuffisante 50 %"),
    ("tda", "donner-des-jetons", "donner des jetons"),
    ("tda", "relance-insuffisante", "relance trop petite"),
    ("cash", "mise-tapis-limite", "tapis limite demi-mise"),
]


def _typed(question, value) -> str:
    if question.type == "choice":
        return str(list(question.choices).index(value) + 1)
    if question.type == "bool":
        return "o" if value else "n"
    return answer_text(value)


@pytest.mark.parametrize("book,procedure,words", TEN, ids=[f"{b}:{p}" for b, p, _ in TEN])
def test_ten_situations_give_the_cited_ruling(kb, run, book, procedure, words):
    proc = find_procedure(kb, procedure, book)
    matches = rank_situations(kb, words, book)
    assert proc in matches, f"« {words} » ne propose pas {book}:{procedure}"
    scenario = yaml.safe_load((SCENARIOS / book / "scenarios" / f"{procedure}.yaml").read_text(encoding="utf-8"))["scenarios"][0]
    answers = normalise_answers(proc, scenario["answers"])
    lines, given = [str(matches.index(proc) + 1)], {}
    while True:  # type the answers in the order the questionnaire asks them
        state = decide_procedure(kb, proc, given)
        if state.decided:
            break
        question = state.missing[0]
        given[question.id] = answers[question.id]
        lines.append(_typed(question, answers[question.id]))
    result = run("ask", *words.split(), "--book", book, "--full", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    expected = decide(kb, book, procedure, scenario["answers"])
    assert expected.outcome == scenario["outcome"]
    assert expected.decision.splitlines()[0] in result.output
    for clause in expected.citations:
        assert clause.citation in result.output
        assert clause.full_text.split()[0] in result.output
    assert f"Pour rejouer : ruling decide {procedure} --book {book}" in result.output


def _change_text(kb_copy, rel: str, old: str, new: str) -> None:
    path = kb_copy / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_stale_citation_ends_the_questionnaire_once(run, kb_copy):
    """A decision citing a changed text is refused once, exit 2: no loop re-asking amounts."""
    _change_text(kb_copy, "club/02-donne.yaml", "flop à 4 cartes est remélangé et redonné", "flop à 4 cartes est remélangé puis redonné")
    result = run("ask", "flop", "quatre", "cartes", "--book", "club", input="1\n3\no\n", kb_path=kb_copy)
    assert result.exit_code == 2, result.output
    assert result.output.count("décision refusée") == 1
    assert "le texte de club:2-7 a changé" in result.output
    assert "reprenons les chiffres du calcul" not in result.output


def test_stale_citation_after_amounts_is_not_asked_again(run, kb_copy):
    _change_text(kb_copy, "club/09-actions-et-les-relances.yaml", "suivit à 30", "suivi à 30")
    typed = "relance minimum tapis\n1\n1\n2\n\n200, 290\n" + "100\n200, 290\n" * 3
    result = run("ask", "--book", "club", input=typed, kb_path=kb_copy)
    assert result.exit_code == 2, result.output
    assert "le texte de club:9-7 a changé" in result.output
    assert "reprenons les chiffres du calcul" not in result.output
    assert result.output.count("Montants en jetons, séparés par des virgules") == 1


def test_refusals_have_their_own_error_classes(kb, kb_copy):
    from ruling.errors import CalculatorError, KnowledgeBaseError, RulingError, StaleCitationError, UserError
    from ruling.kb.load import load_kb

    for cls in (UserError, CalculatorError, StaleCitationError, KnowledgeBaseError):
        assert issubclass(cls, RulingError) and cls.exit_code == 2
    with pytest.raises(CalculatorError, match="doivent croître"):
        decide(kb, "club", "relance-minimum", {"demande": "minimum", "tour": "apres-flop", "grosse-blind": 100,
                                               "mises": [300, 200]})
    _change_text(kb_copy, "club/02-donne.yaml", "flop à 4 cartes est remélangé et redonné",
                 "flop à 4 cartes est remélangé puis redonné")
    with pytest.raises(StaleCitationError, match="le texte de club:2-7 a changé"):
        decide(load_kb(kb_copy), "club", "flop-irregulier", {"defaut": "quatre-cartes", "ordre-connu": False})


@pytest.mark.parametrize("book, procedure", [("club", "relance-minimum"), ("tda", "relance-insuffisante")])
def test_reopening_asks_the_big_blind_question_only_before_the_flop(run, book, procedure):
    """Issue 11: after the flop nobody is « le gros blind qui n'a fait que poser sa blind » — the
    question is never asked; before the flop it is. The street is asked once either way."""
    big_blind = "Le joueur est-il le gros blind, qui n'a encore fait que poser sa blind ?"
    after = run("ask", procedure, "--book", book, input="2\n2\n100\n200, 290\n200\n")
    assert after.exit_code == 0, after.output
    assert big_blind not in after.output
    assert after.output.count("À quel moment du coup ?") == 2  # asked once, then shown once among the answers
    assert "il ne peut que suivre 290 ou passer" in after.output
    before = run("ask", procedure, "--book", book, input="2\n1\no\n")
    assert before.exit_code == 0, before.output
    assert before.output.count(big_blind) == 2  # asked, then among the answers
    assert before.output.count("À quel moment du coup ?") == 2
    assert "avant le flop, le gros blind qui n'a pas encore parlé peut suivre, passer ou relancer" in before.output
