"""« Je ne sais pas » in the site's questionnaire: what `ruling decide -a q=?` gives, in the browser.

Each expected text comes from the Python side (`ruling.decide.unknown.branches` and
`branches_report`, `ruling.decide.engine.decide`) on the same answers: the data's sentences are
never copied here. Same guards as tests/test_site_browser.py (no request off the machine, no
JavaScript error).
"""
from __future__ import annotations

import re

import pytest
import test_site_browser
from test_site import _paths

from ruling.decide.engine import decide, decision_tree
from ruling.decide.unknown import branches, branches_report

# test_site_browser's fixtures (the built site, its server, the guarded page), and its skip
# when no browser can run here (the import above skips this module as well)
_browser_available = test_site_browser._browser_available
site = test_site_browser.site
server = test_site_browser.server
browser = test_site_browser.browser
page = test_site_browser.page
DONT_KNOW = "Je ne sais pas"


def _procedure(kb, book: str, pid: str):
    return next(p for p in kb.procedures if p.book == book and p.id == pid)


def _lines(text: str) -> list[str]:
    """The non-blank lines, stripped: the CLI indents its cases, the page lays them out."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _expected(kb, proc, known: dict, unknown: list[str]):
    """The CLI's report lines for these answers (every case decided) and the clauses cited, once."""
    result = branches(kb, proc, known, [proc.question(q) for q in unknown])
    assert result.decided, (proc.citation, known, unknown)
    cited = list(dict.fromkeys(c.citation for _, d in result.cases for c in d.citations))
    return _lines(branches_report(proc, result)), cited


def _choose(page, label: str) -> None:
    """Click the answer button whose text is exactly `label`."""
    page.locator("button.rq-choice").filter(has_text=re.compile("^" + re.escape(label) + "$")).click()


def _label(question, value) -> str:
    """The button of an answer: « Oui », « Non », or the choice's label."""
    return ("Oui" if value else "Non") if question.type == "bool" else question.choices[value]


def _shown(page) -> tuple[list[str], list[str]]:
    """The summary's lines and the citations of the clauses shown under it."""
    summary = page.locator(".rq-unknown-summary")
    summary.wait_for()
    refs = [t.split(" — ")[0] for t in page.locator(".rq-unknown .rq-clause-ref a").all_inner_texts()]
    return _lines(summary.inner_text()), refs


def _calculated(page, typed: dict[str, str]) -> tuple[list[str], list[str]]:
    """Type the amounts of the form, press « Calculer »: what `_shown` reads then."""
    for name, value in typed.items():
        page.fill(f"input[name='{name}']", value)
    page.locator("button.rq-calculate").click()
    return _shown(page)


def _open(page, server, proc) -> None:
    page.goto(server + f"procedures/{proc.book}/{proc.id}.html")
    page.locator(".rq-question").wait_for()


@pytest.mark.parametrize("book, pid", [("cash", "flop-irregulier"), ("cash", "carte-tombee"),
                                       ("club", "check-raise"), ("tda", "carte-exposee-donne"),
                                       ("infos", "ordre-de-parole")])
def test_je_ne_sais_pas_gives_each_case_side_by_side(page, server, kb, book, pid):
    """The first question left unknown: every case is decided at once, and the page shows the
    CLI's report for it, then each cited clause once."""
    proc = _procedure(kb, book, pid)
    first = decision_tree(proc)["root"]["question"]
    _open(page, server, proc)
    buttons = page.locator(".rq-question .rq-choices button").all_inner_texts()
    assert buttons[-1] == DONT_KNOW and len(buttons) == len(proc.question(first).domain) + 1  # after the choices
    _choose(page, DONT_KNOW)
    lines, refs = _shown(page)
    expected, cited = _expected(kb, proc, {}, [first])
    assert lines == expected
    assert refs == cited
    assert page.locator(".rq-answered-value").all_inner_texts() == [DONT_KNOW]


def test_a_later_question_is_still_asked_after_an_unknown(page, server, kb):
    """Club flop: « je ne sais pas » to the irregularity still needs the order of the cards: the
    page asks what the CLI asks next, for every case, then gives the cases side by side."""
    proc = _procedure(kb, "club", "flop-irregulier")
    _open(page, server, proc)
    _choose(page, DONT_KNOW)
    known: dict = {}
    for value in (True, False):  # « oui » to the first question asked, « non » to the next
        result = branches(kb, proc, known, [proc.question("defaut")])
        assert not result.decided
        asked = result.next_question()
        assert page.locator(".rq-question-text").inner_text() == asked.text
        assert page.locator(".rq-unknown").count() == 0
        _choose(page, _label(asked, value))
        known[asked.id] = value
    lines, refs = _shown(page)
    expected, cited = _expected(kb, proc, known, ["defaut"])
    assert lines == expected and refs == cited
    assert len(known) == 2
    # the history: « Je ne sais pas » and its « Modifier », as any answer
    answered = page.locator(".rq-answered")
    assert answered.count() == 3
    assert answered.first.locator(".rq-answered-value").inner_text() == DONT_KNOW
    answered.first.locator("button.rq-change").click()
    assert page.locator(".rq-question-text").inner_text() == proc.question("defaut").text
    assert page.locator(".rq-answered").count() == 0


