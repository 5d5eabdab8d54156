"""wrong-region: cards that do not exist in the format's card pool — OCG-only cards in the
TCG and the reverse, anime, Rush Duel, prerelease-only and unofficial cards.

Compares the card's scopes (from the card pool) with the format's `excluded_scopes`. Skill
Cards are left to DC121 / DC122.

Passing (TCG)::

    #main
    14558127       (Ash Blossom & Joyous Spring: released everywhere)

Failing (TCG)::

    #main
    an OCG-only card
    -> DC403 wrong-region: … is an OCG-only card, not legal in TCG Advanced.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.cards.model import Kind
from deckcheck.decks.model import Deck
from deckcheck.rules.context import CheckContext, distinct, make, others
from deckcheck.rules.violation import Found, Severity

CODE = "DC403"
NAME = "wrong-region"
SEVERITY: Severity = "error"

SCOPE_WORDS = {
    "ocg_only": "an OCG-only card",
    "tcg_only": "a TCG-only card",
    "anime": "an anime or manga card",
    "rush": "a Rush Duel card",
    "speed": "a Speed Duel card",
    "skill": "a Skill Card",
    "prerelease": "a prerelease card without an official passcode",
    "unofficial": "an unofficial card",
}


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    excluded = set(ctx.format.excluded_scopes)
    if not excluded:
        return
    wrong = (i for i in ctx.unusual if i.card is not None and i.card.scopes & excluded
             and i.card.kind is not Kind.SKILL)
    for items in distinct(wrong).values():
        at = items[0]
        assert at.card is not None
        scope = sorted(at.card.scopes & excluded)[0]
        what = SCOPE_WORDS.get(scope, f"a {scope} card")
        n = sum(i.count for i in items)
        yield make(f"{at.card.name} is {what}, not legal in {ctx.format.name}"
                   f"{others(items, at)}.", at, count=n)
