"""The card pool: card model, names, the SQLite store and the built-in card set."""

from __future__ import annotations

from deckcheck.cards.model import Card, Frame, Kind

__all__ = ["Card", "Frame", "Kind"]
