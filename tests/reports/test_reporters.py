"""Reporters by name: text (grouped, styled through an injected function), json (schema),
parsable (path:line:col: CODE message); all render a `CheckResult`."""

from __future__ import annotations

import json

import pytest

from deckcheck.decks.model import Location
from deckcheck.reports import REPORTERS, UnknownReporter, get_reporter, printable
from deckcheck.reports.json_output import SCHEMA
from deckcheck.reports.model import Checked, CheckResult, Outcome, Report, Violation

V201 = Violation(code="DC201", name="too-many-copies", message="The deck has 4 cards named "
                 "Harpie Lady; at most 3 are allowed.", card="Harpie Lady", passcode=76812113,
                 section="side", location=Location(source="deck.ydk", line=12), count=4,
                 limit=3)
V101 = Violation(code="DC101", name="main-deck-size", message="The Main Deck has 39 cards; TCG "
                 "Advanced allows 40 to 60.", section="main", location=Location(source="deck.ydk"),
                 count=39, limit=40)
V404 = Violation(code="DC404", name="prerelease-id", severity="warning",
                 message="100300001 is a prerelease id of X; write 12345678.", card="X",
                 passcode=100300001,
                 location=Location(source="book.xlsx", sheet="Sheet1", cell="B7"), count=1)
COMMON = dict(format="tcg", format_name="TCG Advanced", banlist="2026.05 TCG",
              date="2026-11-22", sizes={"main": 40, "extra": 15, "side": 15})
BAD = Report(deck="deck.ydk", verdict="illegal", violations=[V101, V201],
             notices=["Shared note."], **COMMON)  # type: ignore[arg-type]
WARN = Report(deck="book.xlsx", verdict="legal", violations=[V404], notices=["Shared note."],
              **COMMON)  # type: ignore[arg-type]
GOOD = Report(deck="examples/x.ydk", verdict="legal", **COMMON)  # type: ignore[arg-type]
GONE = Outcome(source="gone.ydk", error="gone.ydk: no such file.")


def result(*items: Report | Outcome, hands: int = 0,
           dealt: list[list[list[str]]] | None = None) -> CheckResult:
    """A CheckResult of these reports (one input each) and unreadable outcomes."""
    outcomes = []
    dealt = list(dealt or [])
    for item in items:
        if isinstance(item, Outcome):
            outcomes.append(item)
            continue
        hs = dealt.pop(0) if dealt else []
        outcomes.append(Outcome(source=item.deck, decks=[Checked(report=item, hands=hs)]))
    return CheckResult(format="tcg", format_name="TCG Advanced", banlist="2026.05 TCG",
                       date="2026-11-22", outcomes=outcomes, hands=hands)


def test_registry_names() -> None:
    assert set(REPORTERS) >= {"text", "json", "parsable"}
    for name in REPORTERS:
        assert get_reporter(name).name == name
    with pytest.raises(UnknownReporter, match="choose one of"):
        get_reporter("yaml")


def test_text_legal_one_line() -> None:
    assert get_reporter("text").render(result(GOOD)) == (
        "examples/x.ydk: legal — main 40, extra 15, side 15 — TCG Advanced, list 2026.05 TCG, "
        "as of 2026-11-22\n")


def test_text_grouped_with_shared_notices_and_summary() -> None:
    """Unreadable inputs are counted in the summary; their sentence is the CLI's (stderr)."""
    out = get_reporter("text").render(result(BAD, WARN, GONE))
    assert out == (
        "deck.ydk: illegal — 2 errors — main 40, extra 15, side 15 — TCG Advanced, "
        "list 2026.05 TCG, as of 2026-11-22\n"
        "  deck.ydk  DC101 main-deck-size  The Main Deck has 39 cards; TCG Advanced allows 40 to "
        "60.\n"
        "  deck.ydk:12  DC201 too-many-copies  Harpie Lady ×4 (limit 3): The deck has 4 cards "
        "named Harpie Lady; at most 3 are allowed.\n"
        "book.xlsx: legal, 1 warning — main 40, extra 15, side 15 — TCG Advanced, "
        "list 2026.05 TCG, as of 2026-11-22\n"
        "  book.xlsx:Sheet1!B7  DC404 prerelease-id  X ×1: 100300001 is a prerelease id of X; "
        "write 12345678.\n"
        "note: Shared note.\n"
        "3 decks: 1 legal, 1 illegal, 1 unreadable.\n")