def test_the_same_decision_whatever_the_answer_is_said_once(page, server, kb):
    """Club insufficient raise, the street unknown, then a later question: every case rules the
    same, said once with the CLI's sentence."""
    proc = _procedure(kb, "club", "relance-insuffisante")
    _open(page, server, proc)
    _choose(page, _label(proc.question("erreur"), "relance-sans-annonce"))
    _choose(page, DONT_KNOW)  # the street
    result = branches(kb, proc, {"erreur": "relance-sans-annonce"}, [proc.question("tour")])
    asked = result.next_question()
    assert page.locator(".rq-question-text").inner_text() == asked.text
    _choose(page, _label(asked, True))
    lines, refs = _shown(page)
    expected, cited = _expected(kb, proc, {"erreur": "relance-sans-annonce", asked.id: True}, ["tour"])
    assert lines == expected and refs == cited
    assert len(lines) == 3 and lines[0].startswith("Quelle que soit la réponse à")
    assert page.locator(".rq-case").count() == 0


def test_if_unknown_answers_the_questions_own_answer(page, server, kb):
    """« Avez-vous les chiffres ? » declares `if_unknown: false`: « Je ne sais pas » is that
    answer (the CLI's « compté comme « non » »), so the decision is the one of « non »."""
    proc = _procedure(kb, "club", "partage-du-pot")
    question = proc.question("chiffres")
    assert question.if_unknown is False
    _open(page, server, proc)
    _choose(page, DONT_KNOW)
    page.locator(".rq-decision-text").wait_for()
    expected = decide(kb, "club", "partage-du-pot", {"chiffres": question.if_unknown}).decision
    assert page.locator(".rq-decision-text").inner_text() == expected
    assert page.locator(".rq-unknown").count() == 0
    assert page.locator(".rq-answered-value").all_inner_texts() == [_label(question, question.if_unknown)]
    assert "q.chiffres=non" in page.url
    # a link written by hand with « ? » means the same
    fresh = page.context.new_page()
    fresh.goto(server + f"procedures/{proc.book}/{proc.id}.html#q.chiffres=%3F")
    fresh.locator(".rq-decision-text").wait_for()
    assert fresh.locator(".rq-decision-text").inner_text() == expected
    fresh.close()


def test_an_unknown_answer_lives_in_the_url(page, server, kb):
    """`q.defaut=%3F`: a reload, a shared link and Back give the same view."""
    proc = _procedure(kb, "club", "flop-irregulier")
    page.goto(server + "questionnaire.html")
    page.fill(".rq-filter", "flop")
    page.locator(f"details.rq-group[data-book='{proc.book}'] button.rq-procedure", has_text=proc.title).click()
    _choose(page, DONT_KNOW)
    _choose(page, "Oui")
    _choose(page, "Oui")
    before = _shown(page)
    assert "procedure=club%2Fflop-irregulier" in page.url and "q.defaut=%3F" in page.url
    page.reload()
    assert _shown(page) == before
    fresh = page.context.new_page()  # a link sent to another phone
    fresh.goto(page.url)
    assert _shown(fresh) == before
    assert fresh.locator(".rq-answered-value").all_inner_texts() == [DONT_KNOW, "Oui", "Oui"]
    fresh.close()
    page.go_back()  # the last answer undone: its question again, the unknown kept
    page.locator(".rq-question").wait_for()
    assert page.locator(".rq-answered-value").all_inner_texts() == [DONT_KNOW, "Oui"]
    page.go_back()
    page.go_back()
    page.locator(".rq-question").wait_for()
    assert page.locator(".rq-answered").count() == 0
    assert page.locator(".rq-question-text").inner_text() == proc.question("defaut").text


