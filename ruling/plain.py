"""The parsed knowledge base as plain JSON data, and back: the format of the parsed-base cache.

JSON cannot run code when read, unlike a pickle: a cache file someone else wrote can at
worst fail to rebuild (then the base is parsed again). `from_plain` raises on any shape it
does not expect.
"""
from __future__ import annotations

from dataclasses import asdict

from .model import Book, Chapter, Clause, KnowledgeBase, Revision
from .procedures import Cite, Procedure, Question, Rule


def to_plain(kb: KnowledgeBase) -> dict:
    return {
        "books": [asdict(b) for b in kb.books],
        "procedures": [_procedure_plain(p) for p in kb.procedures],
        "glossary": kb.glossary,
        "digest": kb.digest,
    }


def _procedure_plain(p: Procedure) -> dict:
    out = asdict(p)
    for rule in out["rules"]:
        rule["when"] = {q: list(v) for q, v in rule["when"].items()}
    return out


def from_plain(data: dict, root: str) -> KnowledgeBase:
    """A KnowledgeBase from `to_plain`'s output (raises KeyError/TypeError on anything else)."""
    books = [_book(b) for b in data["books"]]
    procedures = [_procedure(p) for p in data["procedures"]]
    glossary = data["glossary"]
    if not isinstance(glossary, list):
        raise TypeError("glossary")
    return KnowledgeBase(books, procedures, glossary, root, str(data["digest"]))


def _book(d: dict) -> Book:
    revisions = []
    for r in d["revisions"]:
        chapters = [Chapter(**{**ch, "clauses": [Clause(**c) for c in ch["clauses"]]}) for ch in r["chapters"]]
        revisions.append(Revision(**{**r, "chapters": chapters}))
    return Book(**{**d, "revisions": revisions})


def _procedure(d: dict) -> Procedure:
    questions = {k: Question(**q) for k, q in d["questions"].items()}
    context = {k: Question(**q) for k, q in d["context"].items()}
    rules = [Rule(**{**r, "when": {q: tuple(v) for q, v in r["when"].items()},
                     "cites": [Cite(**c) for c in r["cites"]]}) for r in d["rules"]]
    return Procedure(**{**d, "questions": questions, "context": context, "rules": rules})
