"""The text reader's line patterns run in one pass (issue 21): a line of "a (", many spaces
and "x 3" cost time quadratic in its length (3.0 s CPU for 200 KB). The readings are those
of the old patterns (kept here as the reference), found by matching name-first patterns
backwards."""

from __future__ import annotations

import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks import text
from deckcheck.decks.text import read_text

OLD = (
    (re.compile(r"([+-]?[0-9]{1,4})\s*[x×*]\s*(.+)", re.I), False),
    (re.compile(r"([+-]?[0-9]{1,4})\s+(.+)"), False),
    (re.compile(r"[x×*]\s*([+-]?[0-9]{1,4})\s+(.+)", re.I), False),
    (re.compile(r"(.+?)\s*[x×*]\s*([+-]?[0-9]{1,4})", re.I), True),
    (re.compile(r"(.+?)\s*[(\[（]\s*[x×]?\s*([+-]?[0-9]{1,4})\s*[x×]?\s*[)\]）]", re.I), True),
)
OLD_WEAK = re.compile(r"(.+?)\s*[-–—:=]\s*([0-9]{1,2})")


def old_readings(line: str) -> list[tuple[str, str]]:
    out = []
    for pattern, name_first in OLD:
        m = pattern.fullmatch(line)
        if m:
            out.append((m.group(2), m.group(1)) if name_first else (m.group(1), m.group(2)))
    return out


LINES = st.text(alphabet=st.sampled_from("ax X×*3019+- ()[]（）:=—\t"), min_size=1,
                max_size=24).map(str.strip).filter(bool)


@settings(max_examples=3000, deadline=None, database=None)
@given(LINES)
def test_the_same_readings_as_the_old_patterns(line: str) -> None:
    assert list(text._readings(line)) == old_readings(line)
    weak = OLD_WEAK.fullmatch(line)
    assert text._name_then(text._WEAK, line, line[::-1]) == (
        (weak.group(2), weak.group(1)) if weak else None)


def test_examples() -> None:
    assert list(text._readings("Ash Blossom & Joyous Spring x3")) == [
        ("3", "Ash Blossom & Joyous Spring")]
    assert list(text._readings("Pot of Greed (x 2)")) == [("2", "Pot of Greed")]
    assert list(text._readings("3x Pot of Greed")) == [("3", "Pot of Greed")]


def _cpu(page: str, pool: MemoryPool, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        read_text(page, pool, "x.txt")
        best = min(best, time.process_time() - t)
    return best


def test_cost_grows_linearly_with_the_line(pool: MemoryPool) -> None:
    """Scaling, not a time limit: lines 7x as long cost at most about 7x (measured: ~0.5x,
    the per-line work dominates; the old patterns cost ~22x, quadratic). Lines stay under
    the reader's 200-character cut-off."""
    def page(spaces: int) -> str:
        return ("a (" + " " * spaces + "x 3\n") * 200

    ratio = _cpu(page(190), pool) / max(_cpu(page(26), pool), 1e-6)
    assert ratio < 8, f"{ratio:.1f}x for lines 7x as long"


def test_a_page_of_such_lines_is_read_line_by_line(pool: MemoryPool) -> None:
    deck = read_text(("a (" + " " * 190 + "x 3\n") * 50 + "3 Ash Blossom & Joyous Spring\n", pool,
                     "x.txt")
    assert [(e.passcode, e.count) for e in deck.main] == [(14558127, 3)]
    assert len(deck.problems) == 50
