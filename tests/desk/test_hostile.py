"""Hostile uploads: each gets one sentence and a 4xx, nothing is stored, the desk stays up."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the desk extra is not installed (pip install "
                    "'deckcheck[desk]')")
from deskkit import LEGAL, csrf, submit  # noqa: E402

from deckcheck.desk.store import Store  # noqa: E402


def sentence(html: str) -> str:
    m = re.search(r'id="sentence" role="alert">(.*?)</div>', html, re.S)
    assert m, html[-2000:]
    text = m.group(1).strip()
    assert "\n" not in text and "Traceback" not in text
    return text


def still_up(client: Any, make_settings: Callable[..., Any]) -> None:
    assert client.get("/").status_code == 200
    assert Store(make_settings().store).count_submissions() == 0


def zip_bomb() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/worksheets/sheet1.xml", b"\0" * (200 * 2**20))  # 200 MB of zeros
    return buf.getvalue()


def test_zip_bomb_xlsx(client: Any, make_settings: Callable[..., Any]) -> None:
    data = zip_bomb()
    assert len(data) < 2**20
    r = submit(client, deck=data, filename="deck.xlsx")
    assert r.status_code == 422
    assert "refusing to open it" in sentence(r.text)
    still_up(client, make_settings)


def test_a_100_mb_upload(client: Any, make_settings: Callable[..., Any]) -> None:
    r = submit(client, deck=b"0" * (100 * 2**20), filename="deck.ydk")
    assert r.status_code == 413
    assert re.fullmatch(r"<!doctype html>.*<p>The upload is larger than \d+ MB, far more than "
                        r"any deck file; upload the deck file itself\.</p>", r.text, re.S)
    still_up(client, make_settings)


def test_a_chunked_upload_without_length_is_cut_off(client: Any,
                                                    make_settings: Callable[..., Any]) -> None:
    token = csrf(client)

    def chunks() -> Any:
        yield b"--b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n" + \
            token.encode() + b"\r\n--b\r\nContent-Disposition: form-data; name=\"deck\"; " \
            b"filename=\"deck.ydk\"\r\n\r\n"
        for _ in range(30):
            yield b"1" * 2**20

    r = client.post("/submit", content=chunks(),
                    headers={"content-type": "multipart/form-data; boundary=b"})
    assert r.status_code == 413
    still_up(client, make_settings)


@pytest.mark.parametrize("name", ['=HYPERLINK("http://evil.example/","win")', "+1+1",
                                  "@SUM(A1)", "-2+3"])
def test_formula_player_names(client: Any, make_settings: Callable[..., Any],
                              name: str) -> None:
    r = submit(client, player=name, deck=LEGAL)
    assert r.status_code == 400
    assert sentence(r.text).startswith("A name cannot start with =, +, - or @")
    assert "HYPERLINK(&#34;" in r.text or "HYPERLINK" not in name  # escaped, not markup
    still_up(client, make_settings)


@pytest.mark.parametrize("filename", ["../../etc/passwd.ydk", "..\\..\\evil.ydk", "..",
                                      "/etc/cron.d/x.ydk", "a/../../b.ydk"])
def test_path_file_names(client: Any, make_settings: Callable[..., Any], tmp_path: Path,
                         filename: str) -> None:
    before = sorted(p.name for p in tmp_path.parent.iterdir())
    r = submit(client, deck=LEGAL, filename=filename)
    assert r.status_code == 400
    assert "folder path" in sentence(r.text)
    assert sorted(p.name for p in tmp_path.parent.iterdir()) == before
    still_up(client, make_settings)


def test_invalid_utf8_file(client: Any, make_settings: Callable[..., Any]) -> None:
    r = submit(client, deck=b"3 Ash Blossom \xc3\x28\x81\x8d\x8f\x90\x9d\n", filename="deck.txt")
    assert r.status_code == 422
    assert "not text in any encoding" in sentence(r.text)
    still_up(client, make_settings)


def test_a_name_with_markup_is_escaped(client: Any) -> None:
    r = submit(client, player="<script>alert(1)</script>", player_id="x", deck=LEGAL)
    assert r.status_code == 400  # the id is refused; the name comes back escaped
    assert "<script>alert(1)</script>" not in r.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in r.text


def test_a_binary_file_that_is_no_deck(client: Any, make_settings: Callable[..., Any]) -> None:
    r = submit(client, deck=b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 20, filename="deck")
    assert 400 <= r.status_code < 500
    sentence(r.text)
    still_up(client, make_settings)


def test_an_old_excel_file(client: Any, make_settings: Callable[..., Any]) -> None:
    r = submit(client, deck=b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, filename="d.xls")
    assert r.status_code == 415  # .xls is not a deck extension the desk takes
    r = submit(client, deck=b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, filename="d.xlsx")
    assert r.status_code == 422
    assert "old Excel" in sentence(r.text)
    still_up(client, make_settings)


def test_security_headers(client: Any) -> None:
    r = client.get("/")
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert "default-src 'none'" in r.headers["content-security-policy"]


def test_the_hostile_workbook_is_refused_before_it_is_parsed(
        shared_data: Path, client: Any, make_settings: Callable[..., Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20's 760 KB workbook of 96 MB of sheet XML: a player's one-deck workbook is
    refused by the size it declares, before openpyxl parses it (which took 1.3 s of CPU
    while every other upload waited)."""
    hostile = shared_data.parent / "hostile" / "slow-xlsx-760KB-1500x2-cells-32k-strings.xlsx"
    if not hostile.is_file():
        pytest.skip(f"{hostile} is absent")
    monkeypatch.setattr("openpyxl.load_workbook", None)  # openpyxl must never see it
    r = submit(client, deck=hostile.read_bytes(), filename="registration.xlsx")
    assert r.status_code == 422
    assert re.fullmatch(r"registration\.xlsx would inflate to 92 MB \(limit 16 MB\); "
                        r"refusing to open it\.", sentence(r.text))
    still_up(client, make_settings)
