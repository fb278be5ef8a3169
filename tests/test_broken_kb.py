"""A rule editor breaks the knowledge base: `ruling check` says where, other commands refuse."""
from __future__ import annotations

import json

import pytest

CHAPTER9 = "club/09-actions-et-les-relances.yaml"
PROC = "club/procedures/flop-irregulier.yaml"


def edit(kb_copy, rel, old, new, count=1):
    path = kb_copy / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return text


BREAKAGES = {
    "yaml-syntax": (CHAPTER9, "- id: 9-2\n", "- id: 9-2\n  text: [non fermé\n", "YAML invalide"),
    "duplicate-id": (CHAPTER9, "- id: 9-2\n", "- id: 9-1\n", "id « 9-1 » en double"),
    "missing-text": (CHAPTER9, "  text: Le « check-raise » (l'embuscade) est autorisé.\n", "", "champ obligatoire manquant : text"),
    "dangling-ref": ("club/02-donne.yaml", "  - 2-17\n", "  - 2-71\n", "ref « 2-71 » de la règle 2-4 n'existe pas"),
    "unknown-kind": (CHAPTER9, "kind: normative", "kind: normatif", "valeur « normatif » inconnue"),
    "unknown-field": (CHAPTER9, "- id: 9-2\n", "- id: 9-2\n  texte: oubli\n", "champ inconnu : texte"),
    "book-id-twice": ("tda/book.yaml", "id: tda\n", "id: club\n", "le livre « club » est déjà défini"),
    "missing-revision-dir": ("club/book.yaml", "path: revisions/v1", "path: revisions/v0", "n'existe pas"),
    # issue 14: what used to pass silently or raise
    "clause-text-twice": (CHAPTER9, "  text: Le « check-raise » (l'embuscade) est autorisé.\n",
                          "  text: Le « check-raise » (l'embuscade) est autorisé.\n  text: doublon\n",
                          "clé « text » en double dans ce mapping (déjà ligne"),
    "rule-decision-twice": (PROC, "    outcome: bruler-premiere-du-flop\n",
                            "    outcome: bruler-premiere-du-flop\n    decision: autre décision\n",
                            "clé « decision » en double dans ce mapping"),
    "clause-id-with-newline": (CHAPTER9, "- id: 9-2\n", '- id: "9-2\\n"\n',
                               "« 9-2\\n » ne respecte pas le format : un id commence par une lettre ou un "
                               "chiffre, puis lettres, chiffres, « - », « _ » ou « . » ; pas d'espace ni de saut "
                               "de ligne"),
    "tab-indentation": (CHAPTER9, "- id: 9-2\n", "- id: 9-2\n\ttopics: []\n",
                        "YAML invalide : tabulation dans l'indentation ; YAML s'indente avec des espaces"),
    "alias-bomb-in-chapter": (CHAPTER9, "- id: 9-2\n", "- id: 9-2\n  topics: *d\n", "alias trop nombreux"),
    "nul-byte": (CHAPTER9, "- id: 9-2\n", "- id: 9-2\x00\n", "caractère NUL (\\x00) ligne"),
    "source-outside-the-base": ("club/book.yaml", "source: source.txt", "source: ../../../../etc/shadow",
                                "le document source « ../../../../etc/shadow » refusé : « .. » sort du dossier du livre"),
    "revision-outside-the-book": ("club/book.yaml", "path: revisions/v1", "path: ../../elsewhere",
                                  "le dossier de révision « ../../elsewhere » refusé"),
    "revision-source-absolute": ("club/book.yaml", "source: revisions/v1/source.txt", "source: /etc/passwd",
                                 "le document source « /etc/passwd » refusé : chemin absolu"),
    "hidden-revision-folder": ("club/book.yaml", "path: revisions/v1", "path: revisions/.v1",
                               "refusé : dossier ou fichier caché"),
    "two-chapter-files-same-number": (CHAPTER9, "chapter: '9'\n", "chapter: '2'\n",
                                      "le chapitre « 2 » est déjà défini dans rulebook/club/02-donne.yaml"),
    "choices-min-properties": (PROC, "    text: L'ordre d'apparition des cartes du flop est-il connu ?\n    type: bool\n",
                               "    text: L'ordre d'apparition des cartes du flop est-il connu ?\n    choices: {oui: Oui}\n",
                               "questions.ordre-connu.choices : au moins 2 entrée(s) attendue(s), trouvé 1"),
    "condition-any-of": (PROC, "when: {defaut: premature}", "when: {defaut: {a: 1}}",
                         "d'une forme non permise ; attendu : texte, booléen (true/false), liste"),
    "latin-1-chapter": (CHAPTER9, None, None, "texte non UTF-8 (octet \\xab ligne 7, du Latin-1 ?) ; enregistrez le fichier en UTF-8"),
}
BOMB = "".join(f"{n}: &{n} [{', '.join(['*' + p] * 9) if p else ', '.join(['x'] * 9)}]\n"
               for p, n in zip(["", "a", "b", "c"], "abcd"))


