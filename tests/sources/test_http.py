"""The HTTP helper and `cards update` against a local server on 127.0.0.1: a dropped
connection, a 500, a 429 and a truncated body each leave the previous store intact; a gzip
bomb, a trickling server and a Retry-After of a day are cut off."""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from deckcheck.cards.store import StorePool, store_info
from deckcheck.cli.main import cli
from deckcheck.errors import FailedDownload, ImportFailed
from deckcheck.imports.run import import_sources
from deckcheck.imports.update import update_ygoprodeck
from deckcheck.sources import read_source, ygoprodeck
from deckcheck.sources.http import Http, _retry_after
from tests.conftest import HOSTILE_FIXTURES
from tests.sources.local_server import Server

FIX = Path(__file__).parent / "fixtures"
SMALL = (FIX / "ygoprodeck_small.json").read_bytes()


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(SMALL)
    yield s
    s.close()


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def client(sleeps: list[float]) -> Http:
    return Http(retries=2, backoff=0.01, max_wait=5, sleep=sleeps.append, timeout=5, rate=0)


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    """A store holding only one hand-written card, as an earlier import left it."""
    db = tmp_path / "cards.sqlite"
    data = read_source(FIX / "ygoprodeck_small.json")
    data.records = [r for r in data.records if r["passcode"] == 14558127]
    import_sources(db, [data])
    return db


def _intact(db: Path) -> None:
    pool = StorePool(db)
    try:
        assert len(pool) == 1 and pool.get(14558127) is not None
    finally:
        pool.close()
    assert [p.name for p in db.parent.iterdir() if p.name.startswith(".")] == []


