"""side-deck-size: the Side Deck holds as many cards as the format allows.

The range comes from the format file (TCG/OCG: Main 40–60, Extra and Side 0–15; Speed Duel:
Main 20–30, Extra and Side 0–5). In formats with Skill Cards, the Skill Card is not counted.
A Side Deck that is too big is reported at the entry that goes over.

Passing::

    #side            (0 to 15 cards (TCG))

Failing::

    #side            (16 cards)
    -> DC103 side-deck-size: The Side Deck has 16 cards; TCG Advanced allows at most 15.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules._sizes import check_size
from deckcheck.rules.context import CheckContext
from deckcheck.rules.violation import Found, Severity

CODE = "DC103"
NAME = "side-deck-size"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    return check_size(ctx, "side")
