"""The published site: a strict build from the YAML alone, every clause verbatim, links, pages.

The site is built once per session with `mkdocs build --strict` (as CI does); the clause texts
of the built HTML are compared with the YAML files read directly, not through the loader.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, RULEBOOK

_BUILDS: dict[str, Path] = {}


def build_site(dest: Path, kb_root: Path | None = None) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of the project's mkdocs.yml into `dest`, on `kb_root` if given."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("RULING_KB", None)
    if kb_root is not None:
        env["RULING_KB"] = str(kb_root)
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(dest)], cwd=ROOT, env=env, capture_output=True, text=True)


def built_site(tmp_path_factory, name: str = "real", kb_root: Path | None = None) -> Path:
    """A site built once per session and name (shared with the browser tests)."""
    if name not in _BUILDS:
        dest = tmp_path_factory.mktemp(f"site-{name}") / "site"
        result = build_site(dest, kb_root)
        assert result.returncode == 0, result.stderr[-3000:]
        assert "WARNING" not in result.stderr, result.stderr[-3000:]
        _BUILDS[name] = dest
    return _BUILDS[name]


INJECTION = "1. <script>window.__rulingInjected = 1</script> *étoiles* _souligné_ # dièse | barre `code` [lien](x.md) &amp; \\"
INJECTION_ITEM = "- <img src=x onerror=\"window.__rulingInjected = 2\"> **gras** | a | b |"
INJECTION_TITLE = "# Titre | *faux* <b>gras</b> {#autre}"


def inject(kb_root: Path) -> str:
    """Put the injection text into a clause that no procedure cites; return its citation."""
    from ruling.kb.load import parse_kb

    kb, problems = parse_kb(kb_root)
    assert not problems
    cited = {c for p in kb.procedures for c in p.cited_citations()}
    victim = next(c for c in kb.clauses("club") if c.citation not in cited and not c.refs and not kb.cited_by(c))
    path = kb_root.parent / victim.file
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for clause in data["clauses"]:
        if clause["id"] == victim.id:
            clause.update(text=INJECTION, items=[INJECTION_ITEM, "1. liste"], after="## pas un titre",
                          title=INJECTION_TITLE, note="<script>window.__rulingInjected = 3</script> _note_")
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return victim.citation


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    return built_site(tmp_path_factory)


# -- reading the built HTML ------------------------------------------------------------------------

class ClauseParser(HTMLParser):
    """Collects each clause block (`div.ruling-clause-body[data-citation]`), ids, links and headings."""

    FIELDS = {("p", "ruling-clause-text"): "text", ("li", None): "items", ("p", "ruling-clause-after"): "after"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.clauses: dict[str, list[dict]] = {}
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.headings: dict[str, str] = {}
        self._clause = None
        self._field = None
        self._buf: list[str] = []
        self._heading = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag in ("h1", "h2", "h3") and "id" in a:
            self._heading, self._hbuf = a["id"], []
        if self._field is not None:  # an element inside a clause text: markup was not escaped
            self._clause["nested"].append(tag)
            return
        if tag == "div" and "ruling-clause-body" in classes and "data-citation" in a:
            self._clause = {"text": None, "items": [], "after": None, "nested": []}
            self.clauses.setdefault(a["data-citation"], []).append(self._clause)
        elif self._clause is not None:
            key = (tag, classes[0] if classes else None)
            if key in self.FIELDS:
                self._field, self._buf = self.FIELDS[key], []
            elif tag not in ("ul",):
                self._clause["nested"].append(tag)

    def handle_endtag(self, tag):
        if self._heading and tag in ("h1", "h2", "h3"):
            self.headings[self._heading] = "".join(self._hbuf).replace("¶", "")
            self._heading = None
        if self._field is not None and tag in ("p", "li"):
            value = "".join(self._buf)
            if self._field == "items":
                self._clause["items"].append(value)
            else:
                self._clause[self._field] = value
            self._field = None
        elif tag == "div" and self._field is None:
            self._clause = None

    def handle_data(self, data):
        if self._field is not None:
            self._buf.append(data)
        if self._heading:
            self._hbuf.append(data)


def parse_html(path: Path) -> ClauseParser:
    parser = ClauseParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def parse_pages(folder: Path) -> dict[str, ClauseParser]:
    return {str(p.relative_to(folder)): parse_html(p) for p in sorted(folder.rglob("*.html"))}


def yaml_clauses(kb_root: Path) -> list[tuple[str, dict]]:
    """(citation, clause mapping) of every clause of every revision, read straight from the YAML."""
    out = []
    for book_file in sorted(kb_root.glob("*/book.yaml")):
        book = yaml.safe_load(book_file.read_text(encoding="utf-8"))
        for i, rev in enumerate(book["revisions"]):
            current = i == len(book["revisions"]) - 1
            prefix = f"{book['id']}:" if current else f"{book['id']}@{rev['id']}:"
            for chapter_file in sorted((book_file.parent / rev["path"]).glob("*.yaml")):
                data = yaml.safe_load(chapter_file.read_text(encoding="utf-8"))
                if isinstance(data, dict) and "clauses" in data:
                    out.extend((prefix + str(c["id"]), c) for c in data["clauses"])
    return out


@pytest.fixture(scope="session")
def book_pages(site) -> dict[str, ClauseParser]:
    return parse_pages(site / "livres")


# -- the build ------------------------------------------------------------------------------------------

def test_strict_build_from_yaml_alone_is_clean(site):
    assert (site / "index.html").is_file()
    assert (site / "livres" / "club" / "09.html").is_file()
    assert (site / "assets" / "javascripts" / "ruling-search-data.js").is_file(), "offline search index missing"


def test_every_clause_reads_exactly_as_in_the_yaml(kb, book_pages):
    found: dict[str, list[dict]] = {}
    anchors: dict[str, set[str]] = {}
    for parsed in book_pages.values():
        for citation, blocks in parsed.clauses.items():
            found.setdefault(citation, []).extend(blocks)
            anchors.setdefault(citation, set()).update(parsed.ids)
    expected = yaml_clauses(RULEBOOK)
    assert len(expected) == len(kb.clauses(all_revisions=True)) > 200
    for citation, clause in expected:
        blocks = found.get(citation)
        assert blocks and len(blocks) == 1, f"{citation}: {len(blocks or [])} blocks in the book pages"
        block = blocks[0]
        assert block["nested"] == [], f"{citation}: markup inside the text: {block['nested']}"
        assert block["text"] == clause["text"], citation
        assert block["items"] == clause.get("items", []), citation
        assert block["after"] == clause.get("after"), citation
        assert str(clause["id"]) in anchors[citation], f"{citation}: no permalink anchor"


def test_clause_permalink_is_its_id(site, book_pages):
    club09 = book_pages["club/09.html"]
    assert "9-13" in club09.ids
    assert club09.headings["9-13"].strip() == "9-13"
    assert "2-17" in book_pages["club/02.html"].ids
    tda = book_pages["tda/reglement.html"]
    assert tda.headings["jetons-indivisibles"].strip() == "Les jetons indivisibles"
    cash = book_pages["cash/maldonnes.html"]
    assert cash.headings["maldonnes-1"].strip() == "Article 1"
    older = book_pages["club/revisions/v1/08.html"]
    assert "club@v1:8-1" in older.clauses


def test_rendering_is_deterministic(kb):
    from ruling.site.pages import SitePages

    assert SitePages(kb).render() == SitePages(kb).render()


def test_refs_are_links_and_cited_by_backlinks(site):
    page = (site / "livres" / "club" / "02.html").read_text(encoding="utf-8")
    clause_24 = page[page.index('id="2-4"'):page.index('id="2-5"')]
    assert 'href="02.html#2-17"' in clause_24  # "(cf 2-17)" in the text of 2-4
    clause_217 = page[page.index('id="2-17"'):page.index('id="2-18"')]
    assert "Cité par" in clause_217 and 'href="02.html#2-4"' in clause_217


def test_editor_notes_are_admonitions(site):
    page = (site / "livres" / "club" / "09.html").read_text(encoding="utf-8")
    clause_97 = page[page.index('id="9-7"'):page.index('id="9-8"')]
    assert 'class="admonition note"' in clause_97
    assert "Note de l&#39;éditeur" in clause_97 or "Note de l'éditeur" in clause_97
    assert "suivit" in clause_97


def test_bulleted_items_are_lists(book_pages):
    block = book_pages["club/09.html"].clauses["club:9-3"][0]
    assert block["items"][0] == "Soit en mettant sur le tapis le montant total en une fois."
    assert len(block["items"]) == 3


def test_clause_lists_the_procedures_citing_it(kb, site):
    proc = next(p for p in kb.procedures if p.id == "flop-irregulier" and p.book == "club")
    page = (site / "livres" / "club" / "02.html").read_text(encoding="utf-8")
    clause_25 = page[page.index('id="2-5"'):page.index('id="2-6"')]
    assert 'href="../../procedures/club/flop-irregulier.html"' in clause_25
    assert proc.title in clause_25


def test_no_broken_internal_link(site):
    ids: dict[Path, set[str]] = {}
    for page in sorted(site.rglob("*.html")):
        if page.name == "404.html":  # served for any missing URL: its links are absolute on purpose
            continue
        for href in parse_html(page).links:
            if re.match(r"^[a-z]+:", href) or href == "#":
                continue
            path, _, anchor = href.partition("#")
            target = (page.parent / path).resolve() if path else page.resolve()
            if target.is_dir():
                target = target / "index.html"
            assert target.is_file(), f"{page.relative_to(site)} -> {href}"
            if anchor and target.suffix == ".html":
                if target not in ids:
                    ids[target] = parse_html(target).ids
                assert anchor in ids[target], f"{page.relative_to(site)} -> {href}"


# -- procedures ---------------------------------------------------------------------------------------

def test_procedure_page_has_questions_decision_table_and_flowchart(kb, site):
    proc = next(p for p in kb.procedures if p.id == "flop-irregulier" and p.book == "club")
    page = (site / "procedures" / "club" / "flop-irregulier.html").read_text(encoding="utf-8")
    text = parse_text(page)
    for q in proc.used_questions():
        assert q.text in text
    for rule in proc.rules:
        assert rule.decision in text
    assert '<pre class="mermaid">' in page
    assert page.count("livres/club/02.html#2-6") >= 1
    assert "assets/vendor/mermaid.min.js" in page


def parse_text(html: str) -> str:
    class Text(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.parts = []

        def handle_data(self, data):
            self.parts.append(data)

    p = Text()
    p.feed(html)
    return "".join(p.parts)


def test_the_exported_tree_is_the_engines_walk(kb):
    """Every node of the tree the flowchart draws and the browser follows is what `ruling decide`
    gives on the answers leading to it: the same next question, the same decision, the same amounts."""
    from ruling.decide import engine

    assert kb.procedures
    for proc in kb.procedures:
        tree = engine.decision_tree(proc)
        assert tree["complete"], proc.citation
        reached = set()
        for answers, node in _paths(tree["root"]):
            decision = engine.decide_procedure(kb, proc, answers)
            if "question" in node:
                assert decision.missing and decision.missing[0].id == node["question"], (proc.citation, answers)
                assert [a for a, _ in node["answers"]] == proc.question(node["question"]).domain
            else:
                assert "gap" not in node, (proc.citation, answers)
                assert decision.rule is not None and decision.rule.outcome == node["outcome"], (proc.citation, answers)
                reached.add(node["outcome"])
                if "compute" in node:
                    assert not decision.decided and [q.id for q in decision.missing] == node["inputs"]
        assert reached == {r.outcome for r in proc.rules}, proc.citation


def test_the_flowchart_draws_the_exported_tree(kb):
    from ruling.decide.engine import decision_tree
    from ruling.site.walk import flowchart_tree

    proc = next(p for p in kb.procedures if p.citation == "club:relance-minimum")
    tree = flowchart_tree(decision_tree(proc))
    # the street once, and the big blind's question only before the flop
    assert tree.questions == [("q0", "demande"), ("q1", "tour"), ("q2", "gros-blind-sans-parler")]
    assert tree.outcomes == ["minimum", "option-du-gros-blind", "reouverture-avant-flop", "reouverture"]
    assert tree.edges == [("q0", "o:minimum", "minimum"), ("q0", "q1", "reouverture"),
                          ("q1", "q2", "avant-flop"), ("q1", "o:reouverture", "apres-flop"),
                          ("q2", "o:option-du-gros-blind", True), ("q2", "o:reouverture-avant-flop", False)]


def test_an_input_the_path_answered_is_given_to_the_calculator_not_asked_again(kb):
    """The street answered to choose the rule (club and TDA reopening) is handed to the calculator
    as given: the browser's amounts step never asks it a second time."""
    from ruling.decide import engine

    for proc in kb.procedures:
        for answers, node in _paths(engine.decision_tree(proc)["root"]):
            if "compute" in node:
                assert not set(node["inputs"]) & set(answers), (proc.citation, answers, node)
                assert {k: v for k, v in node.get("given", {}).items() if k in answers} == \
                    {k: answers[k] for k in node.get("given", {}) if k in answers}
    for citation in ("club:relance-minimum", "tda:relance-insuffisante"):
        proc = next(p for p in kb.procedures if p.citation == citation)
        reopening = dict(engine.decision_tree(proc)["root"]["answers"])["reouverture"]
        after_flop = dict(reopening["answers"])["apres-flop"]
        assert after_flop["given"] == {"tour": "apres-flop"} and "tour" not in after_flop["inputs"]


