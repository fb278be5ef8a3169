"""Issue 12, what was left: figures asked as what they are (kinds), the chip race with its cards,
numbers only when they matter, what has not happened yet (the clock in every book), and
« ? » / « je ne sais pas » at every question of every procedure."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from ruling.decide.engine import candidates, parse_answer
from ruling.decide.kinds import KindError, parse_card, parse_value
from ruling.decide.procedures import Question
from ruling.errors import UserError

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node") or "/usr/bin/node"


# -- kinds: reading ------------------------------------------------------------------------------------

@pytest.mark.parametrize("typed,code", [
    ("As♠", "As"), ("AS", "As"), ("as de pique", "As"), ("Ah", "Ah"), ("A♥", "Ah"), ("10 de cœur", "Th"),
    ("Td", "Td"), ("R♣", "Kc"), ("Kc", "Kc"), ("Rc", "Kh"), ("dame de trèfle", "Qc"), ("V♦", "Jd"),
    ("deux de carreau", "2d"), ("7 of spades", "7s"),
])
def test_a_card_is_read_as_a_td_writes_it(typed, code):
    assert parse_card(typed) == code


@pytest.mark.parametrize("typed,reason", [
    ("2c", "ambigu (c = cœur ou clubs ?)"), ("Ac", "ambigu"), ("Zz", "n'est pas une carte"),
    ("A de bâton", "couleur inconnue"),
])
def test_a_card_that_could_be_two_is_refused_not_guessed(typed, reason):
    with pytest.raises(KindError) as e:
        parse_card(typed)
    assert reason in e.value.reason


def test_thousands_are_one_amount_and_an_ambiguous_list_is_refused():
    assert parse_value("amount", "2 500") == 2500
    assert parse_value("amount", "2\u00a0500") == 2500 and parse_value("amount", "2\u202f500") == 2500
    assert parse_value("amounts", "2\u00a0500 3\u202f000") == [2500, 3000]  # no-break spaces group thousands
    assert parse_value("amounts", "200, 2 500") == [200, 2500]
    assert parse_value("amounts", "100 50") == [100, 50]
    with pytest.raises(KindError) as e:
        parse_value("amounts", "200 350")
    assert "« 200 350 » est ambigu" in e.value.reason and "(200, 350)" in e.value.reason
    assert parse_value("amounts", "2 500") == [2500] and parse_value("amounts", "1 000 000") == [1000000]
    with pytest.raises(KindError):
        parse_value("amounts", "1 000 2 500")  # which blank separates? a comma says it


def test_seats_ranks_and_none():
    seat = Question("s", "Siège ?", type="amount", kind="seat")
    assert parse_answer(seat, "3") == 3
    with pytest.raises(UserError) as e:
        parse_answer(seat, "0")
    assert "un siège se numérote de 1 à 12 (reçu 0)" in str(e.value)
    with pytest.raises(UserError) as e:
        parse_answer(Question("s", "Sièges ?", type="amounts", kind="seats"), "1, 3, 3")
    assert "le siège 3 est tapé deux fois" in str(e.value)
    optional = Question("p", "Petite blind ?", type="amount", kind="seat", none=True)
    assert parse_answer(optional, "aucune") == 0 == parse_answer(optional, "0") and optional.label(0) == "aucun"
    with pytest.raises(UserError):
        parse_answer(seat, "aucune")  # « aucune » only where the input allows it
    assert parse_answer(Question("b", "Mises ?", type="amounts", kind="amounts", none=True), "Aucune") == []
    with pytest.raises(UserError) as e:
        parse_answer(Question("c", "Cartes ?", type="amounts", kind="cards"), "As, A♠")
    assert "la carte A♠ est tapée deux fois" in str(e.value)


TYPED = {
    "amount": ["2 500", "2\u00a0500", "100", "-5", "x", "007"],
    "amounts": ["200, 290", "200 350", "2 500", "1 000 000", "1 000 2 500", "2\u00a0500 3\u202f000", "100 50", "", "aucune", "1 000; 2 500", "10, deux"],
    "seat": ["3", "0", "13", "aucune"],
    "seats": ["1, 3, 4", "1 3 4", "1, 1", "0, 2"],
    "ranks": ["1, 2, 0", "1 2 1"],
    "counts": ["3, 2, 1, 5", "3 0"],
    "cards": ["As♠, 7d, Kh", "AS, as de coeur", "2c", "10 de cœur, Td", "As, As", "Rc, Kc, V♦", "x"],
}


def _python_read(kind: str, raw: str, none: bool):
    try:
        return parse_value(kind, raw, none)
    except KindError:
        return None


@pytest.mark.skipif(not Path(NODE).exists(), reason="node absent")
def test_the_site_reads_every_kind_as_the_command_line():
    """site/assets/questionnaire.js's parseAmount gives the Python value (or refuses) for each typed text."""
    cases = [(kind, raw, none) for kind, raws in TYPED.items() for raw in raws for none in (False, True)]
    script = """
const fs = require("fs");
global.window = {RulingKernels: {}};
global.document = {readyState: "complete", querySelectorAll: () => [], addEventListener: () => {}};
window.addEventListener = () => {};
eval(fs.readFileSync(process.argv[1], "utf8"));
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
const type = k => ["amounts", "seats", "ranks", "counts", "cards"].includes(k) ? "amounts" : "amount";
console.log(JSON.stringify(cases.map(([kind, raw, none]) =>
  window.RulingQuestionnaire.parseAmount({type: type(kind), kind: kind, none: none}, raw))));
"""
    out = subprocess.run([NODE, "-e", script, str(ROOT / "site" / "assets" / "questionnaire.js")],
                         input=json.dumps(cases), capture_output=True, text=True, timeout=30, check=True)
    browser = json.loads(out.stdout)
    for (kind, raw, none), got in zip(cases, browser):
        want = _python_read(kind, raw, none)
        if kind in ("amounts", "seats", "ranks", "counts", "cards") and raw == "" and not none:
            want = None  # the site refuses an empty list the CLI prompt asks again for
        assert got == want, (kind, raw, none)


