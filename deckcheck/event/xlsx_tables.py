"""A small, fast writer of plain xlsx tables: the event report's workbook.

Why not openpyxl here: a large event's report has hundreds of thousands of cells, and
openpyxl (even in write-only mode, without lxml) writes about 50,000 cells a second; this
writer streams the SpreadsheetML directly at ten times that. It writes only what the report
needs, the way Excel, LibreOffice and openpyxl read it without complaint:

- one sheet per table, every string an inline string (a formula is never written);
- a frozen header row, an auto-filter over the table, column widths;
- a fixed set of cell styles (`STYLES`): bold header, verdict fills, wrapped text,
  quote-prefixed text (text that starts like a formula is marked as typed with a `'`);
- row heights for rows with wrapped text (neither Excel reliably nor LibreOffice ever fits
  them when opening a file, so several lines would print on top of each other);
- print setup: A4 landscape, one page wide, the header row repeated on every page,
  gridlines, and a "sheet - page n of m" footer.

Cell text is cleaned as a workbook needs it: LF line ends, no XML-illegal characters, lone
surrogates (file names that are not UTF-8) replaced, at most 32,767 characters (Excel's limit).
The file is written beside `dest` and moved into place, so a failure leaves no broken file.
"""

from __future__ import annotations

import gc
import math
import os
import re
import shutil
import struct
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.atomic import replacing
from deckcheck.decks.cells import FORMULA_START, LONE_SURROGATE, column_letter
from deckcheck.event.children import read_pipe, reap
from deckcheck.gc_pause import gc_paused

if TYPE_CHECKING:  # (imported when a workbook is written: ISA-L with it)
    from deckcheck.event.xlsx_zip import Member, ZipWriter

_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml"

#: Characters XML 1.0 cannot hold (dropped from cell text).
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
#: Excel's limit on the text of one cell; longer text is cut and ends with `TRUNCATED`.
MAX_CELL_TEXT = 32767
TRUNCATED = "\u2026 (cut)"
#: Points per line of 11 pt text, and Excel's highest row.
LINE_HEIGHT, MAX_ROW_HEIGHT = 15.0, 409.0

#: Style name -> index in cellXfs (see `_STYLES_XML`).
STYLES = {"default": 0, "header": 1, "legal": 2, "illegal": 3, "unreadable": 4, "wrap": 5,
          "top": 6, "quoted": 7, "quoted-top": 8, "quoted-wrap": 9}

_FONT = '<font>{}<sz val="11"/>{}<name val="Calibri"/><family val="2"/></font>'
_FONTS = [_FONT.format("", ""), _FONT.format("<b/>", "")] + [
    _FONT.format("<b/>", f'<color rgb="FF{c}"/>') for c in ("006100", "9C0006", "9C5700")]
_FILLS = ['<fill><patternFill patternType="none"/></fill>',
          '<fill><patternFill patternType="gray125"/></fill>'] + [
    f'<fill><patternFill patternType="solid"><fgColor rgb="FF{c}"/><bgColor rgb="FF{c}"/>'
    "</patternFill></fill>" for c in ("C6EFCE", "FFC7CE", "FFEB9C")]


def _xf(font: int = 0, fill: int = 0, align: str = "", quote: bool = False) -> str:
    attrs = f'numFmtId="0" fontId="{font}" fillId="{fill}" borderId="0" xfId="0"'
    attrs += ' applyFont="1"' if font else ""
    attrs += ' applyFill="1"' if fill else ""
    attrs += ' quotePrefix="1"' if quote else ""
    if not align:
        return f"<xf {attrs}/>"
    return f'<xf {attrs} applyAlignment="1"><alignment {align}/></xf>'


_TOP, _WRAP = 'vertical="top"', 'vertical="top" wrapText="1"'
#: In the order of `STYLES`.
#: The verdict fills wrap too: a verdict column may be capped (then "could not read" wraps).
_XFS = [_xf(), _xf(font=1), _xf(2, 2, _WRAP), _xf(3, 3, _WRAP), _xf(4, 4, _WRAP),
        _xf(align=_WRAP), _xf(align=_TOP), _xf(quote=True), _xf(align=_TOP, quote=True),
        _xf(align=_WRAP, quote=True)]
