"""Messages that were not true (issue 21), and input never echoed beyond 200 characters."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck.cli.main import cli
from tests.conftest import HOSTILE_FIXTURES

FIX = Path(__file__).resolve().parents[1] / "sources" / "fixtures"


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "cards.sqlite")
    res = CliRunner().invoke(cli, ["--db", path, "cards", "import",
                                   str(FIX / "ygoprodeck_small.json")])
    assert res.exit_code == 0
    return path


def test_a_50001_character_name_is_no_damaged_database(db: str) -> None:
    """It said "the database is damaged, delete it" (SQLite refuses so long a LIKE)."""
    res = CliRunner().invoke(cli, ["--db", db, "cards", "show", "a" * 50_001])
    assert res.exit_code == 2
    assert "damaged" not in res.stderr and len(res.stderr) < 250
    assert res.stderr == (f"deckcheck: No card is named {'a' * 60!r}… (50,001 characters, "
                          "longer than any card name: at most 200); check what was pasted.\n")
    res = CliRunner().invoke(cli, ["--db", db, "cards", "search", "a" * 50_001])
    assert res.exit_code == 0 and "damaged" not in res.output and len(res.output) < 250


def test_update_from_a_cdb_says_what_it_is(db: str) -> None:
    """It said the cdb was "not card data"."""
    cdb = HOSTILE_FIXTURES / "import-cdb-text-in-int-column.cdb"
    res = CliRunner().invoke(cli, ["--db", db, "cards", "update", "--from", str(cdb)])
    assert res.exit_code == 2
    assert "is an SQLite card database (EDOPro's cards.cdb?), not a YGOPRODeck cardinfo.php " \
           f"answer; nothing was changed — import it with `deckcheck cards import {cdb}`." \
           in res.stderr


def test_no_first_0_unknown_names(tmp_path: Path) -> None:
    deck = tmp_path / "long.txt"
    deck.write_text("3 " + "z" * 150 + "\n", encoding="utf-8")
    res = CliRunner().invoke(cli, ["check", str(deck)])
    assert "first 0" not in res.output
    assert 'No "did you mean" suggestions were looked up: the unknown name is longer than ' \
           "any card name." in res.output


@pytest.mark.parametrize("args", [["check", "--date", "x" * 5000, "D"],
                                  ["check", "--format", "x" * 5000, "D"],
                                  ["banlist", "show", "x" * 5000],
                                  ["draw", "D", "--seed", "x" * 5000]])
def test_input_is_never_echoed_beyond_200_characters(tmp_path: Path, args: list[str]) -> None:
    deck = tmp_path / "d.ydk"
    deck.write_text("#main\n14558127\n")
    args = [str(deck) if a == "D" else a for a in args]
    res = subprocess.run([sys.executable, "-m", "deckcheck", *args], capture_output=True,
                         text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})
    assert res.returncode == 2
    assert "x" * 201 not in res.stderr
    assert re.search(r"… \(5,00[0-9] characters\)", res.stderr), res.stderr
    assert max(len(word) for word in res.stderr.split()) <= 200
