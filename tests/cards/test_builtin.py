"""The built-in card set: it loads, its facts agree with the real card data, and the
example decks use only its cards."""

from __future__ import annotations

import functools
import json
import re
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from deckcheck.cards.builtin import (
    BuiltinDataError,
    builtin_cards,
    builtin_pool,
    builtin_text,
    parse_builtin,
)
from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

# --------------------------------------------------------------------------- loading


def test_pool_loads_and_is_cached() -> None:
    pool = builtin_pool()
    assert isinstance(pool, MemoryPool)
    assert pool is builtin_pool()
    assert pool.info.builtin is True
    assert set(pool.info.sources) == {"builtin"}
    assert pool.info.card_count == len(pool) == len(builtin_cards())
    assert 130 <= len(pool) <= 170


def test_builtin_cards_returns_a_fresh_list() -> None:
    cards = builtin_cards()
    cards.clear()
    assert builtin_cards()


def test_passcodes_are_unique_across_alternate_artworks() -> None:
    seen = Counter(pc for card in builtin_cards() for pc in card.all_passcodes)
    assert [pc for pc, n in seen.items() if n > 1] == []


def test_names_are_unique() -> None:
    seen = Counter(card.name for card in builtin_cards())
    assert [n for n, k in seen.items() if k > 1] == []


def test_file_is_hand_readable_tsv() -> None:
    text = builtin_text()
    assert text.startswith("#")
    assert "cardinfo" not in text.lower()  # no pasted upstream records
    for line in text.splitlines():
        if line and not line.startswith("#"):
            assert len(line) < 300


def test_bad_lines_raise_one_clear_error() -> None:
    good = "\t".join(["1", "-", "X", "-", "-", "normal", "-", "4", "-", "LIGHT", "Dragon",
                      "1/1", "-", "-", "-"])
    assert parse_builtin(good)[0].level == 4
    with pytest.raises(BuiltinDataError, match=r"t\.tsv:1: 3 columns"):
        parse_builtin("1\t2\t3", "t.tsv")
    with pytest.raises(BuiltinDataError, match="unknown frame 'monster'"):
        parse_builtin(good.replace("normal", "monster"))
    with pytest.raises(BuiltinDataError, match="'level' holds 'four'"):
        parse_builtin(good.replace("\t4\t", "\tfour\t"))
    with pytest.raises(BuiltinDataError, match="unknown flag 'nope'"):
        parse_builtin(good[:-1] + "nope")


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("card", builtin_cards(), ids=lambda c: c.name)
def test_card_structure_follows_frame(card: Card) -> None:
    frame = card.frame
    if frame is Frame.TOKEN or frame is Frame.SKILL:
        assert card.deck is None
    elif frame.is_extra:
        assert card.deck == "extra"
    else:
        assert card.deck == "main"
    if card.kind is Kind.MONSTER:
        assert card.attribute in {"LIGHT", "DARK", "EARTH", "WATER", "FIRE", "WIND", "DIVINE"}
        assert (card.rank is not None) == (frame in (Frame.XYZ, Frame.XYZ_PENDULUM))
        assert (card.link_rating is not None) == (frame is Frame.LINK)
        assert (card.level is not None) == (
            frame not in (Frame.XYZ, Frame.XYZ_PENDULUM, Frame.LINK))
        assert (card.scale is not None) == frame.is_pendulum
        assert (card.defense is None) == (frame is Frame.LINK)
        assert card.atk is not None
    elif card.kind in (Kind.SPELL, Kind.TRAP):
        assert card.level is card.attribute is card.atk is card.scale is None
        allowed = {"Normal", "Quick-Play", "Continuous", "Equip", "Field", "Ritual", "Counter"}
        assert card.race in allowed
        assert card.race != "Counter" or card.kind is Kind.TRAP
    if card.kind is Kind.SKILL:
        assert {"speed", "skill"} <= card.scopes
    if card.cannot_normal_summon:
        assert card.kind is Kind.MONSTER and card.deck == "main"


