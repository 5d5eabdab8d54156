"""The helpers the benchmarks share with the tests, or among themselves: one local HTTP server
(`tests/sources/local_server.py`, which `benchmarks/_local.py` serves up), and command timing
that refuses to time a failing command (`benchmarks/_timing.py`). The benchmarks run in a
child process: the tests never import from `benchmarks/`, and skip without it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
needs_benchmarks = pytest.mark.skipif(not (BENCH / "_timing.py").exists(),
                                      reason="no benchmarks/ folder (not a checkout)")


#: a class that answers HTTP requests itself
HANDLER = re.compile(r"^\s*class \w+\([\w.]*BaseHTTPRequestHandler\)", re.M)


def _run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script], cwd=BENCH, capture_output=True,
                          text=True, timeout=120, check=False)


def test_one_scripted_http_server() -> None:
    """Only `local_server.py` scripts HTTP answers (a `BaseHTTPRequestHandler`); the tests'
    file servers (`SimpleHTTPRequestHandler`) serve a folder."""
    scripted = sorted(str(p.relative_to(ROOT)) for folder in (ROOT / "tests", BENCH)
                      if folder.is_dir() for p in folder.rglob("*.py")
                      if HANDLER.search(p.read_text(encoding="utf-8")))
    assert scripted == ["tests/sources/local_server.py"]


@needs_benchmarks
def test_the_benchmarks_serve_with_the_tests_server() -> None:
    ran = _run(
        "import urllib.request\n"
        "from _local import Server\n"
        "s = Server(b'{\"data\": []}')\n"
        "print(urllib.request.urlopen(s.url + '/cardinfo.php', timeout=5).read().decode())\n"
        "print(type(s).__module__)\n"
        "s.close()\n")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == ['{"data": []}', "local_server"]


@needs_benchmarks
def test_a_failing_command_is_not_timed() -> None:
    """`command_medians(..., exit_codes=...)` stops at a command ending with another code, or
    with a traceback, naming it; without `exit_codes` it times whatever happens (as before)."""
    ran = _run("""
import sys
from pathlib import Path
from _timing import CommandFailed, command_medians
py = sys.executable
def cmd(code):
    return ([py, "-c", code], {})
wall, cpu = command_medians({"pass": cmd("pass"), "illegal": cmd("raise SystemExit(1)")}, 1,
                            Path("."), exit_codes=(0, 1))
print(sorted(wall))
for code in ("raise SystemExit(2)", "1/0"):
    try:
        command_medians({"bad": cmd(code)}, 1, Path("."), exit_codes=(0, 1))
    except CommandFailed as exc:
        print(str(exc).splitlines()[0].split("`")[-1], str(exc).splitlines()[-1])
print(sorted(command_medians({"bad": cmd("1/0")}, 1, Path("."))[0]))
""")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        "['illegal', 'pass']",
        " exited 2 (expected 0 or 1), so it is not timed: (nothing on standard error)",
        " exited 1, so it is not timed: ZeroDivisionError: division by zero",
        "['bad']"]


@needs_benchmarks
def test_a_new_cached_store_removes_all_but_the_newest_older_ones(tmp_path: Path) -> None:
    """`_realdata.prune`: a store cached for other code (another key) is removed once a
    newer one is made, but the `keep` newest; another kind of store is never touched."""
    ran = _run(f"""
import os
from pathlib import Path
from _realdata import prune
d = Path({str(tmp_path)!r})
names = [f"deckcheck-bench-every-source-{{k}}.sqlite" for k in ("aaa", "bbb", "ccc", "ddd")]
for age, name in enumerate(names):  # aaa the newest
    (d / name).write_bytes(b"x")
    os.utime(d / name, (1e9 - age, 1e9 - age))
(d / "deckcheck-bench-dump-zzz.sqlite").write_bytes(b"x")
new = d / "deckcheck-bench-every-source-new.sqlite"
new.write_bytes(b"x")
print([p.name for p in prune(new, keep=2)])
print(sorted(p.name for p in d.iterdir()))
""")
    assert ran.returncode == 0, ran.stderr
    removed, left = ran.stdout.splitlines()
    assert removed == str(["deckcheck-bench-every-source-ccc.sqlite",
                           "deckcheck-bench-every-source-ddd.sqlite"])
    assert left == str(sorted(["deckcheck-bench-dump-zzz.sqlite",
                               "deckcheck-bench-every-source-aaa.sqlite",
                               "deckcheck-bench-every-source-bbb.sqlite",
                               "deckcheck-bench-every-source-new.sqlite"]))
