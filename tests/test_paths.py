"""The user's data folder: $XDG_DATA_HOME when set, else the platform's (platformdirs); the
card database and the imported lists both live there unless their own variable says else."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs
import pytest

from deckcheck.cards.dbpath import default_db_path
from deckcheck.formats.loader import user_dir
from deckcheck.paths import data_dir


def test_xdg_data_home_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("DECKCHECK_DB", raising=False)
    monkeypatch.delenv("DECKCHECK_BANLISTS", raising=False)
    assert data_dir() == tmp_path / "xdg" / "deckcheck"
    assert default_db_path() == tmp_path / "xdg" / "deckcheck" / "cards.sqlite"
    assert user_dir() == tmp_path / "xdg" / "deckcheck" / "banlists"


def test_else_the_platforms_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("DECKCHECK_DB", raising=False)
    expected = Path(platformdirs.user_data_dir("deckcheck", appauthor=False))
    assert data_dir() == expected
    assert default_db_path() == expected / "cards.sqlite"


def test_own_variables_win(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DECKCHECK_DB", str(tmp_path / "my.sqlite"))
    monkeypatch.setenv("DECKCHECK_BANLISTS", str(tmp_path / "lists"))
    assert default_db_path() == tmp_path / "my.sqlite"
    assert user_dir() == tmp_path / "lists"


@pytest.mark.parametrize("module,folder", [
    ("platformdirs.windows", "AppData"), ("platformdirs.macos", "Application Support")])
def test_windows_and_macos_locations(module: str, folder: str, monkeypatch: pytest.MonkeyPatch
                                     ) -> None:
    """platformdirs knows the other systems' folders; deckcheck asks it for them."""
    import importlib

    mod = importlib.import_module(module)
    cls = mod.Windows if module.endswith("windows") else mod.MacOS
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    # deckcheck knows Linux's folder itself; on other systems it asks platformdirs
    monkeypatch.setattr(sys, "platform", "win32" if module.endswith("windows") else "darwin")
    monkeypatch.setattr(platformdirs, "user_data_dir",
                        lambda appname, appauthor=None: cls(appname, appauthor).user_data_dir)
    if module.endswith("windows"):
        monkeypatch.setattr(mod, "get_win_folder",
                            lambda csidl: "C:\\Users\\me\\AppData\\Local")
    assert folder in str(data_dir())
    assert data_dir().name == "deckcheck"


def test_linux_folder_without_importing_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    """On Linux the folder is platformdirs' own, found without importing it (start-up)."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "XDG_DATA_HOME"}
    code = ("import sys; from deckcheck.paths import data_dir; print(data_dir()); "
            "print('platformdirs' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.split("\n")
    if sys.platform == "linux" and os.path.isabs(os.environ.get("HOME", "")):
        assert out[1] == "False"
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert out[0] == platformdirs.user_data_dir("deckcheck", appauthor=False)
