"""The card model: everything deckcheck knows about one card.

A `Card` is keyed by its passcode (the number printed on the card). Alternate artworks
share one `Card` (their passcodes are in `alt_passcodes`). `rule_name` is the name the card
counts as for the copy limit ("Harpie Lady 1" counts as "Harpie Lady").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, Literal

from deckcheck.cards.names import normalize
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
        return self in EXTRA_FRAMES

    @property
    def is_pendulum(self) -> bool:
        return self.value.endswith("_pendulum")


#: The frames of the cards built into the Extra Deck (Fusion, Synchro, Xyz, Link, and their
#: Pendulum forms).
EXTRA_FRAMES = frozenset(f for f in Frame if f.value.split("_")[0] in (
    "fusion", "synchro", "xyz", "link"))

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

    Built by the card pools from data deckcheck imported and checked itself (the constructor
    and `card_from_stored` turn JSON's lists, strings and ISO dates into tuples, enums and
    dates); an import checks every card against the strict schema
    `deckcheck.cards.schema.CardSchema` before it is stored.

    The annotations below are the one list of a card's fields: `__slots__`, `CardSchema` and
    the import's merge (`deckcheck.imports.merge`) follow from it. A new field is its
    annotation here, its keyword in `__init__` (the loose type callers may pass, and the
    default) with the line that stores it, and its line in `card_from_stored`; tests hold them
    to the same names in the same order, and the decoder to the constructor. (Written out, not
    generated at import: compiling generated code cost every start-up ~0.7 ms.)"""

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
    #: Private (not a field): the copy-limit key once worked out (`rule_key`).
    _rule_key: str

    __slots__ = tuple(__annotations__)

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
        self.alt_passcodes = tuple(alt_passcodes) if alt_passcodes else ()
        self.konami_id = konami_id
        self.name = name
        self.names = dict(names) if names else {}
        self.kind = KIND_OF.get(kind) or _kind(kind)
        self.frame = FRAME_OF.get(frame) or _frame(frame)
        self.monster_types = tuple(monster_types) if monster_types else ()
        self.level = level
        self.rank = rank
        self.link_rating = link_rating
        self.link_arrows = tuple(link_arrows) if link_arrows else ()
        self.scale = scale
        self.attribute = attribute
        self.race = race
        self.atk = atk
        self.defense = defense
        self.archetypes = tuple(archetypes) if archetypes else ()
        self.released = _dates(released) if released else {}
        self.master_duel = master_duel
        self.scopes = frozenset(scopes) if scopes else NO_SCOPES
        self.rule_name = rule_name
        self.rule_name_evidence = dict(rule_name_evidence) if rule_name_evidence else {}
        self.cannot_normal_summon = cannot_normal_summon
        self.text = text

    def __eq__(self, other: object) -> bool:
        """Equal to any card with the same fields (a card a store built from its compact row,
        `deckcheck.cards.compact.RowCard`, included)."""
        if not isinstance(other, Card):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self.passcode)

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """Pickled and deep-copied by its fields (a card built from a store's row is filled in
        first: its store does not travel with it)."""
        return None, {name: getattr(self, name) for name in self.model_fields}

    @property
    def rule_key(self) -> str:
        """The copy-limit key: the normalised rule name (the rule name itself when it
        normalises to nothing), worked out once per card (a store keeps it with the card)."""
        try:
            return self._rule_key
        except AttributeError:
            key = self._rule_key = rule_key_of(self.rule_name)
            return key

    @property
    def deck(self) -> DeckPlace | None:
        """Which deck the card is built into: "main", "extra", or None (tokens, skills)."""
        if self.kind in (Kind.TOKEN, Kind.SKILL):
            return None
        return "extra" if self.frame in EXTRA_FRAMES else "main"

    @property
    def all_passcodes(self) -> tuple[int, ...]:
        return (self.passcode, *self.alt_passcodes)


#: a kind and a frame by their stored value; the one empty scope set every card shares
KIND_OF = {k.value: k for k in Kind}
FRAME_OF = {f.value: f for f in Frame}
NO_SCOPES: frozenset[str] = frozenset()
_fromiso = dt.date.fromisoformat
_new = object.__new__


