"""`deckcheck check` through CliRunner: exact output for legal and illegal decks, the JSON and
parsable outputs, exit codes, colour, selection and --hands."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from clikit import InstallPool, card

from deckcheck.cards.model import Frame
from deckcheck.cli.main import cli
from deckcheck.formats.model import Banlist, BanlistEntry, Format

# Facts: passcodes, names and frames of real cards.
CARDS = [
    card(89631139, "Blue-Eyes White Dragon", Frame.NORMAL),
    card(14558127, "Ash Blossom & Joyous Spring", alts=(14558128,)),
    card(55144522, "Pot of Greed", Frame.SPELL),
    card(76812113, "Harpie Lady", Frame.NORMAL),
    card(91932350, "Harpie Lady 1", rule_name="Harpie Lady"),
    card(1861629, "Decode Talker", Frame.LINK),
] + [card(90000000 + i, f"Filler {i}", Frame.NORMAL) for i in range(40)]
PRERELEASE = 100300001  # maps to Decode Talker in this test pool

TEST_TCG = Format(id="tcg", name="TCG Advanced", excluded_scopes=["ocg_only", "anime"],
                  history=[Banlist(name="2026.05 TCG", format="tcg",
                                   effective=dt.date(2026, 5, 18),
                                   entries=[BanlistEntry(passcode=55144522, limit=0)])])


@pytest.fixture
def env(install_pool: InstallPool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A hand-made card pool and TCG format; the decks are written in tmp_path (the cwd)."""
    install_pool(CARDS, extra_ids={PRERELEASE: 1861629})
    import deckcheck.formats as formats

    real = formats.load_format

    def load(name: str) -> Format:
        return TEST_TCG if name == "tcg" else real(name)

    monkeypatch.setattr(formats, "load_format", load)
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


def ydk(path: Path, main: Sequence[int], extra: Sequence[int] = (),
        side: Sequence[int] = ()) -> str:
    lines = ["#created by test", "#main", *map(str, main), "#extra", *map(str, extra), "!side",
             *map(str, side)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path.name


FILL = [90000000 + i for i in range(40)]


def invoke(*args: str, **kw: Any) -> Any:
    return CliRunner().invoke(cli, ["check", "--date", "2026-11-22", *args], **kw)


def test_legal_deck(env: Path) -> None:
    name = ydk(env / "good.ydk", FILL[:37] + [14558127] * 3, [1861629], [89631139])
    result = invoke(name)
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "good.ydk: legal — main 40, extra 1, side 1 — TCG Advanced, list 2026.05 TCG, "
        "as of 2026-11-22\n"
        "  note: Release dates in the TCG are not known for this deck's cards in this card pool, "
        "so not-yet-released cards (DC402) could not be checked.\n")


def test_illegal_deck(env: Path) -> None:
    name = ydk(env / "bad.ydk", FILL[:36] + [91932350, 91932350, 55144522],
               [14558127], [76812113, 76812113])
    result = invoke(name, "--ignore", "DC402")
    assert result.exit_code == 1, result.output
    assert result.stdout == (
        "bad.ydk: illegal — 4 errors — main 39, extra 1, side 2 — TCG Advanced, "
        "list 2026.05 TCG, as of 2026-11-22\n"
        "  bad.ydk  DC101 main-deck-size  The Main Deck has 39 cards; TCG Advanced allows 40 to "
        "60.\n"
        "  bad.ydk:41  DC202 forbidden  Pot of Greed ×1 (limit 0): Pot of Greed is Forbidden in "
        "2026.05 TCG; remove it.\n"
        "  bad.ydk:43  DC111 main-card-in-extra  Ash Blossom & Joyous Spring ×1: Ash Blossom & "
        "Joyous Spring is an Effect Monster and cannot be in the Extra Deck; move it to the Main "
        "Deck.\n"
        "  bad.ydk:45  DC201 too-many-copies  Harpie Lady ×4 (limit 3): The deck has 4 cards "
        "named Harpie Lady across Main, Extra and Side; at most 3 are allowed (Harpie Lady 1 ×2 "
        "and Harpie Lady ×2 all count as Harpie Lady; also at line 39).\n")


