"""`ydke://` URLs: the deck in one string, as EDOPro, Dueling Book bots and YGOPRODeck share it.

`ydke://MAIN!EXTRA!SIDE!` where each part is standard base64 of little-endian uint32
passcodes (so its decoded length is a multiple of 4). The trailing `!` is usual but optional;
YGOPRODeck may add a fourth part, kept in `meta["ydke_part4"]`. A broken part is refused with
a sentence naming the part and what is wrong with it (a URL is all or nothing: a half-decoded
deck would be a different deck).

    >>> to_ydke(read_ydke("ydke://1xqfAQ==!!!"))
    'ydke://1xqfAQ==!!!'
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from itertools import groupby

from deckcheck.decks.model import SECTIONS, Deck, Entry, Location, Section
from deckcheck.decks.source import MAX_ENTRIES
from deckcheck.errors import DeckReadError, DeckWriteError

PREFIX = "ydke://"
_B64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_NAMES = {"main": "Main Deck", "extra": "Extra Deck", "side": "Side Deck"}
#: A URL longer than this is no deck (a few hundred cards at most).
MAX_URL = 100_000


def is_ydke(text: str) -> bool:
    return text.lstrip()[: len(PREFIX)].lower() == PREFIX


def read_ydke(url: str, source: str = "<url>", *, name: str | None = None) -> Deck:
    """Decode a `ydke://` URL. Raises DeckReadError naming the broken part."""
    parts = _parts(url, source)
    deck = Deck(name=name, source=source or None)
    for sec, part in zip(SECTIONS, parts[:3], strict=True):
        deck.section(sec).extend(_entries(_codes(_NAMES[sec], part), sec, source or None))
    if len(parts) == 4 and parts[3]:
        deck.meta["ydke_part4"] = parts[3]
    return deck


def _parts(url: str, source: str) -> list[str]:
    """The `!`-separated parts of a ydke:// URL: main, extra, side and maybe a fourth."""
    text = url.strip()
    if len(text) > MAX_URL:
        raise DeckReadError(f"The ydke:// URL is {len(text):,} characters long, which is no "
                            "deck; check what was pasted.")
    if not is_ydke(text):
        raise DeckReadError(f"{source}: a ydke URL must start with 'ydke://'; copy the whole "
                            "URL.")
    parts = text[len(PREFIX):].split("!")
    if len(parts) < 3:
        raise DeckReadError(f"The ydke:// URL has {len(parts)} part(s) but needs three "
                            "(main!extra!side!); copy the whole URL.")
    if len(parts) > 4 and any(parts[4:]):
        raise DeckReadError(f"The ydke:// URL has {len(parts)} parts but a deck has at most "
                            "four (main!extra!side!); check that only one URL was pasted.")
    return parts


def _codes(label: str, part: str) -> tuple[int, ...]:
    """The passcodes of one part (base64 of 4-byte little-endian numbers)."""
    if not _B64.fullmatch(part):
        bad = [ch for ch in part if not (ch.isascii() and (ch.isalnum() or ch in "+/="))]
        what = f"holds {bad[0]!r}" if bad else "has '=' padding inside it"
        raise DeckReadError(f"The {label} part of the ydke:// URL is not base64 (it {what}); "
                            "copy the URL again without changing it.")
    try:
        raw = base64.b64decode(part, validate=True)
    except (binascii.Error, ValueError):
        raise DeckReadError(f"The {label} part of the ydke:// URL is cut short or padded "
                            "wrongly (base64 length not a multiple of 4); copy the whole "
                            "URL again.") from None
    if len(raw) % 4:
        raise DeckReadError(f"The {label} part of the ydke:// URL decodes to {len(raw)} "
                            "bytes, not a multiple of 4 (one passcode is 4 bytes); copy the "
                            "whole URL again.")
    if len(raw) // 4 > MAX_ENTRIES:
        raise DeckReadError(f"The {label} part of the ydke:// URL holds {len(raw) // 4:,} "
                            f"cards (more than {MAX_ENTRIES:,}), which is no deck; check "
                            "what was pasted.")
    return struct.unpack(f"<{len(raw) // 4}I", raw)


def _entries(codes: tuple[int, ...], sec: Section, source: str | None) -> list[Entry]:
    """One entry per run of one passcode, located at the run's first position."""
    out = []
    i = 0
    for pc, run in groupby(codes):
        n = sum(1 for _ in run)
        out.append(Entry(passcode=pc, written=str(pc), count=n,
                         location=Location(source=source, part=f"{sec}[{i}]")))
        i += n
    return out


def to_ydke(deck: Deck) -> str:
    """The deck as a `ydke://` URL (entries without a passcode are left out)."""
    out = []
    for sec in SECTIONS:
        codes = deck.passcodes(sec)
        for pc in codes:
            if not 0 <= pc < 2**32:
                raise DeckWriteError(f"Passcode {pc} does not fit in a ydke:// URL (must be "
                                     "0 to 4294967295); fix the deck.")
        out.append(base64.b64encode(struct.pack(f"<{len(codes)}I", *codes)).decode("ascii"))
    return PREFIX + "!".join(out) + "!"
