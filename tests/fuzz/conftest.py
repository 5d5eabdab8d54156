"""The fuzz tests share the deck tests' hand-made card pool and hostile-file builders, and
report how many cases ran at the end of the session."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent.parent / "decks"))
sys.path.insert(0, str(Path(__file__).parent))
from fuzzcount import CASES  # type: ignore[import-not-found]  # noqa: E402


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if CASES:
        per = ", ".join(f"{k} {v}" for k, v in sorted(CASES.items()))
        terminalreporter.write_line(f"fuzz: {sum(CASES.values())} reader cases ({per}); each "
                                    "gave a deck or one DeckReadError sentence within its "
                                    "time and memory bounds")
