"""Fresh random seeds, printed so a run can be repeated (a module of its own: `odds` needs
one without loading the test draws)."""

from __future__ import annotations

import random


def new_seed() -> int:
    """A random seed small enough to type back in."""
    return random.SystemRandom().randrange(1, 10**9)
