"""Decision procedures: the model (Procedure, Question, Rule, Cite) and its loader.

A procedure is data read from `rulebook/<book>/procedures/<id>.yaml` (format in
docs/PROCEDURES.md). Loading checks what every command relies on (schema, questions
and answers that exist, cites that resolve, known calculators); the deeper static
checks (exhaustive, no overlap, hashes) live in `ruling.kb.validate`.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ruling.decide.templates import placeholders
from ruling.errors import Problem

if TYPE_CHECKING:
    from ruling.decide.catalogue import Catalogue

FINITE_TYPES = ("choice", "bool")
QUESTION_TYPES = ("choice", "bool", "amount", "amounts")


def text_hash(text: str) -> str:
    """The short hash written after a cite: first 6 hex chars of sha256 of the clause's full text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:6]


@dataclass
class Question:
    """A question the engine may ask: its type tells how an answer is read and checked."""

    id: str
    text: str
    type: str = "choice"
    choices: dict[str, str] = field(default_factory=dict)  # key -> French label, display order
    default: object = None
    help: str | None = None
    origin: str = "procedure"  # procedure | context | calculator
    journal: dict | None = None  # how the event journal may answer it (docs/PROCEDURES.md, « Le journal »)

    @property
    def finite(self) -> bool:
        return self.type in FINITE_TYPES

    @property
    def domain(self) -> list:
        """Every possible answer of a finite question, in display order."""
        if self.type == "bool":
            return [True, False]
        return list(self.choices)

    def label(self, value) -> str:
        """How an answer reads in French."""
        if self.type == "bool":
            return "oui" if value else "non"
        if self.type == "choice":
            return self.choices.get(value, str(value))
        if self.type == "amounts":
            return ", ".join(str(v) for v in value) if value else "(aucun)"
        return str(value)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "text": self.text,
            "type": self.type,
            "choices": [{"value": k, "label": v} for k, v in self.choices.items()] if self.type == "choice" else None,
            "default": self.default,
            "help": self.help,
            "origin": self.origin,
        }


@dataclass
class Cite:
    """One cite of a rule: as written, the full citation it resolves to, and its text hash."""

    written: str  # without the hash: "2-10" or "club:2-10"
    citation: str  # "club:2-10"
    hash: str | None = None
    line: int = 0


@dataclass
class Rule:
    """A whole condition over finite answers and the decision it leads to."""

    when: dict[str, tuple]  # question id -> allowed answers
    outcome: str
    decision: str | dict  # a template, or case key -> template (chosen by the calculator's `cas`)
    cites: list[Cite]
    compute: str | None = None
    line: int = 0
    fault: str | None = None  # the fault this outcome records against the player (the sanction ladder counts it)
    each: dict = field(default_factory=dict)  # record-list figure -> template (or case map) per record
    interpretation: str | dict | None = None  # where the text is silent: the reading chosen (or case -> reading)

    def interpretation_for(self, case) -> str | None:
        """The reading this outcome rests on for calculator case `case`, or None where the text decides."""
        if isinstance(self.interpretation, dict):
            return self.interpretation.get(case)
        return self.interpretation

    def matches(self, answers: dict) -> bool:
        return all(q in answers and answers[q] in allowed for q, allowed in self.when.items())

    def to_json(self) -> dict:
        return {"when": {q: list(v) if len(v) > 1 else v[0] for q, v in self.when.items()},
                "outcome": self.outcome, "decision": self.decision, "compute": self.compute,
                "each": dict(self.each), "cites": [c.citation for c in self.cites],
                "interpretation": self.interpretation}


