from __future__ import annotations

from rulekit import (
    ASH,
    GAIA_FK,
    GAIA_MK,
    HARPIE,
    HARPIE1,
    POT,
    RAIGEKI,
    codes,
    deck,
    only,
    run,
    tcg,
)
from tests_dates import LIST_DAY

from deckcheck.formats.model import Banlist, BanlistEntry


def test_one_copy_passes() -> None:
    assert codes(run(deck([(RAIGEKI, 1)]))) == []


def test_two_copies_fail_at_the_second() -> None:
    v = only(run(deck([(RAIGEKI, 1)], side=[(RAIGEKI, 1)])), "DC203")
    assert (v.count, v.limit, v.section, v.place) == (2, 1, "side", "deck.ydk:44")
    assert v.message == ("Raigeki is Limited in 2026.05 Test: at most 1, the deck has 2 "
                         "(also at line 41).")


def test_alternate_artwork_of_a_limited_card_counts_with_it() -> None:
    fmt = tcg(history=[Banlist(name="L", format="tcg", effective=LIST_DAY,
                               entries=[BanlistEntry(passcode=ASH.passcode, limit=1)])])
    assert codes(run(deck([(ASH, 1)]), fmt)) == []
    v = only(run(deck([(ASH, 1)], side=[(14558128, 1)]), fmt), "DC203")
    assert (v.count, v.passcode) == (2, 14558128)


def test_traditional_forbidden_counts_as_limited() -> None:
    trad = tcg(id="traditional", name="Traditional", forbidden_as_limited=True)
    assert codes(run(deck([(POT, 1)]), trad)) == []
    r = run(deck([(POT, 2)]), trad)
    v = only(r, "DC203")
    assert (v.count, v.limit) == (2, 1)
    assert v.message == ("Pot of Greed is Forbidden in 2026.05 Test, which counts as Limited "
                         "in Traditional: at most 1, the deck has 2 (also at line 40).")
    assert "DC202" not in codes(r)


def test_a_limit_on_a_name_limits_the_cards_treated_as_that_name() -> None:
    # The list limits "Harpie Lady"; Harpie Lady 1's name is always treated as "Harpie Lady",
    # so two copies of Harpie Lady 1 alone are already over the limit.
    fmt = tcg(history=[Banlist(name="L", format="tcg", effective=LIST_DAY,
                               entries=[BanlistEntry(passcode=HARPIE.passcode, limit=1)])])
    assert codes(run(deck([(HARPIE1, 1)]), fmt)) == []
    v = only(run(deck([(HARPIE1, 2)]), fmt), "DC203")
    assert (v.card, v.count, v.limit) == ("Harpie Lady", 2, 1)
    assert v.message.startswith("Harpie Lady is Limited in L: at most 1, the deck has 2")


def test_a_limit_on_an_archetype_member_does_not_spread() -> None:
    # Gaia the Magical Knight is only "treated as a 'Gaia The Fierce Knight' card".
    fmt = tcg(history=[Banlist(name="L", format="tcg", effective=LIST_DAY,
                               entries=[BanlistEntry(passcode=GAIA_FK.passcode, limit=1)])])
    assert codes(run(deck([(GAIA_MK, 3)]), fmt)) == []
