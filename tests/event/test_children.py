"""`event.children.reap`: how the event ends a forked child, kept or stopped."""

from __future__ import annotations

import os
import signal

import pytest

from deckcheck.event.children import reap

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def _child(code: int, wait: bool) -> int:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        if wait:
            signal.pause()
        os._exit(code)
    return pid


def test_a_kept_child_is_waited_for_and_gone() -> None:
    pid = _child(0, wait=False)
    reap(pid, stop=False)
    with pytest.raises(ChildProcessError):  # reaped: no zombie left to wait for
        os.waitpid(pid, 0)


def test_a_stopped_child_that_would_never_end_is_killed() -> None:
    pid = _child(0, wait=True)
    reap(pid, stop=True)  # without the kill this would wait forever
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)


def test_a_child_that_ended_by_itself_is_stopped_without_error() -> None:
    pid = _child(3, wait=False)
    while os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT) is None:  # ended, not reaped
        pass  # pragma: no cover
    reap(pid, stop=True)
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)
