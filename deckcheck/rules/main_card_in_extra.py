"""main-card-in-extra: only Fusion, Synchro, Xyz and Link monsters go in the Extra Deck.

Spells, Traps and Main Deck monsters (Normal, Effect, Ritual, Pendulum) written in the Extra
Deck are reported. (Pendulum monsters reach the face-up Extra Deck during a Duel, but are built
into the Main Deck.) The Side Deck may hold both kinds of card.

Passing::

    #main
    14558127       (Ash Blossom & Joyous Spring)

Failing::

    #extra
    14558127
    -> DC111 main-card-in-extra: Ash Blossom & Joyous Spring is an Effect Monster and cannot
       be in the Extra Deck; move it to the Main Deck.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules.context import CheckContext, distinct, frame_label, make, others
from deckcheck.rules.violation import Severity, Violation

CODE = "DC111"
NAME = "main-card-in-extra"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Violation]:
    wrong = (i for i in ctx.in_section("extra") if i.place == "main")
    for items in distinct(wrong).values():
        at = items[0]
        assert at.card is not None
        n = sum(i.count for i in items)
        yield make(CODE, NAME, SEVERITY,
                   f"{at.card.name} is {frame_label(at.card)} and cannot be in the Extra Deck; "
                   f"move it to the Main Deck{others(items, at)}.", at, count=n)
