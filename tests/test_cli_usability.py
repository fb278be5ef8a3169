"""What a user trips on at the command line: help, --kb anywhere, citations, --json errors, French
names and messages, the listing's counts, the search hint, compare's outcomes, shell completion."""
from __future__ import annotations

import json
import re

import click
import pytest

from ruling.cli import cli

from conftest import ROOT


def test_plain_ruling_prints_the_help_and_exits_0(run):
    result = run()
    assert result.exit_code == 0
    assert re.match(r"Utilisation : \S+ \[OPTIONS\] COMMANDE \[ARGUMENTS\]\.\.\.\n", result.stdout)
    assert "Commandes:" in result.stdout and result.stderr == ""


def test_kb_is_accepted_after_the_command(runner, kb_copy):
    club = kb_copy / "club" / "09-actions-et-les-relances.yaml"
    text = club.read_text(encoding="utf-8")
    assert "relance minimum à 490 (total)" in text
    club.write_text(text.replace("relance minimum à 490 (total)", "relance minimum à 777 (total)"), encoding="utf-8")
    after = runner.invoke(cli, ["show", "club:9-13", "--kb", str(kb_copy)], catch_exceptions=False)
    assert after.exit_code == 0, after.output
    assert "relance minimum à 777 (total)" in " ".join(after.stdout.split())
    before = runner.invoke(cli, ["--kb", str(kb_copy), "show", "club:9-13"], catch_exceptions=False)
    assert before.stdout == after.stdout


def test_kb_after_the_command_is_used_by_search_and_check(runner, tmp_path):
    missing = tmp_path / "nulle-part"
    for args in (["search", "relance", "--kb", str(missing)], ["check", "--kb", str(missing)]):
        result = runner.invoke(cli, args, catch_exceptions=False)
        assert result.exit_code == 2, args
        assert f"« {missing} » n'est pas un dossier" in result.stderr, args


def test_citation_case_does_not_matter(run):
    upper = run("show", "CLUB:9-13")
    assert upper.exit_code == 0, upper.output
    assert upper.stdout == run("show", "club:9-13").stdout
    assert run("show", "Club@V1:8-11").stdout == run("show", "club@v1:8-11").stdout
    assert json.loads(run("show", "TDA:Relances-Insuffisantes", "--json").stdout)["citation"] == "tda:relances-insuffisantes"
    assert run("show", "9-13", "--book", "CLUB").stdout == run("show", "club:9-13").stdout
    assert run("procedures", "--book", "CLUB").stdout == run("procedures", "--book", "club").stdout != ""


def test_a_book_in_the_citation_and_another_in_book_is_refused(run):
    result = run("show", "club:9-13", "--book", "tda")
    assert result.exit_code == 2
    assert result.stderr == "Erreur : « club:9-13 » nomme déjà le livre club, et --book dit tda ; gardez l'un des deux\n"
    assert run("show", "club:9-13", "--book", "club").exit_code == 0  # the same book twice is fine


def test_a_number_missing_from_book_suggests_the_books_that_have_it(run):
    result = run("show", "9-13", "--book", "tda")
    assert result.exit_code == 2
    assert result.stderr == "Erreur : La règle « tda:9-13 » n'existe pas ; vouliez-vous club:9-13 ?\n"


def test_the_readme_error_example_is_what_ruling_prints(run):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"^\$ ruling (show \S+)\n(Erreur : .+)$", readme, re.M)
    assert example, "README: the example `$ ruling show …` followed by its `Erreur : …` line"
    result = run(*example.group(1).split())
    assert result.exit_code == 2
    assert result.stderr == example.group(2) + "\n"


# -- names in French ----------------------------------------------------------------------------

FRENCH_METAVARS = {"OPTIONS", "COMMANDE", "ARGUMENTS", "CITATION", "LIVRE", "ANCIEN", "NOUVEAU", "PROCÉDURE",
                   "MOTS", "SITUATION", "DOSSIER", "FICHIER", "N", "QUESTION", "RÉPONSE",
                   "NOM", "SIÈGE", "TEXTE", "QUAND", "ÉVÉNEMENT"}


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_argument_and_option_names_are_french(run, name):
    help_text = run(name, "--help").stdout
    usage = help_text.splitlines()[0]
    assert re.match(rf"Utilisation : \S+ {name} ", usage)
    names = set(re.findall(r"\b[A-ZÀ-Ý][A-ZÀ-Ý_]+\b|\b[A-Z]\b", usage))
    for option in cli.commands[name].params:
        if isinstance(option, click.Option) and not option.hidden and not option.is_flag and option.metavar:
            names |= set(re.findall(r"[A-ZÀ-Ý]+", option.metavar))
    assert names <= FRENCH_METAVARS, names - FRENCH_METAVARS