_STYLES_XML = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="{_NS}">'
    f'<fonts count="{len(_FONTS)}">{"".join(_FONTS)}</fonts>'
    f'<fills count="{len(_FILLS)}">{"".join(_FILLS)}</fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
    f'</cellStyleXfs><cellXfs count="{len(_XFS)}">{"".join(_XFS)}</cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>")


def escape(text: str) -> str:
    """`text` with `&`, `<` and `>` written as XML entities (as `xml.sax.saxutils.escape`,
    which would import urllib, http and ssl: ~30 ms of `event check`'s start-up)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quoteattr(text: str) -> str:
    """`text` as a quoted XML attribute value, as `xml.sax.saxutils.quoteattr` writes it."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def clean_text(value: str) -> str:
    """Cell text as a workbook keeps it: LF line ends, no characters XML cannot hold."""
    if "\r" in value:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    # ASCII text whose only control characters are line ends and tabs has nothing to drop
    # (most several-line texts: a player's problems); the expressions look at the others
    if not (value.isascii() and value.replace("\n", " ").replace("\t", " ").isprintable()):
        value = LONE_SURROGATE.sub("\ufffd", _ILLEGAL.sub("", value))
    if len(value) > MAX_CELL_TEXT:
        value = value[:MAX_CELL_TEXT - len(TRUNCATED)] + TRUNCATED
    return value


