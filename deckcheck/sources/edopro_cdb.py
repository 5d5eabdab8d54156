"""YGOPro/EDOPro `cards.cdb` (SQLite tables `datas` and `texts`) and EDOPro's
`mappings.json` (prerelease id -> official passcode).

The packed columns are decoded here and reused by the ygocdb importer (same packing):
``level & 0xff`` is the level/rank/link rating, ``(level >> 24) & 0xff`` the left and
``(level >> 16) & 0xff`` the right Pendulum Scale; a Link Monster's ``def`` holds its arrows;
``ot`` says where the card exists; ``alias`` points at the card it is an alternate artwork of
(same name) or the card whose name it is treated as (different name).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from deckcheck.cards.dbpath import read_only_uri
from deckcheck.cards.rulename import rule_name_from_english
from deckcheck.errors import ImportFailed
from deckcheck.sources.records import SourceRecord

NAME = "edopro"
MAPPINGS = "edopro-mappings"

# type bits
MONSTER, SPELL, TRAP = 0x1, 0x2, 0x4
NORMAL, EFFECT, FUSION, RITUAL = 0x10, 0x20, 0x40, 0x80
SPIRIT, UNION, GEMINI, TUNER, SYNCHRO, TOKEN = 0x200, 0x400, 0x800, 0x1000, 0x2000, 0x4000
QUICKPLAY, CONTINUOUS, EQUIP, FIELD, COUNTER = 0x10000, 0x20000, 0x40000, 0x80000, 0x100000
FLIP, TOON, XYZ, PENDULUM, SPSUMMON, LINK, SKILL = (
    0x200000, 0x400000, 0x800000, 0x1000000, 0x2000000, 0x4000000, 0x8000000)

RACES = ["Warrior", "Spellcaster", "Fairy", "Fiend", "Zombie", "Machine", "Aqua", "Pyro",
         "Rock", "Winged Beast", "Plant", "Insect", "Thunder", "Dragon", "Beast",
         "Beast-Warrior", "Dinosaur", "Fish", "Sea Serpent", "Reptile", "Psychic",
         "Divine-Beast", "Creator God", "Wyrm", "Cyberse", "Illusion", "Cyborg",
         "Magical Knight", "High Dragon", "Omega Psychic", "Celestial Warrior", "Galaxy"]
ATTRIBUTES = ["EARTH", "WATER", "FIRE", "WIND", "LIGHT", "DARK", "DIVINE"]
ARROWS = [(0x1, "Bottom-Left"), (0x2, "Bottom"), (0x4, "Bottom-Right"), (0x8, "Left"),
          (0x20, "Right"), (0x40, "Top-Left"), (0x80, "Top"), (0x100, "Top-Right")]
# ot bits (EDOPro)
OT_OCG, OT_TCG, OT_ANIME, OT_ILLEGAL, OT_VIDEO_GAME, OT_CUSTOM, OT_SPEED = (
    0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40)
OT_PRERELEASE, OT_RUSH = 0x100, 0x200
_NOT_PRINTED = OT_ANIME | OT_ILLEGAL | OT_VIDEO_GAME | OT_CUSTOM | OT_PRERELEASE | OT_RUSH


def _bit_name(value: int, names: list[str]) -> str | None:
    for i, n in enumerate(names):
        if value == 1 << i:
            return n
    for i, n in enumerate(names):  # several bits: the lowest one
        if value & (1 << i):
            return n
    return None


def decode(passcode: int, ot: int, ctype: int, atk: int, dfn: int, level: int, race: int,
           attribute: int) -> SourceRecord:
    """The card facts packed into one `datas` row (shared with ygocdb)."""
    rec: SourceRecord = {"passcode": passcode}
    kind, frame = _kind_frame(ctype)
    rec["kind"], rec["frame"] = kind, frame
    if kind in ("monster", "token"):
        _monster(rec, ctype, atk, dfn, level, race, attribute)
    elif kind in ("spell", "trap"):
        rec["race"] = ("Quick-Play" if ctype & QUICKPLAY else "Continuous" if ctype & CONTINUOUS
                       else "Equip" if ctype & EQUIP else "Field" if ctype & FIELD
                       else "Counter" if ctype & COUNTER
                       else "Ritual" if ctype & RITUAL else "Normal")
    scopes = _scopes(ot)
    if ot & 0x3 and not ot & _NOT_PRINTED:
        rec["printed"] = True  # an OCG or TCG card, not a prerelease: it has a printing
    if kind == "skill":
        scopes.add("skill")
    rec["scopes"] = sorted(scopes)
    return rec


def _kind_frame(ctype: int) -> tuple[str, str]:
    """The card's kind and frame from its type bits."""
    if ctype & SKILL:
        return "skill", "skill"
    if ctype & TOKEN:
        return "token", "token"
    if ctype & SPELL:
        return "spell", "spell"
    if ctype & TRAP and not ctype & MONSTER:
        return "trap", "trap"
    base = ("link" if ctype & LINK else "xyz" if ctype & XYZ else "synchro" if ctype & SYNCHRO
            else "fusion" if ctype & FUSION else "ritual" if ctype & RITUAL
            else "normal" if ctype & NORMAL and not ctype & EFFECT else "effect")
    return "monster", base + ("_pendulum" if ctype & PENDULUM and base != "link" else "")


