"""mkdocs hook: builds the site's generated pages from `rulebook/` at build time.

Named in mkdocs.yml (`hooks:`), so `mkdocs build` and `mkdocs serve` work from the YAML alone
and nothing generated is committed. The knowledge base is `RULING_KB`, else the `rulebook/`
beside the mkdocs.yml being built (a copy of the repository builds its own text).
"""
from __future__ import annotations

import logging
import os
import posixpath

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from ruling.site.build import (
    DATA_SCRIPT,
    HOME_MARKERS,
    MERMAID_SCRIPT,
    OFFLINE_WORKER_SHIM,
    load_site,
    questionnaire_script,
    read_event_logs,
)
from ruling.site.search_index import SEARCH_DATA_SCRIPT, search_script

_state: dict = {}
log = logging.getLogger("mkdocs.plugins.ruling")


def on_config(config):
    """Load the knowledge base, render every page, and give the site its navigation."""
    try:
        site, root = load_site(config.config_file_path)
        site.event_logs = read_event_logs(posixpath.join(config["docs_dir"], "journaux"))
    except Exception as e:  # a broken knowledge base: one readable line, not a traceback
        raise PluginError(f"site non construit : {e}") from None
    _state.update(site=site, pages=site.render())
    if not config.nav:
        config.nav = site.nav()
    if str(root) not in [str(w) for w in config.watch]:
        config.watch.append(str(root))
    # The offline plugin points the file:// search worker at a CDN; serve our copy instead.
    polyfills = config.extra.get("polyfills") or []
    config.extra["polyfills"] = [OFFLINE_WORKER_SHIM if "iframe-worker" in str(p) else p for p in polyfills]
    return config


def on_files(files, config):
    """Add the generated pages, the original documents, the questionnaire data and the search index."""
    site = _state["site"]
    for path, content in _state["pages"].items():
        _replace(files, File.generated(config, path, content=content))
    for dest, src in site.downloads():
        _replace(files, File.generated(config, dest, abs_src_path=src))

    def url_of(target: str) -> str:
        path, _, anchor = target.partition("#")
        file = files.get_file_from_path(path)
        url = file.url if file is not None else path
        return f"{url}#{anchor}" if anchor else url

    _replace(files, File.generated(config, DATA_SCRIPT, content=questionnaire_script(site, url_of)))
    _replace(files, File.generated(config, SEARCH_DATA_SCRIPT,
                                   content=search_script(site.kb, url_of, site.clause_pages)))
    for path, content in _printable(site):
        _replace(files, File.generated(config, path, content=content))
    return files


def _printable(site) -> list:
    """The printable rulebook (ruling/site/pdf.py): one PDF per book and the « ce qui a changé »
    sheet. Without WeasyPrint (or pango) one French line says so and the site is built without them."""
    from ruling.site.pdf import pdf_documents, weasyprint_missing

    if os.environ.get("RULING_NO_PDF"):
        return []
    missing = weasyprint_missing()
    if missing:
        log.info("%s ; le site est construit sans eux.", missing)
        return []
    return pdf_documents(site.kb)


def on_page_markdown(markdown, page, config, files):
    """Fill the home page's generated parts (the books, the latest changes)."""
    if page.file.src_uri != "index.md":
        return markdown
    site = _state["site"]
    for marker, template in HOME_MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, site.render_fragment(template, "index.md"))
    return markdown


def on_post_page(output, page, config):
    """Keep the page's <title> text, and load the bundled Mermaid only on the pages that draw a flowchart."""
    output = _escaped_title(output, page, config)
    if 'class="mermaid"' not in output:
        return output
    folder = page.url if page.url.endswith("/") else posixpath.dirname(page.url)
    src = posixpath.relpath(MERMAID_SCRIPT, folder.rstrip("/") or ".")
    return output.replace("</body>", f'<script src="{src}"></script>\n</body>', 1)


def on_post_template(output, template_name, config):
    """404.html: its links start at the site root (`/assets/…`), which over file:// is the disk's
    root, so the page came unstyled. Write them relative to the page (it sits at the root), and
    on a web server, where a missing deep URL shows this page, resolve them from the root again."""
    if template_name != "404.html":
        return output
    import re

    output = re.sub(r'(\s(?:href|src))="/(?!/)', r'\1="./', output)
    # material's page config (search worker, base of the search index) too
    output = output.replace('"base": "/"', '"base": "."').replace('"search": "/assets/', '"search": "./assets/')
    keep_root = "<script>if (location.protocol !== \"file:\") { document.write('<base href=\"/\">'); }</script>"
    return output.replace("<head>", "<head>\n" + keep_root, 1)


def _escaped_title(output: str, page, config) -> str:
    """The theme writes `page.title | striptags` into <title>, and striptags turns the escaped
    `&#60;` of a rulebook title back into `<` (a `</title>` would end the element): write it escaped."""
    if not page.title or page.is_homepage:
        return output
    from html import escape

    from markupsafe import Markup

    text = Markup(str(page.title)).striptags()
    written = f"<title>{text} - {config.site_name}</title>"
    return output.replace(written, f"<title>{escape(text)} - {escape(config.site_name)}</title>", 1)


def _replace(files, file: File) -> None:
    old = files.get_file_from_path(file.src_uri)
    if old is not None:
        files.remove(old)
    files.append(file)
