"""How many copies of a card the deck needs: the success rate with 0 to 3 copies of it, the
deck's size kept by swapping blanks (cards no condition counts and nothing plays) or a
named card in and out, and the smallest count that reaches a target, per seat.

Exact where the exact engine answers every count; otherwise every count by Monte Carlo on
common random numbers (the same seed and hand count), so the curve is smooth.
"""

from __future__ import annotations

from typing import Any, Literal

from deckcheck.cards.names import normalize
from deckcheck.errors import ProfileError, SimError
from deckcheck.plain import Plain
from deckcheck.sim.goldfish.compiled import CompiledProfile

#: The most copies of a card a deck may hold.
MOST = 3


class CopiesRow(Plain):
    """The turn-1 success rate with `copies` copies, per seat (first, second; None where
    the seat was not asked), exact or Monte Carlo with its 95% interval."""

    __slots__ = ("copies", "rates", "lows", "highs")

    def __init__(self, copies: int, rates: list[float], lows: list[float | None],
                 highs: list[float | None]) -> None:
        self.copies = copies
        self.rates = rates
        self.lows = lows
        self.highs = highs


class CopiesResult(Plain):
    __slots__ = ("card", "now", "swap", "target", "seats", "method", "hands", "rows",
                 "smallest")

    def __init__(self, card: str, now: int, swap: str, target: float, seats: list[str],
                 method: Literal["exact", "monte-carlo"], hands: int | None,
                 rows: list[CopiesRow], smallest: list[int | None]) -> None:
        self.card = card
        self.now = now
        self.swap = swap
        self.target = target
        self.seats = seats
        self.method = method
        self.hands = hands
        self.rows = rows
        #: Per seat: the smallest count reaching the target (None: not with 3 copies).
        self.smallest = smallest


def parse_target(text: str) -> float:
    """"90%", "90" or "0.9" -> 0.9."""
    t = text.strip().removesuffix("%").strip()
    try:
        v = float(t)
    except ValueError:
        raise SimError(f"--target {text!r} is not a percentage; write it like 90%.") from None
    if v > 1 or text.strip().endswith("%"):
        v /= 100
    if not 0 < v <= 1:
        raise SimError(f"--target {text!r} is not between 0% and 100%; write it like 90%.")
    return v


def _class_of(cp: CompiledProfile, written: str, what: str) -> tuple[str, int]:
    key = normalize(written)
    for name, c in cp.class_of_name.items():
        if normalize(name) == key:
            return name, c
    raise ProfileError(f"{what} {written!r} is not in the Main Deck; add one copy of it first "
                       f"(or check the spelling).")


def copies_curve(cp: CompiledProfile, card: str, *, target: float = 0.9,
                 swap: str | None = None, seats: tuple[bool, ...] = (False, True),
                 mode: Literal["auto", "exact", "mc"] = "auto", hands: int | None = None,
                 seed: int = 0) -> CopiesResult:
    """The success rate (turn 1) with 0..3 copies of `card`, the deck's size kept by taking
    blanks (or `swap`) out as copies go in; and per seat the smallest count reaching
    `target`."""
    from deckcheck.sim.goldfish.report import SENSITIVITY_HANDS, _At, _exact_at, success_at

    name, cx = _class_of(cp, card, "--copies")
    now = cp.classes[cx].cards[name]
    Ks, room = _class_sizes(cp, card, name, cx, swap)
    n_hands = hands or SENSITIVITY_HANDS
    results: list[list[_At]] = []
    # exact where the exact engine answers every count of every seat; else all by Monte
    # Carlo (one engine for the whole table)
    exact = [[_exact_at(cp, seat, mode, K) for K in Ks] for seat in seats] \
        if mode != "mc" else [[None]]
    method: Literal["exact", "monte-carlo"] = "exact"
    if all(at is not None for row in exact for at in row):
        results = [[at for at in row if at is not None] for row in exact]
    else:
        method = "monte-carlo"
        results = [[success_at(cp, seat, "mc", K, n_hands, seed) for K in Ks]
                   for seat in seats]
    rows = [_row(n, [row[n] for row in results]) for n in range(MOST + 1)]
    smallest = [next((n for n in range(MOST + 1) if rows[n].rates[i] >= target), None)
                for i in range(len(seats))]
    return CopiesResult(card=name, now=now, swap=room, target=target,
                        seats=["second" if s else "first" for s in seats], method=method,
                        hands=n_hands if method == "monte-carlo" else None, rows=rows,
                        smallest=smallest)


def _class_sizes(cp: CompiledProfile, card: str, name: str, cx: int, swap: str | None
                 ) -> tuple[list[tuple[int, ...]], str]:
    """The deck's class sizes with 0..MOST copies of `name` (class `cx`), each copy in
    taking out one of `swap` or of the largest class of blanks; and what makes the room."""
    now = cp.classes[cx].cards[name]
    if swap is not None:
        swap_name, cs = _class_of(cp, swap, "--swap")
        if cs == cx:
            raise ProfileError(f"--swap {swap!r} is the card counted; name another card.")
        room = f"{swap_name} (x{cp.classes[cs].cards[swap_name]})"
        spare = cp.classes[cs].cards[swap_name]
    else:
        blanks = [i for i, ci in enumerate(cp.classes)
                  if not ci.features and ci.behaviour is None and i != cx]
        if not blanks:
            raise ProfileError("The deck has no blank card (one no condition counts) to make "
                               "room for more copies; name one with --swap CARD.")
        cs = max(blanks, key=lambda i: cp.classes[i].size)
        spare = cp.classes[cs].size
        room = "blanks (cards no condition counts)"
    Ks = []
    for n in range(MOST + 1):
        K = list(cp.K)
        K[cx] += n - now
        K[cs] -= n - now
        if K[cs] < 0:
            raise ProfileError(f"{card} x{n} needs {n - now} cards taken out, but the deck "
                               f"has {spare} of {room}; name another card with --swap.")
        Ks.append(tuple(K))
    return Ks, room


def _row(n: int, ats: list[Any]) -> CopiesRow:
    """The row of `n` copies from each seat's rate (with its interval when Monte Carlo)."""
    rates, lows, highs = [], [], []
    for at in ats:
        rates.append(at.rate)
        if at.method == "monte-carlo":
            lo, hi = at.run.interval()
            lows.append(lo)
            highs.append(hi)
        else:
            lows.append(None)
            highs.append(None)
    return CopiesRow(copies=n, rates=rates, lows=lows, highs=highs)
