"""The card store: one SQLite file holding the merged pool and every source's records.

Layout (schema version `SCHEMA`, in ``PRAGMA user_version``; ``PRAGMA application_id`` marks
the file as deckcheck's):

- ``cards``: passcode, name, konami_id, rule_name (indexed), the card as a JSON blob and its
  compact form (what a check reads, `compact.stored_facts`),
- ``ids``: every id a card answers to (its passcode, alternate artworks, prerelease ids),
- ``names``: normalised name in any language -> passcode,
- ``sources`` and ``source_records``: what each source said, so importing another source
  re-merges everything,
- ``meta``: when the pool was built.

This module is the store's reading side: its layout (`SCHEMA`, `DDL`…), `connect`,
`store_info` and `StorePool`, which answers the `CardPool` protocol lazily from the file,
caching what it loads. Writing it is the import layer's job (`deckcheck.imports.writer`): a
store is never changed in place, every import writes a new file next to the old one and
renames it over it, so a failed import leaves the previous pool intact and usable.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from deckcheck import clock
from deckcheck.cards.compact import card_from_row
from deckcheck.cards.coverage import combine
from deckcheck.cards.dbpath import read_only_uri, resolve_path
from deckcheck.cards.model import UNOFFICIAL_IDS, Card, card_from_stored
from deckcheck.cards.names import normalize
from deckcheck.cards.pool import PoolInfo
from deckcheck.cards.suggest import CANDIDATES, TrigramIndex, fts_query, rank, tier
from deckcheck.errors import MAX_NAME, CardPoolError, StoreVersionError

if TYPE_CHECKING:
    from pathlib import Path

#: Schema 2 adds `Card.master_duel` and release dates beyond "tcg"/"ocg" to the cards' JSON.
#: A schema-1 store is still read (its cards lack that data) and is rewritten as schema 2
#: by the next import, from the source records it keeps.
#: Schema 3 adds the "did you mean" trigram tables (`SUGGEST_TABLES`). A schema-1 or -2 store
#: is still read: its first suggestion builds the trigram index in memory instead (slower),
#: and the next import rewrites it as schema 3.
#: Schema 4 writes those tables without column sizes (FTS5 ``columnsize=0``: bm25 counts a
#: matched key's trigrams when it needs them) and without case folding (``case_sensitive 1``:
#: keys are already folded by `normalize`): the same rows, terms and ranks, a quarter
#: cheaper to write. A schema-3 store is read as it is; the next import writes it anew (an
#: import into a store of the current schema patches a copy instead: `_patch_tables`).
#: Schema 5 adds ``cards.facts``: the compact form of each card a check reads
#: (`compact.stored_facts`: kind, frame, names…), and the covering index ``cards_facts`` that
#: holds it with the passcode (about a tenth of the table's size), so that looking up cards
#: for a check reads neither the cards' JSON nor their pages. A schema-1 to -4 store is still
#: read (its cards decoded from the JSON); the next import writes it anew.
#: Schema 6 leaves out ``suggest_all`` when it would hold the rows of ``suggest_en`` (a store
#: of English names only: the YGOPRODeck dump alone): the "all" tier of a store with
#: ``suggest_en`` alone asks ``suggest_en`` (half the trigram rows to write: 0.13-0.20 ->
#: 0.074-0.078 s of the dump's import). A schema-1 to -5 store is read as it is; the next
#: import writes it anew.
SCHEMA = 6
READABLE = (1, 2, 3, 4, 5, 6)
#: FTS5 tables (trigram tokenizer) of padded normalised names -> their passcodes
#: ("1,2"): English card names ("en", for ASCII queries) and names in every language ("all").
SUGGEST_TABLES = {"en": "suggest_en", "all": "suggest_all"}
#: How the store creates each of them (`SUGGEST_TABLES`)
SUGGEST_FTS = ("fts5(key, passcodes UNINDEXED, tokenize='trigram case_sensitive 1', "
               "detail='none', columnsize=0)")
APPLICATION_ID = 0x44434B43  # "DCKC"

#: The tables of a store (`deckcheck.imports.writer` creates them), then their indexes
DDL = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE sources(name TEXT PRIMARY KEY, version TEXT, origin TEXT, imported_at TEXT,
                     records INTEGER NOT NULL);
CREATE TABLE source_records(source TEXT NOT NULL, passcode INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE cards(passcode INTEGER PRIMARY KEY, name TEXT NOT NULL, konami_id INTEGER,
                   rule_name TEXT NOT NULL, data TEXT NOT NULL, facts TEXT NOT NULL);
CREATE TABLE ids(id INTEGER PRIMARY KEY, passcode INTEGER NOT NULL, kind TEXT NOT NULL);
CREATE TABLE names(key TEXT NOT NULL, passcode INTEGER NOT NULL, PRIMARY KEY(key, passcode))
    WITHOUT ROWID;
"""
INDEXES = """
CREATE INDEX source_records_source ON source_records(source);
CREATE INDEX cards_konami ON cards(konami_id);
CREATE INDEX cards_rule_name ON cards(rule_name);
CREATE INDEX cards_facts ON cards(passcode, facts);
"""


