"""Nothing accepted is lost: a real `deckcheck desk` server killed with SIGKILL right after
answering keeps every submission it answered with a receipt, and a restart serves them."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the desk extra is not installed (pip install "
                    "'deckcheck[desk]')")
pytest.importorskip("uvicorn", reason="the desk extra is not installed")
httpx = pytest.importorskip("httpx2", reason="httpx2 is not installed (the test extra)")
from deskkit import ILLEGAL  # noqa: E402


def start(store: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-c", "from deckcheck.cli.main import main; main()", "desk",
         "--event", "Crash Cup", "--date", "2026-12-05", "--port", str(port), "--store",
         str(store), "--token", "t" * 20],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            assert proc.poll() is None, "the desk server stopped"
            time.sleep(0.1)
    proc.kill()
    pytest.fail("the desk server did not start within 60 s")


def test_sigkill_loses_no_accepted_submission(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = tmp_path / "crash.db"
    proc = start(store, port)
    receipts = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", follow_redirects=False) as c:
            token = re.search(r'name="csrf" value="([^"]+)"', c.get("/").text)
            assert token
            for n in range(5):
                r = c.post("/submit", data={"csrf": token.group(1), "player": f"Player {n}",
                                            "player_id": f"03000000{n:02d}"},
                           files={"deck": ("deck.ydk", ILLEGAL, "application/octet-stream")})
                assert r.status_code == 303
                receipts.append(r.headers["location"])
    finally:
        proc.send_signal(signal.SIGKILL)  # no shutdown, no checkpoint: a crash
        proc.wait(10)
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT count(*) FROM submissions").fetchone() == (5,)
    proc = start(store, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as c:
            for path in receipts:
                page = c.get(path)
                assert page.status_code == 200
                assert path.rsplit("/", 1)[1] in page.text
    finally:
        proc.terminate()
        proc.wait(10)
