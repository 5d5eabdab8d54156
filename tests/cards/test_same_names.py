"""Names several cards share: the card a player means, or a question that tells them apart."""

from __future__ import annotations

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool, narrow_by_name, tell_apart


def _card(pc: int, name: str, frame: Frame = Frame.EFFECT, **kw: object) -> Card:
    kind = {Frame.SPELL: Kind.SPELL, Frame.TRAP: Kind.TRAP, Frame.SKILL: Kind.SKILL}.get(
        frame, Kind.MONSTER)
    return Card(passcode=pc, name=name, kind=kind, frame=frame, rule_name=name, **kw)  # type: ignore[arg-type]


SISTERS = _card(12206212, "Harpie Lady Sisters")
RUSH_SISTERS = _card(160208002, "Harpie Lady Sisters", scopes=frozenset({"rush"}))
ELF = _card(32126000, "Learning Elf")
ANIME_ELF = _card(511001509, "Learning Elf", scopes=frozenset({"anime", "unofficial"}))
RAIMEI = _card(56260110, "Raimei", Frame.SPELL)
RAI_MEI = _card(63223467, "Rai-Mei")
ECTO = _card(16734927, "Ectoplasmic Fortification", Frame.SPELL)
ECTO_SKILL = _card(300101001, "Ectoplasmic Fortification!", Frame.SKILL,
                   scopes=frozenset({"skill"}))
SCAN_OCG = _card(34298391, "Mind Scan", Frame.TRAP, scopes=frozenset({"ocg_only"}))
SCAN_TCG = _card(34298392, "Mind Scan", Frame.SPELL, scopes=frozenset({"tcg_only"}))


def test_the_card_official_formats_allow_wins() -> None:
    pool = MemoryPool([SISTERS, RUSH_SISTERS, ELF, ANIME_ELF, ECTO, ECTO_SKILL])
    for name, card in (("Harpie Lady Sisters", SISTERS), ("learning elf", ELF),
                       ("Ectoplasmic Fortification", ECTO)):
        assert narrow_by_name(name, pool.find_name(name)) == [card], name


def test_exact_spelling_wins() -> None:
    pool = MemoryPool([RAIMEI, RAI_MEI])
    assert narrow_by_name("Rai-Mei", pool.find_name("Rai-Mei")) == [RAI_MEI]
    assert narrow_by_name("raimei", pool.find_name("raimei")) == [RAIMEI]


def test_two_official_cards_are_told_apart() -> None:
    cards = narrow_by_name("Mind Scan", [SCAN_TCG, SCAN_OCG])
    assert tell_apart(cards) == ["Mind Scan (Trap Card, 34298391, OCG only)",
                                 "Mind Scan (Spell Card, 34298392, TCG only)"]
