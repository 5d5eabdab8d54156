"""A list cut short is refused whether it is downloaded (`--url`) or read from a file
(`--from`): each incoming list is compared with the list it replaces (`verify.replaced`),
its own day's, its own name's, or, when it is the newest, the list in force it follows."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck.errors import FormatError
from deckcheck.formats import load_format, native, verify
from deckcheck.formats import update as upd
from deckcheck.formats.model import Banlist, BanlistEntry

DAY = dt.date(2025, 10, 27)  # a shipped TCG list with every section 10+ cards


def _cut(bl: Banlist, share: float, day: dt.date | None = None) -> str:
    """The list as deckcheck writes it, cut at a line end after `share` of its lines."""
    lines = native.dump_list(bl).splitlines()
    text = "\n".join(lines[: int(len(lines) * share)]) + "\n"
    return text.replace(f"effective = {bl.effective.isoformat()}",
                        f"effective = {(day or bl.effective).isoformat()}")


@pytest.fixture
def shipped() -> Banlist:
    bl = load_format("tcg").banlist_at(DAY)
    assert bl is not None and bl.effective == DAY
    return bl


def _counts(bl: Banlist) -> tuple[int, int]:
    return (sum(1 for e in bl.entries if e.limit == 1),
            sum(1 for e in bl.entries if e.limit == 2))


@pytest.mark.parametrize("share", [0.6, 0.95])
def test_a_cut_list_of_a_day_deckcheck_has_is_refused(tmp_path: Path, banlists_home: Path,
                                                      shipped: Banlist, share: float) -> None:
    """It was "kept" (exit 0, the list in force stayed) instead of refused as `--url` is."""
    src = tmp_path / "cut.toml"
    src.write_text(_cut(shipped, share))
    cut = native.parse_list(src.read_text(), src)
    with pytest.raises(FormatError) as info:
        upd.import_lists(src)
    limited, semi = _counts(shipped)
    label, now, was = (("Limited", _counts(cut)[0], limited) if share < 0.9
                       else ("Semi-Limited", _counts(cut)[1], semi))
    assert str(info.value) == (
        f"{src}: 2025.10 TCG has {now} {label} cards where 2025.10 TCG (2025-10-27) has "
        f"{was}, so the file looks cut off; no list was changed (pass --allow-smaller if the "
        "list really shrank).")
    assert not banlists_home.exists()
    assert upd.import_lists(src, allow_smaller=True).written == {"tcg": 1}
    assert load_format("tcg").banlist_at(DAY).limits() == cut.limits()


def test_a_cut_list_under_its_name_on_another_day_is_refused(
        tmp_path: Path, banlists_home: Path, shipped: Banlist) -> None:
    """Dated a day after the list of its name (no list of its own day, not the newest), it
    was written."""
    src = tmp_path / "cut.toml"
    src.write_text(_cut(shipped, 0.6, DAY + dt.timedelta(days=1)))
    with pytest.raises(FormatError, match=r"has \d+ Limited cards where 2025.10 TCG "
                                          r"\(2025-10-27\) has \d+, so the file looks cut off"):
        upd.import_lists(src)
    assert not banlists_home.exists()
    assert upd.import_lists(src, force=True).written == {"tcg": 1}


def test_a_small_list_of_a_new_day_inside_the_history_is_imported(
        tmp_path: Path, banlists_home: Path) -> None:
    """A list of another name and a day without a list replaces none: lists do shrink from
    one to the next, so history imports are not compared with their neighbours."""
    src = tmp_path / "mine.toml"
    src.write_text(native.dump_list(Banlist(
        name="House rules", format="tcg", effective=DAY + dt.timedelta(days=1),
        entries=[BanlistEntry(passcode=55144522, name="Pot of Greed", limit=0)])))
    assert upd.import_lists(src).written == {"tcg": 1}
    assert load_format("tcg").banlist_at(DAY + dt.timedelta(days=2)).name == "House rules"


def test_what_a_list_replaces(shipped: Banlist, banlists_home: Path) -> None:
    def like(name: str, day: dt.date) -> Banlist:
        return Banlist(name=name, format="tcg", effective=day)

    newest = load_format("tcg").newest_list()
    assert newest is not None
    later = newest.effective + dt.timedelta(days=30)
    assert verify.replaced(like("Other", DAY)) == shipped  # its day's
    assert verify.replaced(like("2025.10 TCG", DAY + dt.timedelta(days=3))) == shipped
    assert verify.replaced(like("Other", later)) == newest  # the one it follows
    assert verify.replaced(like("Other", DAY + dt.timedelta(days=3))) is None
    assert verify.replaced(Banlist(name="x", format="no-such-format", effective=DAY)) is None


def test_the_cli_refuses_a_cut_file_in_one_sentence(tmp_path: Path, banlists_home: Path,
                                                    shipped: Banlist) -> None:
    from deckcheck.cli.main import cli

    src = tmp_path / "cut.toml"
    src.write_text(_cut(shipped, 0.6))
    runner = CliRunner()
    result = runner.invoke(cli, ["banlist", "update", "--from", str(src)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "so the file looks cut off" in result.stderr
    assert "--allow-smaller" in result.stderr
    result = runner.invoke(cli, ["banlist", "update", "--from", str(src), "--allow-smaller"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("tcg: 1 list\n")


@pytest.mark.parametrize("share", [0.6, 0.95])
def test_the_real_worlds_list_cut_is_refused(tmp_path: Path, banlists_home: Path,
                                             shared_data: Path, share: float) -> None:
    """EDOPro's real World.lflist.conf cut at a line end: `--url` refused it, `--from` kept
    the shipped list saying "much smaller" and exited 0."""
    text = (shared_data / "banlists" / "lflists" / "World.lflist.conf").read_text()
    lines = text.splitlines()
    src = tmp_path / "src"
    src.mkdir()
    (src / "World.lflist.conf").write_text("\n".join(lines[: int(len(lines) * share)]) + "\n")
    with pytest.raises(FormatError, match=r"World.lflist.conf: 2026.05 Worlds has \d+ "
                                          r"[-A-Za-z]+ cards where 2026.05 Worlds \(2026-05-18\) "
                                          r"has \d+, so the file looks cut off"):
        upd.import_lists(src)
    assert not banlists_home.exists()
