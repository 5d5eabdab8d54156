"""What the rules say about summoning and placing one card, independent of a duel state.

- A Normal Summon or Set of a Level 4 or lower monster needs no Tribute; Level 5-6 needs 1;
  Level 7 or higher needs 2.
- Extra Deck monsters, Ritual monsters, tokens and monsters that say they cannot be Normal
  Summoned/Set (`Card.cannot_normal_summon`) are never Normal Summoned or Set.
- Field Spells go to the Field Zone, never to a Spell & Trap Zone.
"""

from __future__ import annotations

from deckcheck.cards.model import Card, Frame, Kind


def tributes_needed(card: Card) -> int:
    """Tributes a Normal Summon of `card` needs: 0 for Level 4 or lower, 1 for 5-6, 2 for 7+."""
    level = card.level or 0
    if level <= 4:
        return 0
    return 1 if level <= 6 else 2


def normal_summon_problem(card: Card) -> str | None:
    """Why `card` can never be Normal Summoned or Set, or None if it can be."""
    if card.kind is not Kind.MONSTER:
        kind = "a token" if card.kind is Kind.TOKEN else f"a {card.kind.value}"
        return f"{card.name} is {kind}, not a monster that can be Normal Summoned"
    if card.frame.is_extra:
        return f"{card.name} is an Extra Deck monster and can only be Special Summoned"
    if card.frame in (Frame.RITUAL, Frame.RITUAL_PENDULUM):
        return f"{card.name} is a Ritual monster and can only be Special Summoned"
    if card.cannot_normal_summon:
        return f"{card.name} cannot be Normal Summoned or Set"
    return None


def is_field_spell(card: Card) -> bool:
    return card.kind is Kind.SPELL and (card.race or "").casefold() == "field"
