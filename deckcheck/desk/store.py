"""The desk's store: one SQLite file per event (WAL mode), every submission kept.

Tables: `meta` (the event's settings and the staff secret), `registrations` (one per player:
who, which submission was checked at the desk and by whom, reopened, a version for
optimistic locking), `submissions` (every deck a player sent, with its verdict, report and
the bytes as received, the browser session that sent it and the public code of its page)
and `events` (what staff did to a registration: checked, renamed, deck checks with their
diff). A submission is committed (synchronous=FULL) before the desk answers, so a crash or
restart loses nothing that was accepted. Staff edits name the version they saw; a stale edit
is refused, never written over a colleague's. A store written by an older desk is brought
up to date in one transaction when it is opened (`SCHEMA_VERSION`).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import secrets
import sqlite3
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckcheck.clock import now_utc

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS registrations (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    player TEXT,
    player_id TEXT,
    created_at TEXT NOT NULL,
    checked_at TEXT,
    note TEXT NOT NULL DEFAULT '',
    reopened INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY,
    registration_id INTEGER NOT NULL REFERENCES registrations(id),
    nonce TEXT UNIQUE,
    receipt TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    origin TEXT NOT NULL,
    label TEXT NOT NULL,
    raw BLOB NOT NULL,
    deck_json TEXT NOT NULL,
    report_json TEXT NOT NULL,
    verdict TEXT NOT NULL,
    problem_count INTEGER NOT NULL,
    deck_hash TEXT,
    late INTEGER NOT NULL DEFAULT 0,
    client TEXT
);
CREATE INDEX IF NOT EXISTS submissions_by_registration ON submissions(registration_id, id);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    registration_id INTEGER NOT NULL REFERENCES registrations(id),
    at TEXT NOT NULL,
    who TEXT NOT NULL,
    action TEXT NOT NULL,
    submission_id INTEGER,
    detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS events_by_registration ON events(registration_id, id);
"""

#: The store's layout: 1 = the first desk; 2 = checked marks belong to a submission,
#: submissions have a public code and a session, staff events are kept.
SCHEMA_VERSION = 2
#: Columns added in version 2: (table, column, declaration).
_ADDED = [
    ("registrations", "checked_submission", "INTEGER"),
    ("registrations", "checked_by", "TEXT"),
    ("submissions", "public", "TEXT"),
    ("submissions", "session", "TEXT"),
]

#: Receipt codes: 8 characters without look-alikes (no 0/O, 1/I/L), shown as ABCD-EFGH.
RECEIPT_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


class StoreError(Exception):
    """The event store cannot be used."""


class Conflict(Exception):
    """Someone else changed this registration since it was shown."""


def new_public() -> str:
    """The code in a receipt page's address: long and random, and no key to anything."""
    return secrets.token_urlsafe(12)


def new_receipt() -> str:
    code = "".join(secrets.choice(RECEIPT_ALPHABET) for _ in range(8))
    return f"{code[:4]}-{code[4:]}"


def normalize_receipt(text: str) -> str:
    s = re.sub(r"[^0-9A-Za-z]", "", text).upper()
    return f"{s[:4]}-{s[4:]}" if len(s) == 8 else s


def name_key(name: str | None) -> str:
    if not name:
        return ""
    s = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", s).split())


def id_key(player_id: str | None) -> str:
    if not player_id:
        return ""
    digits = re.sub(r"\D", "", player_id)
    return (digits.lstrip("0") or "0") if digits else name_key(player_id)


def registration_key(player: str | None, player_id: str | None) -> str:
    """A registration is one player: the same CARD GAME ID under the same name."""
    return f"{id_key(player_id)}|{name_key(player)}"


@dataclass(frozen=True)
class Registration:
    id: int
    player: str | None
    player_id: str | None
    created_at: str
    checked_at: str | None
    note: str
    reopened: bool
    version: int
    #: The submission that was checked at the desk (the mark belongs to that list only).
    checked_submission: int | None = None
    checked_by: str | None = None


@dataclass(frozen=True)
class Event:
    """One thing staff did to a registration (or a deck check), for its history."""

    id: int
    registration_id: int
    at: str
    who: str
    action: str  # checked, unchecked, renamed, deck-check, reopened, closed, note
    submission_id: int | None
    detail: str


