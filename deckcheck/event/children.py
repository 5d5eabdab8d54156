"""Forked child processes of an event (checking workers, workbook helpers): ended the one way."""

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
