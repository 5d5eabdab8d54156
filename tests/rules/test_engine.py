"""The engine: every problem at once, selection, the report's fields, the library API."""

from __future__ import annotations

import datetime as dt

import pytest
from rulekit import (
    ASH,
    DAY,
    DECODE,
    HARPIE,
    HARPIE1,
    NEW,
    POT,
    RAIGEKI,
    SHEEP,
    codes,
    deck,
    make_pool,
    run,
    tcg,
)

import deckcheck
from deckcheck.checker import Checker, check
from deckcheck.errors import BadDate, NoListInForce, UnknownRule
from deckcheck.formats.model import Banlist, BanlistEntry


def messy() -> object:
    return deck([(POT, 1), (RAIGEKI, 2), (HARPIE1, 3), (DECODE, 1), (SHEEP, 1), (777, 1)],
                extra=[(ASH, 1)], side=[(HARPIE, 1)], fill=30)


def test_all_problems_are_reported_at_once() -> None:
    r = run(messy())
    assert sorted(codes(r)) == ["DC101", "DC110", "DC111", "DC120", "DC201", "DC202", "DC203",
                                "DC401"]
    assert r.verdict == "illegal"
    assert r.sizes == {"main": 39, "extra": 1, "side": 1}


def test_problems_come_in_reading_order() -> None:
    """Deck-wide problems first, then by line, whatever order the rules ran in."""
    r = run(messy())
    assert r.violations[0].code == "DC101" and r.violations[0].place == "deck.ydk"
    lines = [v.location.line for v in r.violations[1:] if v.location is not None]
    assert len(lines) == len(r.violations) - 1
    assert lines == sorted(lines)
    assert codes(r) == ["DC101", "DC202", "DC203", "DC110", "DC120", "DC401", "DC111", "DC201"]


def test_each_violation_carries_its_rules_identity() -> None:
    from deckcheck.rules.registry import RULES

    r = run(messy())
    assert r.violations
    for v in r.violations:
        mod = RULES[v.code]
        assert (v.name, v.severity) == (mod.NAME, mod.SEVERITY)


@pytest.mark.parametrize("module", ["main_deck_size", "forbidden", "limited", "too_many_copies",
                                    "extra_monster_in_main", "unknown_card"])
