"""A script in any title renders literally, and `mkdocs build` in a copy of the repository builds
the copy's rulebook (tests/hostile_site.py puts a named script in every field that reaches HTML).

The HTML is read for raw markup; chromium opens the pages (navigation, <title>, flowchart,
questionnaire, search results) and no alert may fire.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from hostile_site import FIELDS, make_copy, payload

MKDOCS = Path(sys.executable).parent / "mkdocs"  # the console script: it imports the installed ruling


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    """The hostile copy built by `mkdocs build --strict` run in the copy, with no RULING_KB."""
    copy = tmp_path_factory.mktemp("repo-copy")
    config = make_copy(copy)
    dest = copy / "build" / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("RULING_KB", None)
    result = subprocess.run([str(MKDOCS), "build", "--strict", "-f", str(config), "-d", str(dest)],
                            cwd=copy, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    return dest


class _Text(HTMLParser):
    """The text a reader sees (character references decoded), and the <title>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        self.parts.append(data)
        if self._in_title:
            self.title += data


def _read(path: Path) -> _Text:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_the_copy_builds_its_own_rulebook(hostile_site):
    chapter = _read(hostile_site / "livres" / "club" / "02.html")
    assert f"Chapitre 2 — {payload('chapitre')}" in " ".join(" ".join(chapter.parts).split())


def test_no_field_reaches_the_html_as_markup(hostile_site):
    pages = sorted(hostile_site.rglob("*.html"))
    assert len(pages) > 100
    seen = set()
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "<script>alert(" not in html and "<img src=x" not in html, page
        text = " ".join(" ".join(_read(page).parts).split())
        seen |= {field for _, _, field in FIELDS if payload(field) in text}
    assert seen == {field for _, _, field in FIELDS}  # every field is on the site, as written


def test_titles_are_text_in_the_title_element(hostile_site):
    for rel, field in [("livres/club/02.html", "chapitre"), ("livres/club/index.html", "livre"),
                       ("procedures/club/flop-irregulier.html", "procedure")]:
        page = _read(hostile_site / rel)
        assert payload(field) in page.title and page.title.endswith(" - Règles de poker"), (rel, page.title)


def test_questionnaire_data_is_inert_and_faithful(hostile_site):
    script = (hostile_site / "assets" / "javascripts" / "ruling-questionnaire-data.js").read_text(encoding="utf-8")
    assert "<" not in script and ">" not in script
    data = json.loads(script.removeprefix("window.RULING_QUESTIONNAIRE = ").rstrip().removesuffix(";"))
    flop = next(p for p in data["procedures"] if p["key"] == "club/flop-irregulier")
    assert flop["title"] == payload("procedure") and flop["bookTitle"] == payload("livre")


# -- in chromium -------------------------------------------------------------------------------------

PAGES = ["index.html", "livres/index.html", "livres/club/index.html", "livres/club/02.html", "livres/club/08.html",
         "livres/club/revisions/v1/index.html", "livres/tda/reglement.html", "procedures/index.html",
         "procedures/club/flop-irregulier.html", "glossaire.html", "historique.html", "comparaison.html",
         "documents.html"]


@pytest.fixture(scope="module")
def browser_page(hostile_site):
    from test_site_browser import CHROMIUM, CHROMIUM_ARGS

    if not CHROMIUM.exists():
        pytest.skip("chromium absent (/usr/bin/chromium) : lancez scripts/install-browser.sh")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright absent")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        dialogs: list[str] = []

        def refuse(dialog):
            dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", refuse)
        yield page, dialogs
        browser.close()


@pytest.mark.parametrize("rel", PAGES)
def test_no_alert_fires_on_the_pages(hostile_site, browser_page, rel):
    page, dialogs = browser_page
    dialogs.clear()
    page.goto((hostile_site / rel).as_uri())
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # let the flowchart and the scripts run
    assert dialogs == []
    if rel == "livres/club/02.html":
        assert payload("chapitre") in page.title()
        assert payload("chapitre") in page.locator("h1").first.inner_text()
        assert payload("livre") in page.locator("nav.md-nav--primary").inner_text()


def test_no_alert_in_the_questionnaire_or_the_search(hostile_site, browser_page):
    page, dialogs = browser_page
    dialogs.clear()
    page.goto((hostile_site / "questionnaire.html").as_uri())
    page.fill(".rq-filter", "flop")
    page.locator("button.rq-procedure", has_text="procedure").click()
    assert payload("question") in page.locator(".rq-question").first.inner_text()
    page.locator("button.rq-choice", has_text="choix").click()
    page.locator("button.rq-choice", has_text="Oui").click()
    assert payload("decision") in page.locator(".rq-decision-text").inner_text()
    page.goto((hostile_site / "index.html").as_uri())
    page.locator("input.rs-input").click()
    page.locator("input.rs-input").press_sequentially("Règlement", delay=20)
    page.wait_for_selector(".rs-hit", timeout=30000)
    page.locator("input.rs-input").fill("")
    page.locator("input.rs-input").press_sequentially("titre-regle", delay=20)
    page.wait_for_selector(".rs-hit", timeout=30000)
    assert payload("titre-regle") in page.locator(".rs-results").inner_text()  # shown as text, never parsed
    page.wait_for_timeout(300)
    assert dialogs == []
