"""The printable rulebook `mkdocs build` writes: one PDF per book, verbatim, and a one-page change sheet.

Read back with pdftotext (poppler-utils): every clause's text is in its book's PDF, cross-references
carry page numbers, each page names the edition and the date.
"""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from test_site import built_site

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="pdftotext absent : lancez en root scripts/install-browser.sh (poppler-utils)")


def _weasyprint_missing():
    from ruling.site.pdf import weasyprint_missing

    return weasyprint_missing()


def _text(pdf, raw: bool = False) -> str:
    """The PDF's text; `raw` keeps a hyphen that ends a line (« add-/on ») that the default mode drops,
    while the default mode keeps « L’achat » whole where raw splits it after the kerned apostrophe."""
    return subprocess.run(["pdftotext", *(["-raw"] if raw else []), "-enc", "UTF-8", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout


def _flat(text: str) -> str:
    return " ".join(text.split())


def _body(text: str) -> str:
    """The text without the page feet (edition line, page number), so a clause split over two pages reads on."""
    lines = [line for line in text.splitlines()
             if not re.fullmatch(r"page \d+ / \d+", line.strip()) and "— imprimé le " not in line]
    # a line broken after a hyphen or a slash (« add-/on », « mise/relance ») reads back as one word
    return _flat(re.sub(r"(\w[-/])\n(\w)", r"\1\2", "\n".join(lines)))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if _weasyprint_missing():
        pytest.skip(_weasyprint_missing())
    return built_site(tmp_path_factory)


def test_every_clause_of_every_book_is_in_its_pdf_verbatim(site, kb):
    for book in kb.books:
        pdf = site / "imprimer" / f"{book.id}.pdf"
        texts = (_body(_text(pdf)), _body(_text(pdf, raw=True)))
        missing = [c.citation for c in book.current.clauses()
                   if any(all(_flat(part) not in text for text in texts) for part in [c.text, *c.items, c.after or ""] if part)
                   or (c.label or c.id) not in texts[0]]
        assert missing == [], f"{book.id}: {missing[:5]}"


def test_each_page_names_the_edition_and_its_number(site, kb):
    book = kb.book("club")
    pages = _text(site / "imprimer" / "club.pdf").split("\f")[:-1]
    assert len(pages) > 5
    foot = f"{book.title} — {book.current.title} ({book.current.id}) — imprimé le"
    assert all(foot in _flat(p) for p in pages)
    assert all(f"page {n} / {len(pages)}" in p for n, p in enumerate(pages, 1))


def test_cross_references_are_page_references_and_notes_are_printed(site, kb):
    text = _flat(_text(site / "imprimer" / "club.pdf"))
    with_ref = next(c for c in kb.book("club").current.clauses() if c.refs)
    assert re.search(r"Voir aussi : " + re.escape(with_ref.refs[0]) + r" \(p\. \d+\)", text)
    noted = next(c for c in kb.book("club").current.clauses() if c.note)
    assert _flat(noted.note) in text
    assert "Sommaire" in text


def test_the_change_sheet_is_one_page_with_every_changed_rule(site, kb):
    from ruling.site.history import revision_diff

    book = kb.book("club")
    result = revision_diff(kb, book, book.previous(), book.current)
    text = _text(site / "imprimer" / "club-changements.pdf")
    assert text.count("\f") == 1, "the change sheet runs over one page"
    changed = [ch for ch in result.changes if ch.status != "unchanged"]
    assert changed
    for ch in changed:
        assert (ch.new or ch.old).id in text
    assert "typographie seulement" in text  # 8-4: ’ against '
    assert not (site / "imprimer" / "infos-changements.pdf").exists()  # one edition: no sheet


def test_the_book_page_links_its_pdf(site):
    page = (site / "livres" / "club" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../imprimer/club.pdf"' in page
    assert 'href="../../imprimer/club-changements.pdf"' in page


def _player_text(html: str) -> str:
    """A page's article without the boxes kept for TDs (« Pour l'arbitre : en ligne de commande »)."""
    from html import unescape

    article = unescape(html)
    article = article.split('<article', 1)[-1].split("</article>", 1)[0]
    article = re.sub(r'<details class="note">\s*<summary>Pour l\'arbitre.*?</details>', "", article, flags=re.S)
    article = re.sub(r'<div class="admonition note">\s*<p class="admonition-title">Pour l\'arbitre.*?</div>', "",
                     article, flags=re.S)
    return article


def test_player_pages_keep_commands_in_the_tds_box(site):
    pages = sorted(site.rglob("*.html"))
    speaking = [str(p.relative_to(site)) for p in pages
                if re.search(r"ruling (decide|compare|ask|diff)", _player_text(p.read_text(encoding="utf-8")))]
    assert speaking == []
    from html import unescape

    procedure = unescape((site / "procedures" / "club" / "relance-minimum.html").read_text(encoding="utf-8"))
    assert "<code>ruling decide relance-minimum --book club</code>" in procedure  # still there, in the box
    assert "Situation : relance-minimum" not in procedure
    data = (site / "assets" / "javascripts" / "ruling-questionnaire-data.js").read_text(encoding="utf-8")
    assert "voir ruling decide" not in data.lower() and "voir « ruling decide" not in data.lower()
