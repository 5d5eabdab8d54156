"""The card model: everything deckcheck knows about one card.

A `Card` is keyed by its passcode (the number printed on the card). Alternate artworks
share one `Card` (their passcodes are in `alt_passcodes`). `rule_name` is the name the card
counts as for the copy limit ("Harpie Lady 1" counts as "Harpie Lady").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from enum import Enum
from typing import Any, Literal

from deckcheck.plain import Plain


class Kind(str, Enum):  # noqa: UP042 - StrEnum would change str() of members
    MONSTER = "monster"
    SPELL = "spell"
    TRAP = "trap"
    TOKEN = "token"
    SKILL = "skill"


class Frame(str, Enum):  # noqa: UP042 - StrEnum would change str() of members
    """The card frame, as YGOPRODeck's `frameType` names it. It decides the deck a card goes in."""

    NORMAL = "normal"
    EFFECT = "effect"
    RITUAL = "ritual"
    FUSION = "fusion"
    SYNCHRO = "synchro"
    XYZ = "xyz"
    LINK = "link"
    NORMAL_PENDULUM = "normal_pendulum"
    EFFECT_PENDULUM = "effect_pendulum"
    RITUAL_PENDULUM = "ritual_pendulum"
    FUSION_PENDULUM = "fusion_pendulum"
    SYNCHRO_PENDULUM = "synchro_pendulum"
    XYZ_PENDULUM = "xyz_pendulum"
    SPELL = "spell"
    TRAP = "trap"
    TOKEN = "token"
    SKILL = "skill"

    @property
    def is_extra(self) -> bool:
        return self.value.split("_")[0] in ("fusion", "synchro", "xyz", "link")

    @property
    def is_pendulum(self) -> bool:
        return self.value.endswith("_pendulum")


#: Scope flags: where a card exists. "unofficial" marks any card no official format allows
#: (anime, custom, and ids >= 100,000,000 never printed); "custom" a fan-made card.
Scope = Literal[
    "ocg_only", "tcg_only", "anime", "prerelease", "rush", "speed", "skill", "unofficial",
    "custom",
]

#: Languages deckcheck keeps names for. "zh-CN" is the official Simplified Chinese name;
#: the community names of ygocdb are kept under their own keys.
NAME_LANGUAGES = ("en", "ja", "zh-CN", "zh-TW", "ko", "de", "fr", "it", "es", "pt")
COMMUNITY_NAME_KEYS = ("cn_name", "sc_name", "md_name", "nwbbs_n", "cnocg_n")

DeckPlace = Literal["main", "extra"]

#: Official passcodes have at most 8 digits; ids from here on are prerelease ids (Konami's
#: ids of announced cards), anime, custom or video-game ids, or Skill and Rush Duel cards.
UNOFFICIAL_IDS = 100_000_000


