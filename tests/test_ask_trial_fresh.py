"""Issue 12, second outside TD trial (tests/suites/trial_fresh.yaml): what the questionnaire reads
from the TD's words, what it asks, and what the decision says to each party."""
from __future__ import annotations

import pytest


def _ask_picking(run, kb, book: str, words: str, procedure: str, answers: str):
    """`ruling ask --book BOOK WORDS`, picking `procedure` in the list, then typing `answers`."""
    from ruling.decide.questionnaire import rank_situations

    ranked = [f"{p.book}:{p.id}" for p in rank_situations(kb, words, book)]
    return run("ask", "--book", book, *words.split(), input=f"{ranked.index(procedure) + 1}\n{answers}")


def _question(kb, book: str, procedure: str, qid: str):
    return next(p for p in kb.procedures if p.book == book and p.id == procedure).question(qid)


# -- the TD's question is not a fact (f29: « … c'est autorisé ») ---------------------------------------

def test_the_tds_question_does_not_pre_answer_a_fact(run, kb):
    # « puis peut-il relancer » asks whether he may raise; nobody has raised between his call and his turn
    result = _ask_picking(run, kb, "club", "il a dit check avant son tour et puis peut-il relancer",
                          "club:action-hors-tour", "\no\nn\n")
    out = result.output
    assert result.exit_code == 0, out
    asked = out.split("Entre son annonce et son tour, un joueur a-t-il ouvert ou relancé ?\n", 1)[1]
    assert not asked.startswith("  D'après vos mots")
    assert "l'action annoncée avant son tour devient obligatoire" in out


@pytest.mark.parametrize("words, book, procedure, qid", [
    ("il reflechit depuis 5 minutes je peux call the clock", "club", "telephone", "usage"),
    ("il reflechit depuis 5 minutes je peux call the clock", "club", "jeton-superieur", "mise-a-suivre"),
    ("un joueur abandonne le tournoi en cours on fait quoi de son tapis", "club", "ordre-abattage", "cas"),
])
def test_question_words_are_not_read_as_facts(kb, words, book, procedure, qid):
    from ruling.decide.from_words import propose

    assert propose(_question(kb, book, procedure, qid), words, kb.glossary) is None


def test_a_question_about_the_dispute_still_reads_the_tds_question(run, kb):
    # « Que faut-il trancher ? » is answered by « celui qui a misé peut-il relancer »
    result = _ask_picking(run, kb, "tda", "tapis plus petit que la relance mini celui qui a mise peut il relancer",
                          "tda:relance-insuffisante", "\n")
    assert "  D'après vos mots : Un joueur qui a déjà agi peut-il relancer après un tapis inférieur à la relance " \
           "minimum ? (Entrée" in result.output


def test_facts_only_keeps_what_happened():
    from ruling.decide.asked import facts_only

    assert facts_only("Relance de 50 seulement, c'est autorisé ?").split() == ["relance", "de", "50", "seulement,", "?"]
    assert facts_only("celui qui a misé peut-il relancer").split() == ["celui", "qui", "a", "mise"]
    assert facts_only("il check puis relance").split() == ["il", "check", "puis", "relance"]  # « puis » is « then »
    assert facts_only("pas assis, est-ce que sa main est morte ?").split() == ["pas", "assis,", "?"]


# -- an amount read as what the question asks (f22: « tapis de 28 sur une mise de 20 ») ------------------