def _paths(node: dict, answers: dict | None = None):
    """(answers, node) for every node of an exported tree, from the root."""
    answers = answers or {}
    yield answers, node
    for value, child in node.get("answers", []):
        yield from _paths(child, {**answers, node["question"]: value})


def test_questionnaire_data_is_exported_for_the_browser(kb, site):
    script = (site / "assets" / "javascripts" / "ruling-questionnaire-data.js").read_text(encoding="utf-8")
    prefix = "window.RULING_QUESTIONNAIRE = "
    assert script.startswith(prefix)
    data = json.loads(script[len(prefix):].rstrip().rstrip(";"))
    assert {p["key"] for p in data["procedures"]} == {f"{p.book}/{p.id}" for p in kb.procedures}
    flop = next(p for p in data["procedures"] if p["key"] == "club/flop-irregulier")
    assert flop["url"] == "procedures/club/flop-irregulier.html"
    clause = data["clauses"]["club:2-6"]
    assert clause["url"] == "livres/club/02.html#2-6"
    assert clause["text"] == kb.clause("club:2-6").text
    assert clause["items"] == kb.clause("club:2-6").items


def test_questionnaire_data_exports_if_unknown(kb, site):
    """« Je ne sais pas » answers a question's `if_unknown` on the site as in `ruling ask`: the export
    carries it as `ifUnknown`, only on the questions that set it (false is a value, kept)."""
    script = (site / "assets" / "javascripts" / "ruling-questionnaire-data.js").read_text(encoding="utf-8")
    data = json.loads(script[len("window.RULING_QUESTIONNAIRE = "):].rstrip().rstrip(";"))
    exported = {(p["key"], q["id"]): q["ifUnknown"] for p in data["procedures"] for q in p["questions"] if "ifUnknown" in q}
    declared = {(f"{p.book}/{p.id}", q.id): q.if_unknown for p in kb.procedures for q in p.questions.values()
                if q.if_unknown is not None}
    assert exported == declared
    assert exported[("club/partage-du-pot", "chiffres")] is False
    flop = next(p for p in data["procedures"] if p["key"] == "club/flop-irregulier")
    assert all("ifUnknown" not in q for q in flop["questions"])

