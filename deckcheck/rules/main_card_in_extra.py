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
from deckcheck.rules._placement import in_wrong_deck
from deckcheck.rules.context import CheckContext
from deckcheck.rules.violation import Found, Severity

CODE = "DC111"
NAME = "main-card-in-extra"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    return in_wrong_deck(ctx, "extra", "main")
