from __future__ import annotations

import datetime as dt

from rulekit import NEW, codes, deck, only, run, tcg


def test_released_card_passes() -> None:
    assert codes(run(deck([(NEW, 1)]), date=dt.date(2026, 8, 1))) == []


def test_card_checked_before_its_release_date_fails() -> None:
    v = only(run(deck([(NEW, 1)]), date=dt.date(2026, 7, 31)), "DC402")
    assert v.message == ("Test New Card is not released in the TCG until 2026-08-01 (checked as "
                         "of 2026-07-31).")


def test_region_decides() -> None:
    ocg = tcg(id="ocg", name="OCG", region="ocg")
    assert codes(run(deck([(NEW, 1)]), ocg, date=dt.date(2026, 7, 31))) == []


def test_no_dates_known_gives_a_notice_not_a_violation() -> None:
    r = run(deck())
    assert "DC402" not in codes(r)
    assert any("could not be checked" in n for n in r.notices)
    assert not any("could not be checked" in n for n in run(deck([(NEW, 1)])).notices)