def test_severity_comes_from_the_rule_module(module: str, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    """Setting a rule's SEVERITY changes its violations' severity (and so the verdict)."""
    import importlib

    mod = importlib.import_module(f"deckcheck.rules.{module}")
    before = [v for v in run(messy(), select=[mod.CODE]).violations]
    assert before and all(v.severity == "error" for v in before)
    monkeypatch.setattr(mod, "SEVERITY", "warning")
    after = run(messy(), select=[mod.CODE])
    assert [v.severity for v in after.violations] == ["warning"] * len(before)
    assert after.verdict == "legal"
    assert run(messy(), select=[mod.CODE], strict=True).verdict == "illegal"


def test_report_fields() -> None:
    r = run(deck())
    assert (r.deck, r.verdict, r.format, r.format_name, r.banlist, r.date) == (
        "deck.ydk", "legal", "tcg", "TCG Advanced", "2026.05 Test", "2026-11-22")
    assert r.violations == [] and r.legal


def test_select_and_ignore() -> None:
    assert sorted(codes(run(messy(), select=["DC2"]))) == ["DC201", "DC202", "DC203"]
    assert sorted(codes(run(messy(), select=["DC2"], ignore=["forbidden"]))) == ["DC201",
                                                                                  "DC203"]
    assert sorted(codes(run(messy(), ignore=["DC1", "DC4"]))) == ["DC201", "DC202", "DC203"]
    with pytest.raises(UnknownRule):
        run(messy(), select=["DC9"])


def test_ignored_errors_do_not_make_a_deck_illegal() -> None:
    assert run(deck([(POT, 1)]), ignore=["DC202"]).verdict == "legal"


def test_list_in_force_at_the_date() -> None:
    old = Banlist(name="Old", format="tcg", effective=dt.date(2020, 1, 1),
                  entries=[BanlistEntry(passcode=ASH.passcode, limit=0)])
    new = Banlist(name="New", format="tcg", effective=dt.date(2026, 1, 1), entries=[])
    fmt = tcg(history=[new, old])
    assert run(deck([(ASH, 1)]), fmt, date=dt.date(2025, 12, 31)).banlist == "Old"
    assert codes(run(deck([(ASH, 1)]), fmt, date=dt.date(2025, 12, 31))) == ["DC202"]
    assert codes(run(deck([(ASH, 1)]), fmt, date="2026-01-01")) == []
    # Before the first known list, no verdict: "legal" would be a guess.
    with pytest.raises(NoListInForce) as err:
        run(deck(), fmt, date=dt.date(2019, 1, 1))
    assert str(err.value) == (
        "No TCG Advanced list in force on 2019-01-01 is known to deckcheck (the earliest it has "
        "is Old, from 2020-01-01); check the date, or pass --banlist to check against a list "
        "of your choice.")
    # A format that has no lists at all is checked without one, and says so.
    listless = run(deck(), tcg(history=[]), date=dt.date(2019, 1, 1))
    assert listless.banlist is None and listless.verdict == "legal"
    assert any("No TCG Advanced list was in force on 2019-01-01" in n for n in listless.notices)


def test_banlist_argument_overrides_the_format_list() -> None:
    other = Banlist(name="Mine", format="tcg", effective=DAY,
                    entries=[BanlistEntry(passcode=ASH.passcode, limit=0)])
    r = run(deck([(ASH, 1), (POT, 1)]), banlist=other)
    assert r.banlist == "Mine" and codes(r) == ["DC202"] and r.violations[0].card == ASH.name


def test_bad_date_is_a_one_sentence_error() -> None:
    with pytest.raises(BadDate, match="YYYY-MM-DD"):
        run(deck(), date="22/11/2026")


def test_checker_checks_many_decks_with_one_setup() -> None:
    c = Checker(tcg(), DAY, pool=make_pool())
    reports = [c.check(deck()), c.check(deck([(POT, 1)])), c.check(deck())]
    assert [r.verdict for r in reports] == ["legal", "illegal", "legal"]


def test_top_level_check_is_the_validator() -> None:
    assert deckcheck.check is check
    r = deckcheck.check(deck(), format=tcg(), date=DAY, pool=make_pool())
    assert r.verdict == "legal"


def test_format_by_id_uses_the_shipped_formats() -> None:
    r = check(deck(), "tcg", DAY, pool=make_pool())
    assert r.format == "tcg" and r.banlist == "2026.05 TCG"


def test_rules_left_out_of_a_run_would_find_nothing() -> None:
    """A `Checker` leaves out the rules that `registry.APPLIES` says cannot find anything
    under its format, list and cap; run anyway, on a deck breaking many rules, they find
    nothing."""
    from deckcheck.rules.registry import APPLIES, RULES

    left_out_somewhere = set()
    for fmt in (tcg(), tcg(skills="required-one"), tcg(excluded_scopes=[])):
        checker = Checker(fmt, DAY, pool=make_pool())
        left_out = [mod for code, mod in RULES.items() if code not in dict(checker._active.rules)]
        assert left_out  # e.g. the points cap and limit groups in this test format
        d = messy()
        ctx = checker.context(d)
        for mod in left_out:
            assert list(mod.check(d, ctx)) == [], mod.CODE
            left_out_somewhere.add(mod.CODE)
    assert left_out_somewhere == set(APPLIES)


def test_a_checker_imports_no_rule_before_it_runs() -> None:
    """Choosing the rules of a format imports none of them (`APPLIES` and `GATES` live in
    the registry): a rule module is imported when a deck first gives it something to look at,
    and a clean deck in the format's bounds gives the size and release rules nothing."""
    import subprocess
    import sys

    script = (
        "import sys, datetime as dt\n"
        "from deckcheck.checker import Checker\n"
        "from deckcheck.cards.pool import MemoryPool\n"
        "from deckcheck.decks.model import Deck\n"
        "checker = Checker('tcg', dt.date(2026, 6, 1), pool=MemoryPool([]))\n"
        "before = {m for m in sys.modules if m.startswith('deckcheck.rules.')}\n"
        "checker.check(Deck(name='empty'))\n"
        "after = {m for m in sys.modules if m.startswith('deckcheck.rules.')}\n"
        "print(sorted(before)); print(sorted(after - before))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == str(["deckcheck.rules.context", "deckcheck.rules.registry",
                          "deckcheck.rules.violation"])
    ran = eval(out[1])  # noqa: S307 - our own printed list
    assert "deckcheck.rules.main_deck_size" in ran  # 0 cards: too few
    assert "deckcheck.rules.not_yet_released" not in ran  # no card to date
    assert "deckcheck.rules.skill_required" not in ran  # TCG uses no Skill Cards


