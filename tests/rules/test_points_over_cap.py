from __future__ import annotations

import datetime as dt

from rulekit import ASH, BLUE_EYES, KURIBOH, codes, deck, only, run, tcg

from deckcheck.formats.model import Banlist, BanlistEntry


def genesys(cap: int = 100) -> object:
    points = [BanlistEntry(passcode=ASH.passcode, points=33),
              BanlistEntry(passcode=KURIBOH.passcode, points=2),
              BanlistEntry(passcode=BLUE_EYES.passcode, points=0)]
    return tcg(id="genesys", name="Genesys", list_mode="points", points_cap=cap,
               banned_frames=["link", "*_pendulum"],
               history=[Banlist(name="Genesys Test", format="genesys",
                                effective=dt.date(2026, 1, 1), entries=points)])


def test_ninety_nine_points_pass() -> None:
    r = run(deck([(ASH, 3)]), genesys())
    assert codes(r) == []
    assert (r.points, r.cap) == (99, 100)


def test_one_hundred_and_one_points_fail_at_the_entry_that_goes_over() -> None:
    r = run(deck([(ASH, 3)], side=[(KURIBOH, 1)]), genesys())
    v = only(r, "DC301")
    assert (v.points, v.cap, v.card, v.place) == (101, 100, None, "deck.ydk:44")
    assert v.message == ("The deck has 101 points; Genesys allows 100 (most points: "
                         "Ash Blossom & Joyous Spring 99, Kuriboh 2).")
    assert r.points == 101 and r.verdict == "illegal"


def test_points_cap_override() -> None:
    d = deck([(ASH, 3)], side=[(KURIBOH, 1)])
    assert codes(run(d, genesys(), points_cap=120)) == []
    assert codes(run(deck([(ASH, 1)]), genesys(), points_cap=30)) == ["DC301"]
    assert only(run(deck([(KURIBOH, 1)]), genesys(), points_cap=0), "DC301").cap == 0
    # 99 points reach a cap of 99 without going over it: Kuriboh is the entry that does
    v = only(run(d, genesys(), points_cap=99), "DC301")
    assert (v.points, v.cap, v.place) == (101, 99, "deck.ydk:44")


def test_alternate_artwork_counts_its_points() -> None:
    assert run(deck([(14558128, 1)]), genesys()).points == 33


def test_no_points_outside_points_formats() -> None:
    r = run(deck([(ASH, 3)]))
    assert r.points is None and r.cap is None
