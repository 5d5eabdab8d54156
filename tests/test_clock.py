"""`deckcheck.clock`: the one "today" and "now" (issue 23: one fact, one place)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

import deckcheck
from deckcheck import clock


def test_every_today_and_now_comes_from_the_clock() -> None:
    """No module but `clock` asks the system for the day or the time."""
    pattern = re.compile(r"date\.today\(\)|datetime\.now\(|datetime\.utcnow\(")
    package = Path(deckcheck.__file__).parent
    found = [f"{p.relative_to(package)}:{n}" for p in sorted(package.rglob("*.py"))
             if p.name != "clock.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert found == []


def test_the_default_date_is_the_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.checker import parse_date
    from deckcheck.formats.loader import load_format

    monkeypatch.setattr(clock, "today", lambda: dt.date(2005, 4, 1))
    assert parse_date(None) == dt.date(2005, 4, 1)
    listed = load_format("tcg").banlist_at()
    assert listed is not None and listed.name == "2005.04 TCG"  # the list in force from that day


def test_now_is_aware_utc() -> None:
    assert clock.now_utc().tzinfo is dt.UTC
