"""wrong-region: cards that do not exist in the format's card pool — OCG-only cards in the
TCG and the reverse, anime, Rush Duel, prerelease-only and unofficial cards (an id of
100,000,000 or more that no official printing has: anime, custom or prerelease), and in
Master Duel (`region = "md"`) cards the card data says are not in Master Duel.

Compares the card's scopes (from the card pool) with the format's `excluded_scopes`. Skill
Cards are left to DC121 / DC122. In Master Duel, cards with no Master Duel data at all are
counted in one notice.

Master Duel's pool is known by evidence: a card is in it when any source shows it there (YAML
Yugi's Master Duel rarity, YGOJSON's Master Duel sets, YGOPRODeck's formats) or a Master Duel
list in force on or before the date names it. "Not released in the region" (OCG-only,
TCG-only, not yet released) and "not in Master Duel" rest on the absence of a fact: on a date
past the day that data ends (`deckcheck.cards.coverage`) they are open points, not errors (the
card may have come since), and the deck "could not be fully checked".

Passing (TCG)::

    #main
    14558127       (Ash Blossom & Joyous Spring: released everywhere)

Failing (TCG)::

    #main
    an OCG-only card
    -> DC403 wrong-region: … is an OCG-only card, not legal in TCG Advanced.
    100000101      (Ojamandala: an anime card's id)
    -> DC403 wrong-region: Ojamandala is an anime or manga card, not legal in TCG Advanced.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.cards.coverage import beyond
from deckcheck.cards.model import UNOFFICIAL_IDS, Card, Kind
from deckcheck.decks.model import Deck
from deckcheck.rules.context import (
    NOTHING,
    CheckContext,
    Item,
    card_codes,
    distinct,
    make,
    others,
)
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
    "custom": "a custom card",
}


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    md = ctx.format.region == "md"
    if not md and not ctx.unusual:  # only unusual items can have scopes
        return NOTHING
    return _check(ctx, md)


#: Scopes that say what the data has not seen (yet): a printing in a region, any release.
ABSENCE = frozenset({"ocg_only", "tcg_only", "prerelease"})


def _check(ctx: CheckContext, md: bool) -> Iterator[Found]:
    excluded = set(ctx.format.excluded_scopes)
    if excluded:
        wrong = (i for i in ctx.unusual if i.card is not None and i.card.scopes & excluded
                 and i.card.kind is not Kind.SKILL)
        end = ctx.past("cards")
        for items in distinct(wrong).values():
            at = items[0]
            assert at.card is not None
            what = describe(at.card, excluded)
            n = sum(i.count for i in items)
            if end is not None and at.card.scopes & excluded <= ABSENCE:
                ctx.open_point(f"{at.card.name} was {what} when deckcheck's data ended, and may "
                               f"have been released for {ctx.format.name} since"
                               f"{others(items, at)}: {beyond('cards', end)}.", at)
                continue
            yield make(f"{at.card.name} is {what}, not legal in {ctx.format.name}"
                       f"{others(items, at)}.", at, count=n)
    if md:
        yield from _master_duel(ctx, excluded)


def describe(card: Card, excluded: set[str]) -> str:
    """What kind of card this is, for a card whose scopes the format excludes: an id no
    official card has says whether it is a prerelease, anime or custom card, as far as the
    card data tells."""
    scopes = card.scopes
    scope = sorted(scopes & excluded)[0]
    if scope == "unofficial":
        scope = next((s for s in ("anime", "prerelease", "custom") if s in scopes), scope)
        if scope == "prerelease":
            return "a prerelease card without an official passcode yet"
        if scope == "unofficial" and card.passcode >= UNOFFICIAL_IDS:
            return (f"a card with no official printing under this id ({card.passcode}: an "
                    "announced card before its passcode, an anime or a custom card)")
    return SCOPE_WORDS.get(scope, f"a {scope} card")


def _master_duel(ctx: CheckContext, excluded: set[str]) -> Iterator[Found]:
    """Master Duel's card pool comes from the card data: a card is there when a source (YGOJSON's
    Master Duel sets, YGOPRODeck's formats) says so."""
    absent: list[Item] = []
    unknown: set[int] = set()
    for i in ctx.items:
        card = i.card
        if card is None or card.kind in (Kind.TOKEN, Kind.SKILL) or card.scopes & excluded:
            continue
        if card.master_duel is False:
            absent.append(i)
        elif card.master_duel is None:
            unknown.add(card.passcode)
    if absent:
        listed = _on_lists_so_far(ctx)
        absent = [i for i in absent if not listed.intersection(card_codes(i))]
    end = ctx.past("md")
    for items in distinct(absent).values():
        at = items[0]
        assert at.card is not None
        n = sum(i.count for i in items)
        if end is not None:
            ctx.open_point(f"{at.card.name} is not in Master Duel's card pool as deckcheck's data "
                           f"shows it, and may have been added since{others(items, at)}: "
                           f"{beyond('md', end)}.", at)
            continue
        yield make(f"{at.card.name} is not in Master Duel's card pool, not legal in "
                   f"{ctx.format.name}{others(items, at)}.", at, count=n)
    if unknown:
        n = len(unknown)
        ctx.notice(f"{n} card{'s' if n != 1 else ''} {'have' if n != 1 else 'has'} no Master "
                   "Duel data in this card pool; whether they are in Master Duel was not "
                   "checked (`deckcheck cards import` a YGOJSON archive to add it).")


def _on_lists_so_far(ctx: CheckContext) -> frozenset[int]:
    """Every passcode a list of the format in force on or before the date names: each is in
    the game (kept for the checker's run)."""
    memo: dict[str, frozenset[int]] = ctx.memo.setdefault(CODE, {})  # type: ignore[assignment]
    found = memo.get("listed")
    if found is None:
        lists = [b for b in ctx.format.lists() if b.effective <= ctx.date]
        if ctx.banlist is not None:
            lists.append(ctx.banlist)
        found = memo["listed"] = frozenset(e.passcode for b in lists for e in b.entries)
    return found
