"""The decision engine: from answers to the next question needed, or to the cited decision.

Backward chaining over a procedure's rules: the first rule still possible (in file order)
names the next question to ask (its first unanswered `when` key), so a TD never answers a
question that cannot change the outcome. Pure functions over the knowledge base, no I/O.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import NoReturn

from ruling.decide.catalogue import run
from ruling.decide.kinds import MAX_AMOUNT_DIGITS, MAX_AMOUNTS, KindError, card_label, expected_text, parse_value
from ruling.decide.procedures import Procedure, Question, Rule, rule_hash_problems
from ruling.decide.templates import pick, render
from ruling.errors import StaleCitationError, UserError, shown
from ruling.kb.names import MAX_SUGGESTED_NAME

TRUE_WORDS = {"true", "oui", "o", "yes", "y", "1", "vrai"}
FALSE_WORDS = {"false", "non", "n", "no", "0", "faux"}


# -- finding a procedure -----------------------------------------------------------------------

def find_procedure(kb, procedure_id: str, book: str | None = None) -> Procedure:
    """The procedure `procedure_id` (of `book`, or unique across books), or a French error."""
    if book is not None:
        kb.book(book)  # unknown book: its own message
    if ":" in procedure_id and book is None:
        book, procedure_id = procedure_id.split(":", 1)
    hits = [p for p in kb.procedures if p.id == procedure_id and (book is None or p.book == book)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        names = ", ".join(f"{p.book}:{p.id}" for p in hits)
        raise UserError(f"la procédure « {shown(procedure_id)} » existe dans plusieurs livres ({names}) ; précisez --book")
    ids = sorted({p.id for p in kb.procedures if book is None or p.book == book})
    where = f" dans le livre {book}" if book else ""
    close = _close_matches(procedure_id, ids, n=3, cutoff=0.5)
    msg = f"la procédure « {shown(procedure_id)} » n'existe pas{where}"
    if close:
        msg += " ; vouliez-vous " + " ou ".join(close) + " ?"
    else:
        msg += " ; listez-les avec « ruling procedures" + (f" --book {book}" if book else "") + " »"
    return _raise(msg, close)


def _close_matches(name: str, known: list[str], n: int, cutoff: float) -> list[str]:
    """difflib's close matches, none for a name longer than any id (bounded before the work)."""
    return difflib.get_close_matches(name, known, n=n, cutoff=cutoff) if len(name) <= MAX_SUGGESTED_NAME else []


def _raise(msg: str, suggestions=()) -> NoReturn:
    raise UserError(msg[0].upper() + msg[1:], suggestions=suggestions)


# -- reading answers ---------------------------------------------------------------------------

def fold(text: str) -> str:
    """Lower case without accents: how typed words are compared."""
    text = unicodedata.normalize("NFKD", str(text).strip().lower())
    return "".join(ch for ch in text if not unicodedata.combining(ch))


#: Longest typed answer looked at: anything longer is refused before any parsing.
MAX_ANSWER_CHARS = MAX_AMOUNTS * (MAX_AMOUNT_DIGITS + 6)


def expected(question: Question) -> str:
    """What a valid answer looks like, in French."""
    if question.type == "bool":
        return "oui ou non (o/n, true/false)"
    if question.type == "choice":
        return f"un numéro de 1 à {len(question.choices)} ou l'une de : " + ", ".join(question.choices)
    return expected_text(question.kind, question.none)


