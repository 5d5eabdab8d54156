"""The one clock: what day and what time it is, for every part of deckcheck.

Everything that needs "today" (the list in force, the default `--date`) or "now" (the desk's
times, when a card store was built) asks here, so a test or an embedding program sets the
clock in one place (`clock.today = ...`). Call through the module (`clock.today()`), not a
name imported from it, so that such a change is seen everywhere.
"""

from __future__ import annotations

import datetime as dt


def today() -> dt.date:
    """Today's date on this computer (local time)."""
    return dt.date.today()


def now_utc() -> dt.datetime:
    """The current time, timezone-aware, in UTC."""
    return dt.datetime.now(dt.UTC)
