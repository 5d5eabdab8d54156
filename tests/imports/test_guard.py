"""A store never shrinks by surprise: an import or update that would drop more than a small
share of the cards a source (or the store) held is refused with both counts, unless
`--allow-smaller`; `cards update` calls a store up to date only when it still holds what it
recorded."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck.cards.store import StorePool, store_info
from deckcheck.cli.main import cli
from deckcheck.errors import ImportFailed
from deckcheck.imports.guard import shrinks
from deckcheck.imports.run import import_sources
from deckcheck.imports.update import matches_record
from deckcheck.sources import read_source
from tests.conftest import HOSTILE_FIXTURES

FIX = Path(__file__).resolve().parents[1] / "sources" / "fixtures"
ONE_CARD = HOSTILE_FIXTURES / "dataloss-cardinfo-one-card.json"
THREE_CARDS = HOSTILE_FIXTURES / "dataloss-cards-update-3-card-answer.json"


def _cards(db: Path) -> int:
    pool = StorePool(db)
    try:
        return len(pool)
    finally:
        pool.close()


@pytest.fixture
def full(tmp_path: Path) -> Path:
    """A store of YGOPRODeck's 18 fixture cards plus YAML Yugi's."""
    db = tmp_path / "cards.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    import_sources(db, [read_source(FIX / "yamlyugi_small.json")])
    return db


def test_the_rule() -> None:
    assert not shrinks(14388, 14388 - 719) and shrinks(14388, 14388 - 720)
    assert shrinks(14388, 1) and shrinks(18, 3) and shrinks(12, 1)
    assert not shrinks(5, 1) and not shrinks(3, 5) and not shrinks(0, 0)


@pytest.mark.parametrize("answer", [ONE_CARD, THREE_CARDS])
def test_a_tiny_valid_answer_is_refused_naming_both_counts(full: Path, answer: Path) -> None:
    before = _cards(full)
    kept = len(json.loads(answer.read_text())["data"])
    with pytest.raises(ImportFailed) as exc:
        import_sources(full, [read_source(answer)])
    assert f"would leave {kept:,} cards where there were 18;" in str(exc.value)
    assert "--allow-smaller" in str(exc.value)
    assert _cards(full) == before


def test_allow_smaller_imports_it(full: Path) -> None:
    result = import_sources(full, [read_source(THREE_CARDS)], allow_smaller=True)
    assert result["imported"] == ["ygoprodeck"]
    assert [s["records"] for s in store_info(full)["sources"] if s["name"] == "ygoprodeck"] == [3]


def test_a_store_losing_cards_through_another_source_is_refused(tmp_path: Path) -> None:
    """The source's own count may hold while the store loses cards: the store's count too."""
    db = tmp_path / "cards.sqlite"
    data = read_source(FIX / "ygoprodeck_small.json")
    import_sources(db, [data])
    same_count = read_source(FIX / "ygoprodeck_small.json")
    for rec in same_count.records[1:]:  # 18 records still, but 17 only add to other cards
        rec["enrich_only"] = True
    with pytest.raises(ImportFailed, match=r"would leave 1 cards where there were 18;"):
        import_sources(db, [same_count])
    assert _cards(db) == 18
    assert import_sources(db, [same_count], allow_smaller=True)["cards"] == 1


def test_a_small_source_may_change_freely(tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    data = read_source(FIX / "ygoprodeck_small.json")
    import_sources(db, [data])
    data.records = data.records[:9]
    assert import_sources(db, [data])["cards"] == 9  # 18 -> 9: less than the handful of 10


def test_cli_import_refuses_then_allow_smaller(full: Path) -> None:
    res = CliRunner().invoke(cli, ["--db", str(full), "cards", "import", str(ONE_CARD)])
    assert res.exit_code == 2
    assert res.stderr.startswith("deckcheck: ") and res.stderr.count("\n") == 1
    assert "would leave 1 cards where there were 18" in res.stderr
    res = CliRunner().invoke(cli, ["--db", str(full), "cards", "import", "--allow-smaller",
                                   str(ONE_CARD)])
    assert res.exit_code == 0, res.output


def test_cli_update_from_refuses(full: Path) -> None:
    res = CliRunner().invoke(cli, ["--db", str(full), "cards", "update", "--from",
                                   str(THREE_CARDS)])
    assert res.exit_code == 2 and "would leave 3 cards where there were 18" in res.stderr
    res = CliRunner().invoke(cli, ["--db", str(full), "cards", "update", "--from",
                                   str(THREE_CARDS), "--allow-smaller"])
    assert res.exit_code == 0, res.output


def test_matches_record(full: Path) -> None:
    assert matches_record(full, "ygoprodeck") and not matches_record(full, "ygocdb")
    con = sqlite3.connect(full)
    con.execute("DELETE FROM source_records WHERE source = 'ygoprodeck' AND passcode = "
                "14558127")
    con.commit()
    con.close()
    assert not matches_record(full, "ygoprodeck")
    assert not matches_record(full.parent / "none.sqlite", "ygoprodeck")


def test_the_import_lock_is_the_os_lock_filelock_takes_beside_the_store(
        tmp_path: Path) -> None:
    """The lock was `fcntl` on the folder, so on Windows two imports could run at once; it is
    now the operating system's lock that `filelock` also takes (flock, or a lock of the first
    byte on Windows) on ``cards.sqlite.lock``: while one import holds it, another cannot take
    it."""
    from filelock import FileLock, Timeout

    from deckcheck.imports.guard import lock_path, store_lock

    db = tmp_path / "cards.sqlite"
    with store_lock(db):
        with pytest.raises(Timeout):
            FileLock(lock_path(db)).acquire(timeout=0.2)
    with FileLock(lock_path(db), timeout=1):
        pass  # released
    # and the other way: while another program holds it with `filelock`, an import waits
    import threading

    entered = threading.Event()

    def importing() -> None:
        with store_lock(db):
            entered.set()

    with FileLock(lock_path(db), timeout=1):
        waiting = threading.Thread(target=importing)
        waiting.start()
        assert not entered.wait(0.3)
    assert entered.wait(5)
    waiting.join(5)
