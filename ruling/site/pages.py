"""The generated pages of the published site, rendered from the knowledge base with jinja2.

`SitePages(kb).render()` returns `{source path: Markdown}`; the mkdocs hook adds them to the
build. Output is deterministic (knowledge-base order, no dates) and every value a template
prints is escaped (see `escape.py`) unless it was built here as Markdown on purpose.
"""
from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path

from markupsafe import Markup

from ruling.site import paths
from ruling.site.escape import md_text, mermaid_label
from ruling.site.history import redline_html, redline_inline, revision_diff, typography_marked, typography_summary
from ruling.site.procview import answer_label, figure_names, needs_calculator, procedure_data, readable_decision
from ruling.site.walk import flowchart_tree

TEMPLATES = Path(__file__).resolve().parent / "templates"
_SAFE_ANCHOR = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def make_env():
    """jinja2 environment: StrictUndefined, and every printed value escaped by default."""
    import jinja2

    from ruling.site.escape import finalize

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        finalize=finalize,
        autoescape=True,  # macros return Markup; finalize has already escaped for Markdown
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = md_text
    env.filters["join"] = lambda values, sep="": md_text(sep).join(md_text(v) for v in values)
    return env


def link(text, target: str, from_page: str) -> Markup:
    """A Markdown link whose text reads literally; mkdocs checks the target and its anchor."""
    return Markup(f"[{md_text(text)}]({paths.relative(from_page, target)})")