#: monster type bits -> the names YGOPRODeck's typeline uses, in its order
_MONSTER_TYPES = ((FUSION, "Fusion"), (RITUAL, "Ritual"), (SYNCHRO, "Synchro"), (XYZ, "Xyz"),
                  (LINK, "Link"), (PENDULUM, "Pendulum"), (FLIP, "Flip"), (GEMINI, "Gemini"),
                  (SPIRIT, "Spirit"), (TOON, "Toon"), (UNION, "Union"), (TUNER, "Tuner"),
                  (NORMAL, "Normal"), (EFFECT, "Effect"))


def _monster(rec: SourceRecord, ctype: int, atk: int, dfn: int, level: int, race: int,
             attribute: int) -> None:
    """A monster's (or token's) types, race, attribute, stats, stars and scale."""
    rec["monster_types"] = [n for bit, n in _MONSTER_TYPES if ctype & bit]
    rec["race"] = _bit_name(race, RACES)
    rec["attribute"] = _bit_name(attribute, ATTRIBUTES)
    stars = level & 0xFF
    if ctype & LINK:
        rec["link_rating"] = stars
        rec["link_arrows"] = [n for bit, n in ARROWS if dfn & bit]
        rec["defense"] = None
    else:
        rec["defense"] = dfn if dfn >= 0 else None
        if ctype & XYZ:
            rec["rank"] = stars
        else:
            rec["level"] = stars
    rec["atk"] = atk if atk >= 0 else None
    if ctype & PENDULUM:
        rec["scale"] = (level >> 24) & 0xFF
    if ctype & SPSUMMON:
        rec["cannot_normal_summon"] = True


#: ot bits -> scopes
_OT_SCOPES = ((OT_ANIME, "anime"), (OT_PRERELEASE, "prerelease"), (OT_RUSH, "rush"),
              (OT_SPEED, "speed"), (OT_CUSTOM, "unofficial"), (OT_CUSTOM, "custom"),
              (OT_ILLEGAL, "unofficial"), (OT_VIDEO_GAME, "unofficial"))


def _scopes(ot: int) -> set[str]:
    """Where the card exists, from its `ot` bits."""
    scopes: set[str] = set()
    if ot & 0x3 == OT_OCG:
        scopes.add("ocg_only")
    elif ot & 0x3 == OT_TCG:
        scopes.add("tcg_only")
    for bit, scope in _OT_SCOPES:
        if ot & bit:
            scopes.add(scope)
    return scopes


def is_cdb(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                return False
        con = sqlite3.connect(read_only_uri(path), uri=True)
        try:
            tables = {r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            con.close()
    except (OSError, sqlite3.Error):
        return False
    return {"datas", "texts"} <= tables


def parse(path: str | Path, source: str = NAME, shown: str | None = None
          ) -> Iterator[SourceRecord]:
    """Source records for every card of a cdb file (`shown`: how messages name it, when it
    was unpacked from an archive)."""
    path = Path(path)
    where = shown or str(path)
    try:
        con = sqlite3.connect(read_only_uri(path), uri=True)
        try:
            rows = con.execute(
                "SELECT d.id, d.ot, d.alias, d.type, d.atk, d.def, d.level, d.race, d.attribute,"
                " t.name, t.desc FROM datas d JOIN texts t ON t.id = d.id").fetchall()
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise ImportFailed(f"{where} is not a readable YGOPro card database ({exc}); nothing was "
                           "changed — check the file.") from None
    columns = ("id", "ot", "alias", "type", "atk", "def", "level", "race", "attribute")
    for row in rows:
        name, desc = row[9], row[10]
        if not name:
            continue
        pid, ot, alias, ctype, atk, dfn, level, race, attr = (
            _number(where, row[0], col, v) for col, v in zip(columns, row[:9], strict=True))
        if not isinstance(name, str) or not isinstance(desc, str | None):
            what = "text" if isinstance(name, str) else "name"
            raise ImportFailed(f"{where}: card {pid} has a {what} that is not text (binary "
                               "data); nothing was changed — check the file.")
        # some rows' names end in a line break or start with a tab (511020012 "Reflect
        # Bounder (Anime)\r\n", 301131072 "\tUmbra & Lumis"): not part of the name
        name = name.strip()
        if not name:  # (white space only: no name, as an empty one)
            continue
        rec = decode(pid, ot, ctype, atk, dfn, level, race, attr)
        rec["name"] = name
        rec["names"] = {"en": name}
        rec["text"] = desc or None
        if alias:
            rec["alias"] = alias
        said = rule_name_from_english(desc)
        rec["spoke"] = [f"{source}-text"]
        if said and said != name:
            rec["hints"] = [[f"{source}-text", "name", said, "en"]]
        yield rec


def _number(where: str, pid: Any, column: str, value: Any) -> int:
    """A whole number from a `datas` column (empty is 0); anything else refuses the file."""
    if not value:
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    shown = repr(value)[:40]
    card = pid if isinstance(pid, int) else repr(pid)[:24]  # an id of text: quoted, one line
    raise ImportFailed(f"{where}: card {card} has {shown} in its {column} column, not a "
                       "whole number; nothing was changed — check the file.")


def looks_like_mappings(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("mappings"), list)


def parse_mappings(data: Any) -> Iterator[SourceRecord]:
    """EDOPro `mappings.json`: records that only add prerelease ids to official cards."""
    by_official: dict[int, list[int]] = {}
    for pair in data.get("mappings") or ():
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, int) for x in pair):
            by_official.setdefault(pair[1], []).append(pair[0])
    for official, pre in sorted(by_official.items()):
        yield {"passcode": official, "extra_ids": sorted(pre), "enrich_only": True}
