"""Load on the registration desk: 500 submissions from 50 concurrent clients, on 127.0.0.1.

A real `deckcheck desk` server runs in a subprocess (uvicorn, one process) with the full
YGOPRODeck card pool in an imported store (or the built-in set, --builtin). 50 client
threads each open the player page (for the CSRF cookie and token), then upload real .ydk
files from ../shared/data/decks (cycled), one new player per submission, like a queue of
players at the venue's Wi-Fi. All clients share one address, so the per-client rate limit
is turned off for the run (--submit-limit 0).

It checks that every submission was answered with its receipt (303) and no error, and that
the store holds each one exactly once; it prints the answer times (p50, p95, max: from
sending the form to the receipt redirect, i.e. read + check + commit) and the throughput.

    python benchmarks/bench_desk.py [--submissions 500] [--clients 50] [--builtin]
"""

from __future__ import annotations

import argparse
import re
import secrets
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _realdata import need_data, store_path, ydk_files

try:
    import httpx2 as httpx
except ImportError:  # pragma: no cover - the desk-test extra brings httpx2
    import httpx  # type: ignore[no-redef]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str | None, store: Path, port: int, token: str) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-c", "from deckcheck.cli.main import main; main()"]
    if db:
        args += ["--db", db]
    args += ["desk", "--event", "Bench Regional", "--date", "2026-12-05", "--port", str(port),
             "--store", str(store), "--token", token, "--submit-limit", "0"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            sys.exit(f"the desk server stopped: {err.strip()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    sys.exit("the desk server did not answer within 120 s")


def real_decks(n: int) -> tuple[list[tuple[str, bytes]], int]:
    """The first `n` real .ydk files that hold a deck (some files in the corpus are empty
    or not decks at all: the desk rightly refuses those, so they are left out here)."""
    from deckcheck.decks.files import read_deck
    from deckcheck.errors import DeckcheckError

    out: list[tuple[str, bytes]] = []
    skipped = 0
    for f in ydk_files():
        try:
            deck = read_deck(f, None)
        except DeckcheckError:
            skipped += 1
            continue
        if not any(True for _ in deck.entries()):
            skipped += 1
            continue
        out.append((f.name, f.read_bytes()))
        if len(out) == n:
            break
    return out, skipped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--submissions", type=int, default=500)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--builtin", action="store_true",
                        help="check against the built-in card set, not the full pool")
    opts = parser.parse_args()
    need_data()
    decks, skipped = real_decks(opts.submissions)
    db = None if opts.builtin else str(store_path())
    with tempfile.TemporaryDirectory(prefix="bench-desk-") as tmp:
        store = Path(tmp) / "bench.db"
        port = free_port()
        proc = start_server(db, store, port, secrets.token_urlsafe(12))
        base = f"http://127.0.0.1:{port}"
        times: list[float] = []
        errors: list[str] = []
        receipts: list[str] = []
        lock = threading.Lock()
        per_client = [list(range(k, opts.submissions, opts.clients))
                      for k in range(opts.clients)]

        def client(numbers: list[int]) -> None:
            with httpx.Client(base_url=base, timeout=60, follow_redirects=False) as c:
                page = c.get("/")
                m = re.search(r'name="csrf" value="([^"]+)"', page.text)
                if page.status_code != 200 or m is None:
                    with lock:
                        errors.append(f"form page: {page.status_code}")
                    return
                token = m.group(1)
                for n in numbers:
                    name, data = decks[n % len(decks)]
                    form = {"csrf": token, "player": f"Player {n:04d}",
                            "player_id": f"{300000000 + n:010d}",
                            "nonce": secrets.token_urlsafe(16)}
                    t = time.perf_counter()
                    try:
                        r = c.post("/submit", data=form,
                                   files={"deck": (name, data, "application/octet-stream")})
                    except httpx.HTTPError as exc:
                        with lock:
                            errors.append(f"#{n}: {type(exc).__name__}: {exc}")
                        continue
                    elapsed = time.perf_counter() - t
                    with lock:
                        if r.status_code == 303:
                            times.append(elapsed)
                            receipts.append(r.headers["location"].rsplit("/", 1)[1])
                        else:
                            said = re.search(r'role="alert">(.*?)<', r.text, re.S)
                            errors.append(f"#{n} {name}: {r.status_code} "
                                          f"{said.group(1).strip() if said else ''}")

        t0 = time.perf_counter()
        try:
            with ThreadPoolExecutor(opts.clients) as pool:
                list(pool.map(client, per_client))
            wall = time.perf_counter() - t0
        finally:
            proc.terminate()
            proc.wait(30)
        with sqlite3.connect(store) as db_conn:
            stored = db_conn.execute("SELECT count(*), count(DISTINCT receipt) FROM "
                                     "submissions").fetchone()
            verdicts = dict(db_conn.execute("SELECT verdict, count(*) FROM submissions "
                                            "GROUP BY verdict").fetchall())
            found = {r for (r,) in db_conn.execute("SELECT receipt FROM submissions")}
    times.sort()
    p95 = times[max(0, int(round(0.95 * len(times))) - 1)] if times else float("nan")
    print(f"desk load: {opts.submissions} submissions from {opts.clients} concurrent clients "
          f"on 127.0.0.1 ({'built-in card set' if opts.builtin else 'full card pool'}; "
          f"{len(decks)} real .ydk decks; {skipped} files before them skipped: not decks)")
    print(f"  answered 303 with a receipt: {len(times)}; errors: {len(errors)}")
    for e in errors[:10]:
        print(f"    {e}")
    print(f"  stored: {stored[0]} submissions, {stored[1]} distinct receipts; every receipt "
          f"answered is stored: {set(receipts) <= found}; verdicts {verdicts}")
    if times:
        print(f"  answer time: p50 {statistics.median(times) * 1000:.0f} ms, p95 "
              f"{p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms")
    print(f"  wall {wall:.1f} s, {len(times) / wall:.0f} submissions/s")
    ok = (not errors and len(times) == opts.submissions and stored[0] == opts.submissions
          and stored[1] == opts.submissions and set(receipts) == found)
    print("  OK: no error, every submission stored once" if ok else "  FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
