"""`check_registrations`: one row per registration, problems, duplicates, counts, exit code."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from deckcheck.decks.diff import deck_hash
from deckcheck.event.models import PlayerRow, Registration
from deckcheck.event.run import CachingPool, check_registrations, finish, flag_duplicates


def _event(kit: SimpleNamespace, pool: Any) -> list[Registration]:
    legal = kit.make_deck(kit.LEGAL_MAIN, kit.LEGAL_EXTRA, kit.LEGAL_SIDE, source="a/alice.ydk")
    pot = kit.make_deck([*kit.LEGAL_MAIN, (kit.POT_OF_GREED, 1)], source="a/bob.ydk")
    short = kit.make_deck([(kit.POT_OF_GREED, 2), (kit.ASH, 3)], source="a/carol.ydk")
    # Dave registered Alice's deck, with an alternate artwork of Ash Blossom
    alt_main = [(kit.ASH_ALT if pc == kit.ASH else pc, n) for pc, n in kit.LEGAL_MAIN]
    copy = kit.make_deck(alt_main, kit.LEGAL_EXTRA, kit.LEGAL_SIDE, source="a/dave.ydk")
    return [
        Registration(source="a/alice.ydk", player="Alice", player_id="0301234567", deck=legal),
        Registration(source="a/bob.ydk", player="Bob", player_id="0300000002", deck=pot),
        Registration(source="a/broken.ydk", player="broken", error="a/broken.ydk holds no deck."),
        Registration(source="a/carol.ydk", player="Carol", deck=short),
        Registration(source="reg.csv:5", player="Dave", player_id="301234567", deck=copy),
        Registration(source="reg.csv:6", player="  bob ", player_id=None,
                     deck=kit.make_deck([(kit.ASH, 1)] * 40, source="reg.csv:6")),
    ]


def test_rows_problems_and_counts(kit: SimpleNamespace, pool: Any) -> None:
    calls: list[str] = []

    def checker(deck: Any) -> Any:
        calls.append(deck.source)
        return kit.fake_check(deck)

    progress: list[tuple[str, int, int]] = []
    ev = check_registrations(_event(kit, pool), checker, pool,
                             progress=lambda *a: progress.append(a))
    assert calls == ["a/alice.ydk", "a/bob.ydk", "a/carol.ydk", "a/dave.ydk", "reg.csv:6"]
    assert progress == [("check", i, 6) for i in range(1, 7)]
    assert [(r.number, r.player, r.verdict, r.main, r.extra, r.side, r.problem_count)
            for r in ev.players] == [
        (1, "Alice", "legal", 40, 3, 2, 0),
        (2, "Bob", "illegal", 41, 0, 0, 1),
        (3, "broken", "unreadable", None, None, None, 0),
        (4, "Carol", "illegal", 5, 0, 0, 2),
        (5, "Dave", "legal", 40, 3, 2, 0),
        (6, "  bob ", "legal", 40, 0, 0, 0),
    ]
    assert ev.players[2].problems == ev.players[2].error == "a/broken.ydk holds no deck."
    assert ev.players[3].problems == (
        "DC101: The Main Deck has 5 cards; it needs 40 to 60.\n"
        "DC201: Pot of Greed is Forbidden (2 in the main deck). (a/carol.ydk:1)")
    assert [(p.number, p.player, p.code, p.card, p.count, p.limit, p.location)
            for p in ev.problems] == [
        (2, "Bob", "DC201", "Pot of Greed", 1, 0, "a/bob.ydk:16"),
        (4, "Carol", "DC101", None, 5, 40, None),
        (4, "Carol", "DC201", "Pot of Greed", 2, 0, "a/carol.ydk:1"),
    ]
    assert (ev.total, ev.legal, ev.illegal, ev.unreadable) == (6, 3, 2, 1)
    assert ev.banlist == "test list" and ev.date == "2026-12-05"
    assert ev.exit_code == 2


def test_duplicates_by_id_name_and_deck(kit: SimpleNamespace, pool: Any) -> None:
    ev = check_registrations(_event(kit, pool), kit.fake_check, pool)
    dup = {r.number: r.duplicate for r in ev.players}
    assert dup == {
        # 0301234567 and 301234567 are the same Konami id; Dave's alt-art deck is Alice's
        1: "same player id as #5 Dave; same deck as #5 Dave",
        2: "same player name as #6   bob ",
        3: None,
        4: None,
        5: "same player id as #1 Alice; same deck as #1 Alice",
        6: "same player name as #2 Bob",
    }
    assert ev.duplicates == 4
    assert ev.players[0].deck_hash == ev.players[4].deck_hash == deck_hash(
        _event(kit, pool)[0].deck, pool)  # type: ignore[arg-type]
    assert ev.players[2].deck_hash is None


def test_same_name_different_ids_is_not_a_duplicate(kit: SimpleNamespace, pool: Any) -> None:
    deck = kit.make_deck(kit.LEGAL_MAIN)
    other = kit.make_deck([(kit.ASH, 1)] * 40)
    regs = [Registration(source="1", player="Sam Lee", player_id="1", deck=deck),
            Registration(source="2", player="Sam Lee", player_id="2", deck=other)]
    ev = check_registrations(regs, kit.fake_check, pool)
    assert [r.duplicate for r in ev.players] == [None, None]
    assert ev.exit_code == 0


def test_a_checker_failure_is_one_unreadable_row(kit: SimpleNamespace, pool: Any) -> None:
    def checker(deck: Any) -> Any:
        if deck.source == "b":
            raise ValueError("boom")
        return kit.fake_check(deck)

    regs = [Registration(source=s, deck=kit.make_deck(kit.LEGAL_MAIN, source=s)) for s in "abc"]
    ev = check_registrations(regs, checker, pool)
    assert [r.verdict for r in ev.players] == ["legal", "unreadable", "legal"]
    assert ev.players[1].error == "b could not be checked (ValueError: boom)."


def test_a_batch_gives_the_rows_of_its_registrations_one_by_one(kit: SimpleNamespace,
                                                                 pool: Any) -> None:
    """`check_batch` (hash all, check all, then the rows) gives each registration's
    `check_one` row, a failure or an unreadable list among them included."""
    from deckcheck.event.models import EventReport
    from deckcheck.event.run import CachingPool, check_batch, check_one

    def checker(deck: Any) -> Any:
        if deck.source == "b":
            raise ValueError("boom")
        return kit.fake_check(deck)

    regs = [Registration(source=s, player=s.upper(), deck=kit.make_deck(
        kit.LEGAL_MAIN if s != "c" else [(kit.POT_OF_GREED, 1), *kit.LEGAL_MAIN[1:]],
        source=s)) for s in "abcd"]
    regs.insert(2, Registration(source="x", error="x holds no deck."))
    cached = CachingPool(pool)
    rows = check_batch(regs, checker, cached, EventReport(format="tcg"))
    assert rows == [check_one(r, checker, CachingPool(pool), EventReport(format="tcg"))
                    for r in regs]
    assert [r[3] for r in rows] == ["legal", "unreadable", "unreadable", "illegal", "legal"]
    assert rows[1][10] == "b could not be checked (ValueError: boom)."
    assert rows[1][9] is not None and rows[2][9] is None  # hashed / nothing to hash


def test_caching_pool_asks_once(pool: Any, kit: SimpleNamespace) -> None:
    asked: list[int] = []

    class Counting:
        info = pool.info

        def get(self, pc: int) -> Any:
            asked.append(pc)
            return pool.get(pc)

    cached = CachingPool(Counting())
    assert cached.get(kit.ASH_ALT).passcode == kit.ASH
    assert cached.get(kit.ASH_ALT).passcode == kit.ASH
    assert cached.get(1) is None and cached.get(1) is None
    assert asked == [kit.ASH_ALT, 1]


def test_many_duplicates_name_three_and_count_the_rest() -> None:
    rows = [PlayerRow(number=n, player=f"P{n}", player_id="0300000001", source=f"{n}.ydk",
                      verdict="legal") for n in range(1, 6)]
    rows.append(PlayerRow(number=6, player="Other", player_id="0300000002", source="6.ydk",
                          verdict="legal"))
    flag_duplicates(rows)
    assert rows[0].duplicate == "same player id as #2 P2, #3 P3, #4 P4 and 1 more"
    assert rows[4].duplicate == "same player id as #1 P1, #2 P2, #3 P3 and 1 more"
    assert rows[5].duplicate is None


def test_check_event_takes_the_check_options(kit: SimpleNamespace, pool: Any, tmp_path: Any,
                                             monkeypatch: Any) -> None:
    """One call does the whole event: date as text, a list name, strict; a warning (here the
    size rule turned into one) is legal unless strict."""
    from deckcheck.decks.ydk import write_ydk
    from deckcheck.event.run import check_event

    # the test's "legal" main minus the cards the real 2026.05 TCG list limits: 34 cards
    main = [(pc, n) for pc, n in kit.LEGAL_MAIN
            if pc not in (kit.MAXX_C, 24224830)]  # Maxx "C", Called by the Grave
    short = kit.make_deck(main, source="short.ydk")
    (tmp_path / "short.ydk").write_text(write_ydk(short), encoding="utf-8")
    monkeypatch.setattr("deckcheck.rules.main_deck_size.SEVERITY", "warning")
    kw: dict[str, Any] = dict(format="tcg", date="2026-12-05", banlist="tcg")
    lenient = check_event([tmp_path / "short.ydk"], pool, **kw)
    strict = check_event([tmp_path / "short.ydk"], pool, strict=True, **kw)
    assert [r.verdict for r in lenient.players] == ["legal"]
    assert [r.verdict for r in strict.players] == ["illegal"]
    assert strict.players[0].problems == ("DC101: The Main Deck has 34 cards; TCG Advanced "
                                          f"allows 40 to 60. ({tmp_path / 'short.ydk'})")
    assert (strict.date, strict.exit_code) == ("2026-12-05", 1)


def test_check_event_takes_inputs_found_already(kit: SimpleNamespace, pool: Any,
                                                 tmp_path: Any) -> None:
    """A front end that walked the folders (to refuse overwriting a registration) passes
    the `Entries` it found: the same report as from the folders; the sentence for an empty
    folder still names the folder."""
    import pytest

    from deckcheck.decks.ydk import write_ydk
    from deckcheck.errors import DeckReadError
    from deckcheck.event import inputs
    from deckcheck.event.run import check_event

    folder = tmp_path / "regs"
    folder.mkdir()
    for name in ("Bob.ydk", "Alice.ydk"):
        (folder / name).write_text(write_ydk(kit.make_deck(kit.LEGAL_MAIN)), encoding="utf-8")
    (folder / "README").write_text("hi", encoding="utf-8")
    entries = inputs.expand_items([folder])
    assert list(entries.paths()) == [str(folder / "Alice.ydk"), str(folder / "Bob.ydk")]
    assert entries.sources == [folder]
    kw: dict[str, Any] = dict(format="tcg", date="2026-12-05")
    walked = check_event([folder], pool, **kw)
    given = check_event(entries, pool, **kw)
    assert [(r.player, r.verdict, r.problems) for r in given.players] == \
        [(r.player, r.verdict, r.problems) for r in walked.players]
    assert [r.player for r in given.players] == ["Alice", "Bob"]
    assert given.skipped == walked.skipped and len(given.skipped) == 1
    (tmp_path / "empty").mkdir()
    with pytest.raises(DeckReadError, match=r"^.*empty: no deck file found"):
        check_event(inputs.expand_items([tmp_path / "empty"]), pool, **kw)


def test_a_registration_is_an_outcome_like_any_input(kit: SimpleNamespace) -> None:
    """The event shares `check`'s per-input result: a report, or a read/check error apart."""
    from deckcheck.event.run import check_registration

    deck = kit.make_deck(kit.LEGAL_MAIN, source="a.ydk")
    ok = check_registration(Registration(source="a.ydk", deck=deck), kit.fake_check)
    assert ok.error is None and [r.verdict for r in ok.reports] == ["legal"]
    gone = check_registration(Registration(source="b.ydk", error="b.ydk holds no deck."),
                              kit.fake_check)
    assert (gone.error, gone.reports) == ("b.ydk holds no deck.", [])

    def boom(d: Any) -> Any:
        raise ValueError("bad state")

    crashed = check_registration(Registration(source="c.ydk", deck=deck), boom)
    assert crashed.error == "c.ydk could not be checked (ValueError: bad state)."


