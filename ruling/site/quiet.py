"""The project's own `mkdocs build` says what it does in French, without the theme's banner.

mkdocs-material prints its end-of-life banner (in colour, even when piped) when its templates are
imported, which is while mkdocs reads the theme, before any hook runs. mkdocs.yml therefore names
`BANNER_OFF` with a `!!python/name:` tag: reading the YAML imports this module, which sets the
variable the theme checks (`NO_MKDOCS_2_WARNING`), so `mkdocs build` run as the README says is quiet.
"""
from __future__ import annotations

import logging
import os

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
#: What mkdocs.yml's `extra: {ruling_quiet: !!python/name:ruling.site.quiet.BANNER_OFF}` names.
BANNER_OFF = True

#: mkdocs' English progress lines; the hook logs its own French line at the end of the build.
_ENGLISH_PROGRESS = ("Cleaning site directory", "Building documentation to directory", "Documentation built in",
                     "Building documentation...")


def _not_progress(record: logging.LogRecord) -> bool:
    return not (record.levelno == logging.INFO and str(record.msg).startswith(_ENGLISH_PROGRESS))


def quiet_mkdocs() -> None:
    """Drop mkdocs' English progress lines (warnings and errors still show)."""
    for name in ("mkdocs.commands.build", "mkdocs.commands.serve"):
        logger = logging.getLogger(name)
        if _not_progress not in logger.filters:
            logger.addFilter(_not_progress)
