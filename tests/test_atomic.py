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


# --- writes go only where they should (issue 21) --------------------------------------------

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


@needs_fifo
def test_a_named_pipe_is_refused_and_left_alone(tmp_path: Path) -> None:
    from deckcheck.errors import OutputError

    fifo = tmp_path / "f.ydk"
    os.mkfifo(fifo)
    with pytest.raises(OutputError) as exc, replacing(fifo) as tmp:
        tmp.write_text("x")
    assert str(exc.value) == (f"{fifo} is a named pipe (FIFO), not a regular file; deckcheck "
                              "writes only regular files — give the name of a file to write.")
    assert fifo.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == ["f.ydk"]


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null")
def test_a_device_is_refused_even_through_a_link(tmp_path: Path) -> None:
    from deckcheck.errors import OutputError

    link = tmp_path / "out.ydk"
    link.symlink_to("/dev/null")
    with pytest.raises(OutputError, match="is a character device, not a regular file"), \
            replacing(link) as tmp:
        tmp.write_text("x")
    assert link.is_symlink()


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "decks" / "real.ydk"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.ydk"
    link.symlink_to(real)
    with replacing(link) as tmp:
        assert tmp.parent == real.parent  # replaced atomically beside the file it points to
        tmp.write_text("new")
    assert link.is_symlink() and link.read_text() == "new" and real.read_text() == "new"
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.ydk"]


@needs_fifo
def test_convert_onto_a_pipe_is_one_sentence(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from deckcheck.cli.main import cli

    deck = tmp_path / "d.ydk"
    deck.write_text("#main\n14558127\n")
    fifo = tmp_path / "f.ydk"
    os.mkfifo(fifo)
    res = CliRunner().invoke(cli, ["convert", str(deck), str(fifo)])
    assert res.exit_code == 2 and "wrote" not in res.output
    assert res.stderr == (f"deckcheck: {fifo} is a named pipe (FIFO), not a regular file; "
                          "deckcheck writes only regular files — give the name of a file to "
                          "write.\n")
    assert fifo.is_fifo()


@needs_fifo
@pytest.mark.parametrize("how", ["--db", "DECKCHECK_DB"])
def test_a_card_database_that_is_a_pipe_is_refused_not_waited_on(tmp_path: Path,
                                                                  how: str) -> None:
    """SQLite opening a FIFO waits forever: a subprocess, so the old code fails by timeout."""
    import subprocess
    import sys

    fifo = tmp_path / "cards.sqlite"
    os.mkfifo(fifo)
    deck = tmp_path / "d.ydk"
    deck.write_text("#main\n14558127\n")
    env = {**os.environ, "DECKCHECK_DB": str(fifo)}
    args = ["--db", str(fifo)] if how == "--db" else []
    res = subprocess.run([sys.executable, "-m", "deckcheck", *args, "check", str(deck)],
                         capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 2
    assert res.stderr == (f"deckcheck: {fifo} is a named pipe (FIFO), not a card database "
                          "file; point --db or DECKCHECK_DB at a regular file.\n")


def test_the_new_bytes_are_synced_before_the_rename(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A power cut after the rename must find the whole new file: its bytes are fsync'd
    first (the store is written with SQLite's syncs off)."""
    target = tmp_path / "cards.sqlite"
    target.write_text("old")
    steps: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        steps.append(f"fsync {os.fstat(fd).st_size}")
        real_fsync(fd)

    def replace(src: str, dst: object) -> None:
        steps.append("replace")
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    with replacing(target) as tmp:
        tmp.write_text("new bytes")
    assert steps == ["fsync 9", "replace"]
    assert target.read_text() == "new bytes"
