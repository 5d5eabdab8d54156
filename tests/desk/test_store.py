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
