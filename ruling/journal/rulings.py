"""Between the engine and the event journal: a decision as an entry, answers the journal gives
(the sanction ladder that remembers), and the replay of recorded rulings against today's base.

« Même faute » is never guessed from text: a rule declares the fault it records (`fault:`), and a
question declares how the journal answers it (`journal: recall: …`, see docs/PROCEDURES.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ruling.decide.engine import Decision, decide_procedure, fold, normalise_answers
from ruling.errors import UserError
from ruling.journal.store import Citation, Entry, Player
from ruling.decide.procedures import Procedure, Question, text_hash

LADDER_RECALLS = ("last-sanction", "any-sanction")


# -- a decision as an entry ------------------------------------------------------------------------

def entry_for(kb, decision: Decision, event: str, *, table=None, players=(), note=None, fault=None,
              sources=None) -> Entry:
    """The journal entry of a decided ruling: pinned to the book's revision, the base's digest and the
    hashes of the texts read at the table."""
    book = kb.book(decision.book)
    return Entry(event=event, book=decision.book, revision=book.current.id, kb_digest=kb.digest or "",
                 procedure=decision.procedure.id, outcome=decision.outcome, decision=decision.decision,
                 answers={k: v for k, v in decision.answers.items()}, replay=decision.replay_command(),
                 citations=[Citation(c.citation, text_hash(c.full_text), c.full_text) for c in decision.citations],
                 players=list(players), table=table, note=note, fault=fault, sources=dict(sources or {}))


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
    import re

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
    return " ".join(fold(a).split()) == " ".join(fold(b).split())


def player_history(entries: list[Entry], player: str, book: str) -> list[Entry]:
    """The player's rulings of `book` still standing (not cancelled), oldest first."""
    return [e for e in entries if not e.cancelled and e.book == book and any(same_player(p.name, player) for p in e.players)]


def fault_label(kb, book: str, fault: str) -> str:
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


def sanctioned_fault(procedure: Procedure, history: list[Entry]) -> Entry | None:
    """The fault a ladder is about to sanction: the player's latest ruling that recorded a fault."""
    return next((e for e in reversed(history) if is_occurrence(e) and e.procedure != procedure.id), None)


def entry_fault(procedure: Procedure, decision: Decision, history: list[Entry]) -> tuple[str | None, list[int]]:
    """The fault a new entry records, and the entry it was taken from (a ladder sanctions the latest fault)."""
    if decision.rule is not None and decision.rule.fault:
        return decision.rule.fault, []
    if is_ladder(procedure):
        source = sanctioned_fault(procedure, history)
        if source is not None:
            return source.fault, [source.id]
    return None, []


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
    # last-sanction: the step of the latest sanction for the same fault as the one now sanctioned
    source = sanctioned_fault(procedure, history)
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

    @property
    def changed(self) -> bool:
        return bool(self.changes)

    def to_json(self) -> dict:
        return {"id": self.entry.id, "event": self.entry.event, "book": self.entry.book,
                "procedure": self.entry.procedure, "outcome_old": self.entry.outcome, "outcome_new": self.outcome,
                "decision_old": self.entry.decision, "decision_new": self.decision, "changes": list(self.changes)}


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
        return Replayed(entry, changes + [f"la procédure {entry.book}:{entry.procedure} n'existe plus"])
    try:
        decision = decide_procedure(kb, proc, normalise_answers(proc, entry.answers))
    except UserError as e:
        return Replayed(entry, changes + [str(e)[0].lower() + str(e)[1:]])
    if not decision.decided:
        return Replayed(entry, changes + ["il faut maintenant répondre aussi à : " + ", ".join(q.id for q in decision.missing)])
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
                      citations=[Citation(str(c["citation"]), str(c["hash"]), "") for c in e.get("citations") or []])
                for e in data["entries"]]
    except (KeyError, TypeError, ValueError, AttributeError):
        raise UserError(f"{where} n'est pas un export de « ruling journal --json » ({{\"entries\": [...]}})") from None


def replay(kb, entries: list[Entry]) -> list[Replayed]:
    """Every standing entry given again on `kb`, oldest first."""
    return [replay_entry(kb, e) for e in entries if not e.cancelled]
