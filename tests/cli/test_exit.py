"""How the `deckcheck` program ends (`cli.main.run` / `leave`): with its exit code, every
byte of its output written, its exit functions run, and without Python's teardown of every
module and object; another thread still running is waited for, as Python does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tcg-legal.ydk"


def _env(tmp_path: Path) -> dict[str, str]:
    """The environment of a program run here, its output buffered as usual (not
    `PYTHONUNBUFFERED`, which this machine sets: it would hide output never flushed)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env.update(DECKCHECK_DB=str(tmp_path / "none.sqlite"), NO_COLOR="1")
    return env


def _python(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = _env(tmp_path)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=ROOT, check=False, timeout=120)


def _leave(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return _python("import sys\nfrom deckcheck.cli.main import leave\n" + code, tmp_path)


@pytest.mark.parametrize(("args", "status"), [(["--version"], 0),
                                             (["check", str(EXAMPLE), "--output-format",
                                               "json"], 0),
                                             (["check", "nowhere.ydk"], 2)])
def test_the_program_exits_with_its_code_and_all_its_output(args: list[str], status: int,
                                                           tmp_path: Path) -> None:
    env = _env(tmp_path)
    out = tmp_path / "out.txt"
    with out.open("w") as f:  # a file, not a terminal: stdout is block-buffered
        done = subprocess.run([sys.executable, "-m", "deckcheck", *args], stdout=f,
                              stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
                              check=False, timeout=120)
    assert done.returncode == status, done.stderr
    if "json" in args:
        assert json.loads(out.read_text())["reports"][0]["verdict"] == "legal"
    if status == 2:
        assert done.stderr.strip() == "deckcheck: nowhere.ydk: no such file; check the path."


def test_leave_writes_buffered_output_and_runs_exit_functions(tmp_path: Path) -> None:
    done = _leave("import atexit\natexit.register(lambda: print('exit function ran'))\n"
                  "sys.stdout.write('x' * 100_000)\nleave(3)\nprint('not reached')\n",
                  tmp_path)
    assert done.returncode == 3
    assert done.stdout == "x" * 100_000 + "exit function ran\n"


@pytest.mark.parametrize(("code", "status", "err"), [("None", 0, ""), ("True", 1, ""),
                                                     ("'stopped'", 1, "stopped\n")])
def test_leave_takes_a_code_as_sys_exit_does(code: str, status: int, err: str,
                                             tmp_path: Path) -> None:
    done = _leave(f"leave({code})\n", tmp_path)
    assert (done.returncode, done.stderr) == (status, err)
    plain = _python(f"import sys\nsys.exit({code})\n", tmp_path)
    assert (plain.returncode, plain.stderr) == (status, err)


def test_leave_waits_for_another_thread_as_python_does(tmp_path: Path) -> None:
    flag = tmp_path / "flag"
    done = _leave("import threading, time\n"
                  f"def late():\n    time.sleep(0.3)\n    open({str(flag)!r}, 'w').close()\n"
                  "threading.Thread(target=late).start()\nleave(0)\n", tmp_path)
    assert done.returncode == 0 and flag.exists()


def test_the_command_and_python_m_run_the_same_entry() -> None:
    """The installed script (pyproject's `[project.scripts]`) and `python -m deckcheck` both
    end through `run`."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["deckcheck"] == "deckcheck.cli.main:run"
    assert "run()" in (ROOT / "deckcheck" / "__main__.py").read_text()


def test_a_profiler_still_writes_its_results(tmp_path: Path) -> None:
    """`python -m cProfile -o … -m deckcheck` writes its statistics once the program
    returns: with a profiler (or tracer) attached the program exits the usual way."""
    out = tmp_path / "profile.out"
    env = _env(tmp_path)
    done = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), "-m", "deckcheck",
                           "--version"], capture_output=True, text=True, env=env, cwd=ROOT,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 0
    # with a tracer, the usual way: `os._exit` (the fast way out) is never called
    traced = _leave("import os\nreal = os._exit\n"
                    "os._exit = lambda s: (print('fast', flush=True), real(s))\n"
                    "sys.settrace(lambda *a: None)\nimport atexit\n"
                    "atexit.register(lambda: print('after'))\nleave(4)\n", tmp_path)
    assert (traced.returncode, traced.stdout) == (4, "after\n")