def test_comparison_puts_books_side_by_side(kb, site):
    shared = {}
    for p in kb.procedures:
        shared.setdefault(p.situation, set()).add(p.book)
    situation, books = next((s, b) for s, b in sorted(shared.items()) if len(b) > 1)
    page = parse_html(site / "comparaison.html")
    assert f"situation-{situation}" in page.ids
    html = (site / "comparaison.html").read_text(encoding="utf-8")
    for book in books:
        assert kb.book(book).title in html
    assert "≠" in html


# -- history, glossary, documents, home -----------------------------------------------------------

def test_history_shows_the_redline_of_the_club_revisions(site):
    html = (site / "historique.html").read_text(encoding="utf-8")
    assert "Édition antérieure du chapitre 8" in html
    assert '<p class="ruling-redline">' in html
    assert "<del>" in html or "<ins>" in html


def test_glossary_has_an_anchor_per_term(kb, site):
    parsed = parse_html(site / "glossaire.html")
    from ruling.site.pages import SitePages

    anchors = SitePages(kb).glossary_anchors
    assert kb.glossary and len(anchors) == len({e["term"] for e in kb.glossary})
    for anchor in anchors.values():
        assert anchor in parsed.ids


def test_original_documents_are_downloadable(site):
    assert (site / "documents" / "club" / "source.txt").read_bytes() == (RULEBOOK / "club" / "source.txt").read_bytes()
    assert (site / "documents" / "club" / "v1" / "source.txt").read_bytes() == \
        (RULEBOOK / "club" / "revisions" / "v1" / "source.txt").read_bytes()
    html = (site / "documents.html").read_text(encoding="utf-8")
    for book in ("club", "tda", "cash", "infos"):
        assert f'href="documents/{book}/source.txt"' in html


