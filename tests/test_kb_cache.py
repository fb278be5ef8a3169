"""The parsed-knowledge-base cache: fast path, and never a wrong, stale, hostile or broken answer."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import threading
import time

import pytest

from ruling.kb import plain
from ruling.kb.cache import KEEP_NEWEST, prune
from ruling.kb.load import cache_dir, load_kb, take_snapshot

from conftest import ROOT, RULEBOOK

CLAUSE_1_2 = "Aucun mineur n'est accepté en tournoi."


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "ruling"


def cache_file(root=RULEBOOK):
    return cache_dir() / f"kb-{take_snapshot(root).digest}.marshal"


def cli(args, cache_home, cwd=ROOT, kb=None):
    """`ruling ARGS` as a separate process, with its own cache folder."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    env.pop("RULING_KB", None)
    cmd = [sys.executable, "-m", "ruling"] + (["--kb", str(kb)] if kb else []) + list(args)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_first_load_writes_the_cache_and_second_reads_it(fresh_cache):
    kb = load_kb(RULEBOOK)
    assert cache_file().is_file()
    again = load_kb(RULEBOOK)
    assert again.clause("club:9-13").text == kb.clause("club:9-13").text
    assert [c.citation for c in again.clauses(all_revisions=True)] == [c.citation for c in kb.clauses(all_revisions=True)]
    assert [p.to_json() for p in again.procedures] == [p.to_json() for p in kb.procedures]
    assert again.glossary == kb.glossary


def test_the_cache_holds_what_dataclasses_astuple_would_write(fresh_cache):
    # plain.astuple skips dataclasses.astuple's deep copy of every value; the bytes must not change
    import dataclasses

    kb = load_kb(RULEBOOK, use_cache=False)
    # procedures are written without their catalogue and parameters (written once beside them)
    procedures = [dataclasses.replace(p, catalogue=None, parameters={}) for p in kb.procedures]
    for obj in [*kb.books, *procedures]:
        assert plain.astuple(obj) == dataclasses.astuple(obj)
    assert plain.astuple({"a": [(1, kb.books[0].revisions[0])]}) == {"a": [(1, dataclasses.astuple(kb.books[0].revisions[0]))]}


def test_the_cache_is_plain_data_in_a_private_folder(fresh_cache):
    import marshal

    load_kb(RULEBOOK)
    data = marshal.loads(cache_file().read_bytes())  # tuples, lists, strings: reading it runs nothing
    assert data[0] == "ruling-kb" and data[2] == take_snapshot(RULEBOOK).digest
    assert not cache_file().read_bytes().startswith(b"\x80")  # not a pickle
    assert stat.S_IMODE(os.stat(fresh_cache).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(cache_file()).st_mode) == 0o600


def test_an_existing_cache_folder_of_ours_is_made_private(fresh_cache):
    fresh_cache.mkdir(parents=True, mode=0o755)
    os.chmod(fresh_cache, 0o755)  # as an earlier version created it
    load_kb(RULEBOOK)
    assert stat.S_IMODE(os.stat(fresh_cache).st_mode) == 0o700
    assert cache_file().is_file()


@pytest.mark.parametrize("damage", [b"", b"garbage\x00\xff not marshal", "truncate", "other-shape"])
def test_damaged_cache_is_rebuilt(fresh_cache, damage):
    load_kb(RULEBOOK)
    path = cache_file()
    if damage == "truncate":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif damage == "other-shape":
        import marshal

        path.write_bytes(marshal.dumps(("ruling-kb", "Clause:id", "0" * 32, [], [], [])))
    else:
        path.write_bytes(damage)
    kb = load_kb(RULEBOOK)
    assert kb.clause("club:9-7").text.endswith("relance minimum 130 (total).")
    assert load_kb(RULEBOOK).clause("club:9-7").id == "9-7"  # repaired: readable again
    assert plain.loads(path.read_bytes(), "").digest == kb.digest


def test_leftover_temporary_file_from_a_killed_process_is_harmless(fresh_cache):
    fresh_cache.mkdir(parents=True)
    (fresh_cache / f".{cache_file().name}.99999.tmp").write_bytes(b"half a file")
    assert load_kb(RULEBOOK).clause("club:1-2").text == CLAUSE_1_2


def test_unwritable_cache_directory_falls_back_to_no_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert load_kb(RULEBOOK).clause("club:1-2").id == "1-2"


def test_a_regular_file_where_the_cache_folder_should_be_is_called_a_file(tmp_path):
    home = tmp_path / "cache"
    home.mkdir()
    (home / "ruling").write_text("pas un cache", encoding="utf-8")
    result = cli(["show", "club:1-2"], home)
    assert result.returncode == 0
    assert CLAUSE_1_2 in result.stdout
    assert result.stderr == (f"Avertissement : cache « {home / 'ruling'} » refusé : c'est un fichier, pas un dossier ; "
                             "le cache reste en mémoire pour cette commande (supprimez ce fichier, ou choisissez "
                             "un autre XDG_CACHE_HOME)\n")
    assert (home / "ruling").read_text(encoding="utf-8") == "pas un cache"


