"""Full-text search over clauses and procedures, the way a tournament director types.

`search(kb, "relanse insufisante", house="club")` returns ranked hits (clauses of the current
revisions and decision procedures) with highlighted snippets, and a "vouliez-vous dire …"
suggestion when nothing matches. whoosh-reloaded does the indexing, scoring, filtering,
collapsing, typo neighbours, highlighting and spelling suggestions, through its public API;
the modules here say what is indexed and how it is weighted:

- `analysis`: the French analyzer (elisions, accent folding, stop words, negations, stems);
- `index`: the schema, the documents, the index cached per content hash;
- `query`: from the typed words to a whoosh query (glossary synonyms, typos, numbers);
- `ranking`: the score formula and its constants (the questionnaire's picker ranks with `search`);
- `snippets`: highlighted snippets and suggestions;
- `results`: hits, their JSON and their terminal text.

whoosh is imported only with this package, which only the commands that search import.
"""
from __future__ import annotations

from ruling.errors import UserError
from ruling.search import whoosh_fast  # noqa: F401  (before any whoosh import: see its docstring)
from ruling.search.index import MARKER, documents, open_index
from ruling.search.query import QueryPlan
from ruling.search.ranking import ranked, ranking_data
from ruling.search.results import Hit, SearchResult, result_text
from ruling.search.snippets import snippet, suggest

KINDS = ("clause", "procedure")

__all__ = ["search", "search_path", "prepare", "ranking_data", "result_text", "Hit", "SearchResult",
           "documents", "open_index", "MARKER", "KINDS"]


def search(kb, query: str, *, book: str | None = None, kind: str | None = None, limit: int = 10,
           house: str | None = None) -> SearchResult:
    """Search the clauses (current revisions) and procedures of `kb` for `query`.

    `book` keeps that book's entries only; `house` ranks that book's entries first (others
    follow): None is the base's house book (`house_book` of base.yaml), "" none.
    """
    from ruling.search.index import default_house, forget, remove_dir

    if book is not None:
        kb.book(book)  # raises a French UserError with the closest book id
    house = default_house(kb) if house is None else (kb.book(house).id if house else None)
    _check_options(kind, limit)
    query = query if isinstance(query, str) else str(query)
    index = open_index(kb)
    try:
        return _search(index, query, book, kind, limit, house)
    except Exception:
        if not index.path:
            raise
        # A cached index that opened but breaks while searching: rebuild it once.
        forget(index)
        remove_dir(index.path)
        return _search(open_index(kb), query, book, kind, limit, house)


def search_path(path, query: str, *, book: str | None = None, kind: str | None = None,
                limit: int = 10, house: str | None = None) -> SearchResult:
    """`search` in the knowledge base at `path` (None: the default one), as `ruling search` does.

    When the index of the base's current content is cached, the base itself is not loaded:
    its content hash finds the index, which holds everything a search shows (the house book
    by default too).
    """
    from ruling.kb.root import base_digest, resolve_root  # not kb.load: a cached index needs no parser
    from ruling.search.index import cached_index

    root = resolve_root(path)
    index = cached_index(base_digest(root))
    if index is None:
        from ruling.kb.load import load_kb

        return search(load_kb(path), query, book=book, kind=kind, limit=limit, house=house)
    house = index.lexicon.house_book if house is None else (house or None)
    for value in (book, house):
        if value is not None and value not in index.lexicon.books:
            from ruling.kb.model import _unknown

            raise _unknown("le livre", value, index.lexicon.books)
    _check_options(kind, limit)
    try:
        return _search(index, query if isinstance(query, str) else str(query), book, kind, limit, house)
    except Exception:
        from ruling.kb.load import load_kb

        return search(load_kb(path), query, book=book, kind=kind, limit=limit, house=house or "")  # rebuilds


def prepare(path=None) -> None:
    """Load the base at `path` and build its index into the cache, as the first search would:
    the install step (scripts/setup.sh) calls it, so the first search after install is a cached one."""
    from ruling.kb.load import load_kb

    open_index(load_kb(path))


def _check_options(kind, limit) -> None:
    if kind is not None and kind not in KINDS:
        raise UserError(f"type « {kind} » inconnu ; attendu clause ou procedure")
    if limit < 1:
        raise UserError(f"--limit doit être au moins 1 (reçu {limit})")


def _search(index, query, book, kind, limit, house) -> SearchResult:
    plan = QueryPlan.build(query, index)
    if plan.empty:
        return SearchResult(query)
    hits = _hits(index, plan, book, kind, limit, house)
    suggestion = None
    if not hits:
        def finds(text):
            again = QueryPlan.build(text, index)
            return not again.empty and bool(ranked(index, again, house=house, book=book, kind=kind, limit=1))

        suggestion = suggest(index, query, finds)
    return SearchResult(query, hits, suggestion)


def _hits(index, plan, book, kind, limit, house) -> list[Hit]:
    """The ranked entries as hits, with their stored fields and snippets."""
    terms = plan.highlight_terms
    hits = []
    for docnum, score in ranked(index, plan, house=house, book=book, kind=kind, limit=limit):
        doc = index.searcher.stored_fields(docnum)
        hits.append(Hit(kind=doc["kind"], ref=doc["ref"], book=doc["book"], title=doc.get("display_title") or "",
                        snippet=snippet(doc.get("body") or doc.get("questions") or "", terms, known=index.lexicon.stems),
                        score=round(score, 3)))
    return hits