@dataclass(frozen=True)
class Submission:
    id: int
    registration_id: int
    receipt: str
    created_at: str
    origin: str  # "upload", "paste" or "import"
    label: str
    deck_json: str
    report_json: str
    verdict: str
    problem_count: int
    deck_hash: str | None
    late: bool
    public: str = ""
    session: str | None = None


_REG = ("id, player, player_id, created_at, checked_at, note, reopened, version, "
        "checked_submission, checked_by")
_SUB = ("id, registration_id, receipt, created_at, origin, label, deck_json, report_json, "
        "verdict, problem_count, deck_hash, late, public, session")
_EVENT = "id, registration_id, at, who, action, submission_id, detail"


def _reg(row: tuple[Any, ...]) -> Registration:
    return Registration(int(row[0]), row[1], row[2], str(row[3]), row[4],
                        str(row[5]), bool(row[6]), int(row[7]), row[8], row[9])


def _sub(row: tuple[Any, ...]) -> Submission:
    return Submission(int(row[0]), int(row[1]), str(row[2]), str(row[3]),
                      str(row[4]), str(row[5]), str(row[6]), str(row[7]), str(row[8]),
                      int(row[9]), row[10], bool(row[11]), str(row[12] or ""), row[13])


def _event(row: tuple[Any, ...]) -> Event:
    return Event(int(row[0]), int(row[1]), str(row[2]), str(row[3]), str(row[4]), row[5],
                 str(row[6]))


