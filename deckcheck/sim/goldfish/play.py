"""How the goldfish plays its draw cards: one policy, read by both odds engines.

While the hand does not yet meet the goal, the player plays the **first playable** draw card
in priority order — Pot of Extravagance-like cards (start of Main Phase 1) first, then Pot of
Prosperity-like cards (no card draws before or after), then the others in class order — and
repeats until the hand succeeds or nothing is playable. A card is playable when (`playable`):

- a copy is in the hand, and it was not used this turn if it is once per turn;
- "start of Main Phase 1" cards: nothing else was played this turn;
- cards that draw: no card with "no card draws after it" resolved this turn;
- "no card draws before it" cards: no card effect drew a card this turn;
- an Extra Deck cost (3 or 6 face-down): the Extra Deck holds at least 3 cards (with 3 to 5
  the card draws / excavates half its number);
- the Deck holds enough cards for the cost and the effect; a discard cost has a card to pay
  it (another card of the cost's role in hand).

Choices the player makes, by intent, never by the order of labels: the discard cost / Allure's
banish takes a card whose loss keeps the goal within reach, the least needed first (blanks,
then other roles, then the roles the goal names: `least_needed`, `remove_choice`); an
excavation adds the card that makes the hand succeed, else the most needed one
(`preference`); the rest of an excavation goes to the
bottom of the Deck (not drawn while other cards are left; still found by searches) or is
shuffled back. At the End Phase the hand is discarded down to the limit in `discard_order`.
"""

from __future__ import annotations

from collections.abc import Callable

from deckcheck.plain import Plain
from deckcheck.sim.goldfish.compiled import CompiledProfile
from deckcheck.sim.goldfish.conditions import Term, all_terms
from deckcheck.sim.goldfish.profile import Behaviour

#: Extra Deck cards banished by an Extra Deck cost: 6 if possible, else 3.
EXTRA_COSTS = (6, 3)


def play_order(cp: CompiledProfile) -> list[int]:
    """Draw-card classes in the order the player tries them."""
    def rank(c: int) -> tuple[int, int]:
        b = cp.behaviours[c]
        return (0 if b.start_of_main1 else 1 if b.no_draw_before else 2, c)

    return sorted((c for c, b in cp.behaviours.items() if not b.searches), key=rank)


def extra_paid(b: Behaviour, extra: int) -> int:
    """Extra Deck cards an Extra Deck cost banishes (0 without such a cost; -1: cannot pay)."""
    if not b.extra_deck_cost:
        return 0
    return next((n for n in EXTRA_COSTS if extra >= n), -1)


def amounts(b: Behaviour, extra: int) -> tuple[int, int]:
    """(cards drawn, cards excavated) given the Extra Deck's size (an Extra Deck cost of 3
    halves them)."""
    paid = extra_paid(b, extra)
    if paid == 3:
        return b.draw // 2, b.excavate // 2
    return b.draw, b.excavate


class TurnState(Plain):
    """What this turn's plays so far allow (per hand)."""

    __slots__ = ("played", "drew", "locked", "used", "extra")

    def __init__(self, played: bool = False, drew: bool = False, locked: bool = False,
                 used: set[int] | None = None, extra: int = 0) -> None:
        self.played = played
        self.drew = drew
        self.locked = locked
        self.used = set() if used is None else used
        self.extra = extra

    def key(self) -> tuple[bool, bool, bool, frozenset[int], int]:
        return self.played, self.drew, self.locked, frozenset(self.used), self.extra


def playable(cp: CompiledProfile, d: int, k: tuple[int, ...], deck_left: int,
             hand_size: int, st: TurnState) -> bool:
    """Whether draw card class `d` can be played now (the rules in the module docstring)."""
    b = cp.behaviours[d]
    if k[d] == 0 or (b.once_per_turn and d in st.used):
        return False
    if b.start_of_main1 and st.played:
        return False
    if b.draws and st.locked:
        return False
    if b.no_draw_before and st.drew:
        return False
    if extra_paid(b, st.extra) < 0:
        return False
    draw, excavate = amounts(b, st.extra)
    need = b.banish_top + draw + excavate
    if b.redraw_hand:
        need = hand_size - 1
    if deck_left < max(need, 1):
        return False
    if d in cp.costs:
        members = cp.class_members(cp.costs[d])
        have = sum(k[c] for c in members) - (1 if d in members else 0)
        if have <= 0:
            return False
    return True


