"""Property-based fuzzing of the one YAML reader (`ruling.kb.safe_yaml`) and of the loader on broken files.

Whatever bytes a chapter, an answers file or a diff side holds, the reader either returns
plain data (what PyYAML's safe loader returns) or raises `YamlProblem` with a French
message: never another exception, never a Python object, never a long walk.
"""
from __future__ import annotations

import os

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruling.kb.safe_yaml import YamlProblem, parse_yaml

EXAMPLES = int(os.environ.get("RULING_FUZZ_EXAMPLES", "400"))
PIECES = ["a", "b", ":", ": ", "- ", "\n", "  ", "\t", "&x ", "*x", "&y ", "*y", "[", "]", "{", "}", ",", "'", '"',
          "!!python/object:os.system ", "!!str ", "<<: ", "---\n", "...\n", "#", "|", ">", "?", "%YAML 1.1\n", "é",
          "\\", "\x00", "\x85", "\ufeff", "9-13", "text: ", "clauses:\n", "1", "true", "~"]


def _plain(value) -> bool:
    if isinstance(value, dict):
        return all(_plain(k) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool, bytes)) or type(value).__module__ == "datetime"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_text_is_plain_data_or_a_french_problem(text):
    try:
        data, _ = parse_yaml(text)
    except YamlProblem as e:
        assert e.message and "Traceback" not in e.message
        assert e.line >= 0
        return
    assert _plain(data)
    expected = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # what libyaml builds
    if expected == expected:  # NaN never equals itself
        assert data == expected


@settings(max_examples=max(20, EXAMPLES // 10), deadline=None)
@given(st.integers(min_value=2, max_value=12), st.integers(min_value=2, max_value=8))
def test_alias_expansion_is_bounded_whatever_the_shape(width, levels):
    lines = ["l0: &l0 [" + ", ".join(["x"] * width) + "]"]
    for n in range(1, levels):
        lines.append(f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * width) + "]")
    text = "\n".join(lines) + "\n"
    size, aliased = 1 + width, 0  # nodes of l0; nodes reached through aliases, expanded
    for _ in range(1, levels):
        aliased += width * size
        size = 1 + width * size
    try:
        parse_yaml(text)
    except YamlProblem as e:
        assert "alias trop nombreux" in e.message
        assert aliased > 5000
        return
    assert aliased <= 5000


@settings(max_examples=max(10, EXAMPLES // 20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["club/09-actions-et-les-relances.yaml", "club/book.yaml", "glossary.yaml",
                        "club/procedures/flop-irregulier.yaml", "club/context.yaml", "schema/chapter.schema.json"]),
       st.integers(min_value=0, max_value=4000), st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join),
       st.integers(min_value=0, max_value=40))
def test_a_randomly_broken_file_is_a_problem_of_the_base_never_an_exception(rel, at, piece, cut):
    """Insert a piece of YAML syntax into a file of the real base (and drop a few bytes after it)."""
    from ruling.errors import Problem
    from ruling.kb.load import parse_kb, take_snapshot
    from ruling.kb.snapshot import Snapshot

    from conftest import RULEBOOK

    snap = _SNAPSHOT.get("real") or _SNAPSHOT.setdefault("real", take_snapshot(RULEBOOK))
    data = snap.files[rel]
    at = min(at, len(data))
    broken = data[:at] + piece.encode("utf-8") + data[at + cut:]
    mutated = Snapshot(snap.root, {**snap.files, rel: broken}, snap.dirs, snap.others, [], snap.digest)
    kb, problems = parse_kb(RULEBOOK, mutated)
    assert all(isinstance(p, Problem) and p.message and "Traceback" not in p.message for p in problems)
    if broken != data and not problems:  # accepted: then it still reads as a base
        assert kb.books


_SNAPSHOT: dict = {}