def _migrate(db: sqlite3.Connection) -> None:
    """Bring a store of an older layout up to `SCHEMA_VERSION` (one transaction: a crash
    half-way leaves the old store as it was)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is not None and int(row[0]) >= SCHEMA_VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for table, column, decl in _ADDED:
            have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
        for (sub_id,) in db.execute("SELECT id FROM submissions WHERE public IS NULL"
                                    ).fetchall():
            db.execute("UPDATE submissions SET public = ? WHERE id = ?", (new_public(), sub_id))
        # a mark made before marks belonged to a list: the list sent last before it was made
        db.execute("UPDATE registrations SET checked_submission = (SELECT max(s.id) FROM "
                   "submissions s WHERE s.registration_id = registrations.id AND "
                   "s.created_at <= registrations.checked_at) WHERE checked_at IS NOT NULL "
                   "AND checked_submission IS NULL")
        db.execute("CREATE UNIQUE INDEX IF NOT EXISTS submissions_by_public ON "
                   "submissions(public)")
        db.execute("INSERT INTO meta(key, value) VALUES ('schema', ?) ON CONFLICT(key) DO "
                   "UPDATE SET value = excluded.value", (str(SCHEMA_VERSION),))
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _create_private(path: Path) -> None:
    """Create the store file readable and writable by its owner only (it holds the staff
    token, the signing secret and players' data); an existing one is made so too."""
    if str(path) == ":memory:":
        return
    try:
        fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
        os.close(fd)
        os.chmod(path, 0o600)
    except OSError:
        pass  # sqlite3 says what is wrong with the path, in the caller's sentence


class Store:
    """One event's SQLite file. Thread-safe: one connection, one lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            _create_private(self.path)
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30,
                                       isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            _migrate(self._db)
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path} cannot be opened as the event's store ({exc}); give "
                             "--store a file in a folder you may write.") from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a desk store ({exc}); give --store a new "
                             "file name or the .db file of this event.") from None
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _query(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._db.execute(sql, args).fetchall())

    # --- event settings ----------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._tx() as db:
            db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE "
                       "SET value = excluded.value", (key, value))

    def meta_default(self, key: str, make: str) -> str:
        """The stored value of `key`, storing `make` first if there is none."""
        with self._tx() as db:
            row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            if row is not None:
                return str(row[0])
            db.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (key, make))
            return make

    def set_meta_versioned(self, values: dict[str, str], version: int) -> int:
        """Set event settings if their version is still `version`; the new version."""
        with self._tx() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'settings_version'").fetchone()
            current = int(row[0]) if row else 1
            if current != version:
                raise Conflict
            for k, v in values.items():
                db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO "
                           "UPDATE SET value = excluded.value", (k, v))
            db.execute("INSERT INTO meta(key, value) VALUES ('settings_version', ?) ON "
                       "CONFLICT(key) DO UPDATE SET value = excluded.value", (str(current + 1),))
            return current + 1

    # --- submissions -------------------------------------------------------------------------

    def find_registration(self, player: str | None, player_id: str | None
                          ) -> Registration | None:
        rows = self._query(f"SELECT {_REG} FROM registrations WHERE key = ?",
                           (registration_key(player, player_id),))
        return _reg(rows[0]) if rows else None

    def by_nonce(self, nonce: str) -> Submission | None:
        rows = self._query(f"SELECT {_SUB} FROM submissions WHERE nonce = ?", (nonce,))
        return _sub(rows[0]) if rows else None

    def add_submission(self, *, player: str | None, player_id: str | None, origin: str,
                       label: str, raw: bytes, deck_json: str, report_json: str, verdict: str,
                       problem_count: int, deck_hash: str | None, late: bool = False,
                       client: str | None = None, nonce: str | None = None,
                       session: str | None = None,
                       created_at: dt.datetime | None = None) -> Submission:
        """Store one submission (and its registration if new), committed before returning.
        A nonce already stored returns that submission: a form sent twice is stored once
        (callers bind the nonce to the browser session that got the form)."""
        when = (created_at or now_utc()).isoformat(timespec="seconds")
        key = registration_key(player, player_id)
        with self._tx() as db:
            if nonce is not None:
                row = db.execute(f"SELECT {_SUB} FROM submissions WHERE nonce = ?",
                                 (nonce,)).fetchone()
                if row is not None:
                    return _sub(row)
            row = db.execute("SELECT id FROM registrations WHERE key = ?", (key,)).fetchone()
            if row is None:
                reg_id = db.execute(
                    "INSERT INTO registrations(key, player, player_id, created_at) VALUES "
                    "(?, ?, ?, ?)", (key, player, player_id, when)).lastrowid
            else:
                reg_id = row[0]
                # a new list changes what staff see: a page opened before it is stale
                db.execute("UPDATE registrations SET player = ?, player_id = ?, version = "
                           "version + 1 WHERE id = ?", (player, player_id, reg_id))
            while True:
                receipt = new_receipt()
                if db.execute("SELECT 1 FROM submissions WHERE receipt = ?",
                              (receipt,)).fetchone() is None:
                    break
            cur = db.execute(
                "INSERT INTO submissions(registration_id, nonce, receipt, created_at, origin, "
                "label, raw, deck_json, report_json, verdict, problem_count, deck_hash, late, "
                "client, public, session) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "?)",
                (reg_id, nonce, receipt, when, origin, label, raw, deck_json, report_json,
                 verdict, problem_count, deck_hash, int(late), client, new_public(), session))
            row = db.execute(f"SELECT {_SUB} FROM submissions WHERE id = ?",
                             (cur.lastrowid,)).fetchone()
            return _sub(row)

    def by_public(self, public: str) -> Submission | None:
        rows = self._query(f"SELECT {_SUB} FROM submissions WHERE public = ?", (public,))
        return _sub(rows[0]) if rows else None

    def submission(self, receipt: str) -> Submission | None:
        rows = self._query(f"SELECT {_SUB} FROM submissions WHERE receipt = ?",
                           (normalize_receipt(receipt),))
        return _sub(rows[0]) if rows else None

    def submission_by_id(self, sub_id: int) -> Submission | None:
        rows = self._query(f"SELECT {_SUB} FROM submissions WHERE id = ?", (sub_id,))
        return _sub(rows[0]) if rows else None

    def raw(self, sub_id: int) -> bytes:
        rows = self._query("SELECT raw FROM submissions WHERE id = ?", (sub_id,))
        return bytes(rows[0][0]) if rows else b""

    def history(self, registration_id: int) -> list[Submission]:
        return [_sub(r) for r in self._query(
            f"SELECT {_SUB} FROM submissions WHERE registration_id = ? ORDER BY id",
            (registration_id,))]

    def all_submissions(self, *, light: bool = False) -> list[Submission]:
        """Every submission; `light`: without its deck and report (empty strings), for lists
        of thousands that need neither (`submission_by_id` has them)."""
        cols = _SUB.replace("deck_json, report_json", "'', ''") if light else _SUB
        return [_sub(r) for r in self._query(f"SELECT {cols} FROM submissions ORDER BY id")]

    def count_submissions(self) -> int:
        return int(self._query("SELECT count(*) FROM submissions")[0][0])

    # --- registrations ------------------------------------------------------------------------

    def registration(self, reg_id: int) -> Registration | None:
        rows = self._query(f"SELECT {_REG} FROM registrations WHERE id = ?", (reg_id,))
        return _reg(rows[0]) if rows else None

    def registrations(self) -> list[Registration]:
        return [_reg(r) for r in self._query(f"SELECT {_REG} FROM registrations ORDER BY id")]

    def update_registration(self, reg_id: int, version: int, *, who: str = "staff",
                            checked: int | None = None, unchecked: bool = False,
                            note: str | None = None, reopened: bool | None = None,
                            player: str | None = None, player_id: str | None = None,
                            when: dt.datetime | None = None) -> Registration:
        """Change what staff may change, only if nobody changed it since `version`, and keep
        it in the registration's history. `checked` is the id of the submission checked at
        the desk (the mark belongs to that list); a new name or CARD GAME ID that another
        registration already has raises ValueError."""
        at = (when or now_utc()).isoformat(timespec="seconds")
        sets: list[str] = []
        args: list[object] = []
        events: list[tuple[str, int | None, str]] = []
        if checked is not None:
            sets += ["checked_at = ?", "checked_submission = ?", "checked_by = ?"]
            args += [at, checked, who]
            events.append(("checked", checked, ""))
        if unchecked:
            sets += ["checked_at = NULL", "checked_submission = NULL", "checked_by = NULL"]
            events.append(("unchecked", None, ""))
        if note is not None:
            sets.append("note = ?")
            args.append(note)
            events.append(("note", None, note))
        if reopened is not None:
            sets.append("reopened = ?")
            args.append(int(reopened))
            events.append(("reopened" if reopened else "closed", None, ""))
        with self._tx() as db:
            old = db.execute(f"SELECT {_REG} FROM registrations WHERE id = ?",
                             (reg_id,)).fetchone()
            if old is None or int(old[7]) != version:
                raise Conflict
            if player is not None or player_id is not None:
                new_player = old[1] if player is None else player
                new_id = old[2] if player_id is None else (player_id or None)
                key = registration_key(new_player, new_id)
                other = db.execute("SELECT id FROM registrations WHERE key = ? AND id != ?",
                                   (key, reg_id)).fetchone()
                if other is not None:
                    raise ValueError(f"registration #{other[0]} already has this name and "
                                     "CARD GAME ID")
                sets += ["player = ?", "player_id = ?", "key = ?"]
                args += [new_player, new_id, key]
                events.append(("renamed", None, f"{old[1] or '?'} {old[2] or '(no id)'} \u2192 "
                                                f"{new_player or '?'} {new_id or '(no id)'}"))
            assignments = ", ".join([*sets, "version = version + 1"])
            db.execute(f"UPDATE registrations SET {assignments} WHERE id = ?", (*args, reg_id))
            for action, sub_id, detail in events:
                db.execute("INSERT INTO events(registration_id, at, who, action, submission_id, "
                           "detail) VALUES (?, ?, ?, ?, ?, ?)",
                           (reg_id, at, who, action, sub_id, detail))
            row = db.execute(f"SELECT {_REG} FROM registrations WHERE id = ?",
                             (reg_id,)).fetchone()
            return _reg(row)

    def add_event(self, reg_id: int, *, who: str, action: str, submission_id: int | None,
                  detail: str, when: dt.datetime | None = None) -> None:
        """Keep something done to a registration (a deck check and its diff) in its history."""
        at = (when or now_utc()).isoformat(timespec="seconds")
        with self._tx() as db:
            db.execute("INSERT INTO events(registration_id, at, who, action, submission_id, "
                       "detail) VALUES (?, ?, ?, ?, ?, ?)",
                       (reg_id, at, who, action, submission_id, detail))

    def events(self, reg_id: int) -> list[Event]:
        return [_event(r) for r in self._query(
            f"SELECT {_EVENT} FROM events WHERE registration_id = ? ORDER BY id", (reg_id,))]
