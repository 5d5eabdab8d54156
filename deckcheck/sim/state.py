"""One player's side of a duel: zones, the turn flow, drawing and the Normal Summon.

The rules modelled (from the New Master Rule, see ../shared/seeds):

- Zones: the Main Deck, the Extra Deck, the hand, the field (5 Main Monster Zones, the Extra
  Monster Zone, 5 Spell & Trap Zones whose two ends double as the Pendulum Zones, the Field
  Zone), the GY and the banished cards.
- Only Main Deck cards are ever drawn; Extra Deck cards start in the Extra Deck.
- The deck is shuffled from a seed (reproducible); the opening hand is 5 cards.
- Going first, turn 1 has no draw and no Battle Phase; going second, the first turn draws a
  6th card; every later turn draws one card. A player who must draw from an empty Deck loses.
- At the end of the End Phase a player with more than 6 cards in hand discards down to 6.
- One Normal Summon or Set per turn, from the hand: Level 4 or lower with no Tribute, Level
  5-6 with 1, Level 7+ with 2. Extra Deck monsters, Ritual monsters, tokens and monsters
  that cannot be Normal Summoned never are.
- Spells and Traps can be Set in a free Spell & Trap Zone (5 at most); Field Spells go to
  the Field Zone (an older Field Spell there goes to the GY); a Pendulum monster can be
  activated in a free Pendulum Zone (the leftmost or rightmost Spell & Trap Zone).

An action the rules forbid raises `IllegalAction` with one sentence saying why.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from deckcheck.cards.model import Card, Kind
from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import Deck
from deckcheck.errors import IllegalAction, SimError
from deckcheck.sim.summon import is_field_spell, normal_summon_problem, tributes_needed

OPENING_HAND = 5
HAND_LIMIT = 6
MONSTER_ZONES = 5
SPELL_TRAP_ZONES = 5
#: The Spell & Trap Zones that double as Pendulum Zones (leftmost, rightmost).
PENDULUM_ZONES = (0, SPELL_TRAP_ZONES - 1)

__all__ = ["DuelState", "Phase", "Zones", "deal_cards", "discard_last_drawn", "is_field_spell",
           "normal_summon_problem", "tributes_needed"]


class Phase(str, Enum):  # noqa: UP042 - StrEnum would change str() of members
    DRAW = "draw"
    STANDBY = "standby"
    MAIN1 = "main1"
    BATTLE = "battle"
    MAIN2 = "main2"
    END = "end"


@dataclass
class Zones:
    """Where one player's cards are. `deck[0]` is the top of the Deck."""

    deck: list[Card] = field(default_factory=list)
    extra: list[Card] = field(default_factory=list)
    hand: list[Card] = field(default_factory=list)
    monsters: list[Card | None] = field(default_factory=lambda: [None] * MONSTER_ZONES)
    extra_monster: Card | None = None
    spell_trap: list[Card | None] = field(default_factory=lambda: [None] * SPELL_TRAP_ZONES)
    field_zone: Card | None = None
    gy: list[Card] = field(default_factory=list)
    banished: list[Card] = field(default_factory=list)

    @property
    def pendulum(self) -> tuple[Card | None, Card | None]:
        """The cards in the Pendulum Zones (the end Spell & Trap Zones) that are Pendulums."""
        left, right = (self.spell_trap[i] for i in PENDULUM_ZONES)
        return (left if left is not None and left.frame.is_pendulum else None,
                right if right is not None and right.frame.is_pendulum else None)

    def monsters_on_field(self) -> list[Card]:
        out = [c for c in self.monsters if c is not None]
        if self.extra_monster is not None:
            out.append(self.extra_monster)
        return out


#: Chooses the cards to discard at the End Phase: (hand, how many) -> cards to discard.
DiscardPolicy = Callable[[Sequence[Card], int], Sequence[Card]]


def discard_last_drawn(hand: Sequence[Card], count: int) -> list[Card]:
    """The default End Phase discard: the most recently drawn cards."""
    return list(hand[len(hand) - count:])


