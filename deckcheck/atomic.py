"""Replacing a file in one step: write beside it, then rename over it.

Every file deckcheck writes for keeps (the card database, downloads, banlists, converted
decks, reports) goes through `replacing`, so a reader sees the old file or the new one,
never half of one, and a failure or an interruption leaves the old file as it was.

Only regular files are replaced: a named pipe, a device, a socket or a folder at the path is
refused with one sentence (renaming over `/dev/full` or a FIFO would silently put a regular
file in its place). A symbolic link is written through: the file it points to is replaced
(atomically, beside it) and the link stays a link.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from deckcheck.errors import OutputError

if TYPE_CHECKING:
    from pathlib import Path

_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a folder"))


def not_regular(path: str | os.PathLike[str]) -> str | None:
    """What `path` is when it exists but is no regular file (following symbolic links): "a
    named pipe (FIFO)", "a character device"…; None for a regular file or nothing there."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def refuse_non_regular(path: Path) -> None:
    """`OutputError` when `path` is a pipe, a device, a socket or a folder."""
    what = not_regular(path)
    if what is not None:
        raise OutputError(f"{path} is {what}, not a regular file; deckcheck writes only "
                          "regular files — give the name of a file to write.")


def file_mode(path: Path) -> int:
    """The permissions a written file gets: those of the file it replaces, else 0o666 less the
    umask (not mkstemp's 0o600, which would hide the file from everyone else)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def replacing(path: Path, *, suffix: str = ".tmp") -> Iterator[Path]:
    """Yield a new, empty temporary file beside `path` to write; when the block ends without an
    error, rename it over `path` in one step; on any error (or interruption) delete it.

    An OSError while creating the temporary file names `path`, not the temporary file. A
    `path` that is no regular file is refused (`OutputError`); a symbolic link is written
    through (the file it points to is replaced, the link kept). The new file's bytes reach
    the disk before the rename, so a power cut leaves the old file or the whole new one.
    """
    import tempfile  # only when writing: it and pathlib cost start-up to every command
    from pathlib import Path

    refuse_non_regular(path)
    if path.is_symlink():
        path = Path(os.path.realpath(path))

    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix,
                                   dir=path.parent if str(path.parent) else ".")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    os.close(fd)
    try:
        os.chmod(tmp, file_mode(path))
        yield Path(tmp)
        _flush(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _flush(tmp: str) -> None:
    """The written file's bytes onto the disk (the writers, SQLite's included, may not have
    synced them), so the rename never publishes a file whose blocks are still in memory."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
