"""Issue 12, ninth outside TD trial (30 stories written from the sources, then played through
`ruling ask`, 2026-12-04): the misleading texts it found, each as the TD typed it."""
from __future__ import annotations

import pytest


def test_a_word_that_answered_one_question_answers_no_other(run):
    """C7: « donneur » says who dropped the card; it no longer also says the card was the dealer's own."""
    result = run("ask", "--book", "club", "carte", "tombee", "par", "terre", "donneur", input="\n\n\nje ne sais pas\n")
    assert "D'après vos mots : Du donneur (Entrée pour confirmer" in result.output
    asked = result.output.split("Quand et quelle carte est tombée ?", 1)[1].split("Votre choix", 1)[0]
    assert "D'après vos mots" not in asked
    assert "Réponse inconnue à « Quand et quelle carte est tombée ? » : voici la décision dans chaque cas." in result.output


@pytest.mark.parametrize(("book", "words", "answers"), [
    # T1: the bets question says « ne la tapez pas ici » of the faulty raise: 420 is not proposed there
    ("tda", "relance insuffisante 420", "\n\nn\nn\n1\n100\n300\n420\n"),
    # the replay of trial 9: « 420 sur 300 » and « 500 sur 400 » write the faulty raise first
    ("tda", "relance insuffisante 420 sur 300", "\n\nn\nn\n1\n100\n300\n420\n"),
    ("club", "relance insufisante 500 sur 400", "\n2\n1\nn\n200\n400\n500\n"),
    ("tda", "ouverture 200 relance insuffisante a 250", "\n\nn\nn\n1\n100\n200\n250\n"),
])
def test_no_amount_of_the_words_is_proposed_as_the_bets_when_the_faulty_bet_is_asked_too(run, book, words, answers):
    """Which written figure is the faulty bet (above the bet to call for a raise, below it for a short
    call), the words do not say: the bets of the round are typed, the decision comes from them."""
    result = run("ask", "--book", book, *words.split(), input=answers)
    bets = result.output.split("Montants successifs (au total)", 1)[1].split("lu :", 1)[0]
    assert "D'après vos mots" not in bets
    assert "il doit la compléter à" in result.output and "au total, sans plus" in result.output


def test_a_short_raise_without_an_all_in_does_not_discuss_the_9_13_example(run):
    """C3: 500 on a raise to 400 before the flop, no all-in: the decision says nothing of 9-13's example."""
    result = run("ask", "--book", "club", "relance", "insufisante", "500", "sur", "400", input="\n2\n1\nn\n200\n400\n500\n")
    decision = result.output.split("Décision —", 1)[1].split("Réponses :", 1)[0]
    assert "il doit la compléter à 600 au total, sans plus" in decision
    assert "l'exemple de 9-13" not in decision


def test_a_short_raise_after_a_short_all_in_explains_the_9_13_example(run):
    result = run("ask", "--book", "club", "relance", "insufisante", input="\n2\n1\nn\n100\n200, 290\n340\n")
    decision = result.output.split("Décision —", 1)[1].split("Réponses :", 1)[0]
    assert ("Après le tapis à 290, pourquoi ce n'est pas toujours le chiffre de l'exemple de 9-13 (« ouverture à 200, "
            "tapis à 290, relance minimum à 490 (total) »)") in decision


def test_reouvrir_asks_whether_the_player_may_raise_again(run):
    """C4: « reouvrir » typed, the tda question of a player who already acted is proposed."""
    result = run("ask", "--book", "tda", "tapis", "inferieur", "relance", "min", "reouvrir", input="\n\n")
    assert ("D'après vos mots : Un joueur qui a déjà agi peut-il relancer après un tapis inférieur à la relance "
            "minimum ?") in result.output


def test_the_big_blind_written_before_a_betting_word_is_proposed(run):
    """C5: « big blind 100 relance mini »: « relance » is no count of raises after the 100 (« 3 relances »)."""
    result = run("ask", "--book", "club", "tapis", "30", "apres", "flop", "big", "blind", "100", "relance", "mini",
                 input="\n\n\n\n30\n")
    blind = result.output.split("Montant du gros blind en cours ?", 1)[1].split("Montant en jetons", 1)[0]
    assert "D'après vos mots : 100 (Entrée pour confirmer" in blind


def test_the_word_carte_does_not_say_where_the_odd_card_was_found(run):
    """K4: « carte dos different couleur » no longer pre-answers « non » (« dans ses cartes » was « cartes » alone)."""
    result = run("ask", "--book", "cash", "carte", "dos", "different", "couleur", input="\n\n")
    found = result.output.split("découverte dans le reste du paquet", 1)[1].split("o/n", 1)[0]
    assert "D'après vos mots" not in found
    again = run("ask", "--book", "cash", "carte", "dos", "different", "pendant", "la", "main", input="\n\n")
    assert "D'après vos mots : non (Entrée pour confirmer" in again.output


def test_a_long_clause_whose_every_sentence_is_kept_is_printed_whole_without_the_cut_note(run):
    """Replay of trial 9, C8: 2-18 was printed whole yet quoted as a cut excerpt."""
    result = run("ask", "--book", "club", "joueur", "absent", "big", "blind", "revient", input="\n1\n")
    assert "(règle longue, 601 caractères" not in result.output
    assert ("Joueur absent de la table: ses cartes lui sont distribuées et enlevées immédiatement\navant le premier tour "
            "de mise par le dealer.") in result.output


def test_the_bet_faced_written_mise_is_not_proposed_as_the_faulty_bet(run):
    """Second replay of trial 9: « mise 400 relance a 500 »: « mise » has the stem of « mis » (« il a mis
    800 »), but names the bet faced; nothing is proposed for the faulty bet, which the TD types."""
    result = run("ask", "--book", "tda", "relance", "insuffisante", "mise", "400", "relance", "a", "500",
                 input="\n\nn\nn\n1\n200\n400\n500\n")
    faulty = result.output.split("Montant total posé par le joueur fautif (au total, pas le complément) ?", 1)[1]
    assert "D'après vos mots" not in faulty.split("Montant en jetons", 1)[0]
    assert "il doit la compléter à 600 au total, sans plus" in result.output
