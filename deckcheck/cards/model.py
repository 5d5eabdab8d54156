"""The card model: everything deckcheck knows about one card.

A `Card` is keyed by its passcode (the number printed on the card). Alternate artworks
share one `Card` (their passcodes are in `alt_passcodes`). `rule_name` is the name the card
counts as for the copy limit ("Harpie Lady 1" counts as "Harpie Lady").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any, Literal

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

    Built by the card pools from data deckcheck imported and checked itself (`model_validate`
    / the constructor turn JSON's lists, strings and ISO dates into tuples, enums and dates);
    an import checks every card against the strict schema `deckcheck.cards.schema.CardSchema`
    before it is stored."""

    __slots__ = ("passcode", "alt_passcodes", "konami_id", "name", "names", "kind", "frame",
                 "monster_types", "level", "rank", "link_rating", "link_arrows", "scale",
                 "attribute", "race", "atk", "defense", "archetypes", "released", "master_duel",
                 "scopes", "rule_name", "rule_name_evidence", "cannot_normal_summon", "text",
                 "_rule_key", "_stored")

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
    #: Private (not fields): the copy-limit key once worked out (`rule_key`), and, for a card
    #: built from a store's compact row, the store that fills in the rest (`card_from_row`).
    _rule_key: str
    _stored: Any

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

    if not TYPE_CHECKING:  # hidden from mypy: it would make any attribute of a Card valid
        def __getattr__(self, name: str) -> Any:
            """Called only for a slot that is not set: a card the store built from its compact
            row (`card_from_row`) decodes the rest of its stored JSON on first use."""
            if name not in _FIELDS:
                raise AttributeError(name)
            try:
                store = object.__getattribute__(self, "_stored")
            except AttributeError:
                raise AttributeError(name) from None
            _fill(self, store)
            return object.__getattribute__(self, name)

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
            key = self._rule_key = normalize(self.rule_name) or self.rule_name
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


_FIELDS = frozenset(Card.model_fields)
#: What `card_from_row` sets from a store's compact row; `_fill` the rest, from the JSON.
_ROW_FIELDS = ("passcode", "alt_passcodes", "name", "kind", "frame", "released", "scopes",
               "rule_name")
_LAZY_FIELDS = tuple(f for f in Card.model_fields if f not in _ROW_FIELDS)


def stored_facts(d: dict[str, Any], key: str | None = None) -> str:
    """The compact form of a stored card (the store's ``cards.facts`` column, schema 5):
    everything a check reads of a card, one tab-separated line read without the card's JSON
    (`card_from_row`): kind, frame, alternate passcodes ("1,2"), scopes ("a,b"), release
    dates ("tcg=2020-01-02,ocg=…"), the copy-limit key (`Card.rule_key`: no whitespace), then
    the name and the rule name: the length of the name and both run together, or, when they
    are the same (most cards), nothing and the name once. `key`: `normalize(rule_name)`, when
    the caller has it already."""
    alts = ",".join(map(str, d.get("alt_passcodes") or ()))
    scopes = ",".join(sorted(d.get("scopes") or ()))
    released = ",".join(f"{k}={v}" for k, v in (d.get("released") or {}).items())
    name, rule_name = d["name"], d["rule_name"]
    if key is None:
        key = normalize(rule_name)
    key = key or rule_name
    names = f"\t{name}" if rule_name == name else f"{len(name)}\t{name}{rule_name}"
    return f"{d['kind']}\t{d['frame']}\t{alts}\t{scopes}\t{released}\t{key}\t{names}"


def card_from_row(passcode: int, facts: str, store: Any) -> Card:
    """A `Card` from a store's compact row (schema 5: `stored_facts`) without its JSON: the
    slots a check reads (passcode, alternate passcodes, name, kind, frame, release dates,
    scopes, rule name and its key) are set from the row; the others are filled the first time
    one is read (`Card.__getattr__`) from `store.stored_card(passcode)`, so a check that never
    reads a card's text never reads or decodes its JSON. The card equals `card_from_stored` of
    the same JSON."""
    kind, frame, alts, scopes, released, key, n, names = facts.split("\t", 7)
    card = object.__new__(Card)
    card.passcode = passcode
    card.alt_passcodes = tuple(map(int, alts.split(","))) if alts else ()
    if n:
        cut = int(n)
        card.name, card.rule_name = names[:cut], names[cut:]
    else:
        card.name = card.rule_name = names
    card.kind = _KINDS[kind]
    card.frame = _FRAMES[frame]
    card.released = {k: _fromiso(v) for k, _, v in (
        r.partition("=") for r in released.split(","))} if released else {}
    card.scopes = frozenset(scopes.split(",")) if scopes else _EMPTY
    card._rule_key = key
    card._stored = store
    return card


def _fill(card: Card, store: Any) -> None:
    """Set the slots `card_from_row` left unset, from the card as the store holds it."""
    full = store.stored_card(card.passcode)
    for field in _LAZY_FIELDS:
        object.__setattr__(card, field, object.__getattribute__(full, field))
    try:
        object.__delattr__(card, "_stored")  # the store is no longer needed
    except AttributeError:  # another thread filled it at the same time
        pass
