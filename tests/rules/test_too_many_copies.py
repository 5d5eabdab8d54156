from __future__ import annotations

from rulekit import (
    ANGRY,
    ARCRAY,
    ASH,
    BLUE_EYES,
    GAIA_FK,
    GAIA_MK,
    HARPIE,
    HARPIE1,
    HUNGRY,
    ZARC,
    codes,
    deck,
    only,
    run,
)


def test_three_copies_pass() -> None:
    assert codes(run(deck([(BLUE_EYES, 3)]))) == []


def test_four_copies_across_main_and_side_fail() -> None:
    v = only(run(deck([(BLUE_EYES, 3)], side=[(BLUE_EYES, 1)])), "DC201")
    assert (v.card, v.count, v.limit, v.section) == ("Blue-Eyes White Dragon", 4, 3, "side")
    assert v.place == "deck.ydk:44"  # the side copy is the 4th
    assert v.message == ("The deck has 4 cards named Blue-Eyes White Dragon across Main, Extra "
                         "and Side; at most 3 are allowed (also at lines 39, 40 and 41).")


def test_harpie_lady_1_and_harpie_lady_are_one_name() -> None:
    v = only(run(deck([(HARPIE1, 2), (HARPIE, 2)])), "DC201")
    assert (v.card, v.count, v.passcode) == ("Harpie Lady", 4, HARPIE.passcode)
    assert "Harpie Lady 1 ×2 and Harpie Lady ×2 all count as Harpie Lady" in v.message


def test_the_passcode_is_the_named_cards_not_the_entry_counted_under_it() -> None:
    # The 4th card is a Harpie Lady 1: the problem names "Harpie Lady" with Harpie Lady's
    # passcode (or none), never Harpie Lady 1's.
    v = only(run(deck([(HARPIE, 1), (HARPIE1, 3)])), "DC201")
    assert (v.card, v.passcode) == ("Harpie Lady", HARPIE.passcode)
    alone = only(run(deck([(HARPIE1, 4)])), "DC201")
    assert (alone.card, alone.passcode) == ("Harpie Lady", None)


def test_harpie_lady_1_and_harpie_lady_three_in_all_pass() -> None:
    assert codes(run(deck([(HARPIE1, 2), (HARPIE, 1)]))) == []


def test_angry_burger_and_three_hungry_burger_are_four() -> None:
    v = only(run(deck([(ANGRY, 1), (HUNGRY, 3)])), "DC201")
    assert (v.card, v.count) == ("Hungry Burger", 4)


def test_odd_eyes_arcray_dragon_counts_as_supreme_king_z_arc() -> None:
    v = only(run(deck(extra=[(ZARC, 3), (ARCRAY, 1)])), "DC201")
    assert (v.card, v.count, v.section) == ("Supreme King Z-ARC", 4, "extra")


def test_gaia_the_magical_knight_keeps_its_own_name() -> None:
    # "always treated as a "Gaia The Fierce Knight" card" is an archetype, not a name.
    assert codes(run(deck([(GAIA_MK, 3), (GAIA_FK, 3)]))) == []


def test_alternate_artwork_counts_with_the_original() -> None:
    v = only(run(deck([(ASH, 3)], side=[(14558128, 1)])), "DC201")
    assert (v.card, v.count, v.passcode) == ("Ash Blossom & Joyous Spring", 4, 14558128)


def test_unknown_passcodes_are_counted_too() -> None:
    assert only(run(deck([(12345, 4)])), "DC201").count == 4