# -- kinds: the prompts -----------------------------------------------------------------------------------

def test_seats_are_asked_as_seats_never_as_amounts(run):
    typed = "n\no\n1, 3, 4\n2\naucune\n4\n"  # Win The Button non, seats known, 3 present, old SB gone
    result = run("ask", "blinds-places-vides", "--book", "club", input=typed)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Numéros de sièges, séparés par des virgules:" in out and "lu : 1, 3, 4" in out
    assert "Numéro de siège (« aucun » si aucun):" in out
    assert "Montant" not in out
    assert "Siège de la petite blind au coup précédent (« aucune » s'il n'y en avait pas) ? aucun" in out


def test_a_wrong_seat_says_what_is_right_and_asks_again(run):
    typed = "n\no\n1, 3, 4\n0\n2\naucune\n4\n"
    result = run("ask", "blinds-places-vides", "--book", "club", input=typed)
    assert result.exit_code == 0, result.output
    assert "un siège se numérote de 1 à 12 (reçu 0)" in result.output and "recommencez" in result.output


def test_a_list_echoes_what_was_read_and_refuses_the_ambiguous(run):
    typed = "1\n2\n100\n200 290\n200, 290\n"  # minimum, post-flop, big blind 100, then the bets
    result = run("ask", "relance-minimum", "--book", "club", input=typed)
    assert result.exit_code == 0, result.output
    assert "« 200 290 » est ambigu (un montant de 200290 ou deux montants ?)" in result.output
    assert "lu : 200, 290" in result.output
    assert "-a mises=200,290" in result.output


def test_ranks_have_their_own_prompt(run):
    typed = "o\n500, 1 000, 1 000\n1, 2, 2\n25\n"
    result = run("ask", "partage-du-pot", "--book", "club", input=typed)
    assert result.exit_code == 0, result.output
    assert "Rangs, séparés par des virgules (1 = meilleure main, 0 = couché):" in result.output
    assert "lu : 500, 1000, 1000" in result.output


