"""The SQLite card store: paths, versions, atomic replacement, lazy lookups."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from deckcheck.cards import store
from deckcheck.cards.dbpath import default_db_path
from deckcheck.cards.load import open_pool
from deckcheck.cards.pool import CardPool, search_pool
from deckcheck.cards.store import StorePool, store_info
from deckcheck.errors import CardPoolError, ImportFailed, StoreVersionError
from deckcheck.imports import run, writer
from deckcheck.imports.run import import_sources
from deckcheck.sources import read_source

FIX = Path(__file__).resolve().parents[1] / "sources" / "fixtures"


def test_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DECKCHECK_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_path() == tmp_path / "xdg" / "deckcheck" / "cards.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "deckcheck" / "cards.sqlite"
    monkeypatch.setenv("DECKCHECK_DB", str(tmp_path / "x.sqlite"))
    assert default_db_path() == tmp_path / "x.sqlite"


def test_no_store_means_builtin(tmp_path: Path) -> None:
    pool = open_pool(str(tmp_path / "missing.sqlite"))
    assert pool.info.builtin is True
    assert open_pool(None).info.builtin is True  # DECKCHECK_DB points at a file not made yet


def test_store_is_a_card_pool(db: Path) -> None:
    pool = open_pool(str(db))
    assert isinstance(pool, StorePool) and isinstance(pool, CardPool)
    assert pool.info.builtin is False and pool.info.card_count == len(pool) == 18
    assert pool.info.sources == {"ygoprodeck": store_info(db)["sources"][0]["version"]}
    ash = pool.get(14558127)
    assert ash is not None and pool.get(14558128) is ash and pool.get(14558127) is ash
    assert pool.get(99) is None and pool.get(2**70) is None
    assert pool.find_name("ASH BLOSSOM and joyous spring") == [ash]
    assert pool.find_name("") == [] and pool.find_name("Nope") == []
    assert pool.by_konami_id(4041) is pool.get(46986414)
    assert sorted(c.name for c in pool.with_rule_name("Harpie Lady")) == ["Harpie Lady",
                                                                          "Harpie Lady 1"]
    assert [c.passcode for c in pool][:3] == [295517, 1861629, 6368038]
    assert len(list(pool)) == 18

def test_lazy_and_cached(db: Path) -> None:
    pool = StorePool(db)
    assert pool._cards == {}
    pool.get(14558127)
    assert list(pool._cards) == [14558127]
    assert pool.suggest("ash blosom") == ["Ash Blossom & Joyous Spring"]
    assert pool.suggest("Dark Magican") == ["Dark Magician"]
    assert pool.suggest("zzzzqqq") == []
    assert pool.suggest("灰流うらら") == []  # only YGOPRODeck: no Japanese names yet
    assert pool._suggest == {}  # answered from the store's trigram tables: no index built
    import_sources(db, [read_source(FIX / "yamlyugi_small.json")])
    assert StorePool(db).suggest("灰流うららら") == ["Ash Blossom & Joyous Spring"]


def test_a_store_without_trigram_tables_suggests_the_same(db: Path) -> None:
    """A schema-2 store (no trigram tables) builds the same index in memory, per tier."""
    queries = ["ash blosom", "Dark Magican", "zzzzqqq", "harpie lady 4", "灰流うらら"]
    fresh = [StorePool(db).suggest(q) for q in queries]
    con = sqlite3.connect(db)
    for table in store.SUGGEST_TABLES.values():
        con.execute(f"DROP TABLE IF EXISTS {table}")
    con.execute("PRAGMA user_version = 2")
    con.commit()
    con.close()
    old = StorePool(db)
    assert [old.suggest(q) for q in queries] == fresh
    assert sorted(old._suggest) == ["all", "en"]


def test_search(db: Path) -> None:
    pool = StorePool(db)
    assert [c.name for c in search_pool(pool, "harpie")] == ["Harpie Lady", "Harpie Lady 1"]
    assert [c.name for c in pool.search("100%_")] == []
    assert search_pool(pool, "  ") == []


def test_foreign_and_old_files(tmp_path: Path) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("hello, this is not a database at all " * 10, encoding="utf-8")
    with pytest.raises(StoreVersionError,
                       match=r"^.*notes.sqlite is not a deckcheck card database; .*\.$"):
        open_pool(str(text))
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t(x)").connection.close()
    with pytest.raises(StoreVersionError, match="is not a deckcheck card database"):
        StorePool(other)
    old = tmp_path / "old.sqlite"
    con = sqlite3.connect(old)
    con.execute(f"PRAGMA application_id = {store.APPLICATION_ID}")
    con.execute("PRAGMA user_version = 0")
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    with pytest.raises(StoreVersionError,
                       match=r"written by an older version of deckcheck \(schema 0"):
        open_pool(str(old))
    # importing into a foreign file refuses too, and leaves it alone
    with pytest.raises(StoreVersionError):
        import_sources(text, [read_source(FIX / "ygocdb_small.json")])
    assert text.read_text(encoding="utf-8").startswith("hello")


def test_failed_import_leaves_store_intact(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = db.read_bytes()
    reader = StorePool(db)

    def boom(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(run, "validate", boom)
    with pytest.raises(KeyboardInterrupt):
        import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    monkeypatch.undo()
    assert db.read_bytes() == before
    assert sorted(p.name for p in db.parent.iterdir()) == ["cards.sqlite", "cards.sqlite.lock"]
    # and an interruption while writing the new file
    real_write = run.write_store

    def half_write(path: Path, *args: object) -> None:
        real_write(path.with_name("elsewhere.sqlite"), *args)  # type: ignore[arg-type]
        raise OSError("disk full")

    monkeypatch.setattr(run, "write_store", half_write)
    with pytest.raises(OSError):
        import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    assert db.read_bytes() == before
    assert reader.get(14558127) is not None


def test_second_source_merges_and_replaces(db: Path) -> None:
    reader = StorePool(db)
    import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    info = store_info(db)
    assert [s["name"] for s in info["sources"]] == ["ygocdb", "ygoprodeck"]
    assert info["cards"] == 19 and info["alt_ids"] == 4
    pool = StorePool(db)
    assert pool.find_name("灰流丽")[0].passcode == 14558127
    assert pool.get(34103656).rule_name == "Umi"  # Lemuria, ygocdb only
    # importing the same source again replaces its records rather than adding to them
    import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    assert [s["records"] for s in store_info(db)["sources"]] == [4, 18]
    assert reader.get(14558127) is not None  # an open reader keeps its snapshot


def test_empty_source_is_refused(db: Path) -> None:
    data = read_source(FIX / "ygocdb_small.json")
    data.records = []
    with pytest.raises(ImportFailed, match="holds no cards"):
        import_sources(db, [data])


def test_info_without_store(tmp_path: Path) -> None:
    assert store_info(tmp_path / "none.sqlite") == {"path": str(tmp_path / "none.sqlite"),
                                                    "exists": False}


def test_pool_used_from_another_thread(db: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    pool = StorePool(db)
    with ThreadPoolExecutor(2) as ex:
        found = list(ex.map(pool.get, [14558127, 46986415, 1]))
    assert [c.passcode if c else None for c in found] == [14558127, 46986414, None]


def test_source_records_are_kept_per_source(db: Path) -> None:
    import_sources(db, [read_source(FIX / "yamlyugi_small.json")])
    said = StorePool(db).source_records(14558127)
    assert sorted(said) == ["yaml-yugi", "ygoprodeck"]
    assert said["yaml-yugi"][0]["names"]["zh-CN"] == "灰流丽"
    assert said["ygoprodeck"][0]["alt_passcodes"] == [14558128]


def test_a_database_damaged_while_open_is_a_card_pool_error(db: Path) -> None:
    from deckcheck.errors import CardPoolError

    pool = StorePool(db)
    with sqlite3.connect(db) as other:
        other.execute("DROP TABLE names")
    with pytest.raises(CardPoolError, match=r"is damaged \(no such table: names\); delete it"):
        pool.find_name("Some Card")
    pool.close()


def test_schema_1_store_is_still_read_and_rewritten_by_the_next_import(db: Path) -> None:
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    assert StorePool(db).get(14558127) is not None
    import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone() == (store.SCHEMA,)
    con.close()


def test_a_row_with_invalid_json_is_one_sentence(db: Path) -> None:
    con = sqlite3.connect(db)
    con.execute("UPDATE cards SET data = '{not json' WHERE passcode = 14558127")
    con.execute("UPDATE source_records SET data = '[1,' WHERE passcode = 14558127")
    con.commit()
    con.close()
    with pytest.raises(CardPoolError, match=r"is damaged: the card for passcode 14558127 is not "
                                            r"valid \(.*\); delete the file and import"):
        StorePool(db).get(14558127)
    with pytest.raises(CardPoolError, match=r"ygoprodeck's record for passcode 14558127"):
        import_sources(db, [read_source(FIX / "ygocdb_small.json")])


@pytest.mark.parametrize("name", ["x#y?%20.db", "a b é&=;%2.db"])
def test_name_with_uri_characters(tmp_path: Path, name: str) -> None:
    """The store opens read-only by an SQLite URI (`read_only_uri`): any file name, spaces,
    accents and URI characters included, opens that file and no other."""
    path = tmp_path / name
    import_sources(path, [read_source(FIX / "ygoprodeck_small.json")])
    assert StorePool(path).get(14558127) is not None
    assert StorePool(str(path)).path == str(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [name, f"{name}.lock"]


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="needs a user whom file permissions bind (not root, not Windows)")
def test_read_only_store_says_so(db: Path) -> None:
    before = db.read_bytes()
    db.chmod(0o444)
    with pytest.raises(CardPoolError, match=r"cards\.sqlite is read-only; make it writable"):
        import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    assert db.read_bytes() == before


def test_read_only_check_before_work(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same refusal as for a read-only file, whoever runs it (root ignores permissions)."""
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != db)
    with pytest.raises(CardPoolError, match=r"cards\.sqlite is read-only; make it writable"):
        import_sources(db, [read_source(FIX / "ygocdb_small.json")])


