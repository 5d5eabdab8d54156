"""YAML Yugi aggregate `cards.json`: official names in a dozen languages, Konami ids,
passwords, and texts in en/ja/zh-CN/zh-TW (used as same-name rule evidence)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from deckcheck.cards.model import NAME_LANGUAGES
from deckcheck.cards.rulename import rule_name_from_text
from deckcheck.errors import ImportFailed
from deckcheck.sources.records import SourceRecord

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
    record = card_record
    for raw in data:
        if type(raw) is dict and (rec := record(raw)) is not None:
            yield rec
        elif type(raw) is not dict:
            raise ImportFailed(f"The file is not a YAML Yugi cards.json (an entry is "
                               f"{type(raw).__name__}, not a card); nothing was changed — "
                               "check the file.")


def _int(v: Any) -> int | None:
    return v if type(v) is int else None


_MONSTER_FIELDS = (("level", "level"), ("rank", "rank"), ("pendulum_scale", "scale"))
_NOT_RELEASED = (None, "Not yet released")


def card_record(raw: dict[str, Any]) -> SourceRecord | None:
    """One card of `cards.json` as a source record; None without a password or a name.

    Plain dict access throughout: it runs once per card of a 27 MB file."""
    get = raw.get
    passcode = get("password")
    fake = get("fake_password")
    if type(fake) is not int:
        fake = None
    if type(passcode) is not int:
        passcode, fake = fake, None
    names = _names(get("name"))
    if passcode is None or not names:
        return None
    name = names.get("en") or next(iter(names.values()))
    rec: SourceRecord = {"passcode": passcode, "name": name, "names": names}
    if fake is not None:
        rec["extra_ids"] = [fake]
    if type(kid := get("konami_id")) is int and 0 < kid < 2**31:
        rec["konami_id"] = kid
    ctype = get("card_type")
    if ctype == "Monster":
        _monster(rec, raw)
    elif ctype == "Spell" or ctype == "Trap":
        rec["kind"] = rec["frame"] = ctype.lower()
        rec["race"] = get("property") or None
    _where(rec, raw)
    texts = get("text") or {}
    if type(texts) is dict:
        _texts(rec, texts)
    return rec


def _names(names_raw: Any) -> dict[str, str]:
    """The card's name per language (ruby markup dropped); empty when it has none."""
    if type(names_raw) is not dict:
        return {}
    names = {}
    for lang in NAME_LANGUAGES:
        n = names_raw.get(lang)
        if type(n) is str and n.strip():
            names[lang] = _RUBY.sub("", n) if "<" in n else n
    return names


def _where(rec: SourceRecord, raw: dict[str, Any]) -> None:
    """Archetypes, Master Duel presence, and where the card is released (`_regulation`)."""
    get = raw.get
    series = get("series")
    if type(series) is list and series:
        rec["archetypes"] = [s for s in series if type(s) is str]
    rarity = get("master_duel_rarity")  # only cards in Master Duel have one (13,815 of 14,276)
    rec["master_duel"] = type(rarity) is str and bool(rarity)
    reg = get("limit_regulation")
    if type(reg) is dict:
        _regulation(rec, reg)


def _monster(rec: SourceRecord, raw: dict[str, Any]) -> None:
    """A monster's frame, types, attribute and numbers from its type line ("Dragon / Effect")."""
    get = raw.get
    typeline = get("monster_type_line")
    line = [p.strip() for p in typeline.split("/") if p.strip()] if type(typeline) is str else []
    race, types = (line[0], line[1:]) if line else (None, [])
    base = next((t.lower() for t in types if t in _SUMMON_FRAMES), None)
    if base is None:
        base = "normal" if "Normal" in types else "token" if "Token" in types else "effect"
    rec["kind"] = "token" if base == "token" else "monster"
    rec["frame"] = base + ("_pendulum" if "Pendulum" in types and base != "link" else "")
    rec["monster_types"] = types
    rec["race"] = race
    rec["attribute"] = get("attribute") or None
    if type(lv := get("level")) is int:
        rec["level"] = lv
    if type(rk := get("rank")) is int:
        rec["rank"] = rk
    arrows = get("link_arrows")
    if type(arrows) is list and arrows:
        rec["link_rating"] = len(arrows)
    if type(sc := get("pendulum_scale")) is int:
        rec["scale"] = sc
    if type(atk := get("atk")) is int and atk >= 0:
        rec["atk"] = atk
    if type(dfn := get("def")) is int and dfn >= 0:
        rec["defense"] = dfn


def _regulation(rec: SourceRecord, reg: dict[str, Any]) -> None:
    """Where the card is on a list (TCG, OCG): released there, or not yet anywhere."""
    tcg = reg.get("tcg") not in _NOT_RELEASED
    ocg = reg.get("ocg") not in _NOT_RELEASED
    if tcg or ocg:
        rec["printed"] = True  # on a list in the TCG or OCG: released there
    rec["scopes"] = [] if tcg and ocg else ["tcg_only"] if tcg else ["ocg_only"] if ocg \
        else ["prerelease"]


_TEXT_KEYS = tuple((lang, f"{NAME}-text-{lang}") for lang in TEXT_LANGS)


def _texts(rec: SourceRecord, texts: dict[str, Any]) -> None:
    """The English text, and what each language's text says about the card's name."""
    if type(en := texts.get("en")) is str:
        rec["text"] = en
    names, name = rec["names"], rec["name"]
    spoke = []
    for lang, key in _TEXT_KEYS:
        text = texts.get(lang)
        if type(text) is not str or not text:
            continue
        spoke.append(key)
        said = rule_name_from_text(text, lang)
        if said and said not in (names.get(lang), name):
            rec.setdefault("hints", []).append([key, "name", strip_ruby(said), lang])
    rec["spoke"] = spoke
