"""`deckcheck convert` through CliRunner: exact output, exit codes, stdin/stdout, URLs on the
command line, the registration sheet, and reading problems on stderr."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from clikit import InstallPool, card
from pypdf import PdfReader

from deckcheck.cards.model import Frame
from deckcheck.cli.main import cli

# Facts: passcodes, names, kinds and frames of real cards.
CARDS = [
    card(14558127, "Ash Blossom & Joyous Spring", alts=(14558128,)),
    card(35261759, "Pot of Desires", Frame.SPELL),
    card(10045474, "Infinite Impermanence", Frame.TRAP),
    card(86066372, "Accesscode Talker", Frame.LINK),
]
YDK = "#main\n14558127\n14558127\n35261759\n#extra\n86066372\n!side\n10045474\n"
URL = "ydke://ryPeAK8j3gA/DRoC!xEQhBQ==!IkiZAA==!"  # computed with struct + base64


@pytest.fixture
def env(install_pool: InstallPool, tmp_path: Path) -> Path:
    install_pool(CARDS)
    (tmp_path / "d.ydk").write_text(YDK)
    return tmp_path


def run(*args: str, input: bytes | None = None):  # noqa: ANN201
    return CliRunner().invoke(cli, ["convert", *args], input=input)


def test_ydk_to_ydke_on_stdout_needs_no_card_database(env: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(db: object = None) -> None:
        raise AssertionError("the pool was opened")

    monkeypatch.setattr("deckcheck.cards.load.open_pool", no_pool)
    result = run("d.ydk", "-", "--to", "ydke")
    assert result.exit_code == 0, result.output
    assert result.stdout == URL + "\n"
    assert result.stderr == "wrote standard output as ydke (main 3, extra 1, side 1).\n"


def test_url_on_the_command_line_to_a_ydk_file(env: Path) -> None:
    result = run(URL, "out.ydk")
    assert result.exit_code == 0
    assert result.stderr == "wrote out.ydk as ydk (main 3, extra 1, side 1).\n"
    assert (env / "out.ydk").read_text() == "#created by deckcheck\n" + YDK


def test_broken_url_exits_2_with_one_sentence(env: Path) -> None:
    result = run("ydke://ryPeAK8j3gA/DRo!!!", "out.ydk")
    assert result.exit_code == 2
    assert result.stderr == ("deckcheck: The Main Deck part of the ydke:// URL is cut short or "
                             "padded wrongly (base64 length not a multiple of 4); copy the "
                             "whole URL again.\n")
    assert not (env / "out.ydk").exists()


def test_text_with_problems_prints_them_and_still_writes(env: Path) -> None:
    (env / "list.txt").write_text("Main\n2 Ash Blossom & Joyous Spring\n0 Pot of Desires\n"
                                  "1 Pot of Desirez\n1 424242\n")
    result = run("list.txt", "out.ydk")
    assert result.exit_code == 0
    assert result.stderr == (
        "list.txt:3: The count '0' for 'Pot of Desires' is zero; write 1 to 99 copies.\n"
        "list.txt:4: No card is named 'Pot of Desirez'; did you mean Pot of Desires?\n"
        "list.txt:5: The card database does not know passcode 424242; it is kept as written.\n"
        "wrote out.ydk as ydk (main 3, extra 0, side 0); 3 problems reported above.\n")
    assert (env / "out.ydk").read_text().splitlines()[1:5] == [
        "#main", "14558127", "14558127", "424242"]


def test_registration_sheet_and_back(env: Path) -> None:
    result = run("d.ydk", "sheet.xlsx", "--player", "Jane Doe", "--player-id", "0000123456",
                 "--event", "Regional", "--date", "2026-11-22", "--country", "FR",
                 "--deck-name", "Ash Pot")
    assert result.exit_code == 0, result.output
    from openpyxl import load_workbook

    ws = load_workbook(env / "sheet.xlsx").active
    assert [(ws[f"A{r}"].value, ws[f"C{r}"].value) for r in range(3, 10)] == [
        ("First Name", "Jane"), ("Last Name", "Doe"), ("CARD GAME ID", "0000123456"),
        ("Event Name", "Regional"), ("Event Date", "2026-11-22"),
        ("Country of Residence", "FR"), ("Deck Name", "Ash Pot")]
    back = run("sheet.xlsx", "-", "--to", "ydk")
    assert back.exit_code == 0
    assert back.stdout == "#created by deckcheck\n" + YDK


def test_stdin_to_text(env: Path) -> None:
    result = run("-", "-", "--to", "text", input=YDK.encode())
    assert result.exit_code == 0
    assert result.stdout == ("Monster (2)\n2 Ash Blossom & Joyous Spring\n\nSpell (1)\n"
                             "1 Pot of Desires\n\nExtra Deck (1)\n1 Accesscode Talker\n\n"
                             "Side Deck (1)\n1 Infinite Impermanence\n")


def test_output_format_from_extension_or_refused(env: Path) -> None:
    assert run("d.ydk", "out.csv").exit_code == 0
    assert (env / "out.csv").read_text().splitlines()[1] == (
        "Main,2,Ash Blossom & Joyous Spring,14558127")
    result = run("d.ydk", "out.deck")
    assert result.exit_code == 2
    assert result.stderr.startswith("deckcheck: Cannot tell the deck format from 'out.deck'")


def test_player_fields_only_go_to_xlsx_and_pdf(env: Path) -> None:
    result = run("d.ydk", "-", "--player", "Jane")
    assert result.exit_code == 0
    assert result.stderr.splitlines()[0] == (
        "note: player fields (--player, --event…) are written only to xlsx registration sheets "
        "and PDF decklists.")


def test_convert_writes_a_pdf_decklist_with_the_player_fields(env: Path) -> None:
    result = run("d.ydk", "-o", "decklist.pdf", "--player", "Jane Doe", "--player-id",
                 "0301234567", "--event", "Regional", "--date", "2026-12-05")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1] == (
        "wrote decklist.pdf as pdf (main 3, extra 1, side 1).")
    reader = PdfReader(io.BytesIO((env / "decklist.pdf").read_bytes()))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    for expected in ("Jane", "Doe", "0 3 0 1 2 3 4 5 6 7", "Regional", "2026-12-05",
                     "2 Ash Blossom & Joyous Spring", "1 Pot of Desires",
                     "1 Accesscode Talker", "1 Infinite Impermanence"):
        assert expected in text, expected


def test_convert_names_its_output_once(env: Path) -> None:
    for args in (("d.ydk",), ("d.ydk", "a.ydk", "-o", "b.ydk")):
        result = run(*args)
        assert result.exit_code == 2
        assert result.stderr.splitlines()[-1] == (
            "deckcheck: Name the file to write once: as OUT after IN, or with -o.")


def test_workbook_with_several_decks_needs_sheet(env: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "Alice"
    wb.active.append(["Qty", "Name"])
    wb.active.append([1, "Pot of Desires"])
    bob = wb.create_sheet("Bob")
    bob.append(["Qty", "Name"])
    bob.append([2, "Pot of Desires"])
    buf = io.BytesIO()
    wb.save(buf)
    (env / "event.xlsx").write_bytes(buf.getvalue())
    result = run("event.xlsx", "-")
    assert result.exit_code == 2
    assert result.stderr == ("deckcheck: event.xlsx holds 2 decks ('Alice', 'Bob'); pick one "
                             "with --sheet.\n")
    ok = run("event.xlsx", "-", "--sheet", "Bob")
    assert ok.exit_code == 0
    assert ok.stdout.splitlines()[1:4] == ["#main", "35261759", "35261759"]
    missing = run("event.xlsx", "-", "--sheet", "Carol")
    assert missing.exit_code == 2
    assert "has no deck named 'Carol'" in missing.stderr


def test_missing_file(env: Path) -> None:
    result = run("nope.ydk", "-")
    assert result.exit_code == 2
    assert result.stderr == "deckcheck: nope.ydk: no such file; check the path.\n"


def test_omega_code_round_trip_on_the_command_line(env: Path) -> None:
    result = run("d.ydk", "-", "--to", "omega")
    assert result.exit_code == 0
    code = result.stdout.strip()
    back = run(code, "-", "--to", "ydke")
    assert back.exit_code == 0
    assert back.stdout == URL + "\n"   # Accesscode Talker filed in the Extra Deck by its frame
