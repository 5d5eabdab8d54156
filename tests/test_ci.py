"""`.ci/run`: the README's test command, then ruff and mypy, then the main command; any
failure fails CI. Run here on a scratch copy whose README commands and tools are stand-ins,
so the script's own logic is what is tested."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def scratch(tmp_path: Path, *, ruff: int = 0, mypy: int = 0, tests: int = 0) -> Path:
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text(
        "<!-- main-command -->\n```\necho main >> log\n```\n\n"
        f"<!-- test-command -->\n```\necho tests >> log; exit {tests}\n```\n", encoding="utf-8")
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    for tool, rc in (("pip", 0), ("ruff", ruff), ("mypy", mypy)):
        path = bin_ / tool
        path.write_text(f"#!/bin/sh\necho {tool} >> log\nexit {rc}\n", encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return tmp_path


def run(folder: Path) -> tuple[int, list[str]]:
    done = subprocess.run(["bash", str(folder / ".ci" / "run")], capture_output=True, text=True,
                          env={**os.environ}, cwd=folder)
    log = (folder / "log").read_text(encoding="utf-8").split() if (folder / "log").exists() \
        else []
    return done.returncode, log


def test_all_steps_in_order(tmp_path: Path) -> None:
    assert run(scratch(tmp_path)) == (0, ["tests", "pip", "ruff", "mypy", "main"])


@pytest.mark.parametrize("failing", ["ruff", "mypy"])
def test_a_lint_or_type_error_fails_ci(tmp_path: Path, failing: str) -> None:
    rc, log = run(scratch(tmp_path, **{failing: 1}))
    assert rc == 1
    assert log[-1] == failing and "main" not in log


def test_no_tests_collected_only_warns(tmp_path: Path) -> None:
    assert run(scratch(tmp_path, tests=5)) == (0, ["tests", "pip", "ruff", "mypy", "main"])


def test_failing_tests_stop_ci(tmp_path: Path) -> None:
    assert run(scratch(tmp_path, tests=1)) == (1, ["tests"])
