"""Decision procedures: the model (Procedure, Question, Rule, Cite) and its loader.

A procedure is data read from `rulebook/<book>/procedures/<id>.yaml` (format in
docs/PROCEDURES.md). Loading checks what every command relies on (schema, questions
and answers that exist, cites that resolve, known calculators); the deeper static
checks (exhaustive, no overlap, hashes) live in `ruling.kb.validate`.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ruling.decide.kinds import card_label, default_kind
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
    kind: str = ""  # what a typed figure is (ruling.decide.kinds): amount, seat, rank, count, cards…
    none: bool = False  # « aucun » is an answer (0 or the empty list)
    if_unknown: object = None  # what « je ne sais pas » means when it means one answer (« non » to « avez-vous les chiffres ? »)
    asks_for_figures: bool = False  # « avez-vous les chiffres ? »: answered oui as soon as a figure of a calculator is given
    words: dict = field(default_factory=dict)  # phrases of a description that pre-answer it: "oui"/"non", a choice key, or "nom" (a figure's names)
    reads_the_question: bool = False  # it asks what is disputed (« Que faut-il trancher ? »): the TD's question words answer it
    tried_if_unknown: str = ""  # a figure « je ne sais pas » may leave open: "grid" (an amount) or "zero-or-more" (a list), see ruling.decide.unknown
    not_proposed_with: str = ""  # a list of bets: when this other question (the faulty bet) is to be asked too, the description's amounts are not proposed for it

    def __post_init__(self):
        if not self.kind and self.type in ("amount", "amounts"):
            self.kind = default_kind(self.type)

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
        if self.kind == "cards":
            return ", ".join(card_label(v) for v in value) if value else "(aucune)"
        if self.type == "amounts":
            return ", ".join(str(v) for v in value) if value else "(aucun)"
        return "aucun" if self.none and value == 0 else str(value)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "text": self.text,
            "type": self.type,
            "choices": [{"value": k, "label": v} for k, v in self.choices.items()] if self.type == "choice" else None,
            "default": self.default,
            "help": self.help,
            "origin": self.origin,
            "kind": self.kind or None,
            "none": self.none,
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
    given: dict = field(default_factory=dict)  # calculator inputs the path already answers (no bet to call: a-suivre 0)

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
                "each": dict(self.each), "given": dict(self.given), "cites": [c.citation for c in self.cites],
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


# -- cited texts -----------------------------------------------------------------------------

def hash_problems(kb, proc, missing: bool, stale: bool) -> list[Problem]:
    """Cites whose text hash is missing (until `ruling check --stamp`) or no longer matches the clause."""
    return [p for rule in proc.rules for p in rule_hash_problems(kb, proc, rule, missing, stale)]


def rule_hash_problems(kb, proc, rule, missing: bool, stale: bool) -> list[Problem]:
    """`hash_problems` for one rule: the engine refuses a decision whose cited text changed."""
    out = []
    for cite in rule.cites:
        clause = kb.find(cite.citation)
        if clause is None:
            continue
        actual = text_hash(clause.full_text)
        if cite.hash is None and missing:
            out.append(Problem(proc.file, cite.line, f"la citation « {cite.written} » de l'issue « {rule.outcome} » "
                                                     "n'a pas d'empreinte ; lancez « ruling check --stamp »"))
        elif cite.hash is not None and cite.hash != actual and stale:
            out.append(Problem(proc.file, cite.line,
                               f"le texte de {cite.citation} a changé depuis l'écriture de la procédure {proc.id} "
                               f"(issue « {rule.outcome} », empreinte {cite.hash}, texte actuel {actual}) ; relisez "
                               "la décision puis lancez « ruling check --stamp »"))
    return out