def test_home_page_lists_books_and_latest_changes(kb, site):
    html = (site / "index.html").read_text(encoding="utf-8")
    assert "ruling:" not in html  # every generated part was filled in
    for book in kb.books:
        assert f'href="livres/{book.id}/index.html"' in html
    assert 'href="questionnaire.html"' in html
    assert "Édition antérieure du chapitre 8" in html  # the club's latest revision change


def test_search_index_is_the_command_lines(site, kb):
    """The site's index is ruling's own export, embedded in a script (no fetch: file:// works)."""
    from ruling.site.search_index import search_export

    text = (site / "assets" / "javascripts" / "ruling-search-data.js").read_text(encoding="utf-8")
    assert text.startswith("window.RULING_SEARCH = ") and text.rstrip().endswith(";")
    data = json.loads(text[len("window.RULING_SEARCH = "):].rstrip().rstrip(";"))
    assert data["fields"] == search_export(kb)["fields"]
    entry = next(d for d in data["docs"] if d["ref"] == "club:2-17")
    assert entry["url"] == "livres/club/02.html#2-17" and entry["book"] == "club"
    assert not (site / "search" / "search_index.json").exists()  # mkdocs-material's search is replaced
    html = (site / "index.html").read_text(encoding="utf-8")
    assert (html.index("ruling-search-data.js") < html.index("search-stemmer.js") < html.index("search-engine.js")
            < html.index("assets/search.js"))