@dataclass
class Procedure:
    """Questions and rules that lead from a table situation to a cited decision."""

    id: str
    book: str
    situation: str
    title: str
    keywords: list[str]
    questions: dict[str, Question]  # the procedure's own questions, in file order
    context: dict[str, Question]  # the book's context questions
    rules: list[Rule]
    file: str = ""
    note: str | None = None
    faults: dict[str, str] = field(default_factory=dict)  # fault id -> French label, for `fault:` of the rules
    catalogue: Catalogue | None = None  # the calculators' declarations
    parameters: dict = field(default_factory=dict)  # the book's parameters, id -> Parameter

    def question(self, qid: str) -> Question | None:
        """The procedure's own question, else the book's context question, else a calculator input."""
        if qid in self.questions:
            return self.questions[qid]
        if qid in self.context:
            return self.context[qid]
        return self.calculator_inputs().get(qid)

    def known_question(self, qid: str) -> Question:
        """`question(qid)` for an id the procedure's rules or calculators name (loading checked it exists)."""
        question = self.question(qid)
        if question is None:
            raise KeyError(f"{self.id}: no question {qid}")
        return question

    def calculator_inputs(self) -> dict[str, Question]:
        """The inputs of every calculator the rules use, as questions (a procedure question of the same id wins)."""
        out: dict[str, Question] = {}
        for rule in self.rules:
            spec = self.catalogue.get(rule.compute) if self.catalogue is not None else None
            for inp in spec.inputs if spec is not None else ():
                out.setdefault(inp.id, self.questions.get(inp.id) or inp)
        return out

    def calculator(self, rule: Rule):
        """The declaration of the calculator `rule` computes with, or None."""
        return self.catalogue.get(rule.compute) if self.catalogue is not None else None

    def used_questions(self) -> list[Question]:
        """Every question some rule may ask: `when` keys, then calculator inputs."""
        seen: dict[str, Question] = {}
        for rule in self.rules:
            for qid in rule.when:
                q = self.question(qid)
                if q is not None:
                    seen.setdefault(qid, q)
        for qid, q in self.calculator_inputs().items():
            seen.setdefault(qid, q)
        return list(seen.values())

    def outcome(self, outcome_id: str) -> Rule | None:
        return next((r for r in self.rules if r.outcome == outcome_id), None)

    @property
    def citation(self) -> str:
        return f"{self.book}:{self.id}"

    def cited_citations(self) -> set[str]:
        return {c.citation for r in self.rules for c in r.cites}

    def cites_in_order(self) -> list[str]:
        out: list[str] = []
        for r in self.rules:
            for c in r.cites:
                if c.citation not in out:
                    out.append(c.citation)
        return out

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "book": self.book,
            "situation": self.situation,
            "title": self.title,
            "keywords": list(self.keywords),
            "cites": self.cites_in_order(),
            "questions": [q.to_json() for q in self.used_questions()],
            "outcomes": [r.to_json() for r in self.rules],
        }


# -- loading ---------------------------------------------------------------------------------

def build_question(qid: str, data: dict, origin: str) -> Question:
    choices = {str(k): v for k, v in (data.get("choices") or {}).items()}
    qtype = data.get("type") or ("choice" if choices else "bool")
    return Question(id=qid, text=data["text"], type=qtype, choices=choices, default=data.get("default"),
                    help=data.get("help"), origin=origin, journal=data.get("journal"))


def question_problems(q: Question, doc, keys: tuple) -> list[Problem]:
    """A question whose declaration contradicts its type."""
    out = []
    line = doc.line(*keys)
    if q.type == "choice" and not q.choices:
        out.append(Problem(doc.display, line, f"la question « {q.id} » est de type choice sans choices"))
    if q.type != "choice" and q.choices:
        out.append(Problem(doc.display, line, f"la question « {q.id} » a des choices mais le type {q.type}"))
    if q.default is not None:
        ok = {"bool": lambda v: isinstance(v, bool), "choice": lambda v: v in q.choices,
              "amount": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
              "amounts": lambda v: isinstance(v, list) and all(isinstance(x, int) and x >= 0 for x in v)}[q.type]
        if not ok(q.default):
            out.append(Problem(doc.display, line, f"défaut « {q.default} » invalide pour la question « {q.id} » ({q.type})"))
    return out


def load_context(snap, book_id: str, schemas, problems: list[Problem]) -> dict[str, Question]:
    """The context questions of one book (`<book>/context.yaml`), or none."""
    from ruling.kb.load import read_optional

    doc = read_optional(snap, f"{book_id}/context.yaml", "context", schemas, problems)
    if doc is None:
        return {}
    out = {}
    for qid, data in (doc.data.get("questions") or {}).items():
        q = build_question(str(qid), data, "context")
        problems.extend(question_problems(q, doc, ("questions", qid)))
        out[q.id] = q
    return out


