"""Bounded work on any input (issue 12): every hostile shape is refused with one sentence,
fast and in bounded memory, before the expensive work starts. The inputs are generated here
(`hostile_files`), never copied.

Times are measured as CPU time of this process (`time.process_time`), which other work on a
busy machine does not inflate; the bound is the issue's 2 s.
"""

from __future__ import annotations

import os
import re
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hostile_files as hf  # type: ignore[import-not-found]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.csvfile import read_csv
from deckcheck.decks.files import read_decks, sniff
from deckcheck.decks.resolve import is_total, section_word, split_trailing_count
from deckcheck.decks.text import read_text
from deckcheck.decks.xlsx import read_xlsx
from deckcheck.decks.ydk import read_ydk
from deckcheck.errors import DeckReadError

LIMIT_S = 2.0
LIMIT_MB = 256


def bounded(fn: Callable[[], Any], *, trace: bool = True) -> Any:
    """Run `fn` twice, asserting it uses under LIMIT_S of CPU (first run) and LIMIT_MB of
    Python memory (second run, traced: tracing slows allocation-heavy code several times)."""
    t = time.process_time()
    try:
        return fn()
    finally:
        spent = time.process_time() - t
        assert spent < LIMIT_S, f"took {spent:.2f} s of CPU"
        if trace:
            _check_memory(fn)


def _check_memory(fn: Callable[[], Any]) -> None:
    tracemalloc.start()
    try:
        fn()
    except DeckReadError:
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    assert peak < LIMIT_MB, f"peaked at {peak:.0f} MB"


def refused(fn: Callable[[], Any], match: str) -> str:
    with pytest.raises(DeckReadError) as err:
        bounded(fn)
    message = str(err.value)
    assert re.search(match, message), message
    assert "\n" not in message and message.endswith((".", ")")), message
    return message


# --- regular expressions: linear on any input ----------------------------------------------

def test_a_ydk_of_200000_newlines_is_refused_fast(tmp_path: Path) -> None:
    path = tmp_path / "nl.ydk"
    path.write_bytes(b"\n" * 200_000)
    refused(lambda: read_decks(path, None), "more than 100,000 lines")


def test_sniffing_a_file_of_newlines_is_linear() -> None:
    assert bounded(lambda: sniff(b"\n \n" * 70_000)) == "text"
    assert bounded(lambda: sniff(b" \t" * 90_000 + b"\n#main\n")) == "ydk"


def test_a_line_of_450_spaces_after_a_card_is_read_fast(pool: MemoryPool) -> None:
    text = "3 Pot of Desires\n" + " " * 450 + "x\n"
    assert bounded(lambda: is_total("3 Pot of Greed" + " " * 450 + "x")) is False
    deck = bounded(lambda: read_text(text, pool, "t.txt"))
    assert deck.size("main") == 3


def test_long_runs_of_spaces_in_csv_cells_are_read_fast(pool: MemoryPool) -> None:
    rows = ["Qty,Card Name"] + ["3,Pot of Desires" + " " * 20_000 + "x" for _ in range(5)]
    deck = bounded(lambda: read_csv("\n".join(rows), pool, "d.csv"))
    assert len(deck.problems) == 5 and deck.size("main") == 0


#: The regular expression `split_trailing_count` replaced (fine on short text only).
_OLD_TRAILING = re.compile(r"[\s:：\-–—=]*[(\[（【]?\s*[x×]?\s*\d{1,3}\s*(cards?|枚|张|張)?"
                           r"\s*[)\]）】]?\s*$", re.IGNORECASE)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=" \t:：-–—=([（【)]）】xX×0123456789４cardsCARDS枚张張aTotl", max_size=16))
def test_split_trailing_count_strips_what_the_old_expression_stripped(text: str) -> None:
    assert split_trailing_count(text)[0] == _OLD_TRAILING.sub("", text)


def test_split_trailing_count_gives_the_count() -> None:
    assert split_trailing_count("Total Monster Cards: 20") == ("Total Monster Cards", 20)
    assert split_trailing_count("Monsters (12)") == ("Monsters", 12)
    assert split_trailing_count("合计 40枚") == ("合计", 40)
    assert split_trailing_count("Total Defense Shogun") == ("Total Defense Shogun", None)
    assert section_word("Extra Deck (15)") == ("extra", None)


