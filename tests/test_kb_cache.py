"""The parsed-knowledge-base cache: fast path, and never a wrong or broken answer."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, RULEBOOK
from ruling.load import cache_dir, content_digest, kb_files, load_kb


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "ruling"


def cache_file():
    return cache_dir() / f"kb-{content_digest(RULEBOOK, kb_files(RULEBOOK))}.pickle"


def test_first_load_writes_the_cache_and_second_reads_it(fresh_cache):
    kb = load_kb(RULEBOOK)
    assert cache_file().is_file()
    again = load_kb(RULEBOOK)
    assert again.clause("club:9-13").text == kb.clause("club:9-13").text
    assert [c.citation for c in again.clauses(all_revisions=True)] == [c.citation for c in kb.clauses(all_revisions=True)]


@pytest.mark.parametrize("damage", [b"", b"garbage\x00\xff not a pickle", "truncate"])
def test_damaged_cache_is_rebuilt(fresh_cache, damage):
    load_kb(RULEBOOK)
    path = cache_file()
    if damage == "truncate":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    else:
        path.write_bytes(damage)
    kb = load_kb(RULEBOOK)
    assert kb.clause("club:9-7").text.endswith("relance minimum 130 (total).")
    assert load_kb(RULEBOOK).clause("club:9-7").id == "9-7"  # repaired: readable again
    import pickle

    assert pickle.loads(path.read_bytes()).clause("club:9-7").id == "9-7"


def test_leftover_temporary_file_from_a_killed_process_is_harmless(fresh_cache):
    fresh_cache.mkdir(parents=True)
    (fresh_cache / f".{cache_file().name}.99999.tmp").write_bytes(b"half a pickle")
    assert load_kb(RULEBOOK).clause("club:1-2").text == "Aucun mineur n'est accepté en tournoi."


def test_unwritable_cache_directory_falls_back_to_no_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert load_kb(RULEBOOK).clause("club:1-2").id == "1-2"


def test_an_edit_changes_the_digest_and_is_seen(fresh_cache, kb_copy):
    load_kb(kb_copy)
    chapter = kb_copy / "club" / "01-regles-generales.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("Aucun mineur", "Aucun enfant"), encoding="utf-8")
    assert load_kb(kb_copy).clause("club:1-2").text == "Aucun enfant n'est accepté en tournoi."


def test_eight_processes_on_a_cold_cache_agree(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cold")}
    env.pop("RULING_KB", None)
    cmd = [sys.executable, "-m", "ruling", "show", "club:9-13", "--json"]
    procs = [subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(8)]
    results = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
    assert [code for _, _, code in results] == [0] * 8, [err for _, err, _ in results]
    outputs = {out for out, _, _ in results}
    assert len(outputs) == 1
    assert json.loads(outputs.pop())["citation"] == "club:9-13"
    leftovers = [p.name for p in (tmp_path / "cold" / "ruling").iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []
