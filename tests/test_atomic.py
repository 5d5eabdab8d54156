"""`deckcheck.atomic.replacing`: the one way deckcheck replaces a file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deckcheck.atomic import replacing


def test_success_replaces_the_file_and_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "deck.ydk"
    target.write_text("old", encoding="utf-8")
    os.chmod(target, 0o640)
    with replacing(target) as tmp:
        assert tmp.parent == tmp_path and tmp != target
        tmp.write_text("new", encoding="utf-8")
        assert target.read_text(encoding="utf-8") == "old"  # nothing changes until the end
    assert target.read_text(encoding="utf-8") == "new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.ydk"]


def test_a_new_file_gets_the_umask_permissions_not_0600(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        with replacing(tmp_path / "new.csv") as tmp:
            tmp.write_bytes(b"x")
    finally:
        os.umask(umask)
    assert (tmp_path / "new.csv").stat().st_mode & 0o777 == 0o644


def test_a_failure_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "cards.sqlite"
    target.write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt), replacing(target) as tmp:
        tmp.write_bytes(b"half")
        raise KeyboardInterrupt
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["cards.sqlite"]


def test_a_missing_folder_is_reported_with_the_file_asked_for(tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "report.xlsx"
    with pytest.raises(FileNotFoundError) as err, replacing(target):
        pass
    assert err.value.filename == str(target)
