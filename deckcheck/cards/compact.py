"""A speed trick behind one small interface: a card's compact row (the store's ``cards.facts``
column, schema 5) and the card built from it.

A check reads few of a card's fields: its kind, frame, alternate passcodes, scopes, release
dates, name, rule name and copy-limit key. `stored_facts` writes them as one tab-separated
line; `card_from_row` builds a `RowCard` from that line alone, and the card fills in its
other fields (text, names in other languages, stats…) from the store the first time one is
read. Measured on the store of every card source (`benchmarks/bench_check.py`, cold cards:
11,817 different cards over 3,753 real decks): 3.5 µs a card from its row against 13.8 µs
decoding its JSON, so building cards from their JSON would add ~30 µs a deck and break the
goal that the first look at the cards adds at most 15% to a check (1.13x with the row).

The interface: `stored_facts(card_json, key)` (the import writes it, and the built-in pool's
facts file holds it: `cards.builtin.facts_text`), `card_from_row(passcode, facts, store)` (both
pools read it; `store.stored_card(passcode)` gives the full card), and `ROW_FIELDS` (what the
row holds: a field a check starts to read joins it, with a schema bump and the built-in files
regenerated).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Protocol

from deckcheck.cards.model import FRAME_OF, KIND_OF, NO_SCOPES, Card, rule_key_of

__all__ = ["ROW_FIELDS", "RowCard", "card_from_row", "stored_facts"]

#: What `card_from_row` sets from a compact row; the other fields fill in from the store.
ROW_FIELDS = ("passcode", "alt_passcodes", "name", "kind", "frame", "released", "scopes",
              "rule_name")
_LAZY_FIELDS = tuple(f for f in Card.model_fields if f not in ROW_FIELDS)


class Store(Protocol):
    """What a `RowCard` fills in from: the full card of a (main) passcode."""

    def stored_card(self, passcode: int) -> Card: ...


class RowCard(Card):
    """A `Card` built from its compact row (`card_from_row`): the fields a check reads are
    set; reading any other fills them all in from the store (`Store.stored_card`), once. It
    equals, hashes, pickles and copies as the full card."""

    __slots__ = ("_stored",)
    _stored: Store

    def __getattr__(self, name: str) -> Any:
        """Called only for a slot that is not set: the fields the row lacks, read from the
        store on first use."""
        if name not in _LAZY_SET:
            raise AttributeError(name)
        try:
            store = object.__getattribute__(self, "_stored")
        except AttributeError:
            raise AttributeError(name) from None
        full = store.stored_card(self.passcode)
        for field in _LAZY_FIELDS:
            object.__setattr__(self, field, object.__getattribute__(full, field))
        try:
            object.__delattr__(self, "_stored")  # the store is no longer needed
        except AttributeError:  # another thread filled it at the same time
            pass
        return object.__getattribute__(self, name)


_LAZY_SET = frozenset(_LAZY_FIELDS)
_fromiso = dt.date.fromisoformat


def stored_facts(d: dict[str, Any], key: str | None = None) -> str:
    """The compact form of a stored card (the store's ``cards.facts`` column, schema 5):
    everything a check reads of a card, one tab-separated line read without the card's JSON
    (`card_from_row`): kind, frame, alternate passcodes ("1,2"), scopes ("a,b"), release
    dates ("tcg=2020-01-02,ocg=…"), the copy-limit key (`Card.rule_key`: no whitespace), then
    the name and the rule name: the length of the name and both run together, or, when they
    are the same (most cards), nothing and the name once. `key`: the normalised rule name,
    when the caller has it already (`rule_key_of` otherwise)."""
    get = d.get
    # each part joined only when the card has some (most have no alternate artwork, scope
    # or date): `str.join` of an empty sequence is "" anyway
    alts = ",".join(map(str, a)) if (a := get("alt_passcodes")) else ""
    scopes = ",".join(sorted(sc)) if (sc := get("scopes")) else ""
    released = ",".join([f"{k}={v}" for k, v in r.items()]) if (r := get("released")) else ""
    name, rule_name = d["name"], d["rule_name"]
    key = rule_key_of(rule_name) if key is None else key or rule_name
    names = f"\t{name}" if rule_name == name else f"{len(name)}\t{name}{rule_name}"
    return f"{d['kind']}\t{d['frame']}\t{alts}\t{scopes}\t{released}\t{key}\t{names}"


def released_days(cell: str) -> dict[str, dt.date]:
    """The release dates of a stored or built-in row's cell, "tcg=2002-03-08,ocg=…" (regions
    and days taking turns), by region ({} for ""): a new dict, made from the one remembered
    for the cell (the cards of a set share theirs: ~4,000 cells for ~24,000 cards)."""
    if not cell:
        return {}
    try:
        return dict(_RELEASED[cell])
    except KeyError:
        pass
    parts = cell.replace("=", ",").split(",")
    days = dict(zip(parts[::2], map(_fromiso, parts[1::2]), strict=True))
    if len(_RELEASED) >= 50_000:  # bounded, whatever the pool
        _RELEASED.clear()
    _RELEASED[cell] = days
    return dict(days)


#: release-date cells already read (`released_days`), never handed out themselves
_RELEASED: dict[str, dict[str, dt.date]] = {}


def forget_released() -> None:
    """Forget the release-date cells read so far, as a new process starts (a benchmark's
    fresh card pool)."""
    _RELEASED.clear()


def card_from_row(passcode: int, facts: str, store: Store) -> Card:
    """A `RowCard` from a store's compact row (`stored_facts`) without its JSON: the slots a
    check reads (`ROW_FIELDS`, and the rule name's key) are set from the row; the others are
    filled the first time one is read, from `store.stored_card(passcode)`, so a check that
    never reads a card's text never reads or decodes its JSON. The card equals
    `card_from_stored` of the same JSON."""
    kind, frame, alts, scopes, released, key, n, names = facts.split("\t", 7)
    card = object.__new__(RowCard)
    card.passcode = passcode
    card.alt_passcodes = tuple(map(int, alts.split(","))) if alts else ()
    if n:
        cut = int(n)
        card.name, card.rule_name = names[:cut], names[cut:]
    else:
        card.name = card.rule_name = names
    card.kind = KIND_OF[kind]
    card.frame = FRAME_OF[frame]
    card.released = released_days(released)
    card.scopes = frozenset(scopes.split(",")) if scopes else NO_SCOPES
    card._rule_key = key
    card._stored = store
    return card
