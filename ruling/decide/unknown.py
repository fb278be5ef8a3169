"""« Je ne sais pas » : the decision for each remaining possibility, never a guess.

When the TD cannot answer a question, every value it could take is tried: if each branch is
decided, the decisions are given side by side; otherwise the next question that separates
them is asked. An amount has no finite set of values: only one its declaration marks
`tried_if_unknown` may be left unknown. The big blind (`grid`) is tried on a grid of the other
figures (`amount_grid`), and the decision given when it is the same for every value up to the
smallest other figure; a list its calculator reads as 0 or more (`zero-or-more`) is tried all 0
and all more. Never a guess between different decisions: otherwise the figure is asked again.
A case whose calculator refuses the figures typed (a bet of 300 facing 200 is no short call; an
all-in of a full bet is a normal bet) does not apply to them: it is said apart with the refusal,
beside the others' decisions (not « impossible »: the answer may be true, this rule then not).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from itertools import product
from typing import Any

import click

from ruling.decide.engine import _shell, answer_text, decide_procedure, find_procedure, normalise_answers
from ruling.errors import CalculatorError, UserError

UNKNOWN_WORDS = {"?", "je ne sais pas", "jsp", "ne sais pas", "inconnu", "inconnue", "sais pas"}


@dataclass
class Branches:
    """Each combination of the unknown answers with its decision (or what it still needs)."""

    unknown: list  # the Question objects left unknown
    cases: list = field(default_factory=list)  # (assumed answers {qid: value}, Decision)
    amount: Any = None  # the unknown figure (an amount or a list of them), if one is
    amount_holds: bool = False  # the decision is the same for each value of `amount` tried
    amount_upto: int | None = None  # on a grid: it holds for every value of `amount` up to this one
    refused: list = field(default_factory=list)  # (assumed answers, the calculator's refusal): cases the figures do not fit

    @property
    def decided(self) -> bool:
        return all(d.decided for _, d in self.cases) and (self.amount is None or self.amount_holds)

    @property
    def amount_matters(self) -> bool:
        """Every branch is decided, but the unknown figure changes the decision: it must be typed."""
        return self.amount is not None and not self.amount_holds and all(d.decided for _, d in self.cases)

    def next_question(self):
        """The first question an undecided branch still needs (never one the TD left unknown, except
        an amount that changes the decision)."""
        if self.amount_matters:
            return self.amount
        unknown_ids = {q.id for q in self.unknown}
        for _, decision in self.cases:
            for q in decision.missing:
                if q.id not in unknown_ids:
                    return q
        return None

    def to_json(self) -> dict:
        data: dict[str, Any] = {"unknown": [q.id for q in self.unknown],
                                "cases": [{"assumed": assumed, **decision.to_json()} for assumed, decision in self.cases]}
        if self.amount_upto is not None:  # each case holds for every value of the amount up to this one
            data["amount_holds_upto"] = {self.amount.id: self.amount_upto}
        if self.refused:
            data["refused"] = [{"assumed": assumed, "reason": reason} for assumed, reason in self.refused]
        return data


def can_be_unknown(question) -> bool:
    return question.type in ("choice", "bool") or bool(question.tried_if_unknown)


def zero_or_more(procedure, values: dict) -> list[list[int]]:
    """The lists an unknown `zero-or-more` list is tried at: all 0 and all 1, as long as each list
    already typed (one value per player). Its calculator only tells 0 from more, player by player,
    so these two decide every other list as well."""
    lengths = sorted({len(v) for qid, v in values.items() if isinstance(v, list) and v
                      and (q := procedure.question(qid)) is not None and q.type == "amounts"})
    return [[n] * length for length in lengths for n in (0, 1)] or [[0]]


GRID_LIMIT = 400  # the most values an unknown amount is tried at; beyond, the TD types it


def amount_grid(procedure, values: dict) -> list[int]:
    """The values an unknown amount is tried at: 1, and every multiple of half the greatest common
    divisor of the figures already typed (and the value just below it), up to the largest of them
    plus that half. A betting round compares its totals, their differences and halves with the blind,
    so each value where a decision can change lies on this grid, and each stretch between two such
    values holds two tried values: a figure that moves with the amount (the raise over a blind)
    shows as two different decisions. No figure typed yet gives the single value 1 (to find what
    is missing)."""
    typed = _typed_amounts(procedure, values)
    if not typed:
        return [1]
    divisor = math.gcd(*typed)
    halves = range(1, 2 * max(typed) // divisor + 2)
    grid = {n * divisor // 2 for n in halves} | {-(-n * divisor // 2) for n in halves}
    tried = sorted(({1} | grid | {v - 1 for v in grid}) - {0})
    return tried if len(tried) <= GRID_LIMIT else []


def _typed_amounts(procedure, values: dict) -> list[int]:
    """The amounts in chips already typed (bets, blinds), each amount of a list apart, 0 left out."""
    typed: list[int] = []
    for qid, value in values.items():
        q = procedure.question(qid)
        if q is not None and q.kind in ("amount", "amounts"):
            typed += [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, int) and v > 0]
    return typed


def _by_others(result: Branches) -> dict:
    """The cases grouped by the answers of the unknowns other than the amount, in order met."""
    groups: dict = {}
    for assumed, decision in result.cases:
        others = tuple((k, v) for k, v in assumed.items() if k != result.amount.id)
        groups.setdefault(others, []).append((assumed, decision))
    return groups


def branches(kb, procedure, values: dict, unknown: list) -> Branches:
    """Decide `procedure` for every value of each unknown question, given the known `values`; an
    unknown amount is tried on `amount_grid`, where a value the calculator refuses is impossible."""
    for q in unknown:
        if not can_be_unknown(q):
            raise UserError(f"« je ne sais pas » n'est pas possible pour « {q.id} » ({q.text}) : un montant "
                            "ne se devine pas ; comptez-le ou demandez-le aux joueurs")
    if sum(bool(q.tried_if_unknown) for q in unknown) > 1:
        raise UserError("un seul montant peut rester inconnu à la fois : tapez les autres")
    amount = next((q for q in unknown if q.tried_if_unknown), None)
    result = Branches(list(unknown), amount=amount)
    tried: dict[str, Any] = {"grid": amount_grid, "zero-or-more": zero_or_more}
    domains: list[list] = [tried[q.tried_if_unknown](procedure, values) if q.tried_if_unknown else q.domain
                           for q in unknown]
    first_refusal: CalculatorError | None = None
    for combo in product(*domains):
        assumed = {q.id: v for q, v in zip(unknown, combo)}
        try:
            result.cases.append((assumed, decide_procedure(kb, procedure, {**values, **assumed})))
        except CalculatorError as e:
            if amount is None:  # this case does not apply to the figures typed: said, not decided
                first_refusal = first_refusal or e
                result.refused.append((assumed, str(e)))
            # else: this value of the amount is impossible with the figures typed
    if first_refusal is not None and not result.cases:
        raise first_refusal  # no answer fits the figures: the calculator's refusal, as when all is known
    if amount is not None and all(d.decided for _, d in result.cases):
        _settle_amount(result, _typed_amounts(procedure, values))
    return result


def _settle_amount(result: Branches, typed: list[int]) -> None:
    """Whether the decided cases hold whatever the unknown amount: for a list (`zero-or-more`), the
    same decision for every list tried; on a grid, the same for every value up to the smallest
    amount typed (a blind is normally no larger than any bet), which becomes `amount_upto`. When it
    holds, one case is kept per answer of the other unknowns."""
    upto = min(typed) if typed and result.amount.tried_if_unknown == "grid" else None
    if result.amount.tried_if_unknown == "grid" and upto is None:
        return
    groups = _by_others(result)
    if upto is not None:
        groups = {k: [(a, d) for a, d in cases if a[result.amount.id] <= upto] for k, cases in groups.items()}
    result.amount_holds = bool(groups) and all(cases and len({d.decision for _, d in cases}) == 1
                                               for cases in groups.values())
    if result.amount_holds:
        result.amount_upto = upto
        result.cases = [cases[-1] for cases in groups.values()]  # on a grid: the largest value up to the limit


def branches_report(procedure, result: Branches, kb=None, known: dict | None = None, full: bool = False) -> str:
    """The decisions side by side, by the unknown answers they assume: cases that decide the same
    are one entry; then (with `kb`) each cited rule once, to read at the table, and (with `known`)
    the command that gives this report again."""
    names = " et ".join(f"« {q.text} »" for q in result.unknown)
    groups: dict[str, tuple] = {}  # decision text -> (decision, [conditions]), in the order met
    for assumed, decision in result.cases:
        groups.setdefault(decision.decision or "", (decision, []))[1].append(_when(procedure, result, assumed))
    on_grid = result.amount_upto is not None
    if len(groups) == 1 and on_grid and not result.refused:
        decision = result.cases[0][1]
        others = " et ".join(f"« {q.text} »" for q in result.unknown if q is not result.amount)
        lines = [f"Pour toute réponse à « {result.amount.text} » jusqu'à {result.amount_upto} (le plus petit montant "
                 f"tapé){f', et quelle que soit la réponse à {others}' if others else ''}, la décision est la même :",
                 decision.decision or "", f"({', '.join(c.citation for c in decision.citations)})"]
    elif len(groups) == 1 and not result.refused:
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
        for assumed, reason in result.refused:
            lines += ["", f"• Si : {_when(procedure, result, assumed)}", f"  → ce cas ne s'applique pas aux montants tapés : {reason}"]
    if on_grid:
        lines.append(f"Au-delà de {result.amount_upto}, tapez le montant : la décision peut changer.")
    if kb is not None:
        lines += ["", *_cited_texts(kb, result, full)]
    if known is not None:
        parts = ["ruling", "decide", procedure.id, "--book", procedure.book]
        parts += [w for qid, v in known.items() for w in ("-a", _shell(f"{qid}={answer_text(v)}"))]
        parts += [w for q in result.unknown for w in ("-a", _shell(f"{q.id}=?"))]
        lines.append("Pour rejouer : " + " ".join(parts))
    return "\n".join(lines)


def _when(procedure, result: Branches, assumed: dict) -> str:
    """A case's assumed answers; with several unknowns, each after its question (« oui ; non »
    alone would not say which answer is whose)."""
    if len(assumed) == 1:
        return _assumed_label(procedure, result, *next(iter(assumed.items())))
    return " ; ".join(f"« {procedure.question(qid).text} » : {_assumed_label(procedure, result, qid, v)}"
                      for qid, v in assumed.items())


def _assumed_label(procedure, result: Branches, qid: str, value) -> str:
    """How a branch's assumed answer reads: an unknown amount by the values it covers."""
    if result.amount_upto is not None and qid == result.amount.id:
        return f"{result.amount.text} : au plus {result.amount_upto} (le plus petit montant tapé)"
    if result.amount is not None and qid == result.amount.id:
        return f"{result.amount.text} : quelle qu'elle soit"
    return procedure.question(qid).label(value)


def amount_matters_line(result: Branches) -> str:
    """Why an unknown amount is asked again."""
    return (f"« {result.amount.text} » change la décision avec les montants tapés : "
            "ce montant ne se devine pas ; comptez-le ou demandez-le, puis tapez-le.")


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
        if result.amount_matters and not as_json:
            click.echo(amount_matters_line(result))
        if not as_json:
            click.echo(f"Pour départager les cas, il faut savoir : -a {question.id}=…   {question.text}")
        click.echo(f"Erreur : réponses manquantes pour {procedure.id} ({procedure.book}) : {question.id}", err=True)
        ctx.exit(2)
