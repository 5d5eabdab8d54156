from __future__ import annotations

import datetime as dt

from rulekit import FILLER, NEW, card, codes, deck, only, run, tcg

from deckcheck.cards.model import Card
from deckcheck.cards.pool import MemoryPool


def test_released_card_passes() -> None:
    assert codes(run(deck([(NEW, 1)]), date=dt.date(2026, 8, 1))) == []


def test_card_checked_before_its_release_date_fails() -> None:
    v = only(run(deck([(NEW, 1)]), date=dt.date(2026, 7, 31)), "DC402")
    assert v.message == ("Test New Card is not released in the TCG until 2026-08-01 (checked as "
                         "of 2026-07-31).")


def test_region_decides() -> None:
    ocg = tcg(id="ocg", name="OCG", region="ocg")
    assert codes(run(deck([(NEW, 1)]), ocg, date=dt.date(2026, 7, 31))) == []


def test_no_dates_known_gives_a_notice_not_a_violation() -> None:
    r = run(deck())
    assert "DC402" not in codes(r)
    assert any("could not be checked" in n for n in r.notices)
    assert not any("could not be checked" in n for n in run(deck([(NEW, 1)])).notices)


def _pool(*cards: Card) -> MemoryPool:
    return MemoryPool([*FILLER, *cards])


def test_undated_cards_are_counted_when_others_have_dates() -> None:
    r = run(deck([(NEW, 1)], fill=40), pool=_pool(NEW), date=dt.date(2026, 7, 31))
    assert codes(r) == ["DC402"]
    assert "40 cards have no known TCG release date; not checked." in r.notices


def test_one_undated_card_is_counted_in_the_singular() -> None:
    dated = [card(c.passcode, c.name, c.frame, released={"tcg": dt.date(2002, 3, 8)})
             for c in FILLER]
    undated = card(99900003, "Test Undated Card")
    r = run(deck([(undated, 3)], fill=37), pool=MemoryPool([*dated, undated]))
    assert "1 card has no known TCG release date; not checked." in r.notices
    assert codes(r) == []


def test_master_duel_dates_decide_in_master_duel() -> None:
    md_card = card(99900004, "Test Master Duel Card", master_duel=True,
                   released={"ocg": dt.date(2023, 7, 22), "md": dt.date(2023, 12, 1)})
    fill = [card(c.passcode, c.name, c.frame, master_duel=True,
                 released={"md": dt.date(2022, 1, 19)}) for c in FILLER]
    md = tcg(id="master-duel", name="Master Duel", region="md", history=[])
    pool = MemoryPool([*fill, md_card])
    v = only(run(deck([(md_card, 1)], fill=39), md, pool=pool, date=dt.date(2023, 11, 1)),
             "DC402")
    assert v.message == ("Test Master Duel Card is not released in Master Duel until 2023-12-01 "
                         "(checked as of 2023-11-01).")
    assert codes(run(deck([(md_card, 1)], fill=39), md, pool=pool,
                     date=dt.date(2023, 12, 1))) == []


def _dated_filler(day: dt.date = dt.date(2002, 3, 8)) -> list[Card]:
    return [card(c.passcode, c.name, c.frame, released={"tcg": day}) for c in FILLER]


def test_cards_out_on_the_date_are_not_unusual_and_say_nothing() -> None:
    # a card dated in the region and out on the date leaves DC402 nothing to look at: the
    # engine counts it (`dated`) instead of making it an `unusual` item every rule walks
    from deckcheck.checker import Checker

    checker = Checker(tcg(), dt.date(2026, 6, 1), pool=MemoryPool(_dated_filler()))
    ctx = checker.context(deck())
    assert (ctx.unusual, ctx.odd, ctx.dated, ctx.known) == ([], 0, 40, 40)
    r = checker.check(deck())
    assert codes(r) == [] and r.verdict == "legal"
    assert not any("release date" in n for n in r.notices)


def test_a_card_dated_only_elsewhere_or_later_stays_unusual() -> None:
    from deckcheck.checker import Checker

    ocg_only = card(99900005, "Test OCG-dated Card", released={"ocg": dt.date(2020, 1, 1)})
    later = card(99900006, "Test Later Card", released={"tcg": dt.date(2026, 9, 1)})
    pool = MemoryPool([*_dated_filler(), ocg_only, later])
    d = deck([(ocg_only, 1), (later, 1)], fill=38)
    checker = Checker(tcg(), dt.date(2026, 6, 1), pool=pool)
    ctx = checker.context(d)
    assert {i.card.passcode for i in ctx.unusual if i.card} == {99900005, 99900006}
    assert ctx.dated == 38
    r = checker.check(d)
    assert codes(r) == ["DC402"]
    assert "1 card has no known TCG release date; not checked." in r.notices


def test_undated_cards_beside_cards_out_on_the_date_are_counted() -> None:
    undated = [card(99900010 + k, f"Test Undated {k}") for k in range(2)]
    pool = MemoryPool([*_dated_filler(), *undated])
    r = run(deck([(undated[0], 2), (undated[1], 1)], fill=37), pool=pool)
    assert "2 cards have no known TCG release date; not checked." in r.notices
    assert codes(r) == []
