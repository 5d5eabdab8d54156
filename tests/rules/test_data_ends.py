"""Past the day the card data ends, a problem resting on absence is an open point, not an
error: the deck "could not be fully checked" (exit 2), never "illegal" (issue 19, point 2)."""

from __future__ import annotations

import datetime as dt

from rulekit import ALL, FILLER, NEW, OCG_ONLY, PRERELEASE_ID, card, codes, deck, run, tcg

from deckcheck.cards.pool import MemoryPool, PoolInfo
from deckcheck.reports.model import Checked, CheckResult, Outcome

ENDS = dt.date(2026, 8, 22)
BEFORE, AFTER = dt.date(2026, 6, 1), dt.date(2026, 11, 22)


def _pool(*extra: object, **covers: dt.date) -> MemoryPool:
    info = PoolInfo(covers=covers or {"cards": ENDS, "md": ENDS, "tcg": ENDS, "ocg": ENDS})
    return MemoryPool([*ALL, *extra], info, extra_ids={PRERELEASE_ID: NEW.passcode})  # type: ignore[list-item]


def _exit(report: object) -> int:
    return CheckResult(format="tcg", outcomes=[Outcome(source="d", decks=[
        Checked(report=report)])]).exit_code  # type: ignore[arg-type]


def test_unknown_passcode_inside_the_data_is_an_error() -> None:
    r = run(deck([(101303089, 1)], fill=39), date=BEFORE, pool=_pool())
    assert codes(r) == ["DC401"] and r.verdict == "illegal" and _exit(r) == 1


def test_unknown_passcode_past_the_data_is_an_open_point() -> None:
    r = run(deck([(101303089, 1)], fill=39), date=AFTER, pool=_pool())
    assert codes(r) == [] and r.verdict == "unchecked" and _exit(r) == 2
    assert r.open_points == [
        "deck.ydk:41: Passcode 101303089 is not a card deckcheck's data knows, but a card "
        "printed since may have it: deckcheck's card list ends on 2026-08-22; run `deckcheck "
        "cards update` (or `deckcheck cards import FILE` with newer card data) to check it."]
    assert r.pool is not None and "cards update" in r.pool and "cards import FILE" in r.pool


def test_an_error_elsewhere_keeps_the_deck_illegal() -> None:
    r = run(deck([(101303089, 1)], fill=30), date=AFTER, pool=_pool())  # 31 cards: DC101
    assert codes(r) == ["DC101"] and r.verdict == "illegal" and r.open_points


def test_a_pool_without_recorded_ends_is_taken_as_complete() -> None:
    r = run(deck([(101303089, 1)], fill=39), date=AFTER)
    assert codes(r) == ["DC401"] and r.verdict == "illegal"


def test_ocg_only_card_past_the_data_is_an_open_point() -> None:
    r = run(deck([(OCG_ONLY, 1)], fill=39), date=AFTER, pool=_pool())
    assert codes(r) == [] and r.verdict == "unchecked"
    assert "Test OCG-only Monster was an OCG-only card when deckcheck's data ended" in \
        r.open_points[0]
    inside = run(deck([(OCG_ONLY, 1)], fill=39), date=BEFORE, pool=_pool())
    assert codes(inside) == ["DC403"]


MD = tcg(id="master-duel", name="Master Duel", region="md",
         excluded_scopes=["anime", "rush", "speed", "skill", "unofficial"])


def _md(*cards: object, **covers: dt.date) -> MemoryPool:
    fill = [card(c.passcode, c.name, c.frame, master_duel=True) for c in FILLER]
    info = PoolInfo(covers=covers or {"cards": ENDS, "md": ENDS})
    return MemoryPool([*fill, *cards], info)  # type: ignore[list-item]


def test_master_duel_absence_past_the_data_exits_2_naming_the_card() -> None:
    absent = card(99900005, "Test Paper-only Card", master_duel=False)
    r = run(deck([(absent, 1)], fill=39), MD, date=AFTER, pool=_md(absent))
    assert codes(r) == [] and r.verdict == "unchecked" and _exit(r) == 2
    assert r.open_points == [
        "deck.ydk:41: Test Paper-only Card is not in Master Duel's card pool as deckcheck's "
        "data shows it, and may have been added since: deckcheck's Master Duel card pool ends "
        "on 2026-08-22; run `deckcheck cards update` (or `deckcheck cards import FILE` with "
        "newer card data) to check it."]
    inside = run(deck([(absent, 1)], fill=39), MD, date=BEFORE, pool=_md(absent))
    assert codes(inside) == ["DC403"] and inside.verdict == "illegal"


def test_a_master_duel_list_naming_the_card_shows_it_in_the_game() -> None:
    from deckcheck.formats.model import Banlist, BanlistEntry

    absent = card(99900005, "Test Paper-only Card", master_duel=False)
    listed = Banlist(name="2026.01 MD", format="master-duel", effective=dt.date(2026, 1, 8),
                     entries=[BanlistEntry(passcode=absent.passcode, limit=1)])
    empty = Banlist(name="2025.01 MD", format="master-duel", effective=dt.date(2025, 1, 1))
    fmt = tcg(id="master-duel", name="Master Duel", region="md", history=[empty, listed],
              excluded_scopes=["anime", "rush", "speed", "skill", "unofficial"])
    r = run(deck([(absent, 1)], fill=39), fmt, date=BEFORE, pool=_md(absent))
    assert codes(r) == [] and r.verdict == "legal"
    before_list = run(deck([(absent, 1)], fill=39), fmt, date=dt.date(2025, 12, 1),
                      pool=_md(absent, cards=dt.date(2027, 1, 1), md=dt.date(2027, 1, 1)))
    assert "DC403" in codes(before_list)


def test_master_duel_set_days_are_never_not_before() -> None:
    """A card printed in 2022-05 and first seen in a 2023-10 Master Duel set was in the game
    by 2023-10, not "not before": no DC402 in a 2022-10 deck (Brute Enforcer)."""
    brute = card(63503850, "Brute Enforcer", master_duel=True,
                 released={"tcg": dt.date(2022, 5, 5)})
    from deckcheck.formats.model import Banlist

    fmt = tcg(id="master-duel", name="Master Duel", region="md",
              history=[Banlist(name="2022.01 MD", format="master-duel",
                               effective=dt.date(2022, 1, 19))],
              excluded_scopes=["anime", "rush", "speed", "skill", "unofficial"])
    r = run(deck([(brute, 1)], fill=39), fmt, date=dt.date(2022, 10, 11), pool=_md(brute))
    assert "DC402" not in codes(r)
    early = run(deck([(brute, 1)], fill=39), fmt, date=dt.date(2022, 3, 1), pool=_md(brute))
    assert "DC402" in codes(early)


def test_the_report_names_the_pool_only_when_cards_are_outside_it() -> None:
    from deckcheck.checker import DeckData, check_many

    result = check_many([DeckData.text("3 Ash Blosom & Joyous Spring\n", name="t.txt"),
                         DeckData.text("3 Ash Blossom & Joyous Spring\n", name="u.txt")],
                        tcg(), AFTER, pool=_pool())
    typo, known = result.reports
    assert typo.pool is not None and typo.pool.startswith("checked against the imported card")
    assert "`deckcheck cards import FILE`" in typo.pool
    assert known.pool is None
