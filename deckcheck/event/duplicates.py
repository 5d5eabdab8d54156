"""Duplicate registrations: the same player id, the same player name, or the same deck.

    dups = Duplicates()
    for row in rows:                      # as the registrations are checked
        dups.add(row.number, row.player, row.player_id, row.deck_hash)
    dups.done()
    dups.note(7)  # "same player id as #3 Alice; same deck as #3 Alice, #5 Bob"

A row is flagged when it shares a player id (digits compared, leading zeros dropped), a player
name (case, accents and punctuation ignored; only when the ids do not tell the two apart) or
the normalised deck (`deck_hash`) with another row. The keys of an event of a few thousand
rows are held and grouped here; past `HELD` rows they go to a private temporary SQLite
database (on disk past its small cache), so that flagging 100,000 registrations holds only
the groups found, never every key; the notes are made when asked, never stored.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3

_NOT_WORD = re.compile(r"[^\w]+")
_NOT_DIGIT = re.compile(r"\D")

#: The three ways two registrations can be the same, in the order their notes are written.
KINDS = (("idk", "same player id as "), ("namek", "same player name as "),
         ("hash", "same deck as "))
#: Rows handed to SQLite at once.
_BATCH = 1024
#: Rows whose keys are held and grouped in memory; past this many, they go to SQLite (as many
#: rows as `event.spool` holds: ~2 ms to group 4,000 here, ~30 ms through SQLite).
HELD = 8192


def name_key(name: str | None) -> str | None:
    """A player name as compared: case, accents, punctuation and spacing ignored."""
    if not name:
        return None
    if name.isascii():  # NFKD leaves it as it is, and it has no combining marks
        s = name.casefold()
    else:
        s = unicodedata.normalize("NFKD", name).casefold()
        s = "".join(c for c in s if not unicodedata.combining(c))
    s = " ".join(_NOT_WORD.sub(" ", s).split())
    return s or None


def id_key(player_id: str | None) -> str | None:
    """A player id as compared: its digits without leading zeros (else as a name)."""
    if not player_id:
        return None
    digits = _NOT_DIGIT.sub("", player_id)
    if digits:
        return digits.lstrip("0") or "0"
    return name_key(player_id)


def _blob(text: str | None) -> bytes | None:
    """Text as SQLite keeps it exactly (a file name that is not UTF-8 included)."""
    return None if text is None else text.encode("utf-8", "surrogatepass")


def _text(blob: bytes | None) -> str | None:
    return None if blob is None else blob.decode("utf-8", "surrogatepass")


class Duplicates:
    """The duplicate flags of one event's rows (numbered by `number`, each once)."""

    def __init__(self) -> None:
        self._db: sqlite3.Connection | None = None  # made past `HELD` rows
        self._done = False
        #: (number, player, id key, name key, deck hash) of each row not in the database
        self._pending: list[tuple[Any, ...]] = []
        #: per kind: the groups (row numbers, ascending), and each row's group (-1: none)
        self._groups: list[list[array[int]]] = [[] for _ in KINDS]
        self._of: list[array[int]] = [array("i") for _ in KINDS]
        self._labels: dict[int, str] = {}
        self._id_keys: dict[int, bytes | None] = {}  # rows in a name group: their id key

    def add(self, number: int, player: str | None, player_id: str | None,
            deck_hash: str | None) -> None:
        self._pending.append((number, _blob(player), _blob(id_key(player_id)),
                              _blob(name_key(player)), _blob(deck_hash)))
        if len(self._pending) >= (_BATCH if self._db is not None else HELD):
            self._flush()

    def _flush(self) -> None:
        if self._pending and not self._done:
            if self._db is None:
                import sqlite3  # only past `HELD` rows (~4 ms of an event's start-up)

                self._db = sqlite3.connect("")  # private, temporary
                self._db.execute("CREATE TABLE k (n INTEGER PRIMARY KEY, player BLOB, "
                                 "idk BLOB, namek BLOB, hash BLOB)")
            self._db.executemany("INSERT INTO k VALUES (?, ?, ?, ?, ?)", self._pending)
            self._pending = []

    def done(self) -> Duplicates:
        """Every row is in: find the groups (the keys are dropped)."""
        if self._done:
            return self
        self._done = True
        db, held = self._db, self._pending
        if db is not None:
            db.executemany("INSERT INTO k VALUES (?, ?, ?, ?, ?)", held)
            last = db.execute("SELECT max(n) FROM k").fetchone()[0] or 0
        else:
            last = max((row[0] for row in held), default=0)
        for k, (column, _) in enumerate(KINDS):
            self._of[k] = array("i", [-1]) * (last + 1)
            self._group_rows(k, column, self._shared(db, held, k, column))
        if db is not None:
            db.close()
            self._db = None
        self._pending = []
        return self

    @staticmethod
    def _shared(db: sqlite3.Connection | None, held: list[tuple[Any, ...]], k: int,
                column: str) -> Iterator[tuple[Any, ...]]:
        """(key, number, player, id key) of every row whose key of kind `k` another row has
        too, by key then number: from the database, or from the rows held."""
        if db is not None:
            yield from db.execute(
                f"SELECT {column}, n, player, idk FROM k WHERE {column} IN (SELECT "
                f"{column} FROM k WHERE {column} IS NOT NULL GROUP BY {column} HAVING "
                f"count(*) > 1) ORDER BY {column}, n")
            return
        by: dict[bytes, list[tuple[Any, ...]]] = {}
        at = 2 + k  # the key's place in a held row
        for row in held:
            key = row[at]
            if key is not None:
                by.setdefault(key, []).append(row)
        # bytes sort as SQLite sorts BLOBs; the numbers are unique, so nothing else compares
        yield from sorted((key, n, player, idk) for key, rows in by.items() if len(rows) > 1
                          for n, player, idk, *_ in rows)

    def _group_rows(self, k: int, column: str, shared: Iterable[tuple[Any, ...]]) -> None:
        """The groups of kind `k` from its rows that share a key (`_shared`)."""
        of, groups = self._of[k], self._groups[k]
        key: object = None
        for value, n, player, idk in shared:
            if value != key or not groups:
                key = value
                groups.append(array("i"))
            group = groups[-1]
            group.append(n)
            of[n] = len(groups) - 1
            if column == "namek":  # the names' notes look further into the group
                self._id_keys[n] = idk
            if column == "namek" or len(group) <= 4:
                player = _text(player)
                self._labels[n] = f"#{n} {player}" if player else f"#{n}"

    def _others(self, ns: list[int], count: int) -> str:
        shown = ", ".join(self._labels[m] for m in ns[:3])
        return shown + (f" and {count - 3} more" if count > 3 else "")

    def _group(self, k: int, n: int) -> array[int] | None:
        of = self._of[k]
        g = of[n] if 0 <= n < len(of) else -1
        return self._groups[k][g] if g >= 0 else None

    def note(self, n: int) -> str | None:
        """Why row `n` looks like a duplicate, or None."""
        notes = []
        same_id = self._group(0, n)
        if same_id is not None:
            others = [m for m in same_id[:4] if m != n][:3]
            notes.append(KINDS[0][1] + self._others(others, len(same_id) - 1))
        same_name = self._group(1, n)
        if same_name is not None:
            mine = self._id_keys[n]
            ids = self._id_keys
            # Two people may share a name: only flag it when their ids do not differ.
            others = [m for m in same_name if m != n and (mine is None or ids[m] in (None, mine))
                      and not (same_id is not None and self._group(0, m) is same_id)]
            if others:
                notes.append(KINDS[1][1] + self._others(others, len(others)))
        same_deck = self._group(2, n)
        if same_deck is not None:
            others = [m for m in same_deck[:4] if m != n][:3]
            notes.append(KINDS[2][1] + self._others(others, len(same_deck) - 1))
        return "; ".join(notes) if notes else None

    def fill(self, row: Any) -> None:
        """Set `row.duplicate` (a `PlayerRow`) to its note."""
        row.duplicate = self.note(row.number)

    def flagged(self) -> int:
        """How many rows are flagged."""
        same_id, same_name, same_deck = self._of
        return sum(1 for n in range(len(same_id)) if same_id[n] >= 0 or same_deck[n] >= 0
                   or (same_name[n] >= 0 and self.note(n) is not None))


def flag(rows: Iterable[Any]) -> Duplicates:
    """The duplicates of `rows` (`PlayerRow`s, or anything with number, player, player_id and
    deck_hash)."""
    dups = Duplicates()
    for r in rows:
        dups.add(r.number, r.player, r.player_id, r.deck_hash)
    return dups.done()
