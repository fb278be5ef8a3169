"""`ruling check --stamp` rewrites procedure files safely: atomically, keeping line endings, and
refusing (one French line, exit 2, nothing written) what it cannot read or write."""
from __future__ import annotations

import errno
import os

PROC = "club/procedures/flop-irregulier.yaml"
STAMPED = '"2-7#25e521"'
UNSTAMPED = '"2-7"'


def _unstamp(kb_copy):
    path = kb_copy / PROC
    text = path.read_bytes()
    assert STAMPED.encode() in text
    path.write_bytes(text.replace(STAMPED.encode(), UNSTAMPED.encode()))
    return path


def _snapshot(kb_copy) -> dict:
    return {p: (p.read_bytes(), p.stat().st_mode) for p in kb_copy.rglob("procedures/*.yaml") if p.is_file()}


def _refused(result, *words):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Erreur : "), result.output
    for w in words:
        assert w in lines[0], lines[0]


def test_stamp_keeps_crlf_line_endings(run, kb_copy):
    path = _unstamp(kb_copy)
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    result = run("check", "--stamp", kb_path=kb_copy)
    assert "empreintes écrites dans 1 fichier(s)" in result.output and "rulebook/" + PROC in result.output
    data = path.read_bytes()
    assert STAMPED.encode() + b"]\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")  # not one line rewritten LF


def test_stamp_keeps_lf_and_the_file_mode(run, kb_copy):
    path = _unstamp(kb_copy)
    path.chmod(0o640)
    before = path.read_bytes()
    run("check", "--stamp", kb_path=kb_copy)
    assert path.read_bytes() == before.replace(UNSTAMPED.encode(), STAMPED.encode())
    assert path.stat().st_mode & 0o777 == 0o640
    assert not list(path.parent.glob(".*.tmp"))


def test_a_folder_named_yaml_is_refused(run, kb_copy):
    _unstamp(kb_copy)
    (kb_copy / "club/procedures/brouillon.yaml").mkdir()
    before = _snapshot(kb_copy)
    _refused(run("check", "--stamp", kb_path=kb_copy), "brouillon.yaml", "n'est pas un fichier")
    assert _snapshot(kb_copy) == before


def test_a_read_only_procedure_is_refused(run, kb_copy):
    path = _unstamp(kb_copy)
    path.chmod(0o444)
    before = _snapshot(kb_copy)
    _refused(run("check", "--stamp", kb_path=kb_copy), "flop-irregulier.yaml", "lecture seule")
    assert _snapshot(kb_copy) == before


def test_a_latin1_procedure_is_refused_with_its_line(run, kb_copy):
    path = _unstamp(kb_copy)
    path.write_bytes(path.read_text(encoding="utf-8").encode("latin-1"))
    before = _snapshot(kb_copy)
    _refused(run("check", "--stamp", kb_path=kb_copy), "flop-irregulier.yaml", "ligne 4", "UTF-8")
    assert _snapshot(kb_copy) == before


def test_a_full_disk_leaves_the_file_whole(run, kb_copy, monkeypatch):
    path = _unstamp(kb_copy)
    before = _snapshot(kb_copy)

    def full_disk(src, dst):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", full_disk)
    _refused(run("check", "--stamp", kb_path=kb_copy), "flop-irregulier.yaml", "n'a pas pu être réécrit",
             os.strerror(errno.ENOSPC))
    assert _snapshot(kb_copy) == before
    assert not list(path.parent.glob(".*.tmp"))
