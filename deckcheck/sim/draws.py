"""Test draws: deal opening hands (and the next turns' draws) from a deck, reproducibly.

`opening_hands` is the contract `deckcheck check --hands N` uses; `test_draws` is what
`deckcheck draw` prints. Each hand is an independent shuffle; hand `i` of a seed is always
the same hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from deckcheck.cards.model import Card, Kind
from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import Deck
from deckcheck.errors import SimError
from deckcheck.sim.state import DuelState, deal_cards
from deckcheck.sim.turnrules import DEFAULT_RULES, TurnRules

GROUPS = ("Monster", "Spell", "Trap")


def hand_seeds(seed: int | None, n: int) -> list[int]:
    """The per-hand shuffle seeds derived from one seed (a fresh random one for None)."""
    master = random.Random(seed)
    return [master.getrandbits(63) for _ in range(n)]


@dataclass
class TestDraw:
    """One dealt hand: the opening hand and the cards drawn on each later turn."""

    __test__ = False  # not a pytest test class

    opening: list[Card]
    #: turn -> cards drawn in that turn's Draw Phase (turn 1 only when going second).
    draws: dict[int, list[Card]] = field(default_factory=dict)
    #: Set when the Deck ran out: the duel is lost at that turn.
    deck_out_turn: int | None = None
    #: The hand in the last turn's Main Phase: the earlier End Phases' discards made.
    hand: list[Card] = field(default_factory=list)
    #: turn -> cards discarded at that turn's End Phase (down to the hand size limit).
    discarded: dict[int, list[Card]] = field(default_factory=dict)

    def hand_at(self, turn: int) -> list[Card]:
        """Every card seen by turn `turn`'s Main Phase (the opening hand and the draws), the
        End Phase discards not taken out (`hand` is the hand after them)."""
        out = list(self.opening)
        for t in sorted(self.draws):
            if t <= turn:
                out.extend(self.draws[t])
        return out


def _deal(main: list[Card], extra: list[Card], seed: int, going_second: bool,
          turns: int, rules: TurnRules) -> TestDraw:
    state = DuelState(main, extra, seed=seed, going_second=going_second, rules=rules)
    result = TestDraw(opening=list(state.opening_hand))
    for turn in range(1, turns + 1):
        drawn = state.start_turn()
        if drawn:
            result.draws[state.turn] = drawn
        if state.lost is not None:
            result.deck_out_turn = state.turn
            break
        if turn == turns:
            break
        gone = state.end_turn()  # goldfish: nothing is played; the hand limit still applies
        if gone:
            result.discarded[turn] = gone
    result.hand = list(state.hand)
    return result


def test_draws(deck: Deck, pool: CardPool, n: int = 1, *, seed: int | None = None,
               going_second: bool = False, turns: int = 1,
               rules: TurnRules = DEFAULT_RULES) -> list[TestDraw]:
    """Deal `n` hands and play `turns` turns of draws (nothing is played)."""
    if n < 1:
        raise SimError(f"The number of hands must be at least 1, not {n}.")
    if turns < 1:
        raise SimError(f"The number of turns must be at least 1, not {turns}.")
    main, extra = deal_cards(deck, pool)
    return [_deal(main, extra, s, going_second, turns, rules) for s in hand_seeds(seed, n)]


# not a test, despite its name: pytest must not collect it (mypy knows no function attributes)
test_draws.__test__ = False  # type: ignore[attr-defined]


def opening_hands(deck: Deck, pool: CardPool, n: int, *, seed: int | None = None,
                  going_second: bool = False, hand_size: int = DEFAULT_RULES.hand_size
                  ) -> list[list[Card]]:
    """`n` opening hands of `hand_size` cards (the format's: 5, Speed Duel 4), one more going
    second (the first turn's draw included)."""
    draws = test_draws(deck, pool, n, seed=seed, going_second=going_second, turns=1,
                       rules=TurnRules(hand_size=hand_size))
    return [d.hand_at(1) for d in draws]


def card_group(card: Card) -> str:
    """"Monster", "Spell" or "Trap": how a hand is grouped for people."""
    if card.kind is Kind.SPELL:
        return "Spell"
    if card.kind is Kind.TRAP:
        return "Trap"
    return "Monster"


def group_cards(cards: list[Card]) -> dict[str, list[tuple[str, int]]]:
    """Cards grouped by Monster/Spell/Trap, as (name, copies) in first-seen order."""
    out: dict[str, dict[str, int]] = {g: {} for g in GROUPS}
    for c in cards:
        bucket = out[card_group(c)]
        bucket[c.name] = bucket.get(c.name, 0) + 1
    return {g: list(v.items()) for g, v in out.items() if v}
