"""`deckcheck desk` on the command line: the extra, bad options, a light cold start."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from deckcheck.cli.main import cli


def test_without_the_extra_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        return None if name == "starlette" else real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    result = CliRunner().invoke(cli, ["desk", "--event", "Regional Berlin"])
    assert result.exit_code == 2
    assert result.output == ("deckcheck: `deckcheck desk` needs the desk extra; install it "
                             "with pip install 'deckcheck[desk]'.\n")


def test_a_bad_deadline_is_one_sentence(tmp_path: object) -> None:
    pytest.importorskip("starlette", reason="the desk extra is not installed")
    result = CliRunner().invoke(cli, ["desk", "--event", "X", "--deadline", "soon"])
    assert result.exit_code == 2
    assert result.output == ("deckcheck: \"soon\" is not a date and time; write it as "
                             "YYYY-MM-DD HH:MM, e.g. 2026-12-05 09:30.\n")


def test_the_cli_cold_start_does_not_import_the_desk_stack() -> None:
    code = ("import sys; from click.testing import CliRunner; "
            "from deckcheck.cli.main import cli; "
            "r = CliRunner().invoke(cli, ['--help']); assert r.exit_code == 0; "
            "r = CliRunner().invoke(cli, ['desk', '--help']); assert r.exit_code == 0; "
            "heavy = [m for m in ('starlette', 'jinja2', 'uvicorn', 'python_multipart', "
            "'deckcheck.desk') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_a_port_in_use_is_one_sentence(tmp_path: object, monkeypatch: pytest.MonkeyPatch
                                       ) -> None:
    import socket
    from pathlib import Path

    pytest.importorskip("starlette", reason="the desk extra is not installed")
    monkeypatch.chdir(str(tmp_path))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli, ["desk", "--event", "Port Test", "--port",
                                          str(port)])
    assert result.exit_code == 2
    assert result.output.startswith(f"deckcheck: Cannot listen on 127.0.0.1:{port} (")
    assert result.output.endswith("pick another --port, or stop the program using it.\n")
    assert Path("port-test.db").exists()  # the store was opened before the port was tried


def test_a_store_that_is_not_one(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    pytest.importorskip("starlette", reason="the desk extra is not installed")
    monkeypatch.chdir(str(tmp_path))
    Path("x.db").write_bytes(b"not a database at all" * 50)
    result = CliRunner().invoke(cli, ["desk", "--event", "X", "--store", "x.db"])
    assert result.exit_code == 2
    assert result.output.startswith("deckcheck: x.db is not a desk store (")
