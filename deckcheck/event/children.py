"""Forked child processes of an event (checking workers, workbook helpers): ended the one way,
and their pipes read the one way."""

from __future__ import annotations

import os


def reap(pid: int, *, stop: bool) -> None:
    """Wait for the child `pid` to end; `stop`: kill it first (the event failed, its work is
    not wanted). A child already gone is no error."""
    if stop:
        try:
            os.kill(pid, 9)
        except OSError:  # pragma: no cover - already gone
            pass
    os.waitpid(pid, 0)


def read_pipe(fd: int, n: int) -> bytes:
    """`n` bytes from the pipe `fd` (fewer at its end: the child stopped), read as they come:
    nothing read ahead that a `select` on the pipe would not see."""
    parts = []
    while n > 0:
        part = os.read(fd, min(n, 1 << 20))
        if not part:
            break
        parts.append(part)
        n -= len(part)
    return b"".join(parts)
