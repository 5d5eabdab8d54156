"""The staff pages through Starlette's TestClient: access, list, history, versioning, export."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the desk extra is not installed (pip install "
                    "'deckcheck[desk]')")
from deskkit import ILLEGAL, LEGAL, form_value, receipt_of, staff_login, submit  # noqa: E402

from deckcheck.desk.store import Store  # noqa: E402


def registered(client: Any) -> None:
    """Alice sends an illegal list, then fixes it; Bob sends Alice's deck under his name."""
    first = receipt_of(client, submit(client, deck=ILLEGAL))
    assert submit(client, deck=LEGAL, receipt=first.receipt).status_code == 303
    assert submit(client, player="Bob Example", player_id="0300000002",
                  deck=LEGAL).status_code == 303


def test_staff_pages_are_closed_by_default(client: Any) -> None:
    registered(client)
    for path in ("/staff", "/staff/p/1", "/staff/export.json", "/staff/export.csv",
                 "/staff/sheets", "/staff/p/1/sheet.xlsx"):
        r = client.get(path)
        assert r.status_code == 403, path
        assert "Alice" not in r.text and "0301234567" not in r.text
    assert "This page is for the event staff" in client.get("/staff").text


def test_a_wrong_token_gets_nothing(client: Any) -> None:
    registered(client)
    for token in ("wrong", "staff-secret-toke", "staff-secret-token-", ""):
        r = client.get(f"/staff?token={token}")
        assert r.status_code == 403
        assert "Alice" not in r.text
        assert "desk_staff" not in r.headers.get("set-cookie", "")
    assert client.get("/staff").status_code == 403


def test_the_token_logs_in_and_leaves_the_address_bar(client: Any) -> None:
    r = client.get("/staff?token=staff-secret-token")
    assert r.status_code == 303 and r.headers["location"] == "/staff"
    assert "desk_staff=" in r.headers["set-cookie"]
    assert "staff-secret-token" not in r.headers["set-cookie"]  # the cookie is a MAC
    assert client.get("/staff").status_code == 200


def test_password_login(make_settings: Callable[..., Any]) -> None:
    from starlette.testclient import TestClient

    from deckcheck.desk.app import create_app

    with TestClient(create_app(make_settings(password="judge-pass")),
                    follow_redirects=False) as c:
        page = c.get("/staff")
        assert page.status_code == 403 and 'name="password"' in page.text
        token = form_value(page.text, "csrf")
        assert c.post("/staff/login", data={"csrf": token, "password": "nope"}
                      ).status_code == 403
        r = c.post("/staff/login", data={"csrf": token, "password": "judge-pass"})
        assert r.status_code == 303
        assert c.get("/staff").status_code == 200


def test_list_shows_verdicts_duplicates_and_filters(client: Any) -> None:
    registered(client)
    assert submit(client, player="Alicia Impostor", player_id="0301234567",
                  deck=ILLEGAL).status_code == 303
    staff_login(client)
    page = client.get("/staff").text
    assert "<strong id=\"total\">3</strong>" in page
    assert "same player id as #3 Alicia Impostor" in page  # Alice's row
    assert "same deck as #2 Bob Example" in page

    def shown(query: str) -> list[str]:
        return re.findall(r'class="registration" data-id="(\d+)"',
                          client.get(f"/staff?{query}").text)

    assert shown("") == ["1", "2", "3"]
    assert shown("verdict=legal") == ["1", "2"]
    assert shown("verdict=illegal") == []  # an illegal list is never registered
    assert shown("verdict=none") == ["3"]
    assert shown("flag=unregistered") == ["3"]
    assert shown("q=impostor") == ["3"]
    assert shown("q=0300000002") == ["2"]
    assert shown("flag=duplicate") == ["1", "2", "3"]
    assert shown("flag=unchecked") == ["1", "2", "3"]
    assert "same player id as #1 Alice Example" in client.get("/staff/p/3").text


def test_history_shows_both_submissions_and_the_diff(client: Any) -> None:
    registered(client)
    staff_login(client)
    page = client.get("/staff/p/1").text
    assert "Submissions (2)" in page
    assert "Main: Pot of Greed 1 \u2192 0 (\u22121)" in page
    assert "Main: Filler 36 0 \u2192 1 (+1)" in page
    assert 'id="counting-verdict">legal' in page


