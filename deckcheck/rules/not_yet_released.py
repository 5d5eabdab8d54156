"""not-yet-released: a card may be used only from its release date in the format's region.

Uses the card pool's first release dates (`Card.released["tcg"|"ocg"]`: the earliest dated
printing in any TCG locale, or in Japan; in Master Duel the day before which the card cannot
have been in the game, `master_duel_floor`: a Master Duel set's date only shows the card in
the game *by* that day, so it never makes a card "not yet released") against the date the
deck is checked as of (`--date`, default today). Cards the pool has no date for in that region are
counted in one notice ("3 cards have no known TCG release date; not checked"), never passed
over in silence. Cards DC403 already refuses (not in the region, anime, unofficial) are left
to it.

Passing (TCG, as of 2026-11-22)::

    a card released in the TCG on 2026-08-01

Failing (TCG, as of 2026-07-01)::

    the same card
    -> DC402 not-yet-released: … is not released in the TCG until 2026-08-01 (checked as of
       2026-07-01).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from deckcheck.cards.coverage import MD_LAUNCH
from deckcheck.cards.model import Card, Kind
from deckcheck.decks.model import Deck
from deckcheck.rules.context import NOTHING, CheckContext, Item, distinct, make, others
from deckcheck.rules.violation import Found, Severity

CODE = "DC402"
NAME = "not-yet-released"
SEVERITY: Severity = "error"

#: how messages name a region: "in the TCG", "in Master Duel"
PLACE = {"tcg": "the TCG", "ocg": "the OCG", "md": "Master Duel"}
LABEL = {"tcg": "TCG", "ocg": "OCG", "md": "Master Duel"}


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    region = ctx.format.region
    if region != "md" and not ctx.unusual:
        # An item that is not `unusual` is out in the region on the date (`ctx.dated`) or has
        # no release dates at all.
        if ctx.known == ctx.dated:  # every known card out on the date: nothing to say
            return NOTHING
        if not ctx.dated:  # every known card undated: the notice, with nothing to count
            ctx.notice(_not_known(PLACE.get(region, region.upper())))
            return NOTHING
    return _check(ctx, region)


def _check(ctx: CheckContext, region: str) -> Iterator[Found]:
    excluded = set(ctx.format.excluded_scopes)
    place, label = PLACE.get(region, region.upper()), LABEL.get(region, region.upper())
    late: list[Item] = []
    undated: set[int] = set()
    dated = ctx.dated > 0
    # card -> its release day here, None when undated, False when not checked (the same for
    # every deck of a run)
    memo: dict[int, dt.date | bool | None] = ctx.memo.setdefault(CODE, {})  # type: ignore[assignment]
    candidates: list[Item]
    if region == "md":
        candidates = ctx.items
    else:
        # An item that is not `unusual` has a known card out in the region on the date
        # (`ctx.dated`) or with no release dates (and no scopes, not a Token or Skill):
        # undated. Only the unusual ones need a look.
        if ctx.known - ctx.odd > ctx.dated:
            undated = {i.card.passcode for i in ctx.items if not i.unusual
                       and i.card is not None and not i.card.released}
        candidates = ctx.unusual
    for i in candidates:
        card = i.card
        if card is None:
            continue
        pc = card.passcode
        day = memo.get(pc, True)
        if day is True:
            day = memo[pc] = _day(card, region, excluded)
        if day is False:
            continue
        if day is None:
            undated.add(pc)
            continue
        dated = True
        if day > ctx.date:  # type: ignore[operator]  # a date here
            late.append(i)
    if undated and not dated:
        ctx.notice(_not_known(place))
    elif undated:
        n = len(undated)
        ctx.notice(f"{n} card{'s' if n != 1 else ''} {'have' if n != 1 else 'has'} no known "
                   f"{label} release date; not checked.")
    for items in distinct(late).values():
        at = items[0]
        assert at.card is not None
        day = memo[at.card.passcode]
        assert isinstance(day, dt.date)  # it is late: it has a day
        n = sum(i.count for i in items)
        yield make(f"{at.card.name} is not released in {place} until "
                   f"{day.isoformat()} (checked as of {ctx.date.isoformat()})"
                   f"{others(items, at)}.", at, count=n)


def _not_known(place: str) -> str:
    return (f"Release dates in {place} are not known for this deck's cards in this card pool, "
            f"so not-yet-released cards ({CODE}) could not be checked.")


def _day(card: Card, region: str, excluded: set[str]) -> dt.date | bool | None:
    """The card's first release in `region`; None when undated; False when not checked."""
    if card.kind in (Kind.TOKEN, Kind.SKILL) or card.scopes & excluded:
        return False
    if region == "md":
        if card.master_duel is not True:
            return False  # not in Master Duel, or not known to be: DC403 says so
        return master_duel_floor(card)
    return card.released.get(region)


_LAUNCH = dt.date.fromisoformat(MD_LAUNCH)


def master_duel_floor(card: Card) -> dt.date | None:
    """The day before which a card in Master Duel cannot have been there: its "md" day (the
    importers' lower bound), else the game's launch or its first paper release, whichever is
    later. A Master Duel set's date is never used: it shows the card in the game *by* then."""
    day = card.released.get("md")
    if day is not None:
        return day
    paper = [d for r, d in card.released.items() if r != "md"]
    return max(_LAUNCH, min(paper)) if paper else None
