"""`deckcheck.cli.params`: one parameter type for every `--date` (issue 23: `convert --date
"next tuesday"` printed "next tuesday" on the registration sheet while `check` refused it)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from deckcheck.cli import reference
from deckcheck.cli.main import cli
from deckcheck.cli.params import DATE

REFUSED = ('deckcheck: --date "next tuesday" is not a date; write it as YYYY-MM-DD, '
           "e.g. 2026-05-18.\n")


def _date_options() -> list[tuple[str, click.Parameter]]:
    return [(" ".join(path), p) for path, cmd in reference._walk(cli, ["deckcheck"])
            for p in cmd.params if "--date" in getattr(p, "opts", ())]


def test_every_date_option_is_the_one_date_type() -> None:
    options = _date_options()
    assert len(options) >= 8  # check, convert, desk, event check/sheet, banlist ×3+
    assert [path for path, p in options if p.type is not DATE] == []


@pytest.mark.parametrize("args", [
    ["check", "deck.ydk"],
    ["convert", "deck.ydk", "out.xlsx"],
    ["event", "check", "deck.ydk"],
    ["event", "sheet", "deck.ydk", "-o", "out.xlsx"],
    ["banlist", "show", "tcg"],
    ["banlist", "export", "tcg", "out.lflist.conf"],
])
def test_a_date_that_is_not_a_day_is_refused_everywhere(args: list[str], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deck.ydk").write_text("#main\n14558127\n#extra\n!side\n")
    result = CliRunner().invoke(cli, [*args, "--date", "next tuesday"])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", REFUSED)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.ydk"]  # nothing written


def test_a_day_is_a_date() -> None:
    assert DATE.convert("2026-05-18", None, None) == dt.date(2026, 5, 18)
    assert DATE.convert(dt.date(2026, 5, 18), None, None) == dt.date(2026, 5, 18)
