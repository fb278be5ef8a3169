"""mkdocs hook: builds the site's generated pages from `rulebook/` at build time.

It only hands mkdocs what `ruling.site.export.site_files` lists (the same files `ruling site
DOSSIER` writes); what it does to mkdocs' HTML afterwards is in `html_hooks.py`.

Named in mkdocs.yml (`hooks:`), so `mkdocs build` and `mkdocs serve` work from the YAML alone
and nothing generated is committed. The knowledge base is `RULING_KB`, else the `rulebook/`
beside the mkdocs.yml being built (a copy of the repository builds its own text).
"""
from __future__ import annotations

import logging
import time
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from ruling.site import html_hooks
from ruling.site.build import load_site, read_event_logs
from ruling.site.export import site_files
from ruling.site.html_hooks import on_post_page, on_post_template, on_startup  # noqa: F401  (mkdocs calls them)

_state: dict = {}
log = logging.getLogger("mkdocs.plugins.ruling")


def on_config(config):
    """Load the knowledge base and ask `ruling.site.export` for every file of the site, and its navigation."""
    started = time.monotonic()
    try:
        site, root = load_site(config.config_file_path)
        site.event_logs = read_event_logs(Path(config["docs_dir"]) / "journaux")
        files = site_files(site, Path(config["docs_dir"]))
    except Exception as e:  # a broken knowledge base: one readable line, not a traceback
        raise PluginError(f"site non construit : {e}") from None
    for note in files.notes:
        log.info("%s", note)
    _state.update(site=site, files=files, started=started)
    if not config.nav:
        config.nav = files.nav
    if str(root) not in [str(w) for w in config.watch]:
        config.watch.append(str(root))
    return html_hooks.on_config(config)


def on_files(files, config):
    """Hand mkdocs the files `site_files` listed: the generated ones (pages, data, PDFs) and the
    original documents; the hand-written pages are mkdocs' own docs_dir already."""
    site_folder = _state["files"]
    for path, content in site_folder.contents.items():
        _replace(files, File.generated(config, path, content=content))
    docs = Path(config["docs_dir"]).resolve()
    for path, src in site_folder.copies.items():
        if not src.resolve().is_relative_to(docs):
            _replace(files, File.generated(config, path, abs_src_path=str(src)))
    return files


def on_post_build(config):
    """One French line where mkdocs wrote « Documentation built in … seconds »."""
    seconds = time.monotonic() - _state.get("started", time.monotonic())
    log.info("Site construit dans %s en %.1f s.", config["site_dir"], seconds)


def _replace(files, file: File) -> None:
    old = files.get_file_from_path(file.src_uri)
    if old is not None:
        files.remove(old)
    files.append(file)
