"""A non-editable install ships the rulebooks: `ruling` works from any directory."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

from conftest import ROOT, tda_scenario_count


def test_non_editable_install_works_from_anywhere(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("ruling", "rulebook"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    target = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(target), str(src)], check=True, capture_output=True)
    assert (target / "ruling" / "rulebook" / "club" / "book.yaml").is_file()
    assert (target / "ruling" / "rulebook" / "schema" / "chapter.schema.json").is_file()
    assert (target / "ruling" / "rulebook" / "club" / "source.txt").is_file()
    env = {**os.environ, "PYTHONPATH": str(target), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("RULING_KB", None)
    elsewhere = tmp_path / "ailleurs"
    elsewhere.mkdir()
    out = subprocess.run([str(target / "bin" / "ruling"), "show", "club:9-13"], cwd=elsewhere, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "relance minimum à 490 (total)" in " ".join(out.stdout.split())
    check = subprocess.run([str(target / "bin" / "ruling"), "check"], cwd=elsewhere, env=env,
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    assert (target / "ruling" / "rulebook" / "club" / "scenarios" / "chip-race.yaml").is_file()
    scenarios = subprocess.run([str(target / "bin" / "ruling"), "test", "--book", "tda"], cwd=elsewhere, env=env,
                               capture_output=True, text=True)
    assert scenarios.returncode == 0, scenarios.stdout + scenarios.stderr
    assert scenarios.stdout.strip().splitlines()[-1] == f"{tda_scenario_count()} scénario(s) réussi(s), 0 échoué(s)"
    rulings = subprocess.run([str(target / "bin" / "ruling"), "diff", "club", "--rulings"], cwd=elsewhere, env=env,
                             capture_output=True, text=True)
    assert rulings.returncode == 0, rulings.stderr
    assert "8-11" in rulings.stdout