def test_update_then_unchanged(server: Server, client: Http, tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    first = update_ygoprodeck(db, http=client, url=server.url)
    assert first["cards"] == 18 and not first["unchanged"]
    assert store_info(db)["sources"][0]["version"] == "1.0 (2026-06-14 22:16:00)"
    again = update_ygoprodeck(db, http=client, url=server.url)
    assert again["unchanged"] and server.count("/cardinfo.php") == 1
    server.version = "1.1"
    assert not update_ygoprodeck(db, http=client, url=server.url)["unchanged"]
    assert server.count("/cardinfo.php?misc=yes") == 2


@pytest.mark.parametrize("mode", ["drop", "500", "429", "truncated"])
def test_failures_leave_old_store(server: Server, client: Http, old_store: Path, mode: str,
                                  sleeps: list[float]) -> None:
    server.modes = [mode] * 3
    with pytest.raises(FailedDownload) as exc:
        update_ygoprodeck(old_store, http=client, url=server.url)
    msg = str(exc.value)
    assert msg.startswith(f"Downloading {server.url}/cardinfo.php failed after 3 attempts (")
    assert msg.endswith("nothing was changed — check the connection and try again later.")
    assert server.count("/cardinfo.php") == 3 and len(sleeps) == 2
    if mode == "429":
        assert sleeps == [3, 3]  # Retry-After honoured
    else:
        assert sleeps == [0.01, 0.02]  # exponential backoff
    if mode == "truncated":  # said as it is (it was "connection dropped: ChunkedEncodingError")
        assert f"(the body ended after {len(SMALL) // 2} of {len(SMALL)} bytes)" in msg
    _intact(old_store)


@pytest.mark.parametrize("mode", ["drop", "500", "429", "truncated"])
def test_recovers_after_one_failure(server: Server, client: Http, old_store: Path,
                                    mode: str) -> None:
    server.modes = [mode]
    result = update_ygoprodeck(old_store, http=client, url=server.url, force=True)
    assert result["cards"] == 18


def test_not_json_is_import_failed(server: Server, client: Http, old_store: Path) -> None:
    server.modes = ["notjson"]
    with pytest.raises(ImportFailed, match="not valid JSON"):
        update_ygoprodeck(old_store, http=client, url=server.url)
    _intact(old_store)


def test_retry_after_is_honoured_up_to_max_wait(server: Server, old_store: Path,
                                                sleeps: list[float]) -> None:
    server.modes = ["429", "ok"]
    update_ygoprodeck(old_store, http=Http(retries=1, backoff=0.0, max_wait=3, rate=0,
                                           sleep=sleeps.append), url=server.url)
    assert sleeps == [3]


def test_a_retry_after_beyond_max_wait_fails_at_once_saying_so(
        server: Server, old_store: Path, sleeps: list[float]) -> None:
    server.modes = ["tomorrow"] * 5
    with pytest.raises(FailedDownload) as exc:
        update_ygoprodeck(old_store, http=Http(retries=4, max_wait=60, rate=0,
                                               sleep=sleeps.append), url=server.url)
    assert str(exc.value) == (
        f"Downloading {server.url}/cardinfo.php failed (HTTP 429): the server asks to wait 24 h "
        "before trying again, longer than deckcheck waits (60 s); nothing was changed — try "
        "again later.")
    assert sleeps == [] and server.count("/cardinfo.php") == 1
    _intact(old_store)


def test_a_gzip_bomb_is_cut_off_at_the_decompressed_cap(server: Server, tmp_path: Path) -> None:
    server.bomb = gzip.compress(b"\0" * (200 * 2**20), compresslevel=9)
    assert len(server.bomb) < 2**20
    server.modes = ["bomb"]
    capped = Http(retries=0, rate=0, timeout=5, max_bytes=8 * 2**20)
    dest = tmp_path / "out.json"
    with pytest.raises(FailedDownload) as exc:
        capped.download(f"{server.url}/cardinfo.php", dest)
    assert str(exc.value) == (
        f"Downloading {server.url}/cardinfo.php stopped: the body inflates to more than 8 MB, "
        "over the 8 MB limit; nothing was changed — check the address.")
    assert list(tmp_path.iterdir()) == []  # no partial file left
    server.modes = ["bomb"]
    with pytest.raises(FailedDownload, match="inflates to more than 8 MB"):
        capped.get_json(f"{server.url}/cardinfo.php")


def test_every_client_has_a_byte_cap_and_a_deadline_by_default() -> None:
    client = Http()
    assert 0 < client.max_bytes <= 2**30 and 0 < client.deadline <= 3600


def test_a_content_length_over_the_cap_is_refused_before_reading(server: Server) -> None:
    with pytest.raises(FailedDownload, match=r"the body is \d+ KB, over the 100 bytes limit"):
        Http(retries=0, rate=0, max_bytes=100).get_json(f"{server.url}/cardinfo.php")


def test_a_trickling_server_is_cut_off_at_the_deadline(server: Server, old_store: Path) -> None:
    server.modes = ["trickle"] * 3
    slow = Http(retries=2, backoff=0.01, rate=0, timeout=5, deadline=1.0)
    with pytest.raises(FailedDownload) as exc:
        update_ygoprodeck(old_store, http=slow, url=server.url)
    # one byte every 0.2 s of 1,000: cut off long before the body ends, with no new attempt
    assert server.trickled < 1000
    assert sum(p.startswith("/cardinfo.php") for p in server.requests) == 1
    assert str(exc.value) == (f"Downloading {server.url}/cardinfo.php took longer than 1 s in "
                              "all; nothing was changed — check the connection and try again "
                              "later.")
    _intact(old_store)


def test_rate_limit(server: Server, sleeps: list[float]) -> None:
    polite = Http(rate=20, sleep=sleeps.append)
    for _ in range(3):
        polite.get_json(f"{server.url}/checkDBVer.php")
    assert len(sleeps) >= 1 and all(0 < s <= 0.05 for s in sleeps)


def test_retry_after_header() -> None:
    assert _retry_after("7") == 7.0
    assert _retry_after("soon") is None
    assert _retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0


def test_download_is_atomic_and_reports_progress(server: Server, client: Http,
                                                 tmp_path: Path) -> None:
    seen: list[tuple[int, int | None]] = []
    dest = tmp_path / "out.json"
    client.download(f"{server.url}/cardinfo.php", dest, progress=lambda d, t: seen.append((d, t)))
    assert dest.read_bytes() == SMALL and seen[-1] == (len(SMALL), len(SMALL))
    server.modes = ["truncated"] * 3
    with pytest.raises(FailedDownload):
        client.download(f"{server.url}/cardinfo.php", dest)
    assert dest.read_bytes() == SMALL and sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_env_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKCHECK_YGOPRODECK_URL", "http://127.0.0.1:9/api/")
    assert ygoprodeck.base_url() == "http://127.0.0.1:9/api"
    assert ygoprodeck.base_url("http://x/") == "http://x"


def test_cli_update_errors_cleanly(server: Server, old_store: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Http, "BACKOFF", 0.001)
    monkeypatch.setattr(Http, "MAX_WAIT", 0.01)
    monkeypatch.setenv("DECKCHECK_YGOPRODECK_URL", server.url)
    server.modes = ["500"] * 5
    res = CliRunner().invoke(cli, ["--db", str(old_store), "cards", "update"])
    assert res.exit_code == 2
    assert res.stderr == (f"deckcheck: Downloading {server.url}/cardinfo.php failed after 4 "
                          "attempts (HTTP 500); nothing was changed — check the connection and "
                          "try again later.\n")
    _intact(old_store)
    res = CliRunner().invoke(cli, ["--db", str(old_store), "cards", "update"])
    assert res.exit_code == 0, res.output
    assert res.stdout == ("Imported YGOPRODeck: 18 cards (+4 alternate-artwork or prerelease "
                          f"ids) in {old_store}; sources: ygoprodeck.\n")
    res = CliRunner().invoke(cli, ["--db", str(old_store), "cards", "update", "--json"])
    assert json.loads(res.stdout)["unchanged"] is True


def test_real_dump_over_http(server: Server, client: Http, tmp_path: Path,
                             shared_data: Path) -> None:
    with zipfile.ZipFile(shared_data / "cards" / "ygoprodeck-cardinfo.zip") as zf:
        server.body = zf.read("cardinfo.json")
    db = tmp_path / "cards.sqlite"
    result = update_ygoprodeck(db, http=client, url=server.url)
    assert result["cards"] == 14388


def test_a_tiny_answer_to_a_forced_update_is_refused(server: Server, client: Http,
                                                     tmp_path: Path) -> None:
    """The 3-card YGOPRODeck answer would have shrunk the store 18 -> 3 with exit 0, and the
    next update said "already up to date"."""
    db = tmp_path / "cards.sqlite"
    update_ygoprodeck(db, http=client, url=server.url)
    server.body = (HOSTILE_FIXTURES / "dataloss-cards-update-3-card-answer.json").read_bytes()
    with pytest.raises(ImportFailed, match="would leave 3 cards where there were 18"):
        update_ygoprodeck(db, http=client, url=server.url, force=True)
    assert store_info(db)["cards"] == 18
    res = CliRunner().invoke(cli, ["--db", str(db), "cards", "update", "--force"],
                             env={"DECKCHECK_YGOPRODECK_URL": server.url})
    assert res.exit_code == 2 and "would leave 3 cards" in res.stderr, res.output
    assert update_ygoprodeck(db, http=client, url=server.url, force=True,
                             allow_smaller=True)["cards"] == 3


def test_up_to_date_only_when_the_store_holds_what_it_recorded(
        server: Server, client: Http, tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    update_ygoprodeck(db, http=client, url=server.url)
    con = sqlite3.connect(db)  # the store lost cards since (damage, another program)
    con.execute("DELETE FROM source_records WHERE passcode = 14558127")
    con.execute("DELETE FROM cards WHERE passcode = 14558127")
    con.commit()
    con.close()
    again = update_ygoprodeck(db, http=client, url=server.url)
    assert not again["unchanged"] and again["cards"] == 18
    assert server.count("/cardinfo.php") == 2
    assert update_ygoprodeck(db, http=client, url=server.url)["unchanged"]


def _bomb(inflated: int) -> bytes:
    """A gzip body of `inflated` zero bytes, compressed piece by piece (never held whole)."""
    import zlib

    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    piece = b"\0" * 2**20
    return b"".join([*(z.compress(piece) for _ in range(inflated // 2**20)), z.flush()])


def test_a_bomb_on_the_version_check_stays_under_128_mb(server: Server) -> None:
    """A small gzip answer inflating to 256 MB on `checkDBVer.php`-style JSON calls peaked at
    more than its inflated size (held in memory up to the 512 MB cap) before it was refused."""
    import tracemalloc

    server.bomb = _bomb(256 * 2**20)
    assert len(server.bomb) < 2**20
    server.modes = ["bomb"]
    tracemalloc.start()
    try:
        with pytest.raises(FailedDownload, match="inflates to more than 32 MB, over the 32 MB"):
            Http(retries=0, rate=0, timeout=5).get_json(f"{server.url}/cardinfo.php")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 128 * 2**20, f"{peak / 2**20:.0f} MB"


def test_a_stalled_server_fails_after_one_attempt_with_the_default_bounds(
        server: Server, old_store: Path) -> None:
    """Headers, then silence: with the bounds every user gets, one attempt and one sentence
    (the old bounds waited 20 s, tried again and waited 20 s more)."""
    server.modes = ["stall"] * 5
    with pytest.raises(FailedDownload) as exc:
        update_ygoprodeck(old_store, http=Http(), url=server.url, force=True)
    assert str(exc.value) == (
        f"Downloading {server.url}/cardinfo.php failed: the server stopped answering "
        "(nothing for 5 s); nothing was changed — check the connection and try again later.")
    assert server.count("/cardinfo.php") == 1
    _intact(old_store)


#: A client with the default bounds in small: what it does in half a second is what
#: one with `Http()` does in 5 s (`test_the_default_bounds_are_seconds_not_minutes`).
def _quick(**kw: Any) -> Http:
    return Http(**{"backoff": 0.01, "rate": 0, "timeout": (2, 0.5), "rate_window": 0.5, **kw})


def test_a_server_stalled_from_the_start_is_not_tried_again(server: Server) -> None:
    """A server that never sent a window's worth of the body would only stall again."""
    server.modes = ["stall"] * 5
    with pytest.raises(FailedDownload) as exc:
        _quick(retries=4).get_json(f"{server.url}/cardinfo.php")
    assert "failed: the server stopped answering (nothing for 0.5 s)" in str(exc.value)
    assert server.count("/cardinfo.php") == 1


def test_a_server_that_stops_before_the_headers_is_not_tried_again(server: Server) -> None:
    server.modes = ["mute"] * 5
    with pytest.raises(FailedDownload, match=r"stopped answering \(no answer within 0.5 s\)"):
        _quick(retries=4).get_json(f"{server.url}/cardinfo.php")
    assert server.count("/cardinfo.php") == 1


def test_a_download_that_broke_off_is_tried_once_more(server: Server, tmp_path: Path) -> None:
    """64 KB, then silence: the server was sending, so one new attempt (which succeeds);
    a second break-off ends the call."""
    dest = tmp_path / "out.json"
    server.modes = ["burst", "ok"]
    _quick(retries=4).download(f"{server.url}/cardinfo.php", dest)
    assert dest.read_bytes() == SMALL and server.count("/cardinfo.php") == 2
    server.modes = ["burst"] * 5
    with pytest.raises(FailedDownload) as exc:
        _quick(retries=4).download(f"{server.url}/cardinfo.php", dest)
    assert "the server stopped answering again on a new attempt (nothing for 0.5 s)" in str(
        exc.value)
    assert server.count("/cardinfo.php") == 4 and dest.read_bytes() == SMALL


def test_the_default_bounds_are_seconds_not_minutes() -> None:
    """A stalled server took 316 s to fail (60 s per read, five attempts), then 41 s (20 s,
    retried once); a trickle ran to the 15-minute deadline, then to a 30 s window."""
    client = Http()
    assert client.timeout == (5.0, 5.0)
    assert (client.min_rate, client.rate_window, Http.STALL_RETRIES) == (8 * 1024, 5.0, 1)
    assert client.deadline == 15 * 60
    # a server failing fast (5xx, dropped connections) is waited for 0.5 + 1 + 2 s, no more
    assert (client.retries, client.backoff) == (3, 0.5)
    # the slowest steady download that still succeeds: 8 KB/s brings the gzipped card dump
    # (3.2 MB on the wire) in under 7 minutes, within the deadline
    assert 3.2 * 2**20 / client.min_rate < client.deadline


def test_a_trickling_server_is_cut_off_by_its_rate(server: Server) -> None:
    server.modes = ["trickle"] * 3
    slow = Http(retries=2, backoff=0.01, rate=0, timeout=5, min_rate=1024, rate_window=1.0)
    with pytest.raises(FailedDownload) as exc:
        slow.get_json(f"{server.url}/cardinfo.php")
    assert re.search(r"the server sends too slowly \(\d+ bytes/s over 1 s, below 1 KB/s\); "
                     "nothing was changed", str(exc.value)), exc.value
    assert server.count("/cardinfo.php") == 1  # not retried: it would trickle again


@pytest.mark.parametrize("command", [["cards", "update"], ["banlist", "update"]])
def test_the_bounds_are_stated_in_help(command: list[str]) -> None:
    """--help states the bounds `Http` applies (this test holds the two together)."""
    client = Http()
    assert isinstance(client.timeout, tuple)
    text = " ".join(CliRunner().invoke(cli, [*command, "--help"]).output.split())
    assert f"{client.timeout[0]:g} s to connect, {client.timeout[1]:g} s without data" in text
    assert "a download that broke off is tried once more" in text and Http.STALL_RETRIES == 1
    assert f"at least {client.min_rate / 1024:g} KB/s over any {client.rate_window:g} s" in text
    assert f"{client.deadline / 60:g} minutes" in text
