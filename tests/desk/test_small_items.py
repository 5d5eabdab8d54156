"""Issue 20, point 7 (the desk's side): staff-only advice, the event's name in exports,
unknown cards kept in the deck view, times with their zone, notices once per event with the
players they concern, and the report written without forking from a server thread."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the desk extra is not installed (pip install "
                    "'deckcheck[desk]')")
from deskkit import CARDS, LEGAL, receipt_of, staff_login, submit  # noqa: E402

from deckcheck.cards.pool import MemoryPool, PoolInfo  # noqa: E402

ZONED = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (?:\S+ \()?UTC[+-]\d\d:\d\d\)?"


def new_client(make_settings: Callable[..., Any], **kw: Any) -> Any:
    from starlette.testclient import TestClient

    from deckcheck.desk.app import create_app

    return TestClient(create_app(make_settings(**kw)), follow_redirects=False)


def test_staff_advice_stays_on_staff_pages(make_settings: Callable[..., Any]) -> None:
    builtin = MemoryPool(CARDS, PoolInfo(builtin=True, card_count=len(CARDS)))
    with new_client(make_settings, pool=builtin) as c:
        sent = receipt_of(c, submit(c, deck=LEGAL))
        assert receipt_of(c, submit(c, player="Bob Example", player_id="0300000002",
                                    deck=LEGAL)).path
        # the notice every list gets here (this pool has no release dates) is for staff
        notice = "could not be checked"
        assert notice not in c.get(sent.path).text
        assert "`deckcheck" not in c.get(sent.path).text
        assert "`deckcheck" not in c.get("/").text
        staff_login(c)
        page = c.get("/staff").text
        notices = re.search(r'<div class="card" id="notices">(.*?)</div>', page, re.S)
        assert notices and notice in notices.group(1)
        assert notices.group(1).count(notice) == 1  # once, not per list
        assert "(every list)" in notices.group(1)


def test_notices_are_grouped_with_the_players_they_concern() -> None:
    from deckcheck.desk.staff.listing import Row, grouped_notices
    from deckcheck.desk.store import Registration, Submission

    def row(n: int, notices: tuple[str, ...]) -> Row:
        reg = Registration(n, f"Player {n}", None, "", None, "", False, 1)
        sub = Submission(n, n, "R", "", "upload", "", "{}", "{}", "legal", 0, None, False)
        return Row(reg, sub, 1, [], None, notices=notices)

    table = [row(1, ("set in use", "3 cards have no known TCG release date")),
             row(2, ("set in use",)),
             row(3, ("set in use", "3 cards have no known TCG release date"))]
    assert [(n, [r.reg.id for r in rs]) for n, rs in grouped_notices(table)] == [
        ("set in use", []), ("3 cards have no known TCG release date", [1, 3])]


def test_exports_carry_the_event_name(client: Any) -> None:
    receipt_of(client, submit(client, deck=LEGAL))
    staff_login(client)
    doc = json.loads(client.get("/staff/export.json").content)
    assert doc["event"] == "Regional Berlin"
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(client.get("/staff/export.xlsx").content))
    cells = [c.value for row in wb["Event"].iter_rows() for c in row]
    assert "Regional Berlin" in cells and None not in cells[:2]


def test_the_report_download_does_not_fork(client: Any, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    from deckcheck.event import report_xlsx

    real = report_xlsx.write_xlsx
    asked: list[int | None] = []

    def spy(event: Any, dest: Any, *, jobs: int | None = None) -> Any:
        asked.append(jobs)
        return real(event, dest, jobs=jobs)

    monkeypatch.setattr(report_xlsx, "write_xlsx", spy)
    receipt_of(client, submit(client, deck=LEGAL))
    staff_login(client)
    assert client.get("/staff/export.xlsx").status_code == 200
    assert asked == [1]  # one process: no worker forked from the server's thread


def test_unknown_cards_stay_in_the_deck_view(client: Any) -> None:
    text = "3 Ash Blosom & Joyous Spring\n" + "".join(f"1 Filler {i}\n" for i in range(37))
    sent = receipt_of(client, submit(client, paste=text))
    page = client.get(sent.path).text
    assert "Main Deck (40)" in page  # 37 known cards and the 3 misspelt ones
    assert re.search(r'<tr class="unknown bad"[^>]*><td class="n">3</td><td>Ash Blosom &amp; '
                     r'Joyous Spring <span class="tag">not a known card</span>', page)


def test_times_show_their_zone(make_settings: Callable[..., Any]) -> None:
    import datetime as dt

    deadline = dt.datetime(2026, 12, 5, 9, 30, tzinfo=dt.UTC)
    with new_client(make_settings, deadline=deadline) as c:
        form = c.get("/").text
        assert re.search(r"Submissions close at <strong>" + ZONED + "</strong>", form), form
        sent = receipt_of(c, submit(c, deck=LEGAL))
        assert re.search(r"<div>" + ZONED + "</div>", c.get(sent.path).text)


def test_the_exported_notices_name_the_players_they_concern(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    receipt_of(client, submit(client, deck=LEGAL))
    receipt_of(client, submit(client, player="Bob Example", player_id="0300000002",
                              paste="3 Ash Blossom & Joyous Spring\n" + "".join(
                                  f"1 Filler {i}\n" for i in range(37))))
    checker = client.app.state.desk.lib.checker
    real = checker.check

    def check(deck: Any) -> Any:  # a notice about some decks only (as release dates are)
        report = real(deck)
        if deck.source == "deck.ydk":  # Alice's upload; Bob pasted his
            report.notices.append("2 cards have no known TCG release date; not checked.")
        return report

    monkeypatch.setattr(checker, "check", check)
    staff_login(client)
    doc = json.loads(client.get("/staff/export.json").content)
    grouped = [n for n in doc["notices"] if "release date" in n.lower()]
    # a notice of every list once, without names; one of some lists with their players
    assert len(grouped) == 2 and "Alice" not in grouped[0]
    assert grouped[1] == ("2 cards have no known TCG release date; not checked. "
                          "(Alice Example)")
    # the note is Alice's row's too, and the list's notices no row's (a closure checks here);
    # this pool has no release dates: every deck's note, said once among the notices too
    every = "Release dates in the TCG are not known for this deck's cards in this card pool"
    notes = {p["player"]: p["notes"] for p in doc["players"]}
    assert notes["Bob Example"].startswith(every) and "\n" not in notes["Bob Example"]
    assert notes["Alice Example"] == (notes["Bob Example"] + "\n2 cards have no known TCG "
                                      "release date; not checked.")
    assert [n for n in doc["notices"] if n.startswith(every)] == [notes["Bob Example"]]
    assert doc["notices"][-1] == ("1 registration has notes on what could not be checked in "
                                  "the deck (see the Notes column).")


def test_a_deck_laid_out_for_people_is_no_card() -> None:
    """Issue 23: `desk.library.Card` (a line of a deck laid out for people) shared its name
    with `cards.model.Card`, the card itself."""
    from deckcheck.desk import library

    assert not hasattr(library, "Card")
    assert library.LayoutLine(2, "Pot of Greed", 55144522, "deck.ydk:3").count == 2
