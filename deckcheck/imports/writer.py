"""Writing the card store: every source's records kept for re-merging (`SourceRows`,
`read_store`), and the merged pool written to a new file renamed over the old one
(`write_store`): a copy of the old store with only what changed written when it is of the
current schema (`_patch_tables`), else every table anew (`_fresh_tables`). The layout is the
reading side's (`deckcheck.cards.store`: `SCHEMA`, `DDL`, …)."""

from __future__ import annotations

import errno
import json
import shutil
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from deckcheck.atomic import replacing
from deckcheck.cards.compact import stored_facts
from deckcheck.cards.store import (
    APPLICATION_ID,
    COVERS,
    DDL,
    INDEXES,
    SCHEMA,
    SUGGEST_FTS,
    SUGGEST_TABLES,
    connect,
    covers_by_source,
    damaged_row,
)
from deckcheck.errors import CardPoolError
from deckcheck.imports.guard import cannot_write

if TYPE_CHECKING:
    from deckcheck.imports.merge import Merged
    from deckcheck.sources.records import SourceRecord

class SourceRows:
    """One source's records as stored (raw JSON kept for re-merging).

    `stored_in`: a store of the current schema whose ``source_records`` rows hold exactly
    these records; the next store is a patched copy of it, so those rows stay as they are
    instead of being written again."""

    def __init__(self, name: str, records: list[SourceRecord], version: str | None,
                 origin: str | None, imported_at: str, stored_in: Path | None = None,
                 covers: dict[str, str] | None = None, plain: bool = False,
                 checked: bool = False) -> None:
        self.name, self.records, self.version = name, records, version
        self.origin, self.imported_at = origin, imported_at
        self.stored_in = stored_in
        #: family -> the day this source's data ends (`deckcheck.cards.coverage`)
        self.covers = covers or {}
        #: every record plain by its parser's construction (`SourceData.plain`)
        self.plain = plain
        #: every record checked by its parser (`SourceData.checked`; never records read back
        #: from a store, which may have been changed since)
        self.checked = checked


def read_sources(path: Path) -> dict[str, SourceRows]:
    """Every source's records from an existing store (`read_store` without the card count:
    for tests and benchmarks)."""
    return read_store(path)[0]


def read_store(path: Path) -> tuple[dict[str, SourceRows], int]:
    """Every source's records from an existing store, and how many cards it holds (0 when it
    cannot say), in one opening of it."""
    con = connect(path)
    try:
        out: dict[str, SourceRows] = {}
        schema, = con.execute("PRAGMA user_version").fetchone()
        stored_in = path if schema == SCHEMA else None
        for name, version, origin, imported_at in con.execute(
                "SELECT name, version, origin, imported_at FROM sources"):
            out[name] = SourceRows(name, [], version, origin, imported_at, stored_in)
        for name, covers in covers_by_source(con).items():
            if name in out:
                out[name].covers = covers
        for source, pc, data in con.execute(
                "SELECT source, passcode, data FROM source_records"):
            try:
                out[source].records.append(json.loads(data))
            except (ValueError, KeyError) as exc:
                raise CardPoolError(damaged_row(path, pc, exc, source)) from None
        try:
            cards = int(con.execute("SELECT count(*) FROM cards").fetchone()[0])
        except sqlite3.Error:
            cards = 0
    except sqlite3.Error as exc:
        raise CardPoolError(f"The card database {path} cannot be read ({exc}); nothing was "
                            "changed — move it away and import the card data again.") from None
    finally:
        con.close()
    return out, cards


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
        raise cannot_write(path, why) from None
    except sqlite3.Error as exc:
        text = str(exc)
        if "full" in text:
            raise _disk_full(path) from None
        if "readonly" in text or "read-only" in text:
            raise cannot_write(path, "the file system is read-only") from None
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


_stdlib_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_PLAIN = frozenset({str, int, bool, type(None)})


