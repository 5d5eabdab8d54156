"""The desk's SQLite store: WAL mode, one commit per submission, a form sent twice stored
once even when the copies race, and optimistic versioning of staff edits."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from deckcheck.desk.store import Conflict, Store, normalize_receipt, registration_key


def add(store: Store, n: int, nonce: str | None = None) -> str:
    return store.add_submission(player=f"Player {n}", player_id=f"03000000{n:02d}",
                                origin="upload", label="deck.ydk", raw=b"#main\n",
                                deck_json="{}", report_json="{}", verdict="legal",
                                problem_count=0, deck_hash="abc", nonce=nonce).receipt


def test_wal_mode_and_full_sync(tmp_path: Path) -> None:
    store = Store(tmp_path / "e.db")
    add(store, 1)
    with sqlite3.connect(tmp_path / "e.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("SELECT count(*) FROM submissions").fetchone() == (1,)


def test_racing_copies_of_one_form_are_stored_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "e.db")
    receipts: list[str] = []
    lock = threading.Lock()

    def send(n: int) -> None:
        r = add(store, n % 10, nonce=f"nonce-{n % 10:04d}")  # each form sent 8 times
        with lock:
            receipts.append(r)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(80)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.count_submissions() == 10
    assert len(set(receipts)) == 10
    assert len(store.registrations()) == 10


def test_a_stale_edit_is_refused(tmp_path: Path) -> None:
    store = Store(tmp_path / "e.db")
    add(store, 1)
    reg = store.registrations()[0]
    store.update_registration(reg.id, reg.version, checked=True)
    with pytest.raises(Conflict):
        store.update_registration(reg.id, reg.version, note="lost update")
    now = store.registration(reg.id)
    assert now is not None and now.checked_at is not None and now.note == ""
    assert now.version == reg.version + 1


def test_keys_and_receipts() -> None:
    assert registration_key("  Jane   DOE ", "030-123 4567") == \
        registration_key("jane doe", "301234567")
    assert registration_key("Jane Doe", "0301234567") != registration_key("Jane Roe",
                                                                            "0301234567")
    assert normalize_receipt("abcd efgh") == "ABCD-EFGH"


def test_not_a_store(tmp_path: Path) -> None:
    from deckcheck.desk.store import StoreError

    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="is not a desk store"):
        Store(bad)


V1_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE registrations (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, player TEXT,
    player_id TEXT, created_at TEXT NOT NULL, checked_at TEXT, note TEXT NOT NULL DEFAULT '',
    reopened INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 1);
CREATE TABLE submissions (id INTEGER PRIMARY KEY, registration_id INTEGER NOT NULL
    REFERENCES registrations(id), nonce TEXT UNIQUE, receipt TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL, origin TEXT NOT NULL, label TEXT NOT NULL, raw BLOB NOT NULL,
    deck_json TEXT NOT NULL, report_json TEXT NOT NULL, verdict TEXT NOT NULL,
    problem_count INTEGER NOT NULL, deck_hash TEXT, late INTEGER NOT NULL DEFAULT 0,
    client TEXT);
INSERT INTO registrations VALUES (1, '301234567|alice', 'Alice', '0301234567',
    '2026-12-05T08:00:00+00:00', '2026-12-05T08:30:00+00:00', '', 0, 3);
INSERT INTO submissions VALUES (1, 1, NULL, 'AAAA-AAAA', '2026-12-05T08:00:00+00:00', 'upload',
    'a.ydk', x'00', '{}', '{}', 'legal', 0, 'h1', 0, '1.2.3.4');
INSERT INTO submissions VALUES (2, 1, NULL, 'BBBB-BBBB', '2026-12-05T08:20:00+00:00', 'upload',
    'b.ydk', x'00', '{}', '{}', 'legal', 0, 'h2', 0, '1.2.3.4');
INSERT INTO submissions VALUES (3, 1, NULL, 'CCCC-CCCC', '2026-12-05T08:40:00+00:00', 'upload',
    'c.ydk', x'00', '{}', '{}', 'illegal', 1, 'h3', 0, '1.2.3.4');
"""


def test_a_store_of_the_first_desk_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(V1_SCHEMA)
    store = Store(path)
    subs = store.all_submissions()
    assert [s.receipt for s in subs] == ["AAAA-AAAA", "BBBB-BBBB", "CCCC-CCCC"]
    assert len({s.public for s in subs}) == 3 and all(len(s.public) == 16 for s in subs)
    reg = store.registration(1)
    # the mark made at 08:30 was for the list sent last before it (08:20)
    assert reg is not None and reg.checked_submission == 2 and reg.version == 3
    assert store.get_meta("schema") == "2"
    store.close()
    again = Store(path)  # opening it again changes nothing
    assert [s.public for s in again.all_submissions()] == [s.public for s in subs]


def test_the_store_file_is_private(tmp_path: Path) -> None:
    import os
    import stat

    old = os.umask(0o022)
    try:
        Store(tmp_path / "e.db")
        (tmp_path / "old.db").write_bytes(b"")
        os.chmod(tmp_path / "old.db", 0o644)
        Store(tmp_path / "old.db")
    finally:
        os.umask(old)
    for name in ("e.db", "old.db"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
