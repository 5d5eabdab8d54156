"""`deckcheck cards …` through CliRunner, on hand-written fixtures."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from deckcheck.cli.main import cli

FIX = Path(__file__).resolve().parents[1] / "sources" / "fixtures"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "cards.sqlite")
    assert run("--db", path, "cards", "import", str(FIX / "ygoprodeck_small.json")).exit_code == 0
    assert run("--db", path, "cards", "import", str(FIX / "yamlyugi_small.json")).exit_code == 0
    return path


def test_import_output(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    res = run("--db", path, "cards", "import", str(FIX / "ygocdb_small.json"))
    assert res.exit_code == 0
    assert res.stdout == (f"Imported ygocdb (4 records): 4 cards (+0 alternate-artwork or "
                          f"prerelease ids) in {path}; sources: ygocdb.\n")
    res = run("--db", path, "cards", "import", "--json", str(FIX / "ygoprodeck_small.json"))
    data = json.loads(res.stdout)
    assert data["source"] == "ygoprodeck" and data["cards"] == 19
    assert sorted(data["sources"]) == ["ygocdb", "ygoprodeck"]


def test_import_unknown_file(tmp_path: Path) -> None:
    junk = tmp_path / "deck.json"
    junk.write_text('{"main": [1, 2, 3]}', encoding="utf-8")
    res = run("--db", str(tmp_path / "c.sqlite"), "cards", "import", str(junk))
    assert res.exit_code == 2
    assert res.stderr == (f"deckcheck: {junk} is not card data deckcheck knows (YGOPRODeck "
                          "cardinfo, YAML Yugi cards.json, ygocdb cards.json, EDOPro cdb or "
                          "mappings.json); nothing was changed.\n")
    assert not (tmp_path / "c.sqlite").exists()


def test_show_by_name_in_any_language_and_alt_passcode(db: str) -> None:
    expected = """Harpie Lady 1 [91932350]
  Konami id: 6186
  effect monster, main deck
  Level 4, WIND, Winged Beast, Effect, ATK 1300 / DEF 1400
  name (ja): ハーピィ・レディ１
  name (zh-CN): 神鹰女郎１
  Master Duel: no
  counts as: Harpie Lady
"""
    assert run("--db", db, "cards", "show", "91932350").stdout == expected
    assert run("--db", db, "cards", "show", "ハーピィ・レディ１").stdout == expected
    res = run("--db", db, "cards", "show", "14558128")
    assert res.stdout.splitlines()[:3] == ["Ash Blossom & Joyous Spring [14558127]",
                                           "  alternate artworks: 14558128",
                                           "  Konami id: 12950"]
    assert run("--db", db, "cards", "show", "1861629").stdout == """Decode Talker [1861629]
  link monster, extra deck
  Link 3, DARK, Cyberse, Link/Effect, ATK 2300
  Link Arrows: Top, Bottom-Left, Bottom-Right
"""


def test_show_says_when_sources_disagree(db: str) -> None:
    res = run("--db", db, "cards", "show", "Big Id Card")
    assert res.stdout.endswith("""  counts as: Umi
  sources disagree on the name it counts as:
    ygoprodeck-text: Big Id Card
    ygoprodeck-treated_as: Umi