def test_no_markdown_leaks_into_the_pages(site):
    """Every attribute list and fence was consumed: none shows as text in a page."""
    for page in sorted(site.rglob("*.html")):
        text = parse_text(page.read_text(encoding="utf-8"))
        assert "{:" not in text and "{ #" not in text and "```" not in text, page


def test_site_needs_no_network(site):
    """Opened from a USB stick, nothing is fetched: no script, style or font from elsewhere."""
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        assert not re.search(r'<(?:script|link|img)[^>]+(?:src|href)="(?:https?:)?//', html), page
        assert "unpkg.com" not in html and "fonts.googleapis" not in html, page


# -- escaping: a clause containing markup renders literally ------------------------------------------

_INJECTED: dict[str, str] = {}


def built_injected_site(tmp_path_factory) -> tuple[Path, str]:
    """(site, citation): a copy of the knowledge base with markup in one clause, built once per session."""
    import shutil

    if "citation" not in _INJECTED:
        root = tmp_path_factory.mktemp("kb-injected") / "rulebook"
        shutil.copytree(RULEBOOK, root)
        _INJECTED["citation"] = inject(root)
        _INJECTED["root"] = str(root)
    return built_site(tmp_path_factory, "injected", Path(_INJECTED["root"])), _INJECTED["citation"]


