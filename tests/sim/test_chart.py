"""The --chart picture (matplotlib, the optional chart extra): what it draws, PNG and SVG,
and the one sentence without the extra."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from simkit import expand, fillers, monster

from deckcheck.errors import OutputError
from deckcheck.sim.goldfish.chart import INSTALL, chart_title, draw, report_series, write_chart
from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.profile import parse_profile
from deckcheck.sim.goldfish.report import compare, odds

X = monster(1, "Card X")


def _cp(copies: int = 3):  # type: ignore[no-untyped-def]
    cards = expand([(X, copies)]) + fillers(40 - copies)
    return compile_profile(parse_profile({"conditions": {"c": "Card X"}}), cards, None,
                           "deck.profile.toml")


def _report(turns: int = 3):  # type: ignore[no-untyped-def]
    return odds(_cp(), deck="decks/mine.ydk", mode="mc", hands=20_000, seed=1, turns=turns,
                with_sensitivity=False)


def test_series_carry_each_seat_with_its_intervals() -> None:
    rep = _report()
    series = report_series(rep)
    assert [s.label for s in series] == ["going first", "going second"]
    for s, res in zip(series, rep.results, strict=True):
        assert s.values == [r.probability for r in res.goal().by_turn]
        assert all(lo is not None and lo < v for lo, v in zip(s.lows, s.values, strict=True))
    assert chart_title(rep) == "mine.ydk — success by turn\nprofile: deck.profile.toml"


def test_the_figure_has_titled_axes_percent_labels_and_error_bars() -> None:
    pytest.importorskip("matplotlib")
    rep = _report()
    fig = draw(report_series(rep), chart_title(rep), rep.engine)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "turn" and "succeed" in ax.get_ylabel()
    labels = {t.get_text() for t in ax.texts}
    first = rep.results[0].goal().by_turn[0].probability
    assert f"{first * 100:.2f}%" in labels
    assert len(ax.containers) == 2  # one errorbar container per seat
    assert "mine.ydk" in fig.get_suptitle()


def test_compare_draws_both_decks_per_seat(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    rep = _report()
    rep.compare = compare(_cp(3), _cp(2), "a.ydk", "b.ydk", mode="mc", hands=20_000, seed=1,
                          turns=3)
    series = report_series(rep)
    assert [(s.label, s.going) for s in series] == [
        ("A: a.ydk", "first"), ("A: a.ydk", "second"), ("B: b.ydk", "first"),
        ("B: b.ydk", "second")]
    fig = draw(series, chart_title(rep), rep.engine)
    assert len(fig.axes) == 2  # a panel per seat, A and B in each
    assert all(len(ax.containers) == 2 for ax in fig.axes)


def test_png_and_svg_are_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    rep = _report(2)
    write_chart(tmp_path / "c.png", rep)
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    write_chart(tmp_path / "c.svg", rep)
    assert b"<svg" in (tmp_path / "c.svg").read_bytes()[:400]
    with pytest.raises(OutputError, match=r"\.png or \.svg"):
        write_chart(tmp_path / "c.gif", rep)


def test_without_matplotlib_one_sentence_says_how_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    with pytest.raises(OutputError) as err:
        write_chart(tmp_path / "c.png", _report(1))
    assert str(err.value) == INSTALL
    assert "pip install 'deckcheck[chart]'" in INSTALL
