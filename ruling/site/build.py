"""What the mkdocs hook needs besides the pages: the knowledge base, the questionnaire export.

The questionnaire data is a JavaScript file (`window.RULING_QUESTIONNAIRE = {...}`) rather than
JSON fetched at run time, so the in-browser questionnaire also works from `file://`.
"""
from __future__ import annotations

from ruling.site import paths
from ruling.site.escape import script_json
from ruling.site.procview import needs_calculator

DATA_SCRIPT = "assets/javascripts/ruling-questionnaire-data.js"
MERMAID_SCRIPT = "assets/vendor/mermaid.min.js"
OFFLINE_WORKER_SHIM = "assets/vendor/iframe-worker-shim.js"
#: Markers in the hand-written home page, replaced by generated Markdown.
HOME_MARKERS = {
    "<!-- ruling:livres -->": "home_books.md.j2",
    "<!-- ruling:changements -->": "home_changes.md.j2",
}


def site_root(config_file=None):
    """The rulebook a site shows: `RULING_KB`, else the `rulebook/` beside the mkdocs.yml being
    built (a copy of the repository previews its own text), else ruling's default one."""
    import os
    from pathlib import Path

    from ruling.kb.load import resolve_root

    if not os.environ.get("RULING_KB") and config_file:
        beside = Path(config_file).resolve().parent / "rulebook"
        if beside.is_dir():
            return resolve_root(beside)
    return resolve_root(None)


def load_site(config_file=None):
    """(SitePages, knowledge-base root) for the rulebook `site_root` chooses."""
    from ruling.kb.load import load_kb
    from ruling.site.pages import SitePages

    root = site_root(config_file)
    return SitePages(load_kb(root)), root


def read_event_logs(folder) -> list[tuple[str, list]]:
    """The published event logs of the site (`<docs_dir>/journaux/*.json`), name and entries."""
    import json
    from pathlib import Path

    from ruling.errors import UserError
    from ruling.journal.rulings import entries_from_json

    logs = []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            raise UserError(f"le journal publié {path.name} est illisible (JSON attendu)") from None
        logs.append((path.stem, entries_from_json(data, f"le journal publié {path.name}")))
    return logs


def questionnaire_data(site, url_of) -> dict:
    """Every procedure (questions, rules, the engine's decision tree) and every clause they cite, with
    site-relative URLs; the books' parameters and the refusal messages the kernels need.

    `url_of("livres/club/02.md#2-5")` gives the built URL (`livres/club/02.html#2-5`).
    """
    kb = site.kb
    procedures, clauses = [], {}
    for p in site.procedures:
        book = kb.book(p["book"])
        procedures.append({
            "key": f"{p['book']}/{p['id']}", "id": p["id"], "book": p["book"], "bookTitle": book.title,
            "situation": p["situation"], "title": p["title"], "keywords": p["keywords"],
            "url": url_of(paths.procedure_page(p["book"], p["id"])),
            "calculator": needs_calculator(p),
            "command": f"ruling decide {p['id']} --book {p['book']}",
            "questions": [{"id": q["id"], "text": q["text"], "type": q["type"], "help": q["help"],
                           "default": q["default"], "kind": q["kind"], "none": q["none"],
                           "choices": [{"value": v, "label": label} for v, label in q["choices"]],
                           # « Je ne sais pas » answers this (only when the question sets one)
                           **({"ifUnknown": q["if_unknown"]} if q.get("if_unknown") is not None else {})}
                          for q in p["questions"]],
            "rules": [{"outcome": r["outcome"], "decision": r["decision"], "each": r["each"],
                       "readable": r["readable"], "compute": r["compute"], "cites": r["cites"], "given": r["given"]}
                      for r in p["rules"]],
            "tree": p["tree"],
        })
        for citation in (c for r in p["rules"] for c in r["cites"]):
            clause = kb.find(citation)
            if clause is None or citation in clauses:
                continue
            clauses[citation] = {
                "citation": citation, "url": url_of(site.clause_pages[citation]),
                "book": book.title if clause.book == book.id else kb.book(clause.book).title,
                "title": clause.title, "label": clause.label, "text": clause.text,
                "items": list(clause.items), "after": clause.after,
            }
    catalogue = kb.catalogue
    return {"procedures": procedures, "clauses": clauses, "houseBook": house_book(kb),
            "parameters": {b: {pid: param.value for pid, param in ps.items()} for b, ps in kb.parameters.items()},
            "refusals": dict(catalogue.refusals), "inputNames": dict(catalogue.input_names)}


def house_book(kb) -> str:
    """The book a player meets first: the one `ruling ask` proposes first, through the same function
    (`ruling.decide.questionnaire.house_book`: RULING_BOOK, else `house_book` of rulebook/base.yaml),
    else the first book."""
    from ruling.decide.questionnaire import house_book as ask_house_book

    return ask_house_book(kb) or (kb.books[0].id if kb.books else "")


def questionnaire_script(site, url_of) -> str:
    return "window.RULING_QUESTIONNAIRE = " + script_json(questionnaire_data(site, url_of)) + ";\n"
