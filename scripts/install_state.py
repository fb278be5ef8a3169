"""What scripts/setup.sh installed into .venv, so that a later run installs nothing (and works offline).

    python scripts/install_state.py check EXTRAS    exit 0 when EXTRAS are installed for this pyproject.toml
    python scripts/install_state.py record EXTRAS   note that EXTRAS (and the extras they include) are installed

The stamp (.venv/.ruling-installed) holds the digest of pyproject.toml and the extras installed with it:
a changed pyproject.toml (a new dependency, a new pin) means a new install. Standard library only, run
with `python -I` so that it starts before (and without) anything installed in the venv.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAMP = ROOT / ".venv" / ".ruling-installed"


def _extras_closure(requested: set[str], optional: dict[str, list[str]], project: str = "ruling") -> set[str]:
    """The requested extras and those they pull in through `ruling[...]` (test includes site)."""
    seen, todo = set(), list(requested)
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for req in optional.get(extra, []):
            name, _, rest = req.partition("[")
            if name.strip().lower() == project and rest:
                todo += [e.strip() for e in rest.split("]", 1)[0].split(",")]
    return seen


def _state() -> tuple[str, str, dict[str, list[str]]]:
    """The digest of pyproject.toml, the project's name and its extras."""
    raw = (ROOT / "pyproject.toml").read_bytes()
    project = tomllib.loads(raw.decode("utf-8"))["project"]
    return hashlib.sha256(raw).hexdigest(), project["name"].lower(), project.get("optional-dependencies", {})


def _recorded() -> dict:
    try:
        return json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def main(argv: list[str]) -> int:
    action, extras = argv[0], {e for e in (argv[1] if len(argv) > 1 else "").split(",") if e}
    digest, project, optional = _state()
    recorded = _recorded()
    installed = set(recorded.get("extras", [])) if recorded.get("pyproject") == digest else None
    if action == "check":
        return 0 if installed is not None and extras <= installed else 1
    if action == "record":
        extras = _extras_closure(extras, optional, project) | (installed or set())
        tmp = STAMP.with_name(f"{STAMP.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"pyproject": digest, "extras": sorted(extras)}) + "\n", encoding="utf-8")
        os.replace(tmp, STAMP)
        return 0
    print(f"install_state : action inconnue « {action} » ; attendu check ou record", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
