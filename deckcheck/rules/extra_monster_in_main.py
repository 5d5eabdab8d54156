"""extra-monster-in-main: Fusion, Synchro, Xyz and Link monsters belong in the Extra Deck.

The Side Deck may hold both kinds of card; only the Main Deck is checked here. Pendulum
monsters of those types (e.g. a Fusion Pendulum) are Extra Deck monsters too.

Passing::

    #extra
    1861629        (Decode Talker, a Link monster)

Failing::

    #main
    1861629        (Decode Talker)
    -> DC110 extra-monster-in-main: Decode Talker is a Link Monster and cannot be in the
       Main Deck; move it to the Extra Deck.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules.context import CheckContext, distinct, frame_label, make, others
from deckcheck.rules.violation import Severity, Violation

CODE = "DC110"
NAME = "extra-monster-in-main"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Violation]:
    wrong = (i for i in ctx.in_section("main") if i.place == "extra")
    for items in distinct(wrong).values():
        at = items[0]
        assert at.card is not None
        n = sum(i.count for i in items)
        yield make(CODE, NAME, SEVERITY,
                   f"{at.card.name} is {frame_label(at.card)} and cannot be in the Main Deck; "
                   f"move it to the Extra Deck{others(items, at)}.", at, count=n)