def test_an_event_with_a_list_that_could_not_be_fully_checked_exits_2() -> None:
    from deckcheck.event.columns import player_values
    from deckcheck.event.models import EventReport, PlayerRow

    row = PlayerRow(number=1, source="md.ydk", verdict="unchecked")
    event = finish(EventReport(format="master-duel", players=[row]))
    assert event.exit_code == 2
    assert "could not be fully checked" in player_values(row)


def test_event_check_never_imports_pydantic(tmp_path: Any, kit: SimpleNamespace) -> None:
    """`deckcheck event check` hashes every deck; the hash lived beside the diff's pydantic
    models, and importing them was ~0.1 s of the command's start (issue 24). Nor does the
    workbook's XML escaping import urllib, http and ssl (`xml.sax.saxutils`: ~30 ms). Run
    as a user runs it, in a fresh process, with the xlsx and JSON reports."""
    import os
    import subprocess
    import sys

    from deckcheck.decks.ydk import write_ydk

    folder = tmp_path / "event"
    folder.mkdir()
    for name in ("Amy 0301.ydk", "Ben 0302.ydk"):
        (folder / name).write_text(write_ydk(kit.make_deck(kit.LEGAL_MAIN)), encoding="utf-8")
    script = ("import sys\nfrom deckcheck.cli.main import main\nsys.argv = ['deckcheck', "
              f"'event', 'check', {str(folder)!r}, '--date', '2026-06-01', '--json', '-o', "
              f"{str(tmp_path / 'r.xlsx')!r}]\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
              "print('pydantic' in sys.modules, 'urllib.request' in sys.modules, "
              "'ssl' in sys.modules, file=sys.stderr)")
    env = {**os.environ, "HOME": str(tmp_path), "DECKCHECK_DB": str(tmp_path / "none.db")}
    err = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, check=True).stderr
    assert err.strip().splitlines()[-1] == "False False False", err
    assert (tmp_path / "r.xlsx").is_file()


