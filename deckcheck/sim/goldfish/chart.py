"""A small PNG bar chart of success by turn, written with zlib + struct (no matplotlib).

Bars per turn (going first: blue, going second: orange) on a 0-100% axis with grid lines
every 25%; each bar carries its percentage in a tiny 3x5 bitmap font; turn numbers sit
under the bars; a title and a legend (upper-case letters of the same font) say what is shown.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

Color = tuple[int, int, int]
WHITE: Color = (255, 255, 255)
BLACK: Color = (0, 0, 0)
GRID: Color = (220, 220, 220)
SERIES: tuple[Color, ...] = ((31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40))

# 3x5 glyphs, rows top to bottom, bits left to right
_FONT = {
    "0": ("111", "101", "101", "101", "111"), "1": ("010", "110", "010", "010", "111"),
    "2": ("111", "001", "111", "100", "111"), "3": ("111", "001", "111", "001", "111"),
    "4": ("101", "101", "111", "001", "001"), "5": ("111", "100", "111", "001", "111"),
    "6": ("111", "100", "111", "101", "111"), "7": ("111", "001", "010", "010", "010"),
    "8": ("111", "101", "111", "101", "111"), "9": ("111", "101", "111", "001", "111"),
    "%": ("101", "001", "010", "100", "101"), ".": ("000", "000", "000", "000", "010"),
    "B": ("110", "101", "110", "101", "110"), "C": ("111", "100", "100", "100", "111"),
    "D": ("110", "101", "101", "101", "110"), "E": ("111", "100", "110", "100", "111"),
    "F": ("111", "100", "110", "100", "100"), "G": ("111", "100", "101", "101", "111"),
    "I": ("111", "010", "010", "010", "111"), "N": ("101", "111", "111", "101", "101"),
    "O": ("111", "101", "101", "101", "111"), "R": ("110", "101", "110", "101", "101"),
    "S": ("111", "100", "111", "001", "111"), "T": ("111", "010", "010", "010", "010"),
    "U": ("101", "101", "101", "101", "111"), "Y": ("101", "101", "010", "010", "010"),
    "A": ("010", "101", "111", "101", "101"), "-": ("000", "000", "111", "000", "000"),
}


class Canvas:
    def __init__(self, width: int, height: int, bg: Color = WHITE) -> None:
        self.w, self.h = width, height
        self.px = bytearray(bytes(bg) * (width * height))

    def rect(self, x0: int, y0: int, x1: int, y1: int, color: Color) -> None:
        """Fill [x0, x1) x [y0, y1), clipped to the canvas."""
        x0, x1 = max(0, min(x0, x1)), min(self.w, max(x0, x1))
        y0, y1 = max(0, min(y0, y1)), min(self.h, max(y0, y1))
        row = bytes(color) * (x1 - x0)
        for y in range(y0, y1):
            i = (y * self.w + x0) * 3
            self.px[i:i + len(row)] = row

    def text(self, x: int, y: int, s: str, color: Color = BLACK, scale: int = 2) -> None:
        for ch in s:
            glyph = _FONT.get(ch)
            if glyph:
                for gy, bits in enumerate(glyph):
                    for gx, bit in enumerate(bits):
                        if bit == "1":
                            self.rect(x + gx * scale, y + gy * scale,
                                      x + (gx + 1) * scale, y + (gy + 1) * scale, color)
            x += 4 * scale

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(self.px[y * self.w * 3:(y + 1) * self.w * 3])
                       for y in range(self.h))

        def chunk(tag: bytes, data: bytes) -> bytes:
            return (struct.pack(">I", len(data)) + tag + data
                    + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

        ihdr = struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def text_width(s: str, scale: int = 2) -> int:
    return len(s) * 4 * scale - scale


def bar_chart(series: list[list[float]], *, width: int = 560, height: int = 320,
              labels: list[str] | None = None, title: str = "SUCCESS BY TURN") -> bytes:
    """PNG bytes: one group of bars per turn, one bar per series (values 0..1); `labels`
    name the series in a legend (upper-case letters, digits, "-", "%" and spaces)."""
    c = Canvas(width, height)
    left, right, top, bottom = 44, 12, 40, 30
    c.text(left, 10, title.upper())
    x = width - right
    for si, label in reversed(list(enumerate(labels or []))):
        label = label.upper()
        x -= text_width(label) + 4
        c.text(x, 10, label)
        x -= 14
        c.rect(x, 10, x + 10, 20, SERIES[si % len(SERIES)])
        x -= 12
    plot_w, plot_h = width - left - right, height - top - bottom

    def y_of(v: float) -> int:
        return top + plot_h - round(max(0.0, min(1.0, v)) * plot_h)

    for q in (0.25, 0.5, 0.75, 1.0):
        c.rect(left, y_of(q), width - right, y_of(q) + 1, GRID)
        label = f"{int(q * 100)}%"
        c.text(left - 6 - text_width(label), y_of(q) - 5, label)
    c.text(left - 6 - text_width("0%"), y_of(0) - 5, "0%")
    turns = max((len(s) for s in series), default=0)
    if turns:
        group = plot_w / turns
        bar = max(2, int(group * 0.8 / max(1, len(series))))
        for t in range(turns):
            gx = left + int(group * t + group * 0.1)
            for si, values in enumerate(series):
                if t >= len(values):
                    continue
                x0 = gx + si * bar
                y0 = y_of(values[t])
                c.rect(x0, y0, x0 + bar - 1, top + plot_h, SERIES[si % len(SERIES)])
                label = f"{values[t] * 100:.0f}"
                scale = 2 if text_width(label, 2) <= bar else 1
                c.text(x0 + (bar - 1 - text_width(label, scale)) // 2,
                       y0 - 5 * scale - 3, label, scale=scale)
            num = str(t + 1)
            c.text(left + int(group * t + group / 2) - text_width(num) // 2,
                   top + plot_h + 8, num)
    c.rect(left, top, left + 1, top + plot_h + 1, BLACK)
    c.rect(left, top + plot_h, width - right, top + plot_h + 1, BLACK)
    return c.png()


def write_chart(path: str | Path, series: list[list[float]],
                labels: list[str] | None = None) -> None:
    from deckcheck.errors import OutputError

    try:
        Path(path).write_bytes(bar_chart(series, labels=labels))
    except OSError as exc:
        raise OutputError(f"{path}: the chart cannot be written ({exc.strerror}); check that "
                          "the folder exists and you may write there.") from None
