"""The package's layout holds: every module imports alone, and module-level imports form no cycle.

Function-level imports are allowed only where they keep a command lazy or break a load-time loop;
`LAZY` names them, so a new one is a decision someone made, not an accident.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "ruling"
MODULES = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                 for p in PACKAGE.rglob("*.py") if "templates" not in p.parts)


def _imports(module: str, top_level: bool) -> set[str]:
    """The ruling modules `module` imports (at module level only, or anywhere)."""
    path = ROOT / Path(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level else list(ast.walk(tree))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in MODULES else base)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m in MODULES and m != module}


#: The allowed upward imports: loading the base parses and caches its procedures (part of the base).
LOADING = {("ruling.kb.load", "ruling.decide.procedures"), ("ruling.kb.plain", "ruling.decide.procedures"),
           ("ruling.kb.plain", "ruling.decide.catalogue")}


@pytest.mark.parametrize("module", MODULES)
def test_every_module_imports_alone(module):
    result = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]


def test_module_level_imports_form_no_cycle():
    graph = {m: _imports(m, top_level=True) for m in MODULES}
    state: dict[str, int] = {}

    def visit(m, path):
        state[m] = 1
        for n in graph[m]:
            if state.get(n) == 1:
                pytest.fail("cycle d'imports : " + " → ".join(path + [m, n]))
            if n not in state:
                visit(n, path + [m])
        state[m] = 2

    for m in MODULES:
        if m not in state:
            visit(m, [])


def test_lower_layers_import_nothing_above_them_at_module_level():
    layer = {"ruling.errors": 0, "ruling.render.terminal": 0, "ruling.kb": 1, "ruling.decide": 2, "ruling.journal": 3, "ruling.diff": 3,
             "ruling.render": 3, "ruling.site": 3, "ruling.search": 3,
             "ruling.journal.commands": 4, "ruling.cli": 4, "ruling.cli_docs": 4, "ruling.click_fr": 4,
             "ruling.completion": 4, "ruling": 4, "ruling.__main__": 4}

    def rank(m):
        while m not in layer:
            m = m.rpartition(".")[0]
        return layer[m]

    wrong = [f"{m} → {n}" for m in MODULES for n in _imports(m, top_level=True)
             if rank(n) > rank(m) and (m, n) not in LOADING]
    assert not wrong, wrong
