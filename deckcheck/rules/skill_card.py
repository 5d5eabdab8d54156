"""skill-card: Skill Cards exist only in Speed Duel (and formats whose file allows them).

Checked when the format's `skills` is "forbidden" (TCG, OCG and every Advanced-style format).

Passing (TCG)::

    #main
    (no Skill Cards)

Failing (TCG)::

    #main
    300101004      (a Skill Card)
    -> DC121 skill-card: Skill Cards are used only in Speed Duel; remove it from this
       TCG Advanced deck.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.cards.model import Kind
from deckcheck.decks.model import Deck
from deckcheck.rules.context import NOTHING, CheckContext, distinct, make, others
from deckcheck.rules.violation import Found, Severity

CODE = "DC121"
NAME = "skill-card"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    if ctx.format.skills != "forbidden" or not ctx.unusual:  # a Skill Card is `unusual`
        return NOTHING
    return _check(ctx)


def _check(ctx: CheckContext) -> Iterator[Found]:
    skills = (i for i in ctx.unusual if i.card is not None and i.card.kind is Kind.SKILL)
    for items in distinct(skills).values():
        at = items[0]
        n = sum(i.count for i in items)
        yield make(f"{at.label} is a Skill Card, which {ctx.format.name} does not use; "
                   f"remove it{others(items, at)}.", at, count=n)