""")


def test_show_json(db: str) -> None:
    res = run("--db", db, "cards", "show", "--json", "灰流丽")
    [card] = json.loads(res.stdout)
    assert card["passcode"] == 14558127 and card["deck"] == "main"
    assert card["names"]["ja"] == "灰流うらら" and res.stderr == ""


def test_show_unknown_suggests(db: str) -> None:
    res = run("--db", db, "cards", "show", "harpy lady 1")
    assert res.exit_code == 2
    assert res.stderr == ("deckcheck: No card named or numbered 'harpy lady 1' is in the card "
                          "pool; did you mean 'Harpie Lady 1', 'Harpie Lady'?\n")


def test_search(db: str) -> None:
    assert run("--db", db, "cards", "search", "harpie").stdout == (
        " 76812113  Harpie Lady\n 91932350  Harpie Lady 1\n")
    assert run("--db", db, "cards", "search", "harpie", "--limit", "1").stdout == (
        " 76812113  Harpie Lady\n")
    assert json.loads(run("--db", db, "cards", "search", "--json", "うらら").stdout) == [
        {"passcode": 14558127, "name": "Ash Blossom & Joyous Spring", "kind": "monster",
         "frame": "effect"}]
    assert run("--db", db, "cards", "search", "qqqq").stdout == "No card name contains 'qqqq'.\n"


def test_info(db: str) -> None:
    res = run("--db", db, "cards", "info")
    lines = res.stdout.splitlines()
    assert lines[0] == f"Card database: {db}"
    assert lines[1] == "Cards: 19 (+4 alternate-artwork ids, +0 prerelease ids)"
    assert lines[2].startswith("Built: ") and lines[2].endswith("(0 days ago)")
    assert lines[3] == ("Release dates: TCG 1, OCG 2, Master Duel 0 cards; Master Duel data "
                        "for 8 cards")  # YAML Yugi without a rarity: not in Master Duel
    # each file's day (its modification day here) for the families it speaks for
    day = dt.datetime.fromtimestamp((FIX / "yamlyugi_small.json").stat().st_mtime,
                                    dt.UTC).date().isoformat()
    assert lines[4].startswith("Data ends: card list ") and "Master Duel card pool " in lines[4]
    assert lines[5] == "Sources:"
    assert lines[6].startswith("  yaml-yugi: 6 records, version ")
    data = json.loads(run("--db", db, "cards", "info", "--json").stdout)
    assert data["cards"] == 19
    assert data["data_ends"]["md"] == day
    assert data["dated"] == {"tcg": 1, "ocg": 2, "md": 0, "master_duel": 8}
    assert [s["name"] for s in data["sources"]] == ["yaml-yugi", "ygoprodeck"]


def test_info_and_show_without_store(tmp_path: Path) -> None:
    path = tmp_path / "none.sqlite"
    assert run("--db", str(path), "cards", "info").stdout == (
        f"No card database at {path}: deckcheck uses its built-in card pool. Run "
        "`deckcheck cards update` or `deckcheck cards import FILE` for newer cards.\n")
    assert json.loads(run("--db", str(path), "cards", "info", "--json").stdout)["exists"] is False


def test_foreign_database(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database" * 20, encoding="utf-8")
    res = run("--db", str(bad), "cards", "show", "Umi")
    assert res.exit_code == 2
    assert res.stderr == (f"deckcheck: {bad} is not a deckcheck card database; move it away or "
                          "pass another file with --db, then run `deckcheck cards update`.\n")


def test_env_db(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKCHECK_DB", db)
    assert run("cards", "show", "Umi").stdout.startswith("Umi [22702055]\n")


def test_update_from_file(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    res = run("--db", path, "cards", "update", "--from", str(FIX / "ygoprodeck_small.json"))
    assert res.exit_code == 0
    assert res.stdout.startswith("Imported YGOPRODeck: 18 cards")
    res = run("--db", path, "cards", "update", "--from", str(FIX / "yamlyugi_small.json"))
    assert res.exit_code == 2 and "not a YGOPRODeck cardinfo.php answer" in res.stderr


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when the block ends


def test_update_offline_fails_at_once_naming_cards_import(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Offline, `cards update` makes one connection attempt (no retries, no waits) and says
    in one sentence how to import a file instead."""
    from deckcheck.sources import http

    def no_client(*args: object, **kw: object) -> None:
        raise AssertionError("retrying client used while offline")

    monkeypatch.setattr(http.Http, "__init__", no_client)
    monkeypatch.setenv("DECKCHECK_YGOPRODECK_URL", f"http://127.0.0.1:{_closed_port()}/api")
    res = run("--db", str(tmp_path / "c.sqlite"), "cards", "update")
    assert res.exit_code == 2
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and "`deckcheck cards import FILE`" in lines[0]
    assert lines[0].startswith("deckcheck: YGOPRODeck cannot be reached (127.0.0.1:")
    assert not (tmp_path / "c.sqlite").exists()


