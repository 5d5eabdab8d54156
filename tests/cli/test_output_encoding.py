"""Output in any encoding: under a console that cannot encode Japanese (cp1252, a redirected
Windows console) or anything past Latin-1, every command that prints names writes what it
cannot encode escaped (\\u5b58), never a UnicodeEncodeError traceback. Run as subprocesses,
since the stream set-up happens in `deckcheck.cli.main.main`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import HOSTILE_FIXTURES

JAPANESE = HOSTILE_FIXTURES / "encoding-cp1252-unknown-japanese-name.txt"


def _run(args: list[str], encoding: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "deckcheck", *args], capture_output=True,
                          env=env, cwd=cwd, timeout=120, text=True, encoding=encoding,
                          errors="strict")  # what was written is text of that encoding


@pytest.fixture
def event(tmp_path: Path) -> Path:
    folder = tmp_path / "event"
    folder.mkdir()
    (folder / "山田太郎.txt").write_text(JAPANESE.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "Zoë.ydk").write_text("#main\n14558127\n", encoding="utf-8")
    return folder


COMMANDS = {
    "check": ["check", str(JAPANESE)],
    "check-parsable": ["check", "--output-format", "parsable", str(JAPANESE)],
    "check-json": ["check", "--output-format", "json", str(JAPANESE)],
    "cards-show": ["cards", "show", "灰流うらら"],
    "cards-show-unknown": ["cards", "show", "存在しないカード"],
    "cards-search": ["cards", "search", "Blossom"],
    "convert-text": ["convert", str(JAPANESE), "-", "--to", "text"],
    "diff": ["diff", str(JAPANESE), str(HOSTILE_FIXTURES / "silent-drop-csv-passcode.csv")],
    "event-check": ["event", "check", "EVENT"],
}


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_traceback_in_a_narrow_encoding(tmp_path: Path, event: Path, encoding: str,
                                           command: str) -> None:
    args = [str(event) if a == "EVENT" else a for a in COMMANDS[command]]
    res = _run(args, encoding, tmp_path)
    assert "Traceback" not in res.stderr and "UnicodeEncodeError" not in res.stderr, res.stderr
    assert res.returncode in (0, 1, 2), res.stderr


def test_a_name_the_console_cannot_show_is_escaped(tmp_path: Path) -> None:
    res = _run(["check", "--output-format", "parsable", str(JAPANESE)], "cp1252", tmp_path)
    assert res.returncode == 1
    assert 'DC401 No card is named "\\u5b58\\u5728\\u3057\\u306a\\u3044\\u30ab\\u30fc\\u30c9"' \
        in res.stdout