def test_text_notices_common_to_all_decks_are_printed_once() -> None:
    out = get_reporter("text").render(result(BAD, WARN))
    assert out.count("Shared note.") == 1
    assert out.endswith("note: Shared note.\n2 decks: 1 legal, 1 illegal.\n")


def test_text_points_and_hands() -> None:
    r = Report(deck="g.ydk", verdict="legal", points=87, cap=100,
               **COMMON)  # type: ignore[arg-type]
    out = get_reporter("text").render(result(r, hands=2, dealt=[[["A", "B"], ["C", "D"]]]))
    assert out.splitlines() == [
        "g.ydk: legal — main 40, extra 15, side 15, points 87/100 — TCG Advanced, "
        "list 2026.05 TCG, as of 2026-11-22",
        "  hand 1: A, B",
        "  hand 2: C, D"]


def test_text_style_is_injected() -> None:
    out = get_reporter("text", style=lambda t, role: f"<{role}>{t}</>").render(result(BAD))
    assert out.startswith("deck.ydk: <illegal>illegal</> — ")
    assert "  <location>deck.ydk:12</>  <error>DC201</> too-many-copies" in out


def test_json_schema() -> None:
    doc = json.loads(get_reporter("json").render(result(BAD, GONE, hands=1, dealt=[[["A"]]])))
    assert doc["schema"] == SCHEMA == "deckcheck.check/1"
    first = doc["reports"][0]
    assert first["hands"] == [["A"]]
    v = first["violations"][1]
    assert v["location"] == "deck.ydk:12"
    assert v["where"] == {"file": "deck.ydk", "line": 12, "sheet": None, "cell": None,
                          "part": None}
    assert first["violations"][0]["where"]["line"] is None  # deck-wide: the file only
    gone = doc["reports"][1]
    assert (gone["deck"], gone["verdict"], gone["error"]) == ("gone.ydk", "unreadable",
                                                               "gone.ydk: no such file.")
    assert gone["hands"] == []
    assert "hands" not in json.loads(get_reporter("json").render(result(GOOD)))["reports"][0]


# The field lists of schema deckcheck.check/1, pinned: a field may be added here (and to the
# documentation), never renamed or removed. Changing these sets for any other reason breaks
# every program that reads deckcheck's JSON.
REPORT_FIELDS = ["deck", "verdict", "format", "banlist", "date", "sizes", "points",
                 "violations", "notices", "error", "format_name", "cap", "open_points", "pool"]
VIOLATION_FIELDS = ["code", "name", "severity", "message", "card", "passcode", "section",
                    "location", "count", "limit", "points", "cap", "suggestions", "where"]
WHERE_FIELDS = ["file", "line", "sheet", "cell", "part"]
TOP_FIELDS = ["schema", "reports", "skipped"]


def test_json_schema_field_lists_are_pinned() -> None:
    doc = json.loads(get_reporter("json").render(result(BAD, WARN, GONE, hands=1)))
    assert list(doc) == TOP_FIELDS
    for report in doc["reports"]:
        assert [k for k in report if k != "hands"] == REPORT_FIELDS
        for v in report["violations"]:
            assert list(v) == VIOLATION_FIELDS
            assert list(v["where"]) == WHERE_FIELDS
    assert doc["reports"][2]["verdict"] == "unreadable"
    # a field added to the models must reach the JSON (and this list) too
    assert set(Report.model_fields) <= set(REPORT_FIELDS)
    assert set(Violation.model_fields) <= set(VIOLATION_FIELDS)


def test_json_schema_is_documented() -> None:
    from deckcheck.reports import json_output as module

    doc = module.__doc__ or ""
    for name in REPORT_FIELDS + VIOLATION_FIELDS + WHERE_FIELDS + TOP_FIELDS + ["hands"]:
        assert f'"{name}"' in doc, f"field {name} is not documented in reports/json_output.py"


