"""Bad and odd input to every command: one clear sentence on stderr, the right exit code,
nothing lost, never a traceback. Each test is a regression test for a problem found by
attacking the CLI the way users do (wrong paths, folders, junk files, bad options)."""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from deckcheck.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tcg-legal.ydk"
PROFILE = ROOT / "examples" / "tcg-legal.profile.toml"
CARDINFO = ROOT / "tests" / "sources" / "fixtures" / "ygoprodeck_small.json"
BUILTIN_NOTE = ("note: using deckcheck's small built-in card set; run `deckcheck cards update` "
                "(or `cards import FILE`) for the full card pool.")
# Facts: the built-in card set holds these cards (names and passcodes of real cards).
ASH = "Ash Blossom & Joyous Spring"


def run(*args: str, input: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def last_err(result: Result) -> str:
    """The last line of stderr: where the one-sentence error is."""
    lines = result.stderr.splitlines()
    return lines[-1] if lines else ""


def no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    assert "Traceback" not in result.output


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with the example deck as deck.ydk; the user banlist folder inside."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DECKCHECK_BANLISTS", str(tmp_path / "user-banlists"))
    shutil.copy(EXAMPLE, tmp_path / "deck.ydk")
    return tmp_path


def _typo_deck(folder: Path) -> Path:
    """The example deck as text plus one misspelt line: 40 readable Main Deck cards."""
    lines = ["Main", "3 Blue Eyes Whyte Dragon"]
    text = (ROOT / "examples" / "tcg-legal.txt").read_text(encoding="utf-8").splitlines()
    path = folder / "typo.txt"
    path.write_text("\n".join(lines + text[1:]) + "\n", encoding="utf-8")
    return path


# -- convert ----------------------------------------------------------------------------------

def test_convert_refuses_to_write_over_its_input(here: Path) -> None:
    deck = here / "mine.txt"
    original = f"3 {ASH}\n2 Totally Fake Card\n"
    deck.write_text(original)
    result = run("convert", "mine.txt", "./mine.txt")
    no_traceback(result)
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: ./mine.txt is the file being converted; write to a "
                                "new file so that the original stays as it is.")
    assert deck.read_text() == original  # the unreadable line is not lost


def test_convert_to_a_folder_or_to_nothing(here: Path) -> None:
    (here / "out").mkdir()
    for args in (("deck.ydk", "out"), ("--to", "ydk", "deck.ydk", "out")):
        result = run("convert", *args)
        assert result.exit_code == 2
        assert last_err(result) == ("deckcheck: out is a folder; give a file name inside it, "
                                    "such as out/deck.ydk.")
    result = run("convert", "deck.ydk", "")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: No output file was named (the path is empty); give "
                                "a file name such as deck.ydk.")


def test_converted_file_gets_the_usual_permissions(here: Path) -> None:
    old = os.umask(0o022)
    try:
        result = run("convert", "deck.ydk", "copy.ydke")
    finally:
        os.umask(old)
    assert result.exit_code == 0
    assert (here / "copy.ydke").stat().st_mode & 0o777 == 0o644  # not mkstemp's 0o600


def test_empty_path_and_garbage_codes_are_named(here: Path) -> None:
    result = run("convert", "", "x.ydk")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: '' is not a file name; give a deck file, - for "
                                "standard input, or a ydke:// URL.")
    code = "bm90IGFuIG9tZWdhIGNvZGUgYXQgYWxs"  # base64 of "not an omega code at all"
    result = run("convert", code, "x.ydk")
    assert last_err(result) == (f"deckcheck: {code}: no such file, and not a ydke:// URL or "
                                "Omega deck code that decodes; check the path, or copy the "
                                "whole code again.")
    result = run("convert", "--from", "omega", code, "x.ydk")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: The Omega deck code does not inflate (it is not "
                                "DEFLATE data); copy the whole code from YGO Omega.")
    assert not (here / "x.ydk").exists()


def test_old_excel_file(here: Path) -> None:
    """An .xls (OLE2) file was decoded as cp1252 text: a deck of one unknown 'card'."""
    (here / "regs.xls").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"workbook" * 8)
    result = run("check", "regs.xls")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == ("deckcheck: regs.xls is an old Excel (.xls) or other Office file; "
                             "save it as an Excel Workbook (.xlsx) and try again.\n")