def after_play(cp: CompiledProfile, d: int, st: TurnState) -> TurnState:
    """The turn's state once `d` has been played."""
    b = cp.behaviours[d]
    paid = extra_paid(b, st.extra)
    return TurnState(played=True, drew=st.drew or b.draws,
                     locked=st.locked or b.no_draw_after, used=st.used | {d},
                     extra=st.extra - max(paid, 0))


def need_order(cp: CompiledProfile, terms: list[Term] | None = None) -> dict[int, tuple[int, int]]:
    """How much the profile needs each class, for choices by intent: (rank, weight) — rank 2
    for a card of a feature the goal `terms` asks for ("at least" or "different" bounds),
    1 for a card of any other role / named card / property, 0 for a blank; weight: how many
    of the goal's wanted features the card carries. Never the order of the labels."""
    wanted: set[int] = set()
    for t in all_terms(terms or []):
        wanted.update(t.lows)
        wanted.update(f for f, (lo, _) in t.distinct.items() if lo is not None)
    out = {}
    for c, ci in enumerate(cp.classes):
        w = len(ci.features & wanted)
        out[c] = (2 if w else 1 if ci.features else 0, w)
    return out


def least_needed(members: list[int], needs: dict[int, tuple[int, int]]) -> list[int]:
    """`members` with the least needed first (blanks, then other roles, then what the goal
    asks for, the fewer wanted features first): what a discard or banish gives up."""
    return sorted(members, key=lambda c: (needs[c], c))


def preference(cp: CompiledProfile, terms: list[Term] | None = None) -> list[int]:
    """Classes in the order an excavation adds them when none makes the hand succeed: the
    most needed first (`need_order`: what the goal asks for, then other roles, then
    blanks), then the most features."""
    needs = need_order(cp, terms)
    return sorted(range(len(cp.classes)),
                  key=lambda c: (-needs[c][0], -needs[c][1], -len(cp.classes[c].features), c))


def discard_order(cp: CompiledProfile, goals: dict[str, list[Term]]) -> list[int]:
    """Classes in the order the End Phase discards them: cards a condition wants in the GY
    first, then cards that only "at most" limits (or negated conditions) count — keeping
    them can only hurt — then cards no condition counts, then the rest, the least needed
    first."""
    lows: dict[int, int] = {}
    bad: set[int] = set()
    to_gy: set[int] = set()  # cards a condition wants in the GY: discarded first
    C = len(cp.classes)
    for terms in goals.values():
        for t in terms:
            for f in t.lows:
                for c in cp.class_members(f):
                    if c >= C:
                        if cp.features[f].kind == "gy":
                            to_gy.add(c - C)
                        continue
                    lows[c] = lows.get(c, 0) + 1
            for f, (lo, _) in t.distinct.items():
                if lo is not None:
                    for c in cp.class_members(f):
                        lows[c] = lows.get(c, 0) + 1
            for f in t.highs:
                bad.update(cp.class_members(f))
            for sub in t.nots:
                for s in all_terms(sub):
                    for f in [*s.lows, *s.distinct]:
                        bad.update(cp.class_members(f))
    search_targets = {c for s, f in cp.targets.items() for c in [s, *cp.class_members(f)]}

    def rank(c: int) -> tuple[int, int, int]:
        if c in to_gy:
            return (-1, 0, c)
        if c in bad and c not in lows:
            return (0, 0, c)
        if c not in lows and c not in bad and c not in search_targets \
                and c not in cp.behaviours:
            return (1, 0, c)
        if c not in lows:
            return (2, 0, c)
        return (3, lows[c], c)

    return sorted(range(len(cp.classes)), key=rank)


def remove_choice(members: list[int], k: list[int], keeps: Callable[[int], bool]) -> int | None:
    """The class of the card to discard / banish from the hand `k` among `members`: the first
    whose loss `keeps` the goal within reach, else the first in the hand; None if none is."""
    have = [c for c in members if k[c] > 0]
    for c in have:
        if keeps(c):
            return c
    return have[0] if have else None
