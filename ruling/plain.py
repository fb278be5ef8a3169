"""The parsed knowledge base as plain data (tuples, lists, dicts, strings, numbers), and back.

This is the format of the parsed-base cache, written with `marshal`: unlike a pickle,
reading plain data calls no constructor and runs no code, and it is read about three times
faster than JSON. Each object is the tuple of its dataclass fields in declaration order;
`SHAPE` names those fields, so a cache written by a version with other fields is refused.
"""
from __future__ import annotations

import marshal
from dataclasses import astuple, fields

from .model import Book, Chapter, Clause, KnowledgeBase, Revision
from .procedures import Cite, Procedure, Question, Rule

_CLASSES = (Clause, Chapter, Revision, Book, Question, Cite, Rule, Procedure)
SHAPE = ";".join(f"{c.__name__}:{','.join(f.name for f in fields(c))}" for c in _CLASSES)
MAGIC = "ruling-kb"


def dumps(kb: KnowledgeBase) -> bytes:
    """`kb` as marshal bytes of plain data."""
    data = (MAGIC, SHAPE, kb.digest, [astuple(b) for b in kb.books],
            [astuple(p) for p in kb.procedures], kb.glossary)
    return marshal.dumps(data)


def loads(blob: bytes, root: str) -> KnowledgeBase:
    """The KnowledgeBase in `blob`; raises (ValueError, TypeError, IndexError…) on anything else."""
    magic, shape, digest, books, procedures, glossary = marshal.loads(blob)
    if magic != MAGIC or shape != SHAPE:
        raise ValueError("another format")
    if not isinstance(glossary, list) or not isinstance(digest, str):
        raise TypeError("glossary")
    return KnowledgeBase([_book(b) for b in books], [_proc(p) for p in procedures], glossary, root, digest)


def _book(b: tuple) -> Book:
    revisions = []
    for r in b[5]:
        chapters = [Chapter(ch[0], ch[1], [Clause(*c) for c in ch[2]], *ch[3:]) for ch in r[6]]
        revisions.append(Revision(*r[:6], chapters))
    return Book(*b[:5], revisions, *b[6:])


def _proc(p: tuple) -> Procedure:
    questions = {k: Question(*q) for k, q in p[5].items()}
    context = {k: Question(*q) for k, q in p[6].items()}
    rules = [Rule(r[0], r[1], r[2], [Cite(*c) for c in r[3]], *r[4:]) for r in p[7]]
    return Procedure(*p[:5], questions, context, rules, *p[8:])
