"""Replacing a file in one step: write beside it, then rename over it.

Every file deckcheck writes for keeps (the card database, downloads, banlists, converted
decks, reports) goes through `replacing`, so a reader sees the old file or the new one,
never half of one, and a failure or an interruption leaves the old file as it was.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


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

    An OSError while creating the temporary file names `path`, not the temporary file.
    """
    import tempfile  # only when writing: it costs start-up to every command

    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix,
                                   dir=path.parent if str(path.parent) else ".")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    os.close(fd)
    try:
        os.chmod(tmp, file_mode(path))
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
