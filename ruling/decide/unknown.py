"""« Je ne sais pas » : the decision for each remaining possibility, never a guess.

When the TD cannot answer a question, every value it could take is tried: if each branch is
decided, the decisions are given side by side; otherwise the next question that separates
them is asked. Amount questions have no finite set of values, so they cannot be left unknown.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from itertools import product

import click

from ruling.decide.engine import _shell, answer_text, decide_procedure, find_procedure, normalise_answers
from ruling.errors import UserError

UNKNOWN_WORDS = {"?", "je ne sais pas", "jsp", "ne sais pas", "inconnu", "inconnue", "sais pas"}


@dataclass
class Branches:
    """Each combination of the unknown answers with its decision (or what it still needs)."""

    unknown: list  # the Question objects left unknown
    cases: list = field(default_factory=list)  # (assumed answers {qid: value}, Decision)

    @property
    def decided(self) -> bool:
        return all(d.decided for _, d in self.cases)

    def next_question(self):
        """The first question an undecided branch still needs (never one the TD left unknown)."""
        unknown_ids = {q.id for q in self.unknown}
        for _, decision in self.cases:
            for q in decision.missing:
                if q.id not in unknown_ids:
                    return q
        return None

    def to_json(self) -> dict:
        return {"unknown": [q.id for q in self.unknown],
                "cases": [{"assumed": assumed, **decision.to_json()} for assumed, decision in self.cases]}


def can_be_unknown(question) -> bool:
    return question.type in ("choice", "bool")


def branches(kb, procedure, values: dict, unknown: list) -> Branches:
    """Decide `procedure` for every value of each unknown question, given the known `values`."""
    for q in unknown:
        if not can_be_unknown(q):
            raise UserError(f"« je ne sais pas » n'est pas possible pour « {q.id} » ({q.text}) : un montant "
                            "ne se devine pas ; comptez-le ou demandez-le aux joueurs")
    result = Branches(list(unknown))
    for combo in product(*(q.domain for q in unknown)):
        assumed = {q.id: v for q, v in zip(unknown, combo)}
        result.cases.append((assumed, decide_procedure(kb, procedure, {**values, **assumed})))
    return result


def branches_report(procedure, result: Branches, kb=None, known: dict | None = None, full: bool = False) -> str:
    """The decisions side by side, by the unknown answers they assume: cases that decide the same
    are one entry; then (with `kb`) each cited rule once, to read at the table, and (with `known`)
    the command that gives this report again."""
    names = " et ".join(f"« {q.text} »" for q in result.unknown)
    groups: dict[str, tuple] = {}  # decision text -> (decision, [conditions]), in the order met
    for assumed, decision in result.cases:
        when = " ; ".join(procedure.question(qid).label(v) for qid, v in assumed.items())
        groups.setdefault(decision.decision or "", (decision, []))[1].append(when)
    if len(groups) == 1:
        decision = result.cases[0][1]
        lines = [f"Quelle que soit la réponse à {names}, la décision est la même :", decision.decision or "",
                 f"({', '.join(c.citation for c in decision.citations)})"]
    else:
        lines = [f"Réponse inconnue à {names} : voici la décision dans chaque cas."]
        for text, (decision, conditions) in groups.items():
            lines.append("")
            if len(conditions) == 1:
                lines.append(f"• Si : {conditions[0]}")
            else:
                lines.append("• Si l'un de ces cas :")
                lines += [f"    – {when}" for when in conditions]
            lines.append(f"  → {text} ({', '.join(c.citation for c in decision.citations)})")
    if kb is not None:
        lines += ["", *_cited_texts(kb, result, full)]
    if known is not None:
        parts = ["ruling", "decide", procedure.id, "--book", procedure.book]
        parts += [w for qid, v in known.items() for w in ("-a", _shell(f"{qid}={answer_text(v)}"))]
        parts += [w for q in result.unknown for w in ("-a", _shell(f"{q.id}=?"))]
        lines.append("Pour rejouer : " + " ".join(parts))
    return "\n".join(lines)


def _cited_texts(kb, result: Branches, full: bool) -> list[str]:
    """Each rule the cases cite, once, verbatim (a long one cut to its key sentences unless `full`)."""
    from ruling.decide.questionnaire import cited_clause  # a cycle: the questionnaire imports this module

    said = " ".join(d.decision or "" for _, d in result.cases)
    seen: set = set()
    out: list[str] = []
    for _, decision in result.cases:
        for clause in decision.citations:
            if clause.citation not in seen:
                seen.add(clause.citation)
                out += cited_clause(kb, clause, said, full)
    return out


def is_unknown(raw) -> bool:
    """« ? » is handled apart (it explains); these words mean the TD does not know."""
    return isinstance(raw, str) and " ".join(raw.lower().replace("’", "'").split()) in UNKNOWN_WORDS - {"?"}


def decide_unknown(ctx, kb, book, procedure_id: str, answers: dict, profile: dict, unknown_ids: list,
                   as_json: bool) -> None:
    """`ruling decide … -a q=?`: each possibility's decision, or the question that separates them
    (listed like missing answers, exit 2)."""
    procedure = find_procedure(kb, procedure_id, book)
    known = normalise_answers(procedure, {k: v for k, v in answers.items() if k not in unknown_ids}, profile, kb)
    unknown = []
    for qid in unknown_ids:
        question = procedure.question(qid)
        if question is None:  # the same French error as any unknown question
            normalise_answers(procedure, {qid: ""}, None, kb)
            continue
        if question.if_unknown is not None:  # « je ne sais pas » is one answer here (« non » to « avez-vous les chiffres ? »)
            known[qid] = question.if_unknown
        else:
            unknown.append(question)
    if not unknown:
        decision = decide_procedure(kb, procedure, known)
        if decision.decided:
            if as_json:
                click.echo(json.dumps(decision.to_json(), ensure_ascii=False, indent=2))
            else:
                from ruling.decide.questionnaire import decision_report

                click.echo(decision_report(kb, decision, full=True))
            return
    result = branches(kb, procedure, known, unknown)
    if as_json:
        data = result.to_json()
        if not result.decided:
            data["missing"] = [result.next_question().to_json()]
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    elif result.decided:
        click.echo(branches_report(procedure, result, kb, known, full=True))
    if not result.decided:
        question = result.next_question()
        if not as_json:
            click.echo(f"Pour départager les cas, il faut savoir : -a {question.id}=…   {question.text}")
        click.echo(f"Erreur : réponses manquantes pour {procedure.id} ({procedure.book}) : {question.id}", err=True)
        ctx.exit(2)