def test_computed_cases_ask_their_amounts_once_then_compute_each(page, server, kb):
    """Cash half-bet rule, the structure unknown: one case computes, the others do not; the
    amounts are asked once, then each case is decided (and comes back from the URL)."""
    proc = _procedure(kb, "cash", "mise-tapis-limite")
    _open(page, server, proc)
    _choose(page, DONT_KNOW)
    page.locator("form.rq-amounts").wait_for()
    assert page.locator(".rq-unknown-summary").count() == 0  # nothing before the figures
    names = page.eval_on_selector_all("form.rq-amounts [name]", "els => els.map(e => e.name)")
    leaf = dict(decision_tree(proc)["root"]["answers"])
    assert names == [i for node in leaf.values() for i in node.get("inputs", [])]
    page.fill("input[name='mise-pleine']", "20")
    page.fill("input[name='mise-tapis']", "8")
    page.locator("button.rq-calculate").click()
    lines, refs = _shown(page)
    expected, cited = _expected(kb, proc, {"mise-pleine": 20, "mise-tapis": 8}, ["structure"])
    assert lines == expected and refs == cited
    page.reload()
    assert _shown(page) == (lines, refs)


def test_computed_cases_each_with_its_own_street(page, server, kb):
    """Club insufficient raise without announcement, the street unknown: two computed cases, each
    with the street its path assumed (`given`), from one amounts form."""
    proc = _procedure(kb, "club", "relance-insuffisante")
    _open(page, server, proc)
    _choose(page, _label(proc.question("erreur"), "relance-sans-annonce"))
    _choose(page, DONT_KNOW)
    _choose(page, _label(proc.question("deja-mise"), False))
    page.locator("form.rq-amounts").wait_for()
    assert page.locator("select[name='tour']").count() == 0  # assumed in each case, never typed
    lines, refs = _calculated(page, {"grosse-blind": "100", "mises": "200", "mise-posee": "290"})
    known = {"erreur": "relance-sans-annonce", "deja-mise": False, "grosse-blind": 100, "mises": [200], "mise-posee": 290}
    expected, cited = _expected(kb, proc, known, ["tour"])
    assert lines == expected and refs == cited
    assert page.locator(".rq-case").count() == 2


def test_the_decision_texts_are_the_command_lines(page, server, kb, run):
    """What the page says after « je ne sais pas » is, line for line, in what `ruling decide
    … -a q=?` prints (which adds the clauses' text and the command to replay)."""
    for book, pid, question in (("cash", "flop-irregulier", "defaut"), ("club", "check-raise", "cas")):
        proc = _procedure(kb, book, pid)
        _open(page, server, proc)
        _choose(page, DONT_KNOW)
        lines, _ = _shown(page)
        printed = run("decide", pid, "--book", book, "-a", f"{question}=?")
        assert printed.exit_code == 0, printed.output
        cli = _lines(printed.output)
        start = cli.index(lines[0])
        assert cli[start:start + len(lines)] == lines
        assert lines[0].startswith("Réponse inconnue à « " + proc.question(question).text + " »")


def test_the_browsers_walk_after_an_unknown_is_the_engines(page, server, kb):
    """For every procedure and every question of its tree left unknown (on the answers leading to
    it): the browser's cases reach the outcomes `branches` decides, and it asks the question the
    first undecided case needs."""
    cases = []
    for proc in kb.procedures:
        for answers, node in _paths(decision_tree(proc)["root"]):
            if "question" not in node or proc.question(node["question"]).if_unknown is not None:
                continue
            result = branches(kb, proc, answers, [proc.question(node["question"])])
            waiting = [d for _, d in result.cases if d.rule is None]
            cases.append({"key": f"{proc.book}/{proc.id}", "order": [*answers, node["question"]], "answers": answers,
                          "unknown": node["question"],
                          "expected": {"question": waiting[0].missing[0].id if waiting else None,
                                       "outcomes": [d.rule.outcome if d.rule else None for _, d in result.cases]}})
    page.goto(server + "questionnaire.html")
    mismatches = page.evaluate("""cases => cases.filter(c => {
        const Q = window.RulingQuestionnaire;
        const proc = window.RULING_QUESTIONNAIRE.procedures.find(p => p.key === c.key);
        const answers = Object.assign({}, c.answers);
        answers[c.unknown] = Q.UNKNOWN;
        const walk = Q.walk(proc, c.order, answers);
        const got = {question: walk.question, outcomes: walk.cases.map(b => b.node.outcome || null)};
        c.got = got;
        return JSON.stringify(got) !== JSON.stringify(c.expected);
    })""", cases)
    assert len(cases) > len(kb.procedures)
    assert mismatches == []


# -- the site trial of 2026-12-04 (helper, the built site only): what it found ---------------------

device = test_site_browser.device