def test_an_all_in_total_over_a_bet_is_read_as_what_it_adds(run, kb):
    result = _ask_picking(run, kb, "cash", "limite tapis de 28 sur une mise de 20 on peut relancer",
                          "cash:mise-tapis-limite", "\n20\n\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "  D'après vos mots : 8 (ce que 28 ajoute à 20) (Entrée pour confirmer" in out
    assert "Le tapis ajoute 8 à la mise à suivre, soit moins de la moitié (10) d'une mise pleine de 20" in out
    assert "-a structure=limite -a mise-pleine=20 -a mise-tapis=8" in out
    assert "reprenons les chiffres" not in out


def test_figures_asked_again_after_a_refusal_keep_their_answers(run, kb):
    # the TD types 28 (the total) anyway: refused; the full bet he typed is proposed again, not lost
    result = _ask_picking(run, kb, "cash", "limite tapis de 28 sur une mise de 20 on peut relancer",
                          "cash:mise-tapis-limite", "\n20\n28\n\n8\n")
    out = result.output
    assert result.exit_code == 0, out
    again = out.split("reprenons les chiffres du calcul.", 1)[1]
    assert "  D'après votre réponse précédente : 20 (Entrée" in again
    assert "  D'après votre réponse précédente : 28 (Entrée" in again
    assert "-a mise-pleine=20 -a mise-tapis=8" in out


# -- a seat read where a seat is asked (f10: « joueur 4 », « le 4 », « siège 4 ») ---------------------------

def test_seats_written_beside_the_button_and_the_blinds_are_proposed(run, kb):
    words = "passage en tete a tete, le bouton est le 1, joueur 2 petite blind elimine, siège 3 gros blind"
    result = _ask_picking(run, kb, "club", words, "club:tete-a-tete", "\no\n1, 3\n\n\n\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "Siège du donneur (bouton) au coup précédent ?\n  D'après vos mots : siège 1 (Entrée" in out
    assert "(« aucune » s'il n'y en avait pas) ?\n  D'après vos mots : siège 2 (Entrée" in out
    assert "Siège de la grosse blind au coup précédent ?\n  D'après vos mots : siège 3 (Entrée" in out
    assert "la grosse blind avance au siège 1 et l'autre joueur (siège 3) devient donneur" in out


@pytest.mark.parametrize("words, qid, seat", [
    ("siège 1 au bouton, siège 2 petite blind, siège 3 gros blind", "ancienne-petite-blind", 2),
    ("bouton siège 3 petite blind siège 5", "ancien-bouton", 3),
    ("le 4 est au bouton", "ancien-bouton", 4),
    ("assis entre le bouton (siège 3) et la petite blind (siège 5)", "ancienne-petite-blind", 5),
    ("gros blind 200, bouton au 4", "ancienne-grosse-blind", None),  # 200 is the blind's amount
    ("la petite blind est à 50", "ancienne-petite-blind", None),
    ("le siège 4 entre le bouton et la petite blind", "ancien-bouton", None),
])
def test_a_seat_is_the_number_written_with_its_marker_beside_the_name(kb, words, qid, seat):
    from ruling.decide.from_words import propose

    proc = next(p for p in kb.procedures if p.book == "club" and p.id == "tete-a-tete")
    question = next(q for q in proc.catalogue.calculators["blinds-suivantes"].inputs if q.id == qid)
    said = propose(question, words, kb.glossary)
    assert (said and said.value) == seat


def test_a_folded_player_asking_to_see_a_called_hand_is_ruled_on_the_words(run, kb):
    # f26: the thrown-away hand is the one he wants to see, not a hand thrown before the winner was declared
    result = _ask_picking(run, kb, "cash", "un joueur couche veut voir la main payee qui est jetee",
                          "cash:les-cartes-parlent", "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "  D'après vos mots : Un joueur demande à voir une main qui a été appelée (Entrée" in out
    assert "Tout joueur qui a reçu une main peut demander à voir toute main qui a été appelée" in out
    assert "cash:etalement-5" in out


def test_a_joker_found_before_acting_is_not_ruled_a_dead_hand_on_the_words(run, kb):
    # issue 12: « joker dans la main avant d'agir » opened main morte, which proposed « il a agi sur une
    # main contenant un joker » and ruled the hand dead; irregularites-8 replaces a joker found before acting
    result = _ask_picking(run, kb, "cash", "joker dans la main avant d agir", "cash:main-morte", "\n")
    out = result.output
    assert "D'après vos mots : Il a agi sur une main contenant un joker" not in out
    assert "(Joker vu avant d'agir : pas de main morte, voyez la situation paquet-defectueux (irregularites-8).)" in out
    assert "Décision — " not in out  # Enter alone decides nothing: the TD chooses
    acted = _ask_picking(run, kb, "cash", "il a agi avec un joker dans la main", "cash:main-morte", "\n")
    assert "  D'après vos mots : Il a agi sur une main contenant un joker" in acted.output


def test_a_joker_found_before_acting_is_replaced(run, kb):
    result = _ask_picking(run, kb, "cash", "joker dans la main avant d agir", "cash:paquet-defectueux", "\n\n\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "quand on l'a découvert ?\n  (Deux joueurs" in out and "  D'après vos mots : non (Entrée" in out
    assert "Le joker est traité comme un déchet et « remplacé selon la règle précédente »" in out


# -- two questions in one dispute (f20, f24): the other case is offered after the decision -------------

def test_the_other_case_of_the_dispute_is_offered_after_the_decision(run, kb):
    # f24: seat 4 keeps his right to act (« oublié »); seat 6's call out of turn is the other question
    result = _ask_picking(run, kb, "cash", "trois joueurs ont agi derriere moi j attendais celui d avant",
                          "cash:action-hors-tour", "3\no\n")
    out = result.output
    assert result.exit_code == 0, out
    offered = out.split("Pour rejouer : ", 1)[1]
    assert "\n\nAutre question sur ce coup ?\n  même situation, autre cas que « Des joueurs ont agi derrière un " \
           "joueur qui n'avait pas encore agi » : ruling ask --book cash action-hors-tour\n" in offered
    from ruling.decide.questionnaire import rank_situations

    others = [p for p in rank_situations(kb, "trois joueurs ont agi derriere moi j attendais celui d avant", "cash")
              if p.situation != "action-hors-tour"][:2]
    assert offered.rstrip().endswith("\n".join(f"  {p.title} : ruling ask --book {p.book} {p.id}" for p in others))


def test_no_follow_up_for_a_situation_named_by_its_id(run):
    result = run("ask", "fausse-donne", "--book", "club", input="n\n1\nn\n")
    assert result.exit_code == 0 and "Autre question sur ce coup ?" not in result.output
