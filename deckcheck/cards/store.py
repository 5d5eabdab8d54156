"""The card store: one SQLite file holding the merged pool and every source's records.

Layout (schema version `SCHEMA`, in ``PRAGMA user_version``; ``PRAGMA application_id`` marks
the file as deckcheck's):

- ``cards``: passcode, name, konami_id, rule_name (indexed), the card as a JSON blob and its
  compact form (what a check reads, `model.stored_facts`),
- ``ids``: every id a card answers to (its passcode, alternate artworks, prerelease ids),
- ``names``: normalised name in any language -> passcode,
- ``sources`` and ``source_records``: what each source said, so importing another source
  re-merges everything,
- ``meta``: when the pool was built.

A store is never changed in place: every import writes a new file next to the old one (a
copy of it with only what changed written, when it is of the current schema) and renames it
over it, so a failed import leaves the previous pool intact and usable.
`StorePool` answers the `CardPool` protocol lazily from the file, caching what it loads.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck import clock
from deckcheck.atomic import replacing
from deckcheck.cards.coverage import combine
from deckcheck.cards.load import default_db_path as default_db_path  # re-exported
from deckcheck.cards.load import read_only_uri
from deckcheck.cards.load import resolve_path as resolve_path  # re-exported
from deckcheck.cards.model import (
    UNOFFICIAL_IDS,
    Card,
    card_from_row,
    card_from_stored,
    stored_facts,
)
from deckcheck.cards.names import normalize
from deckcheck.cards.pool import PoolInfo
from deckcheck.cards.suggest import CANDIDATES, TrigramIndex, fts_query, rank, tier
from deckcheck.errors import MAX_NAME, CardPoolError, ImportFailed, StoreVersionError

if TYPE_CHECKING:
    from deckcheck.cards.merge import Merged
    from deckcheck.sources import SourceData, SourceRecord

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
#: (`model.stored_facts`: kind, frame, names…), and the covering index ``cards_facts`` that
#: holds it with the passcode (about a tenth of the table's size), so that looking up cards
#: for a check reads neither the cards' JSON nor their pages. A schema-1 to -4 store is still
#: read (its cards decoded from the JSON); the next import writes it anew.
SCHEMA = 5
READABLE = (1, 2, 3, 4, 5)
#: FTS5 tables (trigram tokenizer) of padded normalised names -> their passcodes
#: ("1,2"): English card names ("en", for ASCII queries) and names in every language ("all").
SUGGEST_TABLES = {"en": "suggest_en", "all": "suggest_all"}
#: How the store creates each of them (`SUGGEST_TABLES`)
SUGGEST_FTS = ("fts5(key, passcodes UNINDEXED, tokenize='trigram case_sensitive 1', "
               "detail='none', columnsize=0)")
APPLICATION_ID = 0x44434B43  # "DCKC"

_DDL = """
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
_INDEXES = """
CREATE INDEX source_records_source ON source_records(source);
CREATE INDEX cards_konami ON cards(konami_id);
CREATE INDEX cards_rule_name ON cards(rule_name);
CREATE INDEX cards_facts ON cards(passcode, facts);
"""


# default_db_path / resolve_path live in deckcheck.cards.load (re-exported above), so that
# finding out whether a store exists does not import sqlite3.


def _now() -> str:
    return clock.now_utc().replace(microsecond=0).isoformat()


# -- opening ----------------------------------------------------------------------------

def connect(path: Path) -> sqlite3.Connection:
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


# -- writing ----------------------------------------------------------------------------

class SourceRows:
    """One source's records as stored (raw JSON kept for re-merging).

    `stored_in`: a store of the current schema whose ``source_records`` rows hold exactly
    these records; the next store is a patched copy of it, so those rows stay as they are
    instead of being written again."""

    def __init__(self, name: str, records: list[SourceRecord], version: str | None,
                 origin: str | None, imported_at: str, stored_in: Path | None = None,
                 covers: dict[str, str] | None = None) -> None:
        self.name, self.records, self.version = name, records, version
        self.origin, self.imported_at = origin, imported_at
        self.stored_in = stored_in
        #: family -> the day this source's data ends (`deckcheck.cards.coverage`)
        self.covers = covers or {}


