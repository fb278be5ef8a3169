"""The site as a folder of Markdown pages and assets, independent of the engine that turns it into HTML.

`site_files` is the one place that decides what the published site contains: the generated pages,
the hand-written ones (the home page with its generated parts filled in, the assets), the original
documents, the questionnaire and search data, the printable PDFs. `ruling site DOSSIER` writes them
to disk (`write_site`) with a `mkdocs.yml` that needs no hook, so mkdocs or Zensical can build the
folder; the mkdocs hook (`hooks.py`) hands the same files to mkdocs without writing them.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ruling.errors import UserError

#: The folder `ruling site` writes: its list of files, so that a later run replaces them and only them.
MARKER = ".ruling-site"
DOCS = "docs"


@dataclass
class SiteFiles:
    """Every file of the docs folder: text or bytes to write, or a file on disk to copy; and the nav."""

    contents: dict[str, str | bytes] = field(default_factory=dict)
    copies: dict[str, Path] = field(default_factory=dict)
    nav: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was left out, in French (no WeasyPrint…)

    def paths(self) -> list[str]:
        return sorted({*self.contents, *self.copies})


def built_url(target: str) -> str:
    """The URL of a docs-folder path in the built site (`livres/club/02.md#2-5` -> `livres/club/02.html#2-5`):
    pages become `.html` files beside each other, as the offline plugin (use_directory_urls off) lays them."""
    path, _, anchor = target.partition("#")
    if path.endswith(".md"):
        path = path[:-3] + ".html"
    return f"{path}#{anchor}" if anchor else path


def site_files(site, pages_dir: Path | None) -> SiteFiles:
    """What the published site is made of, for `site` (a `SitePages`) and the hand-written pages in `pages_dir`."""
    from ruling.site.build import DATA_SCRIPT, HOME_MARKERS, questionnaire_script
    from ruling.site.search_index import SEARCH_DATA_SCRIPT, search_script

    out = SiteFiles(nav=site.nav())
    if pages_dir is not None:
        for path in sorted(pages_dir.rglob("*")):
            if path.is_file() and not any(part.startswith(".") for part in path.relative_to(pages_dir).parts):
                out.copies[path.relative_to(pages_dir).as_posix()] = path
        home = pages_dir / "index.md"
        if home.is_file():
            text = home.read_text(encoding="utf-8")
            for marker, template in HOME_MARKERS.items():
                if marker in text:
                    text = text.replace(marker, site.render_fragment(template, "index.md"))
            del out.copies["index.md"]
            out.contents["index.md"] = text
    out.contents.update(site.render())
    for dest, src in site.downloads():
        out.copies[dest] = Path(src)
    out.contents[DATA_SCRIPT] = questionnaire_script(site, built_url)
    out.contents[SEARCH_DATA_SCRIPT] = search_script(site.kb, built_url, site.clause_pages)
    out.contents.update(_printable(site, out.notes))
    for generated in out.contents:
        out.copies.pop(generated, None)  # a generated file wins over a hand-written one of the same name
    return out


def _printable(site, notes: list[str]) -> list[tuple[str, bytes]]:
    """The printable rulebook (pdf.py), or nothing and one French note without WeasyPrint or with RULING_NO_PDF."""
    from ruling.site.pdf import pdf_documents, weasyprint_missing

    if os.environ.get("RULING_NO_PDF"):
        return []
    missing = weasyprint_missing()
    if missing:
        notes.append(f"{missing} ; le site est construit sans eux.")
        return []
    return pdf_documents(site.kb)


# -- writing the folder -----------------------------------------------------------------------

def write_site(folder: Path, files: SiteFiles, config_file: Path | None) -> list[str]:
    """Write `files` under `folder/docs/` and, from the project's `config_file`, `folder/mkdocs.yml`
    (no hook, the nav written out); every file atomically. Returns the paths written, relative to `folder`.

    A folder that holds something else than a previous `ruling site` output is refused: nothing is lost."""
    folder = Path(folder)
    previous = _previous_output(folder)
    written = [f"{DOCS}/{p}" for p in files.paths()]
    try:
        for path, content in files.contents.items():
            _write(folder / DOCS / path, content.encode("utf-8") if isinstance(content, str) else content)
        for path, src in files.copies.items():
            _write(folder / DOCS / path, src.read_bytes())
        if config_file is not None:
            _write(folder / "mkdocs.yml", config_text(config_file, files.nav).encode("utf-8"))
            written.append("mkdocs.yml")
        for stale in sorted(set(previous) - set(written)):
            (folder / stale).unlink(missing_ok=True)
        _write(folder / MARKER, ("\n".join(written) + "\n").encode("utf-8"))
    except OSError as e:
        raise UserError(f"le dossier « {folder} » n'a pas pu être écrit ({e.strerror or e}) ; "
                        "choisissez un dossier où vous pouvez écrire, avec de la place") from None
    return written


def _previous_output(folder: Path) -> list[str]:
    """The files of a previous `ruling site` run in `folder` ([] for a new or empty folder), or a UserError."""
    if folder.exists() and not folder.is_dir():
        raise UserError(f"« {folder} » est un fichier, pas un dossier ; indiquez un dossier (il sera créé s'il n'existe pas)")
    if not folder.exists():
        parent = next((p for p in folder.absolute().parents if p.exists()), None)
        if parent is not None and not parent.is_dir():
            raise UserError(f"« {folder} » ne peut pas être créé : « {parent} » est un fichier ; indiquez un dossier")
        return []
    marker = folder / MARKER
    if marker.is_file():
        lines = marker.read_text(encoding="utf-8").splitlines()
        return [line for line in lines if line and not line.startswith(("/", "..")) and ".." not in line.split("/")]
    if any(folder.iterdir()):
        raise UserError(f"le dossier « {folder} » n'est pas vide et ne vient pas de « ruling site » ; "
                        "indiquez un dossier vide ou nouveau (rien n'y a été écrit)")
    return []


def _write(path: Path, data: bytes) -> None:
    from ruling.kb.validate import write_atomic

    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)


def config_text(config_file: Path, nav: list) -> str:
    """The project's mkdocs.yml for the written folder: docs in `docs/`, the site in `site/`, the
    nav written out, and instead of the page-generating hook only `html_hooks.py` (the pages are
    already there; what it fixes in the theme's HTML is still needed)."""
    import yaml

    from ruling.site import html_hooks

    lines: list[str] = []
    skipping = False
    for line in config_file.read_text(encoding="utf-8").splitlines():
        top = line[:1] not in ("", " ", "#", "-")
        if top:
            skipping = line.split(":", 1)[0] in ("hooks", "docs_dir", "site_dir", "nav")
        if not skipping and (lines or top):  # the file's opening comments describe the project's build
            lines.append(line)
    header = [f"# Written by `ruling site` from {config_file}: `mkdocs build -f` this file (or `zensical build -f`).",
              f"docs_dir: {DOCS}", "site_dir: site", "hooks:", f"  - {json.dumps(html_hooks.__file__)}"]
    body = "\n".join(lines).rstrip() + "\n"
    return "\n".join(header) + "\n" + body + yaml.safe_dump({"nav": _plain(nav)}, allow_unicode=True, sort_keys=False)


def _plain(value):
    """The nav as plain YAML data (its titles are `Markup`, a str subclass yaml.safe_dump refuses)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return str(value)


def hand_written(kb_root: Path, pages_dir: Path | None = None) -> tuple[Path, Path | None]:
    """The hand-written pages (`site/`) and the `mkdocs.yml` to build with: `pages_dir` when given,
    else those of the repository the knowledge base sits in, else those of ruling's own checkout."""
    if pages_dir is not None:
        pages = Path(pages_dir)
        if not (pages / "index.md").is_file():
            raise UserError(f"« {pages} » n'a pas de page d'accueil index.md ; indiquez avec --pages "
                            "le dossier des pages écrites à la main (le site/ du dépôt)")
        config = pages.resolve().parent / "mkdocs.yml"
        return pages, (config if config.is_file() else None)
    for repo in (Path(kb_root).resolve().parent, Path(__file__).resolve().parents[2]):
        if (repo / "site" / "index.md").is_file():
            config = repo / "mkdocs.yml"
            return repo / "site", (config if config.is_file() else None)
    raise UserError("les pages écrites à la main (site/index.md, site/assets/) sont introuvables ; "
                    "indiquez leur dossier avec --pages")


def export_site(folder, kb_path=None, pages_dir=None) -> tuple[list[str], list[str]]:
    """`ruling site DOSSIER`: the knowledge base's site written into `folder`; (paths written, notes)."""
    from ruling.kb.load import load_kb, resolve_root
    from ruling.site.build import read_event_logs
    from ruling.site.pages import SitePages

    root = resolve_root(kb_path)
    pages, config = hand_written(root, Path(pages_dir) if pages_dir else None)
    _previous_output(Path(folder))  # a bad folder is refused before the minutes of rendering
    site = SitePages(load_kb(root))
    site.event_logs = read_event_logs(pages / "journaux")
    files = site_files(site, pages)
    return write_site(Path(folder), files, config), files.notes
