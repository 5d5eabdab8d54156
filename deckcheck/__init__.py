"""deckcheck: decide whether a Yu-Gi-Oh! deck is legal, and how well it opens.

    >>> import deckcheck
    >>> report = deckcheck.check(deck, format="tcg", date="2026-11-22")

`import deckcheck` stays cheap: `check` is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckcheck.checker import check

__all__ = ["check"]


def __getattr__(name: str) -> Any:
    if name == "check":
        from deckcheck.checker import check

        return check
    raise AttributeError(f"module 'deckcheck' has no attribute {name!r}")
