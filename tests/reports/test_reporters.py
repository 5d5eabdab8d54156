"""Reporters by name: text (grouped, styled through an injected function), json (schema),
parsable (path:line:col: CODE message)."""

from __future__ import annotations

import json

import pytest

from deckcheck.reports import REPORTERS, UnknownReporter, get_reporter
from deckcheck.reports.json import SCHEMA
from deckcheck.rules.violation import Report, Violation

V201 = Violation(code="DC201", name="too-many-copies", message="The deck has 4 cards named "
                 "Harpie Lady; at most 3 are allowed.", card="Harpie Lady", passcode=76812113,
                 section="side", location="deck.ydk:12", count=4, limit=3)
V101 = Violation(code="DC101", name="main-deck-size", message="The Main Deck has 39 cards; TCG "
                 "Advanced allows 40 to 60.", section="main", location="deck.ydk", count=39,
                 limit=40)
V404 = Violation(code="DC404", name="prerelease-id", severity="warning",
                 message="100300001 is a prerelease id of X; write 12345678.", card="X",
                 passcode=100300001, location="book.xlsx:Sheet1!B7", count=1)
COMMON = dict(format="tcg", format_name="TCG Advanced", banlist="2026.05 TCG",
              date="2026-11-22", sizes={"main": 40, "extra": 15, "side": 15})
BAD = Report(deck="deck.ydk", verdict="illegal", violations=[V101, V201],
             notices=["Shared note."], **COMMON)  # type: ignore[arg-type]
WARN = Report(deck="book.xlsx", verdict="legal", violations=[V404], notices=["Shared note."],
              **COMMON)  # type: ignore[arg-type]
GOOD = Report(deck="examples/x.ydk", verdict="legal", **COMMON)  # type: ignore[arg-type]
GONE = Report(deck="gone.ydk", verdict="unreadable", format="tcg",
              error="gone.ydk: no such file.")


def test_registry_names() -> None:
    assert set(REPORTERS) >= {"text", "json", "parsable"}
    for name in REPORTERS:
        assert get_reporter(name).name == name
    with pytest.raises(UnknownReporter, match="choose one of"):
        get_reporter("yaml")


def test_text_legal_one_line() -> None:
    assert get_reporter("text").render([GOOD]) == (
        "examples/x.ydk: legal — main 40, extra 15, side 15 — TCG Advanced, list 2026.05 TCG, "
        "as of 2026-11-22\n")


def test_text_grouped_with_shared_notices_and_summary() -> None:
    out = get_reporter("text").render([BAD, WARN, GONE])
    assert out == (
        "deck.ydk: illegal — 2 errors — main 40, extra 15, side 15 — TCG Advanced, "
        "list 2026.05 TCG, as of 2026-11-22\n"
        "  deck.ydk  DC101 main-deck-size  The Main Deck has 39 cards; TCG Advanced allows 40 to "
        "60.\n"
        "  deck.ydk:12  DC201 too-many-copies  Harpie Lady ×4 (limit 3): The deck has 4 cards "
        "named Harpie Lady; at most 3 are allowed.\n"
        "  note: Shared note.\n"
        "book.xlsx: legal, 1 warning — main 40, extra 15, side 15 — TCG Advanced, "
        "list 2026.05 TCG, as of 2026-11-22\n"
        "  book.xlsx:Sheet1!B7  DC404 prerelease-id  X ×1: 100300001 is a prerelease id of X; "
        "write 12345678.\n"
        "  note: Shared note.\n"
        "gone.ydk: unreadable — gone.ydk: no such file.\n"
        "3 decks: 1 legal, 1 illegal, 1 unreadable.\n")


def test_text_notices_common_to_all_decks_are_printed_once() -> None:
    out = get_reporter("text").render([BAD, WARN])
    assert out.count("Shared note.") == 1
    assert out.endswith("note: Shared note.\n2 decks: 1 legal, 1 illegal.\n")


def test_text_points_and_hands() -> None:
    r = Report(deck="g.ydk", verdict="legal", points=87, cap=100,
               **COMMON)  # type: ignore[arg-type]
    out = get_reporter("text").render([r], hands=[[["A", "B"], ["C", "D"]]])
    assert out.splitlines() == [
        "g.ydk: legal — main 40, extra 15, side 15, points 87/100 — TCG Advanced, "
        "list 2026.05 TCG, as of 2026-11-22",
        "  hand 1: A, B",
        "  hand 2: C, D"]


def test_text_style_is_injected() -> None:
    out = get_reporter("text", style=lambda t, role: f"<{role}>{t}</>").render([BAD])
    assert out.startswith("deck.ydk: <illegal>illegal</> — ")
    assert "  <location>deck.ydk:12</>  <error>DC201</> too-many-copies" in out


def test_json_schema() -> None:
    doc = json.loads(get_reporter("json").render([BAD, GONE], hands=[[["A"]], []]))
    assert doc["schema"] == SCHEMA == "deckcheck.check/1"
    first = doc["reports"][0]
    assert set(first) == set(Report.model_fields) | {"hands"}
    assert first["hands"] == [["A"]]
    assert first["violations"][1] == V201.model_dump(mode="json")
    assert doc["reports"][1]["verdict"] == "unreadable"
    assert "hands" not in json.loads(get_reporter("json").render([GOOD]))["reports"][0]


def test_json_schema_is_documented() -> None:
    from deckcheck.reports import json as module

    doc = module.__doc__ or ""
    for name in list(Report.model_fields) + list(Violation.model_fields):
        assert f'"{name}"' in doc, f"field {name} is not documented in reports/json.py"


def test_parsable() -> None:
    assert get_reporter("parsable").render([BAD, WARN, GOOD, GONE]) == (
        "deck.ydk:1:1: DC101 The Main Deck has 39 cards; TCG Advanced allows 40 to 60.\n"
        "deck.ydk:12:1: DC201 The deck has 4 cards named Harpie Lady; at most 3 are allowed.\n"
        "book.xlsx:Sheet1!B7: DC404 100300001 is a prerelease id of X; write 12345678.\n"
        "gone.ydk: unreadable: gone.ydk: no such file.\n")
    assert get_reporter("parsable").render([GOOD]) == ""
