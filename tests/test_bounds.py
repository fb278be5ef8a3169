"""Huge or oddly written input gets one bounded French line, quickly: lengths are checked before
any quadratic work, amounts are read as a French TD writes them (« 2 500 »)."""
from __future__ import annotations

import pytest

from ruling.decide.engine import MAX_AMOUNT_DIGITS, parse_answer
from ruling.decide.procedures import Question
from ruling.errors import SHOWN_CHARS, UserError
from ruling.kb import names

HUGE = "a" * 100_000
AMOUNTS = Question("mises", "Mises ?", type="amounts")
AMOUNT = Question("grosse-blind", "Gros blind ?", type="amount")


@pytest.mark.parametrize("typed, value", [
    ("2 500", [2500]), ("2\u00a0500", [2500]), ("2\u202f500", [2500]), ("1 000 000", [1000000]),
    ("200, 2 500", [200, 2500]), ("1 000; 2\u00a0500", [1000, 2500]), ("100 50 25", [100, 50, 25]),
    ("[200, 290]", [200, 290]), ("", []),
])
def test_amounts_with_thousands_separators(typed, value):
    assert parse_answer(AMOUNTS, typed) == value


@pytest.mark.parametrize("typed, value", [("2 500", 2500), ("12\u202f000", 12000), ("+300", 300), ("1_000", 1000)])
def test_one_amount_with_thousands_separators(typed, value):
    assert parse_answer(AMOUNT, typed) == value


@pytest.mark.parametrize("question, typed", [
    (AMOUNT, "10 00"), (AMOUNT, "9" * 4000), (AMOUNT, 10 ** 4000), (AMOUNT, "9" * (MAX_AMOUNT_DIGITS + 1)),
    (AMOUNTS, "100, " + "9" * 4000), (AMOUNTS, [1] * 5000), (AMOUNTS, "1, " * 100_000),
])
def test_out_of_bounds_amounts_are_one_french_line(question, typed):
    with pytest.raises(UserError) as e:
        parse_answer(question, typed)
    message = str(e.value)
    assert message.startswith("réponse « ") and "invalide pour la question" in message
    assert len(message) < 400 and "\n" not in message


def test_thousands_on_the_command_line_and_typed_in_ask(run):
    args = ["decide", "relance-minimum", "--book", "club", "-a", "demande=minimum", "-a", "tour=apres-flop",
            "-a", "grosse-blind=1 000"]
    result = run(*args, "-a", "mises=2 500")
    assert result.exit_code == 0, result.output
    assert "Pour suivre : 2500." in result.output and "minimum 5000 au total (écart 2500)" in result.output
    assert "-a grosse-blind=1000 -a mises=2500" in result.output
    typed = "relance minimum tapis\n1\n1\n2\n1 000\n2\u00a0500\n"
    asked = run("ask", "--book", "club", input=typed)
    assert asked.exit_code == 0, asked.output
    assert "minimum 5000 au total" in asked.output


def test_a_4000_digit_amount_is_one_line_not_a_traceback(run):
    args = ["decide", "relance-minimum", "--book", "club", "-a", "demande=minimum", "-a", "tour=apres-flop",
            "-a", "mises=100"]
    result = run(*args, "-a", "grosse-blind=" + "9" * 4000)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Erreur : réponse « 9999") and "(4\u202f000 caractères)" in lines[0]
    assert f"{MAX_AMOUNT_DIGITS} chiffres au plus" in lines[0]
    typed = "relance minimum tapis\n1\n1\n2\n" + "9" * 4000 + "\n100\n200, 290\n"
    asked = run("ask", "--book", "club", input=typed)
    assert asked.exit_code == 0 and "recommencez" in asked.output and "minimum 490 au total" in asked.output


def test_no_distance_is_computed_for_a_huge_name(kb, monkeypatch):
    calls = []
    real = names.edit_distance
    monkeypatch.setattr(names, "edit_distance", lambda a, b: calls.append((a, b)) or real(a, b))
    with pytest.raises(UserError) as e:
        kb.clause("9-13" + HUGE)
    assert calls == []
    assert "(100\u202f004 caractères)" in str(e.value) and len(str(e.value)) < 300
    with pytest.raises(UserError) as e:
        kb.clause("club:9-31")
    assert "vouliez-vous club:9-13" in str(e.value)
    assert calls and all(abs(len(a) - len(b)) <= len("club:9-31") // 3 for a, b in calls)


@pytest.mark.parametrize("args", [
    ["show", "9-13" + HUGE], ["show", "club:" + HUGE], ["show", "9-13", "--book", HUGE], ["list", HUGE],
    ["decide", HUGE], ["decide", "flop-irregulier", "--book", "club", "-a", HUGE + "=1"], ["compare", HUGE],
    ["procedures", "--book", HUGE], ["diff", HUGE], ["compare", "flop-irregulier", "-a", HUGE + "=1"],
])
def test_every_command_answers_a_huge_argument_in_one_short_line(run, args):
    result = run(*args)
    assert result.exit_code == 2, result.output[:300]
    assert result.output.startswith("Erreur : ") and len(result.output) < 400, result.output[:400]
    assert "Traceback" not in result.output


def test_huge_search_words_are_searched_and_quoted_short(run):
    result = run("search", HUGE)
    assert result.exit_code == 0
    assert result.output.strip() == "Aucun résultat pour « " + "a" * SHOWN_CHARS + "… (100\u202f000 caractères) »."
    asked = run("ask", HUGE)
    assert asked.exit_code == 1 and len(asked.output) < 400  # end of input before a decision
    assert "Aucune situation ne correspond à « aaaa" in asked.output and "(100\u202f000 caractères)" in asked.output
