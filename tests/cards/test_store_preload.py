"""The store's batch look-up (`preload`) and name cache answer exactly as one-by-one look-ups."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.cards.store import StorePool
from deckcheck.checker import Checker
from deckcheck.decks.ydk import read_ydk


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
    with pytest.raises(ValueError):
        card_from_stored({**minimal, "kind": "nope"})
    with pytest.raises(KeyError):
        card_from_stored({k: v for k, v in minimal.items() if k != "rule_name"})


def _all_ids(db: Path) -> list[int]:
    import sqlite3

    con = sqlite3.connect(db)
    ids = [i for (i,) in con.execute("SELECT id FROM ids ORDER BY id")]
    con.close()
    return ids


def test_cards_built_from_compact_rows_equal_the_decoded_ones(db: Path) -> None:
    """`preload` builds cards from the compact rows (schema 5) without their JSON; each equals
    the card `get` decodes from the JSON, field by field and type by type, once filled in."""
    from deckcheck.cards.model import Card

    ids = _all_ids(db)
    lean, full = StorePool(db), StorePool(db)
    lean.preload(ids)
    assert lean._lean
    for pc in ids:
        a, b = lean.get(pc), full.get(pc)
        assert a is not None and b is not None
        assert a.rule_key == b.rule_key  # from the row / worked out from the rule name
        for name in Card.model_fields:
            assert getattr(a, name) == getattr(b, name), name
            assert type(getattr(a, name)) is type(getattr(b, name)), name
        assert a == b and hash(a) == hash(b)


def test_a_check_reads_no_card_json(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checking a deck builds its cards from the compact rows: the JSON of a card is read
    only when something asks for a field the row lacks (its text), and then once."""
    read: list[int] = []
    real = StorePool.stored_card

    def counting(self: StorePool, passcode: int) -> object:
        read.append(passcode)
        return real(self, passcode)

    monkeypatch.setattr(StorePool, "stored_card", counting)
    pool = StorePool(db)
    deck = read_ydk(b"#main\n14558127\n14558128\n14558127\n14558127\n99\n#extra\n!side\n",
                    "a.ydk")
    Checker("tcg", "2026-06-01", pool=pool).check(deck)
    assert read == []
    card = pool.get(14558127)
    assert card is not None and card.text and card.text == pool.get(14558128).text
    assert read == [14558127]


def test_a_card_built_from_its_row_fills_in_after_close_and_in_a_fork(db: Path) -> None:
    import copy
    import os
    import pickle

    pool = StorePool(db)
    pool.preload([14558127, 46986414])
    ash, other = pool.get(14558127), pool.get(46986414)
    assert ash is not None and other is not None
    pool.close()
    assert ash.text  # read through a connection of its own
    pool._pid = os.getpid() + 1  # as in a forked worker: the parent's connection is not used
    assert pickle.loads(pickle.dumps(other)) == other == copy.deepcopy(other)
    assert pool._pid == os.getpid()


def test_a_damaged_row_is_one_sentence_when_the_card_fills_in(db: Path) -> None:
    import sqlite3

    from deckcheck.errors import CardPoolError

    pool = StorePool(db)
    pool.preload([14558127])
    con = sqlite3.connect(db)
    con.execute("UPDATE cards SET data = '{not json' WHERE passcode = 14558127")
    con.commit()
    con.close()
    card = pool.get(14558127)
    assert card is not None and card.name == "Ash Blossom & Joyous Spring"
    with pytest.raises(CardPoolError, match=r"is damaged: the card for passcode 14558127 is not "
                                            r"valid \(.*\); delete the file and import"):
        _ = card.text