class SitePages:
    """Everything generated for one knowledge base: pages, nav, downloads, questionnaire data."""

    def __init__(self, kb):
        self.kb = kb
        self.env = make_env()
        self.procedures = [procedure_data(p) for p in kb.procedures]
        self._proc_by_key = {(p["book"], p["id"]): p for p in self.procedures}
        self._diffs: dict = {}
        self.event_logs: list[tuple[str, list]] = []  # published journals (name, entries), see read_event_logs

    # -- locations -------------------------------------------------------------------------
    @cached_property
    def clause_pages(self) -> dict[str, str]:
        """citation -> `page.md#anchor` for every clause of every revision."""
        out = {}
        for book in self.kb.books:
            for rev in book.revisions:
                for ch in rev.chapters:
                    page = paths.chapter_page(book, rev, ch)
                    for c in ch.clauses:
                        out[c.citation] = f"{page}#{self.anchor(c)}"
        return out

    @staticmethod
    def anchor(clause) -> str:
        return clause.id if _SAFE_ANCHOR.match(clause.id) else paths.slug(clause.id)

    def clause_link(self, citation: str, from_page: str, text: str | None = None) -> Markup:
        target = self.clause_pages.get(citation)
        if target is None:  # a cite the loader let through but that no page shows
            return md_text(text or citation)
        return link(text or citation, target, from_page)

    def procedure_link(self, proc: dict, from_page: str) -> Markup:
        return link(proc["title"], paths.procedure_page(proc["book"], proc["id"]), from_page)

    # -- glossary ----------------------------------------------------------------------------
    @cached_property
    def glossary_index(self) -> dict[str, dict]:
        """casefolded term, English word or synonym -> glossary entry."""
        index: dict[str, dict] = {}
        for entry in self.kb.glossary:
            for word in [entry["term"], *entry.get("en", []), *entry.get("synonyms", [])]:
                index.setdefault(word.casefold(), entry)
        return index

    @cached_property
    def glossary_anchors(self) -> dict[str, str]:
        """term -> anchor, unique even when two terms differ only by accents."""
        out: dict[str, str] = {}
        for entry in self.kb.glossary:
            anchor, n = paths.glossary_anchor(entry["term"]), 1
            while anchor in out.values():
                n += 1
                anchor = f"{paths.glossary_anchor(entry['term'])}-{n}"
            out.setdefault(entry["term"], anchor)
        return out

    def topic_view(self, topic: str, from_page: str) -> Markup:
        """A clause topic, linked to its glossary entry with the other words for it (search finds them)."""
        entry = self.glossary_index.get(topic.casefold())
        if entry is None:
            return md_text(topic)
        others = [w for w in [entry["term"], *entry.get("synonyms", []), *entry.get("en", [])]
                  if w.casefold() != topic.casefold()]
        out = link(topic, f"glossaire.md#{self.glossary_anchors[entry['term']]}", from_page)
        if others:
            out += Markup(" (") + md_text(", ".join(others)) + Markup(")")
        return out

    # -- views -----------------------------------------------------------------------------------
    def clause_view(self, clause, page: str) -> dict:
        label = clause.label
        if label and label.isdigit():
            label = f"Article {label}"
        heading = " — ".join(x for x in (label, clause.title) if x) or f"§ {clause.id}"
        procs = [self._proc_by_key.get((p.book, p.id)) for p in self.kb.procedures_citing(clause)]
        return {
            "anchor": Markup(self.anchor(clause)),
            "heading": heading,
            "citation": clause.citation,
            "text": clause.text,
            "bullets": clause.items,
            "after": clause.after,
            "note": clause.note,
            "kind": clause.kind,
            "informative": clause.kind == "informative",
            "refs": [self.clause_link(clause.ref_citation(r), page) for r in clause.refs],
            "cited_by": [self.clause_link(c, page) for c in self.kb.cited_by(clause)],
            "procedures": [self.procedure_link(p, page) for p in procs if p],
            "topics": [self.topic_view(t, page) for t in clause.topics],
            "no_procedure": clause.procedure,
            "change": self.change_box(clause, page),
        }

    # -- what changed, on the rule's own page ----------------------------------------------------------
    def diff_of(self, book, old, new):
        """`ruling.diff.revisions` from `old` to `new`, computed once (pages, home and history share it)."""
        key = (book.id, old.id, new.id)
        if key not in self._diffs:
            self._diffs[key] = revision_diff(self.kb, book, old, new)
        return self._diffs[key]

    @cached_property
    def clause_changes(self) -> dict[str, tuple]:
        """citation of a clause of an edition -> (change, previous revision, history anchor), for
        every clause that changed since the book's previous edition."""
        out: dict[str, tuple] = {}
        for book in self.kb.books:
            for old, new in zip(book.revisions, book.revisions[1:]):
                result = self.diff_of(book, old, new)
                for ch in result.changes if result is not None else []:
                    if ch.status != "unchanged" and ch.new is not None:
                        out[ch.new.citation] = (ch, old, change_anchor(book, old, new, ch))
        return out

    def change_box(self, clause, page: str) -> dict | None:
        """« Modifiée depuis l'édition précédente » with the redline folded one tap away, or None."""
        found = self.clause_changes.get(clause.citation)
        if found is None:
            return None
        ch, old, anchor = found
        book = self.kb.book(clause.book)
        previous = f"{quoted(old.title)} ({old.id})"
        words = typography_marked(ch.words)
        if ch.status == "typography":
            title = "Typographie seulement, depuis l'édition précédente"
            detail = f"Le texte ne change pas ; seuls des caractères changent : {typography_summary(ch.words)}."
        elif ch.status == "renumbered":
            title = f"Renumérotée depuis l'édition précédente (était {ch.old.label or ch.old.id})"
            detail = "Son texte a aussi changé." if ch.text_changed else "Son texte ne change pas."
        elif ch.status == "added":
            title = "Nouvelle depuis l'édition précédente"
            detail = f"Cette règle n'existait pas dans l'édition {previous}."
        else:
            title = "Modifiée depuis l'édition précédente"
            detail = f"Barré : le texte de l'édition {previous} ; souligné : le texte actuel."
        return {"title": title, "detail": detail, "redline": Markup(redline_inline(words)),
                "kind": Markup("info" if ch.status == "typography" else "warning"),
                "was": self.clause_link(ch.old.citation, page, "la règle dans l'édition précédente") if ch.old else None,
                "history": link("l'historique du livre", f"historique.md#{anchor}", page),
                "book": book.id}

    def chapter_changes(self, book, rev, chapter, page: str) -> dict | None:
        """What changed in a chapter since the previous edition (counts, removed rules), or None."""
        previous = book.revisions[book.revisions.index(rev) - 1] if book.revisions.index(rev) > 0 else None
        if previous is None:
            return None
        result = self.diff_of(book, previous, rev)
        if result is None or (result.scope is not None and chapter.id not in result.scope):
            return None
        ids = {c.id for c in chapter.clauses}
        old_chapter = {c.id for ch in previous.chapters if ch.id == chapter.id for c in ch.clauses}
        mine = [ch for ch in result.changes if ch.status != "unchanged" and
                ((ch.new is not None and ch.new.id in ids) or (ch.new is None and ch.old.id in old_chapter))]
        if not mine:
            return None
        counts: dict[str, int] = {}
        for ch in mine:
            counts[ch.status] = counts.get(ch.status, 0) + 1
        return {"previous": f"{quoted(previous.title)} ({previous.id})",
                "counts": ", ".join(f"{n} {_count_label(s, n)}" for s, n in counts.items()),
                "removed": [self.clause_link(ch.old.citation, page) for ch in mine if ch.new is None],
                "history": link("l'historique du livre", f"historique.md#{revision_anchor(book, previous, rev)}", page)}

    def chapter_heading(self, chapter) -> str:
        if str(chapter.id).isdigit():
            return f"Chapitre {chapter.id}" + (f" — {chapter.title}" if chapter.title else "")
        return chapter.title or str(chapter.id)

    def revision_label(self, book, rev) -> str:
        return rev.title + ("" if rev.id == book.current.id else f" ({rev.id})")

    # -- rendering ---------------------------------------------------------------------------------
    def render(self) -> dict[str, str]:
        """Every generated page: {source path: Markdown}."""
        pages: dict[str, str] = {}
        pages["livres/index.md"] = self._render("books.md.j2", page="livres/index.md", books=self.book_summaries("livres/index.md"))
        for book in self.kb.books:
            for rev in book.revisions:
                older = None if rev.id == book.current.id else rev.id
                index = paths.book_index(book.id, older)
                pages[index] = self._render("book.md.j2", **self.book_view(book, rev, index))
                for ch in rev.chapters:
                    page = paths.chapter_page(book, rev, ch)
                    pages[page] = self._render(
                        "chapter.md.j2", page=page, book=book.title, revision=self.revision_label(book, rev),
                        book_link=link(book.title, index, page), older=older is not None,
                        heading=self.chapter_heading(ch), note=ch.note,
                        changes=self.chapter_changes(book, rev, ch, page),
                        clauses=[self.clause_view(c, page) for c in ch.clauses])
        pages["procedures/index.md"] = self._render("procedures.md.j2", **self.procedures_view("procedures/index.md"))
        for proc in self.procedures:
            page = paths.procedure_page(proc["book"], proc["id"])
            pages[page] = self._render("procedure.md.j2", **self.procedure_view(proc, page))
        pages["questionnaire.md"] = self._render("questionnaire.md.j2", **self.procedures_view("questionnaire.md"))
        pages["comparaison.md"] = self._render("comparison.md.j2", **self.comparison_view("comparaison.md"))
        pages["historique.md"] = self._render("history.md.j2", **self.history_view("historique.md"))
        pages["glossaire.md"] = self._render("glossary.md.j2", **self.glossary_view("glossaire.md"))
        pages["documents.md"] = self._render("documents.md.j2", **self.documents_view("documents.md"))
        return pages

    def _render(self, template: str, **context) -> str:
        return self.env.get_template(template).render(**context)

    def render_fragment(self, template: str, page: str) -> str:
        """A piece of the hand-written home page (books, latest changes)."""
        if template == "home_books.md.j2":
            return self._render(template, books=self.book_summaries(page))
        return self._render(template, **self.history_view(page))

    # -- books -------------------------------------------------------------------------------------
    def book_summaries(self, page: str) -> list[dict]:
        out = []
        for book in self.kb.books:
            procs = [p for p in self.procedures if p["book"] == book.id]
            out.append({
                "link": link(book.title, paths.book_index(book.id), page),
                "description": book.description, "kind": _KIND_LABELS.get(book.kind, book.kind),
                "clauses": len(book.current.clauses()), "chapters": len(book.current.chapters),
                "procedures": len(procs), "revisions": len(book.revisions),
            })
        return out

    def printable_links(self, book, page: str) -> list:
        """Links to the book's PDF and change sheet (ruling/site/pdf.py), when they are built."""
        import os

        from ruling.site.pdf import PDF_FOLDER, pdf_names, weasyprint_missing

        if os.environ.get("RULING_NO_PDF") or weasyprint_missing():
            return []
        rulebook, sheet = pdf_names(book)
        out = [link("Règlement à imprimer (PDF)", f"{PDF_FOLDER}/{rulebook}", page)]
        if book.previous() is not None:
            out.append(link("Ce qui a changé, sur une page (PDF)", f"{PDF_FOLDER}/{sheet}", page))
        return out

    def book_view(self, book, rev, page: str) -> dict:
        chapters = []
        for ch in rev.chapters:
            ids = [c.label or c.id for c in ch.clauses]
            chapters.append({"link": link(self.chapter_heading(ch), paths.chapter_page(book, rev, ch), page),
                             "count": len(ch.clauses), "first": ids[0] if ids else "", "last": ids[-1] if ids else ""})
        others = [{"link": link(self.revision_label(book, r), paths.book_index(book.id, None if r.id == book.current.id else r.id), page),
                   "partial": r.partial, "current": r.id == book.current.id}
                  for r in book.revisions if r.id != rev.id]
        procs = [self.procedure_link(p, page) for p in self.procedures if p["book"] == book.id] if rev.id == book.current.id else []
        source = link(paths.source_document(book, rev).rsplit("/", 1)[-1], paths.source_document(book, rev), page)
        return {"printable": self.printable_links(book, page) if rev.id == book.current.id else [],
                "current_link": link("l'édition actuelle", paths.book_index(book.id), page),"page": page, "title": book.title, "description": book.description, "note": book.note,
                "revision": self.revision_label(book, rev), "revision_note": rev.note, "partial": rev.partial,
                "current": rev.id == book.current.id, "kind": _KIND_LABELS.get(book.kind, book.kind),
                "chapters": chapters, "others": others, "procedures": procs, "source": source,
                "history": link("Historique des révisions", "historique.md", page)}

    # -- procedures -----------------------------------------------------------------------------
    def procedures_view(self, page: str) -> dict:
        from ruling.site.build import house_book

        groups = []
        house = house_book(self.kb)  # the house rules first, as in the questionnaire's list
        for book in sorted(self.kb.books, key=lambda b: b.id != house):
            procs = [p for p in self.procedures if p["book"] == book.id]
            if procs:
                groups.append({"book": book.title, "procedures": [
                    {"link": self.procedure_link(p, page), "situation": p["situation"], "key": f"{p['book']}/{p['id']}",
                     "calculator": needs_calculator(p),
                     "keywords": ", ".join(p["keywords"])} for p in procs]})
        return {"page": page, "groups": groups, "count": len(self.procedures)}

    def procedure_view(self, proc: dict, page: str) -> dict:
        questions = {q["id"]: q for q in proc["questions"]}
        used = [q for q in proc["questions"] if any(q["id"] in r["when"] for r in proc["rules"])]
        inputs = [q for q in proc["questions"] if q not in used]
        rows = []
        for r in proc["rules"]:
            cells = [answer_label(q, r["when"][q["id"]]) if q["id"] in r["when"] else "—" for q in used]
            rows.append({"cells": cells, "outcome": r["outcome"], "decision": r["readable"],
                         "compute": r["compute"],
                         "cites": [self.clause_link(c, page) for c in r["cites"]]})
        cited = []
        for citation in dict.fromkeys(c for r in proc["rules"] for c in r["cites"]):
            clause = self.kb.find(citation)
            if clause is not None:
                cited.append({"link": self.clause_link(citation, page), "text": clause.text,
                              "bullets": clause.items, "after": clause.after})
        book = self.kb.book(proc["book"])
        same_situation = [self.procedure_link(p, page) for p in self.procedures
                          if p["situation"] == proc["situation"] and p is not proc]
        return {
            "page": page, "title": proc["title"], "book": link(book.title, paths.book_index(book.id), page),
            "key": f"{proc['book']}/{proc['id']}", "situation": proc["situation"],
            "comparison": link("Ce que décident les autres livres", f"comparaison.md#{paths.situation_anchor(proc['situation'])}", page),
            "keywords": ", ".join(proc["keywords"]), "note": proc["note"],
            "questions": [{"id": q["id"], "text": q["text"], "help": q["help"], "origin": _ORIGINS.get(q["origin"], q["origin"]),
                           "answers": self.answers_text(q)} for q in used],
            "inputs": [{"id": q["id"], "text": q["text"], "help": q["help"]} for q in inputs],
            "columns": [q["text"] for q in used], "rows": rows, "cited": cited,
            "calculator": needs_calculator(proc),
            "same_situation": same_situation,
            "flowchart": Markup(self.flowchart(proc, questions)),
            "command": f"ruling decide {proc['id']} --book {proc['book']}",
        }

    @staticmethod
    def answers_text(q: dict) -> str:
        if q["type"] == "bool":
            return "oui / non"
        if q["type"] == "choice":
            return " / ".join(label for _, label in q["choices"])
        return "un montant en jetons" if q["type"] == "amount" else "une liste de montants"

    def flowchart(self, proc: dict, questions: dict) -> str:
        """Mermaid source of the questionnaire's decision tree ('' if too big to draw)."""
        tree = flowchart_tree(proc["tree"])
        if not tree.complete or not (tree.questions or tree.outcomes):
            return ""
        rules = {r["outcome"]: r for r in proc["rules"]}
        lines = ["flowchart TD"]
        for node, qid in tree.questions:
            lines.append(f"    {node}{{{mermaid_label(questions[qid]['text'])}}}")
        for i, outcome in enumerate(tree.outcomes):
            decision = rules[outcome]["readable"]
            short = decision if len(decision) <= 110 else decision[:107].rstrip() + "…"
            lines.append(f"    o{i}[{mermaid_label(short)}]")
        for n in range(1, tree.dead_ends + 1):
            lines.append(f"    x{n}[{mermaid_label('aucune règle')}]")
        out_ids = {o: f"o{i}" for i, o in enumerate(tree.outcomes)}
        node_of_q = dict(tree.questions)
        for src, dst, ans in tree.edges:
            kind, _, name = dst.partition(":")
            target = out_ids[name] if kind == "o" else (f"x{name}" if kind == "x" else dst)
            label = answer_label(questions[node_of_q[src]], ans)
            lines.append(f"    {src} -->|{mermaid_label(label)}| {target}")
        for i in range(len(tree.outcomes)):
            lines.append(f"    class o{i} decision")
        lines.append("    classDef decision fill:#e8f5e9,stroke:#2e7d32")
        return "\n".join(lines)

    # -- comparison --------------------------------------------------------------------------------
    def comparison_view(self, page: str) -> dict:
        """Situations treated by several books, case by case, as `ruling compare` shows them."""
        by_situation: dict[str, list[dict]] = {}
        for p in self.procedures:
            by_situation.setdefault(p["situation"], []).append(p)
        shared, single = [], []
        for situation, procs in sorted(by_situation.items()):
            entry = {"situation": situation, "anchor": Markup(paths.situation_anchor(situation)),
                     "title": procs[0]["title"],
                     "procedures": [{"book": self.kb.book(p["book"]).title, "link": self.procedure_link(p, page)}
                                    for p in procs]}
            if len(procs) == 1:
                single.append(entry)
                continue
            entry["cases"] = self.comparison_cases(situation, page)
            entry["differences"] = sum(1 for c in entry["cases"] or [] if c["status"] == "differs")
            entry["open"] = sum(1 for c in entry["cases"] or [] if c["status"] == "open")
            shared.append(entry)
        return {"page": page, "shared": shared, "single": single}

    def comparison_cases(self, situation: str, page: str) -> list[dict] | None:
        """`engine.compare`'s cases with each book's decision, or None without the engine."""
        try:
            from ruling.decide.engine import compare
        except ImportError:
            return None
        result = compare(self.kb, situation)
        cases = []
        for row in result.rows:
            cells = []
            for proc in result.procedures:
                decision = row.cells.get(proc.book)
                cells.append({"book": self.kb.book(proc.book).title, **self.decision_cell(decision, page)})
            label = row.label.split(" — ", 1)[-1]  # "quelle=autre — Une autre carte" -> the French part
            cases.append({"label": label, "status": case_status(row.differs, cells), "cells": cells})
        return cases

    def decision_cell(self, decision, page: str) -> dict:
        """What one book rules in one case: the decision and its clauses, or what it still depends on."""
        if decision is None:
            return {"kind": "none", "text": "ce cas n'est pas prévu par ce livre", "cites": [], "outcome": None}
        if decision.decided:
            return {"kind": "decided", "text": decision.decision, "outcome": decision.outcome,
                    "cites": [self.clause_link(c.citation, page) for c in decision.citations]}
        if decision.rule is not None:  # a calculator still needs amounts
            text = readable_decision(decision.rule.decision, figure_names(decision.procedure, decision.rule.compute))
            return {"kind": "compute", "text": text, "outcome": decision.rule.outcome,
                    "cites": [self.clause_link(c.citation, page) for c in decision.rule.cites]}
        return {"kind": "depends", "text": " ; ".join(q.text for q in decision.missing), "cites": [], "outcome": None}

    # -- history -----------------------------------------------------------------------------------
    def history_view(self, page: str) -> dict:
        books = []
        for book in self.kb.books:
            revisions = []
            for rev in book.revisions:
                older = None if rev.id == book.current.id else rev.id
                revisions.append({"id": rev.id, "title": rev.title, "partial": rev.partial, "note": rev.note,
                                  "current": older is None, "clauses": len(rev.clauses()),
                                  "link": link(self.revision_label(book, rev), paths.book_index(book.id, older), page),
                                  "source": link("document original", paths.source_document(book, rev), page)})
            redlines = [self.redline(book, old, new, page) for old, new in zip(book.revisions, book.revisions[1:])]
            books.append({"id": book.id, "title": book.title, "revisions": revisions, "redlines": redlines,
                          "anchor": Markup(f"livre-{paths.slug(book.id)}")})
        return {"page": page, "books": books, "event_logs": self.event_logs_view(page)}

    def event_logs_view(self, page: str) -> list[dict]:
        """Each published event log replayed on the current base: the rulings that would change."""
        from ruling.journal.rulings import replay

        procs = {(p["book"], p["id"]): p for p in self.procedures}
        out = []
        for name, entries in self.event_logs:
            results = replay(self.kb, entries)
            out.append({"name": md_text(name), "count": len(results), "changed": [{
                "id": r.entry.id, "when": md_text((r.entry.recorded_at or "").replace("T", " ")[:16]),
                "procedure": self.procedure_link(procs[(r.entry.book, r.entry.procedure)], page)
                if (r.entry.book, r.entry.procedure) in procs else md_text(f"{r.entry.book}:{r.entry.procedure}"),
                "outcome": md_text(r.entry.outcome), "changes": md_text(" ; ".join(r.changes)),
            } for r in results if r.changed]})
        return out

    def redline(self, book, old, new, page: str) -> dict:
        """The changes from one revision to the next, word by word (when ruling.diff.revisions is there)."""
        view: dict = {"between": Markup(f"entre {md_text(_edition(old, book))} et {md_text(_edition(new, book))}"),
                "anchor": Markup(revision_anchor(book, old, new)),
                "scope": None, "changes": None, "counts": [], "procedures": [], "refs": []}
        result = self.diff_of(book, old, new)
        if result is None:
            return view
        chapters = {ch.id: ch for ch in new.chapters}
        view["scope"] = [self.scope_name(chapters[c]) for c in result.scope if c in chapters] if result.scope else None
        view["counts"] = [(_count_label(s, n), n)
                          for s, n in result.counts().items() if n and s != "unchanged"]
        view["changes"] = [{
            "status": _STATUS_LABELS.get(ch.status, ch.status),
            "anchor": Markup(change_anchor(book, old, new, ch)),
            "old": self.clause_link(ch.old.citation, page) if ch.old else None,
            "new": self.clause_link(ch.new.citation, page) if ch.new else None,
            "detail": typography_summary(ch.words) if ch.status == "typography" else None,
            "redline": Markup(redline_html(typography_marked(ch.words))),
        } for ch in result.changes if ch.status != "unchanged"]
        view["procedures"] = self.procedures_to_review(result.impact.get("procedures", []), page)
        view["refs"] = [i["message"] for i in result.impact.get("refs", [])]
        return view

    def scope_name(self, chapter) -> str:
        """« le chapitre 8 — LES BLINDS… » for a sentence: no capital, no trailing colon."""
        heading = self.chapter_heading(chapter).rstrip(" :;,.")
        return "le c" + heading[1:] if heading.startswith("Chapitre ") else heading

    def procedures_to_review(self, impacts: list[dict], page: str) -> list[dict]:
        """Each procedure citing a changed clause, once, with the reasons (one per clause)."""
        procs = {(p["book"], p["id"]): p for p in self.procedures}
        grouped: dict[tuple, list[str]] = {}
        for item in impacts:
            reasons = grouped.setdefault((item["book"], item["procedure"]), [])
            if item["message"] not in reasons:
                reasons.append(item["message"])
        return [{"link": self.procedure_link(procs[key], page) if key in procs else md_text(key[1]),
                 "message": " ; ".join(reasons)} for key, reasons in grouped.items()]

    # -- glossary, documents ----------------------------------------------------------------------
    def glossary_view(self, page: str) -> dict:
        entries = []
        for entry in sorted(self.kb.glossary, key=lambda e: _sort_key(e["term"])):
            words = {w.casefold() for w in [entry["term"], *entry.get("en", []), *entry.get("synonyms", [])]}
            clauses = [c for c in self.kb.clauses() if any(t.casefold() in words for t in c.topics)]
            entries.append({"term": entry["term"], "anchor": Markup(self.glossary_anchors[entry["term"]]),
                            "en": ", ".join(entry.get("en", [])), "synonyms": ", ".join(entry.get("synonyms", [])),
                            "definition": entry.get("definition"),
                            "clauses": [self.clause_link(c.citation, page) for c in clauses]})
        return {"page": page, "entries": entries}

    def downloads(self) -> list[tuple[str, str]]:
        """(site path, file on disk) of every original document."""
        out = []
        for book in self.kb.books:
            for rev in book.revisions:
                src = Path(book.dir) / (rev.source or book.source)
                if src.is_file():
                    out.append((paths.source_document(book, rev), str(src)))
        return out

    def documents_view(self, page: str) -> dict:
        docs = []
        present = dict(self.downloads())
        for book in self.kb.books:
            for rev in book.revisions:
                target = paths.source_document(book, rev)
                if target in present:
                    size = Path(present[target]).stat().st_size
                    docs.append({"book": book.title, "revision": self.revision_label(book, rev),
                                 "link": link(target.rsplit("/", 1)[-1], target, page),
                                 "size": f"{size / 1024:.1f} Ko".replace(".", ",")})
        return {"page": page, "documents": docs}

    # -- navigation ----------------------------------------------------------------------------------
    def nav(self) -> list:
        """The mkdocs `nav`: home, questionnaire, books by chapter, procedures, reference pages.

        The theme writes nav titles into HTML as they are: each is HTML-escaped here (`_nav_title`)."""
        title = _nav_title

        books: list = ["livres/index.md"]
        for book in self.kb.books:
            entries: list = [paths.book_index(book.id)]
            for ch in book.current.chapters:
                entries.append({title(self.chapter_heading(ch)): paths.chapter_page(book, book.current, ch)})
            for rev in book.revisions[:-1]:
                old: list = [paths.book_index(book.id, rev.id)]
                old += [{title(self.chapter_heading(ch)): paths.chapter_page(book, rev, ch)} for ch in rev.chapters]
                entries.append({title(self.revision_label(book, rev)): old})
            books.append({title(book.title): entries})
        procs: list = ["procedures/index.md"]
        for book in self.kb.books:
            mine = [{title(p["title"]): paths.procedure_page(p["book"], p["id"])}
                    for p in self.procedures if p["book"] == book.id]
            if mine:
                procs.append({title(book.title): mine})
        return [
            {"Accueil": "index.md"},
            {"Questionnaire": "questionnaire.md"},
            {"Livres": books},
            {"Procédures": procs},
            {"Comparaison": "comparaison.md"},
            {"Historique": "historique.md"},
            {"Glossaire": "glossaire.md"},
            {"Documents": "documents.md"},
        ]