def test_parsable_output(env: Path) -> None:
    name = ydk(env / "bad.ydk", FILL[:39] + [55144522])
    result = invoke(name, "--output-format", "parsable")
    assert result.exit_code == 1
    assert result.stdout == (
        "bad.ydk:42:1: DC202 Pot of Greed is Forbidden in 2026.05 TCG; remove it.\n")


def test_json_output(env: Path) -> None:
    good = ydk(env / "good.ydk", FILL)
    bad = ydk(env / "bad.ydk", FILL[:39] + [55144522])
    result = invoke(good, bad, "--output-format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["schema"] == "deckcheck.check/1"
    assert [(r["deck"], r["verdict"]) for r in doc["reports"]] == [("good.ydk", "legal"),
                                                                   ("bad.ydk", "illegal")]
    v = doc["reports"][1]["violations"][0]
    assert {k: v[k] for k in ("code", "name", "card", "passcode", "location", "count",
                              "limit")} == {
        "code": "DC202", "name": "forbidden", "card": "Pot of Greed", "passcode": 55144522,
        "location": "bad.ydk:42", "count": 1, "limit": 0}


def test_several_decks_share_notices_and_get_a_summary(env: Path) -> None:
    good = ydk(env / "good.ydk", FILL)
    bad = ydk(env / "bad.ydk", FILL[:39] + [55144522])
    result = invoke(good, bad)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("good.ydk: legal — main 40")
    assert lines[1].startswith("bad.ydk: illegal — 1 error — main 40")
    assert lines[-2].startswith("note: Release dates")
    assert lines[-1] == "2 decks: 1 legal, 1 illegal."


def test_prerelease_warning_is_legal_unless_strict(env: Path) -> None:
    name = ydk(env / "pre.ydk", FILL, [PRERELEASE])
    result = invoke(name, "--select", "DC4", "--ignore", "DC402")
    assert result.exit_code == 0
    assert result.stdout.startswith("pre.ydk: legal, 1 warning — ")
    assert "  pre.ydk:44  DC404 prerelease-id  Decode Talker ×1: 100300001 is a prerelease id" \
        in result.stdout
    assert invoke(name, "--strict").exit_code == 1


def test_unreadable_deck_and_missing_file_exit_2(env: Path) -> None:
    good = ydk(env / "good.ydk", FILL)
    result = invoke(good, "missing.ydk")
    assert result.exit_code == 2
    assert "good.ydk: legal" in result.stdout
    assert "missing.ydk" not in result.stdout.splitlines()[0]
    assert result.stdout.endswith("2 decks: 1 legal, 1 unreadable.\n")
    assert result.stderr == "deckcheck: missing.ydk: no such file; check the path.\n"


def test_unreadable_deck_alone_is_one_sentence_on_stderr(env: Path) -> None:
    result = invoke("missing.ydk")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "deckcheck: missing.ydk: no such file; check the path.\n"
    doc = json.loads(invoke("missing.ydk", "--output-format", "json").stdout)
    assert [(r["deck"], r["verdict"], r["error"]) for r in doc["reports"]] == [
        ("missing.ydk", "unreadable", "missing.ydk: no such file; check the path.")]


def test_a_non_deck_file_among_many_is_skipped_with_the_reason(env: Path) -> None:
    """`check examples/*` must not read README.md as a decklist."""
    good = ydk(env / "good.ydk", FILL)
    (env / "README.md").write_text("# My decks\n\nThese are my decks.\n", encoding="utf-8")
    result = invoke("README.md", good)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("good.ydk: legal")
    assert "README" not in result.stdout
    assert result.stderr == ("note: README.md is not a deck file (.md), so it was skipped; name "
                             "it on its own to read it as a decklist.\n")
    alone = invoke("README.md")  # named alone, it is read (as a text list)
    assert alone.exit_code != 0 and "README.md: illegal" in alone.stdout


def test_terminal_controls_in_a_name_are_escaped(env: Path) -> None:
    (env / "list.txt").write_text("3 Pot\x1b]0;pwned\x07 of Greed\n", encoding="utf-8")
    for out in ("text", "parsable"):
        result = invoke("list.txt", "--output-format", out)
        assert result.exit_code == 1
        assert "\x1b" not in result.stdout and "\x07" not in result.stdout
        assert "\\x1b]0;pwned\\x07" in result.stdout


def test_unknown_format_is_one_line_exit_2(env: Path) -> None:
    name = ydk(env / "good.ydk", FILL)
    result = invoke(name, "--format", "no-such-format")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("deckcheck: ") and result.stderr.count("\n") == 1


def test_unknown_rule_code_is_exit_2(env: Path) -> None:
    result = invoke(ydk(env / "good.ydk", FILL), "--select", "DC999")
    assert result.exit_code == 2
    assert "--list-rules" in result.stderr


def test_colour_only_when_asked_and_no_color_respected(env: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    name = ydk(env / "good.ydk", FILL)
    assert "\x1b[" not in invoke(name, color=True).stdout  # NO_COLOR is set
    monkeypatch.delenv("NO_COLOR")
    assert "\x1b[" not in invoke(name).stdout  # not a terminal
    coloured = invoke(name, color=True).stdout
    assert "\x1b[32m\x1b[1mlegal\x1b[0m" in coloured


def test_list_rules() -> None:
    result = CliRunner().invoke(cli, ["check", "--list-rules"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    from deckcheck.rules.registry import RULES

    assert len(lines) == len(RULES) >= 21  # one line per rule
    assert lines[0].split()[:3] == ["DC101", "main-deck-size", "error"]


def test_hands(env: Path) -> None:
    name = ydk(env / "good.ydk", FILL)
    result = invoke(name, "--hands", "2", "--seed", "7", "--ignore", "DC402")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [ln.split(":")[0] for ln in lines[1:]] == ["  hand 1", "  hand 2"]
    quiet = invoke(name, "--hands", "2", "--ignore", "DC402", "--output-format", "parsable")
    assert quiet.exit_code == 0 and quiet.stdout == ""
    assert quiet.stderr.endswith(
        "note: --hands is shown only with --output-format text or json; no hands shown.\n")
    assert all(len(ln.split(": ", 1)[1].split(", ")) == 5 for ln in lines[1:])
    assert invoke(name, "--hands", "2", "--seed", "7", "--ignore", "DC402").stdout == \
        result.stdout


def test_banlist_file_overrides_the_format_list(env: Path) -> None:
    (env / "mine.lflist.conf").write_text("#[2026.06 Mine]\n!2026.06 Mine\n14558127 0 --Ash\n",
                                          encoding="utf-8")
    name = ydk(env / "d.ydk", FILL[:39] + [55144522], [], [14558128])
    result = invoke(name, "--banlist", "mine.lflist.conf", "--output-format", "parsable")
    assert result.exit_code == 1, result.output
    assert result.stdout == ("d.ydk:45:1: DC202 Ash Blossom & Joyous Spring is Forbidden in "
                             "2026.06 Mine; remove it.\n")


def test_shipped_examples_with_the_shipped_tcg_format() -> None:
    """The examples/ decks against the real TCG format file and the built-in card set."""
    root = Path(__file__).resolve().parents[2] / "examples"
    args = [str(root / n) for n in ("tcg-legal.ydk", "tcg-legal.txt", "tcg-illegal.ydk")]
    result = invoke(*args, "--output-format", "json")
    assert result.exit_code == 1, result.output
    reports = json.loads(result.stdout)["reports"]
    assert [r["verdict"] for r in reports] == ["legal", "legal", "illegal"]
    assert [r["sizes"] for r in reports] == [{"main": 40, "extra": 15, "side": 15}] * 2 + [
        {"main": 39, "extra": 3, "side": 4}]
    assert [(v["code"], v["card"]) for v in reports[2]["violations"]] == [
        ("DC101", None), ("DC110", "Blue-Eyes Ultimate Dragon"), ("DC120", "Sheep Token"),
        ("DC202", "Pot of Greed"), ("DC201", "Harpie Lady"), ("DC202", 'Maxx "C"')]


def test_a_date_before_every_known_list_cannot_be_checked() -> None:
    """No verdict rather than a "legal" that skipped the list (exit 2, one sentence)."""
    deck = Path(__file__).resolve().parents[2] / "examples" / "tcg-legal.ydk"
    result = CliRunner().invoke(cli, ["check", str(deck), "--date", "1999-01-01"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("deckcheck: No TCG Advanced list in force on 1999-01-01 is "
                                    "known to deckcheck (the earliest it has is ")
    assert result.stderr.endswith("check the date, or pass --banlist to check against a list "
                                  "of your choice.\n")


def test_a_folder_is_not_a_deck_and_the_message_says_what_to_use(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["check", str(tmp_path)])
    assert result.exit_code == 2
    assert (f"{tmp_path} is a folder, not a deck file; name a file inside it "
            "(`deckcheck event check` checks a whole folder).") in result.output


def test_a_typo_on_a_forty_card_list_is_one_problem(env: Path) -> None:
    """Sizes tell the truth: 37 + 3 misspelt copies is 40 written, so no DC101."""
    lines = [f"1 Filler {i}" for i in range(37)] + ["3 Ash Blosom & Joyous Spring"]
    (env / "list.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = invoke("list.txt", "--output-format", "parsable", "--ignore", "DC402")
    assert result.exit_code == 1
    assert result.stdout == ('list.txt:38:1: DC401 No card is named "Ash Blosom & Joyous Spring" '
                             "(did you mean Ash Blossom & Joyous Spring?).\n")


def test_hands_are_bounded(env: Path) -> None:
    name = ydk(env / "good.ydk", FILL)
    result = invoke(name, "--hands", "1001")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "deckcheck: --hands must be 0 to 1000, not 1001.\n"


# -- -o/--output: the file to write, as in every other command (issue 23) ------------------

@pytest.mark.parametrize("kind", ["text", "json", "parsable"])
def test_output_writes_the_report_to_a_file(env: Path, kind: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR")  # colours on (color=True): still none in the file
    name = ydk(env / "bad.ydk", FILL[:39] + [55144522])
    printed = invoke(name, "--output-format", kind)
    written = invoke(name, "--output-format", kind, "-o", "report.out", color=True)
    assert written.exit_code == printed.exit_code == 1
    assert written.stdout == ""  # the report is in the file, without colours
    assert (env / "report.out").read_bytes() == printed.stdout_bytes
    assert written.stderr == printed.stderr
    assert [p.name for p in env.iterdir() if p.name.startswith(".report")] == []  # no temp


def test_output_replaces_a_file_and_dash_is_stdout(env: Path) -> None:
    name = ydk(env / "good.ydk", FILL)
    (env / "r.json").write_text("old", encoding="utf-8")
    assert invoke(name, "--output-format", "json", "--output", "r.json").exit_code == 0
    assert json.loads((env / "r.json").read_text(encoding="utf-8"))["reports"][0]["deck"] == \
        "good.ydk"
    result = invoke(name, "-o", "-")
    assert result.exit_code == 0 and result.stdout.startswith("good.ydk: legal")


@pytest.mark.parametrize("value", ["json", "parsable", "text", "JSON"])
def test_a_bare_output_kind_after_o_is_refused(env: Path, value: str) -> None:
    name = ydk(env / "good.ydk", FILL)
    result = invoke(name, "-o", value)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"deckcheck: -o/--output is the file to write the report to, so `-o {value}` would "
        f"write a file named {value}: choose the kind of report with --output-format "
        f"{value.lower()} (or write -o ./{value} for a file of that name).\n")
    assert not (env / value).exists()
    assert invoke(name, "-o", f"./{value}").exit_code == 0  # a file of that name, asked for
    assert (env / value).read_text(encoding="utf-8").startswith("good.ydk: legal")


def test_output_into_a_missing_folder_is_one_sentence(env: Path) -> None:
    name = ydk(env / "good.ydk", FILL)
    result = invoke(name, "-o", "nowhere/report.txt")
    assert result.exit_code == 2
    assert result.stderr == ("deckcheck: nowhere/report.txt: the folder nowhere does not exist; "
                             "create it or write the report somewhere else.\n")


@pytest.mark.parametrize(("option", "completed"), [
    ("--output-format", "plain,text\nplain,json\nplain,parsable\n"),
    ("-o", "file,\n"),  # the shell completes file names
])
def test_shell_completion_of_the_output_options(option: str, completed: str) -> None:
    result = CliRunner().invoke(cli, [], prog_name="deckcheck", env={
        "_DECKCHECK_COMPLETE": "bash_complete", "COMP_WORDS": f"deckcheck check {option} ",
        "COMP_CWORD": "3"})
    assert result.exit_code == 0
    assert result.output == completed
