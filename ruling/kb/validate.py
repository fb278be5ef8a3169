"""`ruling check`: every problem of the knowledge base, and the coverage of its rules.

A normative clause is covered when a procedure outcome cites it, or when the clause
says why no procedure applies (`procedure: none — organisation`).
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field

from ruling.decide.procedures import hash_problems, text_hash
from ruling.errors import Problem, UserError
from ruling.kb.files import write_atomic
from ruling.kb.load import parse_kb, resolve_root


@dataclass
class CheckReport:
    problems: list[Problem]
    coverage: dict = field(default_factory=dict)
    interpretations: list = field(default_factory=list)  # the readings of silent text, outcome by outcome

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        return {"problems": [p.to_json() for p in self.problems], "coverage": self.coverage,
                "interpretations": self.interpretations}

    def to_text(self) -> str:
        lines = [str(p) for p in self.problems]
        for book, cov in self.coverage.items():
            if not cov["known"]:
                lines.append(f"couverture {book} : inconnue (ses fichiers n'ont pas pu être validés ; "
                             "corrigez d'abord les problèmes ci-dessus)")
                continue
            pct = 100 * cov["covered"] / cov["normative"] if cov["normative"] else 100.0
            lines.append(f"couverture {book} : {cov['covered']}/{cov['normative']} règles normatives ({pct:.0f} %)")
            if cov["uncovered"]:
                lines.append("  sans procédure ni raison : " + ", ".join(cov["uncovered"]))
        if self.interpretations:
            lines.append(f"lectures d'un texte muet : {len(self.interpretations)} issue(s) "
                         "(liste : ruling check --json, clé interpretations)")
        lines.append("base valide" if self.ok else f"{len(self.problems)} problème(s)")
        return "\n".join(lines)


def coverage(kb) -> dict:
    """Per book: normative clauses of the current revision, how many are covered, which are not."""
    cited = set()
    for proc in kb.procedures:
        cited.update(proc.cited_citations())
    out = {}
    for book in kb.books:
        normative = [c for c in book.current.clauses() if c.kind == "normative"]
        uncovered = [c.citation for c in normative if c.citation not in cited and not c.procedure]
        out[book.id] = {"normative": len(normative), "covered": len(normative) - len(uncovered),
                        "uncovered": uncovered, "known": True}
    return out


def check_kb(path=None) -> CheckReport:
    """Parse and validate from scratch (no cache), flag missing or stale cite hashes, compute coverage.

    Uncovered clauses are problems only when every file loaded: otherwise they are the
    consequence of the problem already named (a procedure file that did not load)."""
    root = resolve_root(path)
    kb, problems = parse_kb(root)
    loading_problems = list(problems)
    loading_failed = bool(problems)
    for proc in kb.procedures:
        problems.extend(hash_problems(kb, proc, missing=True, stale=True))
        problems.extend(sanction_citation_problems(kb, proc))
    cov = coverage(kb)
    if not loading_failed:  # a file that did not load would be reported again as 100 uncited clauses (or unfound quotations)
        problems.extend(quotation_problems(kb, kb.procedures))
        problems.extend(coverage_problems(kb, cov))
    for book in unvalidated_books(root, kb, loading_problems):
        cov[book] = {"normative": None, "covered": None, "uncovered": [], "known": False}
    return CheckReport(problems=problems, coverage=cov, interpretations=interpretations(kb))


def interpretations(kb) -> list[dict]:
    """Every outcome resting on a reading of silent text: where, and the reading (per case when keyed)."""
    out = []
    for proc in kb.procedures:
        for rule in proc.rules:
            if rule.interpretation is None:
                continue
            readings = rule.interpretation if isinstance(rule.interpretation, dict) else {None: rule.interpretation}
            for case, reading in readings.items():
                out.append({"procedure": proc.citation, "outcome": rule.outcome, "case": case,
                            "interpretation": reading, "file": proc.file, "line": rule.line})
    return out


SANCTION_WORD_RE = re.compile(r"\bsanction|\bdisqualifi|\bavertissement", re.IGNORECASE)
NO_SANCTION_RE = re.compile(r"ne (?:fixe|prévoit) (?:pas de|aucune) sanction", re.IGNORECASE)  # says there is none


def sanction_citation_problems(kb, proc) -> list[Problem]:
    """A decision that speaks of a sanction, a warning or a disqualification cites one of its book's
    sanction clauses (`sanction_clauses` in book.yaml): the player can then read the clause that allows it."""
    book = next((b for b in kb.books if b.id == proc.book), None)
    if book is None:
        return []
    allowed = {f"{book.id}:{cid}" for cid in book.sanction_clauses}
    out = []
    for rule in proc.rules:
        decision = rule.decision if isinstance(rule.decision, dict) else {None: rule.decision}
        for case, text in decision.items():
            found = SANCTION_WORD_RE.search(NO_SANCTION_RE.sub("", text))
            if found is None or any(c.citation in allowed for c in rule.cites):
                continue
            where = f" (cas {case})" if case else ""
            clauses = ", ".join(book.sanction_clauses) or "(aucune : ajoutez sanction_clauses à book.yaml)"
            out.append(Problem(proc.file, rule.line, f"la décision « {rule.outcome} »{where} parle de "
                                                     f"« {found.group(0).lower()}… » sans citer une règle de sanction du "
                                                     f"livre {book.id} ; règles de sanction : {clauses}"))
            break
    return out


QUOTE_SHORTEST = 25  # a shorter quotation is a word or a phrase (« live », « tour de table »), not a passage
QUOTE_CUT_RE = re.compile(r"\[…\]|\[\.\.\.\]|…")  # what a quotation leaves out


def _quotable(text: str) -> str:
    """The form in which a quotation is compared: spaces collapsed, every other character as the source has it."""
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip()


def _quotations(text: str) -> list[str]:
    """The outermost « … » passages of a text (a quotation may hold « … » of its own)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "«":
            depth, start = depth + 1, (i + 1 if depth == 0 else start)
        elif ch == "»" and depth:
            depth -= 1
            if depth == 0:
                out.append(text[start:i])
    return out