def load_procedures(kb, snap, schemas, problems, unloaded=frozenset()) -> tuple[list, object, dict]:
    """Parse, from the base's snapshot, the calculators' declarations, every book's parameters and
    procedures; problems are appended, never raised. Returns (procedures, catalogue, parameters by
    book). A cite into a book in `unloaded` (one of its files did not load) is not reported."""
    from ruling.decide.catalogue import load_catalogue, load_parameters
    from ruling.kb.load import read_yaml
    from ruling.kb.validate import procedure_problems, unused_parameter_problems

    root = Path(snap.root)
    catalogue = load_catalogue(snap, schemas, problems)
    procedures: list[Procedure] = []
    all_parameters: dict = {}
    complete = not unloaded  # every book and procedure file loaded: only then is an unused calculator a problem
    for book in kb.books:
        context = load_context(snap, book.id, schemas, problems)
        parameters = load_parameters(kb, snap, book.id, schemas, problems, unloaded)
        all_parameters[book.id] = parameters
        seen: dict[str, str] = {}
        mine = []
        folder = f"{book.id}/procedures"
        if snap.kind(folder) == "file":
            problems.append(Problem(snap.display(folder), 0, "« procedures » est un fichier ; attendu un dossier "
                                                             "de procédures (<livre>/procedures/<id>.yaml)"))
            complete = False
            continue
        for rel in snap.children(folder):
            doc = read_yaml(snap, rel, problems)
            if doc is None or not schemas.validate("procedure", doc, problems):
                complete = False
                continue
            proc = _build_procedure(kb, book.id, doc, context, catalogue, parameters, problems, unloaded)
            if proc is None:
                complete = False
                continue
            if proc.id in seen:
                problems.append(Problem(doc.display, doc.line("id"),
                                        f"la procédure « {proc.id} » est déjà définie dans {seen[proc.id]}"))
                continue
            seen[proc.id] = doc.display
            problems.extend(procedure_problems(kb, proc))
            mine.append(proc)
        problems.extend(unused_parameter_problems(root, book.id, parameters, mine))
        procedures.extend(mine)
    used = {r.compute for p in procedures for r in p.rules}
    for name in catalogue.calculators if complete else ():
        if name not in used:  # dead arithmetic: computed in two languages for nothing
            problems.append(Problem(f"{root.name}/calculators.yaml", catalogue.lines.get(name, 1),
                                    f"le calculateur « {name} » n'est utilisé par aucune procédure ; retirez-le "
                                    "(et son noyau) ou citez-le dans une règle (compute)"))
    return procedures, catalogue, all_parameters


def _template_problems(doc, where: tuple, outcome: str, template, names: set, cases: tuple, what: str) -> list[Problem]:
    """A template (or case map) naming a figure nobody produces, or keyed by unknown or missing cases."""
    out = []
    line = doc.line(*where)
    if isinstance(template, dict):
        if not cases:
            return [Problem(doc.display, line, f"la décision « {outcome} » est choisie par cas mais {what} ne produit "
                                               "pas de cas ; écrivez une seule phrase")]
        for key in template:
            if key not in cases:
                out.append(Problem(doc.display, line, f"cas « {key} » inconnu dans la décision « {outcome} » ; "
                                                      f"cas de {what} : {', '.join(cases)}"))
        for key in cases:
            if key not in template:
                out.append(Problem(doc.display, line, f"la décision « {outcome} » ne dit rien du cas « {key} » de {what}"))
        texts = list(template.values())
    else:
        texts = [template]
    for text in texts:
        for name in placeholders(text):
            if name not in names:
                out.append(Problem(doc.display, line, f"la décision « {outcome} » utilise {{{{ {name} }}}} que ni "
                                                      f"{what} ni les paramètres du livre ne produisent ; chiffres : "
                                                      f"{', '.join(sorted(names)) or '(aucun)'}"))
    return out


SILENT_TEXT = "Le règlement ne le précise pas ; "  # how a decision resting on a reading says so


