"""not-yet-released: a card may be used only from its release date in the format's region.

Uses the card pool's release dates (`Card.released["tcg"|"ocg"]`) against the date the deck
is checked as of (`--date`, default today). When the pool knows no release date for any card
of the deck in that region, nothing is reported and the report says release dates could not be
checked.

Passing (TCG, as of 2026-11-22)::

    a card released in the TCG on 2026-08-01

Failing (TCG, as of 2026-07-01)::

    the same card
    -> DC402 not-yet-released: … is not released in the TCG until 2026-08-01 (checked as of
       2026-07-01).
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules.context import CheckContext, distinct, make, others
from deckcheck.rules.violation import Found, Severity

CODE = "DC402"
NAME = "not-yet-released"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    region = ctx.format.region
    dated = [i for i in ctx.unusual if i.card is not None and region in i.card.released]
    if not dated:
        if any(i.card is not None for i in ctx.items):
            ctx.notice(f"Release dates in the {region.upper()} are not known for this deck's "
                       f"cards in this card pool, so not-yet-released cards ({CODE}) could not "
                       f"be checked.")
        return
    late = (i for i in dated if i.card is not None and i.card.released[region] > ctx.date)
    for items in distinct(late).values():
        at = items[0]
        assert at.card is not None
        day = at.card.released[region]
        n = sum(i.count for i in items)
        yield make(f"{at.card.name} is not released in the {region.upper()} until "
                   f"{day.isoformat()} (checked as of {ctx.date.isoformat()})"
                   f"{others(items, at)}.", at, count=n)