# --- files that are not files ----------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_named_like_a_deck_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "deck.ydk"
    os.mkfifo(fifo)  # nobody ever writes to it: opening it for reading would wait forever
    refused(lambda: read_decks(fifo, None), "is not a regular file .* pipe it to -")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_is_refused() -> None:
    refused(lambda: read_decks("/dev/zero", None), "is not a regular file")


# --- many entries ----------------------------------------------------------------------------

def test_a_ydk_of_99990_distinct_passcodes_is_refused_in_bounded_memory() -> None:
    data = hf.many_ydk_passcodes()
    assert len(data) > 800_000
    refused(lambda: read_ydk(data, "big.ydk"), "^big.ydk holds more than 1,000 card lines")


def test_a_text_list_of_99000_lines_is_refused(pool: MemoryPool) -> None:
    data = "\n".join(f"3 Made Up Card {i}" for i in range(99_000))
    refused(lambda: read_text(data, pool, "big.txt"), "more than 1,000 card lines")


def test_a_csv_of_5000_rows_is_refused(pool: MemoryPool) -> None:
    data = "Qty,Card Name\n" + "\n".join(f"1,Made Up Card {i}" for i in range(5000))
    refused(lambda: read_csv(data, pool, "big.csv"), "more than 1,000 card lines")


# --- xlsx: bounds checked before openpyxl ---------------------------------------------------

@pytest.fixture
def no_openpyxl(monkeypatch: pytest.MonkeyPatch) -> None:
    """openpyxl must never see the workbook."""
    monkeypatch.setattr("openpyxl.load_workbook", None)


@pytest.mark.parametrize(("build", "match"), [
    (hf.many_rows, "holds more than 30,000 rows"),
    (hf.many_shared_strings, "holds more than 40,000 shared strings"),
    (hf.many_styles, "holds more than 20,000 style records"),
    (hf.dense_cells, "holds more than 40,000 cells"),
    (hf.zip_bomb, "a zip bomb"),
    (hf.entity_expansion, "declares a DTD"),
    (hf.bzip2_members, "uses a compression Excel never writes"),
    (hf.utf16_part, "is not UTF-8 XML"),
], ids=["1048576-rows", "4.2M-shared-strings", "1M-styles", "10000x60-cells", "zip-bomb",
        "entities", "bzip2", "utf-16"])
def test_hostile_workbooks_are_refused_before_openpyxl(
        build: Callable[[], bytes], match: str, pool: MemoryPool, no_openpyxl: None) -> None:
    data = build()
    assert len(data) < 20 * 2**20  # under the file size limit: the count must refuse it
    refused(lambda: read_xlsx(data, pool, "h.xlsx"), "^h.xlsx.*" + match)


def test_the_sheet_counts_are_not_fooled_by_chunk_boundaries(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.decks import xlsx_guard

    monkeypatch.setattr(xlsx_guard, "_CHUNK", 7)  # every element is cut somewhere
    monkeypatch.setattr(xlsx_guard, "MAX_CELLS", 29)
    monkeypatch.setitem(xlsx_guard._LIMITS, "cells", 29)
    rows: list[list[object]] = [[1, 2, 3]] * 10

    def sized(rows: list[list[object]]) -> bytes:
        xml = hf.sheet_xml(rows).replace("<sheetData>", '<dimension ref="A1:C10"/><sheetData>')
        return bytes(hf.workbook({"S": xml}))

    xlsx_guard.check_archive(sized(rows[:9] + [[1, 2]]), "ok.xlsx")
    with pytest.raises(DeckReadError, match="more than 29 cells"):
        xlsx_guard.check_archive(sized(rows), "x.xlsx")
    # a sheet without a size is parsed twice by openpyxl, so its cells count twice
    with pytest.raises(DeckReadError, match="more than 29 cells"):
        xlsx_guard.check_archive(hf.workbook({"S": hf.sheet_xml(rows[:5])}), "x.xlsx")


def test_a_prefixed_namespace_is_counted_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.decks import xlsx_guard

    monkeypatch.setitem(xlsx_guard._LIMITS, "cells", 5)
    xml = hf.sheet_xml([[1, 2, 3], [4, 5, 6]])
    xml = re.sub(r"<(/?)(\w+)", r"<\1x:\2", xml).replace('xmlns="', 'xmlns:x="')
    with pytest.raises(DeckReadError, match="more than 5 cells"):
        xlsx_guard.check_archive(hf.workbook({"S": xml}), "x.xlsx")


def test_a_normal_workbook_is_read_within_the_bounds(pool: MemoryPool) -> None:
    data = hf.normal_deck_xlsx()
    (deck,) = bounded(lambda: read_xlsx(data, pool, "n.xlsx"))
    assert deck.size("main") == 40


def test_the_event_reader_does_not_inflate_workbook_xml(tmp_path: Path) -> None:
    from deckcheck.event.inputs import is_report

    path = tmp_path / "w.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/workbook.xml", "<workbook>" + " " * 50_000_000 + "</workbook>")
    assert bounded(lambda: is_report(path)) is False
    sheets = ["Players", "Problems", "Event"]
    path.write_bytes(hf.workbook({name: hf.sheet_xml(hf.DECK_ROWS) for name in sheets}))
    assert is_report(path) is True



