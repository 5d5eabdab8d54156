from __future__ import annotations

from rulekit import ASH, ODD_PEN, POT, codes, deck, run


def test_main_cards_in_side_pass() -> None:
    assert codes(run(deck(side=[(ASH, 1), (ODD_PEN, 1)]))) == []


def test_effect_monster_and_spell_in_extra_fail() -> None:
    r = run(deck(extra=[(ASH, 1), (POT, 1)]))
    ash, pot = (v for v in r.violations if v.code == "DC111")
    assert ash.card == "Ash Blossom & Joyous Spring" and ash.section == "extra"
    assert ash.message == ("Ash Blossom & Joyous Spring is an Effect Monster and cannot be in "
                           "the Extra Deck; move it to the Main Deck.")
    assert pot.message.startswith("Pot of Greed is a Spell Card and cannot be in the Extra")
    # Pot of Greed is also Forbidden in the test list: both problems are reported.
    assert codes(r) == ["DC111", "DC111", "DC202"]