@pytest.mark.parametrize(("error", "said"), [
    (sqlite3.OperationalError("database or disk is full"), "the disk is full"),
    (OSError(28, "No space left on device"), "the disk is full"),
    (sqlite3.OperationalError("attempt to write a readonly database"),
     "the file system is read-only"),
])
def test_write_failures_say_what_failed(db: Path, monkeypatch: pytest.MonkeyPatch,
                                        error: Exception, said: str) -> None:
    before = db.read_bytes()

    def fail(*args: object) -> None:
        raise error

    monkeypatch.setattr(writer, "_write_tables", fail)
    with pytest.raises(CardPoolError) as exc:
        import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    assert said in str(exc.value) and "damaged" not in str(exc.value)
    assert db.read_bytes() == before
    assert sorted(p.name for p in db.parent.iterdir()) == ["cards.sqlite", "cards.sqlite.lock"]


def test_stale_temp_files_are_removed_by_the_next_import(db: Path) -> None:
    stale = db.parent / ".cards.sqlite.abc123.tmp"  # what `kill -9` during an import leaves
    stale.write_bytes(b"half a database")
    other = db.parent / ".other.sqlite.abc123.tmp"
    other.write_bytes(b"another store's")
    old_download = db.parent / ".cardinfo.x1y2.json"  # `cards update` killed mid-download
    old_download.write_bytes(b"{")
    os.utime(old_download, (time.time() - 7200, time.time() - 7200))
    new_download = db.parent / ".cardinfo.z3.json"  # another update still downloading
    new_download.write_bytes(b"{")
    import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    assert not stale.exists() and other.exists()
    assert not old_download.exists() and new_download.exists()