def test_book_kinds_are_french_in_the_listing(run):
    out = run("list").stdout
    assert "type : tournoi" in out and "type : partie d'argent (cash game)" in out
    assert "tournament" not in out and "house" not in out


def test_the_listing_gives_all_and_normative_counts_as_check_does(run, kb):
    lines = run("list").stdout.splitlines()
    counts = {head.split()[0]: re.search(r"· (\d+) règles, dont (\d+) normatives$", detail).groups()
              for head, detail in zip(lines[::2], lines[1::2])}
    coverage = dict(re.findall(r"^couverture (\w+) : \d+/(\d+) règles normatives", run("check").stdout, re.M))
    assert {b: normative for b, (_, normative) in counts.items()} == coverage
    assert {b: int(total) for b, (total, _) in counts.items()} == {b.id: len(b.current.clauses()) for b in kb.books}
    assert counts["club"] == ("125", "117")  # 110 before issue 11 retagged 7 normative clauses


def test_clicks_own_errors_are_french(run):
    result = run("search", "relance", "--limit", "abc")
    assert (result.exit_code, result.stderr) == (2, "Erreur : --limit attend un nombre entier (ex. 5), pas « abc »\n")
    result = run("search", "relance", "--kind", "regle")
    assert (result.exit_code, result.stderr) == (2, "Erreur : --kind attend clause ou procedure, pas « regle »\n")
    assert "is not" not in result.stderr


# -- --json: every outcome is a JSON document -----------------------------------------------------

JSON_ERRORS = [
    (["show", "9-31", "--json"], "La règle « 9-31 » n'existe pas", ["club:9-13", "club:9-11", "club:9-1"]),
    (["decide", "nope", "--json"], "La procédure « nope » n'existe pas", []),
    (["decide", "flop-irregulier", "--book", "club", "-a", "defaut=prematur", "--json"], "defaut", None),
    (["search", "relance", "--limit", "abc", "--json"], "--limit attend un nombre entier", []),
    (["search", "relance", "--book", "clubb", "--json"], "Le livre « clubb » n'existe pas", ["club"]),
    (["list", "clubb", "--json"], "Le livre « clubb » n'existe pas", ["club"]),
    (["check", "--kb", "/nonexistent", "--json"], "base de règles introuvable", []),
    (["diff", "clubb", "--json"], "Le livre « clubb » n'existe pas", ["club"]),
    (["compare", "relance-minimu", "--json"], "La situation « relance-minimu » n'existe dans aucun livre",
     ["relance-minimum", "relance-insuffisante"]),
    (["procedures", "--book", "clubb", "--json"], "Le livre « clubb » n'existe pas", ["club"]),
    (["shwo", "9-13", "--json"], "commande inconnue : « shwo »", ["show"]),
    (["show", "--jsno", "9-13", "--json"], "option inconnue : --jsno", ["--json"]),
    (["search", "x", "--kind", "regle", "--json"], "--kind attend clause ou procedure", ["clause", "procedure"]),
]