def test_utf16_without_byte_order_mark_is_read(here: Path) -> None:
    (here / "u16.txt").write_bytes(f"3 {ASH}\n".encode("utf-16-le"))
    result = run("convert", "u16.txt", "-", "--to", "ydke")
    assert result.exit_code == 0
    assert result.stdout == "ydke://ryPeAK8j3gCvI94A!!!\n"  # three times 14558127


# -- check ------------------------------------------------------------------------------------

def test_standard_input_named_twice(here: Path) -> None:
    """The second read of stdin is empty: it was reported as a deck with no card lines."""
    ydk = EXAMPLE.read_bytes()
    result = run("check", "-", "-", input=ydk)
    assert result.exit_code == 2
    assert result.stderr == ("deckcheck: Standard input (-) can be read only once; save the "
                             "other decks to files.\n")
    result = run("diff", "-", "-", input=ydk)
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: Standard input (-) can be read only once; save one "
                                "of the decks to a file.")


def test_negative_points_cap_is_refused(here: Path) -> None:
    for cmd in (("check",), ("event", "check")):
        result = run(*cmd, "--points-cap", "-5", "deck.ydk")
        no_traceback(result)
        assert result.exit_code == 2
        assert last_err(result) == ("deckcheck: --points-cap must be 0 or more, not -5; give "
                                    "the points a deck may have.")


def test_banlist_folder_or_missing_file(here: Path) -> None:
    (here / "lists").mkdir()
    result = run("check", "--banlist", "lists", "deck.ydk")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: lists is a folder, not a list file; give a .toml or "
                                ".lflist.conf file, a list name or a format id.")
    result = run("check", "--banlist", "missing.toml", "deck.ydk")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: missing.toml: no such list file; check the path, or "
                                "give a list name (`deckcheck banlist list`) or a format id.")


def test_a_deck_given_as_the_banlist_is_refused(here: Path) -> None:
    """Swapped arguments once checked the deck against an empty list named "side"."""
    illegal = str(ROOT / "examples" / "tcg-illegal.ydk")
    for args in (("check", "--banlist", illegal, illegal), ("banlist", "diff", illegal, "tcg"),
                 ("event", "check", "--banlist", illegal, "deck.ydk")):
        result = run(*args)
        assert result.exit_code == 2
        assert last_err(result) == (f"deckcheck: {illegal} is a deck (.ydk), not a Forbidden & "
                                    "Limited List; give a list file, a list name or a format id "
                                    "as the list.")
        assert result.stdout == ""


def test_card_database_path_is_a_folder(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (here / "dbdir").mkdir()
    monkeypatch.setenv("DECKCHECK_DB", str(here / "dbdir"))
    expected = (f"deckcheck: {here / 'dbdir'} is a folder, not a card database file; point --db "
                f"or DECKCHECK_DB at a file such as {here / 'dbdir' / 'cards.sqlite'}.")
    for args in (("check", "deck.ydk"), ("cards", "info"), ("cards", "import", str(CARDINFO))):
        result = run(*args)
        assert result.exit_code == 2
        assert result.stderr == expected + "\n"  # one line: no click usage text


# -- cards ------------------------------------------------------------------------------------

def test_card_database_cannot_be_written(here: Path) -> None:
    (here / "afile").write_text("x")
    db = here / "afile" / "cards.sqlite"
    result = run("--db", str(db), "cards", "import", str(CARDINFO))
    no_traceback(result)
    assert result.exit_code == 2
    assert last_err(result) == (f"deckcheck: {db}: the card database cannot be written there (a "
                                f"file is in the way of the folder {here / 'afile'}); pass a "
                                "file you may write with --db or DECKCHECK_DB; nothing was "
                                "changed.")


def test_cards_import_of_damaged_binary_or_empty_files(here: Path) -> None:
    full = here / "full.zip"
    with zipfile.ZipFile(full, "w") as zf:
        zf.writestr("cardinfo.json", CARDINFO.read_text() * 3)
    (here / "cut.zip").write_bytes(full.read_bytes()[:200])
    (here / "junk.bin").write_bytes(bytes(range(256)) * 4)
    (here / "empty.json").write_bytes(b"")
    expected = {
        "cut.zip": "cut.zip is a damaged or incomplete zip archive; nothing was changed — "
                   "download it again.",
        "junk.bin": "junk.bin is not card data (neither JSON text, an SQLite card database nor "
                    "a zip of one); nothing was changed — check the file.",
        "empty.json": "empty.json is empty; nothing was changed — download it again.",
    }
    for name, message in expected.items():
        result = run("cards", "import", name)
        no_traceback(result)
        assert result.exit_code == 2
        assert last_err(result) == f"deckcheck: {message}"
    assert not (here / "cards.sqlite").exists()


def test_cards_update_from_another_source_names_the_file(here: Path) -> None:
    (here / "other.json").write_text(json.dumps({"a": [1, 2]}))
    result = run("cards", "update", "--from", "other.json")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: other.json is not a YGOPRODeck cardinfo.php answer "
                                "(no \"data\" list of cards); nothing was changed — import other "
                                "card data with `deckcheck cards import FILE`.")


