"""Issue 20, points 1 and 2: one registered list per registration (the last legal one), the
"checked at the desk" mark belongs to one list, and only the player replaces the list."""

from __future__ import annotations

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
    csrf,
    form_value,
    receipt_of,
    staff_login,
    submit,
    ydk,
)

from deckcheck.desk.store import Store  # noqa: E402

#: Another legal list: one filler swapped for another.
LEGAL_2 = ydk(LEGAL_MAIN[:-1] + [90000039], [1861629])


def new_client(make_settings: Callable[..., Any], **kw: Any) -> Any:
    from starlette.testclient import TestClient

    from deckcheck.desk.app import create_app

    return TestClient(create_app(make_settings(**kw)), follow_redirects=False)


def mark_checked(client: Any, reg_id: int = 1, judge: str = "Judge Jo") -> None:
    page = client.get(f"/staff/p/{reg_id}").text
    r = client.post(f"/staff/p/{reg_id}/update", data={
        "csrf": form_value(page, "csrf"), "version": form_value(page, "version"),
        "submission": form_value(page, "submission"), "judge": judge, "action": "checked"})
    assert r.status_code == 303, r.text


def test_an_illegal_list_never_replaces_a_legal_one(client: Any) -> None:
    legal = receipt_of(client, submit(client, deck=LEGAL))
    bad = receipt_of(client, submit(client, deck=ILLEGAL, receipt=legal.receipt))
    page = client.get(bad.path).text
    assert 'id="not-registered">Not registered' in page
    assert "still the legal one" in page
    assert "DC202" in page  # every problem is shown all the same
    assert "This list counts for the event" in client.get(legal.path).text
    staff_login(client)
    assert re.search(r'id="counting-receipt">' + legal.receipt, client.get("/staff/p/1").text)
    row = client.get("/staff").text
    assert "last list illegal, not registered" in row
    import json

    doc = json.loads(client.get("/staff/export.json").content)
    assert [p["verdict"] for p in doc["players"]] == ["legal"]


def test_an_illegal_first_list_registers_nothing(client: Any) -> None:
    bad = receipt_of(client, submit(client, deck=ILLEGAL))
    assert "No list is registered yet" in client.get(bad.path).text
    staff_login(client)
    assert "no registered list" in client.get("/staff").text


def test_an_event_may_accept_illegal_lists(make_settings: Callable[..., Any]) -> None:
    with new_client(make_settings, accept_illegal=True) as c:
        legal = receipt_of(c, submit(c, deck=LEGAL))
        bad = receipt_of(c, submit(c, deck=ILLEGAL, receipt=legal.receipt))
        page = c.get(bad.path).text
        assert "Registered" in page and "This event accepts illegal lists" in page
        staff_login(c)
        assert 'id="accept-illegal"' in c.get("/staff").text
        assert re.search(r'id="counting-receipt">' + bad.receipt, c.get("/staff/p/1").text)


def test_the_checked_mark_belongs_to_one_list(client: Any) -> None:
    first = receipt_of(client, submit(client, deck=LEGAL))
    staff_login(client)
    mark_checked(client)
    page = client.get("/staff/p/1").text
    assert 'id="checked">Checked at the desk' in page and "by Judge Jo" in page
    # an illegal list after it: the checked, legal list is still the registered one
    receipt_of(client, submit(client, deck=ILLEGAL, receipt=first.receipt))
    page = client.get("/staff/p/1").text
    assert 'id="checked">Checked at the desk' in page
    assert re.search(r'id="counting-receipt">' + first.receipt, page)
    # a new legal list replaces it: the mark does not carry over, history keeps it
    receipt_of(client, submit(client, deck=LEGAL_2, receipt=first.receipt))
    page = client.get("/staff/p/1").text
    assert 'id="checked"' not in page
    assert "is no longer the registered one" in page
    assert re.search(r"Judge Jo · <strong>checked at the desk</strong> the list "
                     + first.receipt, page)
    assert page.count("checked-mark") == 1  # beside the first list only
    listing = client.get("/staff").text
    assert "an earlier list was checked" in listing and "✔" not in listing


def test_a_stale_page_cannot_check_a_newer_list(client: Any) -> None:
    first = receipt_of(client, submit(client, deck=LEGAL))
    staff_login(client)
    page = client.get("/staff/p/1").text  # the judge looks at the first list ...
    receipt_of(client, submit(client, deck=LEGAL_2, receipt=first.receipt))  # ... it changes
    r = client.post("/staff/p/1/update", data={
        "csrf": form_value(page, "csrf"), "version": form_value(page, "version"),
        "submission": form_value(page, "submission"), "action": "checked"})
    assert r.status_code == 409
    assert 'id="checked"' not in client.get("/staff/p/1").text


def test_deck_checks_are_kept_with_the_registration(client: Any) -> None:
    receipt_of(client, submit(client, deck=LEGAL))
    staff_login(client)
    token = form_value(client.get("/staff/p/1").text, "csrf")
    r = client.post("/staff/p/1/compare", data={"csrf": token, "judge": "Judge Kim"},
                    files={"deck": ("shown.ydk", ILLEGAL, "application/octet-stream")})
    assert r.status_code == 200
    page = client.get("/staff/p/1").text  # later, on another visit
    assert "Judge Kim · deck check against" in page and "<strong>differs</strong>" in page
    assert "Main: Pot of Greed 0 \u2192 1 (+1)" in page