def parse_answer(question: Question, raw):
    """Turn a typed or YAML answer into the question's value, or raise UserError saying what is expected."""
    try:
        if isinstance(raw, str) and len(raw) > MAX_ANSWER_CHARS:
            raise ValueError  # bounded before any parsing
        if question.type == "bool":
            if isinstance(raw, bool):
                return raw
            word = fold(raw)
            if word in TRUE_WORDS:
                return True
            if word in FALSE_WORDS:
                return False
            raise ValueError
        if question.type == "choice":
            if raw in question.choices:
                return raw
            word = fold(raw)
            for key in question.choices:
                if fold(key) == word:
                    return key
            if word.isdigit() and len(word) < 6 and 1 <= int(word) <= len(question.choices):
                return list(question.choices)[int(word) - 1]
            raise ValueError
        try:
            return parse_value(question.kind, raw, question.none)
        except KindError as e:
            if not e.reason:
                raise ValueError from None
            raise UserError(f"réponse « {shown(raw)} » invalide pour la question « {question.id} » ({question.text}) : "
                            f"{e.reason} ; attendu {expected(question)}") from None
    except (ValueError, TypeError):
        typed = raw if not isinstance(raw, bool) else ("true" if raw else "false")
        raise UserError(f"réponse « {shown(typed)} » invalide pour la question « {question.id} » ({question.text}) ; "
                        f"attendu {expected(question)}") from None


# -- deciding ------------------------------------------------------------------------------------

@dataclass
class Decision:
    """The state of a ruling: decided (outcome, decision, citations, figures) or still missing answers."""

    procedure: Procedure
    answers: dict  # the answers the decision rests on (or all given answers when undecided)
    missing: list[Question] = field(default_factory=list)
    rule: Rule | None = None
    decision: str | None = None
    figures: dict = field(default_factory=dict)
    citations: list = field(default_factory=list)  # Clause objects

    @property
    def decided(self) -> bool:
        return self.decision is not None

    @property
    def outcome(self) -> str | None:
        return self.rule.outcome if self.rule is not None and self.decided else None

    @property
    def book(self) -> str:
        return self.procedure.book

    def to_json(self) -> dict:
        if not self.decided:
            return {"procedure": self.procedure.id, "book": self.book,
                    "missing": [q.to_json() for q in self.missing]}
        return {"procedure": self.procedure.id, "book": self.book, "outcome": self.outcome,
                "decision": self.decision, "answers": dict(self.answers),
                "citations": [c.to_json() for c in self.citations], "figures": dict(self.figures),
                "interpretation": self.interpretation}

    @property
    def interpretation(self) -> str | None:
        """The reading of silent text this decision rests on, or None."""
        return self.rule.interpretation_for(self.figures.get("cas")) if self.rule is not None and self.decided else None

    def replay_command(self, changed: dict | None = None) -> str:
        """The one-line `ruling decide …` that gives this decision again (with `changed` answers)."""
        parts = ["ruling", "decide", self.procedure.id, "--book", self.book]
        for qid, value in {**self.answers, **(changed or {})}.items():
            parts += ["-a", _shell(f"{qid}={answer_text(value)}")]
        return " ".join(parts)

    def figures_command(self) -> str | None:
        """Where the TD said he has no figures (an `asks_for_figures` question answered non), the
        command that asks them: the same answers with that one turned to oui."""
        declined = {qid: True for qid, value in self.answers.items()
                    if value is False and getattr(self.procedure.question(qid), "asks_for_figures", False)}
        return self.replay_command(declined) if declined else None


def answer_text(value) -> str:
    """An answer as typed on the command line."""
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):  # cards: as read back (« 2♣ », never the ambiguous « 2c »)
            return ",".join(card_label(v) for v in value)
        return ",".join(str(v) for v in value)
    return str(value)


def _shell(word: str) -> str:
    return word if re.fullmatch(r"[A-Za-z0-9_.,=:/+-]+", word) else "'" + word.replace("'", "'\\''") + "'"


def candidates(procedure: Procedure, answers: dict) -> list[tuple]:
    """Rules not contradicted by the answers, each with its still unanswered `when` questions."""
    out = []
    for rule in procedure.rules:
        pending = []
        for qid, allowed in rule.when.items():
            if qid in answers:
                if answers[qid] not in allowed:
                    break
            else:
                pending.append(qid)
        else:
            out.append((rule, pending))
    return out


