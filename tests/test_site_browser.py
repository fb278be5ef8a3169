"""The built site in a real browser: search, permalinks, the questionnaire, offline use.

Playwright drives Debian's chromium (/usr/bin/chromium; scripts/install-browser.sh installs it,
Playwright's own browser download does not work here). Every request that would leave the
machine is refused and counted: the site must need none. Screenshots go to build/screenshots/.
"""
from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import threading
from pathlib import Path

import pytest
from test_site import INJECTION, _paths, built_injected_site, built_site

from conftest import ROOT

CHROMIUM = Path(os.environ.get("RULING_CHROMIUM") or "/usr/bin/chromium")
SCREENSHOTS = ROOT / "build" / "screenshots"
#: How chromium must run here: as root, headless, and with no background calls to the outside.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]



def browser_missing(chromium: Path = CHROMIUM) -> str | None:
    """Why the browser tests cannot run here (French, for the summary), or None when they can."""
    if not (chromium.is_file() and os.access(chromium, os.X_OK)):
        return (f"chromium absent ({chromium}) : lancez en root scripts/install-browser.sh "
                "(apt-get install chromium), ou RULING_CHROMIUM=/chemin/du/chromium")
    if importlib.util.find_spec("playwright") is None:
        return "playwright absent : lancez scripts/install-browser.sh"
    return None


def require_browser(reason: str | None, ci: bool) -> None:
    """Skip with the reason, except in CI (CI=true) where a browser test that cannot run fails."""
    if reason is None:
        return
    if ci:
        pytest.fail(f"CI=true : les tests du navigateur doivent tourner ; {reason}", pytrace=False)
    pytest.skip(reason)


MISSING = browser_missing()
IN_CI = os.environ.get("CI", "").lower() == "true"
if MISSING and not IN_CI:  # one line in the summary for the whole module
    pytest.skip(MISSING, allow_module_level=True)


@pytest.fixture(autouse=True, scope="module")
def _browser_available():
    require_browser(MISSING, IN_CI)



@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return built_site(tmp_path_factory)


@pytest.fixture(scope="module")
def server(site):
    """The built site over HTTP on a free local port."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/"
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def browser(_browser_available):
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh page; requests to anything but this machine are refused and recorded."""
    context = browser.new_context(viewport={"width": 1100, "height": 800}, locale="fr-FR")
    yield from _guarded_page(context)


