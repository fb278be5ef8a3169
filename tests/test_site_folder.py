"""Issue 16, what was left: `ruling site DOSSIER`, the history on the rule itself, the comparison of
texts, the house book shared with `ruling ask`, and player pages without command lines.

The folder is built by mkdocs without the page-generating hook and must give the same HTML as the
project's own build (the session site of test_site.py); the rest reads the generated pages.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from test_site import built_site

from conftest import ROOT, RULEBOOK


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return built_site(tmp_path_factory)


def _ruling(*args, env=None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruling", *args], capture_output=True, text=True,
                          env=env, cwd=cwd)


def _quiet_env(**extra) -> dict:
    """The environment of someone who just activated the venv: no banner switch, no RULING_KB."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_MKDOCS_2_WARNING", "RULING_KB", "RULING_BOOK")}
    return {**env, **extra}


# -- ruling site DOSSIER ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def folder_build(tmp_path_factory, site) -> tuple[Path, subprocess.CompletedProcess, subprocess.CompletedProcess]:
    """`ruling site DOSSIER`, then `mkdocs build --strict -f DOSSIER/mkdocs.yml` as a user runs it."""
    folder = tmp_path_factory.mktemp("folder") / "site-md"
    pdf = {} if (site / "imprimer").is_dir() else {"RULING_NO_PDF": "1"}  # the same site as the session's
    written = _ruling("site", str(folder), env=_quiet_env(**pdf), cwd=ROOT)
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(folder / "mkdocs.yml")],
                           capture_output=True, text=True, env=_quiet_env(), cwd=folder)
    return folder, written, built


def test_site_command_writes_pages_and_assets_that_build_to_the_same_site(folder_build, site):
    folder, written, built = folder_build
    assert written.returncode == 0, written.stderr
    assert re.match(r"Site écrit dans .+ : \d+ fichiers, dont 13\d pages\.", written.stdout)
    docs = folder / "docs"
    assert (docs / "livres" / "club" / "08.md").is_file() and (docs / "assets" / "questionnaire.js").is_file()
    assert "<!-- ruling:livres -->" not in (docs / "index.md").read_text(encoding="utf-8")  # the home page filled
    config = (folder / "mkdocs.yml").read_text(encoding="utf-8")
    assert "ruling/site/hooks.py" not in config and "html_hooks.py" in config and "\nnav:\n" in config
    assert built.returncode == 0, built.stderr[-3000:]
    out = folder / "site"
    for page in ["index.html", "historique.html", "comparaison.html", "livres/club/08.html", "questionnaire.html",
                 "procedures/club/flop-irregulier.html", "assets/javascripts/ruling-questionnaire-data.js",
                 "assets/javascripts/ruling-search-data.js", "404.html"]:
        assert (out / page).read_bytes() == (site / page).read_bytes(), page


def test_the_projects_build_shows_no_banner_and_no_english_progress(folder_build, tmp_path):
    """mkdocs run as the README says (no NO_MKDOCS_2_WARNING): the theme's end-of-life banner and
    mkdocs' English INFO lines are gone, a French line says where the site is."""
    _, _, built = folder_build
    project = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", str(tmp_path / "s")],
                             capture_output=True, text=True, env=_quiet_env(RULING_NO_PDF="1"), cwd=ROOT)
    for result in (project, built):
        assert result.returncode == 0, result.stderr[-2000:]
        output = result.stdout + result.stderr
        assert "end of life" not in output and "Zensical" not in output
        assert "Building documentation" not in output and "Documentation built" not in output
    assert "Site construit dans" in project.stderr


def test_site_command_refuses_a_bad_folder_in_one_french_line(tmp_path):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("à garder\n", encoding="utf-8")
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "vacances.jpg").write_bytes(b"\xff\xd8")
    cases = {str(a_file): "est un fichier, pas un dossier", str(a_file / "sous-dossier"): "est un fichier",
             str(foreign): "n'est pas vide et ne vient pas de « ruling site »"}
    for folder, message in cases.items():
        result = _ruling("site", folder, env=_quiet_env(), cwd=ROOT)
        assert result.returncode == 2, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Erreur : ") and message in lines[0], result.stderr
        assert "Traceback" not in result.stderr
    assert a_file.read_text(encoding="utf-8") == "à garder\n"  # nothing lost
    assert sorted(p.name for p in foreign.iterdir()) == ["vacances.jpg"]


def test_writing_again_replaces_the_previous_output_only(tmp_path):
    from ruling.site.export import MARKER, SiteFiles, write_site

    folder = tmp_path / "out"
    first = SiteFiles(contents={"index.md": "# Un\n", "old.md": "# Vieux\n"}, nav=[{"Accueil": "index.md"}])
    assert write_site(folder, first, ROOT / "mkdocs.yml") == ["docs/index.md", "docs/old.md", "mkdocs.yml"]
    second = SiteFiles(contents={"index.md": "# Deux\n"}, nav=[{"Accueil": "index.md"}])
    write_site(folder, second, ROOT / "mkdocs.yml")
    assert (folder / "docs" / "index.md").read_text(encoding="utf-8") == "# Deux\n"
    assert not (folder / "docs" / "old.md").exists()  # listed by the previous run, not by this one
    assert (folder / MARKER).read_text(encoding="utf-8").split() == ["docs/index.md", "mkdocs.yml"]
    assert not [p for p in folder.rglob("*.tmp")]  # written through temporary files, none left
    written = (folder / "mkdocs.yml").read_text(encoding="utf-8")
    nav = yaml.safe_load("nav:\n" + written.split("\nnav:\n", 1)[1])  # the rest holds !!python tags
    assert nav == {"nav": [{"Accueil": "index.md"}]}


