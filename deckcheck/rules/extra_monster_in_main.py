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
from deckcheck.rules._placement import in_wrong_deck
from deckcheck.rules.context import CheckContext
from deckcheck.rules.violation import Found, Severity

CODE = "DC110"
NAME = "extra-monster-in-main"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    return in_wrong_deck(ctx, "main", "extra")
