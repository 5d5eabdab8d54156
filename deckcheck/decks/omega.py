"""YGO Omega deck codes: base64 of raw-DEFLATE-compressed bytes.

The inflated bytes are: one byte = number of Main + Extra Deck cards, one byte = number of Side
Deck cards, then that many little-endian uint32 passcodes (Main and Extra first, then Side).

The code does not store which of the first cards are Main Deck and which are Extra Deck, so
the reader splits them by the pool's card frames: Fusion, Synchro, Xyz and Link monsters
(pendulum ones too) go to the Extra Deck, everything else, including passcodes the pool does
not know, to the Main Deck. Reading an Omega code therefore needs the card pool, and a
round trip keeps every card but files Extra Deck monsters written under the Main Deck back in
the Extra Deck.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
import zlib

from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import Deck, Entry, Location, Section
from deckcheck.decks.resolve import place_by_frame
from deckcheck.errors import DeckReadError, DeckWriteError

_B64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
MAX_CODE = 10_000
#: Inflating never yields more than this (2 count bytes + 510 passcodes).
MAX_INFLATED = 2 + 4 * 510


def looks_like_omega(text: str) -> bool:
    """True if `text` is a base64 string that inflates to a well-formed Omega deck."""
    try:
        _decode(text.strip(), "")
    except DeckReadError:
        return False
    return True


def _decode(code: str, where: str) -> tuple[list[int], list[int]]:
    label = f"{where}: the" if where else "The"
    if not code or len(code) > MAX_CODE or not _B64.fullmatch(code):
        raise DeckReadError(f"{label} Omega deck code is not base64 text; copy the whole code "
                            "from YGO Omega.")
    try:
        raw = base64.b64decode(code, validate=True)
    except (binascii.Error, ValueError):
        raise DeckReadError(f"{label} Omega deck code is cut short (base64 length not a "
                            "multiple of 4); copy the whole code again.") from None
    try:
        inflater = zlib.decompressobj(-15)
        data = inflater.decompress(raw, MAX_INFLATED + 1)
    except zlib.error:
        raise DeckReadError(f"{label} Omega deck code does not inflate (it is not DEFLATE "
                            "data); copy the whole code from YGO Omega.") from None
    if len(data) < 2:
        raise DeckReadError(f"{label} Omega deck code holds no card counts; copy the whole "
                            "code again.")
    n_main, n_side = data[0], data[1]
    expected = 2 + 4 * (n_main + n_side)
    if len(data) != expected:
        raise DeckReadError(f"{label} Omega deck code announces {n_main} + {n_side} cards but "
                            f"holds {(len(data) - 2) / 4:g}; copy the whole code again.")
    codes = list(struct.unpack(f"<{n_main + n_side}I", data[2:]))
    return codes[:n_main], codes[n_main:]


def read_omega(code: str, pool: CardPool | None, source: str = "<omega code>", *,
               name: str | None = None) -> Deck:
    """Decode an Omega deck code (see the module docstring for the Main/Extra split)."""
    main_extra, side = _decode(code.strip(), "" if source == "<omega code>" else source)
    deck = Deck(name=name, source=source or None)
    for part, codes in (("main", main_extra), ("side", side)):
        last: dict[Section, Entry] = {}
        for i, pc in enumerate(codes):
            sec: Section = place_by_frame(pool, pc) if part == "main" else "side"
            entries = deck.section(sec)
            prev = last.get(sec)
            if prev is not None and entries and entries[-1] is prev and prev.passcode == pc:
                grown = prev.model_copy(update={"count": prev.count + 1})
                entries[-1] = last[sec] = grown
                continue
            e = Entry(passcode=pc, written=str(pc), count=1,
                      location=Location(source=source or None, part=f"{part}[{i}]"))
            entries.append(e)
            last[sec] = e
    return deck


def to_omega(deck: Deck) -> str:
    """The deck as an Omega code (Main and Extra first, then Side)."""
    first = deck.passcodes("main") + deck.passcodes("extra")
    side = deck.passcodes("side")
    if len(first) > 255 or len(side) > 255:
        raise DeckWriteError("An Omega code holds at most 255 Main + Extra and 255 Side Deck "
                             "cards; this deck has more.")
    for pc in first + side:
        if not 0 <= pc < 2**32:
            raise DeckWriteError(f"Passcode {pc} does not fit in an Omega code; fix the deck.")
    raw = bytes([len(first), len(side)]) + struct.pack(f"<{len(first) + len(side)}I",
                                                       *first, *side)
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(comp.compress(raw) + comp.flush()).decode("ascii")