def test_cards_show_part_of_a_name_and_empty_search(here: Path) -> None:
    result = run("cards", "show", "Ash Blossom")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: No card named or numbered 'Ash Blossom' is in the "
                                f"card pool; did you mean '{ASH}', 'Blossom Bombardment', "
                                "'Red Blossoms from Underroot'?")
    result = run("cards", "search", "  ")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: The search is empty; give a part of a card name, "
                                "e.g. `deckcheck cards search \"Blue-Eyes\"`.")


def test_damaged_card_database(here: Path) -> None:
    """A store whose pages after the first are lost: `cards info` printed a sqlite3 traceback."""
    db = here / "cards.sqlite"
    assert run("--db", str(db), "cards", "import", str(CARDINFO)).exit_code == 0
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page:] = bytes(len(data) - page)
    db.write_bytes(bytes(data))
    result = run("--db", str(db), "cards", "info")
    no_traceback(result)
    assert result.exit_code == 2
    assert last_err(result) == (f"deckcheck: The card database {db} is damaged (database disk "
                                "image is malformed); delete it and run `deckcheck cards "
                                "update`.")
    result = run("--db", str(db), "check", "deck.ydk")
    assert result.exit_code == 2
    assert last_err(result) == (f"deckcheck: {db} is damaged (database disk image is "
                                "malformed); delete it and run `deckcheck cards update`.")


def test_any_sqlite_error_becomes_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from deckcheck.cli.common import UserError, handle_errors

    monkeypatch.setenv("DECKCHECK_DB", "/data/cards.sqlite")

    @handle_errors
    def query() -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    with pytest.raises(UserError) as info:
        query()
    assert info.value.format_message() == (
        "The card database /data/cards.sqlite is damaged (database disk image is malformed); "
        "delete it and run `deckcheck cards update`.")


# -- banlist ----------------------------------------------------------------------------------

def test_banlist_bad_date_names_the_option(here: Path) -> None:
    result = run("banlist", "show", "tcg", "--date", "2026-13-45")
    assert result.exit_code == 2
    assert last_err(result) == ('deckcheck: --date "2026-13-45" is not a date; write it as '
                                "YYYY-MM-DD, e.g. 2026-05-18.")


def test_banlist_export_into_a_missing_folder(here: Path) -> None:
    result = run("banlist", "export", "tcg", "-o", "nowhere/tcg.conf")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: nowhere/tcg.conf: cannot be written (No such file "
                                "or directory); check the folder and permissions.")
    assert run("banlist", "export", "tcg", "-o", "tcg.conf").exit_code == 0
    assert (here / "tcg.conf").read_text().startswith("#[")


def test_banlist_update_from_an_empty_folder_or_into_a_file(
        here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (here / "empty").mkdir()
    result = run("banlist", "update", "--from", "empty")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: empty holds no list deckcheck can import "
                                "(.lflist.conf, .toml, Konami-id .json or YGOPRODeck cardinfo); "
                                "nothing was changed.")
    (here / "afile").write_text("x")
    monkeypatch.setenv("DECKCHECK_BANLISTS", "afile")
    result = run("banlist", "update", "--from", str(ROOT / "banlists" / "tcg"))
    no_traceback(result)
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: afile: the lists cannot be written there (Not a "
                                "directory); set DECKCHECK_BANLISTS to a folder you may write.")