# -- opening ----------------------------------------------------------------------------

def connect(path: str | Path) -> sqlite3.Connection:
    """A read-only connection to a deckcheck store, after checking it is one we can read."""
    try:
        # check_same_thread=False: the pool may be shared by worker threads (reads only).
        con = sqlite3.connect(read_only_uri(path), uri=True, check_same_thread=False)
        app, = con.execute("PRAGMA application_id").fetchone()
        version, = con.execute("PRAGMA user_version").fetchone()
    except sqlite3.Error:
        raise StoreVersionError(f"{path} is not a deckcheck card database; move it away or "
                                "pass another file with --db, then run `deckcheck cards "
                                "update`.") from None
    if app != APPLICATION_ID:
        con.close()
        raise StoreVersionError(f"{path} is not a deckcheck card database; move it away or "
                                "pass another file with --db, then run `deckcheck cards "
                                "update`.")
    if version not in READABLE:
        con.close()
        raise StoreVersionError(
            f"{path} was written by {'an older' if version < SCHEMA else 'a newer'} version of "
            f"deckcheck (schema {version}, this one reads {READABLE[0]} to {SCHEMA}); delete "
            "it and run `deckcheck cards update` again.")
    return con



COVERS = "covers:"


def covers_by_source(con: sqlite3.Connection) -> dict[str, dict[str, str]]:
    """Each source's coverage as the store's meta rows hold it (none in older stores)."""
    out: dict[str, dict[str, str]] = {}
    for key, value in con.execute("SELECT key, value FROM meta WHERE key LIKE 'covers:%'"):
        try:
            covers = json.loads(value)
        except ValueError:
            continue
        if isinstance(covers, dict):
            out[key.removeprefix(COVERS)] = {k: v for k, v in covers.items()
                                             if isinstance(v, str)}
    return out


def store_info(db: str | os.PathLike[str] | None) -> dict[str, Any]:
    """What `deckcheck cards info` shows: sources, versions, counts, age."""
    path = resolve_path(db)
    if not path.exists():
        return {"path": str(path), "exists": False}
    con = connect(path)
    try:
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        cols = ("name", "version", "origin", "imported_at", "records")
        sources = [dict(zip(cols, row, strict=True)) for row in con.execute(
            f"SELECT {', '.join(cols)} FROM sources ORDER BY name")]
        kinds = dict(con.execute("SELECT kind, count(*) FROM ids GROUP BY kind").fetchall())
        covers = covers_by_source(con)
    finally:
        con.close()
    built = meta.get("built_at")
    age = None
    if built:
        age = (clock.now_utc() - dt.datetime.fromisoformat(built)).days
    return {"path": str(path), "exists": True, "built_at": built, "age_days": age,
            "cards": int(meta.get("cards", 0)), "alt_ids": kinds.get("alt", 0),
            "prerelease_ids": kinds.get("prerelease", 0), "sources": sources,
            "data_ends": {k: v.isoformat() for k, v in sorted(combine(
                c for name, c in covers.items() if any(s["name"] == name for s in sources)
            ).items())},
            "dated": {k.removeprefix("dated_"): int(v) for k, v in meta.items()
                      if k.startswith("dated_")}}


