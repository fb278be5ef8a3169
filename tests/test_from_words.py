"""« D'après vos mots » never turns the TD's words around: a negated word is not the word, the
amounts are proposed only in an order they can have, a figure is read beside its name, and no
figure is proposed that nobody gave (the trial's findings t04, t22, t02, t20, t01)."""
from __future__ import annotations

import pytest

from ruling.decide.from_words import propose


def _question(kb, book: str, procedure: str, qid: str):
    proc = next(p for p in kb.procedures if p.book == book and p.id == procedure)
    return proc.question(qid)


@pytest.mark.parametrize("words, expected", [
    ("flop sans brulee on connait l ordre", True),
    ("flop sans brulee l ordre est connu", True),
    ("flop sans brulee on ne connait pas l ordre", False),
    ("flop sans carte brulee ordre inconnu", False),
])
def test_the_known_order_of_the_flop_is_read_the_right_way_round(kb, words, expected):
    proposal = propose(_question(kb, "club", "flop-irregulier", "ordre-connu"), words, kb.glossary)
    assert proposal is not None and proposal.value is expected


def test_a_missing_burn_card_is_still_read_through_one_word(kb):
    proposal = propose(_question(kb, "club", "flop-irregulier", "defaut"), "flop sans carte brulee", kb.glossary)
    assert proposal is not None and proposal.value == "sans-brulee"


def test_without_a_word_is_not_the_word(kb):
    question = _question(kb, "cash", "annonce-verbale", "cas")
    assert propose(question, "jeton de 25 pose sans parler sur une mise de 8", kb.glossary) is None
    assert propose(question, "il a tape sur la table", kb.glossary).value == "tape-la-table"


def test_amounts_are_proposed_only_when_they_rise(kb):
    question = _question(kb, "club", "relance-insuffisante", "mises")
    assert propose(question, "il a mis 800 sur 500 sans rien dire", kb.glossary) is None
    assert propose(question, "ouverture 200 tapis 290", kb.glossary).value == [200, 290]


def test_a_figure_is_read_beside_its_name(kb):
    tours = _question(kb, "tda", "duree-penalite", "tours")
    assert propose(tours, "exclusion 2 tours combien de mains", kb.glossary).value == 2
    assert propose(tours, "exclusion combien de mains", kb.glossary) is None
    blind = _question(kb, "club", "relance-minimum", "grosse-blind")
    assert propose(blind, "blinds 100/200 grosse blind 200 ouverture 600", kb.glossary).value == 200


@pytest.mark.parametrize("book, procedure, qid", [
    ("club", "relance-minimum", "grosse-blind"), ("cash", "relance-minimum", "grosse-blind"),
    ("tda", "duree-penalite", "tours"), ("club", "chip-race", "jeton-retire"),
])
def test_no_figure_of_the_event_is_proposed_by_default(kb, book, procedure, qid):
    proc = next(p for p in kb.procedures if p.book == book and p.id == procedure)
    question = proc.question(qid)
    assert question is not None, f"{book}:{procedure} n'a pas de question {qid}"
    assert question.default is None
