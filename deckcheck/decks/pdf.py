"""PDF decklists in the layout of Konami's official decklist form, one page per player.

    data = write_pdf(deck, pool, player="Jane Doe", player_id="0301234567")
    data = write_pdf_pages([(deck_a, {"player": "A"}), (deck_b, {"player": "B"})], pool)

A page (A4 portrait) holds the player fields (first and last name, CARD GAME ID in ten
boxes, event name, event date, country / region of residence, deck name) beside a "Judge use
only" box; the Main Deck's Monster, Spell and Trap cards side by side, each with quantities
and its total; the Side and Extra Decks side by side with their totals; the Main Deck total,
a signature line and a footer naming the player and the page. The lines are the registration
sheet's (`xlsx.sheet_lines`: one line per card name with its artworks added up, a name that
fits no card printed as written); a Main Deck card of unknown kind is listed under "Kind
unknown" in the shortest of the three columns. Every name stays on one line: a long one is
narrowed, then made smaller, to fit its box. The rows grow smaller when a deck has more lines
than the form, so every deck is one page.

Text that Helvetica cannot show (Japanese, Chinese, Korean, Cyrillic…) is set in one of the
CJK fonts every PDF reader knows (reportlab's `UnicodeCIDFont`: no font file is needed or
embedded), picked by the characters: Japanese, then simplified Chinese, traditional Chinese,
Korean.

reportlab (the `pdf` extra) is imported only here, and only when a PDF is written.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import Deck
from deckcheck.errors import DeckWriteError

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

#: What to do when reportlab is missing (one sentence).
NEEDS_REPORTLAB = ("Writing a PDF decklist needs the reportlab package; install deckcheck with "
                   "its pdf extra (`pip install '.[pdf]'` in a checkout) or run `pip install "
                   "reportlab`.")

LATIN, LATIN_BOLD = "Helvetica", "Helvetica-Bold"
#: (codec whose characters the font holds, reportlab CID font), tried in order.
CID_FONTS = (("cp932", "HeiseiKakuGo-W5"), ("gbk", "STSong-Light"), ("big5", "MSung-Light"),
             ("euc_kr", "HYGothic-Medium"))

PAGE_W, PAGE_H = 595.2756, 841.8898  # A4 in points
MARGIN = 28.0
#: Lines the form has in each Main Deck column, and in the Side and Extra Deck columns; a
#: deck with more lines gets smaller rows.
MAIN_LINES, SIDE_LINES = 20, 15
#: Narrowest horizontal scale (percent) before a long name is made smaller instead.
MIN_HSCALE = 70.0
GREY = 0.85

MAIN_COLUMNS = ("Monster Cards", "Spell Cards", "Trap Cards")
OTHER_MAIN = "Main Deck"  # the sheet's group for Main Deck cards of unknown kind

Lines = list[tuple[int, str, int | None]]


def _reportlab() -> None:
    try:
        import reportlab  # noqa: F401
    except ImportError:
        raise DeckWriteError(NEEDS_REPORTLAB) from None


def font_for(text: str, bold: bool = False) -> str:
    """The font that can show `text`: Helvetica when it can (bold when asked), else the first
    CID font whose character set holds every character (Japanese when none does)."""
    try:
        text.encode("cp1252")
        return LATIN_BOLD if bold else LATIN
    except UnicodeEncodeError:
        pass
    for codec, font in CID_FONTS:
        try:
            text.encode(codec)
            return font
        except UnicodeEncodeError:
            continue
    return CID_FONTS[0][1]


def _register(font: str, registered: set[str]) -> None:
    if font in registered or font in (LATIN, LATIN_BOLD):
        return
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    pdfmetrics.registerFont(UnicodeCIDFont(font))
    registered.add(font)


def fit(text: str, font: str, size: float, width: float) -> tuple[float, float]:
    """(font size, horizontal scale in percent) that set `text` on one line of `width`
    points: as given when it fits; else narrowed down to `MIN_HSCALE`, then made smaller."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    natural = stringWidth(text, font, size)
    if natural <= width or natural <= 0:
        return size, 100.0
    scale = width / natural * 100.0
    if scale >= MIN_HSCALE:
        return size, scale
    return size * scale / MIN_HSCALE, MIN_HSCALE


