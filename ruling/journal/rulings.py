"""Between the engine and the event journal: a decision as an entry, answers the journal gives
(the sanction ladder that remembers), and the replay of recorded rulings against today's base.

« Même faute » is never guessed from text: a rule declares the fault it records (`fault:`), and a
question declares how the journal answers it (`journal: recall: …`, see docs/PROCEDURES.md).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from ruling.decide.engine import Decision, decide_procedure, fold, normalise_answers
from ruling.decide.procedures import Procedure, Question, text_hash
from ruling.errors import StaleCitationError, UserError
from ruling.journal.store import Citation, Entry, JournalError, Player

LADDER_RECALLS = ("last-sanction", "any-sanction")


# -- a decision as an entry ------------------------------------------------------------------------

def entry_for(kb, decision: Decision, event: str, *, table=None, players=(), note=None, fault=None,
              sources=None, answers_entry=None, overridden=None) -> Entry:
    """The journal entry of a decided ruling: pinned to the book's revision, the base's digest and the
    hashes of the texts read at the table."""
    book = kb.book(decision.book)
    outcome, text = decision.outcome, decision.decision
    if outcome is None or text is None:
        raise ValueError(f"{decision.procedure.id} : seule une décision prise s'enregistre au journal")
    return Entry(event=event, book=decision.book, revision=book.current.id, kb_digest=kb.digest or "",
                 procedure=decision.procedure.id, outcome=outcome, decision=text,
                 answers={k: v for k, v in decision.answers.items()}, replay=decision.replay_command(),
                 citations=[Citation(c.citation, text_hash(c.full_text), c.full_text) for c in decision.citations],
                 players=list(players), table=table, note=note, fault=fault, sources=dict(sources or {}),
                 answers_entry=answers_entry, overridden=dict(overridden or {}))


def parse_player(text: str) -> Player:
    """`--player NOM` or `--player NOM@SIÈGE` (the seat is what anonymisation shows)."""
    name, sep, seat = str(text).rpartition("@")
    if sep and seat.strip().isdigit() and name.strip():
        return Player(" ".join(name.split()), int(seat))
    name = " ".join(str(text).split())
    if not name:
        raise UserError("--player vide ; attendu un nom, éventuellement suivi du siège (ex. --player Dupont@4)")
    return Player(name)


# -- choosing entries ---------------------------------------------------------------------------------

def parse_since(text: str, today=None) -> datetime:
    """`--since`: AAAA-MM-JJ, AAAA-MM-JJ HH:MM (or with T), or HH:MM / 21h14 meaning today; local time."""
    raw = str(text).strip()
    local = (today or datetime.now().astimezone())
    try:
        clock_only = re.fullmatch(r"(\d{1,2})\s*(?:[:h]\s*(\d{2})?)", raw)
        if clock_only:
            moment = local.replace(hour=int(clock_only.group(1)), minute=int(clock_only.group(2) or 0), second=0,
                                   microsecond=0)
        else:
            moment = datetime.fromisoformat(raw)
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
                moment = moment.replace(hour=0, minute=0)
        return moment if moment.tzinfo else moment.replace(tzinfo=local.tzinfo)
    except ValueError:
        raise UserError(f"--since « {raw} » invalide ; attendu une date AAAA-MM-JJ, une date et une heure "
                        "AAAA-MM-JJ HH:MM, ou une heure d'aujourd'hui HH:MM") from None


def select(entries: list[Entry], player: str | None = None, since: str | None = None) -> list[Entry]:
    """The entries concerning `player` (names compared without case or accents), recorded from `since` on."""
    if player is not None:
        entries = [e for e in entries if any(same_player(p.name, player) for p in e.players)]
    if since is not None:
        start = parse_since(since)
        entries = [e for e in entries if datetime.fromisoformat(e.recorded_at) >= start]
    return entries


# -- what the journal knows about a player ------------------------------------------------------------

def same_player(a: str, b: str) -> bool:
    """Two names (of players or events) that are the same but for case, accents and spaces."""
    return " ".join(fold(a).split()) == " ".join(fold(b).split())


def player_history(entries: list[Entry], player: str, book: str) -> list[Entry]:
    """The player's rulings of `book` still standing (not cancelled), oldest first."""
    return [e for e in entries if not e.cancelled and e.book == book and any(same_player(p.name, player) for p in e.players)]


def fault_label(kb, book: str, fault: str | None) -> str:
    """The words of fault id `fault` in its book (the id itself when no procedure names it)."""
    if not fault:
        return ""
    for proc in kb.procedures:
        if proc.book == book and fault in proc.faults:
            return proc.faults[fault]
    return fault


def is_ladder(procedure: Procedure) -> bool:
    """A sanction ladder: it asks for the player's earlier sanctions."""
    return any(q.journal and q.journal.get("recall") in LADDER_RECALLS for q in procedure.questions.values())


def is_occurrence(entry: Entry) -> bool:
    """The entry records a fault itself (a ladder's entry carries the fault it sanctioned, taken from another)."""
    return bool(entry.fault) and "fault" not in entry.sources