def _interpretation_problems(doc, i: int, rdata: dict, cases) -> list[Problem]:
    """An outcome that carries a reading says it in its decision, for each case it concerns."""
    reading, decision = rdata.get("interpretation"), rdata["decision"]
    if reading is None:
        return []
    line, outcome = doc.line("rules", i, "interpretation"), rdata["outcome"]
    if isinstance(reading, dict):
        unknown = [c for c in reading if c not in cases]
        if unknown or not isinstance(decision, dict):
            line = doc.line("rules", i, "interpretation", unknown[0]) if unknown else line
            return [Problem(doc.display, line, f"interpretation de « {outcome} » : cas inconnu(s) "
                                               f"{', '.join(unknown) or ', '.join(reading)} ; cas : {', '.join(cases) or '(aucun)'}")]
        texts = {c: decision.get(c, "") for c in reading}
    else:
        texts = decision if isinstance(decision, dict) else {"": decision}
    return [Problem(doc.display, doc.line("rules", i, "interpretation", c) if c else line, f"la décision « {outcome} »{' (cas ' + c + ')' if c else ''} repose sur une "
                                       f"interprétation mais ne le dit pas : écrivez « {SILENT_TEXT}… »")
            for c, text in texts.items() if SILENT_TEXT not in text]


def _compute_problems(doc, i: int, rdata: dict, spec, parameters: dict, book_id: str) -> list[Problem]:
    """The calculator's parameters exist in the book; the decision and `each` templates use only its figures."""
    outcome = rdata["outcome"]
    out = []
    what = f"le calculateur {spec.name}" if spec is not None else "cette règle (sans calcul)"
    for pid, need in (spec.parameters.items() if spec is not None else ()):
        if need == "required" and pid not in parameters:
            out.append(Problem(doc.display, doc.line("rules", i, "compute"),
                               f"le calculateur {spec.name} lit le paramètre « {pid} », inconnu du livre {book_id} ; "
                               f"ajoutez-le à {book_id}/parameters.yaml avec la règle qui le fixe"))
    names = set(parameters)
    if spec is not None:
        names |= {q.id for q in spec.inputs} | set(spec.figures)
    out += _template_problems(doc, ("rules", i, "decision"), outcome, rdata["decision"], names,
                              spec.cases if spec is not None else (), what)
    out += _interpretation_problems(doc, i, rdata, spec.cases if spec is not None else ())
    for fname, template in (rdata.get("each") or {}).items():
        figure = spec.figures.get(fname) if spec is not None else None
        if figure is None or not figure.fields:
            out.append(Problem(doc.display, doc.line("rules", i, "each"),
                               f"each « {fname} » : {what} ne produit pas de liste « {fname} »"))
            continue
        fields = set(figure.fields) | {f for g in spec.figures.values() for f in g.fields} | names
        out += _template_problems(doc, ("rules", i, "each"), outcome, template, fields, figure.cases,
                                  f"la liste {fname}")
    return out


