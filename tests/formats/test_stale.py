"""A check dated well past the newest list says the list may be stale."""

from __future__ import annotations

import datetime as dt

from deckcheck.cards.builtin import builtin_pool
from deckcheck.checker import Checker
from deckcheck.decks.model import Deck
from deckcheck.formats import load_format
from deckcheck.formats.model import Banlist, Format
from deckcheck.formats.stale import stale_notice


def fmt(cycle: int | None) -> Format:
    return Format(id="tcg", name="TCG Advanced", cycle_days=cycle, history=[
        Banlist(name="2026.02 TCG", format="tcg", effective=dt.date(2026, 2, 2)),
        Banlist(name="2026.05 TCG", format="tcg", effective=dt.date(2026, 5, 18))])


def test_within_the_cycle_nothing_is_said() -> None:
    assert stale_notice(fmt(150), dt.date(2026, 10, 15)) is None  # 150 days after
    assert stale_notice(fmt(None), dt.date(2030, 1, 1)) is None  # a frozen format


def test_past_the_cycle_the_newest_list_is_named() -> None:
    assert stale_notice(fmt(150), dt.date(2026, 10, 16)) == (
        "The newest TCG Advanced list deckcheck has is 2026.05 TCG (in force from 2026-05-18), "
        "151 days before 2026-10-16, more than the usual 150 days between lists: a newer list "
        "may be in force; run `deckcheck banlist update` to fetch it.")


def test_the_report_carries_it_only_for_the_formats_own_list() -> None:
    deck = Deck(name="empty")
    late = Checker(fmt(150), dt.date(2027, 1, 1), pool=builtin_pool()).check(deck)
    assert any(n.startswith("The newest TCG Advanced list") for n in late.notices)
    soon = Checker(fmt(150), dt.date(2026, 6, 1), pool=builtin_pool()).check(deck)
    assert not any("newest" in n for n in soon.notices)
    chosen = Checker(fmt(150), dt.date(2027, 1, 1), pool=builtin_pool(),
                     banlist=fmt(150).history[0]).check(deck)
    assert not any("newest" in n for n in chosen.notices)


def test_shipped_formats_have_a_cycle_except_frozen_ones() -> None:
    for fid in ("tcg", "ocg", "traditional", "worlds", "master-duel", "genesys", "speed",
                "rush"):
        assert load_format(fid).cycle_days, fid
    assert load_format("goat").cycle_days is None and load_format("edison").cycle_days is None


def test_a_whitelist_format_under_a_list_without_a_pool_says_so() -> None:
    rush = Format(id="rush", name="Rush Duel", list_mode="whitelist", history=[
        Banlist(name="2026.07 Rush Duel", format="rush", effective=dt.date(2026, 7, 1))])
    report = Checker(rush, dt.date(2026, 7, 2), pool=builtin_pool()).check(Deck(name="d"))
    assert ("2026.07 Rush Duel names only Forbidden/Limited cards, not Rush Duel's card pool, "
            "so cards outside the pool were not checked (DC205); give a whitelist list with "
            "--banlist to check them.") in report.notices
    pooled = rush.model_copy(update={"history": [rush.history[0].model_copy(
        update={"whitelist": True})]})
    report = Checker(pooled, dt.date(2026, 7, 2), pool=builtin_pool()).check(Deck(name="d"))
    assert not any("names only Forbidden" in n for n in report.notices)