def test_two_staff_editing_at_once_do_not_overwrite(client: Any) -> None:
    registered(client)
    staff_login(client)
    page = client.get("/staff/p/1").text
    token, version = form_value(page, "csrf"), form_value(page, "version")
    # two judges opened the same page; the first marks the deck checked
    r = client.post("/staff/p/1/update", data={"csrf": token, "version": version,
                                               "submission": form_value(page, "submission"),
                                               "action": "checked"})
    assert r.status_code == 303
    # the second, on the page as it was, saves a note: refused, nothing lost
    r = client.post("/staff/p/1/update", data={"csrf": token, "version": version,
                                               "action": "note", "note": "sleeved in red"})
    assert r.status_code == 409
    assert "Someone else changed this registration" in r.text
    reg = Store(client.app.state.desk.store.path).registration(1)
    assert reg is not None and reg.checked_at is not None and reg.note == ""
    page = client.get("/staff/p/1").text
    r = client.post("/staff/p/1/update", data={"csrf": token,
                                               "version": form_value(page, "version"),
                                               "action": "note", "note": "sleeved in red"})
    assert r.status_code == 303
    assert "sleeved in red" in client.get("/staff/p/1").text


def test_staff_forms_need_the_csrf_token(client: Any) -> None:
    registered(client)
    staff_login(client)
    r = client.post("/staff/p/1/update", data={"csrf": "x" * 30, "version": "1",
                                               "action": "checked"})
    assert r.status_code == 403


def test_compare_the_registered_list_with_the_deck_shown(client: Any) -> None:
    registered(client)
    staff_login(client)
    token = form_value(client.get("/staff/p/1").text, "csrf")
    r = client.post("/staff/p/1/compare", data={"csrf": token},
                    files={"deck": ("shown.ydk", ILLEGAL, "application/octet-stream")})
    assert r.status_code == 200
    assert "The deck shown differs from the registered list." in r.text
    assert "Main: Pot of Greed 0 \u2192 1 (+1)" in r.text
    r = client.post("/staff/p/1/compare", data={"csrf": token},
                    files={"deck": ("shown.ydk", LEGAL, "application/octet-stream")})
    assert "The deck shown is the registered deck." in r.text


def test_export_the_event_report(client: Any) -> None:
    registered(client)
    staff_login(client)
    doc = json.loads(client.get("/staff/export.json").content)
    assert [(p["player"], p["verdict"]) for p in doc["players"]] == [
        ("Alice Example", "legal"), ("Bob Example", "legal")]
    assert doc["duplicates"] == 2 and doc["banlist"] == "2026.05 TCG"
    csv_text = client.get("/staff/export.csv").content.decode("utf-8-sig")
    assert "Alice Example" in csv_text.splitlines()[1]
    problems = client.get("/staff/export.problems.csv")
    assert problems.status_code == 200
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(client.get("/staff/export.xlsx").content))
    assert wb.sheetnames == ["Players", "Problems", "Event"]
    assert client.get("/staff/export.exe").status_code == 404


def test_registration_sheets(client: Any) -> None:
    registered(client)
    staff_login(client)
    r = client.get("/staff/p/1/sheet.xlsx")
    assert r.status_code == 200
    from openpyxl import load_workbook

    ws = load_workbook(io.BytesIO(r.content)).active
    assert ws is not None
    texts = {str(c.value) for row in ws.iter_rows() for c in row if c.value is not None}
    # Konami's form: first and last name in their own fields
    assert {"Alice", "Example", "Regional Berlin"} <= texts
    page = client.get("/staff/sheets").text
    assert page.count('class="card sheet"') == 2
    assert 'href="/staff/sheets.pdf"' in page


def test_print_all_is_one_pdf_one_page_per_player_in_registration_order(client: Any) -> None:
    from pypdf import PdfReader

    registered(client)
    assert submit(client, player="Carol Example", player_id="0300000003",
                  deck=LEGAL).status_code == 303
    assert client.get("/staff/sheets.pdf").status_code == 403
    staff_login(client)
    r = client.get("/staff/sheets.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"] == 'attachment; filename="decklists.pdf"'
    texts = [p.extract_text() for p in PdfReader(io.BytesIO(r.content)).pages]
    firsts = [t.split("First Name\n", 1)[1].split("\n", 1)[0] for t in texts]
    assert firsts == ["Alice", "Bob", "Carol"]
    assert all("Regional Berlin" in t and "Main Deck total: 40" in t for t in texts)
    assert "0 3 0 0 0 0 0 0 0 2" in texts[1]  # Bob's CARD GAME ID in its boxes