def _build_procedure(kb, book_id: str, doc, context: dict, catalogue, parameters: dict,
                     problems: list[Problem], unloaded=frozenset()) -> Procedure | None:
    data = doc.data
    before = len(problems)
    if data["id"] != doc.path.stem:
        problems.append(Problem(doc.display, doc.line("id"),
                                f"l'id « {data['id']} » diffère du nom du fichier « {doc.path.stem} »"))
    questions = {}
    for qid, qdata in (data.get("questions") or {}).items():
        q = build_question(str(qid), qdata, "procedure")
        problems.extend(question_problems(q, doc, ("questions", qid)))
        questions[q.id] = q
    proc = Procedure(id=data["id"], book=book_id, situation=data["situation"], title=data["title"],
                     keywords=list(data.get("keywords") or []), questions=questions, context=context,
                     rules=[], file=doc.display, note=data.get("note"),
                     faults={str(k): v for k, v in (data.get("faults") or {}).items()},
                     catalogue=catalogue, parameters=parameters)
    outcomes: dict[str, int] = {}
    for i, rdata in enumerate(data["rules"]):
        line = doc.line("rules", i)
        when: dict[str, tuple] = {}
        for qid, cond in (rdata.get("when") or {}).items():
            asked = questions.get(qid) or context.get(qid)
            where = doc.line("rules", i, "when")
            if asked is None:
                known = ", ".join(list(questions) + list(context)) or "(aucune)"
                problems.append(Problem(doc.display, where, f"la règle « {rdata['outcome']} » utilise la question "
                                                            f"« {qid} » qui n'est déclarée ni dans la procédure ni dans "
                                                            f"{book_id}/context.yaml ; questions connues : {known}"))
                continue
            values = tuple(cond) if isinstance(cond, list) else (cond,)
            if not asked.finite:
                problems.append(Problem(doc.display, where, f"la question « {qid} » est de type {asked.type} : seules les "
                                                            "questions choice et bool peuvent servir dans when"))
                continue
            for v in values:
                if v not in asked.domain:
                    expected = ", ".join(map(_show, asked.domain))
                    problems.append(Problem(doc.display, where, f"réponse « {_show(v)} » impossible pour la question "
                                                                f"« {qid} » ; attendu l'une de : {expected}"))
            when[qid] = values
        cites = []
        for written in rdata["cites"]:
            base, _, digest = written.partition("#")
            citation = base if ":" in base else f"{book_id}:{base}"
            clause = kb.find(citation)
            if clause is None and re.split("[@:]", citation)[0] in unloaded:
                continue  # its chapter did not load: that file's problem is the one to fix
            if clause is None:
                problems.append(Problem(doc.display, doc.line("rules", i, "cites"),
                                        f"la règle « {rdata['outcome']} » cite « {base} » qui n'existe pas"))
                continue
            cites.append(Cite(written=base, citation=clause.citation, hash=digest or None,
                              line=doc.line("rules", i, "cites")))
        compute = rdata.get("compute")
        spec = catalogue.get(compute)
        if compute and spec is None:
            problems.append(Problem(doc.display, doc.line("rules", i, "compute"),
                                    f"calculateur « {compute} » inconnu ; calculateurs : "
                                    f"{', '.join(catalogue.calculators)}"))
        else:
            problems.extend(_compute_problems(doc, i, rdata, spec, parameters, book_id))
        if rdata["outcome"] in outcomes:
            problems.append(Problem(doc.display, line, f"issue « {rdata['outcome']} » en double (déjà ligne "
                                                       f"{outcomes[rdata['outcome']]})"))
        outcomes[rdata["outcome"]] = line
        fault = rdata.get("fault")
        if fault is not None and fault not in proc.faults:
            declared = ", ".join(proc.faults) or "(aucune)"
            problems.append(Problem(doc.display, doc.line("rules", i, "fault"),
                                    f"la règle « {rdata['outcome']} » relève la faute « {fault} » que la procédure ne "
                                    f"déclare pas dans faults ; fautes déclarées : {declared}"))
        proc.rules.append(Rule(when=when, outcome=rdata["outcome"], decision=rdata["decision"], cites=cites,
                               compute=compute, line=line, fault=fault, each=dict(rdata.get("each") or {}),
                               interpretation=rdata.get("interpretation")))
    problems.extend(_journal_problems(proc, doc))
    return proc if len(problems) == before else None


def _journal_problems(proc: Procedure, doc) -> list[Problem]:
    """A question the journal would answer with an answer it cannot take, or from an unknown fault or outcome."""
    out = []
    for qid, q in proc.questions.items():
        spec = q.journal
        if spec is None:
            continue
        line = doc.line("questions", qid, "journal")

        def bad(message, line=line, qid=qid):
            out.append(Problem(doc.display, line, f"journal de la question « {qid} » : {message}"))

        recall = spec["recall"]  # required by the schema
        wanted = {"same-fault": "bool", "any-sanction": "bool", "last-sanction": "choice"}[recall]
        if q.type != wanted:
            bad(f"« recall: {recall} » demande une question {wanted}, pas {q.type}")
            continue
        if recall == "same-fault" and spec.get("fault") not in proc.faults:
            bad(f"la faute « {spec.get('fault')} » n'est pas déclarée dans faults ; fautes : {', '.join(proc.faults) or '(aucune)'}")
        if recall == "last-sanction":
            outcomes = [r.outcome for r in proc.rules]
            for outcome, answer in {**(spec.get("steps") or {}), None: spec.get("none")}.items():
                if outcome is not None and outcome not in outcomes:
                    bad(f"l'issue « {outcome} » n'existe pas ; issues : {', '.join(outcomes)}")
                if answer not in q.choices:
                    bad(f"la réponse « {answer} » n'est pas un choix de la question ; choix : {', '.join(q.choices)}")
    return out


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
