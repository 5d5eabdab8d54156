"""The player's pages through Starlette's TestClient: submit, see every problem, fix, resubmit."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the desk extra is not installed (pip install "
                    "'deckcheck[desk]')")
from deskkit import (  # noqa: E402
    ILLEGAL,
    LEGAL,
    LEGAL_MAIN,
    Clock,
    csrf,
    form_value,
    receipt_of,
    staff_login,
    submit,
    ydk,
)

from deckcheck.desk.store import Store  # noqa: E402


def test_form_page_has_every_field(client: Any) -> None:
    page = client.get("/")
    assert page.status_code == 200
    for field in ('name="player"', 'name="player_id"', 'name="deck"', 'name="paste"',
                  'name="csrf"', 'name="nonce"', 'enctype="multipart/form-data"'):
        assert field in page.text
    assert "desk_csrf" in page.headers["set-cookie"]
    assert "SameSite=strict" in page.headers["set-cookie"]


def test_illegal_deck_shows_every_problem_with_place_and_fix(client: Any) -> None:
    code = receipt_of(client, submit(client, deck=ILLEGAL))
    page = client.get(code.path)
    assert page.status_code == 200
    assert 'id="verdict">Not legal' in page.text
    row = re.search(r'<tr class="problem">(.*?)</tr>', page.text, re.S)
    assert row
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>",
                                                                   row.group(1), re.S)]
    # code, card, count / limit, where in the file, the message, how to fix
    assert cells[0] == "DC202"
    assert cells[1] == "Pot of Greed"
    assert cells[2] == "1 / 0"
    assert cells[3] == "deck.ydk:42"  # line 42 of the uploaded file: the Pot of Greed line
    assert "Pot of Greed" in cells[4]
    assert cells[5] == "Take every copy of Pot of Greed out of the deck."
    assert "Main Deck (40)" in page.text and "Extra Deck (1)" in page.text
    assert "Side Deck (0)" in page.text
    # the card with the problem is marked in the deck as laid out, and only that one
    assert re.findall(r'<tr class="bad"[^>]*><td class="n">(\d+)</td><td>([^<]+)</td>',
                      page.text) == [("1", "Pot of Greed")]
    assert code.receipt in page.text


def test_fix_and_resubmit_with_the_receipt(client: Any, make_settings: Callable[..., Any]
                                           ) -> None:
    first = receipt_of(client, submit(client, deck=ILLEGAL))
    second = receipt_of(client, submit(client, deck=LEGAL, receipt=first.receipt))
    page = client.get(second.path)
    assert 'id="verdict">Legal' in page.text
    assert "This list counts for the event" in page.text
    old = client.get(first.path)
    assert 'id="not-registered">Not registered' in old.text
    assert "An illegal list is never registered" in old.text
    store = Store(make_settings().store)
    assert [s.verdict for s in store.all_submissions()] == ["illegal", "legal"]
    assert len(store.registrations()) == 1


def test_replacing_a_list_needs_its_receipt(client: Any) -> None:
    receipt_of(client, submit(client, deck=ILLEGAL))
    r = submit(client, deck=LEGAL)  # same name and id, no receipt: could be anyone
    assert r.status_code == 409
    assert "enter the receipt code of your last submission" in r.text
    r = submit(client, deck=LEGAL, receipt="AAAA-AAAA")
    assert r.status_code == 409
    # the mistyped code comes back in a field the player can correct
    assert re.search(r'<input type="text" id="receipt-code" name="receipt"[^>]*value="AAAA-AAAA"',
                     r.text)


def test_pasted_ydke_and_text_lists(client: Any) -> None:
    import base64
    import struct

    def b64(pcs: list[int]) -> str:
        return base64.b64encode(struct.pack(f"<{len(pcs)}I", *pcs)).decode()

    url = f"ydke://{b64(LEGAL_MAIN)}!{b64([1861629])}!!"
    code = receipt_of(client, submit(client, paste=url))
    assert 'id="verdict">Legal' in client.get(code.path).text
    text = "3 Ash Blossom & Joyous Spring\n" + "".join(
        f"1 Filler {i}\n" for i in range(36)) + "1 Pot of Greed\nExtra Deck\n1 Decode Talker\n"
    code = receipt_of(client, submit(client, player="Bob Example", player_id="0300000002",
                                     paste=text))
    page = client.get(code.path)
    assert "DC202" in page.text
    assert "pasted list:38" in page.text  # the line of Pot of Greed in what was pasted
    assert "1 Pot of Greed" in page.text  # the pasted list is offered again to fix


def test_pasted_omega_code_and_a_japanese_list(client: Any) -> None:
    from deckcheck.decks.omega import to_omega
    from deckcheck.decks.ydk import read_ydk

    code = receipt_of(client, submit(client, paste=to_omega(read_ydk(ILLEGAL))))
    page = client.get(code.path).text
    assert "DC202" in page and "Main Deck (40)" in page and "Extra Deck (1)" in page
    text = "灰流うらら ×3\n" + "".join(f"Filler {i}\n" for i in range(37)) + \
        "エクストラデッキ\n1 Decode Talker\n"
    code = receipt_of(client, submit(client, player="Bob Example", player_id="0300000002",
                                     paste=text))
    page = client.get(code.path).text
    assert 'id="verdict">Legal' in page
    assert '<td class="n">3</td><td>Ash Blossom &amp; Joyous Spring</td>' in page


def test_the_same_form_sent_twice_is_stored_once(client: Any,
                                                 make_settings: Callable[..., Any]) -> None:
    token = csrf(client)
    a = receipt_of(client, submit(client, deck=LEGAL, nonce="n" * 20, token=token))
    b = receipt_of(client, submit(client, deck=LEGAL, nonce="n" * 20, token=token))
    assert a == b
    assert Store(make_settings().store).count_submissions() == 1


def test_a_form_without_its_csrf_token_is_refused(client: Any,
                                                  make_settings: Callable[..., Any]) -> None:
    client.get("/")
    r = submit(client, deck=LEGAL, token="forged-token-from-another-site")
    assert r.status_code == 403
    assert "reload the page and send it again" in r.text
    assert Store(make_settings().store).count_submissions() == 0


def test_submissions_are_rate_limited_per_client(make_settings: Callable[..., Any]) -> None:
    from starlette.testclient import TestClient

    from deckcheck.desk.app import create_app

    with TestClient(create_app(make_settings(submit_limit=2)), follow_redirects=False) as c:
        first = receipt_of(c, submit(c, deck=ILLEGAL))
        receipt_of(c, submit(c, deck=LEGAL, receipt=first.receipt))
        r = submit(c, deck=LEGAL, receipt=first.receipt)
        assert r.status_code == 429
        assert "Too many submissions from this device" in r.text
        assert r.headers["retry-after"] == "60"


def test_deadline_closes_and_staff_may_reopen_one(client: Any, clock: Clock,
                                                  make_settings: Callable[..., Any]) -> None:
    first = receipt_of(client, submit(client, deck=ILLEGAL))
    staff_login(client)
    token = csrf(client, "/staff")
    r = client.post("/staff/settings", data={"csrf": token, "version": "1",
                                             "deadline": "2026-12-05T09:00+00:00"})
    assert r.status_code == 303
    clock.now = dt.datetime(2026, 12, 5, 9, 0, 1, tzinfo=dt.UTC)
    assert "Submissions closed at" in client.get("/").text
    r = submit(client, deck=LEGAL, receipt=first.receipt)
    assert r.status_code == 403
    assert "Submissions closed at" in r.text
    r = submit(client, player="Late Comer", player_id="0300000009", deck=LEGAL)
    assert r.status_code == 403
    # staff reopen Alice's registration: her late list is taken and counts
    r = client.post("/staff/p/1/update", data={"csrf": token, "version": "1",
                                               "action": "reopen"})
    assert r.status_code == 303
    late = receipt_of(client, submit(client, deck=LEGAL, receipt=first.receipt))
    assert "This list counts" in client.get(late.path).text
    subs = Store(make_settings().store).all_submissions()
    assert [s.late for s in subs] == [False, True]


def test_the_last_submission_before_the_deadline_counts(make_settings: Callable[..., Any],
                                                        clock: Clock) -> None:
    from starlette.testclient import TestClient

    from deckcheck.desk.app import create_app

    deadline = dt.datetime(2026, 12, 5, 9, 0, tzinfo=dt.UTC)
    with TestClient(create_app(make_settings(deadline=deadline)), follow_redirects=False) as c:
        first = receipt_of(c, submit(c, deck=LEGAL))
        staff_login(c)
        # a staff member moves the deadline earlier than Alice's list: no list counts
        page = c.get("/staff").text
        r = c.post("/staff/settings", data={
            "csrf": form_value(page, "csrf"), "version": form_value(page, "version"),
            "deadline": "2026-12-05T07:00+00:00"})
        assert r.status_code == 303
        assert "no registered list" in c.get("/staff").text
        assert "a later one replaced it" not in c.get(first.path).text


def test_a_restart_keeps_every_accepted_submission(make_settings: Callable[..., Any]) -> None:
    from starlette.testclient import TestClient

    from deckcheck.desk.app import create_app

    with TestClient(create_app(make_settings()), follow_redirects=False) as c:
        code = receipt_of(c, submit(c, deck=ILLEGAL))
    with TestClient(create_app(make_settings()), follow_redirects=False) as c:
        page = c.get(code.path)  # another browser: the verdict only
        assert page.status_code == 200
        assert 'id="verdict">Not legal' in page.text and "DC202" not in page.text
        page = c.post(code.path, data={"csrf": csrf(c, code.path), "receipt": code.receipt,
                                       "player_id": "0301234567"})
        assert page.status_code == 200
        assert "DC202" in page.text


def test_an_xlsx_registration_sheet_is_read(client: Any) -> None:
    from deckcheck.decks.files import dump_deck, read_deck
    from deckcheck.desk.library import Library

    lib = Library(client.app.state.desk.lib.format, pool=client.app.state.desk.lib.pool)
    deck = lib.read_upload(ILLEGAL, "deck.ydk")
    data = dump_deck(deck, "xlsx", lib.pool, player="Alice Example")
    assert read_deck  # the reader the desk uses through its adapter
    code = receipt_of(client, submit(client, deck=data, filename="registration.xlsx"))
    page = client.get(code.path)
    assert "DC202" in page.text
    assert re.search(r"registration\.xlsx:[^<]*![A-Z]+\d+", page.text)  # sheet!cell


def test_unknown_receipt_is_404_with_a_sentence(client: Any) -> None:
    r = client.get("/r/ZZZZZZZZZZZZZZZZ")
    assert r.status_code == 404
    assert "No submission has this receipt page" in r.text


@pytest.mark.parametrize(("player_id", "sentence"), [
    ("", "Write your CARD GAME ID"),
    ("abc", "is a number"),
    ("12", "is a number"),
])
def test_bad_card_game_id(client: Any, player_id: str, sentence: str) -> None:
    r = submit(client, deck=LEGAL, player_id=player_id)
    assert r.status_code == 400
    assert sentence in r.text
    assert 'value="Alice Example"' in r.text  # the form keeps what was typed


def test_no_deck_given(client: Any) -> None:
    r = submit(client)
    assert r.status_code == 400
    assert "Add your deck" in r.text


def test_a_file_with_no_cards(client: Any) -> None:
    r = submit(client, deck=ydk([]), filename="empty.ydk")
    assert r.status_code == 422