def test_many_lookups_read_every_compact_row_once(db: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the cost of reading every row (`_QUERY_ROWS`), `preload` reads them all in one
    pass; the answers are those of one query per deck."""
    from deckcheck.cards import store

    ids = _all_ids(db)
    asked = [*ids, 99, 1, 2**31, 14558127]
    monkeypatch.setattr(store, "_QUERY_ROWS", 1e9)
    bulk, single = StorePool(db), StorePool(db)
    bulk.preload(asked[:2])
    assert bulk._compact is not None
    assert len(bulk._compact) + len(bulk._aliases) == len(ids)
    bulk.preload(asked)
    for pc in asked:
        a, b = bulk.get(pc), single.get(pc)
        assert a == b
    assert bulk.get(123456) is None and bulk.get(46986415) == single.get(46986415)


def test_a_store_without_compact_rows_is_read_from_the_json(db: Path) -> None:
    """A schema-4 store (no ``cards.facts``) still reads, its cards decoded from the JSON."""
    import shutil
    import sqlite3

    lean = db.with_name("lean.sqlite")
    shutil.copyfile(db, lean)
    con = sqlite3.connect(db)
    con.execute("DROP INDEX cards_facts")
    con.execute("ALTER TABLE cards DROP COLUMN facts")
    con.execute("PRAGMA user_version = 4")
    con.commit()
    con.close()
    deck = read_ydk(b"#main\n14558127\n14558128\n14558127\n14558127\n99\n#extra\n!side\n",
                    "a.ydk")
    old = StorePool(db)
    assert not old._lean
    report = Checker("tcg", "2026-06-01", pool=old).check(deck)
    assert report == Checker("tcg", "2026-06-01", pool=StorePool(lean)).check(deck)
    assert {"DC201", "DC401"} <= {v.code for v in report.violations}
    old.preload([14558127])
    assert old.get(14558127) is not None and not hasattr(old.get(14558127), "_stored")


@pytest.mark.parametrize("extra", [
    {},
    {"name": "Harpie Lady 1", "rule_name": "Harpie Lady"},
    {"name": "Odd\tName 2", "rule_name": "Odd\tName"},  # a tab in a name stays in the name
    {"alt_passcodes": [2, 3], "scopes": ["tcg_only", "anime"],
     "released": {"tcg": "2020-01-02", "md": "2022-01-19"}},
    {"kind": "skill", "frame": "skill", "name": "", "rule_name": "?!"},
])
def test_the_compact_form_gives_the_stored_card(extra: dict[str, object]) -> None:
    """`card_from_row` of `stored_facts` sets the same values as `card_from_stored` of the
    JSON for every slot it sets, and the rest fills in from the store on first use."""
    from deckcheck.cards.compact import card_from_row, stored_facts
    from deckcheck.cards.model import Card, card_from_stored

    data = {"passcode": 1, "name": "X", "kind": "monster", "frame": "xyz", "rule_name": "X",
            "text": "Its text.", "level": None, "rank": 4, **extra}

    class Store:
        def stored_card(self, passcode: int) -> Card:
            assert passcode == 1
            return card_from_stored(dict(data))

    lean, full = card_from_row(1, stored_facts(data), Store()), card_from_stored(dict(data))
    for name in ("passcode", "alt_passcodes", "name", "rule_name", "kind", "frame", "scopes",
                 "released"):
        assert getattr(lean, name) == getattr(full, name), name
        assert type(getattr(lean, name)) is type(getattr(full, name)), name
    assert lean.rule_key == full.rule_key
    assert lean.rank == 4 and lean.text == "Its text." and lean == full


def test_forgotten_release_cells_are_read_again_the_same() -> None:
    """`released_days` remembers each cell; `forget_released` empties the memo, as a new
    process starts (the benchmarks' fresh pools)."""
    import datetime as dt

    from deckcheck.cards import compact

    cell = "tcg=2002-03-08,ocg=1999-02-04"
    first = compact.released_days(cell)
    assert cell in compact._RELEASED
    compact.forget_released()
    assert compact._RELEASED == {}
    again = compact.released_days(cell)
    assert again == first == {"tcg": dt.date(2002, 3, 8), "ocg": dt.date(1999, 2, 4)}
    assert again is not compact._RELEASED[cell]  # a copy: the memo is never handed out
