"""Totals rows written in a table ("Total Monster Cards | 20", "Extra Deck (15)"): the copies
listed are counted as the rows are read, and each written total that differs from them
becomes a `ReadProblem` once the whole table is read (see `decks/tabular.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckcheck.cards.names import normalize
from deckcheck.decks.model import Deck, Location, ReadProblem, Section
from deckcheck.decks.resolve import TOTAL_WORDS, section_word, split_trailing_count

#: Copies listed per (section, Main Deck part); None when a count there did not read.
ByGroup = dict[tuple[Section | None, str | None], int | None]


@dataclass
class WrittenTotal:
    """A totals row as written ("Total Monster Cards | 20"): what it sums and where."""

    label: str
    number: int
    location: Location
    #: "rows": the rows since the last marker; "group" or "section": named by the label.
    scope: str
    section: Section | None = None
    group: str | None = None
    #: Counts that agree with the total where it stands (the rows since the last marker, the
    #: group's rows in this block); the deck-wide count of the group or section also agrees.
    local: tuple[int, ...] = ()


@dataclass
class BlockTally:
    """The copies listed in one block of a table (None: one count there did not read)."""

    #: Since the last section row or totals row.
    since: int | None = 0
    #: In this block, in all.
    listed: int | None = 0
    #: In this block per Main Deck part.
    by_group: ByGroup = field(default_factory=dict)


def _plus(total: int | None, n: int | None) -> int | None:
    return None if n is None or total is None else total + n


@dataclass
class Totals:
    """The copies listed in the whole table, and the totals written in it."""

    by_group: ByGroup = field(default_factory=dict)
    #: Copies listed in the whole table so far (None: one count unreadable).
    listed: int | None = 0
    written: list[WrittenTotal] = field(default_factory=list)

    def tally(self, block: BlockTally, section: Section | None, group: str | None,
              count: int | str) -> None:
        """Count a row's copies for the totals rows (a count that does not read spoils them)."""
        n = count if isinstance(count, int) else None
        block.since = _plus(block.since, n)
        key = (section, group)
        self.listed = _plus(self.listed, n)
        block.listed = _plus(block.listed, n)
        for tally in (self.by_group, block.by_group):
            if key not in tally or tally[key] is not None:
                tally[key] = None if n is None else (tally.get(key) or 0) + n

    def note(self, label: str, cells: list[tuple[int | None, Any]], where: Any,
             block: BlockTally) -> None:
        """Remember a totals row that states a number, to cross-check it once all is read.
        `cells`: the row's (column, value) in the block's quantity, name and passcode columns;
        `where(column)`: the location of a cell of the row."""
        number, col = _stated_number(cells)
        text, trailing = split_trailing_count(label)
        if number is None:
            number = trailing
            col = next((c for c, v in (cells[1], cells[0], cells[2]) if v == label), None)
        listed, block.since = block.since, 0
        if number is None or col is None:
            return
        rest = " ".join(w for w in text.replace(":", " ").replace("：", " ").split()
                        if normalize(w) not in TOTAL_WORDS)
        at = where(col)
        if not rest or normalize(rest) in ("cards", "card"):
            # the rows since the last marker, or a grand total of the block or the table
            if listed:
                self.written.append(WrittenTotal(
                    label, number, at, "rows",
                    local=(listed, *(n for n in (block.listed, self.listed) if n))))
            return
        hit = section_word(rest)
        if hit is None:
            return
        local = tuple(n for n in (listed, block.by_group.get(hit)) if n)
        self.written.append(WrittenTotal(
            label, number, at, "group" if hit[1] is not None else "section", hit[0], hit[1],
            local=local))

    def check(self, deck: Deck) -> None:
        """A problem for each written total that differs from the copies listed."""
        for t in self.written:
            if t.scope == "rows":
                listed: int | None = t.local[0]
            elif t.scope == "group":
                listed = self.by_group.get((t.section, t.group), 0)
            else:
                listed = self._section_listed(deck, t.section)
            if listed is None or listed == t.number or t.number in t.local:
                continue
            what = t.label if len(t.label) <= 40 else t.label[:37] + "..."
            deck.problems.append(ReadProblem(
                kind="written-total", section=t.section, written=what, count=t.number,
                location=t.location,
                message=f"The total written at {t.location.cell} ({what!r}) is {t.number}, but "
                        f"{'1 card is' if listed == 1 else f'{listed} cards are'} listed; "
                        "correct the total or the list."))

    def _section_listed(self, deck: Deck, section: Section | None) -> int | None:
        if any(k[0] == section and v is None for k, v in self.by_group.items()):
            return None
        assert section is not None
        unknown = sum(p.count or 0 for p in deck.problems if p.kind in (
            "unknown-name", "ambiguous-name") and (p.section or "main") == section)
        return deck.size(section) + unknown


def _stated_number(cells: list[tuple[int | None, Any]]) -> tuple[int | None, int | None]:
    """The first number among a totals row's cells (digits up to 4 long count), and its
    column."""
    for c, v in cells:
        if isinstance(v, str) and v.strip().isascii() and v.strip().isdigit() \
                and len(v.strip()) <= 4:
            v = int(v)
        if isinstance(v, int) and not isinstance(v, bool):
            return v, c
    return None, None
