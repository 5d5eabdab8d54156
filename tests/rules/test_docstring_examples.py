"""Every rule's docstring examples, run through the checker: the Passing example yields no
violation of the rule, the Failing one yields the codes its `-> DCxxx name:` lines show.

What an example block may hold (the docstrings' own notation):
- `#main`, `#extra`, `#side` (optionally followed by `(N cards)` or `(N to M cards …)`: that
  many filler cards in the section) and passcode lines `14558127 ×2    (a comment)`;
- under a heading naming "a text decklist" or "a spreadsheet": the lines of that file (cells
  split at ` | `), read by deckcheck's reader;
- other lines (prose such as "an OCG-only card") are not run; a block with no section is
  prose, and its rule must be on `PROSE`;
- `-> DCxxx name: …` lines: what the example yields.
The cards are facts from `rulekit` (plus the few more the examples name); the block's heading
picks the format: "(… TCG)", "(Genesys)", "(cap N)", "(GOAT)", "(Speed Duel)" (with "a group":
`test_limit_group`'s), "as of DATE".
Only the documented rule runs (`select=[CODE]`), so sizes and other rules stay out of it.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from rulekit import (
    ALL,
    ASH,
    DAY,
    FILLER,
    KURIBOH,
    NEW,
    POT,
    XFILLER,
    card,
    entries,
    speed,
    tcg,
)
from test_limit_group import fmt as speed_with_group
from test_not_in_card_pool import goat
from test_points_over_cap import genesys

from deckcheck.cards.model import Frame
from deckcheck.cards.pool import MemoryPool
from deckcheck.checker import check
from deckcheck.decks.files import read_deck
from deckcheck.decks.model import Deck
from deckcheck.formats.model import Banlist, BanlistEntry
from deckcheck.rules.registry import RULES

#: Rules whose examples are still prose (no deck to run): shrink this list, never grow it.
PROSE = {
    "DC402": "not-yet-released: 'a card released on …'",
}

#: The cards the examples name that rulekit does not hold (facts: passcode, name, frame).
MORE = [card(100000101, "Ojamandala", Frame.SPELL, scopes=frozenset({"anime"})),
        card(12345678, "Test Official Card")]
#: The TCG list the examples mean: Pot of Greed Forbidden, Ash Blossom Limited, Kuriboh
#: Semi-Limited.
DOC_LIST = Banlist(name="2026.05 TCG", format="tcg", effective=dt.date(2026, 5, 18),
                   entries=[BanlistEntry(passcode=POT.passcode, limit=0),
                            BanlistEntry(passcode=ASH.passcode, limit=1),
                            BanlistEntry(passcode=KURIBOH.passcode, limit=2)])

_HEADING = re.compile(r"^(Passing|Failing)\b(.*)::\s*$")
_SECTION = re.compile(r"^#(main|extra|side)\b\s*(.*)$")
_CARD = re.compile(r"^(\d+)(?:\s*×(\d+))?(?:\s|$)")
_FILL = re.compile(r"^\((\d+)(?: to \d+)? (?:other )?cards\b")
_YIELDS = re.compile(r"^-> (DC\d{3}) ([a-z0-9-]+):")


class Example:
    def __init__(self, code: str, kind: str, heading: str) -> None:
        self.code, self.kind, self.heading = code, kind, heading
        self.lines: list[str] = []

    @property
    def expected(self) -> list[tuple[str, str]]:
        return [(m[1], m[2]) for line in self.lines if (m := _YIELDS.match(line))]

    def deck_lines(self) -> list[str]:
        return [line for line in self.lines if not line.startswith("->") and line[:1] != " "]


def examples(code: str) -> list[Example]:
    """The Passing and Failing blocks of a rule's docstring, each block's lines dedented."""
    out: list[Example] = []
    current: Example | None = None
    heading = ""
    for raw in (RULES[code].__doc__ or "").splitlines():
        if m := _HEADING.match(raw):
            heading = m[2] if m[2].strip() else heading  # "Failing::" keeps the format
            current = Example(code, m[1], heading)
            out.append(current)
        elif current is not None and raw.startswith("    "):
            current.lines.append(raw[4:])
        elif current is not None and raw.strip():
            current = None
    return out


def _format(heading: str) -> Any:
    if "Genesys" in heading or "cap" in heading:
        return genesys()
    if "GOAT" in heading:
        return goat()
    if "Speed Duel" in heading and "group" in heading:
        return speed_with_group()
    if "Speed Duel" in heading:
        return speed()
    return tcg(history=[DOC_LIST])


def _date(heading: str) -> dt.date:
    m = re.search(r"as of (\d{4}-\d{2}-\d{2})", heading)
    return dt.date.fromisoformat(m[1]) if m else DAY


def build(example: Example, tmp_path: Path, pool: MemoryPool) -> Deck | None:
    """The example's deck, or None when it holds no deck (prose)."""
    lines = example.deck_lines()
    for kind, suffix in (("text decklist", ".txt"), ("spreadsheet", ".csv")):
        if kind in example.heading:
            rows = [re.sub(r"\s{2,}\(.*$", "", line) for line in lines if line.strip()]
            if suffix == ".csv":
                rows = [row.replace(" | ", ",") for row in rows]
            path = tmp_path / f"deck{suffix}"
            path.write_text("\n".join(rows) + "\n", encoding="utf-8")
            return read_deck(path, pool)
    sections: dict[str, list[tuple[Any, int]]] = {"main": [], "extra": [], "side": []}
    section = None
    cards = prose = 0
    for line in lines:
        if m := _SECTION.match(line):
            section, line = m[1], m[2]
        if section is None or not line.strip():
            continue
        if m := _CARD.match(line):
            sections[section].append((int(m[1]), int(m[2] or 1)))
            cards += 1
        elif m := _FILL.match(line):
            fillers = XFILLER if section == "extra" else FILLER
            sections[section] += [(c, 1) for c in fillers[: int(m[1])]]
            cards += 1
        elif not line.startswith("("):
            prose += 1
    if section is None or (prose and not cards):
        return None  # prose, or only prose under its sections ("A ×2, B ×1")
    m = entries(sections["main"], "main", 2)
    x = entries(sections["extra"], "extra", len(m) + 3)
    s = entries(sections["side"], "side", len(m) + len(x) + 4)
    return Deck(name="deck", source="deck.ydk", main=m, extra=x, side=s)