def unsanctioned_fault(procedure: Procedure, history: list[Entry]) -> tuple[Entry | None, Entry | None]:
    """The fault a ladder is about to sanction, or why there is none.

    The player's latest ruling that recorded a fault is the candidate; it is sanctioned already
    when a standing sanction of this ladder answers it, or is for the same fault and came after it.
    Returns (the fault entry, None), (None, the sanction that already answers it), or (None, None)."""
    source = next((e for e in reversed(history) if is_occurrence(e) and e.procedure != procedure.id), None)
    if source is None:
        return None, None
    taken = [e for e in history if e.procedure == procedure.id
             and (e.answers_entry == source.id or (e.fault == source.fault and e.id > source.id))]
    return (None, taken[-1]) if taken else (source, None)


def entry_fault(procedure: Procedure, decision: Decision, history: list[Entry]) -> tuple[str | None, list[int], int | None]:
    """The fault a new entry records, the entries it was taken from, and (a ladder) the fault entry it
    sanctions: a ladder sanctions the latest fault not yet sanctioned."""
    if decision.rule is not None and decision.rule.fault:
        return decision.rule.fault, [], None
    if is_ladder(procedure):
        source, taken = unsanctioned_fault(procedure, history)
        if source is not None:
            return source.fault, [source.id], source.id
        if taken is not None:  # the TD answered himself for a fault already sanctioned: no fault claimed
            return taken.fault, [], None
    return None, [], None


def already_sanctioned(kb, procedure: Procedure, history: list[Entry]) -> str | None:
    """Why the ladder's journal answer is withheld: the player's latest fault already has its sanction."""
    _, taken = unsanctioned_fault(procedure, history)
    if taken is None:
        return None
    fault = next(e for e in reversed(history) if is_occurrence(e) and e.procedure != procedure.id)
    return (f"la dernière faute relevée pour ce joueur (« {fault_label(kb, procedure.book, fault.fault)} » {at(fault)}) "
            f"est déjà sanctionnée : {taken.outcome.replace('-', ' ')} {at(taken)} ; une faute ne monte l'échelle "
            "qu'une fois : enregistrez la nouvelle faute d'abord, ou répondez vous-même")


def claim_fault(procedure: Procedure, entry: Entry, player: str):
    """The check `Journal.record` runs inside its write transaction for a ladder sanction: the fault it
    answers must still be unsanctioned (another terminal may just have sanctioned it)."""
    def check(entries: list[Entry]) -> None:
        history = player_history(entries, player, entry.book)
        source, taken = unsanctioned_fault(procedure, history)
        if source is None or source.id != entry.answers_entry:
            by = f" par la décision n° {taken.id} ({taken.outcome})" if taken is not None else ""
            raise JournalError(f"la faute n° {entry.answers_entry} vient d'être sanctionnée{by}, sur un autre poste ; "
                               "une faute ne monte l'échelle qu'une fois")
    return check


@dataclass
class Recalled:
    """An answer the journal gives to a question, why (in French), and the entries it rests on."""

    question: str
    value: object
    text: str
    sources: list[int] = field(default_factory=list)


def clock(stamp: str, today: str | None = None) -> str:
    """« 21 h 14 », with the day when it is not today's."""
    moment = datetime.fromisoformat(stamp)
    day = "" if moment.date().isoformat() == (today or datetime.now().astimezone().date().isoformat()) \
        else f"le {moment:%d/%m} "
    return f"{day}{moment:%H} h {moment:%M}"


def at(entry: Entry) -> str:
    """« à 21 h 14, table 3 (n° 2) »."""
    table = f", table {entry.table}" if entry.table is not None else ""
    return f"à {clock(entry.recorded_at)}{table} (n° {entry.id})"


def sanction_text(kb, entry: Entry) -> str:
    """« avertissement à 21 h 14, table 3 (n° 2) pour « annonce hors de son tour » »."""
    what = f"{entry.outcome.replace('-', ' ')} {at(entry)}"
    return what + (f" pour « {fault_label(kb, entry.book, entry.fault)} »" if entry.fault else "")