def _dumps(obj: Any, plain: bool = False) -> str:
    """`obj` as the store's JSON: compact, UTF-8 text (``json.dumps(obj, ensure_ascii=False,
    separators=(",", ":"))``, byte for byte). orjson writes it 5-10x faster when `obj` holds
    only dicts, lists, text, whole numbers, booleans and None (`_plain`: there both write the
    same bytes; a float could be written otherwise, e.g. 1e16); anything else, and anything
    orjson refuses (a key that is not text, an integer beyond 64 bits, a lone surrogate, a
    deep nesting), goes to the standard library, as before. `plain`: the caller knows `obj`
    is (`_record_rows`, `_card_rows`), so it is not looked through again."""
    if plain or _plain(obj):
        try:
            return orjson.dumps(obj).decode()
        except (TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError
            pass
    return _stdlib_dumps(obj)


def _plain(obj: Any) -> bool:
    """Whether `obj` is a dict or list holding, at any depth, only dicts, lists, text, whole
    numbers, booleans and None (exact types: no subclass, no float)."""
    plain = _PLAIN
    todo = [obj]
    while todo:
        o = todo.pop()
        t = type(o)
        if t is dict:
            values = o.values()
        elif t is list:
            values = o
        else:
            return False
        for v in values:
            tv = type(v)
            if tv not in plain:
                if tv is dict or tv is list:
                    todo.append(v)
                else:
                    return False
    return True


def _meta_rows(merged: Merged, built_at: str,
               sources: dict[str, SourceRows]) -> list[tuple[str, str]]:
    return [("built_at", built_at), ("cards", str(len(merged.cards))),
            *((f"dated_{r}", str(n)) for r, n in _dated(merged.cards.values()).items()),
            *((f"{COVERS}{s.name}", _dumps(s.covers)) for s in sources.values() if s.covers)]


#: meta rows "covers:<source>" hold the day each family of a source's data ends (JSON)
def _source_rows(sources: dict[str, SourceRows]) -> list[tuple[Any, ...]]:
    return [(s.name, s.version, s.origin, s.imported_at, len(s.records))
            for s in sources.values()]


def _record_rows(s: SourceRows, plain: list[bool] | None = None
                 ) -> Iterator[tuple[str, int, str]]:
    """The ``source_records`` rows of a source (`_dumps` of each record), one at a time: each
    JSON text is bound and let go before the next is made (no list of 14,000 texts to build
    and read back: a tenth cheaper to write them). `plain[0]`, when given, is set False when a
    record is not plain (`_plain`; not looked through when its parser says so, `s.plain`)."""
    name = s.name
    for r in s.records:
        ok = s.plain or _plain(r)
        if not ok and plain is not None:
            plain[0] = False
        yield name, r["passcode"], _dumps(r, ok)


def _card_row(pc: int, c: dict[str, Any], keys: Mapping[str, str] | None = None,
              data: str | None = None) -> tuple[Any, ...]:
    """A ``cards`` row: passcode, name, konami_id, rule_name, the card's JSON (`data`, when
    already encoded) and its compact form (`stored_facts`, derived from the JSON: rows with
    the same JSON are the same row; `keys`: the merge's normalised names, `Merged.keys`)."""
    key = keys[c["rule_name"]] if keys is not None else None
    return (pc, c["name"], c.get("konami_id"), c["rule_name"],
            _dumps(c) if data is None else data, stored_facts(c, key))


def _card_rows(merged: Merged, plain: bool) -> Iterator[tuple[Any, ...]]:
    """Every card's row (`_card_row`), in passcode order, one at a time (as `_record_rows`);
    `plain`: every card is (`_dumps`), so none is looked through again."""
    keys = merged.keys
    for pc, c in sorted(merged.cards.items()):
        yield _card_row(pc, c, keys, _dumps(c, plain))


def _name_rows(names: dict[str, list[int]]) -> Iterator[tuple[str, int]]:
    """(key, passcode) as the merge indexed them. Not sorted: SQLite places them in its key
    order itself in less time than sorting 130,000 keys here takes (~80 ms of an import of
    every source; the table is the same row for row, and no larger)."""
    for key, pcs in names.items():
        for pc in pcs:
            yield key, pc


def _fresh_tables(con: sqlite3.Connection, sources: dict[str, SourceRows], merged: Merged,
                  built_at: str) -> None:
    con.executescript(DDL)
    with con:
        con.executemany("INSERT INTO meta VALUES (?, ?)", _meta_rows(merged, built_at, sources))
        con.executemany("INSERT INTO sources VALUES (?, ?, ?, ?, ?)", _source_rows(sources))
        plain = [True]
        for s in sources.values():
            insert(con, "source_records", 3, _record_rows(s, plain))
        # rows in key order: B-tree appends instead of page splits. A card holds only
        # values of its records (and text, whole numbers, booleans, lists and dicts the merge
        # makes): when every record is plain, so is every card (`_dumps`' `plain`).
        insert(con, "cards", 6, _card_rows(merged, plain[0]))
        # every card answers to its own passcode (`Merged.ids`' "main" rows): those rows
        # copied by SQLite from the cards just written, the few others bound one by one
        con.execute("INSERT INTO ids SELECT passcode, passcode, 'main' FROM cards")
        insert(con, "ids", 3, sorted(
            (i, pc, kind) for i, (pc, kind) in merged.ids.items() if kind != "main"))
        insert(con, "names", 2, _name_rows(merged.names))
    _write_suggest(con, merged, patching=False)
    con.executescript(INDEXES)


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
                insert(con, "source_records", 3, _record_rows(s))
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
    stored (a source with names in other languages was added), all of them anew into the
    emptied table (cheaper than finding and inserting 100,000 new rows among the old). The
    table holds the same rows either way."""
    count, = con.execute("SELECT count(*) FROM names").fetchone()
    if sum(map(len, index.values())) > 2 * count:
        con.execute("DELETE FROM names")
        insert(con, "names", 2, _name_rows(index))
        return
    names = set(con.execute("SELECT key, passcode FROM names"))
    con.executemany("DELETE FROM names WHERE key = ? AND passcode = ?", [
        (key, pc) for key, pc in names if pc not in index.get(key, ())])
    con.executemany("INSERT INTO names VALUES (?, ?)", (
        row for row in _name_rows(index) if row not in names))


#: Rows one INSERT statement binds (`insert`): 64 rows of 6 values stay far below the 999
#: variables an old SQLite allows.
ROWS_PER_INSERT = 64


def insert(con: sqlite3.Connection, table: str, width: int,
           rows: Iterable[Sequence[Any]]) -> None:
    """INSERT `rows` (each of `width` values) into `table`, in their order: `ROWS_PER_INSERT`
    rows a statement (``VALUES (…), (…), …``), the same rows under the same rowids as one
    statement per row, with a step of the statement, and of the sqlite3 module's work around
    it, per 64 rows instead of per row (inserting 14,000 cards: 0.031 -> 0.019 s CPU)."""
    one = "(" + ", ".join("?" * width) + ")"
    flat = chain.from_iterable
    left: list[Sequence[Any]] = []

    def blocks() -> Iterator[tuple[Any, ...]]:
        it = iter(rows)
        while len(block := list(islice(it, ROWS_PER_INSERT))) == ROWS_PER_INSERT:
            yield tuple(flat(block))
        left.extend(block)

    con.executemany(f"INSERT INTO {table} VALUES " + ", ".join([one] * ROWS_PER_INSERT),
                    blocks())
    if left:
        con.execute(f"INSERT INTO {table} VALUES " + ", ".join([one] * len(left)),
                    tuple(flat(left)))


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
    (`create_suggest_table`). The "all" table is left out when it would hold the English
    table's rows (the same keys and passcodes: English names only; the reader then asks the
    English table).
    An SQLite without FTS5 gets none: suggestions then build the index in memory, as for an
    older store."""
    tables = _suggest_rows(merged)
    same = tables[SUGGEST_TABLES["all"]] == tables[SUGGEST_TABLES["en"]]
    if same:
        con.execute(f"DROP TABLE IF EXISTS {SUGGEST_TABLES['all']}")
        del tables[SUGGEST_TABLES["all"]]
    try:
        for table, rows in tables.items():
            if patching and _has_table(con, table) and con.execute(
                    f"SELECT count(*) FROM {table}").fetchone()[0] == len(rows) and \
                    con.execute(f"SELECT key, passcodes FROM {table} ORDER BY rowid"
                                ).fetchall() == list(rows.items()):
                continue
            con.execute(f"DROP TABLE IF EXISTS {table}")
            create_suggest_table(con, table)
            with con:
                # one row a statement: FTS5 merges its segments as it did (multi-row
                # statements left it half again as many index blocks)
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
