"""Fixtures for the simulation tests; hand-made cards and decks are in `simkit` (this folder
is put on sys.path so the tests can `import simkit`)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
