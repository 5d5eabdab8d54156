"""One player's side of a goldfished duel: the Deck, the hand, the GY and the turn flow.

The turn rules themselves (hand size, draws, the End Phase hand limit, deck-out) are in
`deckcheck.sim.turnrules`; this state applies them card by card, for `deckcheck draw` and
`deckcheck check --hands`. The odds engines apply the same rules to count vectors.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from deckcheck.cards.model import Card, Kind
from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import Deck
from deckcheck.errors import IllegalAction, SimError
from deckcheck.sim.turnrules import DEFAULT_RULES, TurnRules

__all__ = ["DiscardPolicy", "DuelState", "deal_cards", "discard_last_drawn"]

#: Chooses the cards to discard at the End Phase: (hand, how many) -> cards to discard.
DiscardPolicy = Callable[[Sequence[Card], int], Sequence[Card]]


def discard_last_drawn(hand: Sequence[Card], count: int) -> list[Card]:
    """An End Phase discard for test hands: the most recently drawn cards."""
    return list(hand[len(hand) - count:])


def deal_cards(deck: Deck, pool: CardPool) -> tuple[list[Card], list[Card]]:
    """The Main Deck and Extra Deck of `deck` as cards, each card in the deck it belongs to.
    Skill Cards are set aside (they are not part of any deck in play).

    Raises SimError for a passcode the pool does not know, or a token."""
    main: list[Card] = []
    extra: list[Card] = []
    for section in ("main", "extra"):
        for entry in deck.section(section):
            where = f" ({entry.location})" if str(entry.location) != "?" else ""
            if entry.passcode is None:
                raise SimError(f"The {section} deck entry {entry.written!r}{where} is not a known "
                               f"card; fix the deck (`deckcheck check` shows why) and try again.")
            card = pool.get(entry.passcode)
            if card is None:
                raise SimError(f"Passcode {entry.passcode}{where} is not in the card pool; run "
                               f"`deckcheck cards update` or fix the deck.")
            if card.kind is Kind.SKILL:
                continue
            if card.deck is None:
                raise SimError(f"{card.name}{where} is a {card.kind.value} card and cannot be "
                               f"dealt into a duel; remove it from the deck.")
            (extra if card.deck == "extra" else main).extend([card] * entry.count)
    return main, extra


class DuelState:
    """One player's duel, goldfished: no opponent acts.

    Build it from card lists (shuffled from `seed`, the opening hand dealt); then
    `start_turn()` (the Draw Phase included) and `end_turn()` (the hand limit).
    """

    def __init__(self, main: Sequence[Card], extra: Sequence[Card] = (), *,
                 seed: int | None = None, going_second: bool = False,
                 rules: TurnRules = DEFAULT_RULES) -> None:
        self.rng = random.Random(seed)
        self.rules = rules
        self.going_second = going_second
        self.deck = list(main)
        self.extra = list(extra)
        self.rng.shuffle(self.deck)
        self.gy: list[Card] = []
        self.turn = 0
        self.in_turn = False
        self.lost: str | None = None
        n = rules.hand_size
        if len(self.deck) < n:
            raise SimError(f"The Main Deck has {len(self.deck)} cards, too few to deal a "
                           f"{n}-card opening hand; add cards to it.")
        self.hand = self.deck[:n]
        del self.deck[:n]
        self.opening_hand: list[Card] = list(self.hand)

    def draw(self, count: int = 1) -> list[Card]:
        """Draw `count` cards; drawing from an empty Deck loses the duel (`lost` is set)."""
        if self.lost is not None:
            raise IllegalAction(f"The duel is over ({self.lost}); no more actions are possible.")
        out: list[Card] = []
        for _ in range(count):
            if not self.deck:
                self.lost = "deck-out: had to draw from an empty Deck"
                break
            out.append(self.deck.pop(0))
        self.hand.extend(out)
        return out

    def start_turn(self) -> list[Card]:
        """Begin the next turn: its Draw Phase draw (none on turn 1 going first)."""
        if self.in_turn:
            raise IllegalAction(f"Turn {self.turn} has not ended; call end_turn() first.")
        self.turn += 1
        self.in_turn = True
        return self.draw(self.rules.draws_in(self.turn, self.going_second, len(self.hand)))

    def end_turn(self, discard: DiscardPolicy = discard_last_drawn) -> list[Card]:
        """End Phase: discard down to the hand limit (to the GY); returns the discarded cards."""
        if not self.in_turn:
            raise IllegalAction("No turn is in progress; call start_turn() first.")
        excess = self.rules.excess(len(self.hand))
        chosen = list(discard(list(self.hand), excess)) if excess else []
        if len(chosen) != excess:
            raise IllegalAction(f"The hand has {len(self.hand)} cards: exactly {excess} must "
                                f"be discarded, not {len(chosen)}.")
        self.in_turn = False
        for card in chosen:
            self.hand.remove(card)
            self.gy.append(card)
        return chosen