def revision_anchor(book, old, new) -> str:
    return f"livre-{paths.slug(book.id)}-{paths.slug(old.id)}-{paths.slug(new.id)}"


def change_anchor(book, old, new, change) -> str:
    """The anchor of one change on the history page: the clause's new number, or its old one if removed."""
    clause = change.new or change.old
    gone = "-supprimee" if change.new is None else ""
    return f"{revision_anchor(book, old, new)}-{paths.slug(clause.id)}{gone}"


def _edition(rev, book) -> str:
    """« Édition actuelle », or « Édition antérieure du chapitre 8 » (v1) for an older one."""
    return quoted(rev.title) + ("" if rev.id == book.current.id else f" ({rev.id})")


def quoted(text: str) -> str:
    """« text », the guillemets held to their words by non-breaking spaces (no line starts with »)."""
    return f"«\u00a0{text}\u00a0»"


def case_status(outcomes_differ: bool, cells: list[dict]) -> str:
    """« differs », « same » or « open » for one case of the comparison. Two books may name their
    outcome alike (`collusion-sanctionnee`) and still rule differently: « same » only when every
    book decided and the decisions read the same, whitespace aside."""
    if outcomes_differ:
        return "differs"
    if not all(c["outcome"] for c in cells):
        return "open"
    return "same" if len({" ".join(c["text"].split()) for c in cells}) == 1 else "differs"


