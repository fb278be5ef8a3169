"""Issue 12, eighth outside TD trial (30 stories written from the sources, then played through
`ruling ask`): the defects it found, each as the TD typed it."""
from __future__ import annotations

import pytest


def _picker_first(output: str) -> str:
    line = output.split("Situations possibles :\n", 1)[1].splitlines()[0]
    return line.rsplit("[", 1)[1].rstrip("]")


def test_phone_abbreviation_finds_the_phone_and_the_call(run):
    """g01: « tel » is the phone; « pendant le coup » no longer wins for the exposed cards."""
    result = run("ask", "--book", "club", "joueur", "repond", "au", "tel", "pendant", "le", "coup", input="\n\n")
    assert _picker_first(result.output) == "club:telephone"
    assert "D'après vos mots : Il répond à un appel téléphonique" in result.output


@pytest.mark.parametrize(("book", "words", "proposed"), [
    # g09: « donne des jetons » is the choice that says it, not collusion, which the glossary groups with it
    ("club", "il a donne des jetons a son pote", "Un joueur a donné des jetons à un autre joueur"),
    # c05: a check out of turn is the waiting player, not any action out of turn
    ("cash", "check out of turn", "Un joueur a indiqué hors position qu'il attend (check)"),
    # g10: the player left without chips (12-6)
    ("club", "chip race joueur plus de jetons", "Un joueur n'a presque plus de jetons, ou se retrouve sans jeton après le chip race"),
    # i04: chips from the pocket
    ("infos", "jetons de la poche", "Un joueur pose sur la table des jetons venant de l'extérieur (de sa poche…)"),
    # c04: « limit » is the limit game (« no limit » and « pot limit » are longer, and still win)
    ("cash", "limit tapis 8 sur mise de 20", "Poker à limite"),
])
def test_words_of_the_trial_pre_answer_the_first_question(run, book, words, proposed):
    result = run("ask", "--book", book, *words.split(), input="\n\n")
    assert f"D'après vos mots : {proposed} (Entrée pour confirmer" in result.output


def test_player_without_chips_after_the_chip_race_gets_12_6(run):
    result = run("ask", "--book", "club", "chip", "race", "joueur", "plus", "de", "jetons", input="\n\n")
    assert result.exit_code == 0
    assert ("S'il se retrouve sans aucun jeton à la suite du chip race on lui donne un jeton de la nouvelle valeur "
            "minimum. »") in result.output
    assert "Comment le chip race est-il fait" not in result.output  # nothing asked that the dispute does not need
