"""Files that are not what they look like: FIFOs, links, folders, devices, huge or deep YAML.

Each case must give one clear French problem (`check`, exit 1) or one French line (every
other command, exit 2): never a traceback, never a hang, never a silent « base valide ».
"""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

CH9 = "club/09-actions-et-les-relances.yaml"
DECIDE = ("decide", "flop-irregulier", "--book", "club")


def problem_lines(output):
    return [line for line in output.splitlines() if line.startswith("rulebook")]


def check_finds(run, kb_copy, expected):
    """`ruling check` fails and its first problem is `expected` (exactly)."""
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert problem_lines(result.output)[0] == expected, result.output
    return result


def ruling(*args, timeout=60):
    """A separate `ruling` process: for inputs that would hang a process that waits on them."""
    env = {k: v for k, v in os.environ.items() if k != "RULING_KB"}
    return subprocess.run([sys.executable, "-m", "ruling", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


# -- in the base ---------------------------------------------------------------------------

def test_a_fifo_named_yaml_in_a_book_is_refused_without_waiting(kb_copy):
    os.mkfifo(kb_copy / "club" / "99-tube.yaml")
    result = ruling("--kb", kb_copy, "check", timeout=60)
    assert result.returncode == 1
    assert ("rulebook/club/99-tube.yaml: fichier illisible : c'est un tube nommé (FIFO) ; attendu un fichier ordinaire"
            in result.stdout.splitlines())


def test_a_dangling_yaml_symlink_is_named(run, kb_copy):
    (kb_copy / "club" / "99-parti.yaml").symlink_to(kb_copy / "nulle-part.yaml")
    check_finds(run, kb_copy, "rulebook/club/99-parti.yaml: fichier illisible : lien symbolique cassé "
                              "(sa cible n'existe pas)")


def test_a_symlink_loop_is_named(run, kb_copy):
    (kb_copy / "club" / "98-a.yaml").symlink_to(kb_copy / "club" / "99-b.yaml")
    (kb_copy / "club" / "99-b.yaml").symlink_to(kb_copy / "club" / "98-a.yaml")
    result = check_finds(run, kb_copy, "rulebook/club/98-a.yaml: fichier illisible : boucle de liens symboliques ; "
                                       "attendu un fichier ordinaire")
    assert "rulebook/club/99-b.yaml: fichier illisible : boucle de liens symboliques" in result.output
    shown = run("show", "club:9-13", kb_path=kb_copy)
    assert shown.exit_code == 2 and shown.output.startswith("Erreur : base de règles invalide : rulebook/club/98-a.yaml")


def test_a_folder_symlink_loop_is_walked_once(run, kb_copy):
    (kb_copy / "club" / "boucle").symlink_to(kb_copy / "club", target_is_directory=True)
    check_finds(run, kb_copy, "rulebook/club/boucle: dossier déjà lu par un autre chemin "
                              "(boucle de liens symboliques ?) ; ignoré")


@pytest.mark.parametrize("name", [".#09-actions-et-les-relances.yaml", ".09-brouillon.yaml", "#09-x.yaml"])
def test_editor_lock_and_hidden_files_are_ignored(run, kb_copy, name):
    lock = kb_copy / "club" / name
    if name.startswith(".#"):  # emacs: a dangling symlink to user@host.pid
        lock.symlink_to("root@machine.4242")
    else:  # a hidden draft, an editor's autosave
        lock.write_text("clauses: [à moitié écrit", encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "base valide"


@pytest.mark.parametrize("rel", ["glossary.yaml", "club/context.yaml", CH9])
def test_a_yaml_file_that_is_a_folder_is_named(run, kb_copy, rel):
    path = kb_copy / rel
    if path.exists():
        path.unlink()
    path.mkdir()
    (path / "oups.yaml").write_text("a: 1\n", encoding="utf-8")
    check_finds(run, kb_copy, f"rulebook/{rel}: fichier illisible : c'est un dossier ; attendu un fichier")


def test_procedures_as_a_file_is_the_cause_not_a_hundred_uncited_clauses(run, kb_copy):
    import shutil

    shutil.rmtree(kb_copy / "club" / "procedures")
    (kb_copy / "club" / "procedures").write_text("pas un dossier\n", encoding="utf-8")
    result = check_finds(run, kb_copy, "rulebook/club/procedures: « procedures » est un fichier ; attendu un dossier "
                                       "de procédures (<livre>/procedures/<id>.yaml)")
    assert "n'est citée par aucune procédure" not in result.output
    assert result.output.splitlines()[-1] == "1 problème(s)"


def _deny(monkeypatch, target, call):
    """Make `os.<call>` fail with EACCES on `target`, as chmod 000 would for a user other than root."""
    real = getattr(os, call)

    def denied(path, *args, **kwargs):
        if os.fspath(path) == os.fspath(target):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, call, denied)


def test_an_unreadable_book_folder_is_named(run, kb_copy, monkeypatch):
    folder = kb_copy / "club"
    if os.geteuid() == 0:  # root reads through chmod 000: simulate what any other user gets
        _deny(monkeypatch, folder, "scandir")
    else:
        os.chmod(folder, 0)
    try:
        check_finds(run, kb_copy, "rulebook/club: dossier illisible (Permission denied) ; rendez-le lisible (chmod u+rx)")
    finally:
        os.chmod(folder, 0o755)


@pytest.mark.parametrize("rel", [CH9, "club/book.yaml"])
def test_an_unreadable_file_is_named(run, kb_copy, monkeypatch, rel):
    path = kb_copy / rel
    if os.geteuid() == 0:
        _deny(monkeypatch, path, "open")
    else:
        os.chmod(path, 0)
    result = check_finds(run, kb_copy, f"rulebook/{rel}: fichier illisible : lecture refusée (droits du fichier) ; "
                                       "rendez-le lisible")
    assert result.output.splitlines()[-1] == "1 problème(s)"  # the cause, not the cites into the unread file
    shown = run("list", kb_path=kb_copy)
    assert shown.exit_code == 2 and "lecture refusée" in shown.output and shown.output.count("\n") == 1


def test_a_huge_chapter_is_refused_before_parsing(run, kb_copy):
    with open(kb_copy / "club" / "99-enorme.yaml", "wb") as f:
        f.truncate(17 * 2**20)
    check_finds(run, kb_copy, "rulebook/club/99-enorme.yaml: fichier illisible : fichier trop gros (17.0 Mo) ; "
                              "au plus 16.0 Mo")


def test_a_revision_folder_linked_outside_the_book_is_refused(run, kb_copy, tmp_path):
    import shutil

    elsewhere = tmp_path / "ailleurs"
    shutil.move(kb_copy / "club" / "revisions" / "v1", elsewhere)
    (kb_copy / "club" / "revisions" / "v1").symlink_to(elsewhere, target_is_directory=True)
    check_finds(run, kb_copy, "rulebook/club/book.yaml:11: le dossier de révision « revisions/v1 » refusé : "
                              "un lien symbolique mène hors du dossier du livre ; attendu un chemin relatif à "
                              "l'intérieur de rulebook/club/")


@pytest.mark.parametrize("schema, expected", [
    ('{"type": 5}', "schéma invalide (type : « 5 » n'est pas un type ; attendu l'un de string, integer, number, "
                    "boolean, array, object, null, ou une liste de ces noms) ; attendu un JSON Schema 2020-12 valide"),
    ('{"type": "object", "properties": {"id": {"type": "string", "pattern": "(["}}}',
     "schéma invalide (properties/id/pattern : « ([ » n'est pas une expression régulière valide) ; attendu un "
     "JSON Schema 2020-12 valide"),
    ('{"$ref": "https://example.invalid/chapter.json"}',
     "schéma illisible : référence distante « https://example.invalid/chapter.json » refusée (jamais téléchargée) ; "
     "seules les références internes (#/…) sont permises"),
    ('{"type": "object", "properties": {"x": {"$ref": "other.json#/x"}}}',
     "schéma illisible : référence distante « other.json#/x » refusée (jamais téléchargée) ; "
     "seules les références internes (#/…) sont permises"),
])
def test_a_schema_that_is_not_a_valid_schema_is_a_problem_not_a_traceback(run, kb_copy, monkeypatch, schema, expected):
    import socket

    def no_network(*args, **kwargs):
        raise AssertionError("a schema must never be fetched")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    (kb_copy / "schema" / "chapter.schema.json").write_text(schema, encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert f"rulebook/schema/chapter.schema.json: {expected}" in result.output.splitlines(), result.output


@pytest.mark.parametrize("schema, expected", [
    ('{"type": ', "rulebook/schema/chapter.schema.json:1: schéma illisible : valeur attendue ligne 1, colonne 10 ; "
                  "attendu un fichier JSON"),
    ("", "rulebook/schema/chapter.schema.json:1: schéma illisible : valeur attendue ligne 1, colonne 1 ; "
         "attendu un fichier JSON"),
    ('{\n  "type": "object",\n  x\n}', "rulebook/schema/chapter.schema.json:3: schéma illisible : nom de champ "
                                         "entre guillemets doubles attendu ligne 3, colonne 3 ; attendu un fichier JSON"),
])
def test_a_schema_that_is_not_json_is_named_in_french_with_its_line(run, kb_copy, schema, expected):
    (kb_copy / "schema" / "chapter.schema.json").write_text(schema, encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert expected in result.output.splitlines(), result.output


@pytest.mark.parametrize("schema", ['{"type": 5}', "pas du JSON"])
def test_coverage_is_unknown_not_100_percent_when_the_chapters_could_not_be_validated(run, kb_copy, schema):
    (kb_copy / "schema" / "chapter.schema.json").write_text(schema, encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert "couverture club : inconnue (ses fichiers n'ont pas pu être validés ; corrigez d'abord les problèmes " \
           "ci-dessus)" in lines, result.output
    assert not any("0/0" in line or "(100 %)" in line for line in lines), result.output
    data = json.loads(run("check", "--json", kb_path=kb_copy).output)
    assert data["coverage"]["club"] == {"normative": None, "covered": None, "uncovered": [], "known": False}


def test_coverage_is_counted_for_a_clean_base(run):
    data = json.loads(run("check", "--json").output)
    assert data["coverage"]["club"]["known"] is True
    assert data["coverage"]["club"]["covered"] == data["coverage"]["club"]["normative"] > 0


@pytest.mark.parametrize("path", ["/", "/etc"])
def test_a_folder_that_is_not_a_base_is_refused_before_it_is_walked(run, path):
    result = run("check", kb_path=path)
    assert result.exit_code == 2
    assert result.output == (f"Erreur : « {path} » n'est pas une base de règles : il n'a pas de dossier schema/ ; "
                             "indiquez le dossier rulebook/ (schema/, <livre>/book.yaml) avec --kb ou RULING_KB\n")


# -- answers, profile, diff sides ------------------------------------------------------------

def nested(depth):
    return "defaut:\n" + "".join("  " * i + "a:\n" for i in range(1, depth)) + "  " * depth + "premature\n"


BOMB = "".join(f"{n}: &{n} [{', '.join(['*' + p] * 9) if p else ', '.join(['x'] * 9)}]\n"
               for p, n in zip(["", "a", "b", "c", "d"], "abcde")) + "defaut: premature\n"


@pytest.mark.parametrize("option", ["--answers", "--profile"])
@pytest.mark.parametrize("content, expected", [
    (nested(500), "n'est pas du YAML valide (ligne 65) : imbrication trop profonde ; au plus 64 niveaux"),
    (BOMB, "n'est pas du YAML valide (ligne 4) : alias trop nombreux : ils dépliraient plus de 5000 nœuds "
           "(bombe d'alias ?) ; écrivez les valeurs sans alias"),
    ("defaut: premature\ndefaut: sans-brulee\n", "n'est pas du YAML valide (ligne 2) : clé « defaut » en double dans "
                                                 "ce mapping (déjà ligne 1) ; la seconde écraserait la première : "
                                                 "gardez-en une seule"),
    ("defaut: premature\n\tordre-connu: oui\n", "n'est pas du YAML valide (ligne 2) : tabulation dans l'indentation ; "
                                                "YAML s'indente avec des espaces"),
    ("defaut: !!python/object/apply:os.system ['true']\n", "n'est pas du YAML valide (ligne 1) : étiquette YAML non "
                                                           "permise (!!python… ou inconnue) ; seules les données "
                                                           "simples sont lues"),
])
def test_a_hostile_answers_or_profile_file_gets_one_french_line(run, tmp_path, option, content, expected):
    path = tmp_path / "reponses.yaml"
    path.write_text(content, encoding="utf-8")
    result = run(*DECIDE, option, path)
    assert result.exit_code == 2
    what = "réponses" if option == "--answers" else "profil"
    assert result.output == f"Erreur : le fichier de {what} « {path} » {expected}\n"


def test_a_latin1_answers_file_names_its_line(run, tmp_path):
    path = tmp_path / "reponses.yaml"
    path.write_bytes("# réponses\ndefaut: prématuré\n".encode("latin-1"))
    result = run(*DECIDE, "--answers", path)
    assert result.exit_code == 2
    assert result.output == (f"Erreur : le fichier de réponses « {path} » est illisible : texte non UTF-8 (octet \\xe9 "
                             "ligne 1, du Latin-1 ?) ; enregistrez le fichier en UTF-8\n")


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "folder", "huge"])
def test_answers_that_are_not_a_small_regular_file_are_refused_without_waiting(tmp_path, kind):
    path = tmp_path / "reponses.yaml"
    if kind == "fifo":
        os.mkfifo(path)
        what = "c'est un tube nommé (FIFO) ; attendu un fichier ordinaire"
    elif kind == "/dev/zero":
        path = "/dev/zero"
        what = "c'est un périphérique ; attendu un fichier ordinaire"
    elif kind == "folder":
        path.mkdir()
        what = "c'est un dossier ; attendu un fichier ordinaire"
    else:
        with open(path, "wb") as f:
            f.truncate(2 * 2**20)
        what = "fichier trop gros (2.0 Mo) ; au plus 1.0 Mo"
    result = ruling(*DECIDE, "--answers", path, timeout=60)
    assert result.returncode == 2
    assert result.stderr == f"Erreur : le fichier de réponses « {path} » est illisible : {what}\n"


def test_an_alias_bomb_as_a_diff_side_is_refused_quickly(run, tmp_path):
    side = tmp_path / "bombe.yaml"
    side.write_text("chapter: '9'\n" + BOMB.replace("defaut: premature\n", "") + "clauses: *e\n", encoding="utf-8")
    result = run("diff", "club", side)
    assert result.exit_code == 2
    assert result.output == (f"Erreur : YAML invalide dans {side}:5 : alias trop nombreux : ils dépliraient plus de "
                             "5000 nœuds (bombe d'alias ?) ; écrivez les valeurs sans alias\n")


def test_a_duplicate_key_in_a_diff_side_is_refused(run, tmp_path):
    side = tmp_path / "chapitre.yaml"
    side.write_text("chapter: '9'\nclauses:\n- id: 9-1\n  text: un\n  text: deux\n", encoding="utf-8")
    result = run("diff", "club", side)
    assert result.exit_code == 2
    assert result.output == (f"Erreur : YAML invalide dans {side}:5 : clé « text » en double dans ce mapping "
                             "(déjà ligne 4) ; la seconde écraserait la première : gardez-en une seule\n")


def test_check_json_reports_a_file_problem_as_json(run, kb_copy):
    (kb_copy / "club" / "99-parti.yaml").symlink_to(kb_copy / "nulle-part.yaml")
    data = json.loads(run("check", "--json", kb_path=kb_copy).output)
    assert data["problems"][0] == {"file": "rulebook/club/99-parti.yaml", "line": 0,
                                   "message": "fichier illisible : lien symbolique cassé (sa cible n'existe pas)"}