class _Page:
    """Draws one decklist page on a reportlab canvas."""

    def __init__(self, c: Canvas, fonts: set[str]) -> None:
        self.c, self.fonts = c, fonts

    def text(self, x: float, y: float, text: str, size: float, width: float | None = None, *,
             bold: bool = False, align: str = "left") -> None:
        from deckcheck.decks.xlsx import sheet_text

        text = " ".join(sheet_text(text).split())  # one line, nothing a PDF cannot hold
        if not text:
            return
        font = font_for(text, bold)
        _register(font, self.fonts)
        hscale = 100.0
        if width is not None:
            size, hscale = fit(text, font, size, width)
        if align != "left":
            from reportlab.pdfbase.pdfmetrics import stringWidth

            w = stringWidth(text, font, size) * hscale / 100.0
            x = x - w if align == "right" else x - w / 2
        t = self.c.beginText(x, y)
        t.setFont(font, size)
        t.setHorizScale(hscale)
        t.textOut(text)
        self.c.drawText(t)

    def box(self, x: float, y: float, w: float, h: float, fill: float | None = None,
            width: float = 0.6) -> None:
        self.c.setLineWidth(width)
        if fill is not None:
            self.c.setFillGray(fill)
            self.c.rect(x, y, w, h, stroke=1, fill=1)
            self.c.setFillGray(0)
        else:
            self.c.rect(x, y, w, h, stroke=1, fill=0)

    def field(self, x: float, y: float, w: float, h: float, label: str, value: str) -> None:
        """A form field: its label small at the top, the value on the line."""
        self.box(x, y, w, h)
        self.text(x + 3, y + h - 7.5, label, 6.5, w - 6, bold=True)
        self.text(x + 4, y + 4.5, value, 10.5, w - 8)

    def id_boxes(self, x: float, y: float, w: float, h: float, value: str) -> None:
        """CARD GAME ID: ten digit boxes as on the form (an id that is no 10 digits or fewer
        is written out instead)."""
        self.box(x, y, w, h)
        self.text(x + 3, y + h - 7.5, "CARD GAME ID", 6.5, w - 6, bold=True)
        if value and not (value.isdigit() and len(value) <= 10):
            self.text(x + 4, y + 4.5, value, 10.5, w - 8)
            return
        cell = min(16.0, (w - 8) / 10)
        tall = h - 11
        digits = value.rjust(10) if value else " " * 10
        for i, d in enumerate(digits):
            bx = x + 4 + i * cell
            self.box(bx, y + 2, cell, tall, width=0.4)
            if d != " ":
                self.text(bx + cell / 2, y + 2 + (tall - 9 * 0.72) / 2, d, 9, align="center")

    def card_column(self, x: float, top: float, w: float, title: str, items: Lines,
                    rows: int, row_h: float, size: float,
                    extra: tuple[str, Lines] | None = None) -> float:
        """One column of the form: its title, "Qty | Card Name", `rows` lines (the items,
        then blank lines to fill in), and its total; returns the y below it."""
        qty_w = 22.0
        self.box(x, top - 13, w, 13, fill=GREY)
        self.text(x + 4, top - 9.5, title, 8.5, w - 8, bold=True)
        y = top - 13
        self.box(x, y - 10, qty_w, 10)
        self.box(x + qty_w, y - 10, w - qty_w, 10)
        self.text(x + qty_w / 2, y - 7.5, "Qty", 6.5, bold=True, align="center")
        self.text(x + qty_w + 3, y - 7.5, "Card Name", 6.5, bold=True)
        y -= 10
        lines: list[tuple[str, str, bool]] = [(str(n), line_label(label, pc), False)
                                              for n, label, pc in items]
        if extra is not None and extra[1]:
            lines.append(("", extra[0], True))
            lines += [(str(n), line_label(label, pc), False) for n, label, pc in extra[1]]
        base = y - row_h + (row_h - size * 0.72) / 2
        for i in range(rows):
            ry = y - (i + 1) * row_h
            self.c.setLineWidth(0.4)
            self.c.rect(x, ry, qty_w, row_h)
            self.c.rect(x + qty_w, ry, w - qty_w, row_h)
            if i < len(lines):
                qty, name, heading = lines[i]
                by = base - i * row_h
                if heading:
                    self.text(x + qty_w + 3, by, name, size * 0.85, w - qty_w - 6, bold=True)
                else:
                    self.text(x + qty_w / 2, by, qty, size, bold=True, align="center")
                    self.text(x + qty_w + 3, by, name, size, w - qty_w - 6)
        y -= rows * row_h
        total = sum(n for n, _, _ in items)
        self.box(x, y - row_h, w, row_h, fill=0.94)
        by = y - row_h + (row_h - size * 0.72) / 2
        self.text(x + qty_w + 3, by, f"Total {title}", size, w - qty_w - 40, bold=True)
        self.text(x + w - 6, by, str(total), size, bold=True, align="right")
        return y - row_h


