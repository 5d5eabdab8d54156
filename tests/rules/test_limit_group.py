from __future__ import annotations

import datetime as dt

from rulekit import BLUE_EYES, DARK_MAGICIAN, KURIBOH, SKILL, codes, deck, only, run, speed

from deckcheck.formats.model import Banlist, LimitGroup


def fmt() -> object:
    group = LimitGroup(name="Limited 2", max=2,
                       passcodes=frozenset({BLUE_EYES.passcode, DARK_MAGICIAN.passcode}))
    return speed(history=[Banlist(name="Speed Test", format="speed",
                                  effective=dt.date(2026, 1, 1), groups=[group])])


def test_two_from_the_group_pass() -> None:
    d = deck([(SKILL, 1), (BLUE_EYES, 1), (DARK_MAGICIAN, 1)], fill=20)
    assert codes(run(d, fmt())) == []


def test_three_from_the_group_fail() -> None:
    d = deck([(SKILL, 1), (BLUE_EYES, 2), (KURIBOH, 1)], fill=20, side=[(DARK_MAGICIAN, 1)])
    v = only(run(d, fmt()), "DC206")
    assert (v.count, v.limit, v.card, v.section) == (3, 2, "Dark Magician", "side")
    assert v.message == ('The deck has 3 cards from the group "Limited 2" (Blue-Eyes White '
                         'Dragon ×2, Dark Magician ×1); Speed Duel allows 2 (also at lines 23 '
                         'and 24).')
