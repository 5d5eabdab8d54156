"""Load on the registration desk: 500 submissions from 50 concurrent clients, on 127.0.0.1.

A real `deckcheck desk` server runs in a subprocess (uvicorn, one process) with the card pool
a user has after the README's steps (issue 24): a store imported from every card source of
../shared/data/cards (`_realdata.full_store_path`, cached in the temp folder), or with
--builtin the built-in pool of every card (empty home, no DECKCHECK_DB), with its default
limits on. 50 client threads, spread over a few loopback addresses (127.0.0.1 to
127.0.0.N, --addresses: a few venue networks), each open the player page (for the CSRF
cookie and token), then upload real .ydk files from ../shared/data/decks (cycled), one new
player per submission, like a queue of players at the venue's Wi-Fi.

--hostile K adds K more clients that re-send the hostile workbook of issue 20
(../shared/hostile/slow-xlsx-760KB-1500x2-cells-32k-strings.xlsx) for the whole run, each
as a new player; their answers are counted apart, and the ordinary answer times must stay
low all the same.

It checks that every ordinary submission was answered with its receipt (303) and no error,
and that the store holds each one exactly once; it prints the answer times (p50, p95, max:
from sending the form to the receipt redirect, i.e. read + check + commit) and the
throughput. Goal: every submission answered with its receipt and stored once, no error
(printed met / NOT met). Yardstick from the same run: `read_deck` + `check` of the same
decks in this process on the same pool (what the desk wraps in HTTP, a form, a store write).

    python benchmarks/bench_desk.py [--submissions 500] [--clients 50] [--addresses 4]
                                    [--hostile 2] [--builtin]
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

from _realdata import SHARED, builtin_env, full_store_path, need_data, ydk_files

HOSTILE = SHARED.parent / "hostile" / "slow-xlsx-760KB-1500x2-cells-32k-strings.xlsx"

try:
    import httpx2 as httpx
except ImportError:  # pragma: no cover - the desk-test extra brings httpx2
    import httpx  # type: ignore[no-redef]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str | None, store: Path, port: int, token: str, env: dict[str, str]
                 ) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-c", "from deckcheck.cli.main import main; main()"]
    if db:
        args += ["--db", db]
    args += ["desk", "--event", "Bench Regional", "--date", "2026-12-05", "--port", str(port),
             "--store", str(store), "--token", token]  # the default limits
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
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


def yardstick(decks: list[tuple[str, bytes]], db: str | None) -> float:
    """Seconds of `read_deck` + `check` per deck, the same decks in this process, on the
    pool the server has (best of 3 passes; the first pass warms the pool)."""
    import datetime as dt

    from _realdata import fresh_builtin_pool

    import deckcheck
    from deckcheck.cards.store import StorePool

    with tempfile.TemporaryDirectory(prefix="bench-desk-decks-") as tmp:
        paths = []
        for i, (name, data) in enumerate(decks):
            path = Path(tmp) / f"{i:04d}-{name}"
            path.write_bytes(data)
            paths.append(path)
        pool = StorePool(db) if db else fresh_builtin_pool()
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            for path in paths:
                deckcheck.check(deckcheck.read_deck(path, pool), format="tcg",
                                date=dt.date(2026, 12, 5), pool=pool)
            best = min(best, time.perf_counter() - t)
    return best / len(decks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--submissions", type=int, default=500)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--addresses", type=int, default=4,
                        help="loopback addresses the clients are spread over")
    parser.add_argument("--hostile", type=int, default=0,
                        help="clients re-sending the hostile workbook during the run")
    parser.add_argument("--builtin", action="store_true",
                        help="check against the built-in card set, not the full pool")
    opts = parser.parse_args()
    hostile_data = HOSTILE.read_bytes() if opts.hostile else b""
    need_data()
    decks, skipped = real_decks(opts.submissions)
    db = None if opts.builtin else str(full_store_path())
    per_deck = yardstick(decks, db)
    with tempfile.TemporaryDirectory(prefix="bench-desk-") as tmp:
        store = Path(tmp) / "bench.db"
        port = free_port()
        proc = start_server(db, store, port, secrets.token_urlsafe(12), builtin_env(tmp))
        base = f"http://127.0.0.1:{port}"
        times: list[float] = []
        errors: list[str] = []
        receipts: list[str] = []
        lock = threading.Lock()
        per_client = [list(range(k, opts.submissions, opts.clients))
                      for k in range(opts.clients)]

        def connect(k: int) -> httpx.Client:
            address = f"127.0.0.{1 + k % max(1, opts.addresses)}"
            return httpx.Client(base_url=base, timeout=60, follow_redirects=False,
                                transport=httpx.HTTPTransport(local_address=address))

        stop = threading.Event()
        hostile_answers: list[tuple[int, float]] = []

        def hostile(k: int) -> None:
            with connect(k) as c:
                m = re.search(r'name="csrf" value="([^"]+)"', c.get("/").text)
                assert m is not None
                n = 0
                while not stop.is_set():
                    form = {"csrf": m.group(1), "player": f"Hostile {k} {n}",
                            "player_id": f"{900000000 + k * 10000 + n:010d}"}
                    t = time.perf_counter()
                    r = c.post("/submit", data=form, files={
                        "deck": ("registration.xlsx", hostile_data, "application/octet-stream")})
                    with lock:
                        hostile_answers.append((r.status_code, time.perf_counter() - t))
                    n += 1

        def client(numbers: list[int]) -> None:
            with connect(numbers[0] if numbers else 0) as c:
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
                            # the receipt page's public code (the receipt code is in no
                            # address)
                            receipts.append(r.headers["location"].rsplit("/", 1)[1])
                        else:
                            said = re.search(r'role="alert">(.*?)<', r.text, re.S)
                            errors.append(f"#{n} {name}: {r.status_code} "
                                          f"{said.group(1).strip() if said else ''}")

        t0 = time.perf_counter()
        try:
            spoilers = [threading.Thread(target=hostile, args=(k,), daemon=True)
                        for k in range(opts.hostile)]
            for t in spoilers:
                t.start()
            if spoilers:
                time.sleep(1.0)  # the workbooks are in flight before the queue starts
            with ThreadPoolExecutor(opts.clients) as pool:
                list(pool.map(client, per_client))
            wall = time.perf_counter() - t0
            stop.set()
            for t in spoilers:
                t.join(60)
        finally:
            proc.terminate()
            proc.wait(30)
        with sqlite3.connect(store) as db_conn:
            ordinary = "FROM submissions s JOIN registrations g ON g.id = s.registration_id " \
                "WHERE g.player NOT LIKE 'Hostile %'"
            stored = db_conn.execute(f"SELECT count(*), count(DISTINCT public) {ordinary}"
                                     ).fetchone()
            verdicts = dict(db_conn.execute(f"SELECT verdict, count(*) {ordinary} "
                                            "GROUP BY verdict").fetchall())
            found = {r for (r,) in db_conn.execute(f"SELECT public {ordinary}")}
    times.sort()
    p95 = times[max(0, int(round(0.95 * len(times))) - 1)] if times else float("nan")
    print(f"desk load: {opts.submissions} submissions from {opts.clients} concurrent clients "
          f"over {opts.addresses} loopback addresses, default limits "
          f"({'built-in pool of every card' if opts.builtin else 'store of every card source'}; "
          f"{len(decks)} real .ydk decks; {skipped} files before them skipped: not decks)")
    if opts.hostile:
        codes: dict[int, int] = {}
        for code, _ in hostile_answers:
            codes[code] = codes.get(code, 0) + 1
        slow = max((s for _, s in hostile_answers), default=float("nan"))
        print(f"  + {opts.hostile} clients re-sending the hostile workbook: "
              f"{len(hostile_answers)} answers {codes}, slowest {slow:.2f} s")
    print(f"  answered 303 with a receipt: {len(times)}; errors: {len(errors)}")
    for e in errors[:10]:
        print(f"    {e}")
    print(f"  stored: {stored[0]} submissions, {stored[1]} distinct receipts; every receipt "
          f"answered is stored: {set(receipts) <= found}; verdicts {verdicts}")
    if times:
        print(f"  answer time: p50 {statistics.median(times) * 1000:.0f} ms, p95 "
              f"{p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms; yardstick: read_deck + "
              f"check of the same decks in one process {per_deck * 1000:.2f} ms/deck")
    print(f"  wall {wall:.1f} s, {len(times) / wall:.0f} submissions/s")
    ok = (not errors and len(times) == opts.submissions and stored[0] == opts.submissions
          and stored[1] == opts.submissions and set(receipts) == found)
    print(f"  goal: every submission answered with its receipt and stored once, no error: "
          f"{'met' if ok else 'NOT met'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
