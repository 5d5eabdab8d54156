"""TOML key paths as the profile's error messages write them (``cards."Pot of Desires".draw``),
for the plain profile reader (`compiled`) and the pydantic fallback (`_profile_schema`) alike.
"""

from __future__ import annotations

import re


def key(part: object) -> str:
    """One TOML key as a path writes it: an index in brackets, a bare key, else quoted."""
    if isinstance(part, int):
        return f"[{part}]"
    s = str(part)
    return s if re.fullmatch(r"[A-Za-z0-9_-]+", s) else f'"{s}"'


def key_path(loc: tuple[object, ...]) -> str:
    """A TOML key path: ("cards", "Pot of Desires", "draw") -> cards."Pot of Desires".draw."""
    out = ""
    for part in loc:
        k = key(part)
        out += k if k.startswith("[") or not out else "." + k
    return out or "(top level)"
