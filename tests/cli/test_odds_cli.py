"""`deckcheck odds` on the shipped example deck (the built-in card set): issue 22's repro,
--copies, --each-row-alone and the chart without its extra."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from deckcheck.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "tcg-legal.ydk")
BOTH = """success = "both"
[roles]
a = ["Ash Blossom & Joyous Spring"]
b = ["Ash Blossom & Joyous Spring"]
[conditions]
both = { all = ["a", "b"] }
"not both" = { not = "both" }
"""


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def both(tmp_path: Path) -> str:
    p = tmp_path / "both.toml"
    p.write_text(BOTH, encoding="utf-8")
    return str(p)


def _rows(res: Result) -> dict[str, float]:
    data = json.loads(res.stdout)
    return {g["name"]: g["by_turn"][0]["probability"] for g in data["results"][0]["goals"]}


def test_a_row_and_its_not_add_up_with_trade_in_and_prosperity(both: str) -> None:
    res = run("odds", EXAMPLE, "--profile", both, "--exact", "--first", "--json",
              "--no-sensitivity")
    assert res.exit_code == 0, res.output
    rows = _rows(res)
    assert round(rows["both"] * 100, 2) == 5.27 and round(rows["not both"] * 100, 2) == 94.73
    assert rows["both"] + rows["not both"] == pytest.approx(1, abs=1e-12)
    played = json.loads(res.stdout)["results"][0]["played"]
    assert {p["card"] for p in played} == {"Trade-In", "Pot of Prosperity"}
    # the old reading, asked for by name, is labelled and does not add up
    alone = run("odds", EXAMPLE, "--profile", both, "--exact", "--first", "--no-sensitivity",
                "--each-row-alone")
    assert "not both        96.36% (238/247)" in alone.stdout
    assert "need not add up to 100%" in alone.stdout


def test_monte_carlo_rows_add_up_too(both: str) -> None:
    res = run("odds", EXAMPLE, "--profile", both, "--hands", "20000", "--seed", "3",
              "--turns", "2", "--json", "--no-sensitivity")
    data = json.loads(res.stdout)
    for seat in data["results"]:
        goals = {g["name"]: g["by_turn"] for g in seat["goals"]}
        for t in range(2):
            total = goals["both"][t]["probability"] + goals["not both"][t]["probability"]
            assert total == pytest.approx(1, abs=1e-12)


def test_copies_prints_the_curve_and_the_smallest_count(both: str) -> None:
    res = run("odds", EXAMPLE, "--profile", both, "--exact", "--first", "--no-sensitivity",
              "--copies", "Ash Blossom & Joyous Spring", "--target", "5%")
    assert res.exit_code == 0, res.output
    assert "Copies of Ash Blossom & Joyous Spring (now 3;" in res.stdout
    assert "  Going first: 3 copies reach 5%." in res.stdout


def test_chart_without_matplotlib_is_one_sentence(tmp_path: Path, both: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    res = run("odds", EXAMPLE, "--profile", both, "--chart", str(tmp_path / "c.png"))
    assert res.exit_code == 2
    assert "pip install 'deckcheck[chart]'" in res.output
    assert not (tmp_path / "c.png").exists()
