"""`check()`: run every selected rule over a deck and return the `Report`.

    >>> from deckcheck import check
    >>> report = check(deck, format="tcg", date=datetime.date(2026, 11, 22))
    >>> report.verdict, [v.code for v in report.violations]

For many decks under one format use `Checker` (the format, list and rules are prepared once,
and each passcode is looked up in the card pool once for the whole run).
"""

from __future__ import annotations

import datetime as dt
import os
from typing import TYPE_CHECKING

from deckcheck.cards.model import Kind
from deckcheck.cards.names import normalize
from deckcheck.errors import BadDate
from deckcheck.rules import registry
from deckcheck.rules.context import CheckContext, Item, ListView, points_for, strictest_limit
from deckcheck.rules.violation import Report

if TYPE_CHECKING:
    from collections.abc import Iterable

    from deckcheck.cards.model import Card
    from deckcheck.cards.pool import CardPool
    from deckcheck.decks.model import Deck
    from deckcheck.formats.model import Banlist, Format


def check(deck: Deck, format: Format | str = "tcg", date: dt.date | str | None = None, *,
          pool: CardPool | None = None, banlist: Banlist | str | None = None,
          points_cap: int | None = None, select: Iterable[str] | None = None,
          ignore: Iterable[str] | None = None, strict: bool = False) -> Report:
    """Check one deck: every problem under `format`'s list in force on `date` (default today).

    `format` is a `Format` or a format id ("tcg", "ocg", "genesys"…); `banlist` overrides the
    format's list (a `Banlist`, or a list name, format id or list file); `pool` defaults to the
    imported card database (else the built-in set); `select` / `ignore` take rule codes,
    prefixes ("DC2") or names (a list, or one comma-separated string); `strict` makes warnings
    count as illegal. Raises `UnknownFormat`, `UnknownRule`, `BadDate` or `BadOption` for bad
    values, TypeError when `deck` is not a `Deck`.
    """
    from deckcheck.decks.model import Deck

    if not isinstance(deck, Deck):
        raise TypeError(f"check() takes a Deck, not {type(deck).__name__}; read a file first "
                        "with deckcheck.decks.io.read_deck(path, pool).")
    return Checker(format, date, pool=pool, banlist=banlist, points_cap=points_cap,
                   select=select, ignore=ignore, strict=strict).check(deck)


def resolve_format(format: Format | str | None) -> Format:
    if format is None:
        format = "tcg"
    if isinstance(format, str):
        from deckcheck.formats import load_format

        return load_format(format)
    if not hasattr(format, "banlist_at"):
        raise TypeError(f"format must be a format id such as 'tcg' or a Format, not "
                        f"{type(format).__name__}.")
    return format


def parse_date(date: dt.date | str | None) -> dt.date:
    if date is None:
        return dt.date.today()
    if isinstance(date, dt.date):
        return date
    try:
        return dt.date.fromisoformat(date)
    except (ValueError, TypeError):
        raise BadDate(f"\"{date}\" is not a date; write it as YYYY-MM-DD, e.g. 2026-05-18.")\
            from None


