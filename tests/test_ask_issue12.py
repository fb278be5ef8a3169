"""Issue 12: the picker's one ranking and house book, empty bets, exit codes, unused answers,
compare in free words, long clauses on a phone, and the picker's top-1 on the outside suite."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _picker(output: str) -> list[str]:
    """The `book:id` of each proposal the picker printed, in order."""
    lines = output.split("Situations possibles :\n", 1)[1].split("\nVotre choix", 1)[0].splitlines()
    return [line.rsplit("[", 1)[1].rstrip("]") for line in lines]


def test_picker_shows_the_search_ranking_in_its_order(run):
    searched = json.loads(run("search", "carte", "flashee", "--kind", "procedure", "--json").output)["hits"]
    result = run("ask", "carte", "flashee", input="\n")
    shown = _picker(result.output)
    first_of_search = f"{searched[0]['book']}:{searched[0]['procedure']}"
    assert shown[0] == first_of_search == "club:carte-flashee"


def test_house_book_comes_first_and_can_be_overridden(run, monkeypatch, tmp_path):
    assert _picker(run("ask", "demander", "le", "temps", input="\n").output)[0] == "club:demander-le-temps"
    assert _picker(run("ask", "demander", "le", "temps", "--book", "tda", input="\n").output)[0] == "tda:demander-le-temps"
    profile = tmp_path / "profil.yaml"
    profile.write_text("book: cash\n", encoding="utf-8")
    assert _picker(run("ask", "demander", "le", "temps", "--profile", profile, input="\n").output)[0] == \
        "cash:demander-le-temps"
    monkeypatch.setenv("RULING_BOOK", "tda")
    assert _picker(run("ask", "demander", "le", "temps", input="\n").output)[0] == "tda:demander-le-temps"


def test_unknown_house_book_is_one_french_line(run, monkeypatch):
    monkeypatch.setenv("RULING_BOOK", "clubb")
    result = run("ask", "flop", input="\n")
    assert result.exit_code == 2 and "club" in result.stderr and "Traceback" not in result.output


def test_house_book_must_name_a_book(run, kb_copy):
    (kb_copy / "base.yaml").write_text("house_book: casino\n", encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1 and "house_book « casino » n'est pas un livre de la base" in result.output


def test_short_all_in_under_the_big_blind_pre_flop_with_no_bet_typed(run):
    # situation 1 (relance minimum), the minimum, pre-flop, big blind 100, Enter: nobody has bet yet
    result = run("ask", "--book", "club", "tapis", "inferieur", "au", "gros", "blind", "avant", "flop",
                 input="1\n1\n1\n100\n\n")
    assert result.exit_code == 0, result.output
    assert "Avant le flop, ne tapez pas le gros blind" in result.output
    assert "Montants en jetons, séparés par des virgules (« aucun » ou Entrée : aucun)" in result.output
    assert "il faut suivre 100 ; une relance doit porter le total à 200 au moins" in result.output
    assert "-a mises=" in result.output


def test_pre_flop_says_why_390_and_not_490(run):
    result = run("decide", "relance-minimum", "--book", "club", "-a", "demande=minimum", "-a", "tour=avant-flop",
                 "-a", "grosse-blind=100", "-a", "mises=200,290")
    assert result.exit_code == 0
    assert "une relance doit porter le total à 390 au moins" in result.output
    assert "l'exemple ne dit pas à quel tour d'enchères il se joue. Le règlement ne le précise pas ; " in result.output
    assert "avant le flop, l'ouverture à 200 sur un gros blind de 100 n'est qu'une relance de 100, " \
           "donc le minimum est le tapis plus 100 (390)" in result.output


def test_unused_answer_is_warned_and_listed_in_json(run):
    args = ("decide", "relance-minimum", "--book", "club", "-a", "demande=minimum", "-a", "tour=apres-flop",
            "-a", "grosse-blind=100", "-a", "mises=200", "-a", "mise-du-joueur=200")
    result = run(*args)
    assert result.exit_code == 0
    assert "Avertissement : réponse non utilisée par cette décision : mise-du-joueur" in result.stderr
    data = json.loads(run(*args, "--json").stdout)
    assert data["unused"] == ["mise-du-joueur"] and data["outcome"] == "minimum"
    assert json.loads(run(*args[:-2], "--json").stdout)["unused"] == []


def test_compare_accepts_free_words(run):
    result = run("compare", "flop", "avec", "quatre", "cartes")
    assert result.exit_code == 0
    assert "D'après vos mots : situation flop-irregulier" in result.stderr
    assert result.stdout.startswith("Situation flop-irregulier — ")


def test_long_clause_shows_its_key_sentence_unless_full(run):
    # club:15-1 (the sanctions, 1150 characters) is cited after the decision on a phone at the table
    short = run("ask", "telephone", "--book", "club", input="2\n").output
    decision_at = short.index("Un joueur assis à la table ne peut utiliser ni téléphone")
    key_at = short.index("« Si une même faute se répète avec le même joueur, les sanctions suivantes")
    assert decision_at < key_at
    # trial g09: « Avertissement (warning). … Le joueur doit s'éloigner de la table » read as if a
    # warning sent him away; the sentence comes with the first words of its own item now
    item_at = short.index("  · Suspension momentanée du tournoi pour une donne")
    assert key_at < item_at < short.index("Le joueur doit\n    s'éloigner de la table") if "doit\n" in short \
        else key_at < item_at < short.index("s'éloigner de la table")
    assert "« …" not in short  # the excerpt starts at the clause's first sentence: nothing is cut before
    assert "(règle longue, 1150 caractères : texte entier avec --full, ou ruling show club:15-1)" in short
    assert "Disqualification" not in short
    full = run("ask", "telephone", "--book", "club", "--full", input="2\n").output
    assert "(règle longue" not in full and "Disqualification" in full


def test_picker_top1_on_the_outside_suite(kb):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from picker_accuracy import accuracy
    finally:
        sys.path.pop(0)
    result = accuracy(kb)
    right, total, _ = result["held_out"]
    train_right, train_total, _ = result["train"]
    assert (total, train_total) == (271, 1068)
    assert right >= HELD_OUT_RIGHT and train_right >= TRAIN_RIGHT, (right, train_right)


#: 48/57 with the coverage factor (issue 15) after the readings of 2026-12-02 (45 without it; never
#: tuned on); with the fifth outside batch (120 phrasings, 32 of them held out) 78/89 before and
#: after tuning on its training part; with the sixth (90 phrasings, 21 held out) 93/110 before and
#: after tuning on its training part, 96/110 with the training phrasings searched
#: (rulebook/phrasings.yaml); with the eighth (90 phrasings, 86/90 before any tuning; 19 held out,
#: all right) 115/129; with the ninth (80 phrasings, 70/79 before any tuning; 12 held out) 126/141;
#: with the tenth (189 phrasings, 150/189 before any tuning; 38 held out, 27 right) 155/179 (the
#: 141 earlier ones 128), 156/179 with ranking.PAIR_WEIGHT 0.5 (the 141: 130); with the eleventh (189
#: phrasings, 154/189 before any tuning; 42 held out, 33 right) 189/221; with the twelfth (285
#: phrasings, 250/285 before any tuning; 50 held out, 43 right, the 221 earlier ones still 189)
#: 232/271, 235/271 without phrases looked for in the phrasings (ranking.PHRASE_FIELDS; the 221:
#: 190), 236/271 with each phrasing compared whole to the words (ranking.SAID_WEIGHT):
#: scripts/picker_accuracy.py
HELD_OUT_RIGHT = 236
#: 394/401 with the phrasings (they are these very words; cv, each fold without its own: 313 -> 335);
#: 464/472 with the eighth batch (cv 408/472), 530/539 with the ninth (cv 469/539), 674/690 with the
#: tenth (cv 590/690), 676/690 with PAIR_WEIGHT 0.5 (cv 592/690), 679/690 without phrases in
#: "cited" (ranking.PHRASE_FIELDS, cv 595/690), 821/837 with the eleventh batch (cv 726/837),
#: 1048/1068 with the twelfth (cv 937/1068), 1047/1068 without phrases in the phrasings (cv 935/1068),
#: 1064/1068 with each phrasing compared whole (ranking.SAID_WEIGHT; cv 934 -> 952 of 1068, the folds'
#: own phrasings left out whole)
TRAIN_RIGHT = 1064


def test_question_mark_explains_the_question_with_its_clauses(run):
    result = run("ask", "fausse-donne", "--book", "club", input="?\nn\n1\nn\n")
    assert "  o = oui, n = non\n  Cette question vient de : club:2-17, club:2-9, club:15-1, club:2-4, club:2-20" in result.output
    assert result.exit_code == 0 and "Décision — " in result.output


def test_i_dont_know_gives_each_possibility_side_by_side(run):
    result = run("ask", "fausse-donne", "--book", "club", input="je ne sais pas\n1\nn\n")
    assert result.exit_code == 0
    out = result.output
    assert "Réponse inconnue à « L'irrégularité vient-elle d'un acte volontaire d'un joueur ? »" in out
    assert "• Si : oui\n  → Aucune fausse donne ne peut être annoncée" in out
    assert "• Si : non\n  → Il y a fausse donne ; le coup est annulé" in out
    # the unknown answer was not guessed: the questions that separate nothing more were still asked
    assert "Quelle est l'irrégularité de la donne ?" in out


def test_i_dont_know_is_refused_for_an_amount(run):
    """The bet to call is never left unknown (only the big blind may be, when it changes nothing)."""
    result = run("ask", "--book", "club", "relance-insuffisante", input="1\n2\nn\nn\n200\nje ne sais pas\n250\n")
    assert "Un montant ne se devine pas : comptez-le" in result.output


def test_unknown_big_blind_that_changes_nothing_gives_the_decision_with_its_range(run):
    """Trial 7, t01: after the flop, a bet of 1000 then an all-in to 1400; the big blind, which the
    story does not give, changes nothing for any blind up to the 1000 bet, so it is not invented."""
    result = run("ask", "--book", "tda", "tapis", "1400", "sur", "une", "mise", "de", "1000,", "le", "premier",
                 "peut", "il", "relancer", input="\n\n2\nje ne sais pas\n1000, 1400\n1000\n")
    out = result.output
    assert result.exit_code == 0, out[-500:]
    assert ("Pour toute réponse à « Montant du gros blind en cours ? » jusqu'à 1000 (le plus petit montant tapé), "
            "la décision est la même :\nAucun des tapis qui ont suivi n'est une relance complète (au moins 1000 de "
            "plus) : il ne peut que suivre 1400 ou passer.") in out
    assert "au minimum à 2400 au total" in out
    assert "Au-delà de 1000, tapez le montant : la décision peut changer." in out
    assert "Les relances insuffisantes\nSi un joueur fait une relance insuffisante" in out  # the clause, verbatim
    assert "-a 'grosse-blind=?'" in out


def test_unknown_big_blind_that_changes_the_decision_is_asked_again(run):
    """Before the flop the big blind is the bet to call: « je ne sais pas » cannot stand, the blind is
    asked again (a second « je ne sais pas » is refused), and the typed blind decides."""
    result = run("ask", "--book", "club", "relance", "minimum",
                 input="1\n1\n1\nje ne sais pas\n300\nje ne sais pas\n100\n")
    out = result.output
    assert result.exit_code == 0, out[-500:]
    assert ("« Montant du gros blind en cours ? » change la décision avec les montants tapés : ce montant ne se "
            "devine pas ; comptez-le ou demandez-le, puis tapez-le.") in out
    assert "Un montant ne se devine pas : comptez-le" in out
    assert "il faut suivre 300 ; une relance doit porter le total à 500 au moins (écart minimum 200)" in out


def test_decide_with_an_unknown_big_blind_json(run):
    args = ["decide", "relance-insuffisante", "--book", "tda", "-a", "demande=reouverture", "-a", "tour=apres-flop",
            "-a", "mises=1000,1400", "-a", "mise-du-joueur=1000", "-a", "grosse-blind=?"]
    data = json.loads(run(*args, "--json").output)
    assert data["amount_holds_upto"] == {"grosse-blind": 1000}
    assert len(data["cases"]) == 1 and data["cases"][0]["outcome"] == "reouverture"
    assert "il ne peut que suivre 1400 ou passer" in data["cases"][0]["decision"]
    before = ["decide", "relance-minimum", "--book", "club", "-a", "demande=minimum", "-a", "tour=avant-flop",
              "-a", "mises=300", "-a", "grosse-blind=?"]
    result = run(*before)
    assert result.exit_code == 2
    assert "« Montant du gros blind en cours ? » change la décision avec les montants tapés" in result.output


def test_amount_grid_holds_each_breakpoint_and_the_value_below(kb):
    from ruling.decide.unknown import amount_grid

    proc = next(p for p in kb.procedures if p.book == "tda" and p.id == "relance-insuffisante")
    grid = amount_grid(proc, {"mises": [1000, 1400], "mise-du-joueur": 1000})
    assert grid[:4] == [1, 99, 100, 199] and {999, 1000, 1099, 1100, 1399, 1400, 1499, 1500} <= set(grid) and 1001 not in grid
    assert amount_grid(proc, {}) == [1]


def test_decide_with_question_mark_answer(run):
    args = ("decide", "fausse-donne", "--book", "club", "-a", "volontaire=?")
    short = run(*args)
    assert short.exit_code == 2
    assert "Pour départager les cas, il faut savoir : -a cause=…" in short.stdout
    full = run(*args, "-a", "cause=premiere-carte", "-a", "deux-mises=non", "--json")
    data = json.loads(full.stdout)
    assert full.exit_code == 0 and data["unknown"] == ["volontaire"]
    assert [(c["assumed"], c["outcome"]) for c in data["cases"]] == \
        [({"volontaire": True}, "joueur-seul-hors-du-coup"), ({"volontaire": False}, "fausse-donne-redonner")]


def test_words_of_the_description_pre_answer_choices_and_amounts(run):
    result = run("ask", "--book", "club", "ouverture", "200", "tapis", "290", "relance", "minimum", "apres", "flop",
                 input="\n\n\n100\n\n")
    out = result.output
    assert result.exit_code == 0
    assert "  D'après vos mots : Au flop, à la turn ou à la river (Entrée pour confirmer, ou répondez autrement)" in out
    assert "  D'après vos mots : 200, 290 (Entrée pour confirmer" in out
    assert "-a tour=apres-flop -a grosse-blind=100 -a mises=200,290" in out
    assert "minimum 490 au total" in out


def test_a_pre_answer_can_be_changed(run):
    result = run("ask", "--book", "club", "ouverture", "200", "tapis", "290", "relance", "minimum", "apres", "flop",
                 input="\n\n1\n100\n300\n")
    assert result.exit_code == 0
    assert "-a tour=avant-flop -a grosse-blind=100 -a mises=300" in result.output


def test_words_pre_answer_a_negated_choice(run):
    result = run("ask", "--book", "club", "relance", "insuffisante", "sans", "annonce", input="\n\n")
    assert "  D'après vos mots : Une relance trop petite, sans avoir annoncé « relance »" in result.output


def test_thousands_in_the_description_are_one_amount(run):
    result = run("ask", "--book", "club", "relance", "minimum", "ouverture", "2 500", "apres", "flop",
                 input="\n1\n\n100\n")
    assert "  D'après vos mots : 2500 (Entrée" in result.output


def test_clock_just_called_gives_what_happens_next(run):
    result = run("ask", "demander", "le", "temps", "--book", "club", input="\n1\n")
    out = result.output
    assert result.exit_code == 0
    assert "a-t-il laissé passer la minute" not in out  # not asked: it has not happened yet
    assert "Si ce temps raisonnable s'est déjà écoulé, le chrono est lancé : le joueur a 1 minute, puis un décompte de " \
           "10 secondes ; sinon, la minute ne court qu'une fois ce temps raisonnable écoulé. S'il n'a pas agi à la fin " \
           "du décompte, sa main est morte." in out


def test_short_all_in_says_what_the_opener_and_the_players_behind_may_do(run):
    # « ouverture 200, tapis 290 », after the flop: the opener may only call, players behind may raise to 490
    result = run("ask", "--book", "club", "ouverture", "200", "tapis", "290", "apres", "flop", "peut", "il",
                 "sur-relancer", input="1\n2\nn\n\n100\n\n200\n")  # n: not the big blind who has only posted
    out = result.output
    assert result.exit_code == 0, out
    assert "il ne peut que suivre 290 ou passer. Les joueurs placés après, qui n'ont pas encore agi, peuvent " \
           "suivre 290 ou sur-relancer, au minimum à 490 au total." in out


def test_a_decision_drawn_from_two_sentences_shows_both(run):
    # TD trial: the direct suspension of 15-1 was cut away, the sentence on who judges was shown alone
    out = run("ask", "--book", "club", "sanction", "directe", "faute", "grave", input="\n1\no\n").output
    assert "seul habilité à juger du caractère volontaire" in out
    assert "peut directement suspendre un joueur ou le disqualifier" in out.replace("\n", " ")


# -- the questionnaire part of the TD trial (issue 12): examples of the issue and first words of the stories

@pytest.mark.parametrize("words, book, expected", [
    ("carte flashee", "club", "club:carte-flashee"),
    ("fausse donne apres des mises", "club", "club:fausse-donne"),
    ("demander le temps", "club", "club:demander-le-temps"),
    ("relance insuffisante sans annonce", "club", "club:relance-insuffisante"),
    ("tete a tete petit blind", "club", "club:tete-a-tete"),
    ("jetons sortis de la poche", "club", "club:jetons-sur-la-table"),
    ("deux as de pique dans la meme main", "cash", "cash:paquet-defectueux"),
])
def test_the_issue_examples_are_proposed_first(kb, words, book, expected):
    from ruling.decide.questionnaire import rank_situations

    first = rank_situations(kb, words, book)[0]
    assert f"{first.book}:{first.id}" == expected


def _ask_picking(run, kb, book: str, words: str, procedure: str, answers: str):
    """`ruling ask --book BOOK WORDS`, picking `procedure` in the list, then typing `answers`."""
    from ruling.decide.questionnaire import rank_situations

    ranked = [f"{p.book}:{p.id}" for p in rank_situations(kb, words, book)]
    return run("ask", "--book", book, *words.split(), input=f"{ranked.index(procedure) + 1}\n{answers}")


def test_figures_refused_twice_as_they_were_are_not_proposed_a_third_time(run):
    # trial t03: Enter on a refused figure looped, « reçu 9 ; reprenons », 9 proposed again
    result = run("ask", "--book", "tda", "duree-penalite", input="o\n9\n9\n\n\n")
    out = result.output
    assert out.count("l'exclusion temporaire est de 1 à 4 tours (reçu 9) ; reprenons les chiffres du calcul.") == 2
    assert out.count("D'après votre réponse précédente : 9") == 2  # once per figure, after the first refusal only
    assert result.exit_code == 1 and out.rstrip().endswith("Fin de l'entrée avant la décision : aucune décision.")


def test_the_format_of_an_absent_player_can_be_left_unknown(run):
    result = run("ask", "--book", "club", "joueur-absent", input="3\nje ne sais pas\nn\n")
    assert result.exit_code == 0, result.output
    assert "Réponse inconnue à « Quel est le type de tournoi ? » : voici la décision dans chaque cas." in result.output
    assert "-a 'format=?'" in result.output


def test_the_aberration_question_quotes_2_20_and_leaves_it_to_the_td(kb, run):
    proc = next(p for p in kb.procedures if p.book == "club" and p.id == "fausse-donne")
    question = proc.question("aberration")
    assert "par exemple" not in question.text  # the old example was not the text's
    quoted = question.help.split("« ", 1)[1].split(" »", 1)[0]
    assert quoted in kb.clause("club:2-20").text
    assert "Le règlement ne définit pas l'aberration et n'en donne pas d'exemple : c'est à l'arbitre d'en juger." \
        in question.help
    result = run("ask", "--book", "club", "fausse-donne", input="n\n4\no\n?\nn\n")
    assert result.exit_code == 0, result.output
    explained = result.output.split("« Continuer le coup serait-il une aberration, au sens de 2-20 ? »", 1)[1]
    assert "2-20 : « le jeu continu tel quel mais uniquement avec les joueurs non concernés" in explained
    assert "Cette question vient de : club:2-20, club:2-17 (ruling show club:2-20)." in explained


def test_three_cards_after_two_bets_goes_through_on_the_words(run, kb):
    # trial t06: only « volontaire ? » and « aberration ? » are typed; the count and the two bets come from the words
    result = _ask_picking(run, kb, "club", "un joueur a 3 cartes mais deux ont deja mise", "club:fausse-donne",
                          "n\n\n\nn\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "  D'après vos mots : Un joueur a reçu un nombre incorrect de cartes (Entrée" in out
    assert "  D'après vos mots : oui (Entrée" in out
    assert "le coup continue tel quel, mais uniquement avec les joueurs qui ne sont pas directement concernés" in out


def test_a_short_all_in_in_limit_is_ruled_on_the_words_alone(run, kb):
    # trial t26: structure, full bet and all-in all read from « en limite un tapis de 2 dans une ronde a 6 »
    result = _ask_picking(run, kb, "cash", "en limite un tapis de 2 dans une ronde a 6", "cash:mise-tapis-limite",
                          "\n\n\n")
    out = result.output
    assert result.exit_code == 0, out
    assert out.count("  D'après vos mots : ") == 3
    assert "Le tapis ajoute 2 à la mise à suivre, soit moins de la moitié (3) d'une mise pleine de 6" in out
    assert "-a structure=limite -a mise-pleine=6 -a mise-tapis=2" in out


def test_a_call_out_of_turn_then_a_raise(run, kb):
    # trial t11: « puis ça a relancé » answers that the situation changed
    result = _ask_picking(run, kb, "club", "il a dit call avant son tour puis ca a relance", "club:action-hors-tour",
                          "\no\n\nn\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "Entre son annonce et son tour, un joueur a-t-il ouvert ou relancé ?\n  D'après vos mots : oui" in out
    assert "il ne peut pas relancer" in out


def test_two_time_requests_one_standing_are_ruled_in_one_run(run, kb):
    # trial t18: a standing player and a seated one both ask for the clock; « je ne sais pas » gives both
    result = _ask_picking(run, kb, "tda", "demander le temps debout", "tda:demander-le-temps", "je ne sais pas\n1\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "(Deux demandes, l'une debout, l'autre assis ? « je ne sais pas » donne la décision de chacune côte à côte.)" in out
    assert "• Si : oui\n  → Le temps est décompté au joueur : une minute complète" in out
    assert "• Si : non\n  → La demande n'est pas recevable. Il faut être assis à sa place pour demander le temps." in out


def test_two_jokers_before_and_after_acting_are_ruled_in_one_run(run, kb):
    # trial t24: seat 4 finds a joker before acting, seat 8 after calling
    result = _ask_picking(run, kb, "cash", "joker dans la main", "cash:paquet-defectueux", "\nje ne sais pas\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "« je ne sais pas » donne la décision de chacun côte à côte." in out
    assert "• Si : oui\n  → La main du joueur est morte" in out and "• Si : non\n  → Il n'y a pas de maldonne." in out


def test_the_bets_question_says_not_to_type_the_offending_bet(run, kb):
    # trial t02: « 800 sur 500 » — typing 500, 800 as the bets made the calculator refuse the 800
    result = _ask_picking(run, kb, "club", "il a mis 800 sur 500 sans rien dire", "club:relance-insuffisante",
                          "\n2\nn\n200\n500\n\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "Quand on juge une mise ou une relance trop petite, ne la tapez pas ici : elle est demandée ensuite" in out
    assert "-a erreur=relance-sans-annonce -a tour=apres-flop -a deja-mise=non -a grosse-blind=200 -a mises=500 -a mise-posee=800" in out


def test_chip_race_for_one_player_needs_no_invented_figure(run):
    """Trial 7, g07: « chip race il a 3 jetons de 25 combien il recoit ». The 25 comes from the words,
    one count stands for one player, and his other chips, which cannot change a 3-chip exchange,
    may be left unknown."""
    result = run("ask", "--book", "club", "chip", "race", "il", "a", "3", "jetons", "de", "25", "combien", "il",
                 "recoit", input="\n1\n1\no\n\n100\n3\nje ne sais pas\n")
    out = result.output
    assert result.exit_code == 0, out[-500:]
    assert "Valeur des jetons retirés du jeu ?\n  D'après vos mots : 25" in out
    assert "pour un seul joueur, tapez son seul nombre (3)" in out
    assert ("Quelle que soit la réponse à « Valeur des autres jetons (non retirés) de chaque joueur, dans le même "
            "ordre ? », la décision est la même :") in out
    assert "joueur 1 : 3 × 25 = 75 → 1 × 100\nJetons de remplacement par joueur : 1" in out


def test_chip_race_other_chips_that_matter_are_asked_again(run):
    """A player with a single removed chip loses it unless he has nothing else (12-1, 12-6): there his
    other chips change the decision, so « je ne sais pas » cannot stand."""
    args = ["decide", "chip-race", "--book", "club", "-a", "moment=chip-race", "-a", "methode=direct", "-a", "chiffres=oui",
            "-a", "jeton-retire=25", "-a", "jeton-arrondi=100", "-a", "jetons-par-joueur=1,3", "-a", "autres-jetons=?"]
    result = run(*args)
    assert result.exit_code == 2
    assert "« Valeur des autres jetons (non retirés) de chaque joueur, dans le même ordre ? » change la décision" in result.output
