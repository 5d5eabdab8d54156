"""Importing one more source keeps the others' stored records exactly as they were (copied
from the previous store, not written again), and gives the same store as importing all the
sources into a new one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from deckcheck.cards import store
from deckcheck.imports import writer
from deckcheck.imports.run import import_sources
from deckcheck.imports.writer import read_sources
from deckcheck.sources import read_source

FIX = Path(__file__).resolve().parents[1] / "sources" / "fixtures"


def _rows(path: Path, table: str) -> list[tuple[object, ...]]:
    con = sqlite3.connect(path)
    try:
        order = " ORDER BY rowid" if table == "source_records" else ""
        return con.execute(f"SELECT * FROM {table}{order}").fetchall()
    finally:
        con.close()


def test_adding_a_source_copies_the_others_rows(tmp_path: Path) -> None:
    db = tmp_path / "one" / "cards.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    before = _rows(db, "source_records")
    assert read_sources(db)["ygoprodeck"].stored_in == db
    import_sources(db, [read_source(FIX / "yamlyugi_small.json")])
    after = _rows(db, "source_records")
    # the YGOPRODeck rows first, unchanged and in their order; then YAML Yugi's
    assert after[:len(before)] == before
    assert {r[0] for r in after[len(before):]} == {"yaml-yugi"}
    import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    assert _rows(db, "source_records")[:len(after)] == after
    # copied, not written again: a row's own spelling of the same JSON survives an import
    con = sqlite3.connect(db)
    con.execute("UPDATE source_records SET data = ' ' || data WHERE source = 'ygoprodeck'")
    con.commit()
    con.close()
    import_sources(db, [read_source(FIX / "yamlyugi_small.json")])
    kept = [r for r in _rows(db, "source_records") if r[0] == "ygoprodeck"]
    assert kept and all(str(r[2]).startswith(" ") for r in kept)

    # the same store as both sources written at once into a new file
    db = tmp_path / "three" / "cards.sqlite"
    for name in ("ygoprodeck_small.json", "yamlyugi_small.json", "ygocdb_small.json"):
        import_sources(db, [read_source(FIX / name)])
    fresh = tmp_path / "two" / "cards.sqlite"
    import_sources(fresh, [read_source(FIX / "ygoprodeck_small.json"),
                           read_source(FIX / "yamlyugi_small.json"),
                           read_source(FIX / "ygocdb_small.json")])
    for table in ("source_records", "cards", "ids", "names"):
        assert sorted(_rows(db, table), key=repr) == sorted(_rows(fresh, table), key=repr), table


def test_an_older_schema_is_written_again(tmp_path: Path) -> None:
    """Rows of a store of an older schema are not copied as they are: they are written anew
    from the records (the old JSON may differ)."""
    db = tmp_path / "cards.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    con = sqlite3.connect(db)
    con.execute("UPDATE source_records SET data = ' ' || data")  # still the same JSON
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    assert read_sources(db)["ygoprodeck"].stored_in is None
    import_sources(db, [read_source(FIX / "yamlyugi_small.json")])
    rows = [r for r in _rows(db, "source_records") if r[0] == "ygoprodeck"]
    assert rows and not any(str(r[2]).startswith(" ") for r in rows)
    assert store.connect(db).execute("PRAGMA user_version").fetchone() == (store.SCHEMA,)


def test_a_schema_3_store_suggests_the_same_and_is_written_anew(tmp_path: Path) -> None:
    """Schema 3 kept column sizes and folded case in its trigram tables: the same rows answer
    the same suggestions; the next import writes the store as the current schema."""
    db = tmp_path / "cards.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json"),
                        read_source(FIX / "yamlyugi_small.json")])
    queries = ["ash blosom", "Dark Magican", "harpie lady 4", "灰流うらら", "ハーピィ", "zzz"]
    fresh = [store.StorePool(db).suggest(q) for q in queries]
    con = sqlite3.connect(db)
    for table in store.SUGGEST_TABLES.values():
        rows = con.execute(f"SELECT key, passcodes FROM {table} ORDER BY rowid").fetchall()
        con.execute(f"DROP TABLE {table}")
        con.execute(f"CREATE VIRTUAL TABLE {table} USING fts5(key, passcodes UNINDEXED, "
                    "tokenize='trigram', detail='none')")  # as schema 3 wrote them
        con.executemany(f"INSERT INTO {table} VALUES (?, ?)", rows)
    con.execute("PRAGMA user_version = 3")
    con.commit()
    con.close()
    assert read_sources(db)["ygoprodeck"].stored_in is None  # written anew, not patched
    assert [store.StorePool(db).suggest(q) for q in queries] == fresh
    import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone() == (store.SCHEMA,)
    sql = con.execute("SELECT sql FROM sqlite_master WHERE name = 'suggest_all'").fetchone()[0]
    con.close()
    assert "columnsize=0" in sql


def test_an_unchanged_import_keeps_every_row(tmp_path: Path) -> None:
    """Importing the same file again writes no card, id, name or suggestion row."""
    db = tmp_path / "cards.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json"),
                        read_source(FIX / "yamlyugi_small.json")])
    before = {t: _rows(db, t) for t in ("cards", "ids", "names", *store.SUGGEST_TABLES.values())}
    writes: list[str] = []
    real = sqlite3.connect

    def traced(*args: object, **kwargs: object) -> sqlite3.Connection:
        con = real(*args, **kwargs)  # type: ignore[arg-type]
        con.set_trace_callback(writes.append)
        return con

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(writer.sqlite3, "connect", traced)
        import_sources(db, [read_source(FIX / "yamlyugi_small.json")])
    assert {t: _rows(db, t) for t in before} == before
    written = [w for w in writes if w.lstrip().upper().startswith(("INSERT", "DELETE",
                                                                    "UPDATE", "DROP"))]
    # the source read anew, and the store's counts and sources; nothing else
    assert {w.split()[2] for w in written} == {"meta", "sources", "source_records"}, written


@pytest.mark.parametrize("index", [
    {"a": [1], "b": [2, 3]},  # fewer rows than stored: only what differs is written
    {f"k{i}": [i, i + 1] for i in range(20)},  # more than twice as many: written anew
], ids=["diff", "anew"])
def test_name_rows_are_patched_or_written_anew_to_the_same_rows(index: dict[str, list[int]]
                                                                ) -> None:
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE names(key TEXT NOT NULL, passcode INTEGER NOT NULL, "
                "PRIMARY KEY(key, passcode)) WITHOUT ROWID")
    con.executemany("INSERT INTO names VALUES (?, ?)",
                    [("a", 1), ("a", 9), ("b", 3), ("k1", 1), ("z", 5)])
    writer._patch_names(con, index)
    assert con.execute("SELECT * FROM names").fetchall() == sorted(
        (key, pc) for key, pcs in index.items() for pc in pcs)


def test_the_ids_table_holds_every_id_the_merge_gave(tmp_path: Path) -> None:
    """A new store's ``ids`` rows are the merge's ids exactly (each card's own passcode,
    copied from the cards by SQLite, and the alternate-artwork and prerelease ids)."""
    from deckcheck.imports.merge import merge

    sources = [read_source(FIX / name) for name in (
        "ygoprodeck_small.json", "yamlyugi_small.json", "ygocdb_small.json")]
    db = tmp_path / "cards.sqlite"
    import_sources(db, sources)
    ids = merge({s.name: s.records for s in sources}).ids
    assert {kind for _, kind in ids.values()} >= {"main", "alt"}
    assert _rows(db, "ids") == sorted((i, pc, kind) for i, (pc, kind) in ids.items())


def _tables(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        con.close()


def test_english_names_only_write_one_trigram_table(tmp_path: Path) -> None:
    """A store of English names only (the dump alone) leaves out `suggest_all`, which would
    hold the English table's rows: a query in another script asks the English table. Adding
    a source with names in other languages writes `suggest_all`; the same suggestions as the
    store written in one go."""
    db = tmp_path / "cards.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    assert "suggest_en" in _tables(db) and "suggest_all" not in _tables(db)
    pool = store.StorePool(db)
    assert pool._trigram_tables() == {"en": "suggest_en", "all": "suggest_en"}
    queries = ["ash blosom", "Dark Magican", "harpie lady 4", "Harpie ハーピィ", "灰流うらら"]
    # the "all" tier answered from the English table: as the in-memory index answers it
    assert [pool.suggest(q) for q in queries] == [
        store.StorePool(_without_tables(db, tmp_path)).suggest(q) for q in queries]
    assert pool.suggest("Harpie ハーピィ")  # a query in another script found English names
    import_sources(db, [read_source(FIX / "yamlyugi_small.json")])  # patches a copy
    assert {"suggest_en", "suggest_all"} <= _tables(db)
    assert store.StorePool(db)._trigram_tables() == {"en": "suggest_en", "all": "suggest_all"}
    both = tmp_path / "both.sqlite"
    import_sources(both, [read_source(FIX / "ygoprodeck_small.json"),
                          read_source(FIX / "yamlyugi_small.json")])
    assert [store.StorePool(db).suggest(q) for q in queries] == \
        [store.StorePool(both).suggest(q) for q in queries]
    assert store.StorePool(db).suggest("灰流うらら")  # the Japanese name itself


def _without_tables(db: Path, tmp_path: Path) -> Path:
    """A copy of `db` without trigram tables (as schema 2): suggestions from memory."""
    copy = tmp_path / "memory.sqlite"
    copy.write_bytes(db.read_bytes())
    con = sqlite3.connect(copy)
    for table in store.SUGGEST_TABLES.values():
        con.execute(f"DROP TABLE IF EXISTS {table}")
    con.commit()
    con.close()
    return copy


@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 200])
def test_insert_writes_the_rows_in_order_as_one_statement_a_row_does(n: int) -> None:
    """`writer.insert` binds `ROWS_PER_INSERT` rows a statement: the same rows under the same
    rowids as one INSERT per row, whatever the number of rows (a short last block too)."""
    rows = [(i * 7 % 101, f"name {i}", None if i % 3 else i / 2) for i in range(n)]
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE a(x, y, z)")
    con.execute("CREATE TABLE b(x, y, z)")
    writer.insert(con, "a", 3, iter(rows))
    con.executemany("INSERT INTO b VALUES (?, ?, ?)", rows)
    got = con.execute("SELECT rowid, * FROM a ORDER BY rowid").fetchall()
    assert got == con.execute("SELECT rowid, * FROM b ORDER BY rowid").fetchall()
    assert len(got) == n