_CHILD = """
import sys
from deckcheck.imports import run, writer
from deckcheck.imports.run import import_sources
from deckcheck.sources import read_source
import_sources(sys.argv[1], [read_source(sys.argv[2])])
"""


def test_concurrent_imports_are_serialised(tmp_path: Path) -> None:
    """Two processes import different sources at once: the store ends with both."""
    import subprocess
    import sys

    from filelock import FileLock

    from deckcheck.imports.guard import lock_path

    path = tmp_path / "cards.sqlite"
    import_sources(path, [read_source(FIX / "ygoprodeck_small.json")])
    # hold the lock so both children start and wait, then let them race for it
    held = FileLock(lock_path(path))
    held.acquire()
    children = [subprocess.Popen([sys.executable, "-c", _CHILD, str(path), str(FIX / name)])
                for name in ("yamlyugi_small.json", "ygocdb_small.json")]
    time.sleep(3)
    assert all(c.poll() is None for c in children)  # both wait for the lock
    held.release()
    assert [c.wait(timeout=60) for c in children] == [0, 0]
    names = {s["name"] for s in store_info(path)["sources"]}
    assert names == {"ygoprodeck", "yaml-yugi", "ygocdb"}


def test_search_ranks_exact_and_prefix_first(db: Path) -> None:
    from deckcheck.cards.pool import MemoryPool

    pool = StorePool(db)
    # an exact name first, though longer; then names starting with the query
    assert [c.name for c in pool.search("umi")] == ["Umi"]
    assert [c.name for c in pool.search("d")][:3] == ["Dark Magician", "Decode Talker",
                                                      "Destiny HERO - Plasma"]
    names = [c.name for c in pool.search("gaia")]
    assert names == ["Gaia The Fierce Knight", "Gaia the Magical Knight"]
    # a word inside the name comes after names starting with the query
    assert [c.name for c in pool.search("knight")] == ["Gaia The Fierce Knight",
                                                        "Gaia the Magical Knight"]
    # the memory pool orders the same way as the store
    memory = MemoryPool(list(pool))
    for q in ("ash", "dark", "knight", "dragon", "うらら", "ra"):
        assert [c.passcode for c in search_pool(memory, q, 50)] == \
            [c.passcode for c in pool.search(q, 50)], q
    assert len({c.passcode for c in pool.search("a", 100)}) == len(pool.search("a", 100))
