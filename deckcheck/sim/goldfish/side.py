"""Side decking: the odds of games 2 and 3 after a side plan.

A profile's ``[side]`` table says what goes in (from the Side Deck) and what comes out (of
the Main Deck) for the games played going first and going second::

    [side.first]
    in = ["2 Droll & Lock Bird"]
    out = ["2 Effect Veiler"]
    [side.second]
    in = ["Harpie's Feather Duster"]
    out = ["Pot of Prosperity"]

Each entry is a card name, optionally with a count before it ("2 NAME") or after it
("NAME x2"). The sided Main Deck is the deck file's Main Deck with the cards out taken out
and the cards in (from its Side Deck) put in; the profile is compiled against it (a card
the profile names that is sided out is a note, not an error) and its success rate reported
for that seat, by the same engines as game 1.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from deckcheck.cards.names import normalize
from deckcheck.errors import ProfileError
from deckcheck.plain import Plain

if TYPE_CHECKING:
    from deckcheck.cards.model import Card
    from deckcheck.cards.pool import CardPool
    from deckcheck.decks.model import Deck
    from deckcheck.sim.goldfish.profile import ProfileFile
    from deckcheck.sim.goldfish.report import Mode
    from deckcheck.sim.goldfish.results import Rate
    from deckcheck.sim.turnrules import TurnRules

SEATS = {"first": False, "second": True}
_COUNT_BEFORE = re.compile(r"^\s*(\d+)\s*x?\s+(.+?)\s*$", re.IGNORECASE)
_COUNT_AFTER = re.compile(r"^\s*(.+?)\s+x\s*(\d+)\s*$", re.IGNORECASE)


class SidedResult(Plain):
    """Games 2 and 3 in one seat after the side plan: what went in and out, and the
    success rate (turn 1)."""

    __slots__ = ("going", "cards_in", "cards_out", "deck_size", "success", "notes")

    def __init__(self, going: Literal["first", "second"], cards_in: dict[str, int],
                 cards_out: dict[str, int], deck_size: int, success: Rate,
                 notes: list[str] | None = None) -> None:
        self.going = going
        self.cards_in = cards_in
        self.cards_out = cards_out
        self.deck_size = deck_size
        self.success = success
        self.notes = [] if notes is None else notes


def parse_entry(text: str, path: str) -> tuple[str, int]:
    """"2 NAME" / "NAME x2" / "NAME" -> (name, copies)."""
    if not isinstance(text, str) or not text.strip():
        raise ProfileError(f"{path}: {text!r} is not a card; write \"NAME\" or \"2 NAME\".")
    m = _COUNT_BEFORE.match(text)
    if m:
        return m.group(2), int(m.group(1))
    m = _COUNT_AFTER.match(text)
    if m:
        return m.group(1), int(m.group(2))
    return text.strip(), 1


def side_plan(pf: ProfileFile, source: str) -> dict[str, dict[str, list[tuple[str, int]]]]:
    """The profile's [side] table checked: seat -> {"in": [(name, n)], "out": [...]}."""
    out: dict[str, dict[str, list[tuple[str, int]]]] = {}
    for seat, plan in pf.side.items():
        path = f"side.{seat}"
        if seat not in SEATS:
            raise ProfileError(f"{source}: {path}: unknown seat; the side plan has [side.first] "
                               f"and/or [side.second].")
        if not isinstance(plan, dict) or not set(plan) <= {"in", "out"}:
            raise ProfileError(f"{source}: {path}: a side plan is in = [...] and out = [...] "
                               f"(card names); fix it.")
        out[seat] = {}
        for key in ("in", "out"):
            items = plan.get(key, [])
            if not isinstance(items, list):
                raise ProfileError(f"{source}: {path}.{key}: give a list of card names.")
            out[seat][key] = [parse_entry(x, f"{source}: {path}.{key}[{i}]")
                              for i, x in enumerate(items)]
    return out


def _taken(moves: list[tuple[str, int]], counts: dict[str, int], what: str,
           section: str) -> dict[str, int]:
    """Card name -> copies the side plan's `moves` take from a section holding `counts`; a
    move the section cannot give is one sentence."""
    taken: dict[str, int] = {}
    for written, n in moves:
        name = _find(counts, written)
        have = 0 if name is None else counts[name] - taken.get(name, 0)
        if name is None or have < n:
            raise ProfileError(f"{what}: {written} x{n}, but the {section} holds {have}; "
                               f"fix the side plan.")
        taken[name] = taken.get(name, 0) + n
    return taken


def _find(cards: dict[str, int], written: str) -> str | None:
    key = normalize(written)
    return next((n for n in cards if normalize(n) == key), None)


def sided_main(deck: Deck, pool: CardPool, plan: dict[str, list[tuple[str, int]]],
               where: str) -> tuple[list[Card], int, dict[str, int], dict[str, int]]:
    """The Main Deck after a side plan (cards, Extra Deck size, what went in, out)."""
    from deckcheck.sim.state import deal_cards

    main, extra = deal_cards(deck, pool)
    side_counts: dict[str, int] = {}
    side_card: dict[str, Card] = {}
    for entry in deck.side:
        card = pool.get(entry.passcode) if entry.passcode is not None else None
        if card is not None:
            side_counts[card.name] = side_counts.get(card.name, 0) + entry.count
            side_card[card.name] = card
    main_counts: dict[str, int] = {}
    for c in main:
        main_counts[c.name] = main_counts.get(c.name, 0) + 1
    gone = _taken(plan.get("out", []), main_counts, f"{where}: out", "Main Deck")
    added = _taken(plan.get("in", []), side_counts, f"{where}: in", "Side Deck")
    left = dict(gone)
    sided: list[Card] = []
    for c in main:
        if left.get(c.name, 0):
            left[c.name] -= 1
            continue
        sided.append(c)
    for name, n in added.items():
        sided.extend([side_card[name]] * n)
    return sided, len(extra), added, gone


def sided_odds(pf: ProfileFile, deck: Deck, pool: CardPool, source: str, *,
               seats: tuple[bool, ...] = (False, True), mode: Mode = "auto",
               hands: int | None = None, seed: int = 0,
               rules: TurnRules | None = None) -> list[SidedResult]:
    """Games 2 and 3 for each seat the side plan names (and `seats` asks for)."""
    from deckcheck.sim.goldfish.compiled import compile_profile
    from deckcheck.sim.goldfish.report import going_result
    from deckcheck.sim.turnrules import DEFAULT_RULES

    plans = side_plan(pf, source)
    out = []
    for seat, second in SEATS.items():
        if seat not in plans or second not in seats:
            continue
        where = f"{source}: side.{seat}"
        cards, extra, added, gone = sided_main(deck, pool, plans[seat], where)
        cp = compile_profile(pf, cards, pool, source, extra=extra,
                             rules=rules or DEFAULT_RULES, strict=False)
        res = going_result(cp, second, mode=mode, turns=1, hands=hands, seed=seed,
                           failing=0)
        going: Literal["first", "second"] = "second" if second else "first"
        out.append(SidedResult(going=going, cards_in=added, cards_out=gone,
                               deck_size=len(cards), success=res.goal().by_turn[0],
                               notes=[*cp.notes, *res.notes]))
    return out
