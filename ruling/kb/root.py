"""Where the knowledge base is and its content hash, without loading it.

Apart from `ruling.kb.load` so that `ruling search`, with its index cached, finds the base and
hashes it without importing the parser, the cache of parsed bases and the procedures' model.
"""
from __future__ import annotations

import os
from pathlib import Path

from ruling.errors import UserError, shown
from ruling.kb.snapshot import take_snapshot

__all__ = ["base_digest", "default_root", "resolve_root"]


def default_root() -> Path:
    """`RULING_KB`, else the `rulebook/` of a checkout, else the one shipped in the package."""
    env = os.environ.get("RULING_KB")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent  # the ruling package
    checkout = here.parent / "rulebook"
    if (checkout / "club" / "book.yaml").is_file():
        return checkout
    return here / "rulebook"


def resolve_root(path: str | os.PathLike | None = None) -> Path:
    """The base folder named by `path` (default: `default_root()`), or a French UserError.

    A base is a folder with `schema/` in it: anything else (`--kb /`, a home folder) is refused
    before it is walked."""
    root = Path(path) if path else default_root()
    try:
        is_dir = root.is_dir()
        has_schema = is_dir and (root / "schema").is_dir()
    except (OSError, ValueError):  # ValueError: a NUL byte in the path
        is_dir = has_schema = False
    if not is_dir:
        raise UserError(f"base de règles introuvable : « {shown(root)} » n'est pas un dossier ; "
                        "indiquez le dossier rulebook/ avec --kb ou RULING_KB")
    if not has_schema:
        raise UserError(f"« {shown(root)} » n'est pas une base de règles : il n'a pas de dossier schema/ ; "
                        "indiquez le dossier rulebook/ (schema/, <livre>/book.yaml) avec --kb ou RULING_KB")
    return root


def base_digest(root: Path) -> str:
    """The content hash of the base at `root` as it is now (what the search index is keyed on)."""
    return take_snapshot(root).digest
