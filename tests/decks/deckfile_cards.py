"""The hand-made card set of the deck-file tests (facts only: passcodes, names in en/ja/zh-CN,
card kinds and frames), importable by hypothesis tests that cannot use fixtures."""

from __future__ import annotations

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool


def card(passcode: int, name: str, kind: Kind, frame: Frame, *, alts: tuple[int, ...] = (),
         names: dict[str, str] | None = None) -> Card:
    return Card(passcode=passcode, alt_passcodes=alts, name=name, names=names or {},
                kind=kind, frame=frame, rule_name=name)


M, S, T = Kind.MONSTER, Kind.SPELL, Kind.TRAP

#: Facts only: passcodes, names (en/ja/zh-CN), card kinds and frames.
CARDS = [
    card(14558127, "Ash Blossom & Joyous Spring", M, Frame.EFFECT, alts=(14558128,),
         names={"ja": "灰流うらら", "zh-CN": "灰流丽"}),
    card(23434538, 'Maxx "C"', M, Frame.EFFECT, names={"ja": "増殖するＧ", "zh-CN": "增殖的G"}),
    card(27204311, "Nibiru, the Primal Being", M, Frame.EFFECT),
    card(23771716, "7 Colored Fish", M, Frame.NORMAL),
    card(91932350, "Harpie Lady 1", M, Frame.EFFECT),
    card(90508760, "X-Saber Airbellum", M, Frame.EFFECT),
    card(75372290, "Total Defense Shogun", M, Frame.EFFECT),
    card(89631139, "Blue-Eyes White Dragon", M, Frame.NORMAL,
         alts=(89631140, 89631141, 89631142), names={"ja": "青眼の白龍"}),
    card(35261759, "Pot of Desires", S, Frame.SPELL, names={"ja": "強欲で貪欲な壺"}),
    card(24224830, "Called by the Grave", S, Frame.SPELL, names={"ja": "墓穴の指名者"}),
    card(83764719, "Monster Reborn", S, Frame.SPELL, alts=(83764718,), names={"ja": "死者蘇生"}),
    card(10045474, "Infinite Impermanence", T, Frame.TRAP, names={"ja": "無限泡影"}),
    card(4206964, "Trap Hole", T, Frame.TRAP, names={"ja": "落とし穴"}),
    card(86066372, "Accesscode Talker", M, Frame.LINK),
    card(1861629, "Decode Talker", M, Frame.LINK, alts=(1861630,)),
    card(44508094, "Stardust Dragon", M, Frame.SYNCHRO, alts=(44508095,)),
    card(84013237, "Number 39: Utopia", M, Frame.XYZ, alts=(84013238,)),
]

POOL = MemoryPool(CARDS)
