"""Shared by the three deck-size rules (DC101, DC102, DC103)."""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Section
from deckcheck.rules.context import CheckContext, going_over, make
from deckcheck.rules.violation import Violation

_TITLE = {"main": "Main Deck", "extra": "Extra Deck", "side": "Side Deck"}


def check_size(ctx: CheckContext, section: Section, code: str, name: str) -> Iterator[Violation]:
    rng = getattr(ctx.format, section)
    size = ctx.size(section)
    if rng.min <= size <= rng.max:
        return
    title = _TITLE[section]
    need = f"{rng.min} to {rng.max}" if rng.min else f"at most {rng.max}"
    noun = "card" if size == 1 else "cards"
    message = f"The {title} has {size} {noun}; {ctx.format.name} allows {need}."
    at = None
    limit = rng.max if size > rng.max else rng.min
    if size > rng.max:
        counted = [i for i in ctx.in_section(section) if ctx.counts_in_size(i)]
        at = going_over(counted, rng.max)
    yield make(code, name, "error", message, at, with_card=False, count=size, limit=limit,
               section=section, location=None if at is not None else ctx.deck_location)
