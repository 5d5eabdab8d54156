"""Hand-made cards, pools, formats and decks for the rule tests (facts only: passcodes, names,
types). Imported by the tests as `rulekit`."""

from __future__ import annotations

import datetime as dt
from typing import Any

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.model import Deck, Entry, Location
from deckcheck.formats.model import Banlist, BanlistEntry, Format, SizeRange

DAY = dt.date(2026, 11, 22)
KINDS = {Frame.SPELL: Kind.SPELL, Frame.TRAP: Kind.TRAP, Frame.TOKEN: Kind.TOKEN,
         Frame.SKILL: Kind.SKILL}


def card(passcode: int, name: str, frame: Frame = Frame.EFFECT, *, rule_name: str | None = None,
         alts: tuple[int, ...] = (), **kw: Any) -> Card:
    return Card(passcode=passcode, name=name, kind=KINDS.get(frame, Kind.MONSTER), frame=frame,
                rule_name=rule_name or name, alt_passcodes=alts, **kw)


# Facts: passcodes, names and frames of real cards.
ASH = card(14558127, "Ash Blossom & Joyous Spring", alts=(14558128,))
HARPIE1 = card(91932350, "Harpie Lady 1", rule_name="Harpie Lady")
HARPIE = card(76812113, "Harpie Lady", Frame.NORMAL)
HUNGRY = card(30243636, "Hungry Burger", Frame.RITUAL)
ANGRY = card(28306253, "Angry Burger", Frame.RITUAL, rule_name="Hungry Burger")
ZARC = card(13331639, "Supreme King Z-ARC", Frame.FUSION_PENDULUM)
ARCRAY = card(6218704, "Odd-Eyes Arcray Dragon", Frame.FUSION_PENDULUM,
              rule_name="Supreme King Z-ARC")
# "…always treated as a "Gaia The Fierce Knight" card": an archetype, not a name.
GAIA_MK = card(34130561, "Gaia the Magical Knight", archetypes=("Gaia The Fierce Knight",))
GAIA_FK = card(6368038, "Gaia The Fierce Knight", Frame.NORMAL, alts=(6368039,))
POT = card(55144522, "Pot of Greed", Frame.SPELL)
RAIGEKI = card(12580477, "Raigeki", Frame.SPELL)
DECODE = card(1861629, "Decode Talker", Frame.LINK, alts=(1861630,))
ODD_PEN = card(16178681, "Odd-Eyes Pendulum Dragon", Frame.EFFECT_PENDULUM)
SHEEP = card(73915052, "Sheep Token", Frame.TOKEN)
MAXX = card(23434538, "Maxx \"C\"")
SKILL = card(300101004, "Destiny Draw", Frame.SKILL, scopes=frozenset({"skill", "speed"}))
KURIBOH = card(40640057, "Kuriboh")
DARK_MAGICIAN = card(46986414, "Dark Magician", Frame.NORMAL)
BLUE_EYES = card(89631139, "Blue-Eyes White Dragon", Frame.NORMAL)
SOLEMN = card(40605147, "Solemn Strike", Frame.TRAP)
# A card only in the OCG in this test pool (the scope is what the rule reads).
OCG_ONLY = card(99900001, "Test OCG-only Monster", scopes=frozenset({"ocg_only"}))
ANIME = card(100000001, "Test Anime Card", Frame.SPELL, scopes=frozenset({"anime"}))
NEW = card(99900002, "Test New Card",
           released={"tcg": dt.date(2026, 8, 1), "ocg": dt.date(2026, 4, 1)})
# Filler: 40 distinct Main Deck cards so size rules stay quiet.
FILLER = [card(90000000 + i, f"Filler {i}", Frame.NORMAL) for i in range(40)]
XFILLER = [card(91000000 + i, f"Extra Filler {i}", Frame.FUSION) for i in range(16)]

ALL = [ASH, HARPIE, HARPIE1, HUNGRY, ANGRY, ZARC, ARCRAY, GAIA_MK, GAIA_FK, POT, RAIGEKI, DECODE,
       ODD_PEN, SHEEP, MAXX, SKILL, KURIBOH, DARK_MAGICIAN, BLUE_EYES, SOLEMN, OCG_ONLY, ANIME, NEW,
       *FILLER, *XFILLER]
PRERELEASE_ID = 100429001


def make_pool() -> MemoryPool:
    return MemoryPool(ALL, extra_ids={PRERELEASE_ID: NEW.passcode})


def tcg(**kw: Any) -> Format:
    """A TCG-like format with one test list: Pot of Greed Forbidden, Raigeki Limited, Kuriboh
    Semi-Limited."""
    lists = kw.pop("history", None)
    if lists is None:
        lists = [Banlist(name="2026.05 Test", format="tcg", effective=dt.date(2026, 5, 18),
                         entries=[BanlistEntry(passcode=POT.passcode, limit=0),
                                  BanlistEntry(passcode=RAIGEKI.passcode, limit=1),
                                  BanlistEntry(passcode=KURIBOH.passcode, limit=2)])]
    base: dict[str, Any] = dict(id="tcg", name="TCG Advanced", history=lists,
                                excluded_scopes=["ocg_only", "anime", "rush", "speed", "skill",
                                                 "unofficial"])
    base.update(kw)
    return Format(**base)


def speed(**kw: Any) -> Format:
    base: dict[str, Any] = dict(id="speed", name="Speed Duel", main=SizeRange(min=20, max=30),
                                extra=SizeRange(max=5), side=SizeRange(max=5),
                                skills="required-one", list_mode="speed")
    base.update(kw)
    return Format(**base)


def entries(cards: list[tuple[Card | int, int]], section: str, start: int = 1,
            source: str = "deck.ydk") -> list[Entry]:
    """One entry per copy (like a .ydk file), numbered from line `start`."""
    out = []
    line = start
    for c, n in cards:
        pc = c if isinstance(c, int) else c.passcode
        for _ in range(n):
            out.append(Entry(passcode=pc, written=str(pc),
                             location=Location(source=source, line=line)))
            line += 1
    return out


def deck(main: list[tuple[Card | int, int]] | None = None,
         extra: list[tuple[Card | int, int]] | None = None,
         side: list[tuple[Card | int, int]] | None = None, *, fill: int | None = None,
         **kw: Any) -> Deck:
    """A .ydk-like deck; `fill` Filler cards are added to the Main Deck first (default: enough
    to reach 40)."""
    main = list(main or [])
    if fill is None:
        fill = max(0, 40 - sum(n for _, n in main))
    main = [(FILLER[i], 1) for i in range(fill)] + main
    m = entries(main, "main", 2)
    x = entries(extra or [], "extra", len(m) + 3)
    s = entries(side or [], "side", len(m) + len(x) + 4)
    return Deck(name="deck", source="deck.ydk", main=m, extra=x, side=s, **kw)


def codes(report: Any) -> list[str]:
    return [v.code for v in report.violations]


def run(d: Deck, fmt: Format | None = None, **kw: Any) -> Any:
    """Check `d` under `fmt` (default: `tcg()`) as of DAY with the test pool."""
    from deckcheck.checker import check

    kw.setdefault("pool", make_pool())
    return check(d, fmt or tcg(), kw.pop("date", DAY), **kw)


def only(report: Any, code: str) -> Any:
    """The single violation with this code (fails when there are none or several)."""
    found = [v for v in report.violations if v.code == code]
    assert len(found) == 1, [(v.code, v.message) for v in report.violations]
    return found[0]
