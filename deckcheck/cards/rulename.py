"""The same-name rule: which name a card counts as for the copy limit.

A card whose *name* is always treated as "X" shares X's limit::

    (This card's name is always treated as "Umi".)            -> "Umi"
    (This card is always treated as "Hungry Burger".)         -> "Hungry Burger"
    This card's name is also treated as "Neo-Spacian Aqua Dolphin".  -> shares too
    このカード名はルール上「海」として扱う                     -> 「海」
    此卡名在规则上视为“海” / 这张卡在规则上当作「海」使用       -> “海”

It does **not** share when the card is treated as an archetype member, or only while it is on
the field or in the GY::

    (This card is always treated as a "Gaia The Fierce Knight" card.)  -> archetype, no
    このカード名はルール上「エグゾード」カードとしても扱う                 -> archetype, no
    It is also treated as a "Destiny HERO" monster while face-up on the field. -> no

Each function returns the *name as written in that language* (or None); the importers map a
Japanese or Chinese name back to a card through the pool's name index.
"""

from __future__ import annotations

import re

# English: "This card's name is (also|always|also always) treated as "X"" or "This card is
# (also) always treated as "X"", where the quote is not followed by "card"/"monster"… and the
# sentence carries no "while/on the field/in the GY" condition.
_EN = re.compile(
    r"This card(?:'s name| name)? is (?:also always |always also |always |also |(?<=name is ))"
    r"treated as "
    r"[\"“]([^\"”]+)[\"”]([^.\n)]*)",
    re.IGNORECASE,
)
_EN_NOT_NAME = re.compile(r"^\s*(?:card|cards|monster|monsters|spell|trap|and|or|,)", re.I)
_CONDITION = re.compile(
    r"\bwhile\b|\bon the field\b|\bin the (?:GY|Graveyard)\b|\bface-up\b|\bif\b", re.IGNORECASE)

# Japanese: このカード名はルール上「X」として(も)扱う / このカードのカード名は「X」として扱う
# — not 「X」カードとしても扱う, not 「X」、「Y」カード…,
# not "…に存在する限り、カード名を「X」として扱う".
_JA = re.compile(
    r"このカード(?:の(?:カード)?名は|名は|は(?=ルール上))[、，]?(?:ルール上)?[、，]?"
    r"「((?:[^「」]|「[^「」]*」)+)」(?:として|としても)扱")
# Chinese: 此卡名在规则上视为“X” / 这张卡的卡名在规则上也当作「X」使用 /
# 这张卡在规则上当作「X」使用 — not …「X」卡, not "只要此卡存在于怪兽区域，卡名视为…".
_ZH = re.compile(
    r"(?:[此這这](?:张|張)?卡(?:的卡名|名|的卡牌名称|的卡牌名稱)(?:在?[规規][则則]上)?"
    r"|[此這这](?:张|張)?卡在?[规規][则則]上)"
    r"也?被?(?:当作|視為|视为|當作)[「“\"]([^」”\"]+)[」”\"](?!\s*[卡、，,])")
_RUBY = re.compile(r"<rt>.*?</rt>|</?ruby>")

_JA_COND = re.compile(r"(フィールド|墓地|ゾーン|限り|特殊召喚した|場合)")
_ZH_COND = re.compile(r"(场上|墓地|場上|区域|區域|存在|特殊召唤的|特殊召喚的|场合|場合)")


def rule_name_from_english(text: str | None) -> str | None:
    """The name an English card text says the card is always treated as, or None."""
    if not text or "treated as" not in text:
        return None
    for m in _EN.finditer(text):
        after = m.group(2)
        if _EN_NOT_NAME.match(after):
            continue
        sentence_start = text.rfind(".", 0, m.start()) + 1
        before = text[sentence_start:m.start()]
        if _CONDITION.search(after) or _CONDITION.search(before):
            continue
        return m.group(1).strip()
    return None


def rule_name_from_japanese(text: str | None) -> str | None:
    if not text or "扱" not in text:
        return None
    text = _RUBY.sub("", text)
    for m in _JA.finditer(text):
        sentence_start = max(text.rfind("。", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
        if _JA_COND.search(text[sentence_start:m.start()]):
            continue
        return m.group(1).strip()
    return None


def rule_name_from_chinese(text: str | None) -> str | None:
    if not text or not ("当作" in text or "视为" in text or "視為" in text or "當作" in text):
        return None
    for m in _ZH.finditer(text):
        sentence_start = max(text.rfind("。", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
        if _ZH_COND.search(text[sentence_start:m.start()]):
            continue
        return m.group(1).strip()
    return None


def rule_name_from_text(text: str | None, lang: str = "en") -> str | None:
    """Dispatch on language: "en", "ja", or any "zh…"."""
    if lang == "ja":
        return rule_name_from_japanese(text)
    if lang.startswith("zh"):
        return rule_name_from_chinese(text)
    return rule_name_from_english(text)
