from __future__ import annotations

import datetime as dt

from deckcheck.formats.diff import diff, render
from deckcheck.formats.model import Banlist, BanlistEntry, LimitGroup


def bl(name: str, day: int, entries: list[tuple[int, str, int]], **kw) -> Banlist:
    return Banlist(name=name, format="tcg", effective=dt.date(2026, day, 1),
                   entries=[BanlistEntry(passcode=p, name=n, limit=lim) for p, n, lim in entries],
                   **kw)


OLD = bl("Old", 2, [(1, "Alpha", 0), (2, "Beta", 1), (3, "Gamma", 2), (4, "Delta", 0)])
NEW = bl("New", 5, [(1, "Alpha", 1), (2, "Beta", 1), (3, "Gamma", 0), (5, "Epsilon", 0)])


def test_moves_new_and_removed() -> None:
    d = diff(OLD, NEW)
    assert [(c.name, c.old, c.new) for c in d.moved] == [("Alpha", "Forbidden", "Limited"),
                                                         ("Gamma", "Semi-Limited", "Forbidden")]
    assert [(c.name, c.old, c.new) for c in d.added] == [("Epsilon", "Unlimited", "Forbidden")]
    assert [(c.name, c.old, c.new) for c in d.removed] == [("Delta", "Forbidden", "Unlimited")]
    assert d.count == 4


def test_render() -> None:
    assert render(diff(OLD, NEW)) == (
        "Old (2026-02-01) → New (2026-05-01)\n"
        "Forbidden → Limited: 1\n  Alpha (1)\n"
        "Semi-Limited → Forbidden: 1\n  Gamma (3)\n"
        "New, Forbidden: 1\n  Epsilon (5)\n"
        "Removed, was Forbidden, now Unlimited: 1\n  Delta (4)\n"
        "4 changes.\n")
    assert render(diff(OLD, OLD)).endswith("No changes.\n")


def test_groups_and_points_are_statuses() -> None:
    a = bl("A", 1, [(1, "One", 1)], groups=[LimitGroup(name="Limited 1", max=1,
                                                        passcodes=frozenset({1}))])
    b = bl("B", 2, [(1, "One", 2)], groups=[LimitGroup(name="Limited 2", max=2,
                                                        passcodes=frozenset({1}))])
    assert [(c.old, c.new) for c in diff(a, b).moved] == [("Limited 1", "Limited 2")]
    p = Banlist(name="P", format="genesys", effective=dt.date(2026, 3, 1),
                entries=[BanlistEntry(passcode=1, name="One", points=20)])
    q = Banlist(name="Q", format="genesys", effective=dt.date(2026, 6, 8),
                entries=[BanlistEntry(passcode=1, name="One", points=33),
                         BanlistEntry(passcode=2, name="Two", points=1)])
    d = diff(p, q)
    assert [(c.old, c.new) for c in d.moved] == [("20 points", "33 points")]
    assert [(c.old, c.new) for c in d.added] == [("0 points", "1 point")]


def test_render_orders_point_values_by_number() -> None:
    p = Banlist(name="P", format="genesys", effective=dt.date(2026, 3, 1), entries=[])
    q = Banlist(name="Q", format="genesys", effective=dt.date(2026, 6, 8),
                entries=[BanlistEntry(passcode=1, name="Ten", points=10),
                         BanlistEntry(passcode=2, name="Two", points=2),
                         BanlistEntry(passcode=3, name="Gone", limit=0)])
    heads = [ln for ln in render(diff(p, q)).splitlines() if ln.startswith("New, ")]
    assert heads == ["New, Forbidden: 1", "New, 2 points: 1", "New, 10 points: 1"]
