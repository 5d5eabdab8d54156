"""Shared by the two wrong-deck rules (DC110 Extra Deck monster in the Main Deck, DC111 Main
Deck card in the Extra Deck)."""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import SECTION_TITLES, Section
from deckcheck.rules.context import NOTHING, CheckContext, distinct, frame_label, make, others
from deckcheck.rules.violation import Found


def in_wrong_deck(ctx: CheckContext, section: Section, belongs: Section) -> Iterator[Found]:
    """One violation per card in `section` whose place is `belongs` ("main" or "extra")."""
    if section not in ctx.misplaced:
        return NOTHING
    return _misplaced(ctx, section, belongs)


def _misplaced(ctx: CheckContext, section: Section, belongs: Section) -> Iterator[Found]:
    wrong = (i for i in ctx.in_section(section) if i.place == belongs)
    for items in distinct(wrong).values():
        at = items[0]
        assert at.card is not None
        n = sum(i.count for i in items)
        yield make(f"{at.card.name} is {frame_label(at.card)} and cannot be in the "
                   f"{SECTION_TITLES[section]}; move it to the "
                   f"{SECTION_TITLES[belongs]}{others(items, at)}.", at, count=n)