def test_an_edit_changes_the_digest_and_is_seen(fresh_cache, kb_copy):
    load_kb(kb_copy)
    chapter = kb_copy / "club" / "01-regles-generales.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("Aucun mineur", "Aucun enfant"), encoding="utf-8")
    assert load_kb(kb_copy).clause("club:1-2").text == "Aucun enfant n'est accepté en tournoi."


def test_a_same_size_edit_with_the_mtime_kept_is_seen(fresh_cache, kb_copy):
    chapter = kb_copy / "club" / "01-regles-generales.yaml"
    before = os.stat(chapter)
    assert load_kb(kb_copy).clause("club:1-2").text == CLAUSE_1_2
    text = chapter.read_text(encoding="utf-8")
    chapter.write_text(text.replace("Aucun mineur", "Aucun majeur"), encoding="utf-8")  # same size
    os.utime(chapter, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(chapter).st_size == before.st_size
    assert load_kb(kb_copy).clause("club:1-2").text == "Aucun majeur n'est accepté en tournoi."


def test_an_edit_between_hashing_and_parsing_is_never_cached_under_the_old_key(fresh_cache, kb_copy, monkeypatch):
    """The editor saves while a cold process reads the base: what is cached is what was hashed."""
    import ruling.kb.load as load

    chapter = kb_copy / "club" / "01-regles-generales.yaml"
    original = chapter.read_text(encoding="utf-8")
    real_parse = load.parse_kb

    def parse_after_a_save(root, snap=None):
        chapter.write_text(original.replace("Aucun mineur", "Aucun enfant"), encoding="utf-8")
        return real_parse(root, snap)

    monkeypatch.setattr(load, "parse_kb", parse_after_a_save)
    first = load.load_kb(kb_copy)
    monkeypatch.setattr(load, "parse_kb", real_parse)
    assert first.clause("club:1-2").text == CLAUSE_1_2  # the bytes hashed, not those on disk later
    assert load.load_kb(kb_copy).clause("club:1-2").text == "Aucun enfant n'est accepté en tournoi."
    chapter.write_text(original, encoding="utf-8")
    assert load.load_kb(kb_copy).clause("club:1-2").text == CLAUSE_1_2


@pytest.mark.parametrize("save", ["rename", "in-place"])
def test_sixteen_cold_processes_while_an_editor_saves_never_poison_the_cache(tmp_path, kb_copy, save):
    chapter = kb_copy / "club" / "01-regles-generales.yaml"
    original = chapter.read_text(encoding="utf-8")
    texts = [original, original.replace("Aucun mineur", "Aucun enfant")]
    stop = threading.Event()

    def editor():
        i = 0
        while not stop.is_set():
            i += 1
            text = texts[i % 2]
            if save == "rename":
                tmp = chapter.with_name(".save.tmp")
                tmp.write_text(text, encoding="utf-8")
                os.replace(tmp, chapter)
            else:
                with open(chapter, "w", encoding="utf-8") as f:
                    f.write(text)
            time.sleep(0.003)

    cache_home = tmp_path / "storm"
    thread = threading.Thread(target=editor)
    thread.start()
    try:
        env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
        cmd = [sys.executable, "-m", "ruling", "--kb", str(kb_copy), "show", "club:1-2", "--json"]
        procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(16)]
        for p in procs:
            p.communicate(timeout=300)
    finally:
        stop.set()
        thread.join()
    for text, expected in [(texts[0], CLAUSE_1_2), (texts[1], "Aucun enfant n'est accepté en tournoi.")]:
        chapter.write_text(text, encoding="utf-8")
        result = cli(["--kb", str(kb_copy), "show", "club:1-2", "--json"], cache_home)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["text"] == expected
    for entry in (cache_home / "ruling").glob("kb-*.marshal"):  # every entry holds the text of its key
        assert entry.name == f"kb-{plain.loads(entry.read_bytes(), '').digest}.marshal"