def test_caching_pool_leaves_the_fork_to_the_pool(pool: Any, kit: SimpleNamespace) -> None:
    """`before_fork`, `reopen` and a batch's look-ups are the pool's own methods, whatever its
    class; a pool without them (in memory) has nothing to do."""
    calls: list[object] = []

    class Forking:
        info = pool.info

        def get(self, pc: int) -> Any:
            return pool.get(pc)

        def preload(self, passcodes: list[int]) -> None:
            calls.append(sorted(passcodes))

        def before_fork(self) -> None:
            calls.append("before_fork")

        def reopen(self) -> None:
            calls.append("reopen")

    cached = CachingPool(Forking())
    cached.before_fork()
    cached.preload([kit.ASH, kit.ASH, 1])
    cached.preload([kit.ASH])  # known already: not asked again
    cached.reopen()
    assert calls == ["before_fork", sorted([kit.ASH, 1]), "reopen"]
    assert cached.get(kit.ASH).passcode == kit.ASH
    bare = CachingPool(type("Bare", (), {"info": pool.info, "get": lambda s, pc: None})())
    bare.before_fork()
    bare.preload([1])
    bare.reopen()  # nothing to do, no error


def test_a_note_every_deck_has_is_said_once_among_the_events_notices(
        kit: SimpleNamespace, pool: Any) -> None:
    """A card pool with no release dates gives every deck the same note: it stays in each
    row, and the event says it once, as a notice (not "5 registrations have notes")."""
    every = "Release dates in the TCG are not known for this deck's cards in this card pool."

    def noting(extra: dict[str, str]) -> Any:
        def check(deck: Any) -> Any:
            report = kit.fake_check(deck)
            report.notices = [every, *([extra[deck.source]] if deck.source in extra else [])]
            return report
        return check

    alone = check_registrations(_event(kit, pool), noting({}), pool)
    assert alone.notices == [every]
    assert [r.notes for r in alone.players] == [every, every, None, every, every, every]
    bob = "2 cards have no known TCG release date; not checked."
    more = check_registrations(_event(kit, pool), noting({"a/bob.ydk": bob}), pool)
    assert more.notices == [every, "1 registration has notes on what could not be checked "
                            "in the deck (see the Notes column)."]
    assert more.players[1].notes == f"{every}\n{bob}"
    one = check_registrations(_event(kit, pool)[:1], noting({}), pool)
    assert one.notices == ["1 registration has notes on what could not be checked in the "
                           "deck (see the Notes column)."]


