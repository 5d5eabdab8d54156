"""What keeps an import safe: one import at a time (`store_lock`), no half-written stores
left behind, a store that can be written before any work, ids SQLite can hold, merged cards
valid against the schema, and no surprising loss of cards (`shrinks`)."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from deckcheck.errors import CardPoolError, ImportFailed
from deckcheck.sources.records import SourceData

#: An import may drop at most this share of the cards a source (or the store) held, or this
#: many cards, whichever is more, before it is refused as a surprise (`shrinks`).
SHRINK_SHARE = 0.05
SHRINK_HANDFUL = 10


def shrinks(old: int, new: int) -> bool:
    """Whether going from `old` to `new` cards drops more than a small share of them (or all
    but a handful): the sign of a cut-off or wrong file, not of a source that changed."""
    return old - new > max(SHRINK_HANDFUL, old * SHRINK_SHARE)


def shrink_error(what: str, old: int, new: int) -> ImportFailed:
    return ImportFailed(f"{what} would leave {new:,} cards where there were {old:,}; nothing "
                        "was changed — check the data, or pass --allow-smaller if it really "
                        "is that much smaller.")


def cannot_write(path: Path, why: str) -> CardPoolError:
    return CardPoolError(f"{path}: the card database cannot be written there ({why}); pass a "
                         "file you may write with --db or DECKCHECK_DB; nothing was changed.")


def check_writable(path: Path) -> None:
    """Refuse before any work when the store or its folder cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise cannot_write(path, f"a file is in the way of the folder {path.parent}") from None
    except OSError as exc:
        raise cannot_write(path, exc.strerror or str(exc)) from None
    if path.exists() and not os.access(path, os.W_OK):
        raise CardPoolError(f"{path} is read-only; make it writable (chmod u+w) or pass another "
                            "file with --db or DECKCHECK_DB; nothing was changed.")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise cannot_write(path, f"the folder {path.parent} is read-only")


@contextlib.contextmanager
def store_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the store while the block runs; another import into it
    waits. The lock is the operating system's on a lock file beside the store
    (``cards.sqlite.lock``: ``flock`` on POSIX, a lock of its first byte on Windows, as
    `filelock` locks it, so each sees the other's), not the store itself, which each import
    replaces; the file stays, empty, and is reused. (Taken here, not through `filelock`:
    importing it cost every `cards update` ~30 ms of CPU.)"""
    try:
        fd = _open(lock_path(path))
    except OSError as exc:
        raise cannot_write(path, exc.strerror or str(exc)) from None
    try:
        try:
            _lock(fd)
        except OSError as exc:
            raise cannot_write(path, exc.strerror or str(exc)) from None
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


#: Seconds a lock file refused for a moment (Windows, `_open`) is tried again.
_OPEN_WAIT = 2.0

if sys.platform == "win32":
    import msvcrt

    def _open(lock: Path) -> int:
        """The lock file, opened; while another program's `filelock` deletes it on release,
        opening it is refused (EACCES) for a moment: tried again, for up to `_OPEN_WAIT`
        seconds (a folder or a read-only file of that name is refused for good)."""
        give_up = time.monotonic() + _OPEN_WAIT
        while True:
            try:
                return os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            except PermissionError as exc:
                if exc.errno != errno.EACCES or os.path.isdir(lock) \
                        or time.monotonic() > give_up:
                    raise
                time.sleep(0.05)

    def _lock(fd: int) -> None:
        """Wait until the first byte of the lock file is ours (``LK_NBLCK``, polled)."""
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                return
            except OSError as exc:
                if exc.errno != errno.EACCES:  # held by another process: wait
                    raise
                time.sleep(0.05)

    def _unlock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _open(lock: Path) -> int:
        """The lock file, opened (made when missing)."""
        return os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)

    def _lock(fd: int) -> None:
        """Wait until the lock file's exclusive ``flock`` is ours."""
        fcntl.flock(fd, fcntl.LOCK_EX)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def lock_path(path: Path) -> Path:
    """The lock file of the store at `path` (`store_lock`)."""
    return path.with_name(path.name + ".lock")


def remove_stale_temp_files(path: Path) -> list[Path]:
    """Delete the half-written stores an interrupted import left beside `path` (call only
    while holding `store_lock`: then no other import is writing one)."""
    removed = []
    now = time.time()
    stale = list(path.parent.glob(f".{glob_escape(path.name)}.*.tmp"))
    # downloads `cards update` was killed in (another may be running: only old ones)
    stale += [p for p in path.parent.glob(".cardinfo.*.json") if _age(p, now) > 3600]
    for tmp in stale:
        try:
            tmp.unlink()
            removed.append(tmp)
        except OSError:
            pass
    return removed


def _age(path: Path, now: float) -> float:
    try:
        return now - path.stat().st_mtime
    except OSError:
        return 0.0


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def check_ids(sd: SourceData) -> None:
    """Every id a record gives (Konami's too) must be a whole number SQLite can hold (a source
    with a 20-digit id would otherwise fail half-way through writing)."""
    for n, rec in enumerate(sd.records, 1):
        ids = [rec.get("passcode"), *(rec.get("alt_passcodes") or ()),
               *(rec.get("extra_ids") or ())]
        if rec.get("alias") is not None:
            ids.append(rec["alias"])
        if rec.get("konami_id") is not None:  # a column of the cards table too
            ids.append(rec["konami_id"])
        for i in ids:
            if not isinstance(i, int) or isinstance(i, bool) or not 0 < i < 2**63:
                raise ImportFailed(f"{sd.origin or sd.name}: record #{n} has the id "
                                   f"{str(i)[:24]}, which is not a passcode; nothing was "
                                   "changed — check the file.")


def validate(cards: Iterable[dict[str, Any]]) -> None:
    """Check the merged cards against the model once, in bulk; the first card that fails is
    named in the sentence (its passcode and name, then the field and what is wrong)."""
    from pydantic import ValidationError

    from deckcheck.cards.schema import validate_cards

    cards = list(cards)
    try:
        validate_cards(cards)
    except ValidationError as exc:
        err = exc.errors()[0]
        at, *field = err["loc"]
        card = cards[at] if isinstance(at, int) and 0 <= at < len(cards) else {}
        which = str(card.get("passcode") or f"#{at}")
        if card.get("name"):
            which += f" ({str(card['name'])[:80]})"
        where = ".".join(map(str, field)) or "the card"
        raise ImportFailed(f"The merged card {which} is not valid ({where}: "
                           f"{err['msg']}); nothing was changed — please report this.") from None
