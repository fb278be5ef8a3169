"""The event journal: every ruling given at an event, kept in one SQLite file on the TD's machine.

Append-only (triggers refuse to rewrite or delete an entry; cancelling adds a row), WAL mode so
several TDs can record at once, a schema version (`PRAGMA user_version`) with migrations, and
foreign keys on. Every SQLite failure becomes one French `JournalError` naming the file.
Standard library only: the CLI imports it inside the commands that record.
"""
from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ruling.errors import UserError, shown

LOCK_TIMEOUT = 15.0  # seconds a writer waits for another one before the journal counts as locked

_ENTRY_COLUMNS = ("recorded_at", "event_id", "table_number", "book", "revision", "kb_digest", "procedure",
                  "outcome", "fault", "decision", "answers", "replay", "sources")

# Each step brings the schema from version i to i + 1; never edit a released step, add one.
# (Step 1's `anonymisations` table is no longer written: --anonymise exports, the journal keeps its names.)
MIGRATIONS = [
    """
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
    );
    CREATE TABLE entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        recorded_at TEXT NOT NULL,
        event_id INTEGER NOT NULL REFERENCES events(id),
        table_number INTEGER,
        book TEXT NOT NULL,
        revision TEXT NOT NULL,
        kb_digest TEXT NOT NULL,
        procedure TEXT NOT NULL,
        outcome TEXT NOT NULL,
        fault TEXT,
        decision TEXT NOT NULL,
        answers TEXT NOT NULL,
        replay TEXT NOT NULL,
        sources TEXT NOT NULL DEFAULT '{}',
        note TEXT
    );
    CREATE INDEX entries_by_event ON entries(event_id, id);
    CREATE TABLE entry_players (
        entry_id INTEGER NOT NULL REFERENCES entries(id),
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        seat INTEGER,
        PRIMARY KEY (entry_id, position)
    );
    CREATE TABLE citations (
        entry_id INTEGER NOT NULL REFERENCES entries(id),
        position INTEGER NOT NULL,
        citation TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (entry_id, position)
    );
    CREATE TABLE cancellations (
        entry_id INTEGER PRIMARY KEY REFERENCES entries(id),
        cancelled_at TEXT NOT NULL
    );
    CREATE TABLE anonymisations (
        event_id INTEGER PRIMARY KEY REFERENCES events(id),
        anonymised_at TEXT NOT NULL
    );
    CREATE TRIGGER entries_keep BEFORE DELETE ON entries
        BEGIN SELECT RAISE(ABORT, 'journal en ajout seul'); END;
    CREATE TRIGGER entries_fixed BEFORE UPDATE OF id, {columns} ON entries
        BEGIN SELECT RAISE(ABORT, 'journal en ajout seul'); END;
    CREATE TRIGGER citations_keep BEFORE DELETE ON citations
        BEGIN SELECT RAISE(ABORT, 'journal en ajout seul'); END;
    CREATE TRIGGER citations_fixed BEFORE UPDATE ON citations
        BEGIN SELECT RAISE(ABORT, 'journal en ajout seul'); END;
    CREATE TRIGGER players_keep BEFORE DELETE ON entry_players
        BEGIN SELECT RAISE(ABORT, 'journal en ajout seul'); END;
    CREATE TRIGGER players_fixed BEFORE UPDATE OF entry_id, position, seat ON entry_players
        BEGIN SELECT RAISE(ABORT, 'journal en ajout seul'); END;
    CREATE TRIGGER cancellations_keep BEFORE DELETE ON cancellations
        BEGIN SELECT RAISE(ABORT, 'journal en ajout seul'); END;
    CREATE TRIGGER cancellations_fixed BEFORE UPDATE ON cancellations
        BEGIN SELECT RAISE(ABORT, 'journal en ajout seul'); END;
    """.replace("{columns}", ", ".join(_ENTRY_COLUMNS)),
    # 2: the fault entry a ladder sanction answers (one sanction per fault, even from 8 terminals at
    # once), and the journal's answers the TD overrode
    """
    ALTER TABLE entries ADD COLUMN answers_entry INTEGER REFERENCES entries(id);
    ALTER TABLE entries ADD COLUMN overridden TEXT NOT NULL DEFAULT '{}';
    CREATE INDEX entries_by_answered ON entries(answers_entry);
    CREATE TRIGGER entries_fixed_2 BEFORE UPDATE OF answers_entry, overridden ON entries
        BEGIN SELECT RAISE(ABORT, 'journal en ajout seul'); END;
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


class JournalError(UserError):
    """The journal cannot be read or written: locked, read-only, damaged, or from a newer ruling."""


def default_path() -> Path:
    """`$XDG_DATA_HOME/ruling/journal.sqlite3`, else `~/.local/share/ruling/journal.sqlite3`."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ruling" / "journal.sqlite3"


def now() -> str:
    """The local time with its offset, to the second: how every date is stored."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


@dataclass
class Player:
    """A player concerned by a ruling: a name as typed (in an anonymised export, a « table 1, siège 4 » label),
    and a seat if known."""

    name: str
    seat: int | None = None


@dataclass
class Citation:
    """A clause read at the table: its citation, the hash of its text then, and the text itself."""

    citation: str
    hash: str
    text: str


@dataclass
class Entry:
    """One recorded ruling. `id` and `recorded_at` are set by the journal (0 and "" until then: SQLite
    numbers rows from 1); `cancelled_at` by an undo."""

    event: str
    book: str
    revision: str
    kb_digest: str
    procedure: str
    outcome: str
    decision: str
    answers: dict
    replay: str
    citations: list[Citation] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    table: int | None = None
    fault: str | None = None
    note: str | None = None
    sources: dict = field(default_factory=dict)  # question id -> ids of the entries its answer came from
    answers_entry: int | None = None  # a ladder sanction: the fault entry it sanctions
    overridden: dict = field(default_factory=dict)  # question id -> the journal's answer the TD overrode
    id: int = 0
    recorded_at: str = ""
    cancelled_at: str | None = None

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None

    def to_json(self) -> dict:
        """The entry with the keys of `ruling journal --json` (issue 17), in that order."""
        return {"id": self.id, "recorded_at": self.recorded_at, "event": self.event, "table": self.table,
                "players": [p.name for p in self.players], "book": self.book, "revision": self.revision,
                "kb_digest": self.kb_digest, "procedure": self.procedure, "outcome": self.outcome,
                "decision": self.decision, "answers": dict(self.answers),
                "citations": [{"citation": c.citation, "hash": c.hash} for c in self.citations],
                "replay": self.replay, "note": self.note, "overridden": dict(self.overridden)}


class Journal:
    """An open journal file. Use as a context manager; every method raises `JournalError` on failure."""

    def __init__(self, path: str | os.PathLike, create: bool = True, make_folder: bool = True):
        """`create`: a missing file is created (`created` then says so); `make_folder`: so is its
        missing folder, else that is refused with a French line (a typo in --journal)."""
        self.path = Path(path)
        self._db = None
        self.created = False
        self.folder_created = False
        if not create and not self.path.exists():
            return  # nothing recorded yet: an empty journal, and no file created by reading it
        with self._errors():
            if create and not self.path.parent.is_dir():
                if not make_folder or self.path.parent.exists():
                    what = "n'est pas un dossier" if self.path.parent.exists() else "n'existe pas"
                    raise JournalError(f"le journal {shown(self.path)} ne peut pas être créé : le dossier "
                                       f"{shown(self.path.parent)} {what} ; créez-le ou choisissez un autre "
                                       "fichier avec --journal")
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.folder_created = True
            self.created = not self.path.exists()
            self._db = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT, isolation_level=None)
            self._db.execute("PRAGMA foreign_keys = ON")
            self._migrate()

    # -- opening --------------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        """The open database (a journal opened with `create=False` on a missing file has none)."""
        if self._db is None:
            raise JournalError(f"aucun journal à {shown(self.path)} ; rien n'y a encore été enregistré")
        return self._db

    def _migrate(self) -> None:
        db = self._connection()
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(f"le journal {shown(self.path)} vient d'une version plus récente de ruling (schéma "
                               f"{version}, celle-ci connaît {SCHEMA_VERSION}) ; mettez ruling à jour pour l'ouvrir")
        if version < SCHEMA_VERSION:
            if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                db.execute("PRAGMA journal_mode = WAL")
            db.execute("BEGIN IMMEDIATE")  # one process migrates; the others wait, then see the new version
            try:
                version = db.execute("PRAGMA user_version").fetchone()[0]
                for step in range(version, SCHEMA_VERSION):
                    for statement in _statements(MIGRATIONS[step]):
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _errors(self):
        return _SqliteErrors(self.path)

    # -- writing --------------------------------------------------------------------------------

    def record(self, entry: Entry, claim=None) -> int:
        """Append `entry` (its event created on first use); returns its number.

        `claim(entries)`, given the event's entries read inside the same write transaction (BEGIN
        IMMEDIATE: no other writer in between), may set `entry.answers_entry` or raise `JournalError`:
        "find the unsanctioned fault, record the sanction against it" is then one atomic step."""
        with self._errors():
            db = self._connection()
            db.execute("BEGIN IMMEDIATE")
            try:
                if claim is not None:
                    claim(self._select("WHERE ev.name = ?", (entry.event,)))
                entry.recorded_at = entry.recorded_at or now()
                db.execute("INSERT OR IGNORE INTO events (name, created_at) VALUES (?, ?)", (entry.event, entry.recorded_at))
                event_id = db.execute("SELECT id FROM events WHERE name = ?", (entry.event,)).fetchone()[0]
                values = (entry.recorded_at, event_id, entry.table, entry.book, entry.revision, entry.kb_digest,
                          entry.procedure, entry.outcome, entry.fault, entry.decision,
                          json.dumps(entry.answers, ensure_ascii=False), entry.replay,
                          json.dumps(entry.sources, ensure_ascii=False))
                cursor = db.execute(f"INSERT INTO entries ({', '.join(_ENTRY_COLUMNS)}, note, answers_entry, overridden) "
                                    f"VALUES ({', '.join('?' * len(values))}, ?, ?, ?)",
                                    (*values, entry.note, entry.answers_entry,
                                     json.dumps(entry.overridden, ensure_ascii=False)))
                entry_id = cursor.lastrowid
                assert entry_id is not None  # an INSERT always sets it
                entry.id = entry_id
                db.executemany("INSERT INTO entry_players (entry_id, position, name, seat) VALUES (?, ?, ?, ?)",
                               [(entry.id, k, p.name, p.seat) for k, p in enumerate(entry.players)])
                db.executemany("INSERT INTO citations (entry_id, position, citation, text_hash, text) VALUES (?, ?, ?, ?, ?)",
                               [(entry.id, k, c.citation, c.hash, c.text) for k, c in enumerate(entry.citations)])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return entry_id

    def cancel(self, entry_id: int) -> Entry:
        """Mark entry `entry_id` cancelled (it stays in the journal); a French error if unknown or already cancelled."""
        entry = self.entry(entry_id)
        if entry.cancelled_at is not None:
            raise JournalError(f"la décision n° {entry_id} est déjà annulée (le {_day_time(entry.cancelled_at)})")
        with self._errors():
            self._connection().execute("INSERT INTO cancellations (entry_id, cancelled_at) VALUES (?, ?)", (entry_id, now()))
        return self.entry(entry_id)

    # -- reading --------------------------------------------------------------------------------

    def events(self) -> list[str]:
        if self._db is None:
            return []
        with self._errors():
            return [r[0] for r in self._db.execute("SELECT name FROM events ORDER BY id")]

    def entry(self, entry_id: int) -> Entry:
        found = self._select("WHERE e.id = ?", (entry_id,))
        if not found:
            raise JournalError(f"aucune décision n° {entry_id} dans le journal {shown(self.path)}")
        return found[0]

    def entries(self, event: str | None = None) -> list[Entry]:
        """Every entry (of `event`), oldest first, cancelled ones included."""
        if event is None:
            return self._select("", ())
        return self._select("WHERE ev.name = ?", (event,))

    def _select(self, where: str, args: tuple) -> list[Entry]:
        if self._db is None:
            return []
        with self._errors():
            db = self._db
            rows = db.execute(
                "SELECT e.id, e.recorded_at, ev.name, e.table_number, e.book, e.revision, e.kb_digest, e.procedure, "
                "e.outcome, e.fault, e.decision, e.answers, e.replay, e.sources, e.note, c.cancelled_at, "
                "e.answers_entry, e.overridden "
                "FROM entries e JOIN events ev ON ev.id = e.event_id "
                f"LEFT JOIN cancellations c ON c.entry_id = e.id {where} ORDER BY e.id", args).fetchall()
            if not rows:
                return []
            ids = [r[0] for r in rows]
            marks = ", ".join("?" * len(ids))
            players: dict[int, list[Player]] = {}
            for entry_id, name, seat in db.execute(f"SELECT entry_id, name, seat FROM entry_players WHERE entry_id IN "
                                                   f"({marks}) ORDER BY entry_id, position", ids):
                players.setdefault(entry_id, []).append(Player(name, seat))
            cites: dict[int, list[Citation]] = {}
            for entry_id, citation, digest, text in db.execute(
                    f"SELECT entry_id, citation, text_hash, text FROM citations WHERE entry_id IN ({marks}) "
                    "ORDER BY entry_id, position", ids):
                cites.setdefault(entry_id, []).append(Citation(citation, digest, text))
        return [Entry(id=r[0], recorded_at=r[1], event=r[2], table=r[3], book=r[4], revision=r[5], kb_digest=r[6],
                      procedure=r[7], outcome=r[8], fault=r[9], decision=r[10], answers=json.loads(r[11]),
                      replay=r[12], sources=json.loads(r[13]), note=r[14], cancelled_at=r[15],
                      answers_entry=r[16], overridden=json.loads(r[17]),
                      players=players.get(r[0], []), citations=cites.get(r[0], [])) for r in rows]


def _statements(script: str) -> list[str]:
    """A migration script split into statements (triggers keep their inner `;`)."""
    out, buffer = [], ""
    for line in script.strip().splitlines():
        buffer += line + "\n"
        if sqlite3.complete_statement(buffer):
            out.append(buffer.strip())
            buffer = ""
    return out


def _day_time(stamp: str) -> str:
    moment = datetime.fromisoformat(stamp)
    return f"{moment:%d/%m/%Y} à {moment:%H} h {moment:%M}"


class _SqliteErrors:
    """Turns SQLite's exceptions into one French line about the journal file."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        return self

    def __exit__(self, kind, error, tb):
        if error is None or isinstance(error, JournalError):
            return False
        where = f"le journal {shown(self.path)}"
        text = str(error).lower()
        if isinstance(error, OSError):
            raise JournalError(f"{where} ne peut pas être créé (dossier {shown(self.path.parent)} impossible à créer) ; "
                               "choisissez un autre fichier avec --journal") from None
        if not isinstance(error, sqlite3.Error):
            return False
        if "locked" in text or "busy" in text:
            message = f"{where} est verrouillé par un autre programme ; réessayez dans un instant"
        elif "readonly" in text or "read-only" in text:
            message = f"{where} est en lecture seule ; rendez-le modifiable ou choisissez un autre fichier avec --journal"
        elif "unable to open" in text:
            message = f"{where} ne peut pas être ouvert ; vérifiez le dossier ou choisissez un autre fichier avec --journal"
        elif "not a database" in text or "malformed" in text or "corrupt" in text:
            message = f"{where} est endommagé (ce n'est pas une base SQLite lisible) ; mettez-le de côté et recommencez avec un nouveau fichier"
        elif "journal en ajout seul" in text:
            message = f"{where} n'accepte que des ajouts : une décision enregistrée ne se modifie pas (annulez-la avec --undo)"
        else:
            message = f"{where} est inutilisable ({shown(str(error))})"
        raise JournalError(message) from None