def test_check_refuses_an_unknown_kind_and_a_kind_against_its_type(run, kb_copy):
    path = kb_copy / "calculators.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    kind: seats\n", "    kind: sieges\n", 1), encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1 and "sieges" in result.output
    path.write_text(text.replace("    kind: seats\n", "    kind: seats\n    type: amount\n", 1), encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert "la question « sieges-occupes » a le genre seats (type amounts) mais le type amount" in result.output


# -- the chip race with its cards -----------------------------------------------------------------------

CARDS_TYPED = "\n\n\n2\no\no\n25\n100\n3, 2, 1, 5\n2, 3\nAs♠, 7d, Kh, Ah, 2♣, Td, Qh\n"


def test_chip_race_classic_with_the_cards_says_who_wins_which_chip(run):
    result = run("ask", "--book", "club", "chip", "race", "classique", input=CARDS_TYPED)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Cartes, séparées par des virgules (ex. As♠, Rh, 10 de cœur):" in out
    assert "lu : A♠, 7♦, R♥, A♥, 2♣, 10♦, D♥" in out
    assert "gagnent un jeton de 100 : A♠ (joueur 1), A♥ (joueur 2)" in out  # 12-3: pique before cœur
    assert "sans jeton après la course, le joueur 3 reçoit un jeton de 100" in out  # 12-6
    assert "-a 'cartes-tirees=A♠,7♦,R♥,A♥,2♣,10♦,D♥'" in out


def test_chip_race_replay_gives_the_same_winners(run):
    args = ["decide", "chip-race", "--book", "club", "-a", "moment=chip-race", "-a", "methode=classique",
            "-a", "cartes-donnees=oui", "-a", "jeton-retire=25", "-a", "jeton-arrondi=100",
            "-a", "jetons-par-joueur=3,3,2", "-a", "joueurs-sans-autre-jeton=aucun", "-a", "course=jeux-complets",
            "-a", "cartes-tirees=A♠,A♥,2♦,R♣,3♥,4♠,R♠,10♣", "--json"]
    data = json.loads(run(*args).output)
    assert data["outcome"] == "tirage-classique-cartes"
    # 12-4: player 1 has both aces but wins one chip; 12-3: the king of spades beats the king of clubs
    assert data["figures"]["gagnants"] == [{"joueur": 1, "carte": "A♠"}, {"joueur": 3, "carte": "R♠"}]


def test_chip_race_with_the_wrong_number_of_cards_asks_the_figures_again(run):
    typed = CARDS_TYPED.replace("Td, Qh\n", "Td\n") + "25\n100\n3, 2, 1, 5\n2, 3\nAs♠, 7d, Kh, Ah, 2♣, Td, Qh\n"
    result = run("ask", "--book", "club", "chip", "race", "classique", input=typed)
    assert result.exit_code == 0, result.output
    assert "il faut une carte par jeton supplémentaire : 7 jeton(s) en course mais 6 carte(s) tapée(s)" in result.output


def test_chip_race_without_figures_states_the_rule_and_offers_the_computation(run):
    result = run("ask", "--book", "club", "chip", "race", "classique", input="\n\n\n2\nje ne sais pas\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Je ne sais pas : compté comme « non »." in out
    assert "à valeur égale, l'ordre est pique, cœur, carreau, trèfle" in out
    assert "Pour le calcul exact (cartes à donner, puis qui gagne quel jeton), reprenez avec les chiffres" in out
    assert "Pour le calcul exact, avec les chiffres : ruling decide chip-race --book club -a moment=chip-race " \
           "-a methode=classique -a course=jeux-complets -a chiffres=oui" in out
    assert "Montant" not in out and "Nombres" not in out  # no figure asked


# -- numbers only when they matter --------------------------------------------------------------------------

@pytest.mark.parametrize("book,typed,rule", [
    ("club", "n\n", "Les pots se partagent un par un, en commençant par les pots extérieurs"),
    ("tda", "je ne sais pas\n", "Chaque pot est traité séparément, en commençant par les pots extérieurs"),
    ("cash", "n\n1\nn\n", "Chaque cagnotte (secondaires et principale) est partagée séparément"),
])
def test_side_pot_without_figures_states_the_rule(run, book, typed, rule):
    result = run("ask", "partage-du-pot", "--book", book, input=typed)
    assert result.exit_code == 0, result.output
    assert rule in result.output and f"ruling decide partage-du-pot --book {book}" in result.output
    assert "Jetons engagés" not in result.output  # no figure asked


def test_figures_given_on_the_command_line_answer_do_you_have_them(run):
    data = json.loads(run("decide", "partage-du-pot", "--book", "club", "-a", "engagements=500,1000,1000",
                          "-a", "classement=1,2,2", "-a", "plus-petit-jeton=25", "--json").output)
    assert data["outcome"] == "partage-calcule" and data["answers"]["chiffres"] is True


def test_dead_button_without_seats_says_what_each_blind_does(run):
    result = run("ask", "blinds-places-vides", "--book", "club", input="n\nn\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Grosse blind : le joueur qui suit l'ancienne grosse blind" in out
    assert "Petite blind : l'ancienne grosse blind" in out and "Donneur : l'ancienne petite blind" in out


# -- what has not happened yet --------------------------------------------------------------------------

@pytest.mark.parametrize("book,typed,next_step", [
    ("tda", "o\n1\n", "S'il n'a pas agi à la fin du décompte, sa main est morte"),
    ("cash", "1\no\n", "s'il dépasse la limite de temps sans agir, sa main est morte ; s'il agit avant"),
    ("club", "1\n", "sinon, la minute ne court qu'une fois ce temps raisonnable écoulé. S'il n'a pas agi à la fin du décompte, sa main est morte"),
])
def test_clock_just_called_says_what_happens_next_in_every_book(run, book, typed, next_step):
    result = run("ask", "demander-le-temps", "--book", book, input=typed)
    assert result.exit_code == 0, result.output
    assert next_step in result.output
    assert "a-t-il laissé passer la minute" not in result.output and "a-t-il dépassé la limite" not in result.output


# -- « ? » and « je ne sais pas » at every question ----------------------------------------------------------

def _states(procedure, limit=400):
    """Every answer set the questionnaire can reach, with the question it asks there."""
    out, todo = [], [{}]
    while todo and len(out) < limit:
        answers = todo.pop()
        cands = candidates(procedure, answers)
        if not cands or any(not pending for _, pending in cands):
            continue
        question = procedure.question(cands[0][1][0])
        out.append((answers, question))
        todo += [{**answers, question.id: v} for v in question.domain]
    return out


def test_i_dont_know_at_every_question_gives_a_decision_or_a_separating_question(kb):
    from ruling.decide.questionnaire import explain_question
    from ruling.decide.unknown import branches, branches_report

    walked = 0
    for proc in kb.procedures:
        for answers, question in _states(proc):
            walked += 1
            explained = explain_question(proc, question)
            assert question.text in explained and "je ne sais pas" in explained, (proc.citation, question.id)
            if question.if_unknown is not None:
                assert question.if_unknown in question.domain
                continue
            result = branches(kb, proc, answers, [question])
            if result.decided:
                assert branches_report(proc, result).strip(), (proc.citation, question.id)
            else:
                following = result.next_question()
                assert following is not None and following.id != question.id, (proc.citation, question.id)
    assert walked > 200  # every procedure's questions, not a handful


def test_ask_with_question_mark_and_i_dont_know_everywhere_never_loops(run, kb):
    """Each procedure driven by « ? » then « je ne sais pas » at every prompt: it decides (exit 0), or
    stops at a figure it needs (exit 1 at the end of the input), never a traceback or a finite
    question asked again and again."""
    for proc in kb.procedures:
        result = run("ask", proc.id, "--book", proc.book, input="?\nje ne sais pas\n" * 12)
        out = result.output
        assert result.exit_code in (0, 1), (proc.citation, out[-400:])
        assert "Traceback" not in out
        if result.exit_code == 1:
            assert "ne se devine pas" in out, (proc.citation, out[-400:])  # a figure, not a choice
        else:
            assert "Décision" in out or "voici la décision dans chaque cas" in out or "la décision est la même" in out


# -- all parties ----------------------------------------------------------------------------------------------

def test_tda_reopening_says_what_the_players_behind_may_do(run):
    data = json.loads(run("decide", "relance-insuffisante", "--book", "tda", "-a", "demande=reouverture",
                          "-a", "tour=apres-flop", "-a", "grosse-blind=100", "-a", "mises=200,290",
                          "-a", "mise-du-joueur=200", "--json").output)  # after the flop: no big blind question
    assert data["figures"]["cas"] == "tapis-insuffisants"
    assert "il ne peut que suivre 290 ou passer" in data["decision"]
    assert "Les joueurs placés après, qui n'ont pas encore agi, peuvent suivre 290, passer ou relancer, " \
           "au minimum à 490 au total" in data["decision"]


def test_chip_dump_names_both_players(run):
    result = run("decide", "donner-des-jetons", "--book", "club", "-a", "cas=don")
    assert "celui qui a donné les jetons comme celui qui les a reçus" in result.output


def test_rebuy_and_add_on_at_the_end_of_the_limit_level_in_one_run(run):
    result = run("ask", "recave", "--book", "club", input="4\n3\no\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Attention le cumul recave et add-on n'est pas possible" in out
    assert "Il peut donc se recaver (ce n'est pas obligatoire). Le règlement ne le précise pas ; on lit que le joueur qui préférerait l'add-on sans se recaver ne le reçoit pas" in out
    assert "la période de recave est terminée" not in out.lower()


def test_action_out_of_turn_before_his_turn_says_what_will_happen(run):
    result = run("ask", "action-hors-tour", "--book", "club", input="1\nn\n")
    assert result.exit_code == 0, result.output
    assert "L'annonce faite avant son tour attend son tour" in result.output
    assert "Entre son annonce et son tour, un joueur a-t-il ouvert ou relancé ?" not in result.output


# -- words of the issue that answer yes/no questions --------------------------------------------------------

def test_words_pre_answer_a_yes_no_question(run):
    result = run("ask", "--book", "club", "flop", "sans", "carte", "brulee", "ordre", "inconnu", input="\n\n\n")
    assert result.exit_code == 0, result.output
    assert "L'ordre d'apparition des cartes du flop est-il connu ?\n  D'après vos mots : non" in result.output
    assert "-a ordre-connu=non" in result.output


def test_words_two_players_have_acted_pre_answer_the_misdeal(run):
    result = run("ask", "fausse-donne", "--book", "club", input="n\n1\n\nn\n")
    assert "D'après vos mots" not in result.output  # no words, no proposal
    result = run("ask", "--book", "club", "fausse", "donne", "deux", "joueurs", "ont", "agi", input="\nn\n1\n\nn\n")
    assert "après les blinds quand la fausse donne a été constatée ?\n  D'après vos mots : oui" in result.output
    assert "-a deux-mises=oui" in result.output


def test_no_bet_to_call_is_never_asked_as_an_amount(run):
    """« Y avait-il une mise à suivre ? non » : nothing to call, so no « Montant à suivre » prompt; « oui » :
    the prompt proposes neither 0 nor « aucun » (a bet of nothing would contradict that answer)."""
    result = run("ask", "jeton-superieur", "--book", "club", input="1\nn\n1\n500\n200\n")
    assert result.exit_code == 0, result.output
    assert "doit-il encore ajouter pour suivre" not in result.output.split("Décision")[0]
    assert "une ouverture à la hauteur du jeton : 500" in result.output
    result = run("ask", "jeton-superieur", "--book", "club", input="1\no\n500\n200\n")
    assert result.exit_code == 0, result.output
    assert "Montant en jetons:" in result.output and "[0]" not in result.output and "« aucun »" not in result.output
    assert "doit-il encore ajouter pour suivre" in result.output
    assert "vaut un simple suivi : il ajoute 200 pour suivre, et la monnaie (300) lui est rendue" in result.output


def test_i_dont_know_groups_equal_decisions_quotes_the_rules_and_gives_the_replay(run):
    result = run("decide", "fausse-donne", "--book", "club", "-a", "volontaire=non", "-a", "cause=?",
                 "-a", "deux-mises=oui", "-a", "aberration=?")
    out = result.output
    assert result.exit_code == 0, out
    # the two answers of « aberration » for a lone extra card decide the same: one entry, not two
    assert out.count("→ Ce n'est pas une fausse donne ; la carte en trop est reprise au petit blind") == 1
    assert "• Si l'un de ces cas :" in out
    # the rules to read at the table, each once
    assert out.count("club:2-17  [") == 1 and "Aucune fausse donne ne peut être annoncée sur un acte volontaire" in out
    assert "Pour rejouer : ruling decide fausse-donne --book club -a volontaire=non -a deux-mises=oui " \
           "-a 'cause=?' -a 'aberration=?'" in out


@pytest.mark.parametrize("words", ["je ne sais pas", "jsp", "Inconnu"])
def test_decide_takes_i_dont_know_in_words_as_the_help_texts_say(run, words):
    """The help of a question says « je ne sais pas » gives each case side by side: `decide` takes the words, not only « ? »."""
    result = run("decide", "paquet-defectueux", "--book", "cash", "-a", "defaut=joker", "-a", f"a-agi={words}")
    assert result.exit_code == 0, result.output
    assert "Réponse inconnue à « Le joueur qui a reçu le joker avait-il déjà agi sur sa main quand on l'a découvert ? »" in result.output
    assert "• Si : oui" in result.output and "• Si : non" in result.output
