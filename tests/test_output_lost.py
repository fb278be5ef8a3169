"""Output that cannot be written (full disk, closed stdout) is said in one French line, exit 2.

`ruling show 9-13 > /dev/full` used to end in a traceback, and with stdout closed `list` lost its
output in silence with exit status 0. A broken pipe (`ruling export --json | head -1`) stays quiet.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT

FULL = ("Erreur : impossible d'écrire la sortie : disque plein (libérez de la place ou redirigez "
        "la sortie ailleurs)\n")
CLOSED = ("Erreur : impossible d'écrire la sortie : la sortie standard est fermée (redirigez-la vers "
          "un fichier, ou vers /dev/null)\n")
COMMANDS = [
    ["show", "9-13"], ["show", "9-31", "--json"], ["list"], ["list", "club"], ["search", "relance"],
    ["export", "--json"], ["check"], ["journal", "--csv"], ["procedures"],
    ["decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature"],
]


def _env(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("RULING_KB", None)
    return env


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_full_disk_is_one_french_line_and_exit_2(tmp_path, args):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "ruling", *args], cwd=ROOT, env=_env(tmp_path),
                                stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (2, FULL)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_closed_stdout_is_one_french_line_and_exit_2(tmp_path, args):
    result = subprocess.run(["sh", "-c", 'exec "$0" -m ruling "$@" >&-', sys.executable, *args], cwd=ROOT,
                            env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (2, CLOSED)


def test_a_broken_pipe_stays_quiet(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "ruling", "export", "--json"], cwd=ROOT, env=_env(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline() == b"{\n"
    proc.stdout.close()  # like `| head -1`
    stderr = proc.stderr.read()
    proc.stderr.close()
    proc.wait(timeout=120)
    assert stderr == b""
