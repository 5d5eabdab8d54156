"""YAML Yugi aggregate `cards.json`: official names in a dozen languages, Konami ids,
passwords, and texts in en/ja/zh-CN/zh-TW (used as same-name rule evidence)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from deckcheck.cards.model import NAME_LANGUAGES
from deckcheck.cards.rulename import rule_name_from_text
from deckcheck.errors import ImportFailed
from deckcheck.sources import SourceRecord

NAME = "yaml-yugi"

_RUBY = re.compile(r"<rt>.*?</rt>|</?ruby>|</?rb>")
_SUMMON_FRAMES = ("Fusion", "Synchro", "Xyz", "Link", "Ritual")
TEXT_LANGS = ("en", "ja", "zh-CN", "zh-TW")


def strip_ruby(s: str) -> str:
    """Japanese names carry furigana as <ruby>灰<rt>は</rt></ruby>: keep the base text."""
    return _RUBY.sub("", s) if "<" in s else s


def looks_like(data: Any) -> bool:
    if not isinstance(data, list) or not data:
        return False
    first = data[0]
    return isinstance(first, dict) and "konami_id" in first and "card_type" in first \
        and isinstance(first.get("name"), dict)


def parse(data: Any) -> Iterator[SourceRecord]:
    if not looks_like(data):
        raise ImportFailed("The file is not a YAML Yugi cards.json (a list of cards with "
                           "konami_id and names); nothing was changed — check the file.")
    for raw in data:
        rec = card_record(raw)
        if rec is not None:
            yield rec


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def card_record(raw: dict[str, Any]) -> SourceRecord | None:
    """One card of `cards.json` as a source record; None without a password or a name."""
    passcode = _int(raw.get("password"))
    fake = _int(raw.get("fake_password"))
    if passcode is None:
        passcode, fake = fake, None
    names_raw = raw.get("name") or {}
    names = {lang: strip_ruby(n) for lang in NAME_LANGUAGES
             if isinstance(n := names_raw.get(lang), str) and n.strip()}
    if passcode is None or not names:
        return None
    name = names.get("en") or next(iter(names.values()))
    rec: SourceRecord = {"passcode": passcode, "name": name, "names": names}
    if fake is not None:
        rec["extra_ids"] = [fake]
    if (kid := _int(raw.get("konami_id"))) is not None:
        rec["konami_id"] = kid
    ctype = raw.get("card_type")
    if ctype == "Monster":
        _monster(rec, raw)
    elif ctype in ("Spell", "Trap"):
        rec["kind"] = rec["frame"] = ctype.lower()
        rec["race"] = raw.get("property") or None
    series = raw.get("series")
    if isinstance(series, list) and series:
        rec["archetypes"] = [s for s in series if isinstance(s, str)]
    reg = raw.get("limit_regulation")
    if isinstance(reg, dict):
        _regulation(rec, reg)
    texts = raw.get("text") or {}
    if isinstance(texts, dict):
        _texts(rec, texts)
    return rec


def _monster(rec: SourceRecord, raw: dict[str, Any]) -> None:
    """A monster's frame, types, attribute and numbers from its type line ("Dragon / Effect")."""
    line = [p.strip() for p in (raw.get("monster_type_line") or "").split("/") if p.strip()]
    race, types = (line[0], line[1:]) if line else (None, [])
    base = next((t.lower() for t in types if t in _SUMMON_FRAMES), None)
    if base is None:
        base = "normal" if "Normal" in types else "token" if "Token" in types else "effect"
    rec["kind"] = "token" if base == "token" else "monster"
    rec["frame"] = base + ("_pendulum" if "Pendulum" in types and base != "link" else "")
    rec["monster_types"] = types
    rec["race"] = race
    rec["attribute"] = raw.get("attribute") or None
    if (lv := _int(raw.get("level"))) is not None:
        rec["level"] = lv
    if (rk := _int(raw.get("rank"))) is not None:
        rec["rank"] = rk
    arrows = raw.get("link_arrows")
    if isinstance(arrows, list) and arrows:
        rec["link_rating"] = len(arrows)
    if (sc := _int(raw.get("pendulum_scale"))) is not None:
        rec["scale"] = sc
    if (atk := _int(raw.get("atk"))) is not None and atk >= 0:
        rec["atk"] = atk
    if (dfn := _int(raw.get("def"))) is not None and dfn >= 0:
        rec["defense"] = dfn


def _regulation(rec: SourceRecord, reg: dict[str, Any]) -> None:
    """Where the card is on a list (TCG, OCG): released there, or not yet anywhere."""
    out = {r for r in ("tcg", "ocg") if reg.get(r) not in (None, "Not yet released")}
    if out:
        rec["printed"] = True  # on a list in the TCG or OCG: released there
    if out == {"ocg"}:
        rec["scopes"] = ["ocg_only"]
    elif out == {"tcg"}:
        rec["scopes"] = ["tcg_only"]
    elif not out:
        rec["scopes"] = ["prerelease"]
    else:
        rec["scopes"] = []


def _texts(rec: SourceRecord, texts: dict[str, Any]) -> None:
    """The English text, and what each language's text says about the card's name."""
    if isinstance(texts.get("en"), str):
        rec["text"] = texts["en"]
    names, name = rec["names"], rec["name"]
    spoke = []
    for lang in TEXT_LANGS:
        text = texts.get(lang)
        if not isinstance(text, str) or not text:
            continue
        key = f"{NAME}-text-{lang}"
        spoke.append(key)
        said = rule_name_from_text(text, lang)
        if said and said not in (names.get(lang), name):
            rec.setdefault("hints", []).append([key, "name", strip_ruby(said), lang])
    rec["spoke"] = spoke