def test_rule_names_resolve_to_cards_in_the_set() -> None:
    pool = builtin_pool()
    for card in pool:
        owners = pool.find_name(card.rule_name)
        assert any(o.name == card.rule_name for o in owners), card.name
        assert card in pool.with_rule_name(card.rule_name)


@pytest.mark.parametrize(("rule_name", "members"), [
    ("Harpie Lady", {76812113, 91932350, 27927359, 54415063, 80316585}),
    ("Umi", {22702055, 295517, 26534688, 2819435, 34103656}),
    ("Polymerization", {24094653, 74335036}),
    ("Hungry Burger", {30243636, 28306253}),
    ("Water Dragon", {85066822, 82616239}),
    ("Supreme King Z-ARC", {13331639, 6218704}),
    ("Neo-Spacian Aqua Dolphin", {17955766, 78734254}),
])
def test_same_name_groups(rule_name: str, members: set[int]) -> None:
    assert {c.passcode for c in builtin_pool().with_rule_name(rule_name)} == members


def test_archetype_members_keep_their_own_rule_name() -> None:
    pool = builtin_pool()
    magical = pool.find_name("Gaia the Magical Knight")[0]
    assert magical.rule_name == "Gaia the Magical Knight"
    assert "Gaia The Fierce Knight" in magical.archetypes
    assert pool.with_rule_name("Gaia The Fierce Knight") == pool.find_name("Gaia The Fierce Knight")
    for name in ("Aileron", "Armored Shark", "Harpie Lady Sisters"):
        card = pool.find_name(name)[0]
        assert card.rule_name == card.name


@pytest.mark.parametrize("query", [14558127, 14558128, "灰流うらら", "灰流丽",
                                   "ash blossom & joyous spring", "Ash Blossom and Joyous Spring"])
def test_ash_blossom_is_found(query: int | str) -> None:
    pool = builtin_pool()
    found = [pool.get(query)] if isinstance(query, int) else pool.find_name(query)
    assert [c.passcode for c in found if c] == [14558127]


def test_summoning_facts() -> None:
    pool = builtin_pool()

    def card(name: str) -> Card:
        return pool.find_name(name)[0]

    assert card("Blue-Eyes White Dragon").level == 8
    assert card("Dark Magician").level == 7
    assert card("Summoned Skull").level == 6
    for name in ("Nekroz of Brionac", "Chaos Emperor Dragon - Envoy of the End",
                 "Black Luster Soldier - Envoy of the Beginning", "Water Dragon"):
        assert card(name).cannot_normal_summon, name
    for name in ("Cyber Dragon", "Blue-Eyes White Dragon", "Nibiru, the Primal Being", "Sangan"):
        assert not card(name).cannot_normal_summon, name
    assert card("Sheep Token").deck is None
    assert card("It's My Lucky Day!").kind is Kind.SKILL


# --------------------------------------------------------------------------- example decks


def _ydk(path: Path) -> dict[str, list[int]]:
    parts: dict[str, list[int]] = {"main": [], "extra": [], "side": []}
    section = "main"
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line == "#main":
            section = "main"
        elif line == "#extra":
            section = "extra"
        elif line == "!side":
            section = "side"
        elif line and not line.startswith("#"):
            parts[section].append(int(line))
    return parts


def _text(path: Path) -> dict[str, list[int]]:
    pool = builtin_pool()
    parts: dict[str, list[int]] = {"main": [], "extra": [], "side": []}
    section = "main"
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        if line.lower().rstrip(":").split()[0] in ("main", "extra", "side"):
            section = line.lower().rstrip(":").split()[0]
            continue
        count, _, name = line.partition(" ")
        found = pool.find_name(name)
        assert len(found) == 1, line
        parts[section] += [found[0].passcode] * int(count)
    return parts