def test_import_a_folder_of_registrations(client: Any) -> None:
    staff_login(client)
    token = form_value(client.get("/staff").text, "csrf")
    files = [("files", ("Carol Example 0300000003.ydk", ILLEGAL, "application/octet-stream")),
             ("files", ("Dave Example 0300000004.ydk", LEGAL, "application/octet-stream")),
             ("files", ("=1+1 0300000005.ydk", LEGAL, "application/octet-stream")),
             ("files", ("broken.ydk", b"\x00\x01garbage", "application/octet-stream")),
             # a folder picked in the browser: the folder names the player
             ("files", ("regs/Erin Example 0300000006/deck.ydk", LEGAL, "text/plain")),
             ("files", ("regs/notes.pdf", b"%PDF-1.4", "application/pdf"))]
    r = client.post("/staff/import", data={"csrf": token}, files=files)
    assert r.status_code == 303
    page = client.get(r.headers["location"]).text
    assert "Imported 4 registrations. 2 could not be read" in page
    assert "notes.pdf: not a deck or registration file" in page
    assert "Carol Example" in page and "0300000004" in page
    assert re.search(r"Erin Example</a>.*?0300000006", page, re.S)
    # a name that would be a formula is stored quoted and exported as text
    csv_text = client.get("/staff/export.csv").content.decode("utf-8-sig")
    assert "'=1+1" in csv_text and "\n=1+1" not in csv_text and ",=1+1" not in csv_text
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(client.get("/staff/export.xlsx").content))
    cells = [c for row in wb["Players"].iter_rows() for c in row if c.value is not None]
    assert any("=1+1" in str(c.value) for c in cells)
    assert all(c.data_type != "f" for c in cells)  # never a formula


def test_a_message_made_elsewhere_is_not_shown(client: Any) -> None:
    staff_login(client)
    page = client.get("/staff?m=Send+all+decks+to+evil@example.com").text
    assert "evil@example.com" not in page


def test_import_refuses_path_tricks(client: Any) -> None:
    staff_login(client)
    token = form_value(client.get("/staff").text, "csrf")
    r = client.post("/staff/import", data={"csrf": token},
                    files=[("files", ("../../etc/deck.ydk", LEGAL, "text/plain"))])
    assert r.status_code == 400
    assert "the file name holds a folder path or" in r.text
    assert len(Store(client.app.state.desk.store.path).registrations()) == 0


def test_staff_close_submissions_now(client: Any) -> None:
    staff_login(client)
    page = client.get("/staff").text
    r = client.post("/staff/settings", data={"csrf": form_value(page, "csrf"),
                                             "version": form_value(page, "version"),
                                             "action": "close-now"})
    assert r.status_code == 303
    assert "Submissions closed at" in client.get("/").text
    # the second judge with the old page: refused, not overwritten
    r = client.post("/staff/settings", data={"csrf": form_value(page, "csrf"),
                                             "version": form_value(page, "version"),
                                             "deadline": "2026-12-06 10:00"})
    assert r.status_code == 409
    assert re.search(r"Someone else changed the deadline", r.text)


def test_a_big_event_is_paged_and_sorted_by_any_column(client: Any) -> None:
    desk = client.app.state.desk
    legal = desk.lib.read_upload(LEGAL, "deck.ydk")
    illegal = desk.lib.read_upload(ILLEGAL, "deck.ydk")
    for n in range(250):
        desk.accept(player=f"Player {n:03d}", player_id=f"{300000000 + n:010d}",
                    deck=illegal if n % 5 == 0 else legal, raw=b"", origin="upload",
                    label="deck.ydk", nonce=None, client="test")
    staff_login(client)

    def shown(query: str) -> list[str]:
        return re.findall(r'class="registration" data-id="(\d+)"',
                          client.get(f"/staff?{query}").text)

    assert shown("") == [str(n) for n in range(1, 101)]  # 100 a page
    assert shown("page=3") == [str(n) for n in range(201, 251)]
    assert 'id="next"' in client.get("/staff").text
    assert shown("sort=player&dir=desc")[:2] == ["250", "249"]
    assert shown("sort=player_id")[:2] == ["1", "2"]
    # 50 illegal lists registered nothing: they sort after every registered verdict
    assert shown("sort=verdict&page=3")[-1] in {str(n) for n in range(1, 251, 5)}
    assert len(shown("verdict=none&page=1")) == 50
    for key in ("id", "player", "player_id", "verdict", "sizes", "problems", "sent",
                "checked"):
        assert len(shown(f"sort={key}&dir=desc")) == 100, key
