"""Name normalisation: the key under which a card name is looked up, in any language.

Case, full/half width, punctuation, quote styles and spacing do not matter:
"Ash Blossom & Joyous Spring", "ash blossom and joyous spring" and "ＡＳＨ ＢＬＯＳＳＯＭ＆Joyous
Spring" share one key; 灰流うらら and 灰流丽 keep their characters (only width and
punctuation fold).
"""

from __future__ import annotations

import re
import unicodedata

_DROP = re.compile(r"[\s\"'`´‘’“”„«»「」『』【】《》〈〉・･·•\-‐‑‒–—―~〜～:：;；,，.。!！?？"
                   r"()（）\[\]［］{}/／\\_#*]+")


#: No card name, in any language, is longer than this many characters (the longest English
#: name has under 100): longer text is no card name, and readers do not look it up (a 32 KB
#: cell normalised once per probe made a 760 KB workbook take 9 s).
LONGEST_NAME = 200


def could_be_name(text: str) -> bool:
    """False for text too long to be any card name (or header word): not worth normalising."""
    return len(text) <= LONGEST_NAME


#: the ASCII characters `_DROP` removes, for `normalize`'s ASCII path
_DROP_ASCII = bytes(c for c in range(128) if _DROP.fullmatch(chr(c)))


def normalize(name: str) -> str:
    """The lookup key for a card name."""
    if name.isascii():  # NFKC keeps ASCII as it is, and casefold is lower there: 2.5x faster
        return name.lower().replace("&", " and ").encode().translate(None, _DROP_ASCII).decode()
    s = unicodedata.normalize("NFKC", name).casefold()
    s = s.replace("&", " and ")
    s = _DROP.sub("", s)
    return s