def test_a_csv_of_19_mb_of_commas_is_refused_before_parsing(tmp_path: Path) -> None:
    from deckcheck.cards.builtin import builtin_pool

    path = tmp_path / "commas.csv"
    path.write_text("Qty,Card Name\n" + "," * (19 * 2**20))
    pool = builtin_pool()
    refused(lambda: read_decks(path, pool), "has more than 100,000 cells")


def test_one_line_of_several_megabytes_is_read_in_bounds(pool: MemoryPool) -> None:
    text = "3 Pot of Desires\n" + "3 " + "Ash " * 2_000_000 + "\n"
    deck = bounded(lambda: read_text(text, pool, "long.txt"))
    assert deck.size("main") == 3 and "too long for a card name" in deck.problems[0].message
    ydk = b"#main\n" + b"1" * 5_000_000 + b"\n14558127\n"
    assert bounded(lambda: read_ydk(ydk, "long.ydk")).size("main") == 1


def test_an_archive_asking_for_an_unknown_zip_version_is_refused_in_words(
        pool: MemoryPool) -> None:
    data = bytearray(hf.normal_deck_xlsx())
    at = data.index(b"PK\x01\x02")  # the first central directory entry
    data[at + 6:at + 8] = (72).to_bytes(2, "little")  # "version needed to extract": 7.2
    refused(lambda: read_xlsx(bytes(data), pool, "v.xlsx"), "^v.xlsx is not an xlsx workbook")


def test_a_csv_at_the_cell_limit_is_read_in_bounds(pool: MemoryPool) -> None:
    text = "\n".join(",".join(f"w{r}x{c}" for c in range(10)) for r in range(9_999))
    with pytest.raises(DeckReadError, match="holds no table of cards"):
        bounded(lambda: read_csv(text, pool, "wide.csv"), trace=False)  # time is the point


def _normalised_chars(monkeypatch: pytest.MonkeyPatch, fn: Callable[[], Any]) -> int:
    """How many characters `fn` hands to the name normaliser (its cost is linear in them)."""
    import types

    from deckcheck.cards import names

    seen = [0]
    real = names.unicodedata

    def counting(form: str, text: str) -> str:
        seen[0] += len(text)
        return real.normalize(form, text)

    monkeypatch.setattr(names, "unicodedata", types.SimpleNamespace(normalize=counting))
    try:
        fn()
    except DeckReadError:
        pass
    return seen[0]


@pytest.mark.parametrize("width", [1_000, 32_000])
def test_long_cells_are_not_normalised_once_per_probe(
        pool: MemoryPool, monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    """The hostile workbook of issue 20 (1,500 rows of two 32 KB cells under a header) took
    9 s: every cell was normalised on each header probe and each name lookup. Text longer
    than any header word or card name is no longer normalised, so the work does not grow
    with the cells' length (the old code normalised 7,500 cells: ~240 M characters)."""
    from deckcheck.decks.tabular import Grid, read_grid

    rows: list[list[Any]] = [["Qty", "Card Name"]]
    rows += [[f"{r}bolz " + "x" * width, f"{r}bolz " + "y" * width] for r in range(1500)]
    chars = _normalised_chars(monkeypatch, lambda: read_grid(Grid(rows, "w.xlsx", "S"), pool))
    assert chars < 20_000, chars  # the header words and short cells only, at any width
