"""Shared fixtures: the real knowledge base, a CLI runner, and broken copies to test against."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "rulebook"


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    """Every test run gets its own cache directory, never the user's."""
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    mp.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))  # the event journal, never the user's
    mp.delenv("RULING_KB", raising=False)
    mp.delenv("RULING_JOURNAL", raising=False)
    yield
    mp.undo()


@pytest.fixture(scope="session")
def kb():
    from ruling.kb.load import load_kb

    return load_kb(RULEBOOK)


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def run(runner):
    """Invoke the CLI like a user would: `run("show", "club:9-13")`."""
    from ruling.cli import cli

    def _run(*args, kb_path=None, input=None):
        argv = (["--kb", str(kb_path)] if kb_path else []) + [str(a) for a in args]
        return runner.invoke(cli, argv, input=input, catch_exceptions=False)

    return _run


@pytest.fixture
def kb_copy(tmp_path):
    """A private copy of the real knowledge base, to break on purpose."""
    dest = tmp_path / "rulebook"
    shutil.copytree(RULEBOOK, dest)
    return dest


def tda_scenario_count() -> int:
    """How many scenarios the bundled tda book ships (what `ruling test --book tda` must report)."""
    from ruling.decide.scenarios import read_scenario_files

    files, problems = read_scenario_files(RULEBOOK, ["tda"])
    assert not problems
    count = sum(len(f.scenarios) for f in files)
    assert count > 80
    return count
