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


@pytest.mark.parametrize("words", ["flop sans burn ordre connu", "flop donne sans burn"])
def test_a_missing_burn_card_in_english_poker_words(kb, words):
    """Trial 4 (h02): « sans burn » left the flop's defect to be asked again."""
    proposal = propose(_question(kb, "club", "flop-irregulier", "defaut"), words, kb.glossary)
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


# -- issue 12, what the TD trial found: words that pre-answered the wrong thing ----------------------
# Each phrasing is from tests/suites/situations_outside.yaml; the value is what the words say (None:
# they say nothing about it), where `ask` used to propose the answer in the comment.

@pytest.mark.parametrize("book, procedure, qid, words, expected", [
    ("tda", "string-bet", "maniere", "il met ses jetons en deux fois pour relancer", "plusieurs-mouvements"),  # en-une-fois
    ("club", "nouvelles-blinds", "etape", "avec deux paquets le coup suivant commence quand pour la montee des blinds",
     None),  # coupe: « coup » and « coupe » share a stem
    ("club", "carte-tombee", "quelle", "il a melange la carte morte avec son autre carte", None),  # autre
    ("club", "erreur-de-mise", "cas", "il manquait 200 dans le pot mais les jetons sont deja ramasses", "erreur"),  # mise-au-centre
    ("club", "main-morte", "cause", "cartes jetees loin du ballot, pas de ligne, il peut les recuperer ?",
     "jetee-hors-ballot"),  # jetee-ballot
    ("club", "recave", "formule", "rebuy annonce pendant le coup il joue avec combien", None),  # recave (seulement)
    ("club", "recave", "formule", "joueur absent a la fin du niveau il a droit a l add on ?", None),  # add-on (seulement)
    ("club", "relance-insuffisante", "erreur", "il dit relance et met que 300 sur une mise de 200",
     "relance-annoncee"),  # mise: « une mise de 200 » is what he faced
    ("tda", "joueur-absent", "cas", "il se leve au milieu du coup alors qu il est encore dedans",
     "quitte-pendant-le-coup"),  # pas-assis
    ("cash", "main-morte", "cause", "main lancee vers le muck et le gars derriere s est couche",
     "lancer-vers-defausse"),  # abandon
    ("cash", "fausse-donne", "cause", "premiere carte au mauvais siege", "premier-siege"),  # premiere-carte
    # counts in letters are figures, but « table 1 » or « quelqu'un » are not a gap of one player
    ("club", "equilibrage", "ecart", "table 1 a 9 joueurs table 2 a 7 qui je deplace", None),
    ("club", "equilibrage", "ecart", "ecart de deux joueurs entre les tables faut bouger quelqu un ?", "deux-ou-plus"),
])
def test_words_no_longer_pre_answer_the_wrong_choice(kb, book, procedure, qid, words, expected):
    proposal = propose(_question(kb, book, procedure, qid), words, kb.glossary)
    assert (proposal.value if proposal else None) == expected


@pytest.mark.parametrize("book, procedure, qid, words, expected", [
    ("club", "chip-race", "jetons-par-joueur", "on retire les jetons de 25 comment on arrondit", None),
    ("club", "chip-race", "autres-jetons", "color up un joueur a plus qu un jeton de 25", None),
    ("club", "partage-du-pot", "engagements", "pot coupe en trois il reste un jeton de 25", None),
    ("tda", "partage-du-pot", "engagements", "pot a partager il reste un jeton de 100 qui le prend", None),
    ("cash", "partage-du-pot", "engagements", "pot coupe en deux il reste 1$ de trop", None),
    ("club", "relance-insuffisante", "mises", "gross misunderstanding il croyait que c etait 1000 pas 10000", None),
    ("club", "relance-minimum", "mises", "ouvrir a 150 avec la bb a 200 c est possible", [150]),
    ("tda", "relance-insuffisante", "mises", "relance a 50% du minimum il doit completer ?", None),
    ("tda", "relance-insuffisante", "mises", "ouverture 400 il relance a 600 au lieu de 800", [400, 600]),
    ("cash", "relance-minimum", "mises", "combien de relances permises en limite a 3 joueurs", None),
    ("cash", "relance-minimum", "mises", "il veut miser avec des jetons de 50 cennes", None),
    ("club", "relance-minimum", "mises", "relance mini en no limit apres une ouverture a 300", [300]),
])
def test_only_bets_are_proposed_as_bets(kb, book, procedure, qid, words, expected):
    # a chip's value, a percentage, a count of players, the big blind or the bet it should have been
    # are not bets of the round
    proc = next(p for p in kb.procedures if p.book == book and p.id == procedure)
    question = next(q for q in proc.used_questions() if q.id == qid)
    proposal = propose(question, words, kb.glossary)
    assert (proposal.value if proposal else None) == expected


