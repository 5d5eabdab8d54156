"""not-in-card-pool: in a whitelist format (GOAT, Speed Duel…), unlisted cards are forbidden.

A card is in the pool when the list names any of its passcodes (alternate artworks included).
Unknown cards are left to DC401.

Passing (GOAT)::

    #main
    55144522       (Pot of Greed, on the GOAT list as Limited)

Failing (GOAT)::

    #main
    14558127       (Ash Blossom & Joyous Spring, printed long after)
    -> DC205 not-in-card-pool: Ash Blossom & Joyous Spring is not on the GOAT list, and this
       format allows only the cards it lists.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules.context import CheckContext, card_codes, distinct, make, others
from deckcheck.rules.violation import Found, Severity

CODE = "DC205"
NAME = "not-in-card-pool"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    if ctx.banlist is None or not ctx.banlist.whitelist:
        return
    listed = ctx.view.listed
    known = (i for i in ctx.items if i.card is not None)
    for items in distinct(known).values():
        at = items[0]
        if any(pc in listed for pc in card_codes(at)):
            continue
        n = sum(i.count for i in items)
        yield make(f"{at.label} is not on the {ctx.list_name()} list, and {ctx.format.name} "
                   f"allows only the cards it lists{others(items, at)}.", at, count=n, limit=0)
