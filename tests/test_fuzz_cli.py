"""Property-based fuzzing of every command: whatever a user types, the CLI answers with
exit 0, 1 or 2, a French line on error (a JSON error document with --json), and never a traceback.

The commands and their options are read from click itself, so a new command is fuzzed
as soon as it exists. `RULING_FUZZ_EXAMPLES` sets the examples per command (default 400).
"""
from __future__ import annotations

import json
import os

import click
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from ruling.cli import cli

from conftest import RULEBOOK

EXAMPLES = int(os.environ.get("RULING_FUZZ_EXAMPLES", "400"))
SLOW = {"check": 15, "export": 15, "diff": 60,  # commands that reread the whole base: fewer examples
        "site": 4}  # renders the whole site (seconds each), into a folder of a private working directory
COMMANDS = sorted(cli.commands)


@pytest.fixture(scope="module")
def loaded(kb):
    """Serve the already-loaded base to every invocation (the fuzzing is about arguments)."""
    import ruling.kb.load

    mp = pytest.MonkeyPatch()
    original = ruling.kb.load.load_kb
    mp.setattr(ruling.kb.load, "load_kb", lambda path=None, **kw: kb if path in (None, str(RULEBOOK)) else original(path, **kw))
    yield kb
    mp.undo()


def vocabulary(kb) -> list[str]:
    words = ["club", "tda", "cash", "infos", "club@v1", "club@v9", "git:HEAD:rulebook/club", "git:nope:rulebook/club",
             "9-13", "9-31", "club:9-13", "club@v1:8-11", "tda:bouton-mort", "", " ", "-", "--", "*", "~", "AND",
             "(", ")", '"', "'", "é", "🂡", "\x00", "\x1b[31m", "1e309", "-5", "0", "99999999999999999999",
             "oui", "non", "o", "n", "true", "x" * 300, "carte brulee", "maldonne", str(RULEBOOK / "club"), "/dev/null"]
    for c in kb.clauses()[:40]:
        words.append(c.citation)
    for p in kb.procedures:
        words += [p.id, p.situation]
        for q in p.used_questions():  # Question objects: their ids and every valid choice
            words += [q.id, f"{q.id}=oui", f"{q.id}=-1", f"{q.id}=zzz"]
            words += [f"{q.id}={choice}" for choice in q.choices]
    return words


def test_the_vocabulary_holds_valid_answers(kb):
    """The fuzzer must reach decisions, not only errors: valid `question=choice` pairs are in it."""
    words = vocabulary(kb)
    assert "defaut=premature" in words and "tour=avant-flop" in words


def value_strategy(param: click.Parameter, words: list[str]):
    text = st.one_of(st.sampled_from(words), st.text(max_size=40), st.text(alphabet=st.characters(), max_size=8))
    if isinstance(param.type, click.Choice):
        text = st.one_of(st.sampled_from(list(param.type.choices)), text)
    elif isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType)):
        text = st.one_of(st.integers(-10**20, 10**20).map(str), text)
    return text


def argv_strategy(command: click.Command, words: list[str]):
    parts = []
    for param in command.params:
        if isinstance(param, click.Argument):
            n = st.integers(0, 3) if param.nargs == -1 else st.integers(0, 1) if not param.required else st.integers(1, 1)
            parts.append(n.flatmap(lambda k, p=param: st.lists(value_strategy(p, words), min_size=k, max_size=k)))
        elif isinstance(param, click.Option):
            name = param.opts[0]
            if param.is_flag:
                parts.append(st.booleans().map(lambda b, n=name: [n] if b else []))
            elif name in ("--kb", "--journal"):  # paths: the base stays the real one, the journal the private one
                continue
            else:
                many = 3 if param.multiple else 1
                parts.append(st.lists(value_strategy(param, words), max_size=many).map(
                    lambda vals, n=name: [x for v in vals for x in (n, v)]))
    return st.tuples(*parts).map(lambda groups: [x for g in groups for x in g]) if parts else st.just([])


def check_result(result, argv):
    assert result.exit_code in (0, 1, 2), (argv, result.exit_code, result.output[-500:])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError((argv, repr(result.exception))) from result.exception
    assert "Traceback" not in result.output, argv
    if result.exit_code == 2:
        wants_json = "--json" in (argv[: argv.index("--")] if "--" in argv else argv)
        if wants_json and "Erreur : " not in result.stderr:  # decide's missing answers: JSON, and the line
            assert set(json.loads(result.stdout)) == {"error"}, (argv, result.output[-300:])
        else:
            assert "Erreur : " in result.output, (argv, result.output[-300:])


@pytest.mark.parametrize("name", COMMANDS)
def test_fuzz_command(name, loaded, runner, tmp_path, monkeypatch):
    # in a folder of its own: `journal --output WORD` writes WORD in the current folder, and four
    # such files once landed in the repository (club, Ð…)
    monkeypatch.chdir(tmp_path)
    command = cli.commands[name]
    if name == "site":  # its folder argument is written: without the PDFs (slow)
        monkeypatch.setenv("RULING_NO_PDF", "1")
    words = vocabulary(loaded)
    examples = min(EXAMPLES, SLOW.get(name, EXAMPLES))

    @seed(20261129)
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(argv=argv_strategy(command, words), typed=st.text(max_size=30))
    def run(argv, typed):
        result = runner.invoke(cli, [name, *argv], input=typed + "\n")
        check_result(result, [name, *argv])

    run()


@settings(max_examples=min(EXAMPLES, 200), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=st.lists(st.text(max_size=12), max_size=4))
def test_fuzz_top_level(argv, runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, argv, input="\n")
    check_result(result, argv)
