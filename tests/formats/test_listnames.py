from __future__ import annotations

import datetime as dt

import pytest

from deckcheck.formats.listnames import classify
from deckcheck.formats.loader import all_formats

OFFICIAL = {"tcg": [dt.date(2026, 5, 18), dt.date(2024, 12, 6), dt.date(2024, 12, 9)],
            "ocg": [dt.date(2026, 4, 1)]}


@pytest.mark.parametrize("name,fid,day", [
    ("2026.05 TCG", "tcg", dt.date(2026, 5, 18)),       # official day of that month
    ("2024.12 TCG", "tcg", dt.date(2024, 12, 6)),       # the first of two
    ("2026.05 Traditional", "traditional", dt.date(2026, 5, 18)),
    ("2024.01 TRADITIONAL", "traditional", dt.date(2024, 1, 1)),
    ("2023.7 OCG", "ocg", dt.date(2023, 7, 1)),
    ("2020.01 World's", "worlds", dt.date(2020, 1, 1)),
    ("2026.04 Worlds", "worlds", dt.date(2026, 4, 1)),
    ("2025.05.09 Master Duel", "master-duel", dt.date(2025, 5, 9)),
    ("2026.06.08 Genesys", "genesys", dt.date(2026, 6, 8)),
    ("2005.4 GOAT (server)", "goat", dt.date(2005, 4, 1)),
    ("2025.07 Speed Duel", "speed", dt.date(2025, 7, 1)),
    ("Edison", "edison", dt.date(2010, 3, 1)),
    ("2010-04-24 Edison", "edison", dt.date(2010, 3, 1)),
    ("Untitled Banlist", "worlds", dt.date(2024, 1, 1)),
    ("2014.04 HAT", "hat", dt.date(2014, 4, 1)),
    ("2020.04 OCG-Korea", "ocg-korea", dt.date(2020, 4, 1)),
    ("2020.04 OCG Korea", "ocg-korea", dt.date(2020, 4, 1)),
    ("My own list", "my-own-list", None),
])
def test_classify(name: str, fid: str, day: dt.date | None) -> None:
    got = classify(name, all_formats(), OFFICIAL)
    assert (got.format, got.effective) == (fid, day)
