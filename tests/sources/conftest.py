"""Fixtures for the source importers: hand-written files, cdb builder, a real-data store."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
CARDS = Path(__file__).resolve().parents[3] / "shared" / "data" / "cards"

CdbRow = tuple[int, int, int, int, int, int, int, int, int, str, str]


def write_cdb(path: Path, rows: list[CdbRow] | list[list[Any]], typed: bool = True) -> Path:
    """A tiny YGOPro cards.cdb: rows of (id, ot, alias, type, atk, def, level, race,
    attribute, name, desc). `typed=False`: columns without a type, so a value of the wrong
    type (text in ATK) is stored as given, as in a damaged real file."""
    con = sqlite3.connect(path)
    if typed:
        con.executescript(
            "CREATE TABLE datas(id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER,"
            " setcode INTEGER, type INTEGER, atk INTEGER, def INTEGER, level INTEGER,"
            " race INTEGER, attribute INTEGER, category INTEGER);"
            "CREATE TABLE texts(id INTEGER PRIMARY KEY, name TEXT, desc TEXT, str1 TEXT,"
            " str2 TEXT);")
    else:
        con.executescript(
            "CREATE TABLE datas(id, ot, alias, setcode, type, atk, def, level, race, attribute,"
            " category); CREATE TABLE texts(id, name, desc, str1, str2);")
    for pid, ot, alias, ctype, atk, dfn, level, race, attr, name, desc in rows:
        con.execute("INSERT INTO datas VALUES (?,?,?,0,?,?,?,?,?,?,0)",
                    (pid, ot, alias, ctype, atk, dfn, level, race, attr))
        con.execute("INSERT INTO texts VALUES (?,?,?,'','')", (pid, name, desc))
    con.commit()
    con.close()
    return path


@pytest.fixture
def cdb_factory(tmp_path: Path) -> Callable[[list[CdbRow], str], Path]:
    def make(rows: list[CdbRow], name: str = "cards.cdb") -> Path:
        return write_cdb(tmp_path / name, rows)
    return make


@pytest.fixture(scope="session")
def real_store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A store built from the real YGOPRODeck dump, YAML Yugi, the EDOPro delta cdb and
    mappings (built once per test session)."""
    if not CARDS.is_dir():
        pytest.skip("../shared/data is not present (real-data test)")
    from deckcheck.cards.store import StorePool
    from deckcheck.imports.run import import_sources
    from deckcheck.sources import read_source

    path = tmp_path_factory.mktemp("real") / "cards.sqlite"
    results = {}
    first = read_source(CARDS / "ygoprodeck-cardinfo.zip")
    results["ygoprodeck-cardinfo.zip"] = (first, import_sources(path, [first]))
    rest = {name: read_source(CARDS / name) for name in (
        "yaml-yugi-cards.zip", "edopro/cards.delta.cdb", "edopro/mappings.json")}
    summary = import_sources(path, list(rest.values()))  # merged with what the store has
    results.update({name: (data, summary) for name, data in rest.items()})
    pool = StorePool(path)
    yield pool, results
    pool.close()



@pytest.fixture(scope="session")
def full_store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A store of every real source: the YGOPRODeck dump, YAML Yugi, every EDOPro cdb and
    mappings.json, and YGOJSON (one merge; built once per test session)."""
    if not (CARDS / "ygojson-v1.zip").is_file():
        pytest.skip("../shared/data is not present (real-data test)")
    from deckcheck.cards.store import StorePool
    from deckcheck.imports.run import import_sources
    from deckcheck.sources import read_source

    path = tmp_path_factory.mktemp("full") / "cards.sqlite"
    files = [CARDS / "ygoprodeck-cardinfo.zip", CARDS / "yaml-yugi-cards.zip",
             *sorted((CARDS / "edopro").glob("*.cdb")), CARDS / "edopro" / "mappings.json",
             CARDS / "ygojson-v1.zip"]
    import_sources(path, [read_source(f) for f in files])
    pool = StorePool(path)
    yield pool
    pool.close()


@pytest.fixture
def unpacked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the zip members opened for reading during the test (a refusal made from
    the archive's directory opens none: the work is counted, not timed)."""
    import zipfile

    names: list[str] = []
    real_open = zipfile.ZipFile.open

    def spy(self: zipfile.ZipFile, name: str | zipfile.ZipInfo, mode: str = "r", *args: Any,
            **kw: Any) -> Any:
        if mode == "r":
            names.append(name.filename if isinstance(name, zipfile.ZipInfo) else name)
        return real_open(self, name, mode, *args, **kw)

    monkeypatch.setattr(zipfile.ZipFile, "open", spy)
    return names
