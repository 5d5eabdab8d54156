"""`deck_hash`: a short stable hash of a normalised deck (the event report's and the desk's
"same deck" flag; the desk stores it, so its text never changes).

Apart from `deckcheck.decks.diff` (pydantic models for the diff) so that checking an event,
which hashes every registration, never imports pydantic (~0.1 s of its start-up).
"""

from __future__ import annotations

import hashlib

from deckcheck.cards.names import normalize
from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import Deck


def deck_hash(deck: Deck, pool: CardPool | None, canonical: dict[int, int] | None = None) -> str:
    """A short stable hash of the normalised deck: equal for the same cards in the same
    sections, whatever the file format, order, artwork or line endings.

    `canonical` (passcode as written -> the pool's passcode) is filled as cards are looked
    up; pass the same dict for every deck of a run so each passcode is looked up once."""
    canon: dict[int, int] = {} if canonical is None else canonical
    parts = []
    for section, entries in (("main", deck.main), ("extra", deck.extra), ("side", deck.side)):
        counts: dict[int, int] = {}
        names: dict[str, int] = {}
        for e in entries:
            pc = e.passcode
            if pc is not None:
                c = canon.get(pc)
                if c is None:
                    card = pool.get(pc) if pool is not None else None
                    c = canon[pc] = card.passcode if card is not None else pc
                counts[c] = counts.get(c, 0) + e.count
            elif e.written:
                key = normalize(e.written)
                names[key] = names.get(key, 0) + e.count
        # the text hashed is that of the first version: hashes stay comparable across runs
        named = repr(sorted(names.items())) if names else "[]"
        parts.append(f"{section}={_counts_repr(counts)}{named}")
    return hashlib.sha256(";".join(parts).encode()).hexdigest()[:12]


#: passcode -> "(passcode, " and copies -> "copies)": the pieces of `_counts_repr`.
_KEY_TEXT: dict[int, str] = {}
_COUNT_TEXT = {n: f"{n})" for n in range(100)}


def _counts_repr(counts: dict[int, int]) -> str:
    """`repr(sorted(counts.items()))` from remembered pieces: writing out the ints is most
    of the cost of hashing a deck, and an event hashes every registration."""
    keys = sorted(counts)
    try:
        return "[" + ", ".join([_KEY_TEXT[k] + _COUNT_TEXT[counts[k]] for k in keys]) + "]"
    except (KeyError, TypeError):  # a passcode not seen yet (or an unusual count)
        if len(_KEY_TEXT) > 100_000:  # bounded, whatever the pool
            _KEY_TEXT.clear()
        for k in keys:
            if type(k) is int:
                _KEY_TEXT.setdefault(k, f"({k}, ")
        try:
            return "[" + ", ".join([_KEY_TEXT[k] + _COUNT_TEXT[counts[k]] for k in keys]) + "]"
        except (KeyError, TypeError):
            return repr(sorted(counts.items()))