def _nav_title(text: str):
    """A nav title escaped for HTML text and double-quoted attributes, as `Markup` so that the
    theme's own `| e` (in aria-label) does not escape it twice; apostrophes stay as typed."""
    from html import escape

    from markupsafe import Markup

    return Markup(escape(text, quote=False).replace('"', "&quot;"))


def _sort_key(term: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKD", term).encode("ascii", "ignore").decode().casefold()


from ruling.kb.model import BOOK_KIND_LABELS as _KIND_LABELS  # noqa: E402  (shared with `ruling list`)

_ORIGINS = {"procedure": "", "context": "contexte du livre", "calculator": "entrée du calcul"}
_STATUS_PLURALS = {"unchanged": "inchangées", "typography": "en typographie seulement", "modified": "modifiées",
                   "renumbered": "renumérotées", "added": "ajoutées", "removed": "supprimées"}
_STATUS_LABELS = {"unchanged": "inchangée", "typography": "typographie seulement", "modified": "modifiée",
                  "renumbered": "renumérotée", "added": "ajoutée", "removed": "supprimée"}


def _count_label(status: str, n: int) -> str:
    """« 1 modifiée », « 3 modifiées », « 3 en typographie seulement »."""
    if status == "typography":
        return _STATUS_PLURALS[status]
    return _STATUS_LABELS.get(status, status) if n == 1 else _STATUS_PLURALS.get(status, status)
