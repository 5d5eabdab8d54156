"""The public face: `deckcheck.__all__`, lazy imports, `python -m deckcheck`, and the README's
library example run exactly as written."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import deckcheck

ROOT = Path(__file__).resolve().parents[2]


def test_every_public_name_resolves() -> None:
    for name in deckcheck.__all__:
        assert getattr(deckcheck, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        deckcheck.nope  # type: ignore[attr-defined]  # noqa: B018
    assert issubclass(deckcheck.DeckReadError, deckcheck.DeckcheckError)


def test_import_stays_cheap() -> None:
    """`import deckcheck` imports none of the heavy parts (pydantic, the rules, click)."""
    code = ("import sys, deckcheck; heavy = [m for m in ('pydantic', 'click', "
            "'deckcheck.checker', 'deckcheck.rules', 'openpyxl', 'numpy') if m in sys.modules]; "
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_checking_a_deck_imports_no_pydantic(tmp_path: Path) -> None:
    """The README's library path (read a deck, check it) runs on plain values: no pydantic."""
    code = ("import sys, deckcheck; pool = deckcheck.open_pool(); "
            "deck = deckcheck.read_deck(sys.argv[1], pool); "
            "print(deckcheck.check(deck, format='tcg', pool=pool).verdict, "
            "[m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core')])")
    env = {**os.environ, "DECKCHECK_DB": str(tmp_path / "none.sqlite")}
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "examples" / "tcg-legal.ydk")],
                         capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == "legal []"


def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    env = {**os.environ, "DECKCHECK_DB": str(tmp_path / "none.sqlite"), "NO_COLOR": "1"}
    run = subprocess.run([sys.executable, "-m", "deckcheck", "check", "--date", "2026-11-22",
                          str(ROOT / "examples" / "tcg-legal.ydk")], capture_output=True,
                         text=True, env=env, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"{ROOT / 'examples' / 'tcg-legal.ydk'}: legal — main 40")


def readme_library_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- library-example -->\n```python\n(.*?)```", text, re.S)
    assert m, "README.md has no library example after <!-- library-example -->"
    return m.group(1)


def test_readme_library_example_runs_as_written(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKCHECK_DB", str(tmp_path / "none.sqlite"))  # the built-in set
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(readme_library_example(), "README.md", "exec"), {})  # noqa: S102
    lines = out.getvalue().splitlines()
    assert lines[0] == "legal []"
    assert lines[1] == "examples/tcg-legal.ydk legal []"
    assert lines[2].startswith("examples/tcg-illegal.ydk illegal [('DC101', None), ('DC110', 24)")
    assert lines[3] == "missing.ydk - missing.ydk: no such file; check the path."
    assert lines[4].startswith("pasted.txt illegal [('DC101', None)")
    assert lines[5] == "exit code 2"


def test_readme_names_the_whole_public_api() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### Library"):text.index("<!-- library-example -->")]
    missing = [name for name in deckcheck.__all__ if f"`{name}`" not in section]
    assert not missing, f"README's library section does not name {missing}"