def read_sources(path: Path) -> dict[str, SourceRows]:
    """Every source's records from an existing store."""
    con = connect(path)
    try:
        out: dict[str, SourceRows] = {}
        schema, = con.execute("PRAGMA user_version").fetchone()
        stored_in = path if schema == SCHEMA else None
        for name, version, origin, imported_at in con.execute(
                "SELECT name, version, origin, imported_at FROM sources"):
            out[name] = SourceRows(name, [], version, origin, imported_at, stored_in)
        for name, covers in _covers_by_source(con).items():
            if name in out:
                out[name].covers = covers
        for source, pc, data in con.execute(
                "SELECT source, passcode, data FROM source_records"):
            try:
                out[source].records.append(json.loads(data))
            except (ValueError, KeyError) as exc:
                raise CardPoolError(damaged_row(path, pc, exc, source)) from None
    except sqlite3.Error as exc:
        raise CardPoolError(f"The card database {path} cannot be read ({exc}); nothing was "
                            "changed — move it away and import the card data again.") from None
    finally:
        con.close()
    return out


def import_sources(db: str | os.PathLike[str] | None,
                   new: Iterable[SourceData], *, allow_smaller: bool = False) -> dict[str, Any]:
    """Add (or replace) sources in the store at `db` and rebuild the pool atomically.

    `new` holds `deckcheck.sources.SourceData`. A source that would drop more than a small
    share of the cards it gave before, or a store that would lose that many cards, is refused
    (`shrinks`) unless `allow_smaller`. Returns a summary (cards, sources…).
    """
    from deckcheck.gc_pause import gc_paused

    with gc_paused():
        return _import_sources(resolve_path(db), new, allow_smaller)


#: An import may drop at most this share of the cards a source (or the store) held, or this
#: many cards, whichever is more, before it is refused as a surprise (`shrinks`).
SHRINK_SHARE = 0.05
SHRINK_HANDFUL = 10


def shrinks(old: int, new: int) -> bool:
    """Whether going from `old` to `new` cards drops more than a small share of them (or all
    but a handful): the sign of a cut-off or wrong file, not of a source that changed."""
    return old - new > max(SHRINK_HANDFUL, old * SHRINK_SHARE)


def _shrink_error(what: str, old: int, new: int) -> ImportFailed:
    return ImportFailed(f"{what} would leave {new:,} cards where there were {old:,}; nothing "
                        "was changed — check the data, or pass --allow-smaller if it really "
                        "is that much smaller.")


def _stored_cards(path: Path) -> int:
    """How many cards the store at `path` holds (0 when it cannot say)."""
    con = connect(path)
    try:
        n, = con.execute("SELECT count(*) FROM cards").fetchone()
    except sqlite3.Error:
        return 0
    finally:
        con.close()
    return int(n)


def matches_record(db: str | os.PathLike[str] | None, source: str) -> bool:
    """Whether the store holds what it recorded for `source`: as many of its records as the
    import counted, and as many cards as it wrote (a store changed or damaged since then does
    not match, so an update does not call it up to date)."""
    path = resolve_path(db)
    if not path.is_file():
        return False
    con = connect(path)
    try:
        row = con.execute("SELECT records, (SELECT count(*) FROM source_records WHERE source = "
                          "?) FROM sources WHERE name = ?", (source, source)).fetchone()
        meta = con.execute("SELECT value FROM meta WHERE key = 'cards'").fetchone()
        cards, = con.execute("SELECT count(*) FROM cards").fetchone()
    except sqlite3.Error:
        return False
    finally:
        con.close()
    return (row is not None and row[0] == row[1] and row[0] > 0 and meta is not None
            and str(cards) == meta[0])


def _import_sources(path: Path, new: Iterable[SourceData],
                    allow_smaller: bool = False) -> dict[str, Any]:
    from deckcheck.cards.merge import merge

    new = list(new)
    for sd in new:
        if not sd.records:
            raise ImportFailed(f"{sd.origin or sd.name} holds no cards deckcheck can read; "
                               "nothing was changed.")
        _check_ids(sd)
    _check_writable(path)
    # One import at a time: each reads the store, merges and replaces it, so two at once
    # would each write a store without the other's source.
    with store_lock(path):
        remove_stale_temp_files(path)
        sources = read_sources(path) if path.exists() else {}
        now = _now()
        changed = []
        for sd in new:
            old = sources.get(sd.name)
            if (not allow_smaller and old is not None
                    and shrinks(len(old.records), len(sd.records))):
                raise _shrink_error(f"{sd.origin or sd.name} ({sd.name})", len(old.records),
                                    len(sd.records))
            sources[sd.name] = SourceRows(sd.name, sd.records, sd.version, sd.origin, now,
                                          covers=sd.covers)
            changed.append(sd.name)
        merged = merge({name: rows.records for name, rows in sources.items()})
        if not merged.cards:
            raise ImportFailed("The data holds no complete cards (only names or ids for cards "
                               "no other source knows); import a full card source first.")
        if not allow_smaller and path.exists():
            before = _stored_cards(path)
            if shrinks(before, len(merged.cards)):
                raise _shrink_error(f"Importing {', '.join(changed)} into {path}", before,
                                    len(merged.cards))
        _validate(merged.cards.values())
        write_store(path, sources, merged, now)
    return {"path": str(path), "imported": changed, "cards": len(merged.cards),
            "ids": len(merged.ids), "sources": {n: s.version for n, s in sources.items()}}


