"""ygocdb (百鸽, ygocdb.com) `cards.json`, shipped as `cards.zip`: an object keyed by id
string; each value has `cid` (Konami id), `id` (passcode), the Chinese names `cn_name`,
`sc_name`, `md_name`, `nwbbs_n`, `cnocg_n`, `jp_name`, `jp_ruby`, `en_name`, `text`
{`types`, `pdesc`, `desc`} and `data` packed like a YGOPro cdb row."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from deckcheck.cards.model import COMMUNITY_NAME_KEYS
from deckcheck.cards.rulename import rule_name_from_chinese
from deckcheck.errors import ImportFailed
from deckcheck.sources.edopro_cdb import decode
from deckcheck.sources.records import SourceRecord

NAME = "ygocdb"


def looks_like(data: Any) -> bool:
    if not isinstance(data, dict) or not data:
        return False
    key, first = next(iter(data.items()))
    return str(key).isdigit() and isinstance(first, dict) and "cid" in first \
        and any(k in first for k in COMMUNITY_NAME_KEYS)


def parse(data: Any) -> Iterator[SourceRecord]:
    if not looks_like(data):
        raise ImportFailed("The file is not a ygocdb cards.json (an object of cards keyed by "
                           "id with cn_name/jp_name); nothing was changed — check the file.")
    for raw in data.values():
        rec = card_record(raw)
        if rec is not None:
            yield rec


def _int(v: Any) -> int | None:
    if isinstance(v, bool) or v is None:
        return None
    try:
        return int(v)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an infinite float
        return None


def card_record(raw: Any) -> SourceRecord | None:
    """One card of `cards.json` as a source record; None without an id or any name."""
    if not isinstance(raw, dict):
        return None
    passcode = _int(raw.get("id"))
    if passcode is None:
        return None
    names = _names(raw)
    if not names:
        return None
    name = (names.get("en") or names.get("sc_name") or names.get("cn_name")
            or next(iter(names.values())))
    rec = _packed(passcode, raw.get("data"))
    rec["name"] = name
    rec["names"] = names
    if (cid := _int(raw.get("cid"))) is not None and 0 < cid < 2**31:
        rec["konami_id"] = cid
    _text(rec, raw.get("text"), names)
    return rec


def _packed(passcode: int, data: Any) -> SourceRecord:
    """The card facts of the cdb-packed ``data`` object (`decode`); the passcode alone when
    it has no card type."""
    if not isinstance(data, dict) or not _int(data.get("type")):
        return {"passcode": passcode}
    return decode(passcode, *(_int(data.get(k)) or 0 for k in (
        "ot", "type", "atk", "def", "level", "race", "attribute")))


def _text(rec: SourceRecord, text: Any, names: dict[str, str]) -> None:
    """What the card's Chinese text says about its name (same-name rule evidence)."""
    if not isinstance(text, dict):
        return
    desc = "\n".join(t for t in (text.get("pdesc"), text.get("desc")) if isinstance(t, str) and t)
    if desc:
        rec["spoke"] = [f"{NAME}-text"]
        said = rule_name_from_chinese(desc)
        if said and said not in names.values():
            rec["hints"] = [[f"{NAME}-text", "name", said, "zh-CN"]]


def _names(raw: dict[str, Any]) -> dict[str, str]:
    """The community Chinese names under their own keys, English, Japanese, and the
    simplified-Chinese name as "zh-CN"."""
    names: dict[str, str] = {}
    for key in COMMUNITY_NAME_KEYS:
        if isinstance(raw.get(key), str) and raw[key].strip():
            names[key] = raw[key].strip()
    if isinstance(raw.get("en_name"), str) and raw["en_name"].strip():
        names["en"] = raw["en_name"].strip()
    if isinstance(raw.get("jp_name"), str) and raw["jp_name"].strip():
        names["ja"] = raw["jp_name"].strip()
    if "sc_name" in names:
        names["zh-CN"] = names["sc_name"]
    return names