def _pool() -> MemoryPool:
    return MemoryPool([*ALL, *MORE], extra_ids={100200300: 12345678, 100429001: NEW.passcode})


CASES = [(code, i) for code in RULES for i in range(len(examples(code)))]


@pytest.mark.parametrize(("code", "index"), CASES)
def test_docstring_example_runs(code: str, index: int, tmp_path: Path) -> None:
    example = examples(code)[index]
    pool = _pool()
    deck = build(example, tmp_path, pool)
    if deck is None:
        assert code in PROSE, (f"{code}'s {example.kind} example holds no deck: write it "
                               "with #main/#extra/#side and passcodes (see this test's doc)")
        pytest.skip(f"{code}: prose example ({PROSE[code]})")
    report = check(deck, _format(example.heading), _date(example.heading), pool=pool,
                   select=[code])
    got = [(v.code, v.name) for v in report.violations]
    if example.kind == "Passing":
        assert got == [], [v.message for v in report.violations]
    else:
        assert example.expected, "a Failing example shows what it yields (-> DCxxx name:)"
        assert sorted(set(got)) == sorted(set(example.expected)), [
            v.message for v in report.violations]


def test_every_rule_has_both_examples_and_prose_list_is_exact(tmp_path: Path) -> None:
    pool = _pool()
    prose = set()
    for code in RULES:
        kinds = [e.kind for e in examples(code)]
        assert "Passing" in kinds and "Failing" in kinds, code
        if any(build(e, tmp_path, pool) is None for e in examples(code)):
            prose.add(code)
    assert prose == set(PROSE), "a rule's examples became runnable: take it off PROSE"
