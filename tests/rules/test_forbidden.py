from __future__ import annotations

from rulekit import ASH, POT, codes, deck, only, run, tcg
from tests_dates import LIST_DAY

from deckcheck.formats.model import Banlist, BanlistEntry


def test_no_forbidden_card_passes() -> None:
    assert codes(run(deck([(ASH, 3)]))) == []


def test_forbidden_card_in_side_fails() -> None:
    v = only(run(deck(side=[(POT, 1)])), "DC202")
    assert (v.card, v.count, v.limit, v.section) == ("Pot of Greed", 1, 0, "side")
    assert v.message == "Pot of Greed is Forbidden in 2026.05 Test; remove it."


def test_forbidden_alternate_artwork_listed_under_the_other_passcode() -> None:
    # The list names only the alternate artwork's passcode; the deck writes the original.
    fmt = tcg(history=[Banlist(name="L", format="tcg", effective=LIST_DAY,
                               entries=[BanlistEntry(passcode=14558128, limit=0)])])
    v = only(run(deck([(ASH, 2)]), fmt), "DC202")
    assert (v.count, v.place) == (2, "deck.ydk:40")
    assert v.message == ("Ash Blossom & Joyous Spring is Forbidden in L; remove all 2 copies "
                         "(also at line 41).")
