"""The schemas' `$ref`s inlined (`kb.schemas.inlined_refs`, for speed) give the verdicts of the
schemas as written: the same errors at the same places, recursive definitions included."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from referencing import Registry

from ruling.kb.schemas import _validator_class, inlined_refs

RULEBOOK = Path(__file__).resolve().parent.parent / "rulebook"


def verdicts(schema, doc) -> list[tuple[str, str]]:
    validator = _validator_class()(schema, registry=Registry())
    return sorted((".".join(map(str, e.absolute_path)), e.message) for e in validator.iter_errors(doc))


def broken_variants(doc):
    """The document, then copies with one value of each kind replaced by a wrong type."""
    yield doc
    for path in list(_paths(doc))[:40]:
        for wrong in (12345, "", None):
            variant = copy.deepcopy(doc)
            node = variant
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = wrong
            yield variant


def _paths(node, prefix=()):
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for key, value in items:
        yield (*prefix, key)
        yield from _paths(value, (*prefix, key))


@pytest.mark.parametrize("name, pattern", [("procedure", "*/procedures/*.yaml"), ("calculators", "calculators.yaml"),
                                           ("context", "*/context.yaml")])
def test_inlined_schema_gives_the_same_errors_as_the_schema_as_written(name, pattern):
    schema = json.loads((RULEBOOK / "schema" / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert "$ref" in json.dumps(schema)
    files = sorted(RULEBOOK.glob(pattern))[:6]
    assert files
    checked = failing = 0
    for path in files:
        for doc in broken_variants(yaml.safe_load(path.read_text(encoding="utf-8"))):
            expected = verdicts(schema, doc)
            assert verdicts(inlined_refs(schema), doc) == expected, path
            checked += 1
            failing += bool(expected)
    assert failing > checked // 2  # the broken copies are rejected, and by both


def test_a_recursive_definition_keeps_checking_at_every_depth():
    schema = {"$defs": {"node": {"type": "object", "additionalProperties": False,
                                 "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
              "$ref": "#/$defs/node"}
    deep_bad = {"kids": [{"kids": [{"kids": [1]}]}]}
    assert verdicts(inlined_refs(schema), deep_bad) == verdicts(schema, deep_bad) == [("kids.0.kids.0.kids.0",
                                                                                       "1 is not of type 'object'")]
    assert verdicts(inlined_refs(schema), {"kids": [{"kids": []}]}) == []
