"""What differs between two decks, card by card and by section.

A judge compares the registered list with the deck on the table, or a deck before and after
siding. Cards are compared by the pool's canonical passcode, so alternate artworks count as
the same card; entries the pool does not know are compared by passcode as written, and
entries without a passcode by their normalised written name.

    >>> d = diff_decks(registered, played, pool)
    >>> print(format_diff(d))
    Main: Ash Blossom & Joyous Spring 3 → 2 (−1)
    Side: Ash Blossom & Joyous Spring 0 → 1 (+1)
    Moved: Ash Blossom & Joyous Spring ×1 main → side
    Totals: main 40 → 40, extra 15 → 15, side 15 → 15
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.cards.names import normalize
from deckcheck.cards.pool import CardPool
from deckcheck.decks.deckhash import deck_hash as deck_hash  # where it was
from deckcheck.decks.model import SECTIONS, Deck, Entry, Section

#: A card's identity for comparison: ("pc", canonical passcode) or ("name", normalised name).
CardKey = tuple[str, Any]


class CardChange(BaseModel):
    """A card whose count in one section differs."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    section: Section
    card: str
    passcode: int | None = None
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


class CardMove(BaseModel):
    """Copies of a card that left one section and appeared in another."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    card: str
    passcode: int | None = None
    count: int
    from_section: Section
    to_section: Section


class DeckDiff(BaseModel):
    """The difference between deck `a` and deck `b` (what changed going from a to b)."""

    model_config = ConfigDict(extra="forbid")

    a: str
    b: str
    identical: bool
    sizes_a: dict[str, int] = Field(default_factory=dict)
    sizes_b: dict[str, int] = Field(default_factory=dict)
    changes: list[CardChange] = Field(default_factory=list)
    moves: list[CardMove] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


def _key(entry: Entry, pool: CardPool | None) -> CardKey | None:
    if entry.passcode is not None:
        card = pool.get(entry.passcode) if pool is not None else None
        return ("pc", card.passcode if card is not None else entry.passcode)
    if entry.written:
        return ("name", normalize(entry.written))
    return None


def canonical_counts(deck: Deck, pool: CardPool | None) -> dict[Section, Counter[CardKey]]:
    """Copies per card identity in each section, alternate artworks folded together."""
    out: dict[Section, Counter[CardKey]] = {}
    for section in SECTIONS:
        counts: Counter[CardKey] = Counter()
        for entry in deck.section(section):
            key = _key(entry, pool)
            if key is not None:
                counts[key] += entry.count
        out[section] = counts
    return out


def _names(deck: Deck, pool: CardPool | None,
           names: dict[CardKey, tuple[str, int | None]]) -> list[CardKey]:
    """Record a display name per key; return the keys in the order first written."""
    order: list[CardKey] = []
    for _, entry in deck.entries():
        key = _key(entry, pool)
        if key is None:
            continue
        if key not in names:
            if key[0] == "pc":
                card = pool.get(key[1]) if pool is not None else None
                label = card.name if card is not None else (entry.written or str(key[1]))
                names[key] = (label, key[1])
            else:
                names[key] = (entry.written or "?", None)
        order.append(key)
    return order


Names = dict[CardKey, tuple[str, int | None]]
Counts = dict[Section, Counter[CardKey]]


def diff_decks(a: Deck, b: Deck, pool: CardPool | None, *, a_label: str | None = None,
               b_label: str | None = None) -> DeckDiff:
    """Compare two decks section by section (`a` before, `b` after)."""
    ca, cb = canonical_counts(a, pool), canonical_counts(b, pool)
    names: Names = {}
    order = list(dict.fromkeys(_names(a, pool, names) + _names(b, pool, names)))
    changes = _changes(ca, cb, order, names)
    return DeckDiff(
        a=a_label or a.source or a.name or "A", b=b_label or b.source or b.name or "B",
        # an entry that could not be read may be the difference: never call that identical
        identical=not changes and not a.problems and not b.problems,
        sizes_a={s: a.size(s) for s in SECTIONS}, sizes_b={s: b.size(s) for s in SECTIONS},
        changes=changes, moves=_moves(ca, cb, order, names), notes=_unread_notes(a, b))


def _changes(ca: Counts, cb: Counts, order: list[CardKey], names: Names) -> list[CardChange]:
    """Each card whose copies differ in a section, section by section, in written order."""
    changes: list[CardChange] = []
    for section in SECTIONS:
        for key in order:
            before, after = ca[section].get(key, 0), cb[section].get(key, 0)
            if before != after:
                label, pc = names[key]
                changes.append(CardChange(section=section, card=label, passcode=pc,
                                          before=before, after=after))
    return changes


def _moves(ca: Counts, cb: Counts, order: list[CardKey], names: Names) -> list[CardMove]:
    """Copies that left one section and came into another (a card moved, e.g. to Side)."""
    moves: list[CardMove] = []
    for key in order:
        lost = {s: ca[s].get(key, 0) - cb[s].get(key, 0) for s in SECTIONS}
        gained = {s: -n for s, n in lost.items() if n < 0}
        lost = {s: n for s, n in lost.items() if n > 0}
        for src, n_lost in lost.items():
            for dst in list(gained):
                n = min(n_lost, gained[dst])
                if n <= 0:
                    continue
                label, pc = names[key]
                moves.append(CardMove(card=label, passcode=pc, count=n, from_section=src,
                                      to_section=dst))
                n_lost -= n
                gained[dst] -= n
    return moves


def _unread_notes(a: Deck, b: Deck) -> list[str]:
    """One note per deck holding entries that could not be read (they are not compared)."""
    notes = []
    for label, deck in (("A", a), ("B", b)):
        if deck.problems:
            n = len(deck.problems)
            first = str(deck.problems[0].location) or deck.source or deck.name or label
            at = f"{first}{', …' if n > 1 else ''}"
            notes.append(f"{label} has {n} entr{'y' if n == 1 else 'ies'} ({at}) that could "
                         f"not be read and {'is' if n == 1 else 'are'} not compared.")
    return notes


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}"


def format_diff(d: DeckDiff) -> str:
    """The diff for people: one line per change, moves, totals; or that they are identical."""
    sizes = ", ".join(f"{s} {d.sizes_a.get(s, 0)}" for s in SECTIONS)
    if d.identical:
        lines = [f"The decks are identical ({sizes})."]
    elif not d.changes:
        lines = [f"The cards that could be read are the same ({sizes}), but not every entry "
                 "could be read, so the decks may still differ."]
    else:
        lines = [f"{c.section.capitalize()}: {c.card} {c.before} \u2192 {c.after} "
                 f"({_signed(c.delta)})" for c in d.changes]
        lines += [f"Moved: {m.card} \u00d7{m.count} {m.from_section} \u2192 {m.to_section}"
                  for m in d.moves]
        totals = ", ".join(f"{s} {d.sizes_a.get(s, 0)} \u2192 {d.sizes_b.get(s, 0)}"
                           for s in SECTIONS)
        lines.append(f"Totals: {totals}")
    lines += [f"note: {note}" for note in d.notes]
    return "\n".join(lines)