def test_unreachable_says_why_without_waiting() -> None:
    from deckcheck.sources.http import unreachable

    port = _closed_port()
    assert unreachable(f"http://127.0.0.1:{port}/x") == f"127.0.0.1:{port} refused the connection"
    assert unreachable("not a url") is None


def test_import_shows_its_stages_on_a_terminal(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.cli import cards

    path = str(tmp_path / "c.sqlite")
    quiet = run("--db", path, "cards", "import", str(FIX / "ygocdb_small.json"))
    assert quiet.stderr == ""  # not a terminal: no progress
    monkeypatch.setattr(cards, "on_terminal", lambda: True)
    shown = run("--db", path, "cards", "import", str(FIX / "ygoprodeck_small.json"))
    assert shown.exit_code == 0
    lines = shown.stderr.splitlines()
    assert lines[0].startswith(f"Reading {FIX / 'ygoprodeck_small.json'}… done (")
    assert lines[0].endswith(" s: ygoprodeck, 18 records)")
    assert lines[1].startswith("Merging every source and writing the card database… done (")


@pytest.mark.parametrize("sub", ["update", "import", "show", "search", "info"])
def test_help(sub: str) -> None:
    res = run("cards", sub, "--help")
    assert res.exit_code == 0 and "--json" in res.stdout


def test_show_spell_token_skill(db: str) -> None:
    assert run("--db", db, "cards", "show", "umi").stdout == """Umi [22702055]
  Konami id: 4340
  Field Spell, main deck
  name (ja): 海
  name (zh-CN): 海
  name (zh-TW): 海
  Master Duel: no
"""
    assert run("--db", db, "cards", "show", "Sheep Token").stdout == (
        "Sheep Token [73915052]\n  token\n  Level 1, EARTH, Beast, ATK 0 / DEF 0\n")
    assert run("--db", db, "cards", "show", "300302022").stdout == (
        "Fusion Party [300302022]\n  skill\n  scopes: skill\n")


def test_show_with_builtin_pool(tmp_path: Path) -> None:
    res = run("--db", str(tmp_path / "none.sqlite"), "cards", "show", "--json", "Dark Magician")
    assert res.exit_code == 0
    assert json.loads(res.stdout)[0]["passcode"] == 46986414
    res = run("--db", str(tmp_path / "none.sqlite"), "cards", "search", "Dark Magician")
    assert " 46986414  Dark Magician\n" in res.stdout
    assert res.stderr.startswith("note: using deckcheck's built-in card pool (card data to ")


def test_show_does_not_call_an_unmatched_foreign_name_a_disagreement() -> None:
    from deckcheck.cards.model import Card, Frame, Kind
    from deckcheck.cli.cards import _describe

    card = Card(passcode=91932350, name="Harpie Lady 1", kind=Kind.MONSTER, frame=Frame.EFFECT,
                rule_name="Harpie Lady",
                rule_name_evidence={"ygoprodeck-text": "Harpie Lady",
                                    "yaml-yugi-text-zh-CN": "鹰身女郎 (unknown card)"})
    lines = _describe(card)
    assert "  sources disagree on the name it counts as:" not in lines
    # nor prints the internal evidence (issue 12: `cards show "Harpie Lady 1"`)
    assert lines[-1] == "  counts as: Harpie Lady"
    assert not any("鹰身女郎" in line or "note" in line for line in lines)


def test_show_gives_release_dates_and_master_duel() -> None:
    import datetime as dt

    from deckcheck.cards.model import Card, Frame, Kind
    from deckcheck.cli.cards import _describe

    card = Card(passcode=29301450, name="S:P Little Knight", kind=Kind.MONSTER, frame=Frame.LINK,
                rule_name="S:P Little Knight", master_duel=True,
                released={"md": dt.date(2023, 7, 22), "ocg": dt.date(2023, 7, 22),
                          "tcg": dt.date(2023, 10, 19), "kr": dt.date(2023, 10, 17)})
    lines = _describe(card)
    assert "  first released: TCG 2023-10-19, OCG (Japan) 2023-07-22, Korea 2023-10-17, Master " \
        "Duel (not before) 2023-07-22" in lines
    assert "  Master Duel: yes" in lines
