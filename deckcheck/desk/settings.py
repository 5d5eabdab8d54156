"""The settings one desk runs with (the app factory's only argument)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.clock import now_utc

if TYPE_CHECKING:
    from deckcheck.desk.library import CardPool


def parse_deadline(text: str) -> dt.datetime:
    """`2026-12-05T09:30`, `2026-12-05 09:30` or with an offset (`…+01:00`); a time without
    an offset is the desk computer's local time. Raises ValueError with one sentence."""
    try:
        when = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"\"{text}\" is not a date and time; write it as YYYY-MM-DD HH:MM, "
                         "e.g. 2026-12-05 09:30.") from None
    if when.tzinfo is None:
        when = when.astimezone()  # local time of this computer
    return when.astimezone(dt.UTC)


@dataclass
class DeskSettings:
    """What one event's desk needs. `pool` and `format` may be objects (tests), else the
    imported card database (`db`) and a format id are used."""

    event: str
    store: Path
    format: Any = "tcg"
    date: dt.date | None = None
    deadline: dt.datetime | None = None
    #: The staff token; None = the one kept in the store (made on first start).
    token: str | None = None
    #: A staff password (optional; the token link always works).
    password: str | None = None
    db: str | None = None
    pool: CardPool | None = None
    #: Submissions per client address per minute (0 = no limit). A venue's players often
    #: share one address (the Wi-Fi's NAT): the default lets 200 of them register in the
    #: first minutes; `player_limit` is what stops one player (or script) resending.
    submit_limit: int = 300
    #: Submissions per player (name and CARD GAME ID) per minute (0 = no limit).
    player_limit: int = 6
    #: Failed staff logins (password or token link) per address before each further try
    #: must wait, twice as long after every failure.
    login_limit: int = 5
    #: Addresses of reverse proxies whose X-Forwarded-For header is believed; from any other
    #: address the header is ignored (anyone can send one).
    trusted_proxies: tuple[str, ...] = ()
    #: Accept illegal lists as registered (events that penalise at the table); by default
    #: an illegal list is kept and shown but never replaces a legal one.
    accept_illegal: bool = False
    clock: Callable[[], dt.datetime] = field(default=now_utc)