def damaged_row(path: str | Path, passcode: Any, exc: Exception, source: str | None = None) -> str:
    """The sentence for a store row that does not hold what deckcheck wrote there."""
    first = str(exc).splitlines()[0][:80] if str(exc) else type(exc).__name__
    what = f"{source}'s record" if source else "the card"
    return (f"The card database {path} is damaged: {what} for passcode {passcode} is not valid "
            f"({first}); delete the file and import the card data again (`deckcheck cards "
            "update`).")


_UNSEEN = object()  # `StorePool.get`: not looked up yet

#: `StorePool.preload`'s costs, in rows of the one pass that reads every compact row (~1 µs
#: a row: 13.5 ms for the 14,388 cards of the full pool), measured over the first few hundred
#: of the 3,753 real decks: ~12 rows a query and ~4 rows an id in it. Once its queries have
#: cost as much as that pass, `preload` reads every row: at most twice the cost of the better
#: choice made knowing the run's length (one deck, or a few dozen, never get there; a run
#: over thousands of different decks does, after about 200 of them).
_QUERY_ROWS = 12
_ID_ROWS = 4


class StorePool:
    """A `CardPool` over a store file: indexed SQL lookups, cached cards, and a suggestion
    index built only on the first `suggest()`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)  # a string: no pathlib on a check's way (cards/dbpath.py)
        self._con = connect(self.path)
        self._closed = False
        self._cards: dict[int, Card] = {}
        self._ids: dict[int, Card | None] = {}
        self._by_name: dict[str, list[Card]] = {}
        #: tier -> (in-memory index, key -> passcodes), for a store without trigram tables
        self._suggest: dict[str, tuple[TrigramIndex, dict[str, list[int]]]] = {}
        #: tier -> the trigram table that answers it (`SUGGEST_TABLES`), once looked for:
        #: empty when the store has none
        self._suggest_tables: dict[str, str] | None = None
        try:
            meta = dict(self._con.execute("SELECT key, value FROM meta").fetchall())
            sources = dict(self._con.execute("SELECT name, version FROM sources").fetchall())
            covers = covers_by_source(self._con)
        except sqlite3.Error as exc:
            self._con.close()
            raise CardPoolError(f"{self.path} is damaged ({exc}); delete it and run "
                                "`deckcheck cards update`.") from None
        self._len = int(meta.get("cards", 0))
        #: the store keeps each card's compact form (schema 5): `preload` builds cards from it
        self._lean = any(col[1] == "facts" for col in self._q("PRAGMA table_info(cards)"))
        #: every card's compact row (passcode -> facts) once read, and the ids that are not a
        #: card's own passcode (alternate artworks, prerelease ids -> the card's passcode)
        self._compact: dict[int, str] | None = None
        self._aliases: dict[int, int] = {}
        #: what `preload`'s queries have cost so far, in rows (see `_QUERY_ROWS`)
        self._spent = 0.0
        self._pid = os.getpid()
        self.info = PoolInfo(builtin=False, sources={k: v or "" for k, v in sources.items()},
                             card_count=self._len, imported_at=meta.get("built_at"),
                             path=str(self.path), covers=combine(
                                 v for k, v in covers.items() if k in sources))

    def close(self) -> None:
        self._con.close()
        self._closed = True

    def _q(self, sql: str, args: Iterable[Any] = ()) -> Iterator[Any]:
        """Run a query; a damaged or vanished database file is a CardPoolError, not a raw
        sqlite3 error, for library users too. Rows are fetched at once."""
        try:
            return iter(self._con.execute(sql, tuple(args)).fetchall())
        except sqlite3.Error as exc:
            raise CardPoolError(f"The card database {self.path} is damaged ({exc}); delete it "
                                "and run `deckcheck cards update`.") from None

    def _card(self, passcode: int, data: str) -> Card:
        card = self._cards.get(passcode)
        if card is None:
            try:
                card = card_from_stored(json.loads(data))
            except (ValueError, TypeError, KeyError) as exc:  # imports store valid cards
                raise CardPoolError(damaged_row(self.path, passcode, exc)) from None
            self._cards[passcode] = card
            for pc in card.all_passcodes:
                self._ids.setdefault(pc, card)
        return card

    def _lean_card(self, passcode: int, facts: str) -> Card:
        """`_card` from a schema-5 compact row: the card built from it (a `compact.RowCard`),
        its JSON read and decoded only if something reads a field the row lacks."""
        card = self._cards.get(passcode)
        if card is None:
            try:
                card = card_from_row(passcode, facts, self)
            except (ValueError, TypeError, KeyError) as exc:  # imports store valid rows
                raise CardPoolError(damaged_row(self.path, passcode, exc)) from None
            self._cards[passcode] = card
            ids = self._ids
            ids.setdefault(passcode, card)
            for pc in card.alt_passcodes:
                ids.setdefault(pc, card)
        return card

    def stored_card(self, passcode: int) -> Card:
        """The card of this (main) passcode decoded in full from the store's JSON, not cached
        (a card built from its compact row fills itself from it). Works in a forked process
        and after `close` too: the row is read through a connection of this process."""
        if self._pid != os.getpid() or self._closed:
            self._connect_here()
        for pc, data in self._q("SELECT passcode, data FROM cards WHERE passcode = ?",
                                (passcode,)):
            try:
                return card_from_stored(json.loads(data))
            except (ValueError, TypeError, KeyError) as exc:  # imports store valid cards
                raise CardPoolError(damaged_row(self.path, pc, exc)) from None
        raise CardPoolError(damaged_row(self.path, passcode, KeyError("the row is gone")))

    def _from_compact(self, passcodes: Iterable[int], compact: dict[int, str]) -> None:
        """`preload` once every compact row is read: each passcode's card (`_lean_card`), or
        None for a passcode no card answers to."""
        ids, aliases, lean = self._ids, self._aliases, self._lean_card
        for pc in passcodes:
            facts = compact.get(pc)
            main = pc
            if facts is None:
                alias = aliases.get(pc)
                if alias is None:
                    ids[pc] = None
                    continue
                main, facts = alias, compact[alias]
            ids[pc] = lean(main, facts)

    def _load_all(self) -> dict[int, str]:
        """Every card's compact row, in one pass over the covering index, and the few ids
        that are not a card's own passcode (alternate artworks, prerelease ids)."""
        compact: dict[int, str] = dict(self._q(
            "SELECT passcode, facts FROM cards INDEXED BY cards_facts"))
        self._aliases = {id_: pc for id_, pc in self._q(
            "SELECT id, passcode FROM ids WHERE id != passcode") if pc in compact}
        self._compact = compact
        return compact

    def _rows(self, sql: str, args: tuple[Any, ...]) -> list[Card]:
        return [self._card(pc, data) for pc, data in self._q(sql, args)]

    def get(self, passcode: int) -> Card | None:
        card = self._ids.get(passcode, _UNSEEN)
        if card is not _UNSEEN:
            return card  # type: ignore[return-value]  # a Card or None
        if not isinstance(passcode, int) or not -(2**63) <= passcode < 2**63:
            return None
        if self._compact is not None:
            self._from_compact((passcode,), self._compact)
            return self._ids[passcode]
        found = self._rows("SELECT c.passcode, c.data FROM ids i JOIN cards c "
                           "ON c.passcode = i.passcode WHERE i.id = ?", (passcode,))
        card = found[0] if found else None
        self._ids[passcode] = card
        return card

    def preload(self, passcodes: Iterable[int]) -> None:
        """Look up many passcodes in one query, so that `get` answers them from the cache
        (the validator calls this with each deck's new passcodes).

        From a schema-5 store the cards are built from their compact rows, their JSON read
        only when a field beyond those is (`compact.card_from_row`); and once the queries have
        cost about as much as reading every compact row would (`_QUERY_ROWS`: a run over many
        different decks), every row is read in one pass and later look-ups need no query."""
        compact = self._compact
        if compact is not None:  # every row is here: anything else is no card
            self._from_compact(passcodes, compact)  # (known ones get their own card again)
            return
        ids = self._ids
        new = set(passcodes).difference(ids)  # (`difference_update` would walk all of `ids`)
        todo = [pc for pc in new if isinstance(pc, int) and -(2**63) <= pc < 2**63]
        if not todo:
            return
        if self._lean:
            self._spent += _QUERY_ROWS + _ID_ROWS * len(todo)
            if self._spent >= self._len:
                self._from_compact(todo, self._load_all())
                return
        todo.sort()
        for i in range(0, len(todo), 500):  # well under SQLite's limit on bound parameters
            chunk = todo[i:i + 500]
            for pc in chunk:
                ids[pc] = None
            marks = ",".join("?" * len(chunk))
            if self._lean:
                lean = self._lean_card
                for id_, pc, facts in self._q(
                        "SELECT i.id, c.passcode, c.facts FROM ids i JOIN cards c INDEXED BY "
                        f"cards_facts ON c.passcode = i.passcode WHERE i.id IN ({marks})", chunk):
                    ids[id_] = lean(pc, facts)
                continue
            for id_, pc, data in self._q(
                    "SELECT i.id, c.passcode, c.data FROM ids i JOIN cards c "
                    f"ON c.passcode = i.passcode WHERE i.id IN ({marks})", chunk):
                self._ids[id_] = self._card(pc, data)

    def find_name(self, name: str) -> list[Card]:
        key = normalize(name)
        if not key:
            return []
        found = self._by_name.get(key)
        if found is None:  # the rules ask for the same names deck after deck
            found = self._by_name[key] = self._rows(
                "SELECT c.passcode, c.data FROM names n JOIN cards c ON c.passcode = n.passcode "
                "WHERE n.key = ? ORDER BY c.passcode", (key,))
        return list(found)

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Closest names (`cards.suggest`): an ASCII query is matched against English names,
        any other against the names in every language. Candidates come from the store's
        trigram tables (an older store builds the same index in memory on first use)."""
        key = normalize(name)
        if not key:
            return []
        which = tier(key)
        tables = self._suggest_tables
        if tables is None:
            tables = self._suggest_tables = self._trigram_tables()
        if tables:
            table = tables[which]
            codes: dict[str, list[int]] = {}
            for padded_key, pcs in self._q(
                    f"SELECT key, passcodes FROM {table} WHERE {table} MATCH ? ORDER BY rank "
                    "LIMIT ?", (fts_query(key), CANDIDATES)):
                codes[padded_key[1:-1]] = [int(p) for p in pcs.split(",") if p]
            best = rank(key, codes, limit * 3)
        else:
            if which not in self._suggest:
                self._suggest[which] = self._memory_index(which)
            index, codes = self._suggest[which]
            best = index.closest(key, limit * 3)
        passcodes = list(dict.fromkeys(pc for k in best for pc in codes[k]))
        names = dict(self._q(f"SELECT passcode, name FROM cards WHERE passcode IN "
                             f"({','.join('?' * len(passcodes))})", passcodes)) if passcodes else {}
        out: list[str] = []
        for pc in passcodes:
            n = names.get(pc)
            if n is not None and n not in out:
                out.append(n)
        return out[:limit]

    def _trigram_tables(self) -> dict[str, str]:
        """Tier -> the trigram table answering it; empty for a store without them (schema 1
        and 2, or an SQLite without FTS5 when it was written). A store with the English table
        alone has no names in other languages: it answers both tiers (schema 6)."""
        found = {r[0] for r in self._q("SELECT name FROM sqlite_master WHERE type = 'table'")}
        en, every = SUGGEST_TABLES["en"], SUGGEST_TABLES["all"]
        if en not in found:
            return {}
        return {"en": en, "all": every if every in found else en}

    def _memory_index(self, which: str) -> tuple[TrigramIndex, dict[str, list[int]]]:
        codes: dict[str, list[int]] = {}
        rows: Iterable[tuple[str, int]]
        if which == "en":
            rows = [(normalize(n), pc) for pc, n in self._q("SELECT passcode, name FROM cards")]
        else:
            rows = self._q("SELECT key, passcode FROM names")
        for k, pc in rows:
            if k:
                codes.setdefault(k, []).append(pc)
        return TrigramIndex(codes), codes

    def search(self, query: str, limit: int = 20) -> list[Card]:
        """Cards whose name in any language contains `query` (normalised), each once, best
        first (`search_rank`): exact names, English names starting with the query as a word,
        then with it, names in other languages starting with it, English words starting with
        it, then the rest; official cards before
        anime and custom ones, shorter names first."""
        key = normalize(query)
        if not key or len(key) > MAX_NAME:  # no name contains that (LIKE would refuse it)
            return []
        word = " ".join(query.casefold().split())

        def esc(s: str) -> str:
            return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")

        return self._rows(
            "SELECT c.passcode, c.data FROM names n JOIN cards c ON c.passcode = n.passcode "
            "WHERE n.key LIKE ? ESCAPE '\\' GROUP BY c.passcode ORDER BY "
            "MIN(CASE WHEN n.key = ? THEN 0 "
            "WHEN lower(c.name) LIKE ? ESCAPE '\\' THEN 1 "
            "WHEN lower(c.name) LIKE ? ESCAPE '\\' THEN 2 "
            "WHEN n.key LIKE ? ESCAPE '\\' THEN 3 "
            "WHEN lower(c.name) LIKE ? ESCAPE '\\' THEN 4 ELSE 5 END), "
            f"c.passcode >= {UNOFFICIAL_IDS}, length(c.name), c.name LIMIT ?",
            (f"%{esc(key)}%", key, f"{esc(word)} %", f"{esc(word)}%", f"{esc(key)}%",
             f"% {esc(word)}%", limit))

    def by_konami_id(self, konami_id: int) -> Card | None:
        found = self._rows("SELECT passcode, data FROM cards WHERE konami_id = ? "
                           "ORDER BY passcode LIMIT 1", (konami_id,))
        return found[0] if found else None

    def with_rule_name(self, rule_name: str) -> list[Card]:
        return self._rows("SELECT passcode, data FROM cards WHERE rule_name = ? "
                          "ORDER BY passcode", (rule_name,))

    def source_records(self, passcode: int) -> dict[str, list[dict[str, Any]]]:
        """What each source said about a card (its passcode and alternate ids)."""
        out: dict[str, list[dict[str, Any]]] = {}
        for source, pc, data in self._q(
                "SELECT source, passcode, data FROM source_records WHERE passcode IN "
                "(SELECT id FROM ids WHERE passcode = ?)", (passcode,)):
            try:
                out.setdefault(source, []).append(json.loads(data))
            except ValueError as exc:
                raise CardPoolError(damaged_row(self.path, pc, exc, source)) from None
        return out

    def __iter__(self) -> Iterator[Card]:
        for pc, data in self._q("SELECT passcode, data FROM cards ORDER BY passcode"):
            yield self._card(pc, data)

    def __len__(self) -> int:
        return self._len

    # --- what an event's workers need (`event.run.CachingPool`, `event.jobs`) -------------

    def before_fork(self) -> None:
        """Before worker processes are forked: read every card's compact row now, in one pass
        (~30 ms for a store of every source), when the store keeps them (schema 5): every
        later `preload` and `get` is answered without a query, in this process and in every
        process forked from it."""
        if self._lean and self._compact is None:
            self._load_all()

    def reopen(self) -> None:
        """In a process forked from the one that opened the pool: a connection of this
        process (an SQLite connection must not cross a fork), every card and compact row the
        pool holds kept."""
        if self._pid != os.getpid():
            self._connect_here()

    def _connect_here(self) -> None:
        """A connection of this process. One inherited across a fork is kept, never used nor
        closed here (it is the parent's: SQLite must not close it from another process)."""
        if self._pid != os.getpid():
            self._inherited = self._con
        self._con, self._pid, self._closed = connect(self.path), os.getpid(), False