def _guarded_page(context, prepare=None):
    """A page of `context` whose requests to anything but this machine are refused and recorded;
    after the test, no outside request and no JavaScript error."""
    outside: list[str] = []
    errors: list[str] = []

    def only_local(route):
        url = route.request.url
        if url.startswith(("file:", "http://127.0.0.1", "data:", "blob:")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    context.route("**/*", only_local)
    pg = context.new_page()
    pg.on("pageerror", lambda e: errors.append(str(e)))
    if prepare is not None:
        prepare(pg)
    yield pg
    context.close()
    assert outside == [], f"the site tried to reach: {outside}"
    assert errors == [], f"JavaScript errors: {errors}"


def shot(page, name: str, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)


def search(page, words: str, delay: int = 30):
    """Type in the site's search box, as a reader does; the results are listed while typing."""
    box = page.locator("input.rs-input")
    box.click()
    box.fill("")
    box.press_sequentially(words, delay=delay)
    page.wait_for_selector(".rs-panel:not([hidden]) .rs-status", timeout=30000)


def top_refs(page, n: int = 3) -> list[tuple[str, str]]:
    """(kind, citation or procedure id) of the first `n` results shown."""
    return page.eval_on_selector_all(
        "ol.rs-results a.rs-link", f"els => els.slice(0, {n}).map(e => [e.dataset.kind, e.dataset.ref])")


def test_home_page(page, server):
    page.goto(server + "index.html")
    assert page.title().startswith("Règles de poker")
    assert page.locator("table a[href='livres/club/index.html']").count() == 1
    shot(page, "home.png")


def test_search_maldonne_reaches_the_misdeal_clause(page, server):
    page.goto(server + "index.html")
    search(page, "maldonne")
    target = page.locator("a.rs-link[href*='livres/club/02.html'][href$='#2-17']")
    assert top_refs(page, 1) == [["clause", "club:2-17"]]
    target.click()
    page.wait_for_url("**/livres/club/02.html#2-17")
    assert page.locator("[id='2-17']").is_visible()
    body = page.locator("[data-citation='club:2-17'] .ruling-clause-text").inner_text()
    assert body.startswith("Fausse donne")  # maldonne, through the glossary


def test_clause_permalink_lands_on_the_clause(page, server, kb):
    page.goto(server + "livres/club/09.html#9-13")
    assert page.evaluate("document.querySelector(':target') && document.querySelector(':target').id") == "9-13"
    top = page.evaluate("document.getElementById('9-13').getBoundingClientRect().top")
    assert 0 <= top < 200, f"the clause heading is at {top}px, not at the top of the window"
    text = page.locator("[data-citation='club:9-13'] .ruling-clause-text").inner_text()
    assert " ".join(text.split()) == " ".join(kb.clause("club:9-13").text.split())
    shot(page, "clause.png")


def test_questionnaire_runs_to_its_decision(page, server, kb):
    proc = next(p for p in kb.procedures if p.id == "flop-irregulier" and p.book == "club")
    rule = next(r for r in proc.rules if r.outcome == "bruler-premiere-du-flop")
    page.goto(server + "questionnaire.html")
    page.fill(".rq-filter", "flop")
    page.locator("button.rq-procedure", has_text=proc.title).click()
    page.locator("button.rq-choice", has_text="Le flop a été exposé sans brûler de carte").click()
    page.locator("button.rq-choice", has_text="Oui").click()
    decision = page.locator(".rq-decision")
    decision.wait_for()
    assert page.locator(".rq-decision-text").inner_text() == rule.decision
    cited = page.locator(".rq-clause-ref a").all_inner_texts()
    assert cited == ["club:2-5"]
    clause = kb.clause("club:2-5")
    shown = page.locator(".rq-clause").inner_text()
    for item in clause.items:
        assert " ".join(item.split()) in " ".join(shown.split())
    shot(page, "decision.png")
    # the cited clause's link opens the clause itself
    page.locator(".rq-clause-ref a").click()
    page.wait_for_url("**/livres/club/02.html#2-5")


def test_questionnaire_in_the_browser_follows_the_engines_tree(page, server, kb):
    """For every procedure and every answer set on the way, the browser reaches the node the engine's
    tree has there (the tree itself is proved to be `ruling decide`'s walk in test_site.py)."""
    from ruling.decide.engine import decision_tree

    cases = []
    for proc in kb.procedures:
        for answers, node in _paths(decision_tree(proc)["root"]):
            expected = {"question": node["question"]} if "question" in node else {"outcome": node["outcome"]}
            cases.append({"key": f"{proc.book}/{proc.id}", "answers": answers, "expected": expected})
    page.goto(server + "questionnaire.html")
    mismatches = page.evaluate("""cases => cases.filter(c => {
        const proc = window.RULING_QUESTIONNAIRE.procedures.find(p => p.key === c.key);
        const got = window.RulingQuestionnaire.follow(proc.tree, c.answers);
        const result = got.question ? {question: got.question} : {outcome: got.outcome};
        return JSON.stringify(result) !== JSON.stringify(c.expected);
    })""", cases)
    assert len(cases) > len(kb.procedures)
    assert mismatches == []


def test_computed_decision_in_the_browser(page, server, kb):
    """Club 9-13's worked example: opening at 200, all-in at 290 -> minimum re-raise 490 (total), the
    sentence word for word what `ruling decide` prints."""
    from ruling.decide.calculators import KERNELS
    from ruling.decide.engine import decide

    page.goto(server + "procedures/club/relance-minimum.html")
    assert sorted(page.evaluate("Object.keys(window.RulingKernels.kernels)")) == sorted(KERNELS)
    page.locator("button.rq-choice", has_text="Le montant minimum pour ouvrir ou relancer").click()
    page.select_option("select[name='tour']", "apres-flop")
    page.fill("input[name='grosse-blind']", "100")
    page.fill("input[name='mises']", "200, 290")
    page.locator("button.rq-calculate").click()
    text = page.locator(".rq-decision-text").inner_text()
    expected = decide(kb, "club", "relance-minimum", {"demande": "minimum", "tour": "apres-flop",
                                                      "grosse-blind": 100, "mises": [200, 290]}).decision
    assert text == expected and "490" in text
    page.fill("input[name='mises']", "200, 150")  # not increasing: the refusal of calculators.yaml
    page.locator("button.rq-calculate").click()
    assert page.locator(".rq-error").inner_text() == (
        "Les montants des mises doivent croître : 150 ne dépasse pas 200 (n'indiquez pas les simples suivis ; avant "
        "le flop, le gros blind compte déjà comme la première mise : un tapis qui ne le dépasse pas ne relance pas, "
        "ne le tapez pas).")
    assert "490" not in page.locator(".rq-decision-text").inner_text()  # no stale figure left
    shot(page, "decision-calcul.png")


def test_the_reopening_asks_the_street_once_and_the_big_blind_only_before_the_flop(page, server, kb):
    """Issue 11: the street chooses the rule, so the amounts step does not ask it again, and after the
    flop the big blind's question is never shown; the decision is `ruling decide`'s, word for word."""
    from ruling.decide.engine import decide

    big_blind = "Le joueur est-il le gros blind, qui n'a encore fait que poser sa blind ?"
    page.goto(server + "procedures/club/relance-minimum.html")
    page.locator("button.rq-choice", has_text="Un joueur qui a déjà agi peut-il sur-relancer").click()
    page.locator("button.rq-choice", has_text="Au flop, à la turn ou à la river").click()
    page.locator("form.rq-amounts").wait_for()
    assert page.locator("select[name='tour']").count() == 0
    assert big_blind not in page.locator(".rq-decision").inner_text()
    page.fill("input[name='grosse-blind']", "100")
    page.fill("input[name='mises']", "200, 290")
    page.fill("input[name='mise-du-joueur']", "200")
    page.locator("button.rq-calculate").click()
    expected = decide(kb, "club", "relance-minimum", {"demande": "reouverture", "tour": "apres-flop", "grosse-blind": 100,
                                                      "mises": [200, 290], "mise-du-joueur": 200}).decision
    assert page.locator(".rq-decision-text").inner_text() == expected
    page.locator("button.rq-restart").click()
    page.locator("button.rq-choice", has_text="Un joueur qui a déjà agi peut-il sur-relancer").click()
    page.locator("button.rq-choice", has_text="Avant le flop").click()
    assert page.locator(".rq-question-text", has_text=big_blind).count() == 1
    page.locator("button.rq-choice", has_text="Non").click()
    page.locator("form.rq-amounts").wait_for()
    assert page.locator("select[name='tour']").count() == 0
    page.fill("input[name='grosse-blind']", "100")
    page.fill("input[name='mises']", "150, 200")
    page.fill("input[name='mise-du-joueur']", "100")
    page.locator("button.rq-calculate").click()
    expected = decide(kb, "club", "relance-minimum", {"demande": "reouverture", "tour": "avant-flop",
                                                      "gros-blind-sans-parler": False, "grosse-blind": 100,
                                                      "mises": [150, 200], "mise-du-joueur": 100}).decision
    assert page.locator(".rq-decision-text").inner_text() == expected


def test_side_pots_are_computed_in_the_browser(page, server, kb):
    """The calculators once left to the command line (side pots here) run in the browser too."""
    from ruling.decide.engine import decide

    page.goto(server + "procedures/club/partage-du-pot.html")
    page.locator("button.rq-choice").filter(has_text="Oui").click()  # the TD has the figures
    page.fill("input[name='engagements']", "500, 1000, 1000")
    page.fill("input[name='classement']", "1, 2, 1")
    page.fill("input[name='plus-petit-jeton']", "25")  # a figure of the event: never proposed
    page.locator("button.rq-calculate").click()
    expected = decide(kb, "club", "partage-du-pot", {"engagements": [500, 1000, 1000], "classement": [1, 2, 1],
                                                     "plus-petit-jeton": 25}).decision
    assert page.locator(".rq-decision-text").inner_text() == expected


def test_every_computed_decision_runs_in_the_browser(page, server, kb):
    """For each rule that computes, its first scenario played in the browser (clicking the answers,
    typing the amounts) shows word for word the decision `ruling decide` prints."""
    import re

    from ruling.decide.engine import decide_procedure, decision_tree, normalise_answers
    from ruling.decide.scenarios import read_scenario_files

    files, problems = read_scenario_files(Path(kb.root), [b.id for b in kb.books])
    assert not problems
    played = set()
    for file in files:
        proc = next(p for p in kb.procedures if p.book == file.book and p.id == file.procedure)
        for scenario in file.scenarios:
            rule = proc.outcome(scenario["outcome"])
            if rule.compute is None or (proc.citation, rule.outcome) in played:
                continue
            answers = normalise_answers(proc, scenario["answers"])
            expected = decide_procedure(kb, proc, answers).decision
            page.goto(server + f"procedures/{proc.book}/{proc.id}.html")
            node = decision_tree(proc)["root"]
            while "question" in node:
                q = proc.question(node["question"])
                value = answers[q.id]
                label = ("Oui" if value else "Non") if q.type == "bool" else q.choices[value]
                page.locator("button.rq-choice").filter(has_text=re.compile("^" + re.escape(label) + "$")).click()
                node = next(child for v, child in node["answers"] if v == value and type(v) is type(value))
            for qid in node["inputs"]:
                value = answers[qid]
                if proc.question(qid).type == "choice":
                    page.select_option(f"select[name='{qid}']", value)
                else:
                    # as the TD reads them back: cards as « 2♣ », never the ambiguous « 2c »
                    page.fill(f"input[name='{qid}']", proc.question(qid).label(value) if isinstance(value, list) and value
                              else ", ".join(map(str, value)) if isinstance(value, list) else str(value))
            page.locator("button.rq-calculate").click()
            assert page.locator(".rq-error").inner_text() == "", (proc.citation, scenario["name"])
            assert page.locator(".rq-decision-text").inner_text() == expected, (proc.citation, scenario["name"])
            played.add((proc.citation, rule.outcome))
    computed = {(p.citation, r.outcome) for p in kb.procedures for r in p.rules if r.compute}
    assert played == computed


def test_procedure_page_draws_its_flowchart(page, server):
    page.goto(server + "procedures/club/flop-irregulier.html")
    page.wait_for_selector("div.mermaid", timeout=15000)
    assert page.locator("pre.mermaid").count() == 0  # the source was replaced by the drawing
    assert page.locator("div.mermaid").bounding_box()["height"] > 150
    page.locator("[data-procedure='club/flop-irregulier'] button.rq-choice").first.wait_for()
    shot(page, "procedure.png", full_page=True)


def test_offline_from_file_navigates_and_searches(page, site):
    page.goto((site / "livres" / "club" / "09.html").as_uri() + "#9-13")
    assert page.evaluate("document.querySelector(':target').id") == "9-13"
    page.locator(".ruling-breadcrumb a[href='index.html']").click()  # links work between files
    page.wait_for_url("**/livres/club/index.html")
    page.goto((site / "questionnaire.html").as_uri())
    assert page.locator("button.rq-procedure").count() > 0  # the procedures came with the page, no fetch
    search(page, "maldonne")
    hrefs = page.eval_on_selector_all("a.rs-link", "els => els.map(e => e.href)")
    assert any("livres/cash/maldonnes.html" in h for h in hrefs), hrefs
    shot(page, "offline-search.png")
    page.goto((site / "procedures" / "club" / "flop-irregulier.html").as_uri())
    page.wait_for_selector("div.mermaid", timeout=15000)  # the bundled Mermaid, not a CDN


def test_markup_in_a_clause_shows_literally_and_runs_no_script(page, tmp_path_factory):
    site, citation = built_injected_site(tmp_path_factory)
    book, clause_id = citation.split(":")
    page_file = next(p for p in (site / "livres" / book).glob("*.html")
                     if f'id="{clause_id}"' in p.read_text(encoding="utf-8"))
    page.goto(page_file.as_uri() + "#" + clause_id)
    assert page.evaluate("window.__rulingInjected === undefined")
    text = page.evaluate(f"document.querySelector(\"[data-citation='{citation}'] .ruling-clause-text\").textContent")
    assert text == INJECTION


# -- the site's search box: ruling search's answers, offline, on a phone ---------------------------

def _wanted_in_top3(case, refs) -> bool:
    if "expect" in case:
        return all(e in refs for e in case["expect"])
    return any(e in refs for e in case["expect_any"])


def test_search_box_answers_as_the_command_line_offline(page, site, kb):
    """Every suite query typed into the box over file://: the wanted clause in the top 3, and the
    same top 3 as `ruling search`. Prints both recall@3 figures."""
    from test_search_site_parity import SUITE_FILES, suite_cases

    from ruling.search import search as cli_search

    # the project's own suite (the outside suite's recall, held-out and train: bench/bench_site_search.py)
    cases = [c for c in suite_cases(SUITE_FILES[:1]) if c.get("expect") or c.get("expect_any")]
    assert len(cases) >= 40
    page.goto((site / "livres" / "club" / "02.html").as_uri())
    site_ok = cli_ok = 0
    differ, missed = [], []
    for case in cases:
        search(page, case["query"], delay=0)
        shown = [tuple(r) for r in top_refs(page)]
        cli = [(h.kind, h.ref) for h in cli_search(kb, case["query"], limit=3).hits]
        refs = [ref for _, ref in shown]
        site_ok += _wanted_in_top3(case, refs)
        cli_ok += _wanted_in_top3(case, [ref for _, ref in cli])
        if shown != cli:
            differ.append(f"{case['query']!r}: site {shown}, ruling search {cli}")
        if not _wanted_in_top3(case, refs):
            missed.append(f"{case['query']!r}: attendu {case.get('expect') or case['expect_any']}, obtenu {refs}")
    print(f"\nrecall@3 site {site_ok / len(cases):.1%}, ruling search {cli_ok / len(cases):.1%}"
          f" sur {len(cases)} requêtes")
    assert not differ, "\n".join(differ)
    assert site_ok / len(cases) >= 0.95, "\n".join(missed)


@pytest.mark.parametrize("query, citation", [("carte brulee", "club:2-5"), ("maldone", "club:2-17"),
                                             ("relanse insufisante", "club:9-9"),
                                             ("tete a tete", "club:8-16")])  # the house book (club) first
def test_search_box_on_a_phone(browser, site, query, citation):
    """On a 390×844 screen: the box is in the header, results appear while typing, a tap opens the clause."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", has_touch=True,
                                  is_mobile=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((site / "index.html").as_uri())
        box = page.locator("input.rs-input")
        assert box.is_visible() and box.bounding_box()["width"] >= 150
        box.tap()
        box.press_sequentially(query, delay=20)
        link = page.locator(f"ol.rs-results a.rs-link[data-ref='{citation}']")
        link.wait_for(timeout=10000)
        assert citation in [ref for _, ref in top_refs(page)]
        panel = page.locator(".rs-panel").bounding_box()
        assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 390
        text = link.inner_text()
        assert citation in text and "\n" in text  # the citation, then its book and snippet
        shot(page, f"phone-search-{citation.replace(':', '-')}.png")
        anchor = citation.split(":", 1)[1]
        link.tap()
        page.wait_for_url(f"**#{anchor}")
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("words, procedure", [("flop sans carte brulee", "club/flop-irregulier"),
                                              ("un joueur donne des jetons a un autre", "club/donner-des-jetons")])
def test_questionnaire_picker_ranks_with_the_search(page, site, kb, words, procedure):
    """The situation filter no longer needs every word in a title: it ranks as the search does."""
    page.goto((site / "questionnaire.html").as_uri())
    page.fill(".rq-filter", words)
    book, pid = procedure.split("/")
    first = page.locator(f"details.rq-group[data-book='{book}'] button.rq-procedure").first  # grouped by book
    title = next(p.title for p in kb.procedures if p.book == book and p.id == pid)
    assert first.inner_text().startswith(title)
VIEWPORTS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=sorted(VIEWPORTS))
def device(request, browser):
    """A page at the desktop (1366×768) and the phone (390×844) size, the phone touch-enabled;
    like `page`, every request off this machine and every JavaScript error fails the test."""
    phone = request.param == "phone"
    context = browser.new_context(viewport=VIEWPORTS[request.param], locale="fr-FR",
                                  has_touch=phone, is_mobile=phone, device_scale_factor=2 if phone else 1)
    yield from _guarded_page(context, lambda pg: setattr(pg, "device_name", request.param))


def _in_view(page, selector: str) -> bool:
    return page.evaluate("""sel => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight; }""", selector)


def test_choosing_a_situation_scrolls_to_its_first_question_and_focuses_it(device, server):
    device.goto(server + "questionnaire.html")
    # a situation far down the list: the last one of a book opened by hand (not the house book, open already)
    group = device.locator("details.rq-group[data-book='tda']")
    group.locator("summary").click()
    last = group.locator("button.rq-procedure").last
    last.scroll_into_view_if_needed()
    assert device.evaluate("window.scrollY") > 300
    last.click()
    device.locator(".rq-step").wait_for()
    assert _in_view(device, ".rq-step"), "the first question is off the screen"
    assert device.evaluate("document.activeElement.classList.contains('rq-step')")
    if device.device_name == "phone":
        shot(device, "phone-questionnaire-question.png")


def test_the_state_lives_in_the_url_back_and_a_shared_link_restore_it(device, server, kb):
    proc = next(p for p in kb.procedures if p.id == "flop-irregulier" and p.book == "club")
    device.goto(server + "questionnaire.html")
    device.fill(".rq-filter", "flop")
    device.locator("button.rq-procedure", has_text=proc.title).click()
    device.locator("button.rq-choice", has_text="Le flop a été exposé sans brûler de carte").click()
    device.locator("button.rq-choice", has_text="Oui").click()
    device.locator(".rq-decision").wait_for()
    decided = device.locator(".rq-decision-text").inner_text()
    shared = device.url
    assert "procedure=club%2Fflop-irregulier" in shared and "q." in shared
    device.locator(".rq-clause-ref a").first.click()  # a cited rule, then Back
    device.wait_for_url("**/livres/club/02.html#2-5")
    device.go_back()
    device.locator(".rq-decision").wait_for()
    assert device.locator(".rq-decision-text").inner_text() == decided
    assert device.locator(".rq-answered").count() == 2
    device.go_back()  # one answer undone
    device.locator(".rq-question").wait_for()
    assert device.locator(".rq-answered").count() == 1
    fresh = device.context.new_page()  # a bookmark or a link sent to another phone
    fresh.goto(shared)
    fresh.locator(".rq-decision").wait_for()
    assert fresh.locator(".rq-decision-text").inner_text() == decided
    fresh.close()


def test_a_computed_decision_shows_no_template_and_comes_back_from_the_url(device, server, kb):
    from ruling.decide.engine import decide

    device.goto(server + "procedures/club/relance-minimum.html")
    device.locator("button.rq-choice", has_text="Le montant minimum pour ouvrir ou relancer").click()
    text = device.locator(".rq-decision-text")
    assert text.inner_text() == "" or not text.is_visible()
    assert "[" not in device.locator(".rq-decision").inner_text()  # no « [la réponse en une phrase] »
    assert device.get_attribute("input[name='mises']", "inputmode") in ("numeric", "decimal")
    assert device.get_attribute("input[name='grosse-blind']", "inputmode") == "numeric"
    device.select_option("select[name='tour']", "apres-flop")
    device.fill("input[name='grosse-blind']", "100")
    device.fill("input[name='mises']", "200, abc")  # invalid: still nothing in the decision
    device.locator("button.rq-calculate").click()
    assert device.locator(".rq-error").inner_text() != ""
    assert not text.is_visible() and "[" not in device.locator(".rq-decision").inner_text()
    device.fill("input[name='mises']", "200, 290")
    device.locator("button.rq-calculate").click()
    expected = decide(kb, "club", "relance-minimum", {"demande": "minimum", "tour": "apres-flop",
                                                      "grosse-blind": 100, "mises": [200, 290]}).decision
    assert text.inner_text() == expected
    shared = device.url
    fresh = device.context.new_page()
    fresh.goto(shared)
    fresh.locator(".rq-decision-text").wait_for()
    assert fresh.locator(".rq-decision-text").inner_text() == expected
    fresh.close()
    if device.device_name == "phone":
        shot(device, "phone-questionnaire-decision.png", full_page=True)


def test_the_list_starts_with_the_house_book_grouped_by_book(device, server, kb):
    from ruling.site.build import house_book

    house = house_book(kb)
    assert house == kb.house_book  # rulebook/base.yaml's, the book `ruling ask` proposes first
    device.goto(server + "questionnaire.html")
    books = device.eval_on_selector_all("details.rq-group", "els => els.map(e => [e.dataset.book, e.open])")
    assert books[0] == [house, True]
    assert [b for b, _ in books[1:]] == [b.id for b in kb.books if b.id != house and
                                         any(p.book == b.id for p in kb.procedures)]
    assert not any(open_ for _, open_ in books[1:])  # the others one tap away, not 8,500 px of buttons
    visible = device.locator("button.rq-procedure:visible").count()
    assert visible == sum(1 for p in kb.procedures if p.book == house)
    device.fill(".rq-filter", "flop")
    opened = device.eval_on_selector_all("details.rq-group", "els => els.map(e => e.open)")
    assert opened and all(opened)
    assert device.locator("button.rq-procedure:visible").count() < len(kb.procedures)
    # the shared ranking, when the page has it, orders and filters the list
    device.evaluate("""() => { window.rulingSearch = { rankSituations: (words, house) => {
        window.__ranked = [words, house]; return ['club/relance-minimum', {key: 'tda/bouton-mort'}]; } }; }""")
    device.fill(".rq-filter", "n'importe")
    assert device.evaluate("window.__ranked") == ["n'importe", house]
    keys = device.eval_on_selector_all("details.rq-group", "els => els.map(e => e.dataset.book)")
    assert keys == ["club", "tda"]
    assert device.locator("button.rq-procedure").count() == 2


def test_buttons_are_a_thumb_high(device, server):
    device.goto(server + "questionnaire.html")
    device.fill(".rq-filter", "flop")
    device.locator("button.rq-procedure").first.click()
    device.locator("button.rq-choice").first.click()
    heights = device.eval_on_selector_all(
        ".ruling-questionnaire button, .ruling-questionnaire summary",
        "els => els.filter(e => e.offsetParent !== null).map(e => [e.textContent.trim(), e.getBoundingClientRect().height])")
    assert any(label == "Modifier" for label, _ in heights) and any(label == "Autre situation" for label, _ in heights)
    small = [(label, h) for label, h in heights if h < 44]
    assert small == []


def test_404_is_styled_over_file(device, site):
    device.goto((site / "404.html").as_uri())
    header = device.evaluate("getComputedStyle(document.querySelector('.md-header')).position")
    assert header == "sticky"  # material's layout, not an unstyled page
    assert device.locator("a[href$='index.html']").count() > 0


def test_old_edition_links_the_current_one(device, server):
    device.goto(server + "livres/club/revisions/v1/index.html")
    device.locator(".admonition.warning a", has_text="l'édition actuelle").click()
    device.wait_for_url("**/livres/club/index.html")
    assert device.locator("a[href$='imprimer/club.pdf']").count() == 1
    if device.device_name == "phone":
        device.goto(server + "historique.html")
        shot(device, "phone-history.png", full_page=True)


# -- pages on a phone: tables, flowcharts, what changed ------------------------------------------------

@pytest.fixture
def phone(browser):
    """A touch phone page, 390×844, guarded like `page`."""
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="fr-FR", has_touch=True, is_mobile=True,
                                  device_scale_factor=2)
    yield from _guarded_page(context)


@pytest.mark.parametrize("path", ["index.html", "livres/index.html", "procedures/club/flop-irregulier.html",
                                  "comparaison.html"])
def test_tables_fit_a_phone(phone, server, path):
    phone.goto(server + path)
    phone.wait_for_selector("table[data-stack]")
    sizes = phone.evaluate("""() => ({
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        cut: [...document.querySelectorAll('.md-typeset table, .md-typeset table td')]
             .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5).length})""")
    assert sizes == {"page": 0, "cut": 0}  # nothing runs off the screen, inside a table or not
    if "flop-irregulier" in path:  # the Décision column, whole, with its title
        decision = phone.locator("table[data-stack] td[data-label='Décision']").first
        decision.scroll_into_view_if_needed()
        assert decision.is_visible() and decision.inner_text().startswith("Le flop seul est repris")
        label = phone.evaluate("""() => getComputedStyle(
            document.querySelector("table[data-stack] td[data-label='Décision']"), '::before').content""")
        assert label == '"Décision : "'
        shot(phone, "phone-decision-table.png")


def test_a_flowchart_can_be_enlarged_on_a_phone(phone, server):
    phone.goto(server + "procedures/club/flop-irregulier.html")
    phone.wait_for_selector(".ruling-flowchart div.mermaid", timeout=15000)
    chart = phone.locator(".ruling-flowchart .mermaid")
    before = chart.bounding_box()["width"]
    button = phone.locator("button.ruling-zoom")
    assert button.inner_text() == "Agrandir le logigramme" and button.bounding_box()["height"] >= 44
    button.click()
    assert button.get_attribute("aria-pressed") == "true" and button.inner_text() == "Réduire le logigramme"
    assert chart.bounding_box()["width"] >= 3 * before
    scroll = phone.evaluate("""() => { const box = document.querySelector('.ruling-flowchart');
        return [box.scrollWidth > box.clientWidth, document.documentElement.scrollWidth - document.documentElement.clientWidth]; }""")
    assert scroll == [True, 0]  # the flowchart's box scrolls sideways, the page does not
    chart.scroll_into_view_if_needed()
    shot(phone, "phone-flowchart-enlarged.png")
    button.click()
    assert abs(chart.bounding_box()["width"] - before) < 1


def test_a_changed_rule_says_so_and_its_redline_is_one_tap_away(device, server):
    device.goto(server + "livres/club/08.html#8-1")
    box = device.locator("[id='8-1'] ~ details.ruling-change").first
    summary = box.locator("summary")
    assert summary.inner_text() == "Modifiée depuis l'édition précédente" and summary.is_visible()
    assert summary.bounding_box()["height"] >= 30
    assert not box.locator("del").first.is_visible()
    summary.click()  # one tap
    assert box.locator("del").first.is_visible() and box.locator("ins").first.is_visible()
    if device.device_name == "phone":
        shot(device, "phone-changed-rule.png")
    typo = device.locator("[id='8-4'] ~ details.ruling-change").first
    assert typo.locator("summary").inner_text() == "Typographie seulement, depuis l'édition précédente"
    box.locator("a", has_text="l'historique du livre").click()
    device.wait_for_url("**/historique.html#livre-club-v1-v2-8-1")
    assert device.evaluate("document.querySelector(':target').id") == "livre-club-v1-v2-8-1"
    assert _in_view(device, ":target")


def test_a_decision_without_figures_shows_the_books_parameters_not_placeholders(page, server, kb):
    """Player trial: « {{ jetons-gagnes-maximum }} » was shown raw in the chip race without counts."""
    from ruling.decide.engine import decide

    page.goto(server + "procedures/club/chip-race.html")
    page.locator("button.rq-choice", has_text="On retire les jetons de la plus petite valeur").click()
    page.locator("button.rq-choice", has_text="Tirage au sort classique").click()
    page.locator("button.rq-choice", has_text="Chaque joueur échange d'abord ses jeux complets").click()
    page.locator("button.rq-choice").filter(has_text="Non").click()
    shown = page.locator(".rq-decision-text").inner_text()
    assert "{{" not in shown and "1 au plus par joueur" in shown
    expected = decide(kb, "club", "chip-race", {"moment": "chip-race", "methode": "classique", "course": "jeux-complets",
                                                       "chiffres": "non"})
    assert shown == expected.decision