def test_json_lists_skipped_inputs() -> None:
    skipped = Outcome(source="README.md", skipped="README.md is not a deck file (.md).")
    doc = json.loads(get_reporter("json").render(result(GOOD, skipped)))
    assert doc["skipped"] == [{"source": "README.md",
                               "reason": "README.md is not a deck file (.md)."}]
    assert [r["deck"] for r in doc["reports"]] == ["examples/x.ydk"]


def test_parsable() -> None:
    assert get_reporter("parsable").render(result(BAD, WARN, GOOD, GONE)) == (
        "deck.ydk:1:1: DC101 The Main Deck has 39 cards; TCG Advanced allows 40 to 60.\n"
        "deck.ydk:12:1: DC201 The deck has 4 cards named Harpie Lady; at most 3 are allowed.\n"
        "book.xlsx:Sheet1!B7: DC404 100300001 is a prerelease id of X; write 12345678.\n")
    assert get_reporter("parsable").render(result(GOOD)) == ""


HOSTILE = Violation(code="DC401", name="unknown-card",
                    message='No card is named "Pot\nx.ydk:1:1: DC000 forged\x1b]0;owned\x07".',
                    card="Pot\x1b[31m", location=Location(source="r\x1b[2J.csv", line=3))
EVIL = Report(deck="r\x1b[2J.csv", verdict="illegal", violations=[HOSTILE],
              **COMMON)  # type: ignore[arg-type]


def test_parsable_cannot_be_forged_by_a_cell_with_a_line_break() -> None:
    out = get_reporter("parsable").render(result(EVIL))
    assert out.count("\n") == 1
    assert "\x1b" not in out and "\x07" not in out
    assert out == ('r\\x1b[2J.csv:3:1: DC401 No card is named "Pot\\nx.ydk:1:1: DC000 '
                   'forged\\x1b]0;owned\\x07".\n')


def test_text_escapes_terminal_controls() -> None:
    out = get_reporter("text").render(result(EVIL))
    assert "\x1b" not in out and "\x07" not in out
    assert out.count("\n") == 2  # the deck line and its one problem
    assert "Pot\\x1b[31m ×" not in out  # no count: the card is named as written
    assert out.startswith("r\\x1b[2J.csv: illegal")


def test_printable_keeps_ordinary_text() -> None:
    text = "Ash Blossom & Joyous Spring — 灰流うらら ×3"
    assert printable(text) is text
    assert printable("a\rb\x9bc") == "a\\rb\\x9bc"


OPEN = Report(deck="md.ydk", verdict="unchecked",
              open_points=["md.ydk:3: Bait Doll is not in Master Duel's card pool as deckcheck's "
                           "data shows it, and may have been added since: …"],
              pool="checked against deckcheck's built-in card pool (card data to 2026-08-22); "
                   "for cards it does not know, run `deckcheck cards update`, or offline "
                   "`deckcheck cards import FILE`", **COMMON)  # type: ignore[arg-type]


def test_could_not_be_fully_checked_in_every_reporter() -> None:
    """A deck whose only open points rest on data that ends before the date: its own verdict
    (exit 2), the pool used and what to do on the report's first line, each point named."""
    text = get_reporter("text").render(result(OPEN, GOOD)).splitlines()
    assert text[0] == (
        "md.ydk: could not be fully checked — main 40, extra 15, side 15 — TCG Advanced, list "
        "2026.05 TCG, as of 2026-11-22 — checked against deckcheck's built-in card pool (card "
        "data to 2026-08-22); for cards it does not know, run `deckcheck cards update`, or "
        "offline `deckcheck cards import FILE`")
    assert text[1] == "  open: " + OPEN.open_points[0]
    assert text[-1] == "2 decks: 1 legal, 1 could not be fully checked."
    [doc] = json.loads(get_reporter("json").render(result(OPEN)))["reports"]
    assert doc["verdict"] == "unchecked" and doc["open_points"] == OPEN.open_points
    assert doc["pool"] == OPEN.pool
    assert get_reporter("parsable").render(result(OPEN)) == (
        f"md.ydk:1:1: OPEN {OPEN.open_points[0]}\n")
    assert result(OPEN, GOOD).exit_code == 2 and result(OPEN, BAD).exit_code == 2
    assert result(GOOD, BAD).exit_code == 1