def normalise_answers(procedure: Procedure, answers: dict, profile: dict | None = None, kb=None) -> dict:
    """Check every answer against the procedure's questions; a profile may also answer other books' context."""
    values: dict = {}
    for source, strict in ((profile or {}, False), (answers or {}, True)):
        for qid, raw in source.items():
            qid = str(qid)
            question = procedure.question(qid)
            if question is None:
                if not strict and kb is not None and _known_context(kb, qid):
                    continue  # a profile answering another book's context question
                known = [q.id for q in procedure.used_questions()]
                what = "le profil répond à" if not strict else "la réponse porte sur"
                close = _close_matches(qid, known, n=2, cutoff=0.5)
                hint = (" ; vouliez-vous " + " ou ".join(close) + " ?") if close else ""
                _raise(f"{what} une question inconnue de la procédure {procedure.id} : « {shown(qid)} »{hint} ; "
                       f"questions : {', '.join(known) or '(aucune)'}", close or known)
            values[qid] = parse_answer(question, raw)
    inputs = procedure.calculator_inputs()
    if any(qid in inputs for qid in values):  # figures given: « avez-vous les chiffres ? » is answered
        for q in procedure.questions.values():
            if q.asks_for_figures and q.id not in values:
                values[q.id] = True
    return values


def _known_context(kb, qid: str) -> bool:
    return any(qid in p.context for p in kb.procedures)


def decide(kb, book: str | None, procedure_id: str, answers: dict, profile: dict | None = None) -> Decision:
    """Decide `procedure_id` from `answers` (question id -> value or text): the decision, or what is missing."""
    procedure = find_procedure(kb, procedure_id, book)
    return decide_procedure(kb, procedure, normalise_answers(procedure, answers, profile, kb))


def decide_procedure(kb, procedure: Procedure, values: dict, allow_stale: bool = False) -> Decision:
    """`decide` on already checked answers. `allow_stale` decides even on a changed cited text (the
    journal's replay shows what the ruling would now say; the table never gets it)."""
    cands = candidates(procedure, values)
    matched = [rule for rule, pending in cands if not pending]
    if not matched:
        if not cands:
            _raise(f"aucune règle de la procédure {procedure.id} ne s'applique à ces réponses "
                   f"(procédure incomplète : lancez « ruling check »)")
        missing: list[Question] = []
        for _, pending in cands:
            for qid in pending:
                q = procedure.known_question(qid)
                if q not in missing:
                    missing.append(q)
        return Decision(procedure, dict(values), missing=missing)
    rule = matched[0]
    used = {qid: values[qid] for qid in rule.when}
    figures: dict = {}
    namespace = {pid: p.value for pid, p in procedure.parameters.items()}
    spec = procedure.calculator(rule)
    if spec is not None:
        values = {**rule.given, **values}  # what the path already says (no bet to call: nothing to type)
        inputs = [procedure.known_question(inp.id) for inp in spec.inputs]
        missing = [q for q in inputs if q.id not in values]
        if missing:
            return Decision(procedure, dict(values), missing=missing, rule=rule)
        for q in inputs:
            used[q.id] = values[q.id]
            namespace[q.id] = values[q.id]
        assert procedure.catalogue is not None  # the spec came from it
        figures = run(procedure.catalogue, spec.name, values, procedure.parameters)
        namespace.update(figures)

    stale = rule_hash_problems(kb, procedure, rule, missing=False, stale=True)
    if stale and not allow_stale:  # never rule on a text the procedure's author did not read
        raise StaleCitationError(f"décision refusée : {stale[0]}")
    text = render(pick(rule.decision, figures.get("cas")), namespace, rule.each)
    citations = [kb.find(c.citation) for c in rule.cites]
    return Decision(procedure, used, rule=rule, decision=text, figures=figures,
                    citations=[c for c in citations if c is not None])


# -- static analysis (used by `ruling check`) ----------------------------------------------------------

