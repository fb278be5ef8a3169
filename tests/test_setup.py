"""The set-up scripts: install once then start offline, rebuild a wrong .venv, skip or fail the browser tests.

The scripts run for real on a tiny project (no dependencies) that carries this repository's
scripts/, so that pip has little to do; the browser checks run pytest in a subprocess.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import install_state  # noqa: E402  (scripts/ is not a package)


def _tiny_project(tmp_path: Path) -> Path:
    project = tmp_path / "projet"
    shutil.copytree(ROOT / "scripts", project / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    (project / "tiny.py").write_text("VALUE = 1\n", encoding="utf-8")
    # Stands for ruling's search package: what setup.sh asks of it at the end of an install.
    (project / "ruling").mkdir()
    (project / "ruling" / "__init__.py").write_text("", encoding="utf-8")
    (project / "ruling" / "search.py").write_text(
        "import os, pathlib\n\n\ndef prepare():\n"
        "    pathlib.Path(os.environ['TINY_PREPARED']).write_text('prepared', encoding='utf-8')\n", encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n'
        '[project]\nname = "tiny-ruling-setup-test"\nversion = "0"\n\n'
        '[project.optional-dependencies]\nsite = []\ntest = ["tiny-ruling-setup-test[site]"]\n\n'
        '[tool.setuptools]\npy-modules = ["tiny"]\n', encoding="utf-8")
    return project


def _setup(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "RULING_PYTHON"}
    env["TINY_PREPARED"] = str(project / "prepared")
    return subprocess.run(["bash", "scripts/setup.sh", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> SimpleNamespace:
    """A tiny project whose .venv was first made with a stand-in "Python 3.8", then set up."""
    project = _tiny_project(tmp_path_factory.mktemp("setup"))
    fake = project / ".venv" / "bin" / "python"
    fake.parent.mkdir(parents=True)
    fake.write_text('#!/bin/sh\ncase "$*" in *print*) echo "Python 3.8"; exit 0;; esac\nexit 1\n', encoding="utf-8")
    fake.chmod(0o755)
    return SimpleNamespace(dir=project, first_run=_setup(project, "test"))


def test_a_venv_with_a_too_old_python_is_rebuilt_saying_so(installed):
    first = installed.first_run
    assert first.returncode == 0, first.stderr
    assert "setup : .venv utilise Python 3.8, il faut Python 3.11 ou plus ; reconstruction de .venv" in first.stderr
    version = subprocess.run([str(installed.dir / ".venv" / "bin" / "python"), "-c",
                              "import sys; print(sys.version_info >= (3, 11))"], capture_output=True, text=True)
    assert version.stdout.strip() == "True"


def test_the_first_install_shows_one_line_and_no_pip_or_setuptools_output(installed):
    lines = installed.first_run.stderr.splitlines()
    assert lines[-1] == "setup : installation de ruling [test] dans .venv (une seule fois ; journal : .venv/setup.log)"
    assert "BuildBackendWarning" not in installed.first_run.stderr
    assert "Successfully installed" in (installed.dir / ".venv" / "setup.log").read_text(encoding="utf-8")


def test_an_install_ends_by_compiling_and_preparing_the_first_search(installed):
    """setup.sh compiles ruling's modules and calls `ruling.search.prepare` (index built now,
    not in the first search)."""
    assert (installed.dir / "prepared").read_text(encoding="utf-8") == "prepared"
    assert list((installed.dir / "ruling" / "__pycache__").glob("search.*.pyc"))


def test_a_second_run_installs_nothing_and_needs_no_network(installed):
    log = installed.dir / ".venv" / "setup.log"
    before = log.stat().st_mtime_ns
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "", "http_proxy": "http://127.0.0.1:9",
           "https_proxy": "http://127.0.0.1:9"}
    for extras in ("test", "site", ""):  # test includes site; any extras include the package itself
        again = subprocess.run(["bash", "scripts/setup.sh", extras], cwd=installed.dir, env=env,
                               capture_output=True, text=True, timeout=60)
        assert (again.returncode, again.stdout, again.stderr) == (0, "", "")
    assert log.stat().st_mtime_ns == before


def test_two_set_ups_at_once_leave_one_working_venv(tmp_path):
    project = _tiny_project(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "RULING_PYTHON"}
    runs = [subprocess.Popen(["bash", "scripts/setup.sh", "test"], cwd=project, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    results = []
    for run in runs:
        _, err = run.communicate(timeout=600)
        results.append((run.returncode, err))
    assert [code for code, _ in results] == [0, 0], results
    # One of them installed, the other waited and found it done: a single install line in all.
    assert sum(err.count("setup : installation de ruling") for _, err in results) == 1, results
    pip = subprocess.run([str(project / ".venv" / "bin" / "python"), "-m", "pip", "--version"],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr


def test_an_offline_first_install_says_so_in_one_french_line(tmp_path):
    """No package repository reachable: pip's traceback stays in .venv/setup.log, one line on screen."""
    project = _tiny_project(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("RULING_PYTHON", "PIP_FIND_LINKS", "no_proxy", "NO_PROXY")}
    env.update({"PIP_CONFIG_FILE": os.devnull, "PIP_INDEX_URL": "https://pypi.org/simple", "PIP_RETRIES": "0",
                "PIP_DEFAULT_TIMEOUT": "2", "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9"})
    result = subprocess.run(["bash", "scripts/setup.sh"], cwd=project, env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "setup : installation de ruling dans .venv (une seule fois ; journal : .venv/setup.log)",
        "setup : les dépôts de paquets (PyPI) n'ont pas pu être joints (pas de réseau ?) ; connectez-vous puis "
        "relancez (détail : .venv/setup.log)"]
    assert "ERROR" in (project / ".venv" / "setup.log").read_text(encoding="utf-8")


