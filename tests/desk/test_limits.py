"""Issue 20, point 3: limits that fit a venue. Many players behind one address register;
one player resending is limited; refusals are shown to staff; staff logins have a limit of
their own with a back-off; X-Forwarded-For is believed from configured proxies only."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the desk extra is not installed (pip install "
                    "'deckcheck[desk]')")
from deskkit import LEGAL, csrf, receipt_of, staff_login, submit  # noqa: E402

from deckcheck.desk.security import Backoff, RateLimiter  # noqa: E402


def new_client(make_settings: Callable[..., Any], **kw: Any) -> Any:
    from starlette.testclient import TestClient

    from deckcheck.desk.app import create_app

    return TestClient(create_app(make_settings(**kw)), follow_redirects=False)


def test_200_players_behind_one_address_register_with_the_defaults(client: Any) -> None:
    token = csrf(client)  # one address (the venue's NAT), 200 players in a row
    codes = [submit(client, player=f"Player {n}", player_id=f"{300000000 + n:010d}",
                    deck=LEGAL, token=token).status_code for n in range(200)]
    assert codes == [303] * 200


def test_one_player_resending_is_limited_and_staff_see_it(
        make_settings: Callable[..., Any]) -> None:
    with new_client(make_settings, player_limit=2) as c:
        first = receipt_of(c, submit(c, deck=LEGAL))
        assert submit(c, deck=LEGAL, receipt=first.receipt).status_code == 303
        r = submit(c, deck=LEGAL, receipt=first.receipt)
        assert r.status_code == 429 and "Too many lists sent for Alice Example" in r.text
        # another player on the same address is not held up
        assert submit(c, player="Bob Example", player_id="0300000002",
                      deck=LEGAL).status_code == 303
        staff_login(c)
        page = c.get("/staff").text
        assert re.search(r"1 by the player limit", page)
        assert "Alice Example 0301234567" in page


def test_the_address_limit_is_shown_to_staff(make_settings: Callable[..., Any]) -> None:
    with new_client(make_settings, submit_limit=1) as c:
        assert submit(c, deck=LEGAL).status_code == 303
        r = submit(c, player="Bob Example", player_id="0300000002", deck=LEGAL)
        assert r.status_code == 429
        staff_login(c)
        assert "1 by the address limit" in c.get("/staff").text


def test_wrong_staff_tokens_back_off_on_their_own(make_settings: Callable[..., Any]) -> None:
    with new_client(make_settings, submit_limit=0) as c:
        for _ in range(5):
            assert c.get("/staff?token=guess").status_code == 403
        # the sixth try must wait, even with the right token
        r = c.get("/staff?token=staff-secret-token")
        assert r.status_code == 429 and "Too many wrong staff logins" in r.text
        assert "desk_staff" not in r.headers.get("set-cookie", "")
        # players are not held up by it (and --submit-limit 0 does not lift it)
        assert submit(c, deck=LEGAL).status_code == 303


def test_wrong_staff_passwords_back_off(make_settings: Callable[..., Any]) -> None:
    with new_client(make_settings, password="judge-pass") as c:
        token = csrf(c, "/staff")
        for _ in range(5):
            assert c.post("/staff/login", data={"csrf": token, "password": "x"}
                          ).status_code == 403
        r = c.post("/staff/login", data={"csrf": token, "password": "judge-pass"})
        assert r.status_code == 429


def test_backoff_doubles_and_a_success_forgets() -> None:
    now = [0.0]
    b = Backoff(free=2, base=2.0, clock=lambda: now[0])
    for _ in range(2):
        assert b.wait("k") is None
        b.failed("k")
    assert b.wait("k") == 2.0
    now[0] = 2.0
    assert b.wait("k") is None
    b.failed("k")
    assert b.wait("k") == 4.0  # twice as long after each further failure
    b.succeeded("k")
    assert b.wait("k") is None


def test_forwarded_for_is_ignored_unless_from_a_trusted_proxy(
        make_settings: Callable[..., Any]) -> None:
    with new_client(make_settings, submit_limit=1) as c:  # the test client is "testclient"
        token = csrf(c)
        assert submit(c, deck=LEGAL, token=token).status_code == 303
        c.headers["x-forwarded-for"] = "10.0.0.99"  # posing as another client: ignored
        r = submit(c, player="Bob Example", player_id="0300000002", deck=LEGAL, token=token)
        assert r.status_code == 429
    with new_client(make_settings, submit_limit=1, trusted_proxies=("testclient",)) as c:
        token = csrf(c)
        c.headers["x-forwarded-for"] = "10.0.0.1"
        assert submit(c, player="Dave Example", player_id="0300000004", deck=LEGAL,
                      token=token).status_code == 303
        c.headers["x-forwarded-for"] = "10.0.0.2"  # the proxy says: another client
        assert submit(c, player="Erin Example", player_id="0300000005", deck=LEGAL,
                      token=token).status_code == 303
        c.headers["x-forwarded-for"] = "10.0.0.2"
        assert submit(c, player="Carol Example", player_id="0300000003", deck=LEGAL,
                      token=token).status_code == 429


def test_the_rate_limiter_window() -> None:
    now = [0.0]
    limiter = RateLimiter(2, clock=lambda: now[0])
    assert limiter.allow("a") is None and limiter.allow("a") is None
    assert limiter.allow("a") == 60.0
    now[0] = 60.0
    assert limiter.allow("a") is None


def test_a_forwarded_for_header_does_not_lift_the_limit_of_a_real_server(tmp_path: Any
                                                                         ) -> None:
    """`deckcheck desk` behind no proxy: uvicorn believed X-Forwarded-For from 127.0.0.1,
    so one client could pose as many; the desk now reads the header itself, from
    --trusted-proxy only."""
    import os
    import socket
    import subprocess
    import sys
    import time

    httpx = pytest.importorskip("httpx2", reason="httpx2 is not installed (the test extra)")
    pytest.importorskip("uvicorn", reason="the desk extra is not installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", "from deckcheck.cli.main import main; main()", "desk",
         "--event", "Proxy Cup", "--date", "2026-12-05", "--port", str(port), "--store",
         str(tmp_path / "p.db"), "--token", "t" * 20, "--submit-limit", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(600):
            try:
                if httpx.get(base + "/", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                assert proc.poll() is None, "the desk server stopped"
                time.sleep(0.1)
        statuses = []
        with httpx.Client(base_url=base, follow_redirects=False, timeout=30) as c:
            token = re.search(r'name="csrf" value="([^"]+)"', c.get("/").text)
            assert token
            for n in range(3):
                r = c.post("/submit", data={"csrf": token.group(1), "player": f"Player {n}",
                                            "player_id": f"{300000000 + n:010d}"},
                           files={"deck": ("deck.ydk", LEGAL, "application/octet-stream")},
                           headers={"X-Forwarded-For": f"10.0.0.{n}"})
                statuses.append(r.status_code)
        assert statuses == [303, 429, 429]
    finally:
        proc.terminate()
        proc.wait(10)
