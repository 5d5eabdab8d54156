"""main-deck-size: the Main Deck holds as many cards as the format allows.

The range comes from the format file (TCG/OCG: Main 40–60, Extra and Side 0–15; Speed Duel:
Main 20–30, Extra and Side 0–5). In formats with Skill Cards, the Skill Card is not counted.
A Main Deck that is too big is reported at the entry that goes over.

Passing::

    #main            (40 to 60 cards (TCG))

Failing::

    #main            (39 cards)
    -> DC101 main-deck-size: The Main Deck has 39 cards; TCG Advanced allows 40 to 60.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules._sizes import check_size
from deckcheck.rules.context import CheckContext
from deckcheck.rules.violation import Found, Severity

CODE = "DC101"
NAME = "main-deck-size"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    return check_size(ctx, "main")
