from __future__ import annotations

from rulekit import SKILL, card, codes, deck, only, run, speed

from deckcheck.cards.model import Frame
from deckcheck.cards.pool import MemoryPool

OTHER_SKILL = card(300101005, "Test Second Skill", Frame.SKILL)


def test_one_skill_passes() -> None:
    assert codes(run(deck([(SKILL, 1)], fill=20), speed())) == []


def test_speed_duel_deck_without_a_skill_fails() -> None:
    v = only(run(deck(fill=20), speed()), "DC122")
    assert (v.count, v.limit) == (0, 1)
    assert v.message == "The deck has no Skill Card; Speed Duel needs exactly one."


def test_two_skills_fail_at_the_second(pool: MemoryPool) -> None:
    p = MemoryPool([*pool, OTHER_SKILL])
    v = only(run(deck([(SKILL, 1), (OTHER_SKILL, 1)], fill=20), speed(), pool=p), "DC122")
    assert (v.count, v.card) == (2, "Test Second Skill")


def test_skill_in_side_is_not_the_skill() -> None:
    assert "DC122" in codes(run(deck(side=[(SKILL, 1)], fill=20), speed()))


def test_tcg_does_not_require_a_skill() -> None:
    assert "DC122" not in codes(run(deck()))