def test_a_case_the_amounts_do_not_fit_is_said_apart_not_a_dead_end(page, server, kb):
    """Club short bet, the kind of error unknown: 300 facing 200 is no short call, so that case is
    said apart with the calculator's refusal and the others are decided (before, every amount showed
    a refusal and no decision: a dead end), as `ruling decide … -a erreur=?` says it."""
    proc = _procedure(kb, "club", "relance-insuffisante")
    _open(page, server, proc)
    _choose(page, DONT_KNOW)
    _choose(page, _label(proc.question("tour"), "apres-flop"))
    _choose(page, _label(proc.question("deja-mise"), False))
    page.locator("form.rq-amounts").wait_for()
    lines, refs = _calculated(page, {"grosse-blind": "100", "mises": "200", "mise-posee": "300"})
    known = {"tour": "apres-flop", "deja-mise": False, "grosse-blind": 100, "mises": [200], "mise-posee": 300}
    expected, cited = _expected(kb, proc, known, ["erreur"])
    assert lines == expected and refs == cited
    assert lines[-2:] == ["• Si : " + proc.question("erreur").choices["mise"], "→ ce cas ne s'applique pas aux montants "
                          "tapés : une mise de 300 atteint déjà le montant dû (200) : elle n'est pas insuffisante"]
    assert page.locator(".rq-error").inner_text() == ""


def test_several_unknowns_name_the_question_of_each_answer(page, server, kb):
    """Two answers unknown: each case says which answer is whose (« oui ; non » alone did not)."""
    proc = _procedure(kb, "club", "flop-irregulier")
    _open(page, server, proc)
    _choose(page, proc.question("defaut").choices["deux-brulees"])
    _choose(page, DONT_KNOW)
    while page.locator(".rq-unknown-summary").count() == 0:
        _choose(page, DONT_KNOW)
    lines, _ = _shown(page)
    unknown = [q for q in ("ordre-brulees-connu", "ordre-connu") if page.locator(".rq-answered").filter(
        has_text=proc.question(q).text).count()]
    expected, _ = _expected(kb, proc, {"defaut": "deux-brulees"}, unknown)
    assert len(unknown) == 2 and lines == expected
    assert any(line.startswith(f"• Si : « {proc.question(unknown[0]).text} » : ") for line in lines), lines


def test_a_situation_decided_without_a_question_scrolls_to_its_decision(device, server):
    """A tap far down the list on a situation that needs no question (infos « pot annexe »): its
    decision is brought on screen and focused (before, it was drawn above the screen)."""
    device.goto(server + "questionnaire.html")
    group = device.locator("details.rq-group[data-book='infos']")
    group.locator("summary").click()
    target = group.locator("button.rq-procedure", has_text="pot annexe")
    target.scroll_into_view_if_needed()
    assert device.evaluate("window.scrollY") > 300
    target.click()
    device.locator(".rq-decision").wait_for()
    top = device.evaluate("document.querySelector('.rq-decision').getBoundingClientRect().top")
    assert 0 <= top < device.evaluate("window.innerHeight"), top
    assert device.evaluate("document.activeElement.classList.contains('rq-decision')")


def test_an_empty_amounts_form_is_headed_as_such_and_an_empty_field_is_named(page, server, kb):
    """Both site trials: « Décision » stood over an empty amounts form, and an empty field said
    « « » : un nombre… »; the heading says « Montants à saisir » until the figures decide, and an
    empty field's message names its question."""
    proc = _procedure(kb, "cash", "mise-tapis-limite")
    _open(page, server, proc)
    _choose(page, DONT_KNOW)
    page.locator("form.rq-amounts").wait_for()
    heading = page.locator(".rq-decision .admonition-title")
    assert heading.inner_text() == "Montants à saisir"
    page.locator("button.rq-calculate").click()
    question = proc.question(page.locator("form.rq-amounts input").first.get_attribute("name"))
    assert page.locator(".rq-error").inner_text().startswith(f"« {question.text} » : à remplir, ")
    assert heading.inner_text() == "Montants à saisir"
    _calculated(page, {"mise-pleine": "20", "mise-tapis": "8"})
    assert heading.inner_text() == "Décision selon la réponse"
    _open(page, server, proc)
    _choose(page, proc.question("structure").choices["limite"])
    assert heading.inner_text() == "Montants à saisir"
    page.fill("input[name='mise-pleine']", "20")
    page.fill("input[name='mise-tapis']", "8")
    page.locator("button.rq-calculate").click()
    page.locator(".rq-decision-text:not([hidden])").wait_for()
    assert heading.inner_text() == "Décision"
