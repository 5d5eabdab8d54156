"""One way to pause Python's cyclic garbage collector around bulk work."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused(*, until_exit: bool = False) -> Iterator[None]:
    """No cyclic garbage collection inside the block; restored afterwards (if it was on).

    For work that builds many small objects holding no reference cycles — importing a card
    dump (about 2x faster), checking an event's registrations (a fifth of the time) and
    rendering its workbook (a third): the collector would otherwise walk everything already
    built, again and again, as it grows.

    `until_exit`: in the `deckcheck` program (`pause_startup` ran), for a command's last work,
    the collector stays off after the block and what the block built is frozen: turning the
    collector on would only start one last collection of everything the block built (~1 ms),
    and the collection Python makes at exit would walk it all once more (~13 ms once NumPy is
    loaded)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if until_exit and _program:
            gc.freeze()  # the process ends with this command: nothing left to collect
        elif was:
            gc.enable()


#: Whether `pause_startup` paused the collector and `resume_startup` has not yet resumed it.
_startup_paused = False
#: Whether this process is the `deckcheck` program (`pause_startup` ran): its command's work
#: ends the process.
_program = False


def pause_startup() -> None:
    """Pause the collector while a program starts: importing builds tens of thousands of
    objects that live as long as the process (modules, classes, functions), which it would
    walk again and again for nothing (~4 ms of a cold `deckcheck check`). The program's entry
    calls this first; `resume_startup` ends the pause."""
    global _startup_paused, _program
    _program = True
    if gc.isenabled():
        gc.disable()
        _startup_paused = True


def resume_startup() -> None:
    """End `pause_startup`'s pause (nothing if there was none): what start-up built is frozen
    out of the collector's way (`gc.freeze`: it would only walk it again), then the collector
    is back on for the work to come."""
    global _startup_paused
    if _startup_paused:
        _startup_paused = False
        gc.freeze()
        gc.enable()