class Checker:
    """A format, list, date, card pool and rule selection, ready to check many decks."""

    def __init__(self, format: Format | str = "tcg", date: dt.date | str | None = None, *,
                 pool: CardPool | None = None, banlist: Banlist | str | None = None,
                 points_cap: int | None = None, select: Iterable[str] | None = None,
                 ignore: Iterable[str] | None = None, strict: bool = False) -> None:
        self.format = resolve_format(format)
        self.date = parse_date(date)
        if isinstance(select, str):
            select = select.split(",")
        if isinstance(ignore, str):
            ignore = ignore.split(",")
        self.rules = registry.selected(select, ignore)
        if points_cap is not None and points_cap < 0:
            from deckcheck.errors import BadOption

            raise BadOption(f"--points-cap must be 0 or more, not {points_cap}; give the "
                            "points a deck may have.")
        if pool is None:
            from deckcheck.cards.load import open_pool

            pool = open_pool(None)
        self.pool = pool
        if isinstance(banlist, (str, os.PathLike)):  # a list name, format id or file
            from deckcheck.formats.loader import find_banlist

            banlist = find_banlist(str(banlist), self.date, pool)
        self.banlist = banlist if banlist is not None else self.format.banlist_at(self.date)
        first = self.format.first_list() if self.banlist is None else None
        if first is not None:
            # A verdict of "legal" that skipped the list could cost a player a game loss:
            # refuse instead of guessing.
            from deckcheck.errors import NoListInForce

            raise NoListInForce(
                f"No {self.format.name} list in force on {self.date.isoformat()} is known to "
                f"deckcheck (the earliest it has is {first.name}, from "
                f"{first.effective.isoformat()}); run `deckcheck banlist update` to import the "
                "list history, or pass --banlist.")
        self.view = ListView.of(self.banlist)
        self.points_cap = points_cap if points_cap is not None else self.format.points_cap
        self.strict = strict
        #: written passcode -> Item fields (card, key, place, limit, points, unusual), looked up
        #: once per run.
        self._facts: dict[int, tuple[Card | None, str, str | None, int | None, int, bool]] = {}
        self.notices: list[str] = []
        if getattr(pool.info, "builtin", False):
            self.notices.append(
                "Checked against deckcheck's small built-in card set, so cards outside it are "
                "reported as unknown; run `deckcheck cards update` for the full card pool.")
        if self.banlist is None:
            self.notices.append(
                f"No {self.format.name} list was in force on {self.date.isoformat()}, so no "
                f"card limits were checked.")
        if banlist is None:  # the format's own list: say when it is stale or names no pool
            from deckcheck.formats.stale import list_notices

            self.notices += list_notices(self.format, self.banlist, self.date)
        self._uses_points = self.format.list_mode == "points" or bool(self.view.points)

    def _lookup(self, pc: int) -> tuple[Card | None, str, str | None, int | None, int, bool]:
        card = self.pool.get(pc)
        if card is None:
            return None, f"#{pc}", None, strictest_limit(self.view, (pc,)), 0, False
        own = card.all_passcodes
        codes = (pc, *own)
        key = normalize(card.rule_name) or card.rule_name
        unusual = bool(card.kind in (Kind.TOKEN, Kind.SKILL) or card.scopes or card.released
                       or pc not in own)
        return (card, key, card.deck, strictest_limit(self.view, codes),
                points_for(self.view, codes), unusual)

    def context(self, deck: Deck) -> CheckContext:
        """The rules' view of `deck`: each entry with its card, copy-limit key and list facts."""
        facts = self._facts
        preload = getattr(self.pool, "preload", None)  # the store: one query per deck
        if preload is not None:
            new = [e.passcode for s in ("main", "extra", "side") for e in getattr(deck, s)
                   if e.passcode is not None and e.passcode not in facts]
            if new:
                preload(new)
        items: list[Item] = []
        for section in ("main", "extra", "side"):
            for entry in getattr(deck, section):
                pc = entry.passcode
                if pc is None:
                    items.append(Item(section, entry, None, f"?{entry.written or ''}"))
                    continue
                f = facts.get(pc)
                if f is None:
                    f = facts[pc] = self._lookup(pc)
                items.append(Item(section, entry, *f))
        return CheckContext(deck=deck, format=self.format, banlist=self.banlist, date=self.date,
                            pool=self.pool, view=self.view, points_cap=self.points_cap,
                            items=items, notices=list(self.notices))

    def check(self, deck: Deck) -> Report:
        ctx = self.context(deck)
        violations = list(registry.run(self.rules, deck, ctx))
        bad = ("error", "warning") if self.strict else ("error",)
        illegal = any(v.severity in bad for v in violations)
        points = None
        if self._uses_points:
            points = sum(i.points * i.entry.count for i in ctx.items)
        return Report(
            deck=deck.source or deck.name or "<deck>",
            verdict="illegal" if illegal else "legal",
            format=self.format.id,
            format_name=self.format.name,
            banlist=self.banlist.name if self.banlist is not None else None,
            date=self.date.isoformat(),
            sizes={s: ctx.size(s) for s in ("main", "extra", "side")},
            points=points,
            cap=self.points_cap if self._uses_points else None,
            violations=violations,
            notices=ctx.notices,
        )