def test_staff_edit_name_and_id_kept_in_history(client: Any) -> None:
    receipt_of(client, submit(client, deck=LEGAL))
    staff_login(client)
    page = client.get("/staff/p/1").text
    r = client.post("/staff/p/1/update", data={
        "csrf": form_value(page, "csrf"), "version": form_value(page, "version"),
        "action": "rename", "player": "Alice Exampel", "player_id": "0301234568"})
    assert r.status_code == 303
    page = client.get("/staff/p/1").text
    assert 'id="reg-player">Alice Exampel' in page and 'id="reg-id">0301234568' in page
    assert "Alice Example 0301234567 \u2192 Alice Exampel 0301234568" in page


def test_an_imported_player_gets_a_card_game_id(client: Any) -> None:
    staff_login(client)
    token = form_value(client.get("/staff").text, "csrf")
    r = client.post("/staff/import", data={"csrf": token},
                    files=[("files", ("Carol Example.ydk", LEGAL, "text/plain"))])
    assert r.status_code == 303
    page = client.get("/staff/p/1").text
    assert '<details class="noprint" id="edit-player" open>' in page  # no id yet: open
    r = client.post("/staff/p/1/update", data={
        "csrf": form_value(page, "csrf"), "version": form_value(page, "version"),
        "action": "rename", "player": "Carol Example", "player_id": "0300000003"})
    assert r.status_code == 303
    assert 'id="reg-id">0300000003' in client.get("/staff/p/1").text


# --- point 2: only the player replaces the player's list ------------------------------------

def test_the_receipt_address_alone_shows_the_verdict_only(
        client: Any, make_settings: Callable[..., Any]) -> None:
    sent = receipt_of(client, submit(client, deck=ILLEGAL))
    with new_client(make_settings) as other:  # a fresh browser, no cookies
        page = other.get(sent.path).text
    assert 'id="verdict">Not legal' in page
    for private in ("Alice", "0301234567", sent.receipt, "Pot of Greed", "Ash Blossom",
                    'action="/submit"', "deck.ydk"):
        assert private not in page, private


def test_the_receipt_page_cannot_replace_a_list(
        client: Any, make_settings: Callable[..., Any]) -> None:
    sent = receipt_of(client, submit(client, deck=LEGAL))
    with new_client(make_settings) as other:
        token = csrf(other, sent.path)
        # the name and id are known (they are on the sheet on the wall); no code: refused
        r = submit(other, deck=ILLEGAL, token=token)
        assert r.status_code == 409
        r = other.post(sent.path, data={"csrf": token, "receipt": "AAAA-AAAA",
                                        "player_id": "0301234567"})
        assert r.status_code == 403 and "Alice" not in r.text
    assert Store(make_settings().store).count_submissions() == 1
    # the player, with the code and id typed, sees it all in any browser
    with new_client(make_settings) as again:
        r = again.post(sent.path, data={"csrf": csrf(again, sent.path),
                                        "receipt": sent.receipt.lower().replace("-", ""),
                                        "player_id": "0301234567"})
        assert r.status_code == 200 and "Alice Example" in r.text and sent.receipt in r.text


def test_the_own_page_asks_for_the_code_to_replace(client: Any) -> None:
    sent = receipt_of(client, submit(client, deck=LEGAL))
    page = client.get(sent.path).text
    assert sent.receipt in page  # shown to its browser, to keep
    assert f'value="{sent.receipt}"' not in page  # but not filled into the form


def test_a_form_token_from_another_browser_is_another_form(
        client: Any, make_settings: Callable[..., Any]) -> None:
    page = client.get("/").text
    nonce = form_value(page, "nonce")
    alice = receipt_of(client, submit(client, deck=LEGAL, nonce=nonce))
    with new_client(make_settings) as other:
        r = submit(other, player="Mallory Example", player_id="0300000066", deck=LEGAL,
                   nonce=nonce)
        assert r.status_code == 303
        assert r.headers["location"] != alice.path
        mine = other.get(r.headers["location"]).text
        assert "Alice" not in mine and alice.receipt not in mine
    assert Store(make_settings().store).count_submissions() == 2
    # the same browser sending its form twice is still stored once
    assert receipt_of(client, submit(client, deck=LEGAL, nonce=nonce)) == alice


def test_a_file_with_no_card_is_kept_without_its_bytes(
        client: Any, make_settings: Callable[..., Any]) -> None:
    data = b"#main\n" + b"1" * (8 * 2**20)
    r = submit(client, deck=data, filename="digits.ydk")
    assert r.status_code == 303
    store = Store(make_settings().store)
    (sub,) = store.all_submissions()
    assert sub.verdict == "illegal"
    assert store.raw(sub.id) == b""
    assert make_settings().store.stat().st_size < 2**20
