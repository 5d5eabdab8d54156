"""token-in-deck: Tokens are never part of a deck (Main, Extra or Side).

Passing::

    #main
    (no Token cards)

Failing::

    #side
    73915052       (Sheep Token)
    -> DC120 token-in-deck: Sheep Token is a Token and cannot be in any deck; remove it.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.cards.model import Kind
from deckcheck.decks.model import Deck
from deckcheck.rules.context import NOTHING, CheckContext, distinct, make, others
from deckcheck.rules.violation import Found, Severity

CODE = "DC120"
NAME = "token-in-deck"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    if not ctx.unusual:  # a Token is `unusual`
        return NOTHING
    return _check(deck, ctx)


def _check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    tokens = (i for i in ctx.unusual if i.card is not None and i.card.kind is Kind.TOKEN)
    for items in distinct(tokens).values():
        at = items[0]
        n = sum(i.count for i in items)
        yield make(f"{at.label} is a Token and cannot be in any deck; remove it"
                   f"{others(items, at)}.", at, count=n)
