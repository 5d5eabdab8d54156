"""`check_many` / `Checker.check_inputs`: one Outcome per input, read errors kept apart from
reports, uploads and pasted decks (`DeckData`), sample hands, non-deck files skipped."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulekit import DAY, FILLER, POT, make_pool, tcg

from deckcheck.checker import MAX_HANDS, Checker, DeckData, check_many
from deckcheck.errors import BadOption


def ydk_text(main: list[int]) -> str:
    return "#main\n" + "".join(f"{pc}\n" for pc in main) + "#extra\n!side\n"


FORTY = [c.passcode for c in FILLER]


def checker() -> Checker:
    return Checker(tcg(), DAY, pool=make_pool())


def test_reports_and_read_errors_are_kept_apart(tmp_path: Path) -> None:
    good = tmp_path / "good.ydk"
    good.write_text(ydk_text(FORTY), encoding="utf-8")
    bad = tmp_path / "bad.ydk"
    bad.write_text(ydk_text(FORTY[:39] + [POT.passcode]), encoding="utf-8")
    result = checker().check_inputs([good, str(bad), str(tmp_path / "gone.ydk")])
    assert [o.source for o in result.outcomes] == [str(good), str(bad),
                                                  str(tmp_path / "gone.ydk")]
    assert [r.verdict for r in result.reports] == ["legal", "illegal"]
    (gone,) = result.unreadable
    assert gone.decks == [] and gone.error == f"{tmp_path / 'gone.ydk'}: no such file; check " \
                                              "the path."
    assert result.exit_code == 2
    assert (result.format, result.banlist, result.date) == ("tcg", "2026.05 Test", "2026-11-22")


def test_uploads_and_pasted_decks() -> None:
    """What a web front end gets: bytes with a name, or pasted text; nothing touches disk."""
    upload = DeckData("alice.ydk", ydk_text(FORTY).encode())
    pasted = DeckData.text("ydke://" + "!" * 3)  # an empty deck as a URL
    broken = DeckData("regs.xlsx", b"PK\x03\x04 not really a workbook")
    result = checker().check_inputs([upload, pasted, broken], keep_decks=True)
    first, second, third = result.outcomes
    assert first.source == "alice.ydk" and first.reports[0].verdict == "legal"
    assert first.decks[0].deck is not None and first.decks[0].deck.size("main") == 40
    assert second.reports[0].deck == "<pasted>"
    assert [v.code for v in second.reports[0].violations] == ["DC101"]
    assert third.error is not None and third.error.startswith("regs.xlsx")
    assert result.exit_code == 2


def test_sample_hands_when_asked() -> None:
    upload = DeckData("alice.ydk", ydk_text(FORTY).encode())
    result = checker().check_inputs([upload], hands=3, seed=7)
    (checked,) = result.checked
    assert len(checked.hands) == 3 and all(len(h) == 5 for h in checked.hands)
    assert checked.deck is None  # not kept unless asked
    again = checker().check_inputs([upload], hands=3, seed=7)
    assert again.checked[0].hands == checked.hands
    empty = checker().check_inputs([DeckData.text("ydke://!!!")], hands=1).checked[0]
    assert empty.hands == [] and empty.hands_note


def test_hands_are_bounded_and_stdin_read_once() -> None:
    with pytest.raises(BadOption, match=f"--hands must be 0 to {MAX_HANDS}"):
        checker().check_inputs([], hands=MAX_HANDS + 1)
    with pytest.raises(BadOption, match="Standard input"):
        checker().check_inputs(["-", "-"])


def test_a_non_deck_file_is_skipped_only_among_many(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# decks\n", encoding="utf-8")
    deck = tmp_path / "a.ydk"
    deck.write_text(ydk_text(FORTY), encoding="utf-8")
    result = checker().check_inputs([str(readme), str(deck)])
    assert result.skipped[0].skipped == (f"{readme} is not a deck file (.md), so it was "
                                         "skipped; name it on its own to read it as a "
                                         "decklist.")
    assert result.exit_code == 0
    alone = checker().check_inputs([str(readme)])
    assert alone.skipped == []  # named alone it is read, as a text list: the reader answers
    assert (alone.outcomes[0].error or "").endswith("holds no card lines; write one card per "
                                                    "line, like '3 Ash Blossom & Joyous "
                                                    "Spring'.")
    only_skipped = checker().check_inputs([str(readme), str(tmp_path / "notes.toml")])
    assert only_skipped.exit_code == 2  # nothing was checked: no verdict


def test_check_many_is_the_one_call() -> None:
    result = check_many([DeckData("a.ydk", ydk_text(FORTY).encode())], tcg(), DAY,
                        pool=make_pool())
    assert result.exit_code == 0 and result.reports[0].legal


def test_workbook_decks_are_named_by_sheet_in_their_report(tmp_path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Alice"
    for i, c in enumerate(FILLER, 1):
        ws.cell(i, 1, 1)
        ws.cell(i, 2, c.name)
    wb.create_sheet("Bob").append([1, "Pot of Greed"])
    path = tmp_path / "regs.xlsx"
    wb.save(path)
    result = checker().check_inputs([str(path)])
    assert [r.deck for r in result.reports] == [f"{path} [Alice]", f"{path} [Bob]"]


def test_deck_data_is_an_immutable_value() -> None:
    a, b = DeckData("a.ydk", b"#main\n"), DeckData.text("#main\n", name="a.ydk")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != DeckData("b.ydk", b"#main\n")
    assert repr(a) == "DeckData(name='a.ydk', data=b'#main\\n')"
    with pytest.raises(AttributeError):
        a.name = "b.ydk"  # type: ignore[misc]
    assert a.name == "a.ydk"


def test_non_deck_files_among_many_are_skipped_by_their_suffix(tmp_path: Path) -> None:
    deck = tmp_path / "a.ydk"
    deck.write_text(ydk_text(FORTY), encoding="utf-8")
    (tmp_path / "README.md").write_text("# decks\n", encoding="utf-8")
    (tmp_path / ".hidden").write_text("x", encoding="utf-8")
    (tmp_path / "odd.").write_text("x", encoding="utf-8")
    inputs = [str(deck), str(tmp_path / "README.md"), str(tmp_path / ".hidden"),
              str(tmp_path / "odd.")]
    result = checker().check_inputs(inputs)
    skipped = [o.skipped for o in result.outcomes]
    assert skipped[0] is None and skipped[2] is None and skipped[3] is None
    assert skipped[1] == (f"{tmp_path / 'README.md'} is not a deck file (.md), so it was "
                          "skipped; name it on its own to read it as a decklist.")
