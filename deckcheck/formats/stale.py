"""Whether the lists deckcheck has for a format may be out of date on a given day.

Konami publishes a new list every few months; a format file says how many days usually pass
between two (`cycle_days`). A check dated further past the newest list deckcheck has than
that may be missing a list that is in force: the report says so, naming the newest list.
Formats frozen on one list (GOAT, Edison) have no cycle and never go stale. A whitelist
format checked under a list that names no card pool says so too (`pool_notice`).
"""

from __future__ import annotations

import datetime as dt

from deckcheck.formats.model import Banlist, Format


def stale_notice(fmt: Format, date: dt.date) -> str | None:
    """The notice for a check of `fmt` on `date`, or None when its lists are recent enough."""
    if fmt.cycle_days is None:
        return None
    days = fmt.list_dates()
    if not days or (date - days[-1]).days <= fmt.cycle_days:
        return None
    newest = fmt.newest_list()
    name = newest.name if newest is not None else days[-1].isoformat()
    gap = (date - days[-1]).days
    return (f"The newest {fmt.name} list deckcheck has is {name} (in force from "
            f"{days[-1].isoformat()}), {gap} days before {date.isoformat()}, more than the "
            f"usual {fmt.cycle_days} days between lists: a newer list may be in force; run "
            "`deckcheck banlist update` to fetch it.")


def pool_notice(fmt: Format, banlist: Banlist | None) -> str | None:
    """A whitelist format (its card pool is its list) checked under a list that names no
    pool (a Forbidden/Limited list imported from Konami's ids): say that the pool was not
    checked rather than let the check vanish."""
    if fmt.list_mode != "whitelist" or banlist is None or banlist.whitelist:
        return None
    return (f"{banlist.name} names only Forbidden/Limited cards, not {fmt.name}'s card pool, so "
            "cards outside the pool were not checked (DC205); give a whitelist list with "
            "--banlist to check them.")


def list_notices(fmt: Format, banlist: Banlist | None, date: dt.date) -> list[str]:
    """Every notice about the format's own list in force on `date` (stale, partial)."""
    return [n for n in (stale_notice(fmt, date), pool_notice(fmt, banlist)) if n]