def recall(kb, procedure: Procedure, question: Question, history: list[Entry]) -> Recalled | None:
    """The journal's answer to `question` for the player whose rulings are `history`, or None when the
    journal cannot tell (the question is then asked as usual)."""
    spec = question.journal
    if not spec:
        return None
    kind = spec.get("recall")
    if kind == "same-fault":
        label = fault_label(kb, procedure.book, spec["fault"])
        earlier = [e for e in history if is_occurrence(e) and e.fault == spec["fault"]]
        if not earlier:
            return Recalled(question.id, False, f"aucune faute « {label} » relevée pour ce joueur dans cet événement")
        return Recalled(question.id, True, f"« {label} » déjà relevé " + " ; ".join(at(e) for e in earlier[-3:]),
                        [e.id for e in earlier])
    sanctions = [e for e in history if e.procedure == procedure.id]
    if kind == "any-sanction":
        if not sanctions:
            return Recalled(question.id, False, "aucune sanction pour ce joueur dans cet événement")
        return Recalled(question.id, True, " ; ".join(sanction_text(kb, e) for e in sanctions[-3:]),
                        [e.id for e in sanctions])
    # last-sanction: the step of the latest sanction for the same fault as the one now sanctioned,
    # only when that fault was recorded after it (else the journal would count one fault twice)
    source, _ = unsanctioned_fault(procedure, history)
    if source is None:
        return None
    steps = spec.get("steps") or {}
    label = fault_label(kb, procedure.book, source.fault)
    same = [e for e in sanctions if e.fault == source.fault and e.outcome in steps]
    if not same:
        return Recalled(question.id, spec["none"], f"aucune sanction pour « {label} » ; faute relevée {at(source)}",
                        [source.id])
    last = same[-1]
    return Recalled(question.id, steps[last.outcome],
                    f"{sanction_text(kb, last)}, faute de nouveau relevée {at(source)}", [last.id, source.id])


# -- replay ---------------------------------------------------------------------------------------------

@dataclass
class Replayed:
    """A recorded ruling given again on the current base: what would change, in French."""

    entry: Entry
    changes: list[str]
    outcome: str | None = None
    decision: str | None = None
    why_no_decision: str | None = None  # when no new decision can be computed

    @property
    def changed(self) -> bool:
        return bool(self.changes)

    def to_json(self) -> dict:
        return {"id": self.entry.id, "event": self.entry.event, "book": self.entry.book,
                "procedure": self.entry.procedure, "outcome_old": self.entry.outcome, "outcome_new": self.outcome,
                "decision_old": self.entry.decision, "decision_new": self.decision, "changes": list(self.changes),
                "decision_new_missing": self.why_no_decision}


def replay_entry(kb, entry: Entry) -> Replayed:
    """Decide `entry` again from its recorded answers and compare outcome, decision and cited texts."""
    changes: list[str] = []
    for cited in entry.citations:
        clause = kb.find(cited.citation)
        if clause is None:
            changes.append(f"{cited.citation} n'existe plus")
        elif text_hash(clause.full_text) != cited.hash:
            changes.append(f"texte de {cited.citation} modifié")
    proc = next((p for p in kb.procedures if p.book == entry.book and p.id == entry.procedure), None)
    if proc is None:
        why = f"la procédure {entry.book}:{entry.procedure} n'existe plus"
        return Replayed(entry, changes + [why], why_no_decision=why)
    try:
        values = normalise_answers(proc, entry.answers)
        try:
            decision = decide_procedure(kb, proc, values)
        except StaleCitationError as e:  # said, then decided on the new text all the same: what it would say
            changes.append(str(e)[0].lower() + str(e)[1:])
            decision = decide_procedure(kb, proc, values, allow_stale=True)
    except UserError as e:
        why = str(e)[0].lower() + str(e)[1:]
        return Replayed(entry, changes + [why], why_no_decision=why)
    if not decision.decided:
        why = "il faut maintenant répondre aussi à : " + ", ".join(q.id for q in decision.missing)
        return Replayed(entry, changes + [why], why_no_decision=why)
    if decision.outcome != entry.outcome:
        changes.append(f"issue {entry.outcome} → {decision.outcome}")
    elif decision.decision != entry.decision:
        changes.append("texte de la décision modifié")
    old_cites = [c.citation for c in entry.citations]
    new_cites = [c.citation for c in decision.citations]
    if sorted(old_cites) != sorted(new_cites):
        changes.append(f"règles citées : {', '.join(old_cites) or '(aucune)'} → {', '.join(new_cites) or '(aucune)'}")
    return Replayed(entry, changes, decision.outcome, decision.decision)


def entries_from_json(data, where: str) -> list[Entry]:
    """The entries of a `ruling journal --json` export (a published event log), or a French error."""
    try:
        return [Entry(id=int(e["id"]), recorded_at=str(e["recorded_at"]), event=str(e["event"]), table=e.get("table"),
                      players=[Player(str(p)) for p in e.get("players") or []], book=str(e["book"]),
                      revision=str(e["revision"]), kb_digest=str(e.get("kb_digest") or ""),
                      procedure=str(e["procedure"]), outcome=str(e["outcome"]), decision=str(e["decision"]),
                      answers=dict(e["answers"]), replay=str(e.get("replay") or ""), note=e.get("note"),
                      overridden=dict(e.get("overridden") or {}),
                      citations=[Citation(str(c["citation"]), str(c["hash"]), "") for c in e.get("citations") or []])
                for e in data["entries"]]
    except (KeyError, TypeError, ValueError, AttributeError):
        raise UserError(f"{where} n'est pas un export de « ruling journal --json » ({{\"entries\": [...]}})") from None


def replay(kb, entries: list[Entry]) -> list[Replayed]:
    """Every standing entry given again on `kb`, oldest first."""
    return [replay_entry(kb, e) for e in entries if not e.cancelled]
