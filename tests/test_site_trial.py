"""The site trial of 2026-12-04 (a helper with the built site and the sources only, 15 stories
where the TD does not know a fact): what it found that the command line shares, each as typed."""
from __future__ import annotations

import json

RULED_OUT = ["• Si : Une mise ou un suivi (bet ou call) trop petit",
             "  → ce cas ne s'applique pas aux montants tapés : une mise de 300 atteint déjà le montant dû (200) : elle "
             "n'est pas insuffisante"]
SHORT_RAISE = "il doit la compléter à 400 au total, sans plus"
ARGS = ("decide", "relance-insuffisante", "--book", "club", "-a", "erreur=?", "-a", "tour=apres-flop",
        "-a", "deja-mise=non", "-a", "grosse-blind=100", "-a", "mises=200", "-a", "mise-posee=300")


def test_an_answer_the_amounts_do_not_fit_is_said_apart_with_the_refusal(run):
    """The kind of error unknown, 300 facing 200: no short call, so that case is said not to apply
    to the figures and the three others are decided (before: the refusal alone, no decision)."""
    result = run(*ARGS)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[lines.index(RULED_OUT[0]) + 1] == RULED_OUT[1]
    assert "Réponse inconnue à « Quelle est l'erreur ? » : voici la décision dans chaque cas." in result.output
    assert SHORT_RAISE in result.output


def test_the_json_lists_the_cases_the_figures_do_not_fit(run):
    data = json.loads(run(*ARGS, "--json").stdout)
    assert data["refused"] == [{"assumed": {"erreur": "mise"}, "reason": "une mise de 300 atteint déjà le montant "
                                   "dû (200) : elle n'est pas insuffisante"}]
    assert [c["assumed"]["erreur"] for c in data["cases"]] == ["relance-sans-annonce", "relance-annoncee",
                                                                "montant-mal-compris"]


def test_ask_says_the_case_the_figures_do_not_fit_too(run):
    result = run("ask", "relance-insuffisante", "--book", "club",
                 input="je ne sais pas\n2\n100\n200\n300\nn\n")
    lines = result.output.splitlines()
    assert lines[lines.index(RULED_OUT[0]) + 1] == RULED_OUT[1]
    assert SHORT_RAISE in result.output


def test_several_unknown_answers_each_name_their_question(run):
    """« Si : oui ; non » did not say which answer was whose."""
    result = run("decide", "flop-irregulier", "--book", "club", "-a", "defaut=deux-brulees",
                 "-a", "ordre-brulees-connu=?", "-a", "ordre-connu=?")
    burnt, order = "« Sait-on laquelle des deux cartes brûlées a été brûlée en second ? »", \
        "« L'ordre d'apparition des cartes du flop est-il connu ? »"
    lines = result.output.splitlines()
    assert f"• Si : {burnt} : oui ; {order} : non" in lines
    assert f"    – {burnt} : non ; {order} : oui" in lines


def test_a_wrong_deal_order_does_not_cite_the_rule_of_a_card_turned_over(run):
    """2-4 is about a card turned over during the deal (the deal goes on; a second one is a misdeal):
    cited for a second card turned, not for a wrong order, a wrong count or the first card."""
    for cause, cited in (("mauvais-ordre", False), ("nombre-incorrect", False), ("premiere-carte", False),
                         ("seconde-retournee", True)):
        data = json.loads(run("decide", "fausse-donne", "--book", "club", "-a", "volontaire=non", "-a", f"cause={cause}",
                              "-a", "deux-mises=non", "--json").stdout)
        assert ("club:2-4" in [c["citation"] for c in data["citations"]]) is cited, cause
        assert "club:15-1" in [c["citation"] for c in data["citations"]]  # « sanctionné »: the sanction clause


def test_the_help_no_longer_offers_a_question_mark_that_the_site_lacks(run):
    """« ? » explains a question on the command line; « je ne sais pas » gives both decisions."""
    result = run("show", "--json", "club:2-20")
    assert result.exit_code == 0
    from ruling.kb.load import load_kb

    proc = next(p for p in load_kb().procedures if p.book == "club" and p.id == "fausse-donne")
    assert "(ou « ? »)" not in (proc.question("aberration").help or "")
    assert "« je ne sais pas » donne les deux décisions côte à côte" in proc.question("aberration").help


def test_a_case_the_figures_do_not_fit_is_not_called_impossible(run):
    """Replay of the site trial: the structure unknown, an all-in worth a full bet: the limit game is
    quite possible; its rule (a short all-in) just does not apply: a normal bet, as 5 says."""
    result = run("decide", "mise-tapis-limite", "--book", "cash", "-a", "structure=?", "-a", "mise-pleine=20",
                 "-a", "mise-tapis=20")
    lines = result.output.splitlines()
    assert lines[lines.index("• Si : Poker à limite") + 1] == (
        "  → ce cas ne s'applique pas aux montants tapés : une mise à tapis de 20 atteint la mise pleine (20) : "
        "c'est une mise normale")
    assert "Exclu" not in result.output and "impossible" not in result.output