def text_lines(value: Any, width: float) -> int:
    """How many lines `value` takes wrapped in a column `width` characters wide (an estimate
    that errs on the high side: a character is taken as wide as a digit)."""
    if not isinstance(value, str):
        return 1
    several = "\n" in value
    if not several and len(value) <= width:
        return 1
    chars = max(1, int(width))
    if not several:  # one line, longer than the column (a path, a location)
        return -(-len(value) // chars)
    return sum([-(-len(line) // chars) or 1 for line in value.split("\n")])


@dataclass
class Sheet:
    """A table: a header row, data rows, and how to show them."""

    title: str
    headers: Sequence[str]
    rows: Sequence[Sequence[Any]]
    widths: Sequence[float] = ()
    #: Column index -> style name for every data cell of that column ("wrap", "top"…).
    column_styles: dict[int, str] = field(default_factory=dict)
    #: Column index -> {cell value -> style name} (verdict fills).
    value_styles: dict[int, dict[Any, str]] = field(default_factory=dict)
    frozen_header: bool = True
    auto_filter: bool = True
    header_style: str = "header"
    #: Print setup: "landscape" or "portrait" A4, scaled to one page wide.
    orientation: str = "landscape"
    #: Every cell value is a str, an int (never a bool) or None: number cells are remembered
    #: by value too (a bool or a float equal to a remembered int would take its cell).
    plain: bool = False


def _cell(ref: str, value: Any, style: str) -> str:
    if value is None or value == "":
        return ""  # an empty cell is no cell
    if type(value) is str and value.isascii() and value.isprintable() and not (
            value.startswith(FORMULA_START)) and len(value) <= MAX_CELL_TEXT:
        # most cells: plain one-line text that `clean_text` leaves as it is
        return (f'<c r="{ref}" t="inlineStr"{_s(style)}><is><t{_space(value)}>'
                f"{escape(value)}</t></is></c>")
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"{_s(style)}><v>{int(value)}</v></c>'
    if isinstance(value, int):
        return f'<c r="{ref}"{_s(style)}><v>{int(value)}</v></c>'
    if isinstance(value, float) and math.isfinite(value):
        return f'<c r="{ref}"{_s(style)}><v>{float(value)!r}</v></c>'
    text = clean_text(str(value))
    if text.startswith(FORMULA_START) or str(value).startswith(FORMULA_START):
        style = {"top": "quoted-top", "wrap": "quoted-wrap"}.get(style, "quoted")
    return (f'<c r="{ref}" t="inlineStr"{_s(style)}><is><t{_space(text)}>'
            f"{escape(text)}</t></is></c>")


_PRESERVE = ' xml:space="preserve"'


def _space(text: str) -> str:
    """The text element's `xml:space="preserve"` when the text starts or ends with white
    space (which a reader would otherwise drop), else nothing: as openpyxl writes it, and
    a sixth of a large report's bytes less to write and compress."""
    return _PRESERVE if text[:1].isspace() or text[-1:].isspace() else ""


def _s(style: str) -> str:
    idx = STYLES[style]
    return f' s="{idx}"' if idx else ""


def _sheet_xml(sheet: Sheet, out: Any, parts: Sequence[Callable[[Any], None]] = (),
               cuts: Sequence[int] | None = None) -> None:
    """Write `sheet`'s XML to `out`: the data rows of the first share of `cuts` (default:
    all of them), then `parts` (one per later share), each copying its share of the rows to
    `out` (rendered elsewhere, in order)."""
    ncols = len(sheet.headers)
    letters = [column_letter(i) for i in range(ncols)]
    last = f"{letters[-1] if letters else 'A'}{len(sheet.rows) + 1}"
    out.write(f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
              f'<worksheet xmlns="{_NS}" xmlns:r="{_R}"><sheetPr><pageSetUpPr fitToPage="1"/>'
              f'</sheetPr><dimension ref="A1:{last}"/>'.encode())
    if sheet.frozen_header:
        out.write(b'<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" '
                  b'topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection '
                  b'pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>')
    else:
        out.write(b'<sheetViews><sheetView workbookViewId="0"/></sheetViews>')
    out.write(b'<sheetFormatPr defaultRowHeight="15"/>')
    if sheet.widths:
        out.write(b"<cols>" + "".join(
            f'<col min="{i + 1}" max="{i + 1}" width="{w:g}" customWidth="1"/>'
            for i, w in enumerate(sheet.widths)).encode() + b"</cols>")
    out.write(b"<sheetData>")
    head = "".join(_cell(f"{letters[i]}1", h, sheet.header_style)
                   for i, h in enumerate(sheet.headers))
    out.write(f'<row r="1">{head}</row>'.encode())
    if cuts is None:
        cuts = [0, len(sheet.rows)]
    _rows_xml(sheet, cuts[0], cuts[1], out)
    for copy in parts:
        copy(out)
    out.write(b"</sheetData>")
    if sheet.auto_filter:
        out.write(f'<autoFilter ref="A1:{last}"/>'.encode())
    orientation = "portrait" if sheet.orientation == "portrait" else "landscape"
    out.write(b'<printOptions gridLines="1"/><pageMargins left="0.4" right="0.4" top="0.5" '
              b'bottom="0.6" header="0.3" footer="0.3"/>'
              + f'<pageSetup paperSize="9" orientation="{orientation}" fitToWidth="1" '
                'fitToHeight="0"/>'.encode()
              + b"<headerFooter><oddFooter>&amp;C&amp;A - page &amp;P of &amp;N</oddFooter>"
                b"</headerFooter></worksheet>")


def _cuts(n: int, shares: int, first: float | None = None) -> list[int]:
    """Where `shares` consecutive shares of `n` rows start, and the end: equal shares (each
    process renders and compresses its own; this one only copies the others' in), or, with
    `first`, that fraction of the rows first (this process's) and the rest in equal shares."""
    if first is None or shares < 2:
        return [n * k // shares for k in range(shares + 1)]
    head = min(n, max(0, round(n * first)))
    rest = shares - 1
    return [0, *(head + (n - head) * k // rest for k in range(rest + 1))]


#: Text a cell holds as it is, without escaping or `xml:space`: printable ASCII, tabs and line
#: ends inside, but no `&`, `<` or `>` and no white space at either end (the general path of
#: `_Cells.__missing__` writes the same). The formula guard is `FORMULA_START`'s, apart.
_PLAIN = re.compile(r"[!-%'-;=?-~](?:[\t\n -%'-;=?-~]*[!-%'-;=?-~])?").fullmatch
#: Cells remembered per column (codes, names, players, verdicts repeat); a full memo starts
#: again, so that a run of rows sharing a value (a player's problems) still finds it.
_MEMO = 4096
#: Rows made into values at once when a share of a sheet is rendered.
_BLOCK = 1024
#: Stands for the row number in a remembered cell (no cell text holds it: `clean_text`).
_ROW = "\x00"


class _Cells(dict[Any, str]):
    """One column's cells by value, each with `_ROW` for its row number; a value not seen
    yet is made into its cell (`_cell`) on look-up, and remembered when it is a str (or an
    int, in a `Sheet.plain` sheet)."""

    def __init__(self, letter: str, style: str, by_value: dict[Any, str] | None,
                 remember: tuple[type, ...]) -> None:
        super().__init__({None: "", "": ""})
        self.ref, self.style = letter + _ROW, style
        self.by_value, self.remember = by_value, remember
        # the parts of the most common cells (as `_cell` writes them), worked out once
        self.text = f'<c r="{self.ref}" t="inlineStr"{_s(style)}><is><t>'
        self.kept = f'<c r="{self.ref}" t="inlineStr"{_s(style)}><is><t{_PRESERVE}>'
        self.number = f'<c r="{self.ref}"{_s(style)}><v>'

    def __missing__(self, v: Any) -> str:
        kind = type(v)
        if kind is str and _PLAIN(v) and not v.startswith(FORMULA_START) \
                and len(v) <= MAX_CELL_TEXT and not self.by_value:
            # most cells: text written as it is (see `_PLAIN`), in one look at it
            text = f"{self.text}{v}</t></is></c>"
        elif self.by_value and v in self.by_value:
            text = _cell(self.ref, v, self.by_value[v])
        elif kind is str and v.isascii() and len(v) <= MAX_CELL_TEXT \
                and not v.startswith(FORMULA_START) and (v.isprintable() or (
                    "\r" not in v and v.replace("\n", " ").replace("\t", " ").isprintable())):
            # the other text `clean_text` leaves as it is (white space at an end, `&`, `<`,
            # `>`)
            head = self.kept if _space(v) else self.text
            if "&" in v or "<" in v or ">" in v:
                text = f"{head}{escape(v)}</t></is></c>"
            else:
                text = f"{head}{v}</t></is></c>"
        elif kind is int:
            text = f"{self.number}{v}</v></c>"
        else:
            text = _cell(self.ref, v, self.style)
        if kind in self.remember:
            if len(self) >= _MEMO:
                self.clear()
                self[None] = self[""] = ""
            self[v] = text
        return text

    def made(self, v: Any) -> str:
        """The cell for `v`, hashable or not."""
        try:
            return self[v]
        except TypeError:  # unhashable: never remembered
            return self.__missing__(v)


def _rows_xml(sheet: Sheet, start: int, stop: int, out: Any,
              writer: RowWriter | None = None) -> None:
    """Write the XML of data rows `start` to `stop` (0-based) of `sheet` to `out` (with
    `writer`, whose cells are remembered from the rows it wrote before, when given)."""
    writer = RowWriter(sheet) if writer is None else writer
    rows = sheet.rows
    if start == 0 and stop == len(rows):
        writer.write(rows, 2, out)
        return
    for first in range(start, stop, _BLOCK):
        writer.write(rows[first:min(first + _BLOCK, stop)], first + 2, out)


class RowWriter:
    """Writes data rows of one sheet as XML, a run of rows at a time (in any order), each
    row numbered as given; cells are remembered from one run to the next."""

    def __init__(self, sheet: Sheet) -> None:
        ncols = len(sheet.headers)
        styles = [sheet.column_styles.get(i, "default") for i in range(ncols)]
        self.wrapped = [(i, sheet.widths[i] if i < len(sheet.widths) else 8.43)
                        for i, st in enumerate(styles) if st == "wrap"]
        # a plain sheet's wrapped texts: their lines remembered by value, as their cells
        self.lines: list[dict[Any, int]] | None = [{} for _ in self.wrapped] \
            if sheet.plain else None
        # Each column's cells remembered by value, with `_ROW` for the row number: a row is
        # then one look-up per cell, one join and one replace.
        remember: tuple[type, ...] = (str, int) if sheet.plain else (str,)
        self.columns = [_Cells(column_letter(i), styles[i], sheet.value_styles.get(i), remember)
                        for i in range(ncols)]
        self.heights: dict[int, str] = {}

    def write(self, rows: Iterable[Sequence[Any]], first: int, out: Any) -> None:
        """Write `rows` as sheet rows `first`, `first + 1`… (1-based, as in the sheet)."""
        columns, wrapped, heights = self.columns, self.wrapped, self.heights
        remembered = self.lines
        getitem = dict.__getitem__
        chunk: list[str] = []
        add = chunk.append
        for r, values in enumerate(rows, first):
            try:
                xml = "".join(map(getitem, columns, values))
            except TypeError:  # an unhashable value
                xml = "".join(map(_Cells.made, columns, values))
            lines = 1
            if remembered is not None:
                for (i, w), seen in zip(wrapped, remembered, strict=True):
                    if i < len(values):
                        v = values[i]
                        n = seen.get(v)
                        if n is None:
                            if len(seen) >= _MEMO:
                                seen.clear()
                            n = seen[v] = text_lines(v, w)
                        if n > lines:
                            lines = n
            else:
                for i, w in wrapped:
                    if i < len(values):
                        v = values[i]
                        if type(v) is str and (len(v) > w or "\n" in v):
                            lines = max(lines, text_lines(v, w))
            rs = str(r)
            if lines > 1:
                head = heights.get(lines)
                if head is None:
                    ht = min(MAX_ROW_HEIGHT, LINE_HEIGHT * lines)
                    head = heights[lines] = f'" ht="{ht:g}" customHeight="1">'
                add(f'<row r="{rs}{head}{xml.replace(_ROW, rs)}</row>')
            else:
                add(f'<row r="{rs}">{xml.replace(_ROW, rs)}</row>')
            if len(chunk) >= 500:
                out.write("".join(chunk).encode())
                chunk.clear()
        if chunk:
            out.write("".join(chunk).encode())


def _sheet_name(title: str, used: set[str]) -> str:
    name = re.sub(r"[\[\]:*?/\\]", "_", title)[:31].strip("'") or "Sheet"
    base, n = name, 1
    while name.casefold() in used:
        n += 1
        name = f"{base[:28]}_{n}"
    used.add(name.casefold())
    return name


#: A sheet's rows are shared among `jobs` processes only when each gets at least this many.
MIN_ROWS_PER_JOB = 1000


#: A sheet made only once the helpers are forked (`write_workbook`): a function giving it.
Later = Callable[[], Sheet]


def write_workbook(sheets: Iterable[Sheet | Later], dest: str | Path, *, jobs: int = 1,
                   first: float | None = None) -> Path:
    """Write the sheets as one workbook at `dest` (replaced if it exists).

    `jobs` > 1: a long sheet's rows are cut into `jobs` consecutive shares; this process
    renders the first while forked helpers render and compress the others into temporary
    files, copied in after it, in order: the same parts (unzipped) as with one process.
    A sheet given as a function (`Later`) is made after the helpers are forked, and
    rendered here alone: the helpers render the other sheets' shares meanwhile. `first`:
    the fraction of each long sheet's rows this process renders (default: an equal share),
    smaller when it has a `Later` sheet to make and render."""
    path = Path(dest)
    with replacing(path) as tmp:
        _write_package(list(sheets), tmp, jobs, first)
    return path


def _names(sheets: list[Sheet]) -> tuple[list[str], str]:
    """The sheets' names in the workbook, and its defined names (filters, print titles)."""
    used: set[str] = set()
    names = [_sheet_name(s.title, used) for s in sheets]
    defined = "".join(
        f'<definedName name="_xlnm._FilterDatabase" localSheetId="{i}" hidden="1">'
        f"{escape(_quote_sheet(n))}!$A$1:${column_letter(len(s.headers) - 1)}$"
        f"{len(s.rows) + 1}</definedName>"
        for i, (s, n) in enumerate(zip(sheets, names, strict=True)) if s.auto_filter)
    defined += "".join(  # the header row is printed on every page
        f'<definedName name="_xlnm.Print_Titles" localSheetId="{i}">'
        f"{escape(_quote_sheet(n))}!$1:$1</definedName>"
        for i, (s, n) in enumerate(zip(sheets, names, strict=True)) if s.frozen_header)
    return names, defined


#: What a helper tells the parent after each block of a share's rows: the share's rows
#: written so far, the bytes of its file they fill (compressed, ending at a `Part.cut`), and
#: the CRC-32 and length of their XML.
_WRITTEN = struct.Struct("<QQLQ")


class _Helpers:
    """Forked processes, each rendering and compressing one later share of every long
    sheet's rows into a file of its own (an `xlsx_zip.Part`), a block of rows at a time;
    after each block a helper tells the parent through a pipe how far its file is written,
    and the parent copies the finished blocks into the workbook as they come, while the
    helper renders the next. A helper that fails (its pipe ends early) leaves the rest of
    its shares to the parent."""

    def __init__(self, sheets: list[Sheet | Later], jobs: int,
                 first: float | None = None) -> None:
        self.sheets, self.jobs = sheets, jobs
        #: per long sheet: where each process's share of its rows starts, and the end (None:
        #: a sheet rendered here alone, as a sheet made later always is)
        self.cuts = [_cuts(len(s.rows), jobs, first)
                     if isinstance(s, Sheet) and len(s.rows) >= MIN_ROWS_PER_JOB * jobs
                     else None for s in sheets]
        self.kids: list[tuple[int, int]] = []  # per helper: its pid, the pipe it writes to
        self.failed: list[bool] = []  # per helper: it stopped before writing all its shares
        self.dir = ""
        if jobs < 2 or not any(self.cuts) or not hasattr(os, "fork"):
            self.cuts = [None] * len(sheets)
            return
        self.dir = tempfile.mkdtemp(prefix="deckcheck-xlsx-")
        for k in range(1, jobs):
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the helper (measured by the parent's tests)
                os.close(r)
                self._helper(k, w)
            os.close(w)
            self.kids.append((pid, r))
            self.failed.append(False)

    def _file(self, sheet: int, share: int) -> str:
        return os.path.join(self.dir, f"{sheet}-{share}.xml")

    def _helper(self, k: int, signal: int) -> None:  # pragma: no cover - in the helper
        code = 1
        try:
            gc.disable()  # nothing to collect; and untouched pages stay shared
            from deckcheck.event.xlsx_zip import Part  # (the parent imported it)

            for i, sheet in enumerate(self.sheets):
                cuts = self.cuts[i]
                if cuts is not None and isinstance(sheet, Sheet):
                    start, stop = cuts[k], cuts[k + 1]
                    writer = RowWriter(sheet)
                    with open(self._file(i, k), "wb", buffering=1 << 20) as f:
                        part = Part(f)
                        for first in range(start, stop, _BLOCK):
                            last = min(first + _BLOCK, stop)
                            _rows_xml(sheet, first, last, part, writer)
                            part.cut()
                            f.flush()
                            os.write(signal, _WRITTEN.pack(last - start, f.tell(), part.crc,
                                                           part.size))
            code = 0
        finally:
            os._exit(code)

    def parts(self, i: int) -> list[Callable[[Any], None]]:
        """For sheet `i`: one callable per later share, copying it to the sheet's output."""
        if self.cuts[i] is None:
            return []
        return [partial(self._copy, i, k) for k in range(1, self.jobs)]

    def _copy(self, i: int, k: int, out: Member) -> None:
        """Copy helper `k`'s share of sheet `i` to `out`, compressed, each block as soon as
        it is written (the helper writes its shares in sheet order, as they are copied);
        what a failed helper did not write is rendered here."""
        _, pipe = self.kids[k - 1]
        sheet, cuts = self.sheets[i], self.cuts[i]
        assert isinstance(sheet, Sheet) and cuts is not None  # (only split sheets have parts)
        start, stop = cuts[k], cuts[k + 1]
        rows = copied = crc = size = 0
        f = None
        out.begin_part()
        try:
            while rows < stop - start and not self.failed[k - 1]:
                message = read_pipe(pipe, _WRITTEN.size)
                if len(message) < _WRITTEN.size:  # the helper failed
                    self.failed[k - 1] = True
                    break
                if f is None:
                    f = open(self._file(i, k), "rb", buffering=0)  # noqa: SIM115 - closed below
                rows, end, crc, size = _WRITTEN.unpack(message)
                while copied < end:
                    chunk = f.read(min(end - copied, 1 << 20))
                    if not chunk:  # pragma: no cover - removed or cut by someone else
                        raise OSError(f"{self._file(i, k)} ended before the rows it holds; "
                                      "write the report again.")
                    out.raw(chunk)
                    copied += len(chunk)
        finally:
            if f is not None:
                f.close()
        out.end_part(crc, size)  # the blocks copied: up to the last block's cut
        if rows < stop - start:  # the rows the helper did not write (whole blocks)
            _rows_xml(sheet, start + rows, stop, out)

    def close(self, ok: bool) -> None:
        for pid, pipe in self.kids:
            reap(pid, stop=not ok)
            os.close(pipe)
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)


def _write_package(sheets: list[Sheet | Later], path: Path, jobs: int = 1,
                   first: float | None = None) -> None:
    from deckcheck.event.xlsx_zip import ZipWriter

    # rendering while the later sheets are made and the small parts written
    helpers = _Helpers(sheets, jobs, first)
    ok = False
    try:
        made = [s if isinstance(s, Sheet) else s() for s in sheets]
        with open(path, "wb", buffering=1 << 20) as f:
            _write_parts(made, helpers, ZipWriter(f))
        ok = True
    finally:
        helpers.close(ok)


def _write_parts(sheets: list[Sheet], helpers: _Helpers, zf: ZipWriter) -> None:
    """The workbook's parts, in order, then the zip's directory."""
    names, defined = _names(sheets)
    content_types = "".join(
        f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{_CT}.worksheet+xml"/>'
        for i in range(1, len(sheets) + 1))
    zf.writestr("[Content_Types].xml",
                '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                '<Default Extension="rels" ContentType="application/vnd.openxmlformats-'
                'package.relationships+xml"/><Default Extension="xml" '
                'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
                f'ContentType="{_CT}.sheet.main+xml"/><Override PartName="/xl/styles.xml" '
                f'ContentType="{_CT}.styles+xml"/>{content_types}</Types>')
    zf.writestr("_rels/.rels",
                '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                f'<Relationships xmlns="{_PKG}"><Relationship Id="rId1" Type="{_R}/'
                'officeDocument" Target="xl/workbook.xml"/></Relationships>')
    zf.writestr("xl/workbook.xml",
                '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                f'<workbook xmlns="{_NS}" xmlns:r="{_R}"><bookViews><workbookView/>'
                "</bookViews><sheets>" + "".join(
                    f"<sheet name={quoteattr(n)} sheetId=\"{i}\" r:id=\"rId{i}\"/>"
                    for i, n in enumerate(names, 1)) + "</sheets>"
                + (f"<definedNames>{defined}</definedNames>" if defined else "")
                + "</workbook>")
    zf.writestr("xl/_rels/workbook.xml.rels",
                '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                f'<Relationships xmlns="{_PKG}">' + "".join(
                    f'<Relationship Id="rId{i}" Type="{_R}/worksheet" '
                    f'Target="worksheets/sheet{i}.xml"/>' for i in range(1, len(sheets) + 1))
                + f'<Relationship Id="rId{len(sheets) + 1}" Type="{_R}/styles" '
                'Target="styles.xml"/></Relationships>')
    zf.writestr("xl/styles.xml", _STYLES_XML)
    # the strings made hold no cycles, and the collector would walk every row and card the
    # caller holds again and again (a third slower)
    with gc_paused():
        for i, sheet in enumerate(sheets, 1):
            with zf.open(f"xl/worksheets/sheet{i}.xml") as out:
                _sheet_xml(sheet, out, helpers.parts(i - 1), helpers.cuts[i - 1])
    zf.close()


def _quote_sheet(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"
