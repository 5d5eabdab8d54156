"""The `--chart` picture: success by turn for each seat (and, with `--compare`, for both
decks), drawn with matplotlib (the optional `chart` extra, imported only here and only for
`--chart`). PNG or SVG, chosen by the file's extension.

Each series is a line of points, one per turn, labelled with its percentage to two decimals;
Monte Carlo points carry their 95% interval as an error bar (exact points have none: they are
exact). The title names the deck and the profile; the axes are titled.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.errors import OutputError

if TYPE_CHECKING:
    from deckcheck.sim.goldfish.results import OddsReport

INSTALL = ("--chart needs matplotlib, the chart extra; install it with "
           "pip install 'deckcheck[chart]'.")
FORMATS = {".png": "png", ".svg": "svg"}
#: Going first / second; A solid, B dashed.
COLOURS = {"first": "#1f77b4", "second": "#ff7f0e"}


class Series:
    """One line: per turn the success rate and, for Monte Carlo, its 95% interval."""

    __slots__ = ("label", "going", "dashed", "values", "lows", "highs")

    def __init__(self, label: str, going: str, values: list[float],
                 lows: list[float | None], highs: list[float | None],
                 dashed: bool = False) -> None:
        self.label, self.going, self.dashed = label, going, dashed
        self.values, self.lows, self.highs = values, lows, highs


def report_series(rep: OddsReport) -> list[Series]:
    """The success rate by turn of each seat of the report; with an A/B comparison, of
    both A and B from its rows (the same hands for both; Monte Carlo ones with a Wilson
    interval)."""
    from deckcheck.sim.goldfish.montecarlo import wilson

    compare = rep.compare
    if compare is None:
        return [Series(f"going {res.going}", res.going,
                       [r.probability for r in res.goal().by_turn],
                       [r.low for r in res.goal().by_turn],
                       [r.high for r in res.goal().by_turn]) for res in rep.results]
    out = []
    for side in ("a", "b"):
        for going in ("first", "second"):
            rows = sorted((r for r in compare.rows if r.going == going), key=lambda r: r.turn)
            if not rows:
                continue
            values = [r.a if side == "a" else r.b for r in rows]
            lows: list[float | None] = []
            highs: list[float | None] = []
            for r, v in zip(rows, values, strict=True):
                if r.method == "monte-carlo" and r.hands:
                    lo, hi = wilson(round(v * r.hands), r.hands)
                    lows.append(lo)
                    highs.append(hi)
                else:
                    lows.append(None)
                    highs.append(None)
            label = compare.label_a if side == "a" else compare.label_b
            out.append(Series(f"{side.upper()}: {Path(label).name}", going, values, lows,
                              highs, dashed=side == "b"))
    return out


def chart_title(rep: OddsReport) -> str:
    deck = Path(rep.deck).name if rep.deck else f"{rep.deck_size} cards"
    if rep.compare:
        return (f"A: {Path(rep.compare.label_a).name}  vs  B: "
                f"{Path(rep.compare.label_b).name} — success by turn (profile: "
                f"{Path(rep.profile).name})")
    return f"{deck} — success by turn\nprofile: {Path(rep.profile).name}"


def draw(series: list[Series], title: str, engine: str) -> Any:
    """A matplotlib Figure of the series (matplotlib must be importable): one panel, or
    with A/B series one panel per seat, A solid and B dashed."""
    from matplotlib.figure import Figure  # (no pyplot: no GUI backend, no global state)

    ab = any(s.dashed for s in series)
    seats = list(dict.fromkeys(s.going for s in series)) if ab else [""]
    fig = Figure(figsize=(8 if not ab else 11, 5), dpi=110, layout="constrained")
    axes = fig.subplots(1, len(seats), sharey=True, squeeze=False)[0]
    note = engine.replace("monte-carlo", "Monte Carlo")
    if "Monte Carlo" in note:
        note += " (bars: 95% interval)"
    for ax, seat in zip(axes, seats, strict=True):
        group = [s for s in series if not ab or s.going == seat]
        _panel(ax, group, ab)
        if ab:
            ax.set_title(f"going {seat}", fontsize=10)
        ax.legend(loc="lower right", title=note, fontsize=9, title_fontsize=8)
    axes[0].set_ylabel("hands that succeed by this turn (%)")
    fig.suptitle(title, fontsize=11)
    return fig


def _panel(ax: Any, series: list[Series], ab: bool) -> None:
    turns = max((len(s.values) for s in series), default=1)
    for s, dx in zip(series, _offsets(len(series)), strict=True):
        xs = [t + 1 + dx for t in range(len(s.values))]
        ys = [v * 100 for v in s.values]
        err = [[(v - lo) * 100 if lo is not None else 0.0
                for v, lo in zip(s.values, s.lows, strict=True)],
               [(hi - v) * 100 if hi is not None else 0.0
                for v, hi in zip(s.values, s.highs, strict=True)]]
        colour = (COLOURS["second"] if s.dashed else COLOURS["first"]) if ab else \
            COLOURS.get(s.going, "#2ca02c")
        ax.errorbar(xs, ys, yerr=err if any(any(e) for e in err) else None, marker="o",
                    capsize=4, color=colour, linestyle="--" if s.dashed else "-",
                    label=s.label)
        below = not s.dashed if ab else s.going == "first"
        for x, y in zip(xs, ys, strict=True):
            ax.annotate(f"{y:.2f}%", (x, y), textcoords="offset points",
                        xytext=(0, -15 if below and y >= 8 else 9), ha="center", fontsize=8,
                        color=colour)
    ax.set_xticks(range(1, turns + 1))
    ax.set_xlim(0.5, turns + 0.5)
    ax.set_ylim(0, 105)
    ax.set_xlabel("turn")
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{v:.0f}%")
    ax.grid(True, axis="y", alpha=0.3)


def _offsets(n: int) -> list[float]:
    """Small horizontal shifts so that points of several series at one turn stay apart."""
    if n <= 1:
        return [0.0] * n
    step = 0.12
    return [(i - (n - 1) / 2) * step for i in range(n)]


def chart_kind(path: str | Path) -> str:
    """"png" or "svg" from the file name; OutputError for any other, or without matplotlib
    (checked before any work is done: nothing is imported)."""
    from importlib.util import find_spec

    kind = FORMATS.get(Path(path).suffix.lower())
    if kind is None:
        raise OutputError(f"{path}: a chart is written as .png or .svg; give a file name "
                          f"ending in one of them.")
    try:
        found = find_spec("matplotlib") is not None
    except ValueError:  # (a module set to None: as good as not installed)
        found = False
    if not found:
        raise OutputError(INSTALL)
    return kind


def write_chart(path: str | Path, rep: OddsReport) -> None:
    """Write the chart of the report to `path` (.png or .svg)."""
    p = Path(path)
    kind = chart_kind(p)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OutputError(INSTALL) from None
    fig = draw(report_series(rep), chart_title(rep), rep.engine)
    try:
        fig.savefig(p, format=kind, metadata={"Software": None} if kind == "png" else
                    {"Date": None})
    except OSError as exc:
        raise OutputError(f"{path}: the chart cannot be written ({exc.strerror}); check that "
                          "the folder exists and you may write there.") from None