def test_a_damaged_imported_list_names_the_file(here: Path) -> None:
    """A list in the user's banlist folder that is not UTF-8 gave a UnicodeDecodeError."""
    bad = here / "user-banlists" / "ocg" / "2026-09-01.toml"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"\xff\xfe junk")
    for args in (("check", "-f", "ocg", "deck.ydk"), ("banlist", "list")):
        result = run(*args)
        no_traceback(result)
        assert result.exit_code == 2
        assert last_err(result) == (f"deckcheck: {bad}: not a UTF-8 text file; save it as "
                                    "UTF-8, or remove it.")


def test_banlist_download_failure_is_one_sentence(here: Path) -> None:
    result = run("banlist", "update", "--url", "nope://example/x.lflist.conf")
    assert result.exit_code == 2
    err = last_err(result)
    assert err.startswith("deckcheck: No list could be downloaded: Downloading "
                          "nope://example/x.lflist.conf failed")
    assert err.count("nothing was changed") == 1 and ".);" not in err


# -- draw and odds ----------------------------------------------------------------------------

def test_draw_and_odds_say_which_lines_were_left_out(here: Path) -> None:
    _typo_deck(here)
    result = run("draw", "typo.txt", "--seed", "1")
    assert result.exit_code == 0
    assert result.stderr.splitlines()[1] == (
        "note: typo.txt:2: left out of the hands: No card is named 'Blue Eyes Whyte Dragon'; "
        "did you mean Blue-Eyes White Dragon or Blue-Eyes White Dragon (Rush) or Blue-Eyes White "
        "Dragon (Deck Master)?")  # every card built in: Rush and Deck Master cards too
    result = run("odds", "typo.txt", "--profile", str(PROFILE), "--hands", "200", "--seed", "1",
                 "--no-sensitivity")
    assert result.exit_code == 0
    assert "note: typo.txt:2: left out of the odds: No card is named 'Blue Eyes Whyte Dragon'" \
        in result.stderr


def test_odds_profile_that_is_binary_or_a_folder(here: Path) -> None:
    (here / "junk.toml").write_bytes(bytes(range(128, 256)))
    (here / "dir.toml").mkdir()
    result = run("odds", "deck.ydk", "--profile", "junk.toml")
    no_traceback(result)
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: junk.toml is not a text file; give a profile TOML "
                                "file saved as UTF-8.")
    result = run("odds", "deck.ydk", "--profile", "dir.toml")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: dir.toml is a folder, not a profile file; give a "
                                ".profile.toml file.")


def test_odds_on_a_folder_path_has_no_traceback(here: Path) -> None:
    for deck in ("/", "."):
        result = run("odds", deck)
        no_traceback(result)
        assert result.exit_code == 2
        assert last_err(result) == (f"deckcheck: No profile for {deck}: write a .profile.toml "
                                    "next to it, or give --profile FILE or --need \"ROLE>=1\".")


def test_odds_chart_into_a_missing_folder_fails_before_the_work(here: Path) -> None:
    result = run("odds", "deck.ydk", "--profile", str(PROFILE), "--chart", "nowhere/odds.png")
    assert result.exit_code == 2
    assert result.stderr == ("deckcheck: nowhere/odds.png: the folder nowhere does not exist; "
                             "create it or write the chart somewhere else.\n")


def test_odds_on_a_deck_too_small_names_the_deck(here: Path) -> None:
    (here / "small.ydk").write_text("#main\n14558127\n14558127\n14558127\n#extra\n!side\n")
    result = run("odds", "deck.ydk", "--profile", str(PROFILE), "--compare", "small.ydk",
                 "--hands", "100", "--no-sensitivity")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: small.ydk: its Main Deck has 3 cards, too few to "
                                "deal an opening hand (5 cards, 6 going second); add cards to "
                                "it.")


# -- event ------------------------------------------------------------------------------------

def test_event_check_on_a_folder_without_decks(here: Path) -> None:
    (here / "regs").mkdir()
    (here / "regs" / "notes.md").write_text("bring dice\n")
    result = run("event", "check", "regs")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: regs: no deck file found (looked for .csv, .omega, "
                                ".text, .tsv, .txt, .xlsm, .xlsx, .ydk, .ydke); check the "
                                "folder.")
    assert result.stdout == ""
    result = run("event", "sheet", "regs", "-o", "sheets")
    assert result.exit_code == 2
    assert last_err(result).startswith("deckcheck: regs: no deck file found")
    assert not (here / "sheets").exists()


