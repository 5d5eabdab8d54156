from __future__ import annotations

from rulekit import SKILL, codes, deck, only, run, speed


def test_skill_in_speed_duel_passes() -> None:
    assert "DC121" not in codes(run(deck([(SKILL, 1)], fill=20), speed()))


def test_skill_in_tcg_fails() -> None:
    r = run(deck([(SKILL, 1)]))
    assert codes(r) == ["DC121"], "reported once (not also as a wrong-region card)"
    v = only(r, "DC121")
    assert v.message == ("Destiny Draw is a Skill Card, which TCG Advanced does not use; "
                         "remove it.")