def test_notes_every_deck_has_are_found_whatever_their_order_or_repeats(
        kit: SimpleNamespace, pool: Any) -> None:
    """Two notes every deck has, written in either order; a deck whose note is written twice
    does not make it every deck's; only the decks with more are counted."""
    a, b, c = "Note A.", "Note B.", "Note C."
    notes = {"a/alice.ydk": [a, b], "a/bob.ydk": [b, a], "a/carol.ydk": [a, b, c],
             "a/dave.ydk": [b, a], "reg.csv:6": [a, b, c, c]}

    def check(deck: Any) -> Any:
        report = kit.fake_check(deck)
        report.notices = list(notes[deck.source])
        return report

    event = check_registrations(_event(kit, pool), check, pool)
    assert event.notices == [a, b, "2 registrations have notes on what could not be checked "
                             "in the deck (see the Notes column)."]
    notes["a/bob.ydk"] = [c, c, c, c]  # C four times, in one deck: not every deck's
    event = check_registrations(_event(kit, pool), check, pool)
    assert event.notices == ["5 registrations have notes on what could not be checked in the "
                             "deck (see the Notes column)."]


def test_a_run_learns_its_cards_before_its_first_deck_is_checked(
        kit: SimpleNamespace, pool: Any, monkeypatch: Any) -> None:
    """`check_run` looks up every card of its decks, and the checker's facts of them, before
    checking any: no deck's check stops at a card not met yet to start again, and the rows
    are those of a checker that met its cards deck by deck."""
    from deckcheck.checker import Checker
    from deckcheck.event.models import EventReport
    from deckcheck.event.run import check_batch, check_run, make_checker

    decks = {"a.ydk": kit.make_deck(kit.LEGAL_MAIN, kit.LEGAL_EXTRA, kit.LEGAL_SIDE),
             "b.ydk": kit.make_deck([*kit.LEGAL_MAIN, (kit.POT_OF_GREED, 1), (kit.MAXX_C, 1)]),
             "c.ydk": kit.make_deck([(kit.ASH_ALT, 3), (1, 1)])}
    regs = [Registration(source=s, player=s, deck=d) for s, d in decks.items()]
    fresh = CachingPool(pool)
    expected = check_batch(regs, make_checker(fresh, date="2026-06-01"), fresh,
                           EventReport(format="tcg"))

    cached = CachingPool(pool)
    checker = make_checker(cached, date="2026-06-01")

    def refuse(self: Any, deck: Any) -> Any:
        raise AssertionError(f"{deck.source} met a card its run had not learnt")

    monkeypatch.setattr("deckcheck.event.run.read_entry",
                        lambda entry, pool, event: [r for r in regs if r.source == entry])
    monkeypatch.setattr(Checker, "_looked_up", refuse)
    rows = check_run(list(decks), cached, checker, EventReport(format="tcg"))  # type: ignore[arg-type]
    assert rows == expected
    assert "unreadable" not in [r[3] for r in rows]  # every deck checked
    assert "DC202" in rows[1][8]  # Pot of Greed is Forbidden