@dataclass
class Analysis:
    """What exploring every path of a procedure found."""

    outcomes: set = field(default_factory=set)  # outcomes reachable
    gaps: list = field(default_factory=list)  # answers for which no rule applies
    overlaps: list = field(default_factory=list)  # (rule a, rule b, example answers)
    paths: int = 0


def analyse(procedure: Procedure, limit: int = 20000, start: dict | None = None) -> Analysis:
    """Walk every combination of finite answers the engine can ask, as the questionnaire would
    (from the answers in `start`, if given)."""
    result = Analysis()
    seen_pairs: set = set()

    def walk(answers: dict) -> None:
        if result.paths >= limit:
            return
        cands = candidates(procedure, answers)
        matched = [r for r, pending in cands if not pending]
        if matched:
            result.paths += 1
            result.outcomes.add(matched[0].outcome)
            first = matched[0]
            for other, pending in cands:
                if other is first:
                    continue
                pair = (first.outcome, other.outcome)
                if pair in seen_pairs:
                    continue
                seen_pairs.add(pair)
                example = dict(answers)
                for qid in pending:
                    example[qid] = other.when[qid][0]
                result.overlaps.append((first, other, example))
            return
        if not cands:
            result.paths += 1
            result.gaps.append(dict(answers))
            return
        qid = cands[0][1][0]
        question = procedure.known_question(qid)
        for value in question.domain:
            walk({**answers, qid: value})

    walk(dict(start or {}))
    return result


def reachable_outcomes(procedure: Procedure, answers: dict) -> list[str]:
    """The outcomes some further answers can still lead to from `answers`, in rule order."""
    reached = analyse(procedure, start=answers).outcomes
    return list(dict.fromkeys(r.outcome for r in procedure.rules if r.outcome in reached))


# -- the decision tree (the flowcharts and the browser follow it) ----------------------------------------

MAX_TREE_NODES = 2000  # a bigger tree is cut (`complete: false`) rather than exported whole


def decision_tree(procedure: Procedure) -> dict:
    """Every path of the question walk as a tree: question nodes with one edge per answer, then a
    decision leaf; a computed decision's leaf first lists the amounts to ask (its input step).
    `{"root": node, "nodes": n, "complete": bool}`; a node is `{"question": id, "answers":
    [[value, node], ...]}`, `{"outcome": id}`, `{"outcome": id, "compute": name, "inputs": [ids],
    "given"?: {id: value}}` (`given`: the rule's own and those the path answered, not asked again),
    or `{"gap": true}` where no rule applies (a broken procedure `ruling check` reports)."""
    count = [0]
    complete = [True]

    def visit(answers: dict) -> dict:
        count[0] += 1
        if count[0] > MAX_TREE_NODES:
            complete[0] = False
            return {"gap": True}
        cands = candidates(procedure, answers)
        matched = [rule for rule, pending in cands if not pending]
        if matched:
            rule = matched[0]
            spec = procedure.calculator(rule)
            if spec is None:
                return {"outcome": rule.outcome}
            # an input the path already answered (the street, in `when`) is given, never asked twice
            given = {**rule.given, **{q.id: answers[q.id] for q in spec.inputs if q.id in answers}}
            leaf = {"outcome": rule.outcome, "compute": spec.name, "inputs": [q.id for q in spec.inputs if q.id not in given]}
            if given:
                leaf["given"] = given
            return leaf
        if not cands:
            return {"gap": True}
        qid = cands[0][1][0]
        question = procedure.known_question(qid)
        return {"question": qid, "answers": [[value, visit({**answers, qid: value})] for value in question.domain]}

    root = visit({})
    return {"root": root, "nodes": count[0], "complete": complete[0]}


# -- comparing books ------------------------------------------------------------------------------------

