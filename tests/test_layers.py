"""The package's layout holds: every module imports alone, module-level imports form no cycle and
go one way, and a function-level import exists only where `LAZY` says why.

Function-level imports are allowed only where they keep a command lazy (it pays only for what it
uses); `LAZY` names each one with its reason, so a new one is a decision someone made, not an
accident, and an entry nothing uses any more fails too.
"""
from __future__ import annotations

import ast
import importlib
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


#: The allowed upward imports at module level, with why.
LOADING = {
    ("ruling.kb.plain", "ruling.decide.procedures"): "the parsed base cached holds its procedures",
    ("ruling.kb.plain", "ruling.decide.catalogue"): "and its calculators' declarations",
    ("ruling.kb.validate", "ruling.decide.procedures"): "`ruling check` checks the procedures' cites, `--stamp` writes their hashes",
}

#: Modules whose imports are reviewed with their move into `ruling/search/` (issue 13), not here.
MOVING = ("ruling.search", "ruling.analysis", "ruling.whoosh_fast")

_SITE = ("the site package is imported only by `ruling site` and the mkdocs hook; these imports could go to the "
         "top, save build ↔ pages (a cycle) and the diff guard: left as they are (issue 13, noted)")
_JOURNAL = "SQLite and the engine load only when a journal is used: `decide` without `--event` does not pay for them"
_YAML = "yaml is imported only when a YAML text is parsed: a cache hit imports none"

#: Every function-level import that stays: (module, what it imports) -> why. `ruling.cli` may import
#: anything inside its commands: that is how each command pays only for the library it calls.
LAZY = {
    ("ruling", "ruling.kb.load"): "`import ruling.x` runs ruling/__init__.py: `ruling.load_kb` is imported on first use",
    ("ruling.click_fr", "ruling.kb.load"): "`--help` and a usage error load no base",
    ("ruling.completion", "ruling.kb.load"): "a base loads on a TAB only; the cli imports completion for every command",
    ("ruling.kb.load", "ruling.decide.loading"): "a cache miss only: a cached base never imports the procedure "
                                                 "loader, its checks and the engine",
    ("ruling.kb.files", "tempfile"): "a write only (tempfile imports random); every command reads",
    ("ruling.kb.cache", "shutil"): "it imports zlib, bz2 and lzma: only removing an index folder pays for them",
    ("ruling.kb.schemas", "jsonschema"): "validation runs on a cache miss or `check` only",
    ("ruling.kb.schemas", "referencing"): "the same (jsonschema's registry)",
    ("ruling.kb.snapshot", "yaml"): _YAML,
    ("ruling.kb.snapshot", "ruling.kb.safe_yaml"): _YAML,
    ("ruling.diff.revisions", "tarfile"): "a git side only",
    ("ruling.diff.revisions", "tempfile"): "a git side only",
    ("ruling.journal.commands", "ruling.journal.rulings"): _JOURNAL,
    ("ruling.journal.commands", "ruling.journal.store"): _JOURNAL,
    ("ruling.journal.commands", "ruling.journal.anonymise"): _JOURNAL,
    ("ruling.journal.commands", "ruling.render.journal"): _JOURNAL,
    ("ruling.journal.commands", "ruling.decide.engine"): _JOURNAL,
    ("ruling.decide.questionnaire", "ruling.kb.safe_yaml"): _YAML,
    ("ruling.decide.questionnaire", "ruling.search"): "whoosh: only when `ask` ranks situations from words",
    ("ruling.decide.questionnaire", "ruling.render.text"): "upward until this renderer moves to render/ (issue 13)",
    ("ruling.decide.from_words", "ruling.search.analysis"): "upward (decide → search): the one analysis of words, "
                                                             "imported only when a description is read",
    ("ruling.decide.from_words", "ruling.search.query"): "upward (decide → search): the search's rule for which "
                                                          "glossary phrasings stand for the others, read with a description",
    ("ruling.decide.loading", "ruling.decide.engine"): "a rule with `given:` reads its values as the engine reads "
                                                       "answers; the engine imports the procedure model this loads",
    ("ruling.decide.unknown", "ruling.decide.questionnaire"): "a cycle: the questionnaire imports « je ne sais pas » "
                                                              "at its top, which shows a side's decision with its renderer",
    ("ruling.site.pages", "jinja2"): "jinja2 only when the site is built",
    ("ruling.site.pdf", "weasyprint"): "optional, and only when PDFs are made",
    **{(m, n): _SITE for m, n in [
        ("ruling.site.build", "os"), ("ruling.site.build", "pathlib"), ("ruling.site.build", "json"),
        ("ruling.site.build", "ruling.kb.load"), ("ruling.site.build", "ruling.site.pages"),
        ("ruling.site.build", "ruling.errors"), ("ruling.site.build", "ruling.journal.rulings"),
        ("ruling.site.escape", "json"),
        ("ruling.site.build", "ruling.decide.questionnaire"), ("ruling.site.export", "ruling.kb.load"),
        ("ruling.site.export", "ruling.kb.validate"), ("ruling.site.export", "ruling.site.build"),
        ("ruling.site.export", "ruling.site.html_hooks"), ("ruling.site.export", "ruling.site.pages"),
        ("ruling.site.export", "ruling.site.pdf"), ("ruling.site.export", "ruling.site.search_index"),
        ("ruling.site.export", "yaml"), ("ruling.site.history", "collections"), ("ruling.site.history", "difflib"),
        ("ruling.site.html_hooks", "html"), ("ruling.site.html_hooks", "markupsafe"), ("ruling.site.html_hooks", "re"),
        ("ruling.site.html_hooks", "ruling.site.quiet"),
        ("ruling.site.history", "ruling.diff.revisions"),
        ("ruling.site.pages", "ruling.site.escape"), ("ruling.site.pages", "html"),
        ("ruling.site.pages", "markupsafe"), ("ruling.site.pages", "unicodedata"), ("ruling.site.pages", "os"),
        ("ruling.site.pages", "ruling.site.pdf"), ("ruling.site.pages", "ruling.site.build"),
        ("ruling.site.pages", "ruling.journal.rulings"), ("ruling.site.pages", "ruling.decide.engine"),
        ("ruling.site.paths", "unicodedata"), ("ruling.site.pdf", "ruling.site.history"),
        ("ruling.site.search_index", "ruling.search.index"),
        ("ruling.site.search_index", "ruling.search.analysis"), ("ruling.site.search_index", "ruling.search.query"),
        ("ruling.site.search_index", "ruling.search.ranking"), ("ruling.site.search_index", "ruling.search.snippets"),
        ("ruling.site.search_index", "ruling.site.paths"),
    ]},
}