@pytest.mark.parametrize(("args", "message", "suggestions"), JSON_ERRORS, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_with_json_every_error_is_a_json_document(runner, args, message, suggestions):
    result = runner.invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert set(data) == {"error"} and set(data["error"]) == {"message", "suggestions"}
    assert message in data["error"]["message"]
    if suggestions is not None:
        assert data["error"]["suggestions"] == suggestions


def test_without_json_the_same_error_is_one_french_line(run):
    result = run("show", "9-31")
    assert result.stdout == "" and result.stderr.count("\n") == 1 and result.stderr.startswith("Erreur : ")


# -- the search hint, compare ---------------------------------------------------------------------

def test_the_search_hint_opens_the_procedure_directly(run):
    found = run("search", "relance", "insuffisante", "--house", "tda").stdout  # tda's procedure listed
    hint = re.search(r"→ ruling (ask relance-insuffisante --book tda)", found)
    assert hint
    result = run(*hint.group(1).split(), input="")
    assert "Situations possibles" not in result.stdout
    assert "(tda:relance-insuffisante)" in result.stdout
    assert "Que faut-il trancher ?" in result.stdout


def test_compare_lists_only_the_outcomes_each_case_can_reach(run, kb):
    from ruling.decide.engine import decide

    out = run("compare", "relance-minimum").stdout
    case = out.split("Cas demande=minimum")[1].split("\n\n")[0]
    assert "  club  → [minimum] calcul selon tour, grosse-blind, mises (club:9-5, club:9-6, club:9-7, club:9-8, club:9-13)\n" in case + "\n"
    assert "reouverture" not in case
    club = next(p for p in kb.procedures if p.book == "club" and p.situation == "relance-minimum")
    decisions = [decide(kb, "club", club.id, {"demande": "minimum", "tour": v}) for v in club.question("tour").domain]
    reached = {d.rule.outcome for d in decisions}  # the rule each case ends at (its amounts still to give)
    assert reached == {"minimum"}  # one outcome since the street became an input of the calculator


# -- shell completion ------------------------------------------------------------------------------

def _complete(runner, words: str) -> list[str]:
    env = {"_RULING_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split(" ")) - 1)}
    result = runner.invoke(cli, [], prog_name="ruling", env=env, catch_exceptions=False)
    return [line.split(",", 1)[1] for line in result.stdout.splitlines() if line]


def test_completion_of_citations_books_and_procedures(runner):
    club_9_1 = _complete(runner, "ruling show club:9-1")
    assert club_9_1[:5] == ["club:9-1", "club:9-10", "club:9-11", "club:9-12", "club:9-13"]
    assert all(c.startswith("club:9-1") for c in club_9_1)
    assert "club@v1:8-11" in _complete(runner, "ruling show club@v1:8-1")
    assert _complete(runner, "ruling show --book club 9-1")[:5] == ["9-1", "9-10", "9-11", "9-12", "9-13"]
    assert _complete(runner, "ruling search --book c") == ["cash", "club"]
    assert _complete(runner, "ruling list club") == ["club", "club@v1", "club@v2"]
    assert _complete(runner, "ruling decide --book club flop-") == ["flop-irregulier"]
    assert "relance-minimum" in _complete(runner, "ruling compare relance-")
    assert _complete(runner, "ruling sh") == ["show"]


def test_a_bare_citation_unique_across_books_completes(runner, run):
    bare = _complete(runner, "ruling show 9-1")
    assert bare[:5] == ["9-1", "9-10", "9-11", "9-12", "9-13"]
    assert all(run("show", c).exit_code == 0 for c in bare)  # each completion is a citation `show` accepts
    assert _complete(runner, "ruling show 9-13") == ["9-13"]


def test_a_bare_id_two_books_share_completes_only_with_its_book(runner, run):
    assert run("show", "jetons-visibles").exit_code == 2  # ambiguous without a book
    assert "jetons-visibles" not in _complete(runner, "ruling show jetons-")
    assert "tda:jetons-visibles" in _complete(runner, "ruling show tda:jetons-")
    assert "jetons-visibles" in _complete(runner, "ruling show --book tda jetons-")


def test_completion_with_a_missing_base_completes_nothing(runner, tmp_path):
    assert _complete(runner, "ruling show club:9-1")  # the bundled base completes
    assert _complete(runner, f"ruling --kb {tmp_path / 'nulle-part'} show club:9-1") == []
    assert _complete(runner, f"ruling show --kb {tmp_path / 'nulle-part'} club:9-1") == []


@pytest.mark.parametrize("command", [["decide", "flop-irregulier", "--book", "club"], ["compare", "flop-irregulier"]])
def test_two_different_answers_to_one_question_are_refused_naming_both(run, command):
    result = run(*command, "-a", "defaut=premature", "-a", "defaut=carte-exposee")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == ("Erreur : deux réponses différentes à la question « defaut » : -a defaut=premature "
                             "et -a defaut=carte-exposee ; gardez-en une seule\n")


def test_the_same_answer_given_twice_is_accepted(run):
    once = run("decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature")
    twice = run("decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature", "-a", "defaut= premature")
    assert (twice.exit_code, twice.stdout) == (0, once.stdout)
