"""points-over-cap: in a points format (Genesys), the deck's points may not exceed the cap.

Each copy of a card counts its points (Main + Extra + Side); the cap is the format's
`points_cap` unless overridden (`--points-cap N`, `check(..., points_cap=N)`). The entry at
which the running total goes over the cap is reported, with the costliest cards named.

Passing (Genesys, cap 100)::

    #main
    14558127 ×3    (a card worth 33: 99 points)

Failing (Genesys, cap 100)::

    #main
    14558127 ×3    (a card worth 33)
    40640057 ×1    (a card worth 2: 101 points)
    -> DC301 points-over-cap: The deck has 101 points; Genesys allows 100 (…).
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules.context import CheckContext, make
from deckcheck.rules.violation import Found, Severity

CODE = "DC301"
NAME = "points-over-cap"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    cap = ctx.points_cap
    if cap is None:
        return
    total = 0
    at = None
    costly: dict[str, int] = {}
    for it in ctx.items:
        p = ctx.points_of(it) * it.count
        if not p:
            continue
        total += p
        costly[it.label] = costly.get(it.label, 0) + p
        if at is None and total > cap:
            at = it
    if total <= cap:
        return
    top = sorted(costly.items(), key=lambda kv: -kv[1])[:3]
    listing = ", ".join(f"{name} {p}" for name, p in top)
    yield make(f"The deck has {total} points; {ctx.format.name} allows {cap} "
               f"(most points: {listing}).", at, with_card=False, points=total, cap=cap,
               location=None if at is not None else ctx.deck_location)
