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


def normalize(name: str) -> str:
    """The lookup key for a card name."""
    s = unicodedata.normalize("NFKC", name).casefold()
    s = s.replace("&", " and ")
    s = _DROP.sub("", s)
    return s