def _cannot_write(path: Path, why: str) -> CardPoolError:
    return CardPoolError(f"{path}: the card database cannot be written there ({why}); pass a "
                         "file you may write with --db or DECKCHECK_DB; nothing was changed.")


def _check_writable(path: Path) -> None:
    """Refuse before any work when the store or its folder cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise _cannot_write(path, f"a file is in the way of the folder {path.parent}") from None
    except OSError as exc:
        raise _cannot_write(path, exc.strerror or str(exc)) from None
    if path.exists() and not os.access(path, os.W_OK):
        raise CardPoolError(f"{path} is read-only; make it writable (chmod u+w) or pass another "
                            "file with --db or DECKCHECK_DB; nothing was changed.")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise _cannot_write(path, f"the folder {path.parent} is read-only")


@contextlib.contextmanager
def store_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the store while the block runs; another import into it
    waits. The lock is the operating system's on a lock file beside the store
    (``cards.sqlite.lock``: `filelock`, fcntl on POSIX, msvcrt on Windows), not the store
    itself, which each import replaces; the file stays, empty, and is reused."""
    from filelock import FileLock

    lock = FileLock(lock_path(path))
    try:
        lock.acquire()
    except OSError as exc:
        raise _cannot_write(path, exc.strerror or str(exc)) from None
    try:
        yield
    finally:
        lock.release()


def lock_path(path: Path) -> Path:
    """The lock file of the store at `path` (`store_lock`)."""
    return path.with_name(path.name + ".lock")


def remove_stale_temp_files(path: Path) -> list[Path]:
    """Delete the half-written stores an interrupted import left beside `path` (call only
    while holding `store_lock`: then no other import is writing one)."""
    removed = []
    now = time.time()
    stale = list(path.parent.glob(f".{glob_escape(path.name)}.*.tmp"))
    # downloads `cards update` was killed in (another may be running: only old ones)
    stale += [p for p in path.parent.glob(".cardinfo.*.json") if _age(p, now) > 3600]
    for tmp in stale:
        try:
            tmp.unlink()
            removed.append(tmp)
        except OSError:
            pass
    return removed


def _age(path: Path, now: float) -> float:
    try:
        return now - path.stat().st_mtime
    except OSError:
        return 0.0


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def _check_ids(sd: SourceData) -> None:
    """Every id a record gives (Konami's too) must be a whole number SQLite can hold (a source
    with a 20-digit id would otherwise fail half-way through writing)."""
    for n, rec in enumerate(sd.records, 1):
        ids = [rec.get("passcode"), *(rec.get("alt_passcodes") or ()),
               *(rec.get("extra_ids") or ())]
        if rec.get("alias") is not None:
            ids.append(rec["alias"])
        if rec.get("konami_id") is not None:  # a column of the cards table too
            ids.append(rec["konami_id"])
        for i in ids:
            if not isinstance(i, int) or isinstance(i, bool) or not 0 < i < 2**63:
                raise ImportFailed(f"{sd.origin or sd.name}: record #{n} has the id "
                                   f"{str(i)[:24]}, which is not a passcode; nothing was "
                                   "changed — check the file.")


def _validate(cards: Iterable[dict[str, Any]]) -> None:
    """Check the merged cards against the model once, in bulk."""
    from pydantic import TypeAdapter, ValidationError

    from deckcheck.cards.schema import CardSchema

    try:
        TypeAdapter(list[CardSchema]).validate_python(list(cards))
    except ValidationError as exc:
        err = exc.errors()[0]
        raise ImportFailed(f"A merged card is not valid ({'.'.join(map(str, err['loc']))}: "
                           f"{err['msg']}); nothing was changed — please report this.") from None


