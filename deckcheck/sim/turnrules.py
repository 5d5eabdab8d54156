"""The rules of a turn, written once: every simulation (`deckcheck draw`, `check --hands`, the
exact and the Monte Carlo odds engines) takes them from here.

- The opening hand is the format's hand size (5; Speed Duel 4). Skill Cards are set aside,
  never dealt; only Main Deck cards are drawn.
- Going first, turn 1 has no Draw Phase draw; going second, turn 1 draws; every later turn
  draws one card. A player who must draw from an empty Deck loses (deck-out).
- At the End Phase a player with more than 6 cards in hand discards down to 6 (which cards is
  the player's choice: the engines keep what serves the goal).
- One Normal Summon or Set per turn, from the hand: Level 4 or lower with no Tribute, Level
  5-6 with 1, Level 7+ with 2. Extra Deck monsters, Ritual monsters, tokens and monsters that
  cannot be Normal Summoned never are. A goldfished turn 1 has no monster to Tribute, so the
  Normal Summon a goal can count is of a monster that needs none.
- Rush Duel (`RUSH_RULES`, format "rush"): the opening hand is 4 cards; in every Draw Phase,
  turn 1 going first included, the turn player draws until they hold 5 cards (1 card when
  they already hold 5 or more); there is no hand size limit at the End Phase, and Normal
  Summons are not limited to one a turn.
"""

from __future__ import annotations

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.plain import Value

HAND_SIZE = 5
HAND_LIMIT = 6


class TurnRules(Value):
    """The numbers of a turn for one format."""

    hand_size: int = HAND_SIZE
    #: Cards in hand at most after the End Phase (None: no limit, Rush Duel).
    hand_limit: int | None = HAND_LIMIT
    #: Draw Phase: draw until the hand holds this many, at least 1, turn 1 going first
    #: included (Rush Duel: 5); 0: one card a turn, none on turn 1 going first.
    draw_to: int = 0
    #: Normal Summons a turn (None: no limit, Rush Duel).
    normal_summons: int | None = 1

    def draws_in(self, turn: int, going_second: bool, in_hand: int | None = None) -> int:
        """Cards drawn in the Draw Phase of `turn` (none on turn 1 going first), or, with
        `draw_to`, until the hand (`in_hand` cards; nothing played: as dealt) holds that
        many, at least 1."""
        if self.draw_to:
            if in_hand is None:
                in_hand = self.cards_by(turn - 1, going_second) if turn > 1 else \
                    self.hand_size
            return max(1, self.draw_to - in_hand)
        return 0 if turn == 1 and not going_second else 1

    def draws_by(self, turn: int, going_second: bool) -> int:
        """Cards drawn by the Draw Phases of turns 1..`turn` (nothing played)."""
        return self.cards_by(turn, going_second) - self.hand_size

    def cards_by(self, turn: int, going_second: bool) -> int:
        """Cards seen by the Main Phase of `turn` when nothing is played or discarded."""
        hand = self.hand_size
        for t in range(1, turn + 1):
            hand += self.draws_in(t, going_second, hand)
        return hand

    def excess(self, in_hand: int) -> int:
        """Cards to discard at the End Phase with `in_hand` cards in hand."""
        return 0 if self.hand_limit is None else max(0, in_hand - self.hand_limit)

    def discards_possible_by(self, turn: int, going_second: bool) -> bool:
        """Whether an End Phase before `turn` could have had to discard (nothing played)."""
        return (self.hand_limit is not None and turn > 1
                and self.cards_by(turn - 1, going_second) > self.hand_limit)


DEFAULT_RULES = TurnRules()
#: Rush Duel: 4 cards dealt, draw to 5 every Draw Phase, no hand limit, any Normal Summons.
RUSH_RULES = TurnRules(hand_size=4, hand_limit=None, draw_to=5, normal_summons=None)


def rules_for(format_id: str, hand_size: int) -> TurnRules:
    """The turn rules of a format: Rush Duel's own, else the format's hand size with the
    Master Rule turn."""
    if format_id == "rush":
        return RUSH_RULES
    return TurnRules(hand_size=hand_size)


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


def summonable_now(card: Card, tributes_available: int = 0) -> bool:
    """Whether `card` can be Normal Summoned with `tributes_available` monsters to Tribute."""
    return normal_summon_problem(card) is None and tributes_needed(card) <= tributes_available