def _quoted_right(piece: str, texts: list[str], names: set[str]) -> bool:
    return len(piece) < QUOTE_SHORTEST or "{{" in piece or piece in names or any(piece in t for t in texts)


def quotation_problems(kb, procedures) -> list[Problem]:
    """A passage a decision puts between « » is word for word in a clause of its book (any edition),
    or is the title of a chapter, a procedure, a question or a choice that the decision points to:
    a TD reads a quotation aloud as the rule's own words."""
    names = {_quotable(t) for p in kb.procedures for t in (p.title, re.sub(r"\s*\([^()]*\)$", "", p.title))}
    for p in kb.procedures:
        for q in p.questions.values():
            names.add(_quotable(q.text))
            names.update(_quotable(label) for label in (q.choices or {}).values())
    texts: dict[str, list[str]] = {}
    for b in kb.books:
        texts[b.id] = [_quotable(" ".join(filter(None, [c.title, c.full_text]))) for c in kb.clauses(b.id, all_revisions=True)]
        texts[b.id] += [_quotable(ch.title) for r in b.revisions for ch in r.chapters if ch.title]
    out = []
    for proc in procedures:
        book_texts = texts.get(proc.book, [])
        for rule in proc.rules:
            decision = rule.decision if isinstance(rule.decision, dict) else {None: rule.decision}
            wrong = next((piece.strip(" ,;:.") for text in decision.values() for quote in _quotations(text)
                          for piece in QUOTE_CUT_RE.split(quote)
                          if not _quoted_right(_quotable(piece).strip(" ,;:."), book_texts, names)), None)
            if wrong is not None:
                wrong = re.sub(r"\s+", " ", wrong)
                shown = wrong if len(wrong) <= 80 else wrong[:77] + "…"
                out.append(Problem(proc.file, rule.line, f"la décision « {rule.outcome} » cite entre guillemets « {shown} », "
                                                         f"qui n'est mot pour mot dans aucune règle du livre {proc.book} ; "
                                                         "recopiez le texte de la règle (« […] » pour une coupure) ou retirez les guillemets"))
    return out


def unvalidated_books(root, kb, problems: list[Problem]) -> set[str]:
    """Books whose coverage cannot be counted: a loading problem in one of their files, or in a schema
    (then no chapter may have been validated, and 0/0 would read as 100 %)."""
    ids = {b.id for b in kb.books}
    out = set()
    for p in problems:
        parts = str(p.file).replace("\\", "/").split("/")
        if len(parts) >= 2 and parts[0] == root.name:
            if parts[1] == "schema":
                return ids
            if parts[1] in ids:
                out.add(parts[1])
    return out


NO_PROCEDURE_RE = re.compile(r"^none — \S")


def coverage_problems(kb, cov: dict) -> list[Problem]:
    """Every normative clause must be cited by a procedure or say why none applies (100 % coverage)."""
    out = []
    for data in cov.values():
        for citation in data["uncovered"]:
            c = kb.find(citation)
            out.append(Problem(c.file, c.line, f"la règle normative {citation} n'est citée par aucune procédure ; "
                                               "citez-la dans une procédure ou écrivez pourquoi aucune ne s'applique : "
                                               "procedure: \"none — <raison>\""))
    for c in kb.clauses():
        if c.procedure is not None and not NO_PROCEDURE_RE.match(c.procedure):
            out.append(Problem(c.file, c.line, f"procedure de {c.citation} : « {c.procedure} » ; attendu "
                                               "« none — <raison courte> »"))
    return out