def write_store(path: Path, sources: dict[str, SourceRows], merged: Merged,
                built_at: str) -> None:
    """Write a complete store to a new file beside `path`, then rename it over `path`.

    A failure while writing (a full disk, a read-only file system) leaves the old store as it
    was and says what failed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with replacing(path) as tmp:
            _write_tables(tmp, sources, merged, built_at)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise _disk_full(path) from None
        why = (f"a file is in the way of the folder {path.parent}" if isinstance(
            exc, (FileExistsError, NotADirectoryError)) else exc.strerror or str(exc))
        raise _cannot_write(path, why) from None
    except sqlite3.Error as exc:
        text = str(exc)
        if "full" in text:
            raise _disk_full(path) from None
        if "readonly" in text or "read-only" in text:
            raise _cannot_write(path, "the file system is read-only") from None
        raise CardPoolError(f"{path}: writing the new card database failed ({text}); the "
                            "previous one is intact — try the import again.") from None


def _disk_full(path: Path) -> CardPoolError:
    return CardPoolError(f"{path}: the disk is full, so the new card database could not be "
                         "written; the previous one is intact — free some space and import "
                         "again.")


def _write_tables(tmp: Path, sources: dict[str, SourceRows], merged: Merged,
                  built_at: str) -> None:
    """Write the store into `tmp`: when the sources come from a store of the current schema,
    a copy of that store with only what changed written (`_patch_tables`), else every table
    anew (`_fresh_tables`). Either way the tables hold the same rows."""
    old = next((s.stored_in for s in sources.values() if s.stored_in is not None), None)
    if old is not None:
        shutil.copyfile(old, tmp)
    con = sqlite3.connect(tmp)
    try:
        # a temporary file, renamed over the store only once complete: no journal, no syncs
        for pragma in ("journal_mode=OFF", "synchronous=OFF", "locking_mode=EXCLUSIVE",
                       "cache_size=-131072", "temp_store=MEMORY"):
            con.execute(f"PRAGMA {pragma}")
        if old is not None:
            _patch_tables(con, sources, merged, built_at, old)
        else:
            _fresh_tables(con, sources, merged, built_at)
        con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        con.execute(f"PRAGMA user_version = {SCHEMA}")
        con.commit()
    finally:
        con.close()


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _meta_rows(merged: Merged, built_at: str,
               sources: dict[str, SourceRows]) -> list[tuple[str, str]]:
    return [("built_at", built_at), ("cards", str(len(merged.cards))),
            *((f"dated_{r}", str(n)) for r, n in _dated(merged.cards.values()).items()),
            *((f"{COVERS}{s.name}", _dumps(s.covers)) for s in sources.values() if s.covers)]


#: meta rows "covers:<source>" hold the day each family of a source's data ends (JSON)
COVERS = "covers:"


def _covers_by_source(con: sqlite3.Connection) -> dict[str, dict[str, str]]:
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


def _source_rows(sources: dict[str, SourceRows]) -> list[tuple[Any, ...]]:
    return [(s.name, s.version, s.origin, s.imported_at, len(s.records))
            for s in sources.values()]


def _card_row(pc: int, c: dict[str, Any], keys: Mapping[str, str] | None = None,
              data: str | None = None) -> tuple[Any, ...]:
    """A ``cards`` row: passcode, name, konami_id, rule_name, the card's JSON (`data`, when
    already encoded) and its compact form (`stored_facts`, derived from the JSON: rows with
    the same JSON are the same row; `keys`: the merge's normalised names, `Merged.keys`)."""
    key = keys[c["rule_name"]] if keys is not None else None
    return (pc, c["name"], c.get("konami_id"), c["rule_name"],
            _dumps(c) if data is None else data, stored_facts(c, key))


def _name_rows(names: dict[str, list[int]]) -> Iterator[tuple[str, int]]:
    """(key, passcode) in key order, then passcode order (B-tree appends, no page splits)."""
    for key in sorted(names):
        pcs = names[key]
        for pc in (sorted(pcs) if len(pcs) > 1 else pcs):
            yield key, pc


def _fresh_tables(con: sqlite3.Connection, sources: dict[str, SourceRows], merged: Merged,
                  built_at: str) -> None:
    con.executescript(_DDL)
    with con:
        con.executemany("INSERT INTO meta VALUES (?, ?)", _meta_rows(merged, built_at, sources))
        con.executemany("INSERT INTO sources VALUES (?, ?, ?, ?, ?)", _source_rows(sources))
        for s in sources.values():
            con.executemany("INSERT INTO source_records VALUES (?, ?, ?)", (
                (s.name, r["passcode"], _dumps(r)) for r in s.records))
        # rows in key order: B-tree appends instead of page splits
        con.executemany("INSERT INTO cards VALUES (?, ?, ?, ?, ?, ?)", (
            _card_row(pc, c, merged.keys) for pc, c in sorted(merged.cards.items())))
        con.executemany("INSERT INTO ids VALUES (?, ?, ?)", (
            (i, pc, kind) for i, (pc, kind) in sorted(merged.ids.items())))
        con.executemany("INSERT INTO names VALUES (?, ?)", _name_rows(merged.names))
    _write_suggest(con, merged, patching=False)
    con.executescript(_INDEXES)


def _patch_tables(con: sqlite3.Connection, sources: dict[str, SourceRows], merged: Merged,
                  built_at: str, old: Path) -> None:
    """Turn a copy of the store the sources were read from into the new store: only the
    sources read anew, and the cards, ids, names and suggestion rows that differ, are
    written (the rows that stay keep their place)."""
    with con:
        con.execute("DELETE FROM meta")
        con.executemany("INSERT INTO meta VALUES (?, ?)", _meta_rows(merged, built_at, sources))
        con.execute("DELETE FROM sources")
        con.executemany("INSERT INTO sources VALUES (?, ?, ?, ?, ?)", _source_rows(sources))
        for s in sources.values():
            if s.stored_in != old:
                con.execute("DELETE FROM source_records WHERE source = ?", (s.name,))
                con.executemany("INSERT INTO source_records VALUES (?, ?, ?)", (
                    (s.name, r["passcode"], _dumps(r)) for r in s.records))
        stored: dict[int, str] = dict(con.execute("SELECT passcode, data FROM cards"))
        rows = []
        for pc, c in sorted(merged.cards.items()):
            data = _dumps(c)
            if stored.pop(pc, None) != data:  # the compact form only for the rows that change
                rows.append(_card_row(pc, c, merged.keys, data))
        con.executemany("DELETE FROM cards WHERE passcode = ?", ((pc,) for pc in stored))
        con.executemany("INSERT OR REPLACE INTO cards VALUES (?, ?, ?, ?, ?, ?)", rows)
        had = {i: (pc, kind) for i, pc, kind in con.execute("SELECT id, passcode, kind FROM ids")}
        con.executemany("DELETE FROM ids WHERE id = ?", ((i,) for i in had.keys()
                                                          - merged.ids.keys()))
        con.executemany("INSERT OR REPLACE INTO ids VALUES (?, ?, ?)", (
            (i, pc, kind) for i, (pc, kind) in sorted(merged.ids.items()) if had.get(i) != (
                pc, kind)))
        _patch_names(con, merged.names)
    _write_suggest(con, merged, patching=True)


def _patch_names(con: sqlite3.Connection, index: dict[str, list[int]]) -> None:
    """Only the name rows that differ; or, when the new index has more than twice the rows
    stored (a source with names in other languages was added), all of them anew, in key
    order (SQLite appends them: cheaper than finding and inserting 100,000 new rows among
    the old). The table holds the same rows either way."""
    count, = con.execute("SELECT count(*) FROM names").fetchone()
    if sum(map(len, index.values())) > 2 * count:
        con.execute("DELETE FROM names")
        con.executemany("INSERT INTO names VALUES (?, ?)", _name_rows(index))
        return
    names = set(con.execute("SELECT key, passcode FROM names"))
    con.executemany("DELETE FROM names WHERE key = ? AND passcode = ?", [
        (key, pc) for key, pc in names if pc not in index.get(key, ())])
    con.executemany("INSERT INTO names VALUES (?, ?)", (
        row for row in _name_rows(index) if row not in names))


def _has_table(con: sqlite3.Connection, name: str) -> bool:
    return con.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone() \
        is not None


def _suggest_rows(merged: Merged) -> dict[str, dict[str, str]]:
    """table -> padded key (`suggest.padded`) -> its passcodes ("1,2"): English names in card
    order, and every name in the order the merge indexed them."""
    keys = merged.keys
    en: dict[str, list[int]] = {}
    for pc, c in sorted(merged.cards.items()):
        key = keys[c["name"]]
        if key:
            en.setdefault(key, []).append(pc)
    out: dict[str, dict[str, str]] = {}
    for which, index in (("en", en), ("all", merged.names)):
        # `padded` inlined: this runs once per name in any language (130,000 with YAML Yugi)
        out[SUGGEST_TABLES[which]] = {
            f"^{key}$": str(pcs[0]) if len(pcs) == 1 else ",".join(map(str, sorted(set(pcs))))
            for key, pcs in index.items() if key}
    return out


def create_suggest_table(con: sqlite3.Connection, table: str) -> None:
    """An empty "did you mean" table (`SUGGEST_FTS`) with FTS5's automatic merging off: its
    segments are merged only when 16 pile up (``crisismerge``), which makes writing 130,000
    keys cheaper; the rows, terms and ranks are the same and queries as fast."""
    con.execute(f"CREATE VIRTUAL TABLE {table} USING {SUGGEST_FTS}")
    con.execute(f"INSERT INTO {table}({table}, rank) VALUES ('automerge', 0)")


def _write_suggest(con: sqlite3.Connection, merged: Merged, patching: bool) -> None:
    """The "did you mean" trigram tables (`cards.suggest`). When `patching` a copy of the
    store, a table whose rows are already the new ones, in the same order, is kept; any
    other is written anew, so that a store holds the same rows under the same rowids (and
    FTS5 breaks ties in rank the same way) however its sources were imported
    (`create_suggest_table`). An SQLite without FTS5 gets none: suggestions then build the
    index in memory, as for an older store."""
    try:
        for table, rows in _suggest_rows(merged).items():
            if patching and _has_table(con, table) and con.execute(
                    f"SELECT count(*) FROM {table}").fetchone()[0] == len(rows) and \
                    con.execute(f"SELECT key, passcodes FROM {table} ORDER BY rowid"
                                ).fetchall() == list(rows.items()):
                continue
            con.execute(f"DROP TABLE IF EXISTS {table}")
            create_suggest_table(con, table)
            with con:
                con.executemany(f"INSERT INTO {table} VALUES (?, ?)", rows.items())
    except sqlite3.OperationalError as exc:
        if "fts5" not in str(exc) and "tokenizer" not in str(exc):
            raise
        for table in SUGGEST_TABLES.values():
            con.execute(f"DROP TABLE IF EXISTS {table}")


def _dated(cards: Iterable[dict[str, Any]]) -> dict[str, int]:
    """How many cards have a first-release date per region, and Master Duel data."""
    counts: dict[str, int] = {"tcg": 0, "ocg": 0, "md": 0, "master_duel": 0}
    for c in cards:
        for r in c.get("released") or ():
            counts[r] = counts.get(r, 0) + 1
        if c.get("master_duel") is not None:
            counts["master_duel"] += 1
    return counts


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
        covers = _covers_by_source(con)
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


# -- reading ----------------------------------------------------------------------------

def damaged_row(path: Path, passcode: Any, exc: Exception, source: str | None = None) -> str:
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
        self.path = Path(path)
        self._con = connect(self.path)
        self._closed = False
        self._cards: dict[int, Card] = {}
        self._ids: dict[int, Card | None] = {}
        self._by_name: dict[str, list[Card]] = {}
        #: tier -> (in-memory index, key -> passcodes), for a store without trigram tables
        self._suggest: dict[str, tuple[TrigramIndex, dict[str, list[int]]]] = {}
        self._has_suggest_tables: bool | None = None
        try:
            meta = dict(self._con.execute("SELECT key, value FROM meta").fetchall())
            sources = dict(self._con.execute("SELECT name, version FROM sources").fetchall())
            covers = _covers_by_source(self._con)
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
        """`_card` from a schema-5 compact row: the card built from it, its JSON read and
        decoded only if something reads a field the row lacks (`model.card_from_row`)."""
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
            self._con, self._pid, self._closed = connect(self.path), os.getpid(), False
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
        only when a field beyond those is (`model.card_from_row`); and once the queries have
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
        if self._has_suggest_tables is None:
            found = {r[0] for r in self._q("SELECT name FROM sqlite_master WHERE type = 'table'")}
            self._has_suggest_tables = set(SUGGEST_TABLES.values()) <= found
        if self._has_suggest_tables:
            codes: dict[str, list[int]] = {}
            for padded_key, pcs in self._q(
                    f"SELECT key, passcodes FROM {SUGGEST_TABLES[which]} WHERE "
                    f"{SUGGEST_TABLES[which]} MATCH ? ORDER BY rank LIMIT ?",
                    (fts_query(key), CANDIDATES)):
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