# -- the comparison compares texts ------------------------------------------------------------------

def test_collusion_differs_because_the_texts_differ(kb):
    from ruling.site.pages import SitePages

    view = SitePages(kb).comparison_view("comparaison.md")
    entry = next(e for e in view["shared"] if e["situation"] == "donner-des-jetons")
    case = next(c for c in entry["cases"] if c["label"] == "Collusion entre joueurs")
    outcomes = {c["outcome"] for c in case["cells"]}
    assert outcomes == {"collusion-sanctionnee"}  # the same outcome name in both books…
    assert case["status"] == "differs"  # …but not the same ruling
    for e in view["shared"]:
        for c in e["cases"]:
            texts = {" ".join(cell["text"].split()) for cell in c["cells"]}
            assert (c["status"] == "same") == (len(texts) == 1 and all(cell["outcome"] for cell in c["cells"]))


def test_same_is_the_same_text_whitespace_aside():
    from ruling.site.pages import case_status

    same = [{"outcome": "a", "text": "Le joueur  est\nsanctionné."}, {"outcome": "a", "text": "Le joueur est sanctionné. "}]
    assert case_status(False, same) == "same"
    assert case_status(False, [same[0], {"outcome": "a", "text": "Le joueur est averti."}]) == "differs"
    assert case_status(False, [same[0], {"outcome": None, "text": "selon…"}]) == "open"
    assert case_status(True, same) == "differs"


# -- the house book is `ruling ask`'s ---------------------------------------------------------------

def test_the_sites_house_book_is_the_one_ask_proposes(kb, kb_copy, monkeypatch):
    from ruling.decide import questionnaire
    from ruling.kb.load import load_kb
    from ruling.site.build import house_book, questionnaire_data
    from ruling.site.pages import SitePages

    monkeypatch.delenv("RULING_BOOK", raising=False)
    declared = yaml.safe_load((RULEBOOK / "base.yaml").read_text(encoding="utf-8"))["house_book"]
    assert house_book(kb) == questionnaire.house_book(kb) == declared
    (kb_copy / "base.yaml").write_text("house_book: tda\n", encoding="utf-8")
    other = load_kb(kb_copy)
    pages = SitePages(other)
    assert questionnaire_data(pages, lambda t: t)["houseBook"] == "tda" == questionnaire.house_book(other)
    assert pages.procedures_view("questionnaire.md")["groups"][0]["book"] == other.book("tda").title
    monkeypatch.setattr(questionnaire, "house_book", lambda kb, book=None, profile=None: "cash")
    assert house_book(other) == "cash"  # the site asks the questionnaire's function, it has no rule of its own


# -- history on the rule itself ---------------------------------------------------------------------