def test_the_mkdocs_banner_is_silenced_in_the_venv(installed):
    out = subprocess.run([str(installed.dir / ".venv" / "bin" / "python"), "-c",
                          "import os; print(os.environ.get('NO_MKDOCS_2_WARNING'))"],
                         env={k: v for k, v in os.environ.items() if k != "NO_MKDOCS_2_WARNING"},
                         capture_output=True, text=True)
    assert out.stdout.strip() == "1"


def test_a_changed_pyproject_means_a_new_install(tmp_path):
    project = _tiny_project(tmp_path)
    subprocess.run([sys.executable, "-m", "venv", str(project / ".venv")], check=True)
    stamp = project / ".venv" / ".ruling-installed"
    run = [str(project / ".venv" / "bin" / "python"), "-I", "scripts/install_state.py"]
    assert subprocess.run(run + ["check", ""], cwd=project).returncode == 1  # nothing recorded yet
    assert subprocess.run(run + ["record", "test"], cwd=project).returncode == 0
    assert '"extras": ["site", "test"]' in stamp.read_text(encoding="utf-8")
    assert subprocess.run(run + ["check", "site"], cwd=project).returncode == 0
    assert subprocess.run(run + ["check", "docs"], cwd=project).returncode == 1
    with (project / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write("# a new pin\n")
    assert subprocess.run(run + ["check", ""], cwd=project).returncode == 1


def test_extras_closure_follows_self_references():
    optional = {"site": ["mkdocs"], "test": ["pytest", "ruling[site]"], "docs": ["ruling[site, test]"]}
    assert install_state._extras_closure({"test"}, optional) == {"test", "site"}
    assert install_state._extras_closure({"docs"}, optional) == {"docs", "site", "test"}
    assert install_state._extras_closure(set(), optional) == set()


# -- the browser tests without a browser ---------------------------------------------------------

def _browser_suite(**env) -> subprocess.CompletedProcess:
    full = {**os.environ, "RULING_CHROMIUM": "/nonexistent/chromium", **env}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ROOT / "tests" / "test_site_browser.py")],
                          cwd=ROOT, env=full, capture_output=True, text=True, timeout=300)


def test_without_chromium_the_browser_tests_skip_with_the_reason_in_the_summary():
    out = _browser_suite(CI="")
    assert out.returncode == 5, out.stdout[-2000:]  # pytest's "no test ran": this module alone, all skipped
    summary = [line for line in out.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(summary) == 1, out.stdout[-2000:]
    assert summary[0].startswith("SKIPPED [1] tests/test_site_browser.py:")
    assert summary[0].endswith(": chromium absent (/nonexistent/chromium) : lancez en root scripts/install-browser.sh "
                               "(apt-get install chromium), ou RULING_CHROMIUM=/chemin/du/chromium")
    assert "1 skipped" in out.stdout


def test_in_ci_a_browser_test_that_would_skip_fails():
    out = _browser_suite(CI="true")
    assert out.returncode == 1
    # every browser test fails (none skips, none passes), however many the module holds
    last = out.stdout.strip().splitlines()[-1]
    errors = [line for line in out.stdout.splitlines() if line.startswith("ERROR tests/test_site_browser.py::")]
    # (pytest adds « (0:01:22) » past a minute: a loaded machine)
    assert re.fullmatch(rf"{len(errors)} errors in [\d.]+s( \(\d+:\d\d:\d\d\))?", last) and len(errors) >= 10, out.stdout[-2000:]
    assert "CI=true : les tests du navigateur doivent tourner ; chromium absent (/nonexistent/chromium)" in out.stdout
