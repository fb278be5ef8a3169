"""The parsed knowledge base as plain data (tuples, lists, dicts, strings, numbers), and back.

This is the format of the parsed-base cache, written with `marshal`: unlike a pickle,
reading plain data calls no constructor and runs no code, and it is read about three times
faster than JSON. Each object is the tuple of its dataclass fields in declaration order;
`SHAPE` names those fields, so a cache written by a version with other fields is refused.
"""
from __future__ import annotations

import marshal
from dataclasses import fields, replace
from typing import Any  # the marshalled tuples: their shape is checked against SHAPE first

from ruling.decide.catalogue import CalculatorSpec, Catalogue, Figure, Parameter
from ruling.decide.procedures import Cite, Procedure, Question, Rule
from ruling.kb.model import Book, Chapter, Clause, KnowledgeBase, Revision

_CLASSES = (Clause, Chapter, Revision, Book, Question, Cite, Rule, Procedure)
_PLAIN = (Parameter, Figure, CalculatorSpec, Catalogue)  # classes with __slots__, not dataclasses
SHAPE = ";".join([f"{c.__name__}:{','.join(f.name for f in fields(c))}" for c in _CLASSES]
                 + [f"{c.__name__}:{','.join(c.__slots__)}" for c in _PLAIN]
                 + ["KnowledgeBase:house_book,phrasings"])  # the last fields of the tuple dumps writes
MAGIC = "ruling-kb"
_FIELD_NAMES = {c: tuple(f.name for f in fields(c)) for c in _CLASSES}


def astuple(obj: Any) -> Any:
    """`dataclasses.astuple` for the base's classes, without its deep copy of every leaf value
    (a third of writing the cache, the first search after install): the tuples are marshalled
    at once, nothing keeps them."""
    kind = type(obj)
    names = _FIELD_NAMES.get(kind)
    if names is not None:
        return tuple([astuple(getattr(obj, name)) for name in names])
    if kind is list:
        return [astuple(item) for item in obj]
    if kind is dict:
        return {astuple(key): astuple(value) for key, value in obj.items()}
    if kind is tuple:
        return tuple([astuple(item) for item in obj])
    return obj


def dumps(kb: KnowledgeBase) -> bytes:
    """`kb` as marshal bytes of plain data. Procedures share the base's catalogue and their
    book's parameters: those are written once and linked back on reading."""
    procedures = [astuple(replace(p, catalogue=None, parameters={})) for p in kb.procedures]
    parameters = {book: {pid: _slots(p) for pid, p in params.items()} for book, params in kb.parameters.items()}
    data = (MAGIC, SHAPE, kb.digest, [astuple(b) for b in kb.books], procedures, kb.glossary,
            _catalogue_data(kb.catalogue), parameters, kb.house_book, kb.phrasings)
    return marshal.dumps(data)


def loads(blob: bytes, root: str) -> KnowledgeBase:
    """The KnowledgeBase in `blob`; raises (ValueError, TypeError, IndexError…) on anything else."""
    magic, shape, digest, books, procedures, glossary, catalogue_data, parameters_data, house, phrasings = \
        marshal.loads(blob)
    if magic != MAGIC or shape != SHAPE:
        raise ValueError("another format")
    if not isinstance(glossary, list) or not isinstance(digest, str) or not isinstance(house, (str, type(None))) \
            or not isinstance(phrasings, dict):
        raise TypeError("glossary")
    catalogue = _catalogue(catalogue_data)
    parameters = {book: {pid: Parameter(*p) for pid, p in params.items()} for book, params in parameters_data.items()}
    procs = [_proc(p) for p in procedures]
    for proc in procs:
        proc.catalogue, proc.parameters = catalogue, parameters.get(proc.book, {})
    return KnowledgeBase([_book(b) for b in books], procs, glossary, root, digest,
                         catalogue=catalogue, parameters=parameters, house_book=house, phrasings=phrasings)


def _slots(obj) -> tuple:
    return tuple(getattr(obj, name) for name in obj.__slots__)


def _catalogue_data(catalogue: Catalogue | None):
    if catalogue is None:
        return None
    calculators = {name: (c.name, c.description, [astuple(q) for q in c.inputs], dict(c.parameters),
                          {f.name: _slots(f) for f in c.figures.values()}, tuple(c.cases),
                          {case: dict(p) for case, p in c.case_parameters.items()},
                          {case: dict(i) for case, i in c.case_inputs.items()})
                   for name, c in catalogue.calculators.items()}
    return (calculators, dict(catalogue.input_names), dict(catalogue.refusals), dict(catalogue.lines))


def _catalogue(data) -> Catalogue | None:
    if data is None:
        return None
    calculators, input_names, refusals, lines = data
    catalogue = Catalogue()
    for name, (cname, description, inputs, params, figures, cases, case_parameters, case_inputs) in calculators.items():
        catalogue.calculators[name] = CalculatorSpec(
            cname, description, [Question(*q) for q in inputs], dict(params),
            {fname: Figure(*f) for fname, f in figures.items()}, tuple(cases), dict(case_parameters),
            dict(case_inputs))
    catalogue.input_names, catalogue.refusals, catalogue.lines = dict(input_names), dict(refusals), dict(lines)
    return catalogue


def _with(fields_: Any, start: int, *objects: object) -> list:
    """The tuple `fields_` with its items from `start` on replaced by `objects` (the nested ones, rebuilt)."""
    return [*fields_[:start], *objects, *fields_[start + len(objects):]]


def _book(b: Any) -> Book:
    revisions = []
    for r in b[5]:
        chapters = [Chapter(*_with(ch, 2, [Clause(*c) for c in ch[2]])) for ch in r[6]]
        revisions.append(Revision(*_with(r, 6, chapters)))
    return Book(*_with(b, 5, revisions))


def _proc(p: Any) -> Procedure:
    questions = {k: Question(*q) for k, q in p[5].items()}
    context = {k: Question(*q) for k, q in p[6].items()}
    rules = [Rule(*_with(r, 3, [Cite(*c) for c in r[3]])) for r in p[7]]
    return Procedure(*_with(p, 5, questions, context, rules))