def line_label(label: str, passcode: int | None) -> str:
    """A line's name; a passcode the card pool does not know is printed as the passcode."""
    if label:
        return label
    return f"{passcode:08d} (unknown passcode)" if passcode is not None else "?"


def _draw_page(page: _Page, deck: Deck, pool: CardPool | None, fields: Mapping[str, str | None],
               number: int, pages: int) -> None:
    from deckcheck.decks.xlsx import sheet_fields, sheet_lines

    values = sheet_fields(deck, dict(fields))
    groups = sheet_lines(deck, pool)
    c = page.c
    left, right = MARGIN, PAGE_W - MARGIN
    width = right - left
    top = PAGE_H - MARGIN

    page.text(left, top - 13, "Yu-Gi-Oh! TRADING CARD GAME", 13, bold=True)
    page.text(right, top - 13, "DECKLIST", 13, bold=True, align="right")
    c.setLineWidth(1.2)
    c.line(left, top - 18, right, top - 18)

    # player fields (left) and the judges' box (right)
    fy = top - 24
    fh = 24.0
    judge_w = 150.0
    fw = width - judge_w - 8
    half = fw / 2
    rows = [
        ((fw * 0.5, "First Name", values["first_name"]),
         (fw * 0.5, "Last Name", values["last_name"])),
        ((fw * 0.5, "CARD GAME ID", values["player_id"]),
         (fw * 0.5, "Event Date", values["date"])),
        ((fw, "Event Name", values["event"]),),
        ((half, "Country / Region of Residence", values["country"]),
         (half, "Deck Name", values["deck_name"])),
    ]
    y = fy
    for row in rows:
        y -= fh
        x = left
        for w, label, value in row:
            if label == "CARD GAME ID":
                page.id_boxes(x, y, w, fh, value)
            else:
                page.field(x, y, w, fh, label, value)
            x += w
    jx = right - judge_w
    jh = fy - y
    page.box(jx, y, judge_w, jh, width=1.0)
    c.setFillGray(0)
    c.rect(jx, fy - 12, judge_w, 12, stroke=0, fill=1)
    c.setFillGray(1)
    page.text(jx + judge_w / 2, fy - 9, "JUDGE USE ONLY", 8, bold=True, align="center")
    c.setFillGray(0)
    judge_rows = ("1st Round", "Deck Check Round", "Status / Penalty", "Judge")
    step = (jh - 12) / len(judge_rows)
    for i, label in enumerate(judge_rows):
        ly = fy - 12 - (i + 1) * step
        c.setLineWidth(0.4)
        c.line(jx, ly, right, ly)
        page.text(jx + 3, ly + step - 8, label, 6.5, judge_w - 6, bold=True)

    # how tall a line may be: the Main Deck columns, then Side and Extra Deck, fill the page
    others = groups[OTHER_MAIN]
    counts = [len(groups[g]) for g in MAIN_COLUMNS]
    target = counts.index(min(counts))  # the shortest column takes "Kind unknown"
    if others:
        counts[target] += 1 + len(others)
    main_rows = max(MAIN_LINES, *counts)
    side_rows = max(SIDE_LINES, len(groups["Side Deck"]), len(groups["Extra Deck"]))
    main_top = y - 10
    bottom = MARGIN + 38  # the signature line and footer below
    fixed = 15 + 23 + 10 + 23 + 6  # section bar, column heads, gap, column heads, slack
    row_h = min(14.5, (main_top - bottom - fixed) / (main_rows + side_rows + 2))
    size = max(1.0, min(9.0, row_h * 0.68))

    main_total = sum(n for g in (*MAIN_COLUMNS, OTHER_MAIN) for n, _, _ in groups[g])
    page.box(left, main_top - 13, width, 13, fill=0.0)
    c.setFillGray(1)
    page.text(left + 4, main_top - 9.5, "MAIN DECK", 9, bold=True)
    page.text(right - 4, main_top - 9.5, f"Main Deck total: {main_total}", 9, bold=True,
              align="right")
    c.setFillGray(0)
    gap = 6.0
    col_w = (width - 2 * gap) / 3
    col_top = main_top - 15
    end = col_top
    for i, title in enumerate(MAIN_COLUMNS):
        extra = ("Kind unknown", others) if i == target and others else None
        end = min(end, page.card_column(left + i * (col_w + gap), col_top, col_w, title,
                                        groups[title], main_rows, row_h, size, extra))

    side_top = end - 10
    half_w = (width - gap) / 2
    end2 = page.card_column(left, side_top, half_w, "Side Deck", groups["Side Deck"],
                            side_rows, row_h, size)
    page.card_column(left + half_w + gap, side_top, half_w, "Extra Deck",
                     groups["Extra Deck"], side_rows, row_h, size)

    sig_y = max(MARGIN + 16, end2 - 20)
    page.text(left, sig_y, "Player signature", 7.5, bold=True)
    c.setLineWidth(0.6)
    c.line(left + 70, sig_y - 1, left + 300, sig_y - 1)
    name = " ".join(v for v in (values["first_name"], values["last_name"]) if v)
    who = " / ".join(v for v in (name, values["player_id"]) if v)
    page.text(left, MARGIN, who, 7, width - 90)
    page.text(right, MARGIN, f"Page {number} of {pages}", 7, align="right")


