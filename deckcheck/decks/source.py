"""Getting a deck source's bytes and text safely: size bounds, stdin, and text decoding.

Every reader gets its input through here, so no reader ever loads a 2 GB file or chokes on a
file saved by Notepad in cp1252 or by a Japanese editor in Shift-JIS.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import TYPE_CHECKING

from deckcheck.errors import DeckReadError

if TYPE_CHECKING:
    from pathlib import Path

#: Deck files larger than this are refused before reading them.
MAX_BYTES = 20 * 1024 * 1024
#: Text deck files with more lines than this are refused (a deck has at most a few hundred).
MAX_LINES = 100_000
#: Spreadsheets: at most this many rows and columns per sheet are looked at.
MAX_ROWS = 10_000
MAX_COLS = 60
#: A deck with more card lines than this (entries and unreadable lines together; a real deck
#: has at most 90 cards) is refused: each costs a lookup and an object, so 99,990 distinct
#: passcodes once took 431 MB.
MAX_ENTRIES = 1_000


def too_many_entries(where: str) -> DeckReadError:
    """The error for a deck source holding more than `MAX_ENTRIES` card lines."""
    return DeckReadError(f"{where} holds more than {MAX_ENTRIES:,} card lines, which is no deck; "
                         "check that it is the right file.")

STDIN = "-"
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows


def source_label(source: str | Path) -> str:
    """How a source is named in locations: the path as given, `<stdin>`, or `<url>`."""
    s = str(source)
    if s == STDIN:
        return "<stdin>"
    return s


def read_bytes(source: str | Path) -> bytes:
    """The bytes of a file (or stdin for "-"), refusing anything over `MAX_BYTES`."""
    if str(source) == STDIN:
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise DeckReadError(f"Standard input holds more than {MAX_BYTES // 2**20} MB, which "
                                "is no deck; pass a deck file instead.")
        return data
    if not str(source) or "\0" in str(source):
        raise DeckReadError(f"{str(source)!r} is not a file name; give a deck file, - for "
                            "standard input, or a ydke:// URL.")
    # open first and ask the open file its size: one system call fewer per file than
    # stat-then-open, which counts when an event reads thousands of registrations
    # O_NONBLOCK: opening a FIFO (or a device) named like a deck must not wait for a writer
    # forever; anything but a regular file is then refused below
    try:
        fd = os.open(source, os.O_RDONLY | _NONBLOCK | _BINARY)
    except FileNotFoundError:
        raise DeckReadError(f"{_shown(source)}: no such file; check the path.") from None
    except OSError as exc:
        if os.path.isdir(source):
            raise _folder(source) from None
        raise DeckReadError(f"{_shown(source)}: cannot be read ({exc.strerror}).") from None
    # the descriptor itself, not a file object around it: one object less per deck file
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise _folder(source)
        if not stat.S_ISREG(info.st_mode):
            raise DeckReadError(f"{_shown(source)} is not a regular file (a pipe, socket or "
                                "device); save the deck to a file, or pipe it to - "
                                "(standard input).")
        size = info.st_size
        if size > MAX_BYTES:
            raise DeckReadError(
                f"{_shown(source)} is {size / 2**20:.0f} MB, too large for a deck file "
                f"(limit {MAX_BYTES // 2**20} MB); check that it is the right file.")
        # the size it has (a read of MAX_BYTES would reserve 20 MB for a 2 KB file), and
        # one byte more to notice a file that grew meanwhile; a regular file reads short
        # only at its end, so one read call is enough unless it grew
        data = os.read(fd, size + 1)
        if len(data) > size:
            data += _read_fd(fd, MAX_BYTES + 1 - len(data))
    except OSError as exc:
        raise DeckReadError(f"{_shown(source)}: cannot be read ({exc.strerror}).") from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise DeckReadError(f"{_shown(source)} is too large for a deck file (limit "
                            f"{MAX_BYTES // 2**20} MB); check that it is the right file.")
    return data


def _shown(source: str | Path) -> str:
    """A path as messages show it (as `pathlib` writes it: "decks/x.ydk" for "decks//x.ydk";
    imported only for a message, not by every check)."""
    from pathlib import Path

    return str(Path(source))


def _folder(source: str | Path) -> DeckReadError:
    return DeckReadError(f"{_shown(source)} is a folder, not a deck file; name a file inside it "
                         "(`deckcheck event check` checks a whole folder).")


def _read_fd(fd: int, limit: int) -> bytes:
    """Up to `limit` bytes from `fd` (fewer only at the end of the file)."""
    parts: list[bytes] = []
    got = 0
    while got < limit:
        chunk = os.read(fd, limit - got)
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _has_kana(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" for ch in text)


def _has_han(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _utf16_without_mark(data: bytes) -> str | None:
    """UTF-16 text saved without a byte-order mark (some Windows tools do), recognised by its
    NUL bytes all falling on one side of each pair; None for anything else."""
    if len(data) < 4 or len(data) % 2:
        return None
    head = data[:4096]
    even, odd = head[0::2].count(0), head[1::2].count(0)
    if even and odd:
        return None
    enc = "utf-16-le" if odd > len(head) // 4 else "utf-16-be" if even > len(head) // 4 else None
    if enc is None:
        return None
    try:
        return data.decode(enc)
    except UnicodeDecodeError:
        return None


def decode_text(data: bytes, where: str) -> str:
    """Text from bytes: UTF-8 (with or without BOM), UTF-16 with BOM, else the legacy
    encodings people's editors use: Shift-JIS (if it yields kana), GBK (if it yields Chinese
    characters), then cp1252. Raises DeckReadError when none fits."""
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DeckReadError(f"{where}: starts with a UTF-8 mark but byte {exc.start + 3} "
                                "is not UTF-8; save the file as UTF-8.") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise DeckReadError(f"{where}: starts with a UTF-16 mark but is not valid UTF-16; "
                                "save the file as UTF-8.") from None
    if b"\x00" in data[:4096]:
        text = _utf16_without_mark(data)
        if text is not None:
            return text
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if b"\x00" in data:
        raise DeckReadError(f"{where}: is binary data, not a text deck; check the file.")
    candidates: list[tuple[str, str]] = []
    for enc in ("shift_jis", "gbk", "cp1252"):
        try:
            candidates.append((enc, data.decode(enc)))
        except UnicodeDecodeError:
            continue
    for enc, text in candidates:
        if enc == "shift_jis" and _has_kana(text):
            return text
        if enc == "gbk" and _has_han(text):
            return text
    for enc, text in candidates:
        if enc == "cp1252":
            return text
    raise DeckReadError(f"{where}: is not text in any encoding deckcheck knows (UTF-8, UTF-16, "
                        "Shift-JIS, GBK, cp1252); save the file as UTF-8.")


def split_lines(text: str, where: str) -> list[str]:
    """Lines of a text (any line ending), refusing absurd line counts."""
    # a text shorter than MAX_LINES characters cannot hold more lines (no need to count)
    if len(text) > MAX_LINES and (text.count("\n") > MAX_LINES or text.count("\r") > MAX_LINES):
        raise DeckReadError(f"{where} has more than {MAX_LINES:,} lines, which is no deck; "
                            "check that it is the right file.")
    return text.splitlines()