@dataclass
class CompareRow:
    """One case of a situation (shared answers) and what each book decides for it."""

    answers: dict  # question id -> raw value shared by the books
    label: str  # the case in French
    cells: dict  # book -> Decision, or None when that book has no such case

    @property
    def outcomes(self) -> dict:
        return {b: (d.outcome if d is not None and d.decided else None) for b, d in self.cells.items()}

    @property
    def differs(self) -> bool:
        """True when two books decided with different outcomes, or one book has no such case."""
        decided = [o for o in self.outcomes.values() if o is not None]
        return len(set(decided)) > 1 or any(d is None for d in self.cells.values())


@dataclass
class Comparison:
    situation: str
    procedures: list
    rows: list

    @property
    def same(self) -> bool:
        return not any(r.differs for r in self.rows)

    def to_json(self) -> dict:
        def cell(d):
            if d is None:
                return {"case": False}
            out = d.to_json()
            out["case"] = True
            out["decided"] = d.decided
            return out
        return {"situation": self.situation,
                "procedures": [{"book": p.book, "id": p.id, "title": p.title} for p in self.procedures],
                "rows": [{"answers": r.answers, "label": r.label, "differs": r.differs,
                          "books": {b: cell(d) for b, d in r.cells.items()}} for r in self.rows],
                "same": self.same}


def compare(kb, situation: str, answers: dict | None = None) -> Comparison:
    """What each book rules on the same situation: on the given answers, or case by case over the
    first question the books share."""
    procs = [p for p in kb.procedures if p.situation == situation]
    if not procs:
        known = sorted({p.situation for p in kb.procedures})
        close = _close_matches(situation, known, n=3, cutoff=0.5)
        hint = (" ; vouliez-vous " + " ou ".join(close) + " ?") if close else " ; listez-les avec « ruling procedures »"
        _raise(f"la situation « {shown(situation)} » n'existe dans aucun livre{hint}", close)
    if answers:
        unknown = [k for k in answers if all(p.question(k) is None for p in procs)]
        if unknown:
            known_q = sorted({q.id for p in procs for q in p.used_questions()})
            _raise(f"question « {shown(unknown[0])} » inconnue pour la situation {situation} ; questions : {', '.join(known_q)}")
        label = ", ".join(f"{k}={v}" for k, v in answers.items())
        return Comparison(situation, procs, [CompareRow(dict(answers), label, {p.book: _decide_subset(kb, p, answers)
                                                                              for p in procs})])
    shared = _shared_question(procs)
    if shared is None:
        return Comparison(situation, procs, [CompareRow({}, "sans réponse", {p.book: _decide_subset(kb, p, {})
                                                                             for p in procs})])
    values: list = []
    for p in procs:
        for v in p.known_question(shared).domain:
            if v not in values:
                values.append(v)
    rows = []
    for v in values:
        cells: dict[str, Decision | None] = {}
        row_label = ""  # from the first book that has the case (every value comes from one)
        for p in procs:
            q = p.known_question(shared)
            if v in q.domain:
                row_label = row_label or f"{shared}={answer_text(v)} — {q.label(v)}"
                cells[p.book] = _decide_subset(kb, p, {shared: v})
            else:
                cells[p.book] = None
        rows.append(CompareRow({shared: v}, row_label, cells))
    return Comparison(situation, procs, rows)


def _shared_question(procs: list) -> str | None:
    """The first finite question (in rule order) that every procedure of the situation asks."""
    def asked(p):
        return [qid for r in p.rules for qid in r.when]
    for qid in asked(procs[0]):
        if all(qid in asked(p) and p.known_question(qid).finite for p in procs):
            return qid
    return None


def _decide_subset(kb, procedure: Procedure, answers: dict) -> Decision | None:
    """Decide with the answers this procedure knows (a value it does not accept counts as no case)."""
    mine = {k: v for k, v in answers.items() if procedure.question(k) is not None}
    try:
        values = normalise_answers(procedure, mine)
    except UserError:
        return None
    return decide_procedure(kb, procedure, values)
