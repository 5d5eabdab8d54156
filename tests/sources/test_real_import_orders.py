"""The store built from the real sources is the same, table by table and row by row, whether
they are imported all at once or one at a time (each later import patches a copy
of the store instead of writing it anew). Skipped when ../shared/data is absent."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

CARDS = Path(__file__).resolve().parents[3] / "shared" / "data" / "cards"
FILES = ("ygoprodeck-cardinfo.zip", "yaml-yugi-cards.zip", "edopro/cards.delta.cdb",
         "edopro/mappings.json")


def _tables(path: Path) -> dict[str, object]:
    con = sqlite3.connect(path)
    try:
        out: dict[str, object] = {
            "meta": con.execute("SELECT * FROM meta WHERE key != 'built_at' ORDER BY key")
            .fetchall(),
            "sources": con.execute("SELECT name, version, records FROM sources ORDER BY name")
            .fetchall(),
            # each source's records in their order; sources in any order
            "source_records": sorted(con.execute(
                "SELECT source, passcode, data FROM source_records ORDER BY rowid").fetchall(),
                key=lambda r: r[0]),
            "schema": con.execute("PRAGMA user_version").fetchone(),
        }
        for table in ("cards", "ids", "names", "suggest_en", "suggest_all"):
            # the suggestion rows under the same rowids too: FTS5 breaks rank ties by them
            out[table] = con.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall() \
                if table.startswith("suggest") else con.execute(f"SELECT * FROM {table}") \
                .fetchall()
        return out
    finally:
        con.close()


def test_every_import_order_writes_the_same_store(tmp_path: Path) -> None:
    if not CARDS.is_dir():
        pytest.skip("../shared/data is not present (real-data test)")
    from deckcheck.imports.run import import_sources
    from deckcheck.sources import read_source

    data = {name: read_source(CARDS / name) for name in FILES}
    # (more orders, and YGOJSON and every cdb too, are slower: see bench_import's notes)
    orders = {"all at once": [list(FILES)], "one at a time": [[f] for f in FILES]}
    built = {}
    for label, steps in orders.items():
        db = tmp_path / label / "cards.sqlite"
        for step in steps:
            import_sources(db, [data[f] for f in step])
        built[label] = _tables(db)
    first = built.pop("all at once")
    for label, tables in built.items():
        for table, rows in first.items():
            assert tables[table] == rows, (label, table)
