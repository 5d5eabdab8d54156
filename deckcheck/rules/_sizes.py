"""Shared by the three deck-size rules (DC101, DC102, DC103).

A size counts what the player wrote: the cards deckcheck knows, plus the copies of entries it
could not resolve (an unknown or misspelt name, a bad count's line). An unknown card is one
problem (DC401), never a size error on top: when the written count is in range, no size
problem is reported; when it is not, the message gives both counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from deckcheck.decks.model import SECTION_TITLES, Section
from deckcheck.rules.context import NOTHING, CheckContext, going_over, make
from deckcheck.rules.violation import Found

if TYPE_CHECKING:
    from deckcheck.formats.model import SizeRange


def unresolved(ctx: CheckContext, section: Section) -> tuple[int, int]:
    """Copies written that did not become an entry (names the reader could not resolve): those
    written in `section`, and those whose section is unknown (a list without headings places
    cards by kind, so an unknown name may belong to the Main or the Extra Deck)."""
    here = unplaced = 0
    for p in ctx.deck.problems:
        if p.section == section:
            here += p.count or 0
        elif p.section is None and section != "side":
            unplaced += p.count or 0
    return here, unplaced


def check_size(ctx: CheckContext, section: Section) -> Iterator[Found]:
    rng = getattr(ctx.format, section)
    size = ctx.size(section)
    here, unplaced = unresolved(ctx, section) if ctx.deck.problems else (0, 0)
    least = size + here  # written in this section for certain
    if least + unplaced >= rng.min and least <= rng.max:
        return NOTHING  # the unknown cards (one DC401 each) may well make the size right
    return _wrong_size(ctx, section, rng, size, least, unplaced)


def _wrong_size(ctx: CheckContext, section: Section, rng: SizeRange, size: int, least: int,
                unplaced: int) -> Iterator[Found]:
    written = least if least > rng.max else least + unplaced
    unknown = sum(i.count for i in ctx.in_section(section) if i.card is None)
    unknown += written - size
    title = SECTION_TITLES[section]
    need = f"{rng.min} to {rng.max}" if rng.min else f"at most {rng.max}"
    noun = "card" if written == 1 else "cards"
    counted = f"{written} {noun}"
    if unknown:
        counted += f" written ({written - unknown} known, {unknown} unknown)"
    message = f"The {title} has {counted}; {ctx.format.name} allows {need}."
    at = None
    limit = rng.max if written > rng.max else rng.min
    if size > rng.max:
        counted_items = [i for i in ctx.in_section(section) if ctx.counts_in_size(i)]
        at = going_over(counted_items, rng.max)
    yield make(message, at, with_card=False, count=written, limit=limit,
               section=section, location=None if at is not None else ctx.deck_location)
