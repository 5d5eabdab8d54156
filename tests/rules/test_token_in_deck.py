from __future__ import annotations

from rulekit import SHEEP, codes, deck, only, run


def test_no_token_passes() -> None:
    assert "DC120" not in codes(run(deck()))


def test_token_in_side_fails() -> None:
    v = only(run(deck(side=[(SHEEP, 1)])), "DC120")
    assert (v.card, v.section, v.passcode) == ("Sheep Token", "side", 73915052)
    assert v.message == "Sheep Token is a Token and cannot be in any deck; remove it."