def test_a_negated_word_inside_a_phrase_is_not_the_phrase(kb):
    from ruling.decide.procedures import Question

    announced = Question(id="annonce", text="A-t-il annoncé ?", type="bool", words={"oui": ["relance annoncée"]})
    assert propose(announced, "relance sans annonce", kb.glossary) is None
    assert propose(announced, "une relance bien annoncée", kb.glossary).value is True


# -- words not picked up: typed, then asked again ------------------------------------------------------

@pytest.mark.parametrize("book, procedure, qid, words, expected", [
    # the examples of issue 12
    ("club", "fausse-donne", "cause", "un joueur a 3 cartes mais deux ont deja mise", "nombre-incorrect"),
    ("club", "fausse-donne", "cause", "le petit blind a trois cartes", "carte-en-plus-petit-blind"),
    ("club", "fausse-donne", "deux-mises", "un joueur a 3 cartes mais deux ont deja mise", True),
    ("club", "action-hors-tour", "situation-changee", "il a dit call avant son tour puis ca a relance", True),
    ("club", "action-hors-tour", "cas", "il a dit call avant son tour puis ca a relance", "hors-tour"),
    ("club", "relance-minimum", "tour", "relance minimum apres le flop", "apres-flop"),
    ("club", "relance-minimum", "tour", "relance minimum a la turn", "apres-flop"),
    ("club", "relance-minimum", "gros-blind-sans-parler", "relance minimum a la turn", False),
    ("club", "jeton-superieur", "annonce", "jeton superieur sans annonce", "aucune"),
    ("cash", "relance-minimum", "structure", "relance minimum en no limit", "sans-limite"),
    ("tda", "compter-le-pot", "structure", "compter le pot en no limit", "no-limit"),
    ("cash", "fausse-donne", "deux-ont-agi", "maldonne deux joueurs ont agi", True),
    ("club", "fausse-donne", "deux-mises", "fausse donne deux joueurs ont agi", True),
    ("club", "joueur-absent", "format", "retardataire tournoi libre", "libre"),
    # the first words of the trial's stories
    ("club", "carte-flashee", "origine", "le voisin a vu sa carte pendant la donne", "flashee"),
    ("club", "relance-insuffisante", "erreur", "il a mis 800 sur 500 sans rien dire", "relance-sans-annonce"),
    ("club", "relance-insuffisante", "mise-posee", "il a mis 800 sur 500 sans rien dire", 800),
    ("club", "turn-river-irregulier", "defaut", "turn sortie alors qu un joueur avait pas parle", "turn-prematuree"),
    ("club", "jeton-superieur", "annonce", "un seul jeton de 5000 pose sans parler", "aucune"),
    ("club", "jeton-superieur", "valeur-du-jeton", "un seul jeton de 5000 pose sans parler", 5000),
    ("club", "jetons-sur-la-table", "cas", "jeton sorti de la poche au retour de pause", "jetons-de-l-exterieur"),
    ("club", "main-morte", "cause", "le donneur a ramasse les cartes d un joueur qui avait relance", "ramassee"),
    ("club", "recave", "demande", "il veut recave et addon a la fin des recaves", "les-deux"),
    ("club", "recave", "formule", "freezout un joueur demande a se recaver", "freezout"),
    ("tda", "relance-insuffisante", "demande", "petit tapis sur une mise le premier peut il relancer", "reouverture"),
    ("tda", "jeton-superieur", "mise-a-suivre", "gros jeton seul en ouverture au flop", False),
    ("tda", "table-fermee", "place", "table cassee il arrive entre bouton et sb", "entre-bouton-et-petite-blind"),
    ("tda", "demander-le-temps", "demandeur-assis", "demander le temps debout", False),
    ("cash", "jeton-superieur", "annonce-relance", "jeton de 25 pose sans parler sur une mise de 8", False),
    ("cash", "paquet-defectueux", "defaut", "as de pique en double", "carte-en-double"),
    ("cash", "paquet-defectueux", "a-agi", "joker dans la main avant d agir", False),
    ("cash", "fausse-donne", "deux-ont-agi", "premiere carte au mauvais siege, deux ont deja agi", True),
    ("cash", "mise-tapis-limite", "mise-tapis", "en limite un tapis de 2 dans une ronde a 6", 2),
    ("cash", "mise-tapis-limite", "mise-pleine", "en limite un tapis de 2 dans une ronde a 6", 6),
    ("cash", "ordre-abattage", "pot-secondaire", "qui etale en premier avec une cagnotte secondaire", True),
    ("infos", "relance-minimum", "demande", "relance de 50 seulement c est valable", "minimum"),
    ("infos", "jetons-sur-la-table", "cas", "il a rajoute des jetons de sa poche", "jetons-de-l-exterieur"),
])
def test_typed_facts_pre_answer_the_question_that_asks_them(kb, book, procedure, qid, words, expected):
    proc = next(p for p in kb.procedures if p.book == book and p.id == procedure)
    question = next(q for q in proc.used_questions() if q.id == qid)
    proposal = propose(question, words, kb.glossary)
    assert proposal is not None and proposal.value == expected, proposal


