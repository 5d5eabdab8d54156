"""prerelease-id: the passcode as written is a prerelease (simulator) id of a card that now
has an official passcode.

The deck still means the right card (it is checked as that card), but tournament software
and other tools may not know the old id: write the official passcode. A warning.

Passing::

    #main
    12345678       (the official passcode)

Failing::

    #main
    100200300      (a prerelease id mapped to an official passcode)
    -> DC404 prerelease-id: 100200300 is a prerelease id of … ; write its official passcode
       12345678.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules.context import NOTHING, CheckContext, Item, make, others
from deckcheck.rules.violation import Found, Severity

CODE = "DC404"
NAME = "prerelease-id"
SEVERITY: Severity = "warning"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    if not ctx.unusual:  # an id not the card's own is `unusual`
        return NOTHING
    return _check(deck, ctx)


def _check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    old: dict[int, list[Item]] = {}
    for it in ctx.unusual:
        pc = it.entry.passcode
        if it.card is not None and pc is not None and pc not in it.card.all_passcodes:
            old.setdefault(pc, []).append(it)
    for pc, items in old.items():
        at = items[0]
        assert at.card is not None
        n = sum(i.count for i in items)
        yield make(f"{pc} is a prerelease id of {at.card.name}; write its official passcode "
                   f"{at.card.passcode}{others(items, at)}.", at, count=n)