def _twin_bases(tmp_path, texts):
    """Bases named `rulebook` whose book folders are symbolic links to separate copies."""
    bases = []
    for n, text in enumerate(texts):
        books = tmp_path / f"books{n}"
        shutil.copytree(RULEBOOK, books)
        chapter = books / "club" / "01-regles-generales.yaml"
        chapter.write_text(chapter.read_text(encoding="utf-8").replace("Aucun mineur", text), encoding="utf-8")
        base = tmp_path / f"base{n}" / "rulebook"
        base.mkdir(parents=True)
        for entry in books.iterdir():
            (base / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
        bases.append((base, chapter))
    return bases


def test_symlinked_book_folders_are_part_of_the_key(fresh_cache, tmp_path):
    (a, chapter_a), (b, _) = _twin_bases(tmp_path, ["Aucun mineur", "Aucun enfant"])
    assert load_kb(a).clause("club:1-2").text == CLAUSE_1_2
    assert load_kb(b).clause("club:1-2").text == "Aucun enfant n'est accepté en tournoi."
    chapter_a.write_text(chapter_a.read_text(encoding="utf-8").replace("Aucun mineur", "Aucun bébé"),
                         encoding="utf-8")
    assert load_kb(a).clause("club:1-2").text == "Aucun bébé n'est accepté en tournoi."


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


# -- a cache folder someone else could have filled ---------------------------------------------

class _Payload:
    """Unpickling this creates `marker`: what a planted pickle would do to the next user."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def _plant(folder, marker, tmp_path):
    """A hostile cache: a poisoned parsed base, old-format pickles, a search index whose
    table of contents runs code when whoosh opens it."""
    import pickle

    from ruling import search

    folder.mkdir(parents=True, exist_ok=True)
    digest = take_snapshot(RULEBOOK).digest
    honest = tmp_path / "honest"
    env_cache = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(honest)
    try:
        kb = load_kb(RULEBOOK)
        search.search(kb, "carte brulee")
    finally:
        os.environ["XDG_CACHE_HOME"] = env_cache
        search.index._OPEN.clear()
    poisoned = plain.loads((honest / "ruling" / f"kb-{digest}.marshal").read_bytes(), "")
    poisoned.clause("club:1-2").text = "TEXTE EMPOISONNÉ"
    (folder / f"kb-{digest}.marshal").write_bytes(plain.dumps(poisoned))
    (folder / f"kb-{digest}.pickle").write_bytes(pickle.dumps(_Payload(marker)))
    index = folder / f"index-{digest}"
    shutil.copytree(honest / "ruling" / f"index-{digest}", index)
    toc = next(index.glob("_MAIN_*.toc"))
    _evil_toc(tmp_path / "evil", marker)
    shutil.copy(next((tmp_path / "evil").glob("_MAIN_*.toc")), index / "_MAIN_99.toc")
    assert toc.exists()
    return index


def _evil_toc(folder, marker):
    from whoosh.fields import Schema
    from whoosh.filedb.filestore import FileStorage

    class EvilSchema(Schema):
        def __reduce__(self):
            return (os.mkdir, (str(marker),))

    folder.mkdir()
    FileStorage(str(folder)).create_index(EvilSchema(title=__import__("whoosh.fields").fields.TEXT))


def _attack_is_live(index, marker):
    """Opening the planted index with whoosh does run the payload (so the test below can fail)."""
    code = f"from whoosh.filedb.filestore import FileStorage; FileStorage({str(index)!r}).open_index()"
    subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    live = marker.exists()
    if live:
        marker.rmdir()
    return live


@pytest.mark.parametrize("hostile", ["world-writable", "foreign-owner"])
def test_a_planted_cache_runs_nothing_and_serves_nothing(tmp_path, hostile):
    home = tmp_path / "shared"
    folder = home / "ruling"
    marker = tmp_path / "code-ran"
    index = _plant(folder, marker, tmp_path)
    assert _attack_is_live(index, marker)
    if hostile == "world-writable":
        os.chmod(folder, 0o777)
        reason = "d'autres utilisateurs peuvent y écrire (droits 0777, attendu 0700)"
    else:
        if os.geteuid() != 0:
            pytest.skip("changer le propriétaire demande les droits root (chown vers un autre utilisateur)")
        os.chmod(folder, 0o700)
        for path in [folder, *folder.rglob("*")]:
            os.lchown(path, 65534, 65534)
        reason = "il appartient à un autre utilisateur (uid 65534)"
    for args in (["show", "club:1-2"], ["search", "carte brulee"], ["decide", "flop-irregulier", "--book", "club",
                                                                     "-a", "defaut=premature"]):
        result = cli(args, home)
        assert result.returncode == 0, result.stderr
        assert not marker.exists(), args
        assert "TEXTE EMPOISONNÉ" not in result.stdout
        assert result.stderr == (f"Avertissement : cache « {folder} » refusé : {reason} ; le cache reste en mémoire "
                                 "pour cette commande (supprimez ce dossier, ou choisissez un autre XDG_CACHE_HOME)\n")
    assert CLAUSE_1_2 in cli(["show", "club:1-2"], home).stdout
    assert sorted(p.name for p in folder.iterdir()) == sorted([index.name, f"kb-{index.name[6:]}.marshal",
                                                               f"kb-{index.name[6:]}.pickle"])  # nothing written


def test_a_planted_index_in_our_own_folder_is_not_opened_when_others_could_write_it(fresh_cache, tmp_path):
    """The folder is ours and private, but one index folder in it is world-writable: rebuilt, never opened."""
    marker = tmp_path / "code-ran"
    index = _plant(fresh_cache, marker, tmp_path)
    os.chmod(fresh_cache, 0o700)
    os.chmod(index, 0o777)
    (fresh_cache / f"kb-{index.name[6:]}.marshal").unlink()
    result = cli(["search", "carte brulee", "--json"], fresh_cache.parent)
    assert result.returncode == 0, result.stderr
    assert not marker.exists()
    assert json.loads(result.stdout)["hits"]
    assert stat.S_IMODE(os.stat(index).st_mode) & 0o022 == 0  # rebuilt by us


@pytest.mark.parametrize("hostile", ["toc-world-writable", "toc-group-writable", "toc-foreign-owner",
                                     "toc-symlink", "subfolder"])
def test_a_planted_index_file_in_our_private_index_folder_is_never_unpickled(fresh_cache, tmp_path, hostile):
    """The cache folder and the index folder are ours and 0700, but one file in the index is
    not: whoosh would unpickle its table of contents, so the index is rebuilt, never opened."""
    marker = tmp_path / "code-ran"
    index = _plant(fresh_cache, marker, tmp_path)
    os.chmod(fresh_cache, 0o700)
    os.chmod(index, 0o700)
    for path in index.iterdir():
        os.chmod(path, 0o600)
    evil = index / "_MAIN_99.toc"
    if hostile == "toc-world-writable":
        os.chmod(evil, 0o666)
    elif hostile == "toc-group-writable":
        os.chmod(evil, 0o620)
    elif hostile == "toc-foreign-owner":
        if os.geteuid() != 0:
            pytest.skip("changer le propriétaire d'un fichier demande les droits root")
        os.lchown(evil, 65534, 65534)
    elif hostile == "toc-symlink":
        outside = tmp_path / "outside.toc"
        evil.rename(outside)
        evil.symlink_to(outside)
    else:
        (index / "sub").mkdir(mode=0o700)
    (fresh_cache / f"kb-{index.name[6:]}.marshal").unlink()
    assert _attack_is_live(index, marker)
    result = cli(["search", "carte brulee", "--json"], fresh_cache.parent)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert not marker.exists()
    assert json.loads(result.stdout)["hits"]
    assert not (index / "_MAIN_99.toc").exists() and not (index / "sub").exists()  # rebuilt by us
    assert all(p.stat().st_uid == os.geteuid() for p in index.iterdir())


# -- hygiene ---------------------------------------------------------------------------------

def _aged(path, seconds):
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_prune_keeps_the_recent_entries_and_removes_what_no_base_uses(fresh_cache):
    fresh_cache.mkdir(parents=True)
    day = 24 * 3600
    old_kb = []
    for n in range(KEEP_NEWEST + 3):
        entry = fresh_cache / f"kb-{n:032x}.marshal"
        entry.write_text("{}")
        _aged(entry, 2 * day + n)  # kb-0 newest
        old_kb.append(entry.name)
    recent = fresh_cache / f"kb-{'f' * 32}.marshal"
    recent.write_text("{}")
    _aged(recent, 3600)
    stale_build = fresh_cache / ".index-abc.x1y2"
    stale_build.mkdir()
    (stale_build / "_MAIN_1.toc").write_bytes(b"half")
    _aged(stale_build, 2 * 3600)
    running_build = fresh_cache / ".index-def.x3y4"
    running_build.mkdir()
    old_format = [fresh_cache / "kb-0123.pickle", fresh_cache / "stat-0123"]
    for p in old_format:
        p.write_bytes(b"x")
    removed = prune(fresh_cache)
    left = {p.name for p in fresh_cache.iterdir()}
    assert recent.name in left and running_build.name in left
    assert set(old_kb[:KEEP_NEWEST - 1]) <= left  # with the recent one: the KEEP_NEWEST newest
    assert not set(old_kb[KEEP_NEWEST - 1:]) & left
    assert stale_build.name not in left and not any(p.name in left for p in old_format)
    assert sorted(removed) == sorted(old_kb[KEEP_NEWEST - 1:] + [stale_build.name] + [p.name for p in old_format])


def test_a_cold_load_prunes_and_an_interrupted_index_build_is_removed(fresh_cache):
    fresh_cache.mkdir(parents=True)
    leftover = fresh_cache / ".index-0123.abcd"
    leftover.mkdir()
    (leftover / "_MAIN_1.toc").write_bytes(b"half an index")
    _aged(leftover, 2 * 3600)
    load_kb(RULEBOOK)
    assert not leftover.exists()
    assert [p.name for p in fresh_cache.iterdir()] == [cache_file().name]
