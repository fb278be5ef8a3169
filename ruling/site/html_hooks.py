"""What the site needs from mkdocs(-material)'s HTML, whichever way its pages came: the hook of the
project's mkdocs.yml uses these, and so does the mkdocs.yml that `ruling site DOSSIER` writes.

The offline plugin's search worker from our copy instead of a CDN, the `<title>` escaped again,
the bundled Mermaid only where a flowchart is drawn, a 404 page that is styled over file://, and
mkdocs' English progress lines left out.
"""
from __future__ import annotations

import posixpath

from ruling.site.build import MERMAID_SCRIPT, OFFLINE_WORKER_SHIM


def on_startup(command, dirty):
    """mkdocs' English progress lines (« Building documentation… ») are dropped (see quiet.py)."""
    from ruling.site import quiet

    quiet.quiet_mkdocs()


def on_config(config):
    """The offline plugin points the file:// search worker at a CDN; serve our copy instead."""
    polyfills = config.extra.get("polyfills") or []
    config.extra["polyfills"] = [OFFLINE_WORKER_SHIM if "iframe-worker" in str(p) else p for p in polyfills]
    return config


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