@pytest.fixture(scope="session")
def injected_site(tmp_path_factory):
    return built_injected_site(tmp_path_factory)


def test_markup_in_a_clause_renders_literally(injected_site):
    site, citation = injected_site
    book, clause_id = citation.split(":")
    pages = parse_pages(site / "livres" / book)
    blocks = [b for p in pages.values() for b in p.clauses.get(citation, [])]
    assert len(blocks) == 1
    block = blocks[0]
    assert block["nested"] == []
    assert block["text"] == INJECTION
    assert block["items"] == [INJECTION_ITEM, "1. liste"]
    assert block["after"] == "## pas un titre"
    heading = next(p.headings[clause_id] for p in pages.values() if clause_id in p.headings)
    assert heading.strip() == f"{clause_id} — {INJECTION_TITLE}"
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "<script>window.__rulingInjected" not in html
        assert "<img src=x" not in html


def test_broken_knowledge_base_stops_the_build_with_one_french_line(kb_copy, tmp_path):
    chapter = kb_copy / "club" / "09-actions-et-les-relances.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("chapter: '9'", "chapter: [9", 1), encoding="utf-8")
    result = build_site(tmp_path / "site", kb_copy)
    assert result.returncode != 0
    assert "site non construit : " in result.stderr and "YAML invalide" in result.stderr
    assert "Traceback" not in result.stderr


# -- the escaping function itself ---------------------------------------------------------------------------

MD = dict(extensions=["attr_list", "tables", "admonition", "toc", "pymdownx.superfences"])
TEXT = st.text(alphabet=st.sampled_from(list("abc 1.*_#|<>&`[]()!~^=+-{}:\\\"'\n\té’\u00a0»")), min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_escaped_text_survives_markdown_everywhere(text):
    from ruling.site.escape import md_text

    md = markdown.Markdown(**MD)
    html = md.convert(f"## {md_text(text)} {{ #h }}\n\n{md_text(text)}\n\n| a |\n| --- |\n| {md_text(text)} |\n")
    parsed = ClauseParser()
    parsed.feed(html)
    assert parsed.headings["h"] == text
    cells = re.findall(r"<td>(.*?)</td>", html, re.S)
    paragraphs = re.findall(r"<p>(.*?)</p>", html, re.S)
    assert [parse_text(c) for c in cells] == [text]
    assert [parse_text(p) for p in paragraphs] == [text]


def test_no_english_theme_footer_and_commands_folded(site):
    """Player trial: « Made with Material for MkDocs » under every page; the comparison's command box open."""
    pages = list(site.rglob("*.html"))
    assert pages
    assert not [p.name for p in pages if "Made with" in p.read_text(encoding="utf-8")]
    comparison = (site / "comparaison.html").read_text(encoding="utf-8")
    at = comparison.index("Pour l&rsquo;arbitre") if "Pour l&rsquo;arbitre" in comparison else comparison.index("Pour l'arbitre")
    assert comparison.rfind("<details", 0, at) > comparison.rfind("</details>", 0, at)  # inside a folded box


def test_a_new_rule_points_to_the_history_in_a_sentence(site):
    """Player trial: the new rule 8-15 read « Voir ou l'historique du livre. »"""
    chapter = next(p for p in site.rglob("*.html") if "8-15" in p.read_text(encoding="utf-8") and "club" in str(p))
    assert not [p.name for p in site.rglob("*.html") if "Voir ou " in p.read_text(encoding="utf-8")], chapter
