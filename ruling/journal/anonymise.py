"""The anonymised export of an event, for publication: players' names become « table 1, siège 4 »
labels, in the players and in the notes. The journal itself is never rewritten (the names stay on
the TD's machine, and an export can be made again, with another choice, at any time).
"""
from __future__ import annotations

import re
from dataclasses import replace

from ruling.decide.engine import fold
from ruling.journal.store import Entry, Player

#: Name parts too common to stand for a player on their own (« Jean de La Fontaine » → « de »).
PARTICLES = {"de", "du", "des", "la", "le", "les", "d", "l", "van", "von", "der", "den", "di", "da", "del", "y", "e"}


def _key(name: str) -> str:
    return " ".join(fold(name).split())


def player_labels(entries: list[Entry]) -> dict[tuple, str]:
    """(table, name folded) -> its label: « table 1, siège 4 », « table 1, joueur 2 » (seat unknown),
    « siège 4 » / « joueur 2 » when the table is unknown. Players at different tables never share a
    label; two names at one seat get « (2) », « (3) »."""
    seats: dict[tuple, int] = {}
    order: list[tuple] = []
    for entry in entries:
        for p in entry.players:
            key = (entry.table, _key(p.name))
            if key not in seats and key not in order:
                order.append(key)
            if p.seat is not None:
                seats.setdefault(key, p.seat)
    labels: dict[tuple, str] = {}
    numbers: dict[object, int] = {}
    used: dict[str, int] = {}
    for key in order:
        table = key[0]
        where = f"table {table}, " if table is not None else ""
        if key in seats:
            label = f"{where}siège {seats[key]}"
        else:
            numbers[table] = numbers.get(table, 0) + 1
            label = f"{where}joueur {numbers[table]}"
        used[label] = used.get(label, 0) + 1
        labels[key] = label if used[label] == 1 else f"{label} ({used[label]})"
    return labels


def _name_patterns(players: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(text to find, label) for each name whole, then each of its parts (a first name alone too);
    the first player claiming a part keeps it."""
    whole, parts, seen = [], [], set()
    for name, label in players:
        if fold(name) not in seen:
            seen.add(fold(name))
            whole.append((name, label))
    for name, label in players:
        for part in re.split(r"[\s\-']+", name):
            if len(part) > 1 and part.lower() not in PARTICLES and fold(part) not in seen:
                seen.add(fold(part))
                parts.append((part, label))
    return whole + parts


def anonymise_note(note: str, players: list[tuple[str, str]]) -> str:
    """`note` with every player's name, whole or by its parts, replaced by « [label] » in one pass
    (so a label is never rewritten, and « qu'Élodie » becomes « qu'[table 1, siège 4] »)."""
    patterns = _name_patterns(players)
    if not patterns:
        return note
    by_text: dict[str, str] = {}
    for text, label in patterns:
        by_text.setdefault(text.casefold(), label)
    alternatives = sorted(by_text, key=len, reverse=True)
    regex = re.compile(r"(?<!\w)(" + "|".join(re.escape(t) for t in alternatives) + r")(?!\w)", re.IGNORECASE)
    return regex.sub(lambda m: f"[{by_text[m.group(1).casefold()]}]", note)


def anonymised(entries: list[Entry]) -> list[Entry]:
    """Copies of `entries` with labels for names; a note names its own entry's players first, then
    the event's others."""
    labels = player_labels(entries)
    everyone = []
    for entry in entries:
        for p in entry.players:
            everyone.append((p.name, labels[(entry.table, _key(p.name))]))
    out = []
    for entry in entries:
        own = [(p.name, labels[(entry.table, _key(p.name))]) for p in entry.players]
        note = anonymise_note(entry.note, own + everyone) if entry.note else entry.note
        out.append(replace(entry, note=note,
                           players=[Player(labels[(entry.table, _key(p.name))], p.seat) for p in entry.players]))
    return out