def test_registration_table_without_rows(here: Path) -> None:
    (here / "regs.csv").write_text("Player,Konami ID,Deck\n")
    for args in (("event", "check", "regs.csv"), ("event", "sheet", "regs.csv", "-o", "s")):
        result = run(*args)
        no_traceback(result)  # `event sheet` raised IndexError
        assert result.exit_code == 2
        assert last_err(result) == ("deckcheck: regs.csv: no registration found (the "
                                    "registration table has no rows); add one row per player.")


def test_event_report_never_replaces_a_registration(here: Path) -> None:
    url = run("convert", "deck.ydk", "-", "--to", "ydke").stdout.strip()
    table = here / "regs.csv"
    table.write_text(f"Player,Deck\nAlice,{url}\n")
    original = table.read_bytes()
    result = run("event", "check", "regs.csv", "-o", "regs.csv")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: regs.csv is one of the registrations being checked; "
                                "write the report to another file so that it stays as it is.")
    assert table.read_bytes() == original


def test_event_report_never_replaces_a_registration_found_in_a_folder(
        here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder is walked once for the check and for this refusal: a registration found in
    it, by its own path or through a link to it, is never written over."""
    from deckcheck.event import inputs

    walks: list[object] = []
    walk = inputs._walk_keyed
    monkeypatch.setattr(inputs, "_walk_keyed", lambda *a, **k: walks.append(a) or walk(*a, **k))
    url = run("convert", "deck.ydk", "-", "--to", "ydke").stdout.strip()
    regs = here / "regs"
    regs.mkdir()
    table = regs / "table.csv"
    table.write_text(f"Player,Deck\nAlice,{url}\n")
    original = table.read_bytes()
    os.symlink(table, here / "link.csv")
    os.link(table, here / "hard.csv")
    for output in ("regs/table.csv", "link.csv", "hard.csv"):
        result = run("event", "check", "regs", "-o", output)
        assert result.exit_code == 2, output
        assert last_err(result) == (f"deckcheck: {output} is one of the registrations being "
                                    "checked; write the report to another file so that it "
                                    "stays as it is.")
        assert table.read_bytes() == original
    walks.clear()
    assert run("event", "check", "regs", "-o", "report.csv").exit_code == 0
    assert len(walks) == 1


def test_check_report_never_replaces_a_deck_it_checks(here: Path) -> None:
    """`check deck.ydk -o deck.ydk` wrote the report over the deck (exit 0, the deck gone)."""
    original = (here / "deck.ydk").read_bytes()
    result = run("check", "other.ydk", "deck.ydk", "-o", "deck.ydk")
    no_traceback(result)
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: deck.ydk is one of the decks being checked; "
                                "write the report to another file so that it stays as it is.")
    assert (here / "deck.ydk").read_bytes() == original
    result = run("check", "deck.ydk", "-o", "report.txt")  # another file: written
    assert result.exit_code in (0, 1) and (here / "report.txt").is_file()


def test_reports_saved_into_the_event_folder_are_not_read_as_decks(here: Path) -> None:
    """A second `event check` read the first run's report.csv, report.problems.csv and
    report.xlsx as registrations (a 'Players' deck of 3 cards: illegal, exit 1)."""
    regs = here / "regs"
    regs.mkdir()
    shutil.copy(EXAMPLE, regs / "Alice.ydk")
    first = run("event", "check", "regs", "-o", "regs/report.csv")
    assert first.exit_code == 0
    assert run("event", "check", "regs", "-o", "regs/report.xlsx").exit_code == 0
    again = run("event", "check", "regs", "--json")
    assert again.exit_code == 0
    assert json.loads(again.stdout)["total"] == 1


def test_event_report_into_a_missing_folder_fails_before_the_work(here: Path) -> None:
    result = run("event", "check", "deck.ydk", "-o", "nowhere/report.csv")
    assert result.exit_code == 2
    assert result.stderr == ("deckcheck: nowhere/report.csv: the folder nowhere does not exist; "
                             "create it or write the report somewhere else.\n")


def test_event_sheet_never_replaces_a_file_without_force(here: Path) -> None:
    signed = here / "sheet.xlsx"
    signed.write_bytes(b"signed by the player")
    result = run("event", "sheet", "deck.ydk", "-o", "sheet.xlsx")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: sheet.xlsx already exists; pass --force to replace "
                                "it, or choose another name.")
    assert signed.read_bytes() == b"signed by the player"
    result = run("event", "sheet", "deck.ydk", "-o", "sheet.xlsx", "--force")
    assert result.exit_code == 0
    assert zipfile.is_zipfile(signed)


def test_event_sheet_output_names(here: Path) -> None:
    result = run("event", "sheet", "deck.ydk", "-o", "sheet.txt")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: sheet.txt: a registration sheet is an .xlsx file; "
                                "give -o a name ending in .xlsx, or an existing folder.")
    assert not (here / "sheet.txt").exists()
    regs = here / "regs"
    regs.mkdir()
    shutil.copy(EXAMPLE, regs / "Alice.ydk")
    shutil.copy(EXAMPLE, regs / "Bob.ydk")
    (here / "afile").write_text("x")
    result = run("event", "sheet", "regs", "-o", "afile")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: regs holds 2 registrations: give -o a folder for "
                                "one sheet per player.")
    assert run("event", "sheet", "regs", "-o", "sheets").exit_code == 0
    result = run("event", "sheet", "regs", "-o", "sheets")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: sheets/Alice.xlsx (and 1 more) already exists; pass "
                                "--force to replace it, or choose another name.")


# -- diff -------------------------------------------------------------------------------------

def test_diff_never_calls_decks_with_unread_lines_identical(here: Path) -> None:
    _typo_deck(here)
    result = run("diff", str(ROOT / "examples" / "tcg-legal.txt"), "typo.txt")
    assert result.exit_code == 2
    assert result.stdout == (
        "The cards that could be read are the same (main 40, extra 15, side 15), but not every "
        "entry could be read, so the decks may still differ.\n"
        "note: B has 1 entry (typo.txt:2) that could not be read and is not compared.\n")
    data = json.loads(run("diff", "deck.ydk", "typo.txt", "--json").stdout)
    assert data["identical"] is False and data["changes"] == []


def test_diff_with_changes_and_an_unread_entry_exits_2(here: Path) -> None:
    """Changes were found, but an entry that could not be read may hide more: exit 2."""
    (here / "other.txt").write_text("Main\n3 Pot of Greed\n3 Blue Eyes Whyte Dragon\n",
                                    encoding="utf-8")
    result = run("diff", "deck.ydk", "other.txt")
    assert result.exit_code == 2
    assert "Main: Pot of Greed 0 \u2192 3 (+3)" in result.stdout
    assert "note: B has 1 entry (other.txt:3) that could not be read" in result.stdout
    assert run("diff", "deck.ydk", "deck.ydk").exit_code == 0


def test_diff_against_a_file_that_is_no_deck(here: Path) -> None:
    (here / "notes.txt").write_text("bring dice\nand sleeves\n")
    result = run("diff", "deck.ydk", "notes.txt")
    assert result.exit_code == 2
    assert last_err(result) == ("deckcheck: notes.txt: none of its 2 entries could be read as a "
                                "card (first at notes.txt:1); check that it is a deck file.")
    assert result.stdout == ""


# -- what every command shares -----------------------------------------------------------------

def test_an_unexpected_os_error_still_says_where_and_what_to_do() -> None:
    import click

    from deckcheck.cli.common import UserError, handle_errors

    @handle_errors
    def boom() -> None:
        raise FileNotFoundError(2, "No such file or directory", "/x/y.png")

    with pytest.raises(UserError) as info:
        boom()
    assert isinstance(info.value, click.ClickException)
    assert info.value.format_message() == ("/x/y.png: No such file or directory; check the path "
                                           "and its permissions.")


def test_a_closed_pipe_stops_quietly(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`deckcheck draw -n 2000 deck | head -1` printed a traceback (BrokenPipeError)."""
    import io

    from deckcheck.cli.common import EXIT_ERROR, handle_errors

    monkeypatch.setattr("sys.stdout", io.StringIO())  # no file descriptor to silence

    @handle_errors
    def printing() -> None:
        raise BrokenPipeError(32, "Broken pipe")

    with pytest.raises(SystemExit) as info:
        printing()
    assert info.value.code == EXIT_ERROR
    assert capsys.readouterr().err == ""