def _function_level_imports(module: str) -> set[str]:
    """What `module` imports inside its functions: ruling modules by full name, others by top package."""
    path = ROOT / Path(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                names = [f"{base}.{a.name}" for a in node.names]
                found = [n for n in names if n in MODULES]
                out.update(found or [base if base in MODULES else base.split(".")[0]])
            elif isinstance(node, ast.Import):
                out.update(a.name if a.name in MODULES else a.name.split(".")[0] for a in node.names)
    return out


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


def test_every_function_level_import_has_its_reason():
    found = {(m, n) for m in MODULES if m != "ruling.cli" and not m.startswith(MOVING)
             for n in _function_level_imports(m)}
    unexplained = sorted(f"{m} → {n}" for m, n in found - set(LAZY))
    assert not unexplained, ("import dans une fonction sans raison : placez-le en tête du module, ou ajoutez-le à "
                             f"LAZY avec sa raison : {unexplained}")
    stale = sorted(f"{m} → {n}" for m, n in set(LAZY) - found)
    assert not stale, f"entrées de LAZY que plus aucun import n'utilise : retirez-les : {stale}"


def test_every_function_level_import_names_something_that_exists():
    """A lazy import fails only when its function runs: check the names now (a name moved to another
    module once broke `ruling search` while every module still imported alone)."""
    missing = []
    for module in MODULES:
        path = ROOT / Path(*module.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        for func in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "ruling":
                    target = importlib.import_module(node.module)
                    missing += [f"{module} : from {node.module} import {a.name}" for a in node.names
                                if not hasattr(target, a.name) and f"{node.module}.{a.name}" not in MODULES]
    assert not missing, missing