class Card(Plain):
    """One card, with every fact deckcheck needs to place it, count it and draw it.

    Built by the card pools from data deckcheck imported and checked itself (`model_validate`
    / the constructor turn JSON's lists, strings and ISO dates into tuples, enums and dates);
    an import checks every card against the strict schema `deckcheck.cards.schema.CardSchema`
    before it is stored."""

    __slots__ = ("passcode", "alt_passcodes", "konami_id", "name", "names", "kind", "frame",
                 "monster_types", "level", "rank", "link_rating", "link_arrows", "scale",
                 "attribute", "race", "atk", "defense", "archetypes", "released", "master_duel",
                 "scopes", "rule_name", "rule_name_evidence", "cannot_normal_summon", "text")

    passcode: int
    alt_passcodes: tuple[int, ...]
    konami_id: int | None
    name: str
    names: dict[str, str]
    kind: Kind
    frame: Frame
    #: Monster sub-types as printed on the type line: "Tuner", "Flip", "Gemini", "Spirit"…
    monster_types: tuple[str, ...]
    level: int | None
    rank: int | None
    link_rating: int | None
    link_arrows: tuple[str, ...]
    scale: int | None
    attribute: str | None
    #: Monster Type ("Spellcaster") or Spell/Trap property ("Quick-Play", "Counter", "Field").
    race: str | None
    atk: int | None
    defense: int | None
    archetypes: tuple[str, ...]
    #: First release by region: "tcg", "ocg" (Japan), "kr", "sc", "tc", "ae" (other OCG
    #: regions) and "md" (Master Duel), where a source dates it.
    released: dict[str, dt.date]
    #: In Master Duel's card pool: True / False when a source says so, None when none knows.
    master_duel: bool | None
    scopes: frozenset[str]
    #: The name this card counts as for the copy limit (usually its own English name).
    rule_name: str
    #: Evidence for rule_name, by source ("ygoprodeck-text", "cdb-alias", "treated_as"…):
    #: kept so `deckcheck cards show` can say when sources disagree.
    rule_name_evidence: dict[str, str]
    #: True when the card says it cannot be Normal Summoned/Set (sim core).
    cannot_normal_summon: bool
    text: str | None

    def __init__(self, *, passcode: int, alt_passcodes: Iterable[int] = (),
                 konami_id: int | None = None, name: str,
                 names: dict[str, str] | None = None, kind: Kind | str, frame: Frame | str,
                 monster_types: Iterable[str] = (), level: int | None = None,
                 rank: int | None = None, link_rating: int | None = None,
                 link_arrows: Iterable[str] = (), scale: int | None = None,
                 attribute: str | None = None, race: str | None = None,
                 atk: int | None = None, defense: int | None = None,
                 archetypes: Iterable[str] = (),
                 released: dict[str, dt.date] | dict[str, str] | None = None,
                 master_duel: bool | None = None, scopes: Iterable[str] = frozenset(),
                 rule_name: str, rule_name_evidence: dict[str, str] | None = None,
                 cannot_normal_summon: bool = False, text: str | None = None) -> None:
        self.passcode = passcode
        self.alt_passcodes = tuple(alt_passcodes)
        self.konami_id = konami_id
        self.name = name
        self.names = {} if names is None else dict(names)
        self.kind = kind if type(kind) is Kind else Kind(kind)
        self.frame = frame if type(frame) is Frame else Frame(frame)
        self.monster_types = tuple(monster_types)
        self.level = level
        self.rank = rank
        self.link_rating = link_rating
        self.link_arrows = tuple(link_arrows)
        self.scale = scale
        self.attribute = attribute
        self.race = race
        self.atk = atk
        self.defense = defense
        self.archetypes = tuple(archetypes)
        self.released = {k: v if isinstance(v, dt.date) else dt.date.fromisoformat(v)
                         for k, v in released.items()} if released else {}
        self.master_duel = master_duel
        self.scopes = frozenset(scopes)
        self.rule_name = rule_name
        self.rule_name_evidence = {} if rule_name_evidence is None else dict(rule_name_evidence)
        self.cannot_normal_summon = cannot_normal_summon
        self.text = text

    def __hash__(self) -> int:
        return hash(self.passcode)

    @property
    def deck(self) -> DeckPlace | None:
        """Which deck the card is built into: "main", "extra", or None (tokens, skills)."""
        if self.kind in (Kind.TOKEN, Kind.SKILL):
            return None
        return "extra" if self.frame.is_extra else "main"

    @property
    def all_passcodes(self) -> tuple[int, ...]:
        return (self.passcode, *self.alt_passcodes)


_KINDS = {k.value: k for k in Kind}
_FRAMES = {f.value: f for f in Frame}
_EMPTY: frozenset[str] = frozenset()
_fromiso = dt.date.fromisoformat


def card_from_stored(d: dict[str, Any]) -> Card:
    """A `Card` from the JSON object a card store holds for it (`json.loads` of what an
    import wrote after checking it against `CardSchema`): the same card as `Card(**d)`,
    built slot by slot without the keyword constructor (a large event meets ~10,000 cards
    for the first time; see ARCHITECTURE.md, "Speed"). A field the object lacks takes the
    constructor's default; an unknown kind or frame raises KeyError, a bad date ValueError.
    `d`'s dicts (names, evidence) become the card's own: pass a fresh object."""
    card = object.__new__(Card)
    get = d.get
    card.passcode = d["passcode"]
    v = get("alt_passcodes")
    card.alt_passcodes = tuple(v) if v else ()
    card.konami_id = get("konami_id")
    card.name = d["name"]
    card.names = get("names") or {}  # the caller's fresh dict, kept (not copied)
    card.kind = _KINDS[d["kind"]]
    card.frame = _FRAMES[d["frame"]]
    v = get("monster_types")
    card.monster_types = tuple(v) if v else ()
    card.level = get("level")
    card.rank = get("rank")
    card.link_rating = get("link_rating")
    v = get("link_arrows")
    card.link_arrows = tuple(v) if v else ()
    card.scale = get("scale")
    card.attribute = get("attribute")
    card.race = get("race")
    card.atk = get("atk")
    card.defense = get("defense")
    v = get("archetypes")
    card.archetypes = tuple(v) if v else ()
    v = get("released")
    card.released = {k: _fromiso(s) for k, s in v.items()} if v else {}
    card.master_duel = get("master_duel")
    v = get("scopes")
    card.scopes = frozenset(v) if v else _EMPTY
    card.rule_name = d["rule_name"]
    card.rule_name_evidence = get("rule_name_evidence") or {}
    card.cannot_normal_summon = get("cannot_normal_summon", False)
    card.text = get("text")
    return card
