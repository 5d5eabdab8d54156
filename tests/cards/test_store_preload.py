"""The store's batch look-up (`preload`) and name cache answer exactly as one-by-one look-ups."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.cards.store import StorePool, import_sources
from deckcheck.checker import Checker
from deckcheck.decks.ydk import read_ydk
from deckcheck.sources import read_source

FIX = Path(__file__).resolve().parents[1] / "sources" / "fixtures"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "cards.sqlite"
    import_sources(path, [read_source(FIX / "ygoprodeck_small.json")])
    return path


def test_preload_matches_get(db: Path) -> None:
    codes = [14558127, 14558128, 99, 46986414, 2**70, 14558127]
    batch, single = StorePool(db), StorePool(db)
    batch.preload(codes)
    assert {14558127, 14558128, 99, 46986414} <= set(batch._ids)  # answered from the cache
    assert 2**70 not in batch._ids  # no passcode: never asked
    for pc in codes:
        a, b = batch.get(pc), single.get(pc)
        assert (a.passcode if a else None) == (b.passcode if b else None)
    assert batch.get(14558128) is batch.get(14558127)  # the alternate artwork: the same card
    assert batch.get(99) is None


def test_preload_chunks_long_lists(db: Path) -> None:
    pool = StorePool(db)
    pool.preload(range(1, 1200))  # more than one query's worth of bound parameters
    pool.preload([14558127])
    assert pool.get(14558127) is not None and pool.get(500) is None


def test_find_name_is_cached_but_returns_fresh_lists(db: Path) -> None:
    pool = StorePool(db)
    first = pool.find_name("Ash Blossom & Joyous Spring")
    first.clear()  # a caller changing its list must not change the pool's answer
    again = pool.find_name("ash blossom and joyous spring")
    assert [c.passcode for c in again] == [14558127]


def test_checker_reports_the_same_with_the_store(db: Path) -> None:
    deck = read_ydk(b"#main\n14558127\n14558128\n14558127\n14558127\n99\n#extra\n!side\n",
                    "a.ydk")
    report = Checker("tcg", "2026-06-01", pool=StorePool(db)).check(deck)
    codes = sorted(v.code for v in report.violations)
    assert "DC201" in codes  # four Ash Blossoms, one under its alternate passcode
    assert "DC401" in codes  # 99 is no card


def test_stored_cards_decode_as_the_constructor_builds_them(db: Path) -> None:
    """The store's lean decoder (`card_from_stored`) gives the same card, field by field and
    type by type, as `Card(**json)`; a partial object takes the constructor's defaults."""
    import json
    import sqlite3

    from deckcheck.cards.model import Card, card_from_stored

    con = sqlite3.connect(db)
    rows = [json.loads(d) for (d,) in con.execute("SELECT data FROM cards")]
    con.close()
    assert rows
    minimal = {"passcode": 1, "name": "X", "kind": "monster", "frame": "effect",
               "rule_name": "X", "released": {"tcg": "2020-01-02"}, "scopes": ["anime"]}
    for data in [*rows, minimal]:
        built, lean = Card(**json.loads(json.dumps(data))), card_from_stored(data)
        assert lean == built
        for name in Card.model_fields:
            assert type(getattr(lean, name)) is type(getattr(built, name)), name
    with pytest.raises(KeyError):
        card_from_stored({**minimal, "kind": "nope"})
