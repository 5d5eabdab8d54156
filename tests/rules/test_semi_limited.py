from __future__ import annotations

from rulekit import HARPIE, HARPIE1, KURIBOH, codes, deck, only, run, tcg
from tests_dates import LIST_DAY

from deckcheck.formats.model import Banlist, BanlistEntry


def test_two_copies_pass() -> None:
    assert codes(run(deck([(KURIBOH, 2)]))) == []


def test_three_copies_fail() -> None:
    r = run(deck([(KURIBOH, 3)]))
    v = only(r, "DC204")
    assert (v.count, v.limit, v.place) == (3, 2, "deck.ydk:41")
    assert codes(r) == ["DC204"]


def test_strictest_limit_in_a_name_group_applies_to_the_group() -> None:
    # Only "Harpie Lady 1" is listed; every card named Harpie Lady counts against it.
    fmt = tcg(history=[Banlist(name="L", format="tcg", effective=LIST_DAY,
                               entries=[BanlistEntry(passcode=HARPIE1.passcode, limit=2)])])
    assert codes(run(deck([(HARPIE, 2)]), fmt)) == [], "the limit binds only when used"
    v = only(run(deck([(HARPIE, 2), (HARPIE1, 1)]), fmt), "DC204")
    assert (v.card, v.count, v.limit) == ("Harpie Lady", 3, 2)
    assert v.message.startswith("Harpie Lady 1 is Semi-Limited in L: at most 2, the deck has 3")