def deal_cards(deck: Deck, pool: CardPool) -> tuple[list[Card], list[Card]]:
    """The Main Deck and Extra Deck of `deck` as cards, each card in the deck it belongs to.

    Raises SimError for a passcode the pool does not know, or a token / skill card."""
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
            if card.deck is None:
                raise SimError(f"{card.name}{where} is a {card.kind.value} card and cannot be "
                               f"dealt into a duel; remove it from the deck.")
            (extra if card.deck == "extra" else main).extend([card] * entry.count)
    return main, extra


class DuelState:
    """One player's duel, goldfished: no opponent acts.

    Build it with `DuelState.from_deck` (shuffles, deals 5) or from card lists; then
    `start_turn()` (draw phase included), Main Phase actions, `end_turn()`.
    """

    def __init__(self, main: Sequence[Card], extra: Sequence[Card] = (), *,
                 seed: int | None = None, going_second: bool = False,
                 shuffle: bool = True) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.going_second = going_second
        self.zones = Zones(deck=list(main), extra=list(extra))
        if shuffle:
            self.rng.shuffle(self.zones.deck)
        self.turn = 0
        self.phase: Phase | None = None
        self.normal_summoned = False
        self.lost: str | None = None
        #: Cards drawn on each turn by the Draw Phase draw or effects, turn -> cards.
        self.drawn: dict[int, list[Card]] = {}
        if len(self.zones.deck) < OPENING_HAND:
            raise SimError(f"The Main Deck has {len(self.zones.deck)} cards, too few to deal a "
                           f"{OPENING_HAND}-card opening hand; add cards to it.")
        self.zones.hand = self.zones.deck[:OPENING_HAND]
        del self.zones.deck[:OPENING_HAND]
        self.opening_hand: list[Card] = list(self.zones.hand)

    @classmethod
    def from_deck(cls, deck: Deck, pool: CardPool, seed: int | None = None,
                  going_second: bool = False) -> DuelState:
        """Shuffle `deck` (reproducibly for a given seed) and deal the opening hand."""
        main, extra = deal_cards(deck, pool)
        return cls(main, extra, seed=seed, going_second=going_second)

    # -- state checks ---------------------------------------------------------------------
    @property
    def hand(self) -> list[Card]:
        return self.zones.hand

    def _require_alive(self) -> None:
        if self.lost is not None:
            raise IllegalAction(f"The duel is over ({self.lost}); no more actions are possible.")

    def _require_main(self, what: str) -> None:
        self._require_alive()
        if self.phase not in (Phase.MAIN1, Phase.MAIN2):
            where = self.phase.value if self.phase else "before the first turn"
            raise IllegalAction(f"Cannot {what} in the {where} phase; only in a Main Phase.")

    def _in_hand(self, card: Card | int) -> Card:
        """The card in the hand meant by `card` (a Card or a 0-based index into the hand)."""
        hand = self.zones.hand
        if isinstance(card, int):
            if not 0 <= card < len(hand):
                raise IllegalAction(f"There is no card number {card} in a hand of {len(hand)}.")
            return hand[card]
        for c in hand:
            if c is card or c == card:
                return c
        raise IllegalAction(f"{card.name} is not in the hand.")

    def _take_from_hand(self, card: Card | int) -> Card:
        target = self._in_hand(card)
        for i, c in enumerate(self.zones.hand):
            if c is target:
                return self.zones.hand.pop(i)
        raise AssertionError("unreachable")  # pragma: no cover

    # -- drawing and the turn flow --------------------------------------------------------
    def draw(self, count: int = 1) -> list[Card]:
        """Draw `count` cards; drawing from an empty Deck loses the duel (`lost` is set)."""
        self._require_alive()
        out: list[Card] = []
        for _ in range(count):
            if not self.zones.deck:
                self.lost = "deck-out: had to draw from an empty Deck"
                break
            out.append(self.zones.deck.pop(0))
        self.zones.hand.extend(out)
        self.drawn.setdefault(self.turn, []).extend(out)
        return out

    @property
    def has_battle_phase(self) -> bool:
        """False on the first turn of the player going first."""
        return not (self.turn == 1 and not self.going_second)

    def start_turn(self) -> list[Card]:
        """Begin the next turn: Draw Phase (no draw on turn 1 going first), Standby, Main 1."""
        self._require_alive()
        if self.phase not in (None, Phase.END):
            raise IllegalAction(f"Turn {self.turn} has not ended; call end_turn() first.")
        self.turn += 1
        self.normal_summoned = False
        self.phase = Phase.DRAW
        drawn: list[Card] = []
        if self.turn > 1 or self.going_second:
            drawn = self.draw(1)
            if self.lost is not None:
                return drawn
        self.phase = Phase.MAIN1
        return drawn

    def enter_battle_phase(self) -> None:
        self._require_alive()
        if self.phase is not Phase.MAIN1:
            raise IllegalAction("The Battle Phase can only be entered from Main Phase 1.")
        if not self.has_battle_phase:
            raise IllegalAction("The player going first has no Battle Phase on turn 1.")
        self.phase = Phase.BATTLE

    def enter_main2(self) -> None:
        self._require_alive()
        if self.phase is not Phase.BATTLE:
            raise IllegalAction("Main Phase 2 can only be entered from the Battle Phase.")
        self.phase = Phase.MAIN2

    def end_turn(self, discard: DiscardPolicy = discard_last_drawn) -> list[Card]:
        """End Phase: discard down to 6 cards in hand (to the GY); returns the discarded cards."""
        self._require_alive()
        if self.phase is None or self.phase is Phase.END:
            raise IllegalAction("No turn is in progress; call start_turn() first.")
        self.phase = Phase.END
        excess = len(self.zones.hand) - HAND_LIMIT
        if excess <= 0:
            return []
        chosen = list(discard(list(self.zones.hand), excess))
        if len(chosen) != excess:
            raise IllegalAction(f"The hand has {len(self.zones.hand)} cards: exactly {excess} "
                                f"must be discarded, not {len(chosen)}.")
        for card in chosen:
            self.zones.gy.append(self._take_from_hand(card))
        return chosen

    # -- Main Phase actions ---------------------------------------------------------------
    def normal_summon(self, card: Card | int, tributes: Sequence[int] = (), *,
                      set_: bool = False) -> int:
        """Normal Summon (or Set) `card` from the hand, tributing the monsters in the Main
        Monster Zones numbered `tributes`; returns the zone the monster went to."""
        what = "Normal Set" if set_ else "Normal Summon"
        self._require_main(what)
        if self.normal_summoned:
            raise IllegalAction(f"Only one Normal Summon or Set is allowed per turn "
                                f"(turn {self.turn} already used it).")
        target = self._in_hand(card)
        problem = normal_summon_problem(target)
        if problem:
            raise IllegalAction(f"{problem}.")
        need = tributes_needed(target)
        if len(tributes) != need or len(set(tributes)) != len(tributes):
            raise IllegalAction(f"{target.name} is Level {target.level or 0} and needs "
                                f"{need} Tribute(s) for a {what}, not {len(set(tributes))}.")
        for z in tributes:
            if not 0 <= z < MONSTER_ZONES or self.zones.monsters[z] is None:
                raise IllegalAction(f"There is no monster in Main Monster Zone {z} to Tribute.")
        free = [z for z in range(MONSTER_ZONES)
                if self.zones.monsters[z] is None or z in tributes]
        if not free:
            raise IllegalAction("All 5 Main Monster Zones are full; no monster can be "
                                "Normal Summoned.")
        taken = self._take_from_hand(target)
        for z in tributes:
            tribute = self.zones.monsters[z]
            assert tribute is not None
            self.zones.gy.append(tribute)
            self.zones.monsters[z] = None
        zone = free[0]
        self.zones.monsters[zone] = taken
        self.normal_summoned = True
        return zone

    def set_spell_trap(self, card: Card | int) -> str:
        """Set a Spell or Trap from the hand; returns "field" or "spell_trap:<zone>"."""
        self._require_main("Set a Spell or Trap")
        target = self._in_hand(card)
        if target.kind not in (Kind.SPELL, Kind.TRAP):
            raise IllegalAction(f"{target.name} is not a Spell or Trap and cannot be Set in the "
                                f"Spell & Trap Zone.")
        if is_field_spell(target):
            taken = self._take_from_hand(target)
            if self.zones.field_zone is not None:
                self.zones.gy.append(self.zones.field_zone)
            self.zones.field_zone = taken
            return "field"
        zone = self._free_spell_trap_zone()
        taken = self._take_from_hand(target)
        self.zones.spell_trap[zone] = taken
        return f"spell_trap:{zone}"

    def _free_spell_trap_zone(self) -> int:
        # Fill the middle zones first, so the Pendulum Zones stay free as long as possible.
        order = [z for z in range(SPELL_TRAP_ZONES) if z not in PENDULUM_ZONES] + list(
            PENDULUM_ZONES)
        for z in order:
            if self.zones.spell_trap[z] is None:
                return z
        raise IllegalAction("All 5 Spell & Trap Zones are full; no more Spells or Traps can "
                            "be placed there.")

    def activate_pendulum(self, card: Card | int, side: str = "left") -> int:
        """Place a Pendulum monster from the hand in the left or right Pendulum Zone."""
        self._require_main("activate a Pendulum Scale")
        target = self._in_hand(card)
        if not (target.kind is Kind.MONSTER and target.frame.is_pendulum):
            raise IllegalAction(f"{target.name} is not a Pendulum monster and cannot go to a "
                                f"Pendulum Zone.")
        if side not in ("left", "right"):
            raise IllegalAction(f"A Pendulum Zone is 'left' or 'right', not {side!r}.")
        zone = PENDULUM_ZONES[0 if side == "left" else 1]
        if self.zones.spell_trap[zone] is not None:
            raise IllegalAction(f"The {side} Pendulum Zone (Spell & Trap Zone {zone}) is "
                                f"already occupied.")
        self.zones.spell_trap[zone] = self._take_from_hand(target)
        return zone

    def activate_spell(self, card: Card | int) -> None:
        """Activate a Normal/Quick-Play Spell from the hand: it needs a free Spell & Trap Zone
        and goes to the GY when it resolves (its effect is not modelled here)."""
        self._require_main("activate a Spell")
        target = self._in_hand(card)
        if target.kind is not Kind.SPELL:
            raise IllegalAction(f"{target.name} is not a Spell.")
        if is_field_spell(target):
            self.set_spell_trap(target)
            return
        self._free_spell_trap_zone()
        self.zones.gy.append(self._take_from_hand(target))

    def special_summon_from_extra(self, card: Card) -> None:
        """Put an Extra Deck monster in the Extra Monster Zone (its materials are not
        modelled: this only checks the zone rules)."""
        self._require_main("Special Summon")
        if card not in self.zones.extra:
            raise IllegalAction(f"{card.name} is not in the Extra Deck.")
        if self.zones.extra_monster is not None:
            raise IllegalAction("The Extra Monster Zone is occupied; link arrows are not "
                                "modelled, so no other zone can take an Extra Deck monster.")
        self.zones.extra.remove(card)
        self.zones.extra_monster = card

    def banish_from_deck_top(self, count: int) -> list[Card]:
        """Banish the top `count` cards of the Deck (face-down), e.g. Pot of Desires' cost."""
        self._require_alive()
        if len(self.zones.deck) < count:
            raise IllegalAction(f"The Deck has {len(self.zones.deck)} cards; {count} cannot be "
                                f"banished from it.")
        out = self.zones.deck[:count]
        del self.zones.deck[:count]
        self.zones.banished.extend(out)
        return out