def rule_key_of(rule_name: str) -> str:
    """The copy-limit key of a rule name (`Card.rule_key`): normalised, or the rule name
    itself when it normalises to nothing."""
    return normalize(rule_name) or rule_name


def _kind(v: Kind | str) -> Kind:
    kind = KIND_OF.get(v)  # a member too: a str enum hashes as its value
    if kind is None:
        raise ValueError(f"{v!r} is not a card kind")
    return kind


def _frame(v: Frame | str) -> Frame:
    frame = FRAME_OF.get(v)
    if frame is None:
        raise ValueError(f"{v!r} is not a card frame")
    return frame


def _tuple(v: Iterable[Any] | None) -> tuple[Any, ...]:
    return tuple(v) if v else ()


def _set(v: Iterable[str] | None) -> frozenset[str]:
    return frozenset(v) if v else NO_SCOPES


def _dict(v: dict[str, str] | None) -> dict[str, str]:
    return dict(v) if v else {}


def _dates(v: dict[str, Any] | None) -> dict[str, dt.date]:
    return {k: d if isinstance(d, dt.date) else _fromiso(d) for k, d in v.items()} if v else {}


#: How a value given for a field becomes its value, by the field's type (as annotated)
_CONVERT: dict[str, Callable[[Any], Any]] = {
    "Kind": _kind, "Frame": _frame, "tuple[int, ...]": _tuple, "tuple[str, ...]": _tuple,
    "frozenset[str]": _set, "dict[str, str]": _dict, "dict[str, dt.date]": _dates,
}
_REQUIRED = object()
#: (field, converter or None, default or `_REQUIRED`), in declaration order, from `Card`'s
#: annotations and its constructor's defaults
_SPEC: tuple[tuple[str, Callable[[Any], Any] | None, Any], ...] = tuple(
    (f, _CONVERT.get(t), (Card.__init__.__kwdefaults__ or {}).get(f, _REQUIRED))
    for f, t in Card.__annotations__.items() if not f.startswith("_"))


def field_defaults() -> dict[str, Any]:
    """Each optional field's value when none is given (what `Card()` sets), for the boundary
    schema (`deckcheck.cards.schema`)."""
    return {f: d if convert is None else convert(d) for f, convert, d in _SPEC
            if d is not _REQUIRED}


def card_from_stored(d: dict[str, Any]) -> Card:
    """A `Card` from the JSON object a card store holds for it (`json.loads` of what an
    import wrote after checking it against `CardSchema`): the same card as `Card(**d)`
    without the keyword call. A field the object lacks takes the constructor's default; a
    missing required field raises KeyError, an unknown kind or frame or a bad date
    ValueError."""
    card = _new(Card)
    get = d.get
    card.passcode = d["passcode"]
    x = get("alt_passcodes")
    card.alt_passcodes = tuple(x) if x else ()
    card.konami_id = get("konami_id")
    card.name = d["name"]
    x = get("names")
    card.names = dict(x) if x else {}
    x = d["kind"]
    card.kind = KIND_OF.get(x) or _kind(x)
    x = d["frame"]
    card.frame = FRAME_OF.get(x) or _frame(x)
    x = get("monster_types")
    card.monster_types = tuple(x) if x else ()
    card.level = get("level")
    card.rank = get("rank")
    card.link_rating = get("link_rating")
    x = get("link_arrows")
    card.link_arrows = tuple(x) if x else ()
    card.scale = get("scale")
    card.attribute = get("attribute")
    card.race = get("race")
    card.atk = get("atk")
    card.defense = get("defense")
    x = get("archetypes")
    card.archetypes = tuple(x) if x else ()
    x = get("released")
    card.released = _dates(x) if x else {}
    card.master_duel = get("master_duel")
    x = get("scopes")
    card.scopes = frozenset(x) if x else NO_SCOPES
    card.rule_name = d["rule_name"]
    x = get("rule_name_evidence")
    card.rule_name_evidence = dict(x) if x else {}
    card.cannot_normal_summon = get("cannot_normal_summon", False)
    card.text = get("text")
    return card
