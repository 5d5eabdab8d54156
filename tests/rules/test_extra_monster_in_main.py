from __future__ import annotations

from rulekit import ARCRAY, DECODE, ODD_PEN, codes, deck, only, run


def test_extra_deck_monsters_in_extra_or_side_pass() -> None:
    assert codes(run(deck(extra=[(DECODE, 1)], side=[(DECODE, 1)]))) == []


def test_pendulum_main_deck_monster_in_main_passes() -> None:
    assert codes(run(deck([(ODD_PEN, 1)]))) == []


def test_link_monster_in_main_fails_once_with_all_copies() -> None:
    v = only(run(deck([(DECODE, 2)])), "DC110")
    assert (v.card, v.passcode, v.count, v.section) == ("Decode Talker", 1861629, 2, "main")
    assert v.place == "deck.ydk:40"
    assert v.message == ("Decode Talker is a Link Monster and cannot be in the Main Deck; "
                         "move it to the Extra Deck (also at line 41).")


def test_fusion_pendulum_in_main_fails() -> None:
    assert only(run(deck([(ARCRAY, 1)])), "DC110").card == "Odd-Eyes Arcray Dragon"
