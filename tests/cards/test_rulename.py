"""The same-name rule parser (deckcheck.cards.rulename) in English, Japanese and Chinese."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from deckcheck.cards.rulename import rule_name_from_text

SHARES = [
    ("en", '(This card\'s name is always treated as "Harpie Lady".)', "Harpie Lady"),
    ("en", '(This card is always treated as "Hungry Burger".)', "Hungry Burger"),
    ("en", 'This card\'s name is also treated as "Neo-Spacian Aqua Dolphin".',
     "Neo-Spacian Aqua Dolphin"),
    ("en", '(This card is always treated as "Umi".)\nFish gain 200 ATK.', "Umi"),
    ("ja", "このカード名はルール上「海」として扱う。", "海"),
    ("ja", "①：このカードのカード名は「ハーピィ・レディ」として扱う。", "ハーピィ・レディ"),
    ("ja", "このカード名はルール上「<ruby>海<rt>うみ</rt></ruby>」として扱う。", "海"),
    ("zh-CN", "这张卡在规则上当作「融合」使用。", "融合"),
    ("zh-CN", "此卡名在规则上视为“海”。", "海"),
    ("zh-TW", "這張卡的卡名在規則上當作「海」使用。", "海"),
]
DOES_NOT = [
    ("en", '(This card is always treated as a "Gaia The Fierce Knight" card.)'),
    ("en", '(This card is also always treated as an "Exodia" card.)'),
    ("en", 'While face-up on the field, this card\'s name is treated as "Umi".'),
    ("en", 'This card is treated as "Destiny HERO - Plasma" while in the GY.'),
    ("en", "Draw 1 card."),
    ("en", None),
    ("ja", "このカード名はルール上「エグゾード」カードとしても扱う。"),
    ("ja", "このカードがフィールドに存在する限り、このカード名は「海」として扱う。"),
    ("zh-CN", "这张卡在规则上也当作「暗黑骑士 盖亚」卡使用。"),
    ("zh-CN", "只要此卡在场上存在，此卡名视为“海”使用。"),
]


@pytest.mark.parametrize(("lang", "text", "name"), SHARES)
def test_shares_the_name(lang: str, text: str, name: str) -> None:
    assert rule_name_from_text(text, lang) == name


@pytest.mark.parametrize(("lang", "text"), DOES_NOT)
def test_does_not_share(lang: str, text: str | None) -> None:
    assert rule_name_from_text(text, lang) is None


def test_three_languages_agree_on_yaml_yugi(shared_data: Path) -> None:
    """Every card of YAML Yugi whose English text shares a name says so in Japanese and
    Simplified Chinese too, and no card says so in only one of them."""
    with zipfile.ZipFile(shared_data / "cards" / "yaml-yugi-cards.zip") as zf:
        cards = json.loads(zf.read("cards.json"))
    claims: dict[str, set[str]] = {"en": set(), "ja": set(), "zh-CN": set()}
    for card in cards:
        texts = card.get("text") or {}
        if not all(texts.get(lang) for lang in claims):
            continue
        for lang, found in claims.items():
            if rule_name_from_text(texts[lang], lang):
                found.add(card["name"]["en"])
    assert claims["en"] == claims["ja"] == claims["zh-CN"]
    assert len(claims["en"]) == 21
    assert {"Harpie Lady 1", "A Legendary Ocean", "Fusion Substitute"} <= claims["en"]
    assert "Gaia the Magical Knight" not in claims["en"]
