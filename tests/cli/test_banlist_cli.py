"""`deckcheck banlist …` through CliRunner, with exact output for small lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck.cli.main import cli

OLD = """!2026.02 TCG
#Forbidden
55144522 0 --Pot of Greed
21044178 0 --Abyss Dweller
#Limited
83764718 1 --Monster Reborn
"""
NEW = """!2026.05 TCG
#Forbidden
55144522 0 --Pot of Greed
#Limited
21044178 1 --Abyss Dweller
#Semi-Limited
14558127 2 --Ash Blossom & Joyous Spring
"""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from deckcheck.formats.loader import clear_cache

    monkeypatch.setenv("DECKCHECK_BANLISTS", str(tmp_path / "user"))
    clear_cache()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "old.lflist.conf").write_text(OLD, encoding="utf-8")
    (tmp_path / "src" / "new.lflist.conf").write_text(NEW, encoding="utf-8")
    yield tmp_path
    clear_cache()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_diff_of_two_files(home: Path) -> None:
    code, out, _ = run("banlist", "diff", str(home / "src" / "old.lflist.conf"),
                       str(home / "src" / "new.lflist.conf"))
    assert code == 0
    assert out == (
        "2026.02 TCG (2026-02-01) → 2026.05 TCG (2026-05-01)\n"
        "Forbidden → Limited: 1\n"
        "  Abyss Dweller (21044178)\n"
        "New, Semi-Limited: 1\n"
        "  Ash Blossom & Joyous Spring (14558127)\n"
        "Removed, was Limited, now Unlimited: 1\n"
        "  Monster Reborn (83764718)\n"
        "3 changes.\n")
    code, out, _ = run("banlist", "diff", "--json", str(home / "src" / "old.lflist.conf"),
                       str(home / "src" / "new.lflist.conf"))
    data = json.loads(out)
    assert [(c["name"], c["old"], c["new"]) for c in data["moved"]] == [
        ("Abyss Dweller", "Forbidden", "Limited")]
    assert data["old"] == "2026.02 TCG" and len(data["added"]) == len(data["removed"]) == 1


def test_show_a_file(home: Path) -> None:
    code, out, _ = run("banlist", "show", str(home / "src" / "new.lflist.conf"))
    assert code == 0
    assert out == (
        "2026.05 TCG — format tcg, in force from 2026-05-01\n"
        f"source: {home / 'src' / 'new.lflist.conf'}\n"
        "Forbidden (1):\n"
        "  Pot of Greed (55144522)\n"
        "Limited (1):\n"
        "  Abyss Dweller (21044178)\n"
        "Semi-Limited (1):\n"
        "  Ash Blossom & Joyous Spring (14558127)\n")
    code, out, _ = run("banlist", "show", "--json", str(home / "src" / "new.lflist.conf"))
    data = json.loads(out)
    assert (data["name"], data["effective"], len(data["entries"])) == ("2026.05 TCG",
                                                                      "2026-05-01", 3)


def test_update_then_history_by_date(home: Path) -> None:
    # "2026.02 TCG" and "2026.05 TCG" are dated by Konami's lists that deckcheck ships, and
    # those official lists win over EDOPro's of the same day
    code, out, err = run("banlist", "update", "--from", str(home / "src"))
    assert code == 0, err
    assert out == f"Imported 0 lists into {home / 'user'}.\n"
    assert "skipped: EDOPro LFLists, old.lflist.conf: '2026.02 TCG': Konami's own list of " \
           "2026-02-02 (shipped) wins\n" in err
    (home / "src" / "next.lflist.conf").write_text(NEW.replace("2026.05", "2026.09"))
    # a hand-written list far smaller than the shipped one in force: accepted when asked
    code, out, err = run("banlist", "update", "--from", str(home / "src" / "next.lflist.conf"),
                         "--allow-smaller")
    assert out == f"tcg: 1 list\nImported 1 lists into {home / 'user'}.\n"
    code, out, _ = run("banlist", "show", "tcg", "--date", "2026-09-02")
    assert out.splitlines()[0] == "2026.09 TCG — format tcg, in force from 2026-09-01"
    code, out, _ = run("banlist", "show", "tcg", "--date", "2026-03-01")
    assert out.splitlines()[0] == "2026.02 TCG — format tcg, in force from 2026-02-02"
    code, out, _ = run("banlist", "list", "--format", "tcg")
    assert out.splitlines()[-2:] == ["2026-05-18  2026.05 TCG  (shipped)",
                                     "2026-09-01  2026.09 TCG  (imported)"]
    assert out.splitlines()[0] == "1999-08-01  1999.08 TCG  (shipped)"
    code, out, _ = run("banlist", "diff", "2026.02 TCG", "tcg", "--date", "2026-03-01")
    assert code == 0 and out.startswith("2026.02 TCG (2026-02-02) → 2026.09 TCG (2026-09-01)\n")


def test_list_formats(home: Path) -> None:
    code, out, _ = run("banlist", "list")
    assert code == 0
    lines = out.splitlines()
    assert lines[-3] == "tcg          TCG Advanced: 72 lists, current 2026.05 TCG (2026-05-18)"
    assert [ln.split()[0] for ln in lines] == ["edison", "genesys", "goat", "master-duel",
                                                "ocg", "rush", "speed", "tcg", "traditional",
                                                "worlds"]
    code, out, _ = run("banlist", "list", "--json")
    assert {r["id"]: r["current"] for r in json.loads(out)}["speed"] == "2025.07 Speed Duel"


def test_export_round_trip(home: Path) -> None:
    code, out, _ = run("banlist", "export", str(home / "src" / "new.lflist.conf"))
    assert out == ("#[2026.05 TCG]\n!2026.05 TCG\n#Forbidden\n55144522 0 --Pot of Greed\n"
                   "#Limited\n21044178 1 --Abyss Dweller\n#Semi-Limited\n"
                   "14558127 2 --Ash Blossom & Joyous Spring\n")
    target = home / "out.toml"
    code, _, _ = run("banlist", "export", "tcg", "--to", "toml", "-o", str(target))
    assert code == 0 and target.read_text().startswith("# 2026.05 TCG: tcg list")


def test_errors_are_one_line(home: Path) -> None:
    code, out, err = run("banlist", "show", "no-such-list")
    assert code == 2
    assert err == ("deckcheck: No list or format called 'no-such-list'; see `deckcheck "
                   "banlist list` for the known ones, or give a file.\n")
    code, _, err = run("banlist", "show", "tcg", "--date", "1990-01-01")
    assert code == 2 and "no list in force on 1990-01-01" in err
    code, _, err = run("banlist", "show", "tcg", "--date", "May")
    assert code == 2 and err == ('deckcheck: --date "May" is not a date; write it as YYYY-MM-DD, '
                                 "e.g. 2026-05-18.\n")


def test_update_downloads_what_url_and_ygoprodeck_choose(home: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import datetime as dt

    from deckcheck.formats import download
    from deckcheck.formats import update as upd

    calls: list[tuple[dict[str, str], dt.date | None]] = []

    def fake_fetch(urls: dict[str, str], *, pool: object = None, date: dt.date | None = None,
                   dest: object = None, allow_smaller: bool = False,
                   force: bool = False) -> upd.ImportReport:
        calls.append((dict(urls), date))
        return upd.ImportReport(dest=home / "user", written={"tcg": len(urls)})

    monkeypatch.setattr(download, "fetch", fake_fetch)
    url = "http://127.0.0.1:9/lists/Mine.lflist.conf?x=1"
    code, out, err = run("banlist", "update", "--url", url)
    assert code == 0, err
    assert calls[-1][0] == {"0-Mine.lflist.conf": url}
    code, out, err = run("banlist", "update", "--ygoprodeck", "--date", "2026-06-01")
    assert code == 0, err
    assert calls[-1] == (download.URLS | download.YGOPRODECK_URLS, dt.date(2026, 6, 1))
    assert out == f"tcg: {len(calls[-1][0])} lists\nImported {len(calls[-1][0])} lists into " \
        f"{home / 'user'}.\n"
    run("banlist", "update")
    assert calls[-1][0] == download.URLS


def test_update_refuses_a_list_whose_format_leaves_the_folder(home: Path) -> None:
    evil = home / "evil"
    evil.mkdir()
    (evil / "list.toml").write_text('name = "X"\nformat = "../../escaped"\n'
                                    'effective = 2026-06-01\n\n[forbidden]\n1 = "A"\n')
    code, out, err = run("banlist", "update", "--from", str(evil))
    assert code == 2 and out == ""
    assert err == (f"deckcheck: {evil / 'list.toml'}: format '../../escaped' is not a format "
                   "id (lowercase letters, digits and dashes, like \"tcg\"); fix the list's "
                   "`format` line. Nothing was changed.\n")
    assert not (home / "escaped").exists() and not (home.parent / "escaped").exists()
    assert not (home / "user").exists()
