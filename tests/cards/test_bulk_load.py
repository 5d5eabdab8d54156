"""What an event reads before forking its workers: the index of the built-in cards and facts
files (`BuiltinPool.before_fork`), every compact row
of a store (`StorePool.before_fork`), and a forked worker's own connection
(`StorePool.reopen`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.cards import builtin
from deckcheck.cards.builtin import (
    CARDS_FILE,
    FACTS_FILE,
    IDS_FILE,
    NAMES_FILE,
    BuiltinPool,
)
from deckcheck.cards.store import StorePool


def _fresh() -> BuiltinPool:
    return BuiltinPool(builtin._package_file(CARDS_FILE), builtin._package_file(IDS_FILE),
                       builtin._package_file(NAMES_FILE), facts=FACTS_FILE)


def test_after_before_fork_every_card_is_found_through_the_index(
        monkeypatch: pytest.MonkeyPatch) -> None:
    codes = [89631139, 14558127, 46986414, 5]  # 5 is no card
    indexed = _fresh()
    indexed.before_fork()
    looked_for: list[object] = []
    find = builtin._find
    monkeypatch.setattr(builtin, "_find", lambda *a: looked_for.append(a[2]) or find(*a))
    cards = [indexed.get(pc) for pc in codes[:3]]
    assert looked_for == []  # no card's line bisected: each found through the index
    monkeypatch.setattr(builtin, "_find", find)
    single = _fresh()
    assert cards == [single.get(pc) for pc in codes[:3]] and None not in cards
    # a passcode that is no card's own is looked for in the ids file, as before
    assert indexed.get(5) is None and indexed.get(14558128) is indexed.get(14558127)


def test_before_fork_indexes_the_cards_file_once_for_every_worker() -> None:
    pool = _fresh()
    assert getattr(pool, "_line_index", None) is None
    pool.before_fork()
    index = pool._line_index  # type: ignore[attr-defined]  # made by `_index`
    starts = pool._fact_starts  # where each facts line starts, from the same index
    assert index is not None and starts is not None and len(starts) == len(index[0])
    pool.reopen()  # (nothing to reopen: the files are in memory)
    pool.before_fork()
    assert pool._line_index is index  # type: ignore[attr-defined]  # the one made before
    assert pool._fact_starts is starts
    assert pool.get(89631139) is not None


def test_the_index_is_every_line_in_passcode_order() -> None:
    """`_index` takes the lines in file order: the shipped file must be sorted by passcode
    (as bisection needs too), and each start must be the start of that card's line."""
    pool = _fresh()
    codes, starts = pool._index()
    data = builtin._package_file(CARDS_FILE)
    body = data[builtin._body(data):].decode("utf-8").splitlines()
    assert len(codes) == len(starts) == len(body) > 10_000
    assert all(a < b for a, b in zip(codes[:-1], codes[1:], strict=True))  # none twice
    for i in range(0, len(codes), 97):
        line = data[starts[i]:data.index(b"\n", starts[i])]
        assert line.split(b"\t")[0] == str(codes[i]).encode() and line.decode() == body[i]


def test_every_card_through_the_index_is_the_full_parse() -> None:
    everything = list(_fresh())  # parses every line (`MemoryPool`)
    pool = _fresh()
    pool.before_fork()
    assert [pool.get(c.passcode) for c in everything] == everything


def test_every_row_loaded_answers_without_a_query(db: Path) -> None:
    pool, single = StorePool(db), StorePool(db)
    pool.before_fork()
    pool._con.close()  # any query now fails
    for pc in (14558127, 14558128, 46986414, 99):
        a, b = pool.get(pc), single.get(pc)
        assert (a.passcode if a else None) == (b.passcode if b else None)


def test_reconnect_in_a_forked_process_keeps_what_the_pool_holds(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pool = StorePool(db)
    pool.before_fork()
    card = pool.get(14558127)
    parent = pool._con
    pool.reopen()  # the same process: nothing to do
    assert pool._con is parent
    monkeypatch.setattr("os.getpid", lambda: -1)  # as a forked process sees it
    pool.reopen()
    assert pool._con is not parent and pool.get(14558127) is card
    assert [c.passcode for c in pool.find_name("Ash Blossom & Joyous Spring")] == [14558127]


def test_a_card_filled_in_a_forked_process_keeps_the_parent_connection(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card filling itself in a forked worker (`stored_card`) connects as `reopen` does:
    the parent's connection is kept, never closed from the child."""
    pool = StorePool(db)
    pool.preload([46986414])
    card = pool.get(46986414)
    assert card is not None
    parent = pool._con
    monkeypatch.setattr("os.getpid", lambda: -1)  # as a forked process sees it
    assert card.text  # read through a connection of this process
    assert pool._con is not parent and pool._inherited is parent  # type: ignore[attr-defined]