def test_a_rule_whose_gate_is_closed_would_find_nothing() -> None:
    """The engine neither imports nor calls a rule whose gate (`registry.GATES`: what the
    deck must hold for it to find anything) is closed; run anyway, such rules find nothing,
    on decks that break many rules and on decks that break none."""
    from rulekit import FILLER

    from deckcheck.rules.registry import GATES, RULES

    clean = deck([], fill=40)
    closed_somewhere = set()
    for fmt in (tcg(), tcg(skills="required-one"), tcg(region="md")):
        checker = Checker(fmt, DAY, pool=make_pool())
        for d in (messy(), clean, deck([(POT, 1)], fill=39), deck([(SHEEP, 1)], fill=39),
                  deck([], extra=[(ASH, 1)], fill=40), deck([(FILLER[0], 3)], fill=39),
                  deck([(NEW, 1)], fill=0)):  # every card dated and out (DC402)
            ctx = checker.context(d)
            for code, gate in GATES.items():
                if not gate(d, ctx):
                    closed_somewhere.add(code)
                    assert list(RULES[code].check(d, ctx)) == [], code
    assert closed_somewhere == set(GATES)


def test_the_engine_sets_every_field_of_a_violation() -> None:
    """`registry.run` builds each `Violation` from its fields by position (`stamp`): a
    `Violation` is the stamped fields, then a `Found`'s, so a field added to one class and
    not the other fails here."""
    from deckcheck.rules.violation import STAMPED, Found, Violation

    assert tuple(Violation.model_fields) == STAMPED + tuple(Found.model_fields)
    for v in run(messy()).violations:
        built = Violation(**{f: getattr(v, f) for f in Violation.model_fields})
        assert v == built and type(v.suggestions) is list


def test_what_a_rule_found_is_built_by_position_as_by_keyword() -> None:
    """`context.make` builds a `Found` from its fields by position (one C call): the same
    value as the keyword constructor, for a finding at an entry and for a deck-wide one."""
    from deckcheck.decks.model import Entry, Location
    from deckcheck.rules.context import Item, make
    from deckcheck.rules.violation import Found

    loc = Location(source="d.ydk", line=3)
    at = Item("side", Entry(passcode=55144522, written="55144522", count=2, location=loc),
              None, "#55144522")
    assert make("Too many.", at, count=2, limit=1, points=3, cap=9,
                suggestions=["Pot of Greed"]) == Found(
        message="Too many.", card="55144522", passcode=55144522, section="side",
        location=loc, count=2, limit=1, points=3, cap=9, suggestions=("Pot of Greed",))
    assert make("Small.", section="main", location=loc, with_card=False) == Found(
        message="Small.", section="main", location=loc)
    assert make("Other.", at, card="Harpie Lady", passcode=None).card == "Harpie Lady"
    assert type(make("x").suggestions) is tuple and make("x") == Found(message="x")