@pytest.mark.parametrize("name", sorted(BREAKAGES))
def test_check_names_file_line_and_problem(run, kb_copy, name):
    rel, old, new, message = BREAKAGES[name]
    if name == "latin-1-chapter":
        path = kb_copy / rel
        path.write_bytes(path.read_text(encoding="utf-8").encode("latin-1", errors="replace"))
    elif name == "alias-bomb-in-chapter":
        edit(kb_copy, rel, old, new)
        path = kb_copy / rel
        path.write_text(path.read_text(encoding="utf-8").replace("clauses:\n", BOMB.replace("\n", "\n  ").join(
            ["x-bomb:\n  ", "\nclauses:\n"]), 1), encoding="utf-8")
    else:
        edit(kb_copy, rel, old, new)
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    problems = [line for line in result.output.splitlines() if message in line]
    assert problems, result.output
    assert problems[0].split(":")[0].endswith(rel.split("/")[-1]) or "book.yaml" in problems[0]
    assert "Traceback" not in result.output


def test_problem_line_numbers_point_at_the_clause(run, kb_copy):
    edit(kb_copy, CHAPTER9, "- id: 9-2\n", "- id: 9-1\n")
    text = (kb_copy / CHAPTER9).read_text(encoding="utf-8").splitlines()
    first, second = [n for n, line in enumerate(text, 1) if line == "- id: 9-1"]
    out = run("check", kb_path=kb_copy).output
    assert f"rulebook/{CHAPTER9}:{second}: id « 9-1 » en double (déjà utilisé en rulebook/{CHAPTER9}:{first})" in out


def test_yaml_error_has_the_line(run, kb_copy):
    edit(kb_copy, CHAPTER9, "- id: 9-2\n", "- id: 9-2\n  text: [non fermé\n")
    out = run("check", kb_path=kb_copy).output
    assert f"rulebook/{CHAPTER9}:" in out and "YAML invalide" in out


def test_check_json_lists_problems(run, kb_copy):
    edit(kb_copy, "club/02-donne.yaml", "  - 2-17\n", "  - 2-71\n")
    data = json.loads(run("check", "--json", kb_path=kb_copy).output)
    assert data["problems"][0]["file"] == "rulebook/club/02-donne.yaml"
    assert data["problems"][0]["line"] > 0
    assert "2-71" in data["problems"][0]["message"]
    assert "club" in data["coverage"]


@pytest.mark.parametrize("args", [("show", "club:9-13"), ("list",), ("export",)])
def test_other_commands_refuse_a_broken_base(run, kb_copy, args):
    edit(kb_copy, "club/02-donne.yaml", "  - 2-17\n", "  - 2-71\n")
    result = run(*args, kb_path=kb_copy)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert result.output.startswith("Erreur : base de règles invalide : rulebook/club/02-donne.yaml:")
    assert "ref « 2-71 » de la règle 2-4 n'existe pas" in result.output


def test_with_json_a_broken_base_is_a_json_error(run, kb_copy):
    edit(kb_copy, "club/02-donne.yaml", "  - 2-17\n", "  - 2-71\n")
    result = run("export", "--json", kb_path=kb_copy)
    assert result.exit_code == 2
    message = json.loads(result.stdout)["error"]["message"]
    assert message.startswith("base de règles invalide : rulebook/club/02-donne.yaml:")
    assert "ref « 2-71 » de la règle 2-4 n'existe pas" in message


def test_a_ref_written_in_the_text_must_be_listed(run, kb_copy):
    edit(kb_copy, "club/02-donne.yaml", "  refs:\n  - 2-17\n", "")
    out = run("check", kb_path=kb_copy).output
    assert "la règle 2-4 renvoie à « 2-17 » dans son texte, absent de refs" in out


@pytest.mark.parametrize("rel, old, new, expected", [
    (CHAPTER9, "- id: 9-2\n", "- id: 9 2\n",
     "id : « 9 2 » ne respecte pas le format : un id commence par une lettre ou un chiffre, puis lettres, chiffres, "
     "« - », « _ » ou « . » ; pas d'espace ni de saut de ligne"),
    (PROC, "id: flop-irregulier\n", "id: Flop_irrégulier\n",
     "id : « Flop_irrégulier » ne respecte pas le format : un id commence par une minuscule sans accent ou un "
     "chiffre, puis minuscules, chiffres ou « - » ; pas d'espace ni de saut de ligne"),
])
def test_an_id_failing_its_pattern_is_explained_in_words_not_as_a_regex(run, kb_copy, rel, old, new, expected):
    edit(kb_copy, rel, old, new)
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "ne respecte pas le format" in line]
    assert lines and all(line.endswith(expected) for line in lines), result.output
    assert "^" not in result.output and "[A-Za-z0-9]" not in result.output


def test_every_pattern_of_the_schemas_is_said_in_words():
    import re as re_

    from ruling.kb.schemas import PATTERN_WORDS

    from conftest import RULEBOOK

    patterns = {p for f in (RULEBOOK / "schema").glob("*.schema.json")
                for p in re_.findall(r'"pattern": "((?:[^"\\]|\\.)*)"', f.read_text(encoding="utf-8"))}
    assert patterns and patterns <= set(PATTERN_WORDS), patterns - set(PATTERN_WORDS)
