"""What the common draw cards do, built in: a table keyed by the card's English name.

A profile's ``[cards."NAME"]`` entry overrides an entry here field by field (``play = false``
leaves the card unplayed). Each entry says what the card text says, as far as goldfishing
one player's turn needs it:

- **Pot of Prosperity**: cost, banish 3 or 6 random face-down cards from the Extra Deck;
  excavate that many, add 1 to the hand, the rest go to the bottom of the Deck. Once per
  turn; cannot be activated in a turn a card effect drew a card, and no card effect draws
  for the rest of the turn after it.
- **Pot of Extravagance**: at the start of Main Phase 1; cost, banish 3 or 6 random
  face-down Extra Deck cards; draw 1 per 3 banished; no card effect draws after it that turn.
  Once per turn.
- **Pot of Desires**: cost, banish the top 10 cards of the Deck face-down; draw 2. Once per
  turn.
- **Upstart Goblin**: draw 1 (the opponent's Life Points do not matter here). Not once per
  turn.
- **Allure of Darkness**: draw 2, then banish 1 DARK monster from the hand, or discard the
  whole hand. Not once per turn.
- **Pot of Greed**: draw 2. **Trade-In**: discard 1 Level 8 monster; draw 2.
- **Card Destruction**: discard the hand, then draw that many cards (the opponent's hand does
  not matter here).
- **Pot of Duality**: excavate 3, add 1, shuffle the rest back. Once per turn.
- **Small World**: reveal a monster in the hand, banish from the Deck a monster with exactly
  one of the same Type, Attribute, Level, ATK or DEF, add from the Deck a monster with exactly
  one of the same as the banished one; the revealed card is banished. Once per turn.
"""

from __future__ import annotations

from typing import Any

CARD_RULES: dict[str, dict[str, Any]] = {
    "Pot of Prosperity": {"excavate": 6, "excavate_rest": "bottom", "extra_deck_cost": True,
                          "no_draw_before": True, "no_draw_after": True,
                          "once_per_turn": True},
    "Pot of Extravagance": {"draw": 2, "extra_deck_cost": True, "no_draw_after": True,
                            "start_of_main1": True, "once_per_turn": True},
    "Pot of Desires": {"draw": 2, "banish_top": 10, "once_per_turn": True},
    "Upstart Goblin": {"draw": 1, "once_per_turn": False},
    "Allure of Darkness": {"draw": 2, "then_banish": "DARK", "once_per_turn": False},
    "Pot of Greed": {"draw": 2, "once_per_turn": False},
    "Trade-In": {"draw": 2, "discard_cost": "Level 8", "once_per_turn": False},
    "Card Destruction": {"redraw_hand": True, "once_per_turn": False},
    "Pot of Duality": {"excavate": 3, "excavate_rest": "shuffle", "once_per_turn": True},
    "Small World": {"small_world": True, "once_per_turn": True},
}


def builtin_rules(name: str, rule_name: str | None = None) -> dict[str, Any] | None:
    """The built-in behaviour of a card by its English name (or the name it counts as)."""
    hit = CARD_RULES.get(name)
    if hit is None and rule_name:
        hit = CARD_RULES.get(rule_name)
    return dict(hit) if hit is not None else None
