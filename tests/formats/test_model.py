from __future__ import annotations

import datetime as dt

from deckcheck.formats.model import Banlist, BanlistEntry, Format, LimitGroup


def test_lookups_by_all_passcodes_of_a_card() -> None:
    bl = Banlist(name="x", format="speed", effective=dt.date(2026, 1, 1),
                 entries=[BanlistEntry(passcode=1, limit=2), BanlistEntry(passcode=2, limit=0),
                          BanlistEntry(passcode=7, points=20)],
                 groups=[LimitGroup(name="Limited 2", max=2, passcodes=frozenset({1}))])
    assert bl.limit_of((1, 2)) == 0          # the strictest of a card's artworks
    assert bl.limit_of((1,)) == 2 and bl.limit_of((9,)) is None
    assert bl.points_of((8, 7)) == 20 and bl.points_of((8,)) == 0
    assert bl.group_of((1, 5)).name == "Limited 2" and bl.group_of((2,)) is None


def test_banlist_at_picks_the_latest_in_force() -> None:
    lists = [Banlist(name=n, format="tcg", effective=d) for n, d in
             [("b", dt.date(2021, 7, 1)), ("a", dt.date(2021, 3, 1))]]
    fmt = Format(id="tcg", name="TCG", history=lists)
    assert fmt.banlist_at(dt.date(2021, 2, 28)) is None
    assert fmt.banlist_at(dt.date(2021, 3, 1)).name == "a"
    assert fmt.banlist_at(dt.date(2021, 7, 1)).name == "b"
    assert fmt.imports.names == []  # the [imports] table is optional
