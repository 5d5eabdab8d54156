"""The built-in card set: ~150 hand-written cards, so deckcheck works before any import.

The cards live in `builtin_cards.tsv` next to this module (inside the package, so a wheel
carries it). It is a text file written and checked by people: one card a line, facts only
(passcodes, names, frame, level, attribute…), never card texts. Its header explains the
columns. `tests/cards/test_builtin.py` checks every line against the real card data.

`builtin_pool()` is what `deckcheck.cards.load.open_pool` falls back to when no card
database has been imported yet.
"""

from __future__ import annotations

import functools
from pathlib import Path

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool, PoolInfo
from deckcheck.errors import CardPoolError

#: Version of the hand-written set; bump it whenever builtin_cards.tsv changes.
BUILTIN_VERSION = "2026.11"
DATA_FILE = "builtin_cards.tsv"

COLUMNS = (
    "passcode", "alt", "name", "ja", "zh-CN", "frame", "types", "level", "scale",
    "attribute", "race", "atk/def", "archetypes", "rule_name", "flags",
)
#: Flags that are not scopes.
_CNS = "cns"
_SCOPES = frozenset({"ocg_only", "tcg_only", "anime", "prerelease", "rush", "speed", "skill",
                     "unofficial"})
_KIND_OF_FRAME = {Frame.SPELL: Kind.SPELL, Frame.TRAP: Kind.TRAP, Frame.TOKEN: Kind.TOKEN,
                  Frame.SKILL: Kind.SKILL}


class BuiltinDataError(CardPoolError):
    """The built-in card file is malformed (a packaging bug, not a user error)."""


def _cell(value: str) -> str | None:
    value = value.strip()
    return None if value in ("", "-") else value


def _int(value: str | None, where: str, column: str) -> int | None:
    return None if value is None else _num(value, where, column)


def _num(value: str, where: str, column: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise BuiltinDataError(
            f"{where}: column {column!r} holds {value!r}, not a number; fix the built-in card file."
        ) from None


def _list(value: str | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return tuple(part.strip() for part in value.split(",") if part.strip())


def parse_line(line: str, where: str) -> Card:
    """One card from one tab-separated line of the built-in file."""
    cells = line.rstrip("\r\n").split("\t")
    if len(cells) != len(COLUMNS):
        raise BuiltinDataError(
            f"{where}: {len(cells)} columns instead of {len(COLUMNS)}; fix the built-in card file."
        )
    c = dict(zip(COLUMNS, (_cell(x) for x in cells), strict=True))
    name = c["name"]
    passcode = _int(c["passcode"], where, "passcode")
    if passcode is None or name is None or c["frame"] is None:
        raise BuiltinDataError(
            f"{where}: a card needs a passcode, a name and a frame; fix the built-in card file."
        )
    try:
        frame = Frame(c["frame"])
    except ValueError:
        raise BuiltinDataError(
            f"{where}: unknown frame {c['frame']!r}; use one of deckcheck.cards.model.Frame."
        ) from None
    kind = _KIND_OF_FRAME.get(frame, Kind.MONSTER)
    stars = _int(c["level"], where, "level")
    level = rank = link = None
    if frame in (Frame.XYZ, Frame.XYZ_PENDULUM):
        rank = stars
    elif frame is Frame.LINK:
        link = stars
    else:
        level = stars
    atk = defense = None
    if c["atk/def"] is not None:
        a, _, d = c["atk/def"].partition("/")
        atk = _int(_cell(a), where, "atk")
        defense = _int(_cell(d), where, "def")
    flags = _list(c["flags"])
    unknown = set(flags) - _SCOPES - {_CNS}
    if unknown:
        raise BuiltinDataError(f"{where}: unknown flag {sorted(unknown)[0]!r}; "
                               "fix the built-in card file.")
    names = {"en": name}
    for lang in ("ja", "zh-CN"):
        translated = c[lang]
        if translated is not None:
            names[lang] = translated
    return Card(
        passcode=passcode,
        alt_passcodes=tuple(_num(x, where, "alt") for x in _list(c["alt"])),
        name=name,
        names=names,
        kind=kind,
        frame=frame,
        monster_types=_list(c["types"]),
        level=level,
        rank=rank,
        link_rating=link,
        scale=_int(c["scale"], where, "scale"),
        attribute=c["attribute"],
        race=c["race"],
        atk=atk,
        defense=defense,
        archetypes=_list(c["archetypes"]),
        scopes=frozenset(f for f in flags if f in _SCOPES),
        rule_name=c["rule_name"] or name,
        rule_name_evidence={"builtin": c["rule_name"] or name},
        cannot_normal_summon=_CNS in flags,
    )


def parse_builtin(text: str, source: str = DATA_FILE) -> list[Card]:
    """Every card of a built-in-format text: `#` lines and blank lines are skipped."""
    cards: list[Card] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cards.append(parse_line(line, f"{source}:{number}"))
    return cards


def builtin_text() -> str:
    """The raw text of the built-in card file, read from inside the package."""
    # the package folder on disk (importlib.resources would cost ~10 ms of start-up)
    return (Path(__file__).parent / DATA_FILE).read_text(encoding="utf-8")


@functools.cache
def _cards() -> tuple[Card, ...]:
    return tuple(parse_builtin(builtin_text()))


def builtin_cards() -> list[Card]:
    """The built-in cards, in file order."""
    return list(_cards())


@functools.cache
def builtin_pool() -> MemoryPool:
    """The built-in card set as a pool (built once, then cached)."""
    cards = _cards()
    info = PoolInfo(builtin=True, sources={"builtin": BUILTIN_VERSION}, card_count=len(cards))
    return MemoryPool(cards, info)