# -- procedures ---------------------------------------------------------------------------------

# -- stamping ------------------------------------------------------------------------------------

_CITE_TOKEN_RE = re.compile(r"""(?P<q>["']?)(?P<ref>(?:[a-z0-9_-]+:)?[A-Za-z0-9][A-Za-z0-9_.-]*)(?:#[0-9a-f]*)?(?P=q)""")


def stamp(path=None) -> list[str]:
    """Write or refresh the text hash of every cite in the procedure files, by substitution in the
    `cites` lines only (comments, order, layout and line endings are kept). Every file is read and
    checked before any is written, and each is written atomically. Returns the files changed."""
    root = resolve_root(path)
    kb, _ = parse_kb(root)
    updates = []
    for book in kb.books:
        for file in sorted((root / book.id / "procedures").glob("*.yaml")):
            name = str(file.relative_to(root.parent))
            text = _read_procedure(file, name)
            new = _stamp_text(text, lambda ref, b=book.id: _hash_of(kb, b, ref))
            if new != text:
                _check_writable(file, name)
                updates.append((file, name, new))
    changed: list[str] = []
    for file, name, new in updates:
        try:
            write_atomic(file, new.encode("utf-8"))
        except OSError as e:
            done = f" ; déjà écrits : {', '.join(changed)}" if changed else ""
            raise UserError(f"« {name} » n'a pas pu être réécrit ({e.strerror or e.__class__.__name__}) ; "
                            f"le fichier est resté tel quel{done}") from None
        changed.append(name)
    return changed


def _read_procedure(file, name: str) -> str:
    """A procedure file's text exactly as stored (no newline translation), or a French error."""
    if not file.is_file():
        raise UserError(f"« {name} » n'est pas un fichier ; une procédure est un fichier YAML "
                        "(renommez ou retirez ce dossier)")
    try:
        data = file.read_bytes()
    except OSError as e:
        raise UserError(f"« {name} » est illisible ({e.strerror or e.__class__.__name__})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise UserError(f"« {name} » ligne {line} n'est pas en UTF-8 (octet 0x{data[e.start]:02x}) ; "
                        "enregistrez le fichier en UTF-8 ; aucune empreinte écrite") from None


def _check_writable(file, name: str) -> None:
    """A read-only procedure is refused before anything is written (even where rename would pass)."""
    mode = file.stat().st_mode
    if not mode & stat.S_IWUSR or not os.access(file, os.W_OK) or not os.access(file.parent, os.W_OK | os.X_OK):
        raise UserError(f"« {name} » est en lecture seule ; rendez-le modifiable (chmod u+w) puis relancez "
                        "« ruling check --stamp » ; aucune empreinte écrite")


def _hash_of(kb, book: str, ref: str) -> str | None:
    clause = kb.find(ref if ":" in ref else f"{book}:{ref}")
    return text_hash(clause.full_text) if clause is not None else None


def _stamp_text(text: str, hash_of) -> str:
    """Rewrite `cites: [...]` flow lists and `- ref` items of block `cites:` lists."""
    lines = text.split("\n")
    in_block = None  # indentation of a block `cites:` key
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*(?:-\s+)?)cites:\s*(.*)$", line)
        if m:
            rest = m.group(2)
            if rest.startswith("["):
                body_start = line.index("[", len(m.group(1)))
                end = line.rfind("]")
                body = line[body_start + 1:end]
                lines[i] = line[:body_start + 1] + _stamp_tokens(body, hash_of) + line[end:]
                in_block = None
            else:
                in_block = len(m.group(1))
            continue
        if in_block is not None:
            item = re.match(r"^(\s*-\s+)(.*)$", line)
            if item and len(item.group(1)) - len(item.group(1).lstrip()) >= in_block - 2:
                lines[i] = item.group(1) + _stamp_tokens(item.group(2), hash_of)
            elif line.strip() and not line.strip().startswith("#"):
                in_block = None
    return "\n".join(lines)


def _stamp_tokens(body: str, hash_of) -> str:
    def one(m):
        digest = hash_of(m.group("ref"))
        if digest is None:
            return m.group(0)
        q = m.group("q") or '"'
        return f"{q}{m.group('ref')}#{digest}{q}"
    return _CITE_TOKEN_RE.sub(one, body)
