"""deckcheck: decide whether a Yu-Gi-Oh! deck is legal, and how well it opens.

    >>> import deckcheck
    >>> pool = deckcheck.open_pool()           # the imported card database, else built-in
    >>> deck = deckcheck.read_deck("deck.ydk", pool)
    >>> report = deckcheck.check(deck, format="tcg", date="2026-11-22", pool=pool)
    >>> result = deckcheck.check_many(["a.ydk", "b.txt", "ydke://…"], format="tcg")
    >>> result.exit_code, [o.error for o in result.unreadable]

The public API is what `__all__` names; everything else is internal and may change.
`import deckcheck` stays cheap: each name is imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckcheck.cards.load import open_pool
    from deckcheck.cards.pool import CardPool
    from deckcheck.checker import Checker, DeckData, check, check_many
    from deckcheck.decks.files import read_deck, read_decks
    from deckcheck.decks.model import Deck, Location
    from deckcheck.errors import (
        BadDate,
        BadOption,
        CardPoolError,
        DeckcheckError,
        DeckReadError,
        FormatError,
        NoListInForce,
        UnknownFormat,
        UnknownRule,
    )
    from deckcheck.reports.model import Checked, CheckResult, Outcome, Report, Violation

#: public name -> the module that defines it
_WHERE: dict[str, str] = {
    "check": "deckcheck.checker",
    "check_many": "deckcheck.checker",
    "Checker": "deckcheck.checker",
    "DeckData": "deckcheck.checker",
    "read_deck": "deckcheck.decks.files",
    "read_decks": "deckcheck.decks.files",
    "open_pool": "deckcheck.cards.load",
    "CardPool": "deckcheck.cards.pool",
    "Deck": "deckcheck.decks.model",
    "Location": "deckcheck.decks.model",
    "CheckResult": "deckcheck.reports.model",
    "Outcome": "deckcheck.reports.model",
    "Checked": "deckcheck.reports.model",
    "Report": "deckcheck.reports.model",
    "Violation": "deckcheck.reports.model",
    "DeckcheckError": "deckcheck.errors",
    "DeckReadError": "deckcheck.errors",
    "CardPoolError": "deckcheck.errors",
    "FormatError": "deckcheck.errors",
    "UnknownFormat": "deckcheck.errors",
    "UnknownRule": "deckcheck.errors",
    "NoListInForce": "deckcheck.errors",
    "BadDate": "deckcheck.errors",
    "BadOption": "deckcheck.errors",
}

__all__ = [
    "BadDate",
    "BadOption",
    "CardPool",
    "CardPoolError",
    "CheckResult",
    "Checked",
    "Checker",
    "Deck",
    "DeckData",
    "DeckReadError",
    "DeckcheckError",
    "FormatError",
    "Location",
    "NoListInForce",
    "Outcome",
    "Report",
    "UnknownFormat",
    "UnknownRule",
    "Violation",
    "check",
    "check_many",
    "open_pool",
    "read_deck",
    "read_decks",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'deckcheck' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