def _lflist(path: Path) -> dict[int, int]:
    limits: dict[int, int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("!") and limits:
            break  # only the first list of the file
        m = re.match(r"^(\d+)\s+(\d+)", line)
        if m:
            limits[int(m.group(1))] = int(m.group(2))
    return limits


def test_examples_listed_in_readme() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for path in EXAMPLES.iterdir():
        if path.suffix in (".ydk", ".txt"):
            assert path.name in readme


@pytest.mark.parametrize("name", ["tcg-legal.ydk", "tcg-illegal.ydk"])
def test_example_ydk_uses_only_builtin_cards(name: str) -> None:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    assert text.startswith("#created by deckcheck\n#main\n")
    assert "#extra" in text and "!side" in text
    pool = builtin_pool()
    for section, passcodes in _ydk(EXAMPLES / name).items():
        for pc in passcodes:
            assert pool.get(pc) is not None, (name, section, pc)


def test_legal_example_is_legal_by_construction() -> None:
    pool = builtin_pool()
    deck = _ydk(EXAMPLES / "tcg-legal.ydk")
    assert [len(deck["main"]), len(deck["extra"]), len(deck["side"])] == [40, 15, 15]
    for section in ("main", "extra", "side"):
        for pc in deck[section]:
            card = pool.get(pc)
            assert card is not None
            assert card.deck == ("extra" if section == "extra" else "main") or (
                section == "side" and card.deck is not None), card.name
            assert not card.scopes & {"speed", "skill", "ocg_only", "anime", "rush"}
    counts = Counter(pool.get(pc).rule_name for s in deck.values() for pc in s)  # type: ignore[union-attr]
    assert max(counts.values()) <= 3


def test_legal_text_matches_legal_ydk() -> None:
    pool = builtin_pool()
    ydk = _ydk(EXAMPLES / "tcg-legal.ydk")
    text = _text(EXAMPLES / "tcg-legal.txt")
    for section in ydk:
        official = sorted(pool.get(pc).passcode for pc in ydk[section])  # type: ignore[union-attr]
        assert sorted(text[section]) == official, section


def test_illegal_example_has_its_problems() -> None:
    pool = builtin_pool()
    deck = _ydk(EXAMPLES / "tcg-illegal.ydk")
    assert len(deck["main"]) == 39
    cards = {s: [pool.get(pc) for pc in pcs] for s, pcs in deck.items()}
    everything = [c for s in cards.values() for c in s]
    harpies = [c for c in everything if c and c.rule_name == "Harpie Lady"]
    assert len(harpies) == 4 and len({c.name for c in harpies}) >= 2
    assert any(c and c.deck == "extra" for c in cards["main"])
    assert any(c and c.kind is Kind.TOKEN for c in everything)
    assert 55144522 in deck["main"]  # Pot of Greed


def test_examples_respect_the_current_tcg_list(shared_data: Path) -> None:
    limits = _lflist(shared_data / "banlists" / "lflists" / "0TCG.lflist.conf")
    pool = builtin_pool()
    deck = _ydk(EXAMPLES / "tcg-legal.ydk")
    per_rule: Counter[str] = Counter()
    limit_of: dict[str, int] = {}
    for pc in (pc for s in deck.values() for pc in s):
        card = pool.get(pc)
        assert card is not None
        per_rule[card.rule_name] += 1
        for p in card.all_passcodes:
            if p in limits:
                limit_of[card.rule_name] = min(limit_of.get(card.rule_name, 3), limits[p])
    over = {n: k for n, k in per_rule.items() if k > limit_of.get(n, 3)}
    assert over == {}
    illegal = _ydk(EXAMPLES / "tcg-illegal.ydk")
    assert any(limits.get(pc) == 0 for s in illegal.values() for pc in s)


# --------------------------------------------------------------------------- real data


def _strip_ruby(text: str) -> str:
    return re.sub(r"<ruby>(.*?)<rt>.*?</rt></ruby>", r"\1", text)


@functools.cache
def _ygoprodeck(path: Path) -> dict[int, dict[str, Any]]:
    with zipfile.ZipFile(path) as z:
        data = json.loads(z.read("cardinfo.json"))["data"]
    by_id: dict[int, dict[str, Any]] = {}
    for c in data:  # keyed by every artwork id: YGOPRODeck sometimes files a card under an alt
        for img in c.get("card_images", []):
            by_id.setdefault(img["id"], c)
        by_id[c["id"]] = c
    return by_id


@functools.cache
def _yaml_yugi(path: Path) -> dict[int, dict[str, Any]]:
    with zipfile.ZipFile(path) as z:
        data = json.loads(z.read("cards.json"))
    return {c["password"]: c for c in data if c.get("password")}


_NOT_NORMAL_SUMMONABLE = re.compile(
    r"Cannot be Normal Summoned|Must (?:first )?be (?:Ritual|Special) Summoned")


def fact_problems(card: Card, ygo: dict[int, dict[str, Any]],
                  yy: dict[int, dict[str, Any]]) -> list[str]:
    """How `card` disagrees with YGOPRODeck and YAML Yugi (a field the data lacks is skipped)."""
    rec = ygo.get(card.passcode)
    if rec is None:
        return [f"passcode {card.passcode} is not in YGOPRODeck"]
    out: list[str] = []

    def same(what: str, mine: object, theirs: object) -> None:
        if theirs is not None and mine != theirs:
            out.append(f"{what}: {mine!r} != {theirs!r}")

    same("name", card.name, rec["name"])
    same("frame", card.frame.value, rec["frameType"])
    if card.frame is not Frame.LINK:  # YGOPRODeck gives some Link monsters "level": 0
        stars = card.level if card.level is not None else card.rank
        same("level/rank", stars, rec.get("level"))
    same("link", card.link_rating, rec.get("linkval"))
    same("scale", card.scale, rec.get("scale"))
    same("attribute", card.attribute, rec.get("attribute"))
    same("race", card.race, rec.get("race"))
    if card.kind is Kind.MONSTER:
        same("atk", card.atk, rec.get("atk"))
        same("def", card.defense, rec.get("def"))
        typeline = rec.get("typeline") or []
        for sub in ("Tuner", "Flip", "Gemini", "Spirit", "Union", "Toon"):
            same(f"type {sub}", sub in card.monster_types, sub in typeline)
        if card.deck == "main":
            same("cannot_normal_summon", card.cannot_normal_summon,
                 bool(_NOT_NORMAL_SUMMONABLE.search(rec.get("desc", ""))))
    images = {img["id"] for img in rec.get("card_images", [])}
    if images and not set(card.all_passcodes) <= images:
        out.append(f"passcodes {sorted(set(card.all_passcodes) - images)} not artworks")
    names = (yy.get(card.passcode) or {}).get("name") or {}
    for lang in ("ja", "zh-CN"):
        theirs = names.get(lang)
        same(lang, card.names.get(lang), _strip_ruby(theirs) if theirs else None)
    return out


def test_facts_match_the_real_card_data(shared_data: Path) -> None:
    ygo = _ygoprodeck(shared_data / "cards" / "ygoprodeck-cardinfo.zip")
    yy = _yaml_yugi(shared_data / "cards" / "yaml-yugi-cards.zip")
    problems = {c.name: p for c in builtin_cards() if (p := fact_problems(c, ygo, yy))}
    assert problems == {}


def test_rule_names_match_treated_as_text(shared_data: Path) -> None:
    """A card whose name is '(always|also) treated as "X"' counts as X, and only then; 'treated
    as a "X" card' only makes it an archetype member."""
    ygo = _ygoprodeck(shared_data / "cards" / "ygoprodeck-cardinfo.zip")
    for card in builtin_cards():
        text = ygo[card.passcode].get("desc", "")
        m = re.search(r'\btreated as "([^"]+)"', text)
        assert card.rule_name == (m.group(1) if m else card.name), card.name