class _Boxes(HTMLParser):
    """Each clause heading id, followed by the `details.ruling-change` box under it (summary, inner HTML)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.boxes: dict[str, dict] = {}
        self.current = None
        self.depth = 0
        self.box: dict | None = None
        self.part = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "h2" and "ruling-clause-heading" in (a.get("class") or ""):
            self.current = a["id"]
        if tag == "details" and "ruling-change" in (a.get("class") or ""):
            self.box = {"summary": "", "text": "", "del": 0, "ins": 0, "links": []}
            self.boxes[self.current] = self.box
        if self.box is not None:
            if tag == "summary":
                self.part = "summary"
            elif tag in ("del", "ins"):
                self.box[tag] += 1
            elif tag == "a":
                self.box["links"].append(a.get("href"))

    def handle_endtag(self, tag):
        if tag == "summary":
            self.part = "text"
        if tag == "details":
            self.box = None

    def handle_data(self, data):
        if self.box is not None:
            self.box["summary" if self.part == "summary" else "text"] += data


def _boxes(path: Path) -> dict[str, dict]:
    parser = _Boxes()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.boxes


def test_a_changed_rule_says_so_on_its_own_page_with_the_redline(site, kb):
    from ruling.diff.revisions import diff

    result = diff("club@v1", "club@v2", kb)
    boxes = _boxes(site / "livres" / "club" / "08.html")
    changed = {ch.new.id: ch for ch in result.changes if ch.new is not None and ch.status != "unchanged"}
    assert set(boxes) == set(changed)  # every changed clause, and only those
    modified = [cid for cid, ch in changed.items() if ch.status == "modified"]
    assert modified
    for cid in modified:
        assert boxes[cid]["summary"] == "Modifiée depuis l'édition précédente"
        assert boxes[cid]["del"] + boxes[cid]["ins"] > 0
        assert f"../../historique.html#livre-club-v1-v2-{cid}" in boxes[cid]["links"]
    for cid in ("8-4", "8-16", "8-17"):  # only ’ became '
        assert changed[cid].status == "typography"
        assert boxes[cid]["summary"] == "Typographie seulement, depuis l'édition précédente"
        assert "« ’ » devient « ' »" in boxes[cid]["text"] and boxes[cid]["del"] >= 1 and boxes[cid]["ins"] >= 1
    assert _boxes(site / "livres" / "club" / "09.html") == {}  # chapter 9 was not compared


def test_a_changed_chapter_says_what_changed(site):
    text = _text(site / "livres" / "club" / "08.html")
    assert "Ce chapitre a changé depuis l'édition précédente" in text
    assert re.search(r"règles : 10 modifiées, 3 en typographie seulement, 1 supprimée, 4 renumérotées, 1 ajoutée "
                     r"\(supprimée : club@v1:8-11\)", text), text[:3000]
    assert "Ce chapitre a changé" not in _text(site / "livres" / "club" / "09.html")


def test_history_reads_naturally_and_lists_each_procedure_once(site):
    text = _text(site / "historique.html")
    assert "Ce qui a changé entre « Édition antérieure du chapitre 8 » (v1) et « Édition actuelle »" in text
    assert "De Édition" not in text and "de Édition" not in text and ":." not in text
    assert "porte sur le chapitre 8 — LES BLINDS ET LES CHANGEMENTS DE PLACE." in text
    assert "typographie seulement — club@v1:8-4 → club:8-4 : « ’ » devient « ' » (2 fois)" in text
    html = (site / "historique.html").read_text(encoding="utf-8")
    review = html.split("Procédures à revoir")[1].split("</ul>")[0]
    listed = re.findall(r'<li><a href="([^"]+)"', review)
    assert len(listed) >= 5 and len(listed) == len(set(listed)), listed
    nouveau = next(li for li in re.findall(r"<li>.*?</li>", review) if "nouveau-joueur" in li)
    assert nouveau.count("8&#45;8") == 1 and "8&#45;9" in nouveau  # its clauses, each once, in one line
    home = _text(site / "index.html")
    assert "ce qui a changé entre « Édition antérieure du chapitre 8 » (v1) et « Édition actuelle »" in home


# -- player pages speak no command line -------------------------------------------------------------

class _PlayerText(HTMLParser):
    """The text a player reads in a page's content (`article`): scripts and the « Pour l'arbitre »
    boxes left out, blocks (paragraphs, items, cells) on lines of their own."""

    BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "td", "th", "tr", "div", "summary", "details", "pre"}
    VOID = {"br", "img", "input", "hr", "meta", "link", "source", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[list] = []  # [tag, is the content, skipped]
        self.in_content = 0
        self.skipping = 0
        self.pending_box: list | None = None
        self.out: list[str] = []
        self.box_titles: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        entry = [tag, tag == "article", tag in ("script", "style")]
        self.stack.append(entry)
        self.in_content += entry[1]
        self.skipping += entry[2]
        if tag == "details" or (tag == "div" and "admonition" in classes):
            self.pending_box = entry  # its first words are its title
        if tag in self.BLOCKS:
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in self.VOID or all(e[0] != tag for e in self.stack):
            return
        while self.stack:
            open_tag, content, skipped = self.stack.pop()
            self.in_content -= content
            self.skipping -= skipped
            if open_tag == tag:
                break
        if tag in self.BLOCKS:
            self.out.append("\n")

    def handle_data(self, data):
        if self.pending_box is not None and data.strip():
            box, self.pending_box = self.pending_box, None
            if data.strip().startswith("Pour l'arbitre"):
                self.box_titles.append(data.strip())
                box[2] = True
                self.skipping += 1
                return
        if self.in_content and not self.skipping:
            self.out.append(data)


def _text(path: Path) -> str:
    parser = _PlayerText()
    parser.feed(path.read_text(encoding="utf-8"))
    return re.sub(r"[ \t]*\n\s*", "\n", re.sub(r"[ \t\u00a0]+", " ", "".join(parser.out)))


def test_player_pages_speak_no_command_line(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 130
    found = []
    boxes = 0
    for page in pages:
        parser = _PlayerText()
        parser.feed(page.read_text(encoding="utf-8"))
        boxes += len(parser.box_titles)
        text = "".join(parser.out)
        for needle in ("ruling ", "--book", "(comparer)"):
            if needle in text:
                at = text.index(needle)
                found.append(f"{page.relative_to(site)}: …{text[max(0, at - 60):at + 60]!r}")
    assert found == []
    assert boxes > 60  # the commands are still there, for TDs, in their boxes
    # the scan sees what a player reads: a command outside a box would be caught
    probe = _PlayerText()
    probe.feed('<article class="md-content__inner"><p>Lancez <code>ruling decide x --book club</code></p>'
               '<details class="note"><summary>Pour l\'arbitre : en ligne de commande</summary><p>ruling ask</p></details>'
               '<p>fin</p></article>')
    assert "".join(probe.out).split() == ["Lancez", "ruling", "decide", "x", "--book", "club", "fin"]