def write_pdf_pages(pages: Iterable[tuple[Deck, Mapping[str, str | None]]],
                    pool: CardPool | None, *, title: str | None = None) -> bytes:
    """One decklist page per (deck, player fields), in order, as one PDF file's bytes. The
    fields are the registration sheet's (`xlsx.PLAYER_FIELDS`, or `player` for a whole
    name). DeckWriteError when reportlab is not installed."""
    _reportlab()
    from reportlab.pdfgen.canvas import Canvas

    todo: Sequence[tuple[Deck, Mapping[str, str | None]]] = list(pages)
    out = io.BytesIO()
    c = Canvas(out, pagesize=(PAGE_W, PAGE_H), invariant=True, pageCompression=1)
    c.setTitle(title or "Decklists")
    c.setCreator("deckcheck")
    fonts: set[str] = set()
    for number, (deck, fields) in enumerate(todo, 1):
        _draw_page(_Page(c, fonts), deck, pool, fields, number, len(todo))
        c.showPage()
    c.save()
    return out.getvalue()


def write_pdf(deck: Deck, pool: CardPool | None, **fields: Any) -> bytes:
    """The decklist of one deck, one page (fields as `write_pdf_pages`)."""
    return write_pdf_pages([(deck, fields)], pool, title=deck.name or None)