def test_a_choice_given_no_words_is_never_proposed(kb):
    # « autre » is the case left when the others are not: a description never says it
    question = _question(kb, "club", "carte-tombee", "quelle")
    assert question.words["autre"] == []
    assert propose(question, "une autre carte est tombee", kb.glossary) is None


def test_words_must_name_an_answer_of_their_question(kb_copy, run):
    path = kb_copy / "club" / "procedures" / "fausse-donne.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("      nombre-incorrect: [", "      nombre-faux: [", 1), encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert "la question « cause » (choice) a des words « nombre-faux » ; attendu carte-en-plus-petit-blind, " \
           "mauvais-ordre, nombre-incorrect, premiere-carte, seconde-retournee" in result.output


@pytest.mark.parametrize("book, procedure, qid, words, expected", [
    # phrasings of the outside suite whose first question the words already answered
    ("club", "absence-prolongee", "cas", "player leaves for good ses jetons partages entre les autres ?", "definitif"),
    ("club", "absence-prolongee", "cas", "le gars est parti depuis 20 min personne sait ou il est", "signalee"),
    ("club", "check-raise", "cas", "il check puis relance, l autre gueule que c est interdit", "check-raise"),
    ("club", "comportement", "faute", "deux joueurs se parlent en arabe a la table", "langue"),
    ("club", "donner-des-jetons", "cas", "chip dump evident entre deux joueurs", "don"),
    ("club", "flop-irregulier", "defaut", "il a sorti le flop alors que le bouton avait pas parle", "premature"),
    ("club", "jetons-sur-la-table", "cas", "un joueur a une biere posee a cote de ses jetons", "boisson"),
    ("club", "joueur-absent", "cas", "un inscrit arrive en retard, on lui a pris les blinds ?", "retardataire"),
    ("club", "melange-et-coupe", "cas", "la coupe a laisse 2 cartes seulement dans un tas", "coupe-irreguliere"),
    ("club", "telephone", "usage", "il regarde un film sur sa tablette entre deux coups", "jeu-ou-film"),
    ("club", "tete-a-tete", "moment", "on passe a deux joueurs le bouton reste sur le meme gars", "passage"),
    ("tda", "comportement", "faute", "un joueur couche lit le board a voix haute", "une-main-un-joueur"),
    ("tda", "jetons-sur-la-table", "cas", "il cache ses plaques de 5000 sous sa main", "grosses-coupures-cachees"),
    ("tda", "les-cartes-parlent", "cas", "pot donne au mauvais joueur par erreur", "erreur-d-attribution"),
    ("tda", "recave", "cas", "recave demandee apres avoir loupe une main", "tardive"),
    ("tda", "table-fermee", "place", "joueur d une table cassee arrive au bouton il recoit des cartes ?", "autre"),
    ("cash", "flop-irregulier", "defaut", "le flop est sorti avant que tout le monde ait appele", "premature"),
    ("cash", "main-morte", "cause", "cartes lancees sur celles d un autre joueur", "jetee-sur-une-main"),
    ("cash", "paquet-defectueux", "defaut", "carte avec un dos bleu dans le paquet rouge", "dos-different"),
    ("cash", "relance-minimum", "demande", "il veut miser avec des jetons de 50 cennes", "petits-jetons"),
    ("cash", "string-bet", "maniere", "il met l appel puis retourne chercher des jetons", "plusieurs-mouvements"),
    ("cash", "turn-river-irregulier", "defaut", "croupier a tourne la riviere avant le dernier appel", "river-prematuree"),
    ("infos", "comportement", "faute", "spectateur qui donne des conseils", "remarque-hors-du-coup"),
    ("infos", "jetons-sur-la-table", "cas", "il tient ses cartes sous la table", "cartes-cachees"),
])
def test_the_suite_phrasings_answer_their_first_question(kb, book, procedure, qid, words, expected):
    proposal = propose(_question(kb, book, procedure, qid), words, kb.glossary)
    assert proposal is not None and proposal.value == expected, proposal


@pytest.mark.parametrize("book", ["club", "tda"])
def test_first_to_speak_does_not_mean_no_bet_to_call(kb, book):
    """Reading 14: before the flop the first to speak faces the big blind; « premier à parler » pre-answered
    « pas de mise à suivre » and led to « il récupère son jeton »."""
    question = _question(kb, book, "jeton-superieur", "mise-a-suivre")
    assert propose(question, "premier a parler avant le flop il pose un gros jeton seul sans rien dire", kb.glossary) is None
    assert propose(question, "apres le flop il ouvre avec un jeton de 1000", kb.glossary).value is False


def test_a_checked_river_means_no_bet_on_the_last_round(kb):
    """Trial 4 (h18): « river checkee » was asked again as « une mise au dernier tour ? »."""
    last_bet = _question(kb, "tda", "ordre-abattage", "mise-au-dernier-tour")
    assert propose(last_bet, "abattage apres river checkee qui montre", kb.glossary).value is False
    assert propose(last_bet, "abattage apres une mise a la river", kb.glossary) is None


# The seventh trial (2026-12-03): three words turned into false facts.

def test_players_who_spoke_did_not_tap_the_table(kb):
    # c07: « parlé » (acted) met the glossary's « je parle » (a check), i.e. « taper sur la table »
    question = _question(kb, "cash", "annonce-verbale", "cas")
    assert propose(question, "3 joueurs ont parle derriere lui, il n avait pas joue", kb.glossary) is None
    assert propose(question, "il a tape sur la table", kb.glossary).value == "tape-la-table"


def test_two_kings_of_different_suits_are_no_duplicate_card(kb):
    # c05: « deux rois » proposed « Deux cartes de même sorte et de même valeur »
    question = _question(kb, "cash", "paquet-defectueux", "defaut")
    assert propose(question, "tirage du bouton deux rois coeur et pique", kb.glossary) is None
    # « as » is a stop word: « deux as de pique » reads « deux … pique », as « deux rois, cœur et
    # pique » does; so it proposes nothing either (the TD picks the choice), never a false fact
    assert propose(question, "deux as de pique", kb.glossary) is None
    assert propose(question, "deux fois la meme carte dans le paquet", kb.glossary).value == "carte-en-double"


def test_a_figure_that_counts_something_else_is_not_the_named_one(kb):
    # t03: « 2 tours à 9 joueurs » proposed 9 tours
    words = "exclusion 2 tours a 9 joueurs combien de mains"
    assert propose(_question(kb, "tda", "duree-penalite", "tours"), words, kb.glossary).value == 2
    assert propose(_question(kb, "tda", "duree-penalite", "joueurs-a-la-table"), words, kb.glossary).value == 9
