"""A profile compiled against one deck: names resolved, cards grouped into classes, every
goal as DNF terms over features, every draw/search card's behaviour settled.

Names in conditions resolve, in this order, to: a role; ``summon NAME`` (the cards of NAME
that can be Normal Summoned without a Tribute, see `deckcheck.sim.turnrules`); a card of the
deck (any language the pool knows); a card property from the card data — an Attribute
(``DARK``), ``Level N`` / ``Rank N``, a monster Type (``Spellcaster``), a Spell/Trap
property (``Quick-Play Spell``, ``Counter Trap``) or a kind (``monster``, ``spell``,
``trap``). ``N different NAME`` counts different card names; ``GY: NAME`` and
``banished: NAME`` count cards in those zones (Monte Carlo only). A name that is none of
these, a card that is not in the deck, or an archetype with no card in the deck is an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from deckcheck.cards.model import Card, Kind
from deckcheck.cards.names import normalize
from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import Deck
from deckcheck.errors import ProfileError
from deckcheck.sim.goldfish.cardrules import builtin_rules
from deckcheck.sim.goldfish.conditions import (
    ATOM_RE,
    DIFFERENT_RE,
    OPERATOR_CHARS,
    Node,
    Op,
    Term,
    all_terms,
    bounds,
    dnf,
    make_atom,
    nnf,
)
from deckcheck.sim.goldfish.keys import key as toml_key
from deckcheck.sim.goldfish.profile import (
    Behaviour,
    ProfileFile,
    RoleSpec,
    behaviour,
)
from deckcheck.sim.turnrules import DEFAULT_RULES, TurnRules, summonable_now

ATTRIBUTES = ("DARK", "LIGHT", "EARTH", "WATER", "FIRE", "WIND", "DIVINE")
MONSTER_TYPES = (
    "Aqua", "Beast", "Beast-Warrior", "Creator-God", "Cyberse", "Dinosaur", "Divine-Beast",
    "Dragon", "Fairy", "Fiend", "Fish", "Illusion", "Insect", "Machine", "Plant", "Psychic",
    "Pyro", "Reptile", "Rock", "Sea Serpent", "Spellcaster", "Thunder", "Warrior",
    "Winged Beast", "Wyrm", "Zombie")
SPELL_TRAP_PROPERTIES = ("Normal", "Quick-Play", "Continuous", "Equip", "Field", "Ritual",
                         "Counter")
KINDS = {"monster": Kind.MONSTER, "monsters": Kind.MONSTER, "spell": Kind.SPELL,
         "spells": Kind.SPELL, "trap": Kind.TRAP, "traps": Kind.TRAP}
_LEVEL = re.compile(r"^(level|rank|link)\s*(\d+)$", re.IGNORECASE)
_SUMMON = re.compile(r"^summon\s+(.+)$", re.IGNORECASE)
MAX_LOWER_FEATURES = 10
#: Zones a condition can count besides the hand: feature kind -> block of the hand vector.
ZONES = {"gy": 1, "banished": 2}
_ZONE = re.compile(r"^(gy|graveyard|banished)\s*:\s*(.+)$", re.IGNORECASE)


@dataclass
class Feature:
    """A set of deck cards a condition counts: a role, one card, a property, a summon."""

    kind: str  # "role" | "card" | "prop" | "summon"
    name: str
    members: set[str] = field(default_factory=set)  # the deck's card names


@dataclass
class ClassInfo:
    """Cards of the deck that no condition tells apart: same features, same behaviour."""

    features: frozenset[int]
    behaviour: str | None  # card name of the behaviour, if any
    cards: dict[str, int]  # card name -> copies
    label: str = ""

    @property
    def size(self) -> int:
        return sum(self.cards.values())


#: Hidden goals of derived rows are named from this prefix (no profile name starts with it).
HIDDEN = "\x00"


@dataclass(frozen=True)
class Derived:
    """A derived row: "given" (P(row | given) = P(row and given) / P(given), `goals` the
    hidden goals of both and of given) or "count" (the expected number of cards of a
    feature in the hand = the sum over j of P(at least j), `goals` those hidden goals)."""

    name: str
    kind: str  # "given" | "count"
    goals: tuple[str, ...]


@dataclass
class CompiledProfile:
    """A profile compiled against one deck: classes of cards and conditions as DNF terms."""

    source: str
    overlap: bool
    features: list[Feature]
    classes: list[ClassInfo]
    #: named condition -> DNF terms; "success" is kept apart.
    conditions: dict[str, list[Term]]
    success: list[Term]
    behaviours: dict[int, Behaviour]  # class index -> behaviour
    targets: dict[int, int]  # class index -> feature searched / banished
    costs: dict[int, int]  # class index -> feature of the card discarded as the cost
    notes: list[str]
    deck_size: int
    class_of_name: dict[str, int]
    #: Cards in the Extra Deck (the cost of Pot of Prosperity / Extravagance).
    extra_size: int = 0
    rules: TurnRules = DEFAULT_RULES
    #: The goal per seat (going_second -> terms) when it differs from `success`.
    seat_success: dict[bool, list[Term]] = field(default_factory=dict)
    #: Small World: (revealed class, added class, bridge classes) for monsters of the deck
    #: (each monster its own class when the deck plays Small World).
    small_world: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)
    #: Derived rows (`[rows]`: conditional probabilities, expected counts) ...
    derived: list[Derived] = field(default_factory=list)
    #: ... and the hidden goals they are computed from (measured like named conditions).
    hidden: dict[str, list[Term]] = field(default_factory=dict)

    @property
    def K(self) -> tuple[int, ...]:
        return tuple(c.size for c in self.classes)

    @property
    def has_draws(self) -> bool:
        return any(not b.searches for b in self.behaviours.values())

    def success_for(self, going_second: bool) -> list[Term]:
        return self.seat_success.get(going_second, self.success)

    def goals(self, going_second: bool) -> dict[str, list[Term]]:
        """Every goal measured for a seat: success, the named conditions, then the hidden
        goals of derived rows."""
        return {"success": self.success_for(going_second), **self.conditions, **self.hidden}

    @property
    def monotone(self) -> bool:
        """True when adding cards to a hand can never make it fail (only "at least")."""
        terms = [*self.success, *(t for ts in self.seat_success.values() for t in ts),
                 *(t for ts in self.conditions.values() for t in ts),
                 *(t for ts in self.hidden.values() for t in ts)]
        return not any(t.highs or t.nots or any(hi is not None for _, hi in t.distinct.values())
                       for t in terms)

    def class_members(self, feature: int) -> list[int]:
        """The classes a feature counts; for a GY / banished feature, their places in the
        zone part of a hand vector (hand, then GY, then banished: `ZONES`)."""
        shift = len(self.classes) * ZONES.get(self.features[feature].kind, 0)
        return [shift + i for i, c in enumerate(self.classes) if feature in c.features]

    @property
    def zones(self) -> bool:
        """Whether a condition counts cards in the GY or banished (Monte Carlo tracks them)."""
        return any(f.kind in ZONES for f in self.features)

    def policy(self) -> str:
        """The play policy, stated in reports."""
        parts = ["overlap: one card may fill several roles" if self.overlap else
                 "no overlap: each card fills at most one 'at least' requirement (exact "
                 "matching)"]
        if any(b.kind == "small world" for b in self.behaviours.values()):
            parts.append("Small World: while the hand does not yet succeed, it reveals a "
                         "monster in hand and adds a monster linked to it by a bridge in the "
                         "Deck (exactly one shared Type/Attribute/Level/ATK/DEF each step)")
        if any(b.kind == "search" for b in self.behaviours.values()):
            parts.append("searchers: while the hand does not yet succeed, each searcher card "
                         "name adds (once per turn) the target that makes it succeed, if the "
                         "Deck still holds one")
        if self.has_draws:
            parts.append("draw cards: while the hand does not yet succeed, the first playable "
                         "one is played (Pot of Extravagance first, then Pot of Prosperity, "
                         "then the rest), each with its own restrictions")
        parts.append("hand limit: at the End Phase cards that only 'at most' limits count "
                     "go first, then cards without roles, then the least needed")
        return "; ".join(parts) + "."


def _close(word: str, options: list[str]) -> list[str]:
    import difflib  # only to suggest a name after a mistake

    return difflib.get_close_matches(word, options, n=3, cutoff=0.6)


class _Resolver:
    """Turns names written in a profile into features over the deck's cards."""

    def __init__(self, pf: ProfileFile, cards: list[Card], pool: CardPool | None,
                 source: str, strict: bool) -> None:
        self.pf = pf
        self.source = source
        self.pool = pool
        self.strict = strict
        self.notes: list[str] = []
        self.features: list[Feature] = []
        self.distinct_features: set[int] = set()
        self._index: dict[tuple[str, str], int] = {}
        # normalised name (any language, rule name) -> the deck's canonical card name
        self.names: dict[str, str] = {}
        self.cards: dict[str, Card] = {}
        for c in cards:
            self.cards.setdefault(c.name, c)
            for n in (c.name, c.rule_name, *c.names.values()):
                if n:
                    self.names.setdefault(normalize(n), c.name)
        self.role_keys = {normalize(r): r for r in pf.roles}
        self._roles: dict[str, int] = {}
        #: Normal Summons a turn (None: no limit, Rush Duel).
        self.summons: int | None = 1

    def error(self, path: str, what: str) -> ProfileError:
        return ProfileError(f"{self.source}: {path}: {what}")

    def feature(self, kind: str, name: str, members: set[str]) -> int:
        key = (kind, name)
        if key not in self._index:
            self._index[key] = len(self.features)
            self.features.append(Feature(kind, name, members))
        return self._index[key]

    def card_name(self, written: str, path: str) -> str | None:
        """The deck's name for a written card name; a card the pool knows that is not in the
        deck is an error (a note when not `strict`: the B deck of an A/B comparison)."""
        hit = self.names.get(normalize(written))
        if hit:
            return hit
        stray = sorted(OPERATOR_CHARS & set(written))
        if stray:
            raise self.error(path, f"{written!r} is not a condition: the comparison is one "
                                   f"of >=, <=, ==, >, < or != with a number after it (write "
                                   f"\"NAME >= 1\").")
        if self.pool is not None and self.pool.find_name(written):
            if self.strict:
                raise self.error(path, f"{written} is not in this deck; remove it from the "
                                       f"profile or add it to the deck.")
            self.notes.append(f"{written} ({path}) is not in this deck.")
            return None
        sugg = list(dict.fromkeys(
            [*_close(written, list(self.pf.roles)),
             *(self.pool.suggest(written) if self.pool is not None else []),
             *_close(written, list(self.cards))]))[:3]
        hint = f" (did you mean {', '.join(repr(s) for s in sugg)}?)" if sugg else ""
        raise self.error(path, f"{written!r} is neither a role nor a known card or card "
                               f"property{hint}; fix the name.")

    def role(self, name: str) -> int:
        if name not in self._roles:
            self._roles[name] = self._role(name)
        return self._roles[name]

    def _role(self, name: str) -> int:
        spec = self.pf.roles[name]
        listed = isinstance(spec, list)
        if isinstance(spec, list):
            spec = RoleSpec(cards=spec)
        members: set[str] = set()
        path = f"roles.{toml_key(name)}"
        for i, written in enumerate(spec.cards):
            hit = self.card_name(written, f"{path}[{i}]" if listed else f"{path}.cards[{i}]")
            if hit:
                members.add(hit)
        for i, arch in enumerate(spec.archetypes):
            found = {n for n, c in self.cards.items()
                     if any(a.casefold() == arch.casefold() for a in c.archetypes)}
            if not found:
                msg = f"no card of archetype {arch!r} is in this deck"
                if self.strict:
                    raise self.error(f"{path}.archetypes[{i}]", f"{msg}; fix the archetype "
                                                                 f"name or remove it.")
                self.notes.append(f"{msg[0].upper()}{msg[1:]} ({path}).")
            members |= found
        return self.feature("role", name, members)

    def prop(self, written: str) -> int | None:
        """A card property from the card data, or None if `written` names none."""
        w = written.strip()
        up = w.upper()
        if up in ATTRIBUTES:
            return self.feature("prop", up, {n for n, c in self.cards.items()
                                             if c.kind is Kind.MONSTER
                                             and (c.attribute or "").upper() == up})
        m = _LEVEL.match(w)
        if m:
            what, num = m.group(1).lower(), int(m.group(2))
            attr = {"level": "level", "rank": "rank", "link": "link_rating"}[what]
            label = f"{what.capitalize()} {num}"
            return self.feature("prop", label, {n for n, c in self.cards.items()
                                                if c.kind is Kind.MONSTER
                                                and getattr(c, attr) == num})
        low = w.casefold()
        if low in KINDS:
            kind = KINDS[low]
            return self.feature("prop", kind.value, {n for n, c in self.cards.items()
                                                     if c.kind is kind})
        for t in MONSTER_TYPES:
            if low == t.casefold():
                return self.feature("prop", t, {n for n, c in self.cards.items()
                                                if c.kind is Kind.MONSTER
                                                and (c.race or "").casefold() == low})
        parts = low.rsplit(" ", 1)
        if len(parts) == 2 and parts[1] in ("spell", "trap"):
            kind = Kind.SPELL if parts[1] == "spell" else Kind.TRAP
            for p in SPELL_TRAP_PROPERTIES:
                if parts[0] == p.casefold():
                    return self.feature("prop", f"{p} {kind.value.capitalize()}",
                                        {n for n, c in self.cards.items() if c.kind is kind
                                         and (c.race or "").casefold() == parts[0]})
        return None

    def name(self, written: str, path: str) -> int:
        """The feature a written name counts: role, summon, card, then property."""
        key = normalize(written)
        if key in self.role_keys:
            return self.role(self.role_keys[key])
        z = _ZONE.match(written.strip())
        if z and key not in self.names:
            inner = self.name(z.group(2), path)
            kind = "banished" if z.group(1).lower() == "banished" else "gy"
            label = "GY" if kind == "gy" else "banished"
            return self.feature(kind, f"{label}: {self.features[inner].name}",
                                set(self.features[inner].members))
        m = _SUMMON.match(written.strip())
        if m and key not in self.names:
            inner = self.name(m.group(1), path)
            members = {n for n in self.features[inner].members
                       if summonable_now(self.cards[n])}
            return self.feature("summon", f"summon {self.features[inner].name}", members)
        if key in self.names:
            hit = self.names[key]
            return self.feature("card", hit, {hit})
        prop = self.prop(written)
        if prop is not None:
            return prop
        # "2 different starters": a plural of a role or a property
        if written.endswith("s") and len(written) > 1:
            base = written[:-1]
            if normalize(base) in self.role_keys or self.prop(base) is not None:
                return self.name(base, path)
        hit2 = self.card_name(written, path)
        return self.feature("card", hit2 or written, {hit2} if hit2 else set())

    def target(self, written: str, path: str) -> int:
        """A role, a card or a property (for search / then_banish / discard_cost)."""
        return self.name(written, path)

    def parse(self, cond: Any, path: str, named: dict[str, Any] | None,
              seen: tuple[str, ...] = ()) -> Node:
        if isinstance(cond, bool):
            return cond
        if isinstance(cond, str):
            return self._parse_str(cond, path, named, seen)
        if isinstance(cond, list):
            raise self.error(path, "a list is not a condition; wrap it as { all = [...] } or "
                                   "{ any = [...] }.")
        if not isinstance(cond, dict):
            raise self.error(path, f"{cond!r} is not a condition; write \"ROLE >= N\" or a "
                                   f"table.")
        keys = set(cond)
        for op in ("all", "any"):
            if keys == {op}:
                items = cond[op]
                if not isinstance(items, list) or not items:
                    raise self.error(f"{path}.{op}", "needs a non-empty list of conditions.")
                return Op(op, tuple(self.parse(c, f"{path}.{op}[{i}]", named, seen)
                                    for i, c in enumerate(items)))
        if keys == {"not"}:
            return Op("not", (self.parse(cond["not"], f"{path}.not", named, seen),))
        return self._parse_table(cond, path)

    def _parse_table(self, cond: dict[str, Any], path: str) -> Node:
        allowed = {"role", "card", "at_least", "at_most", "exactly", "different"}
        extra = set(cond) - allowed
        if extra:
            raise self.error(f"{path}.{toml_key(sorted(extra)[0])}",
                             "unknown key; a condition table has all, any, not, or role/card "
                             "with at_least/at_most/exactly (and different = true).")
        who = [k for k in ("role", "card") if k in cond]
        if len(who) != 1 or not isinstance(cond[who[0]], str):
            raise self.error(path, "needs exactly one of role = \"…\" or card = \"…\".")
        found = {k: cond[k] for k in ("at_least", "at_most", "exactly") if k in cond}
        for k, v in found.items():
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise self.error(f"{path}.{k}", "must be a whole number ≥ 0.")
        if not found or ("exactly" in found and len(found) > 1):
            raise self.error(path, "give at_least and/or at_most, or exactly.")
        different = cond.get("different", False)
        if not isinstance(different, bool):
            raise self.error(f"{path}.different", "must be true or false.")
        name = cond[who[0]]
        if who[0] == "role":
            if normalize(name) not in self.role_keys:
                raise self.error(f"{path}.role", f"no role {name!r} in [roles]; add it or fix "
                                                 f"the name.")
            f = self.role(self.role_keys[normalize(name)])
        else:
            hit = self.card_name(name, f"{path}.card")
            f = self.feature("card", hit or name, {hit} if hit else set())
        lo = found.get("exactly", found.get("at_least"))
        hi = found.get("exactly", found.get("at_most"))
        return self._atom(f, lo, hi, different, path)

    def _atom(self, f: int, lo: int | None, hi: int | None, distinct: bool,
              path: str) -> Node:
        if distinct:
            self.distinct_features.add(f)
        if self.features[f].kind == "summon" and lo is not None and lo > 1 and \
                self.summons is not None and lo > self.summons:
            raise self.error(path, f"only one Normal Summon is allowed per turn; "
                                   f"\"{self.features[f].name} >= {lo}\" can never hold.")
        return make_atom(f, lo, hi, distinct)

    def _parse_str(self, text: str, path: str, named: dict[str, Any] | None,
                   seen: tuple[str, ...]) -> Node:
        m = ATOM_RE.match(text)
        distinct = False
        if m:
            name, op, num = m.group(1), m.group(2), int(m.group(3))
        else:
            name, op, num = text.strip(), ">=", 1
            if named is not None and name in named:
                if name not in seen:
                    return self.parse(named[name], f"conditions.{toml_key(name)}", named,
                                      (*seen, name))
                if seen != (name,) and normalize(name) not in self.role_keys and \
                        normalize(name) not in self.names:
                    raise self.error(path, f"condition {name!r} refers to itself; remove the "
                                           f"loop.")
        if OPERATOR_CHARS & set(name) and normalize(name) not in self.names:
            raise self.error(path, f"{text!r} is not a condition: the comparison is one of >=, "
                                   f"<=, ==, >, < or != with a number after it (write "
                                   f"\"NAME >= 1\").")
        d = DIFFERENT_RE.match(name)
        if d and normalize(name) not in self.names:
            distinct = True
            if m:
                raise self.error(path, f"{text!r}: write \"N different NAME\" on its own "
                                       f"(it means at least N).")
            num, name, op = int(d.group(1)), d.group(2), ">="
        if not name:
            raise self.error(path, f"{text!r} names no role or card; write \"ROLE >= N\".")
        f = self.name(name, path)
        b = bounds(op, num)
        if b is None:  # !=
            return Op("not", (self._atom(f, num, num, distinct, path),))
        return self._atom(f, b[0], b[1], distinct, path)


def compile_profile(pf: ProfileFile, cards: list[Card] | Deck, pool: CardPool | None = None,
                    source: str = "profile", *, extra: int | None = None,
                    rules: TurnRules = DEFAULT_RULES, strict: bool = True,
                    refine: dict[str, int] | None = None) -> CompiledProfile:
    """Compile a profile against a deck: a `Deck` (its Main Deck dealt with `pool`, the Extra
    Deck's real size as `extra` unless given), or its Main Deck cards (one Card per copy)
    with `extra` the Extra Deck's size (not given: 0, and a card whose cost needs the Extra
    Deck gets a note saying so). With `strict` (the default) a card or archetype the
    profile names that is not in the deck is an error; without, a note.

    `refine` (card name -> class of another profile of the same deck) splits the classes
    further and orders them by card name, so that two profiles compiled against each other
    have the very same classes and deal the very same Monte Carlo hands (common random
    numbers for A/B comparisons)."""
    extra_given = extra is not None
    if isinstance(cards, Deck):
        from deckcheck.sim.state import deal_cards

        if pool is None:
            raise ProfileError(f"{source}: compiling a profile against a Deck needs the card "
                               f"pool to deal it; pass pool.")
        cards, extra_cards = deal_cards(cards, pool)
        extra_given = True
        extra = len(extra_cards) if extra is None else extra
    extra = extra or 0
    r = _Resolver(pf, cards, pool, source, strict)
    r.summons = rules.normal_summons
    for role in pf.roles:  # every role is a feature (reported), even if no condition uses it
        r.role(role)
    named: dict[str, Node] = {}
    for name, cond in pf.conditions.items():
        named[name] = r.parse(cond, f"conditions.{toml_key(name)}", pf.conditions, (name,))
    if pf.success is not None:
        success_node = r.parse(pf.success, "success", pf.conditions)
    elif named:
        success_node = Op("all", tuple(named.values()))
    elif pf.success_first is None and pf.success_second is None:
        raise ProfileError(f"{source}: no [conditions] and no success; add at least one "
                           f"condition such as \"starter >= 1\".")
    else:
        success_node = False
    seat_nodes: dict[bool, Node] = {}
    for seat, cond, key in ((False, pf.success_first, "success_first"),
                            (True, pf.success_second, "success_second")):
        if cond is not None:
            seat_nodes[seat] = r.parse(cond, key, pf.conditions)
    if pf.success is None and not named and len(seat_nodes) < 2:
        raise ProfileError(f"{source}: give success (or both success_first and "
                           f"success_second).")
    derived, hidden_nodes = _derived_rows(pf, r, cards)
    behaviours = _behaviours(pf, r)
    by_name = any(b.small_world for b, _, _ in behaviours.values())
    classes, class_of_name = _classes(cards, r, behaviours, refine, monsters_apart=by_name)
    bmap = {class_of_name[n]: b for n, (b, _, _) in behaviours.items()}
    tmap = {class_of_name[n]: t for n, (_, t, _) in behaviours.items() if t is not None}
    cmap = {class_of_name[n]: c for n, (_, _, c) in behaviours.items() if c is not None}
    one = _OneSummon(r.features, classes, pf.options.overlap,
                     active=rules.normal_summons is not None)
    conditions = {n: one(dnf(nnf(node), source)) for n, node in named.items()}
    success = one(dnf(nnf(success_node), source))
    seat_success = {s: one(dnf(nnf(node), source)) for s, node in seat_nodes.items()}
    hidden = {n: one(dnf(nnf(node), source)) for n, node in hidden_nodes.items()}
    everything = [*success, *(t for ts in conditions.values() for t in ts),
                  *(t for ts in seat_success.values() for t in ts),
                  *(t for ts in hidden.values() for t in ts)]
    for term in all_terms(everything):
        if len(term.lows) > MAX_LOWER_FEATURES:
            raise ProfileError(f"{source}: one case of the conditions needs more than "
                               f"{MAX_LOWER_FEATURES} different roles at once; simplify it.")
    r.notes.extend(never_played(bmap, cmap, classes, r.features, extra, len(cards), rules,
                                extra_given))
    return CompiledProfile(source=source, overlap=pf.options.overlap, features=r.features,
                           classes=classes, conditions=conditions, success=success,
                           behaviours=bmap, targets=tmap, costs=cmap, notes=r.notes,
                           deck_size=len(cards), class_of_name=class_of_name,
                           extra_size=extra, rules=rules, seat_success=seat_success,
                           small_world=_small_world(r.cards, classes, class_of_name)
                           if by_name else [], derived=derived, hidden=hidden)


#: The most copies an expected count counts up to (a hand holds no more by turn 10).
MAX_COUNT = 16


def _derived_rows(pf: ProfileFile, r: _Resolver, cards: list[Card]
                  ) -> tuple[list[Derived], dict[str, Node]]:
    """The `[rows]` of a profile: each a conditional probability {row, given} or an
    expected count {count}, with the hidden goals it is computed from."""
    derived: list[Derived] = []
    nodes: dict[str, Node] = {}
    copies: dict[str, int] = {}
    for c in cards:
        copies[c.name] = copies.get(c.name, 0) + 1
    for name, spec in pf.rows.items():
        path = f"rows.{toml_key(name)}"
        if name in pf.conditions or name == "success":
            raise r.error(path, "a row has the name of a condition; give it another name.")
        if set(spec) == {"count"} and isinstance(spec["count"], str):
            f = r.name(spec["count"], f"{path}.count")
            if r.features[f].kind == "summon":
                raise r.error(f"{path}.count", "counts cards, not Normal Summons; name a role, "
                                               "a card or a property.")
            most = min(MAX_COUNT, sum(copies.get(n, 0) for n in r.features[f].members))
            names = tuple(f"{HIDDEN}{name}{HIDDEN}{j}" for j in range(1, most + 1))
            for j, hn in enumerate(names, 1):
                nodes[hn] = make_atom(f, j, None)
            derived.append(Derived(name, "count", names))
        elif set(spec) == {"row", "given"}:
            row = r.parse(spec["row"], f"{path}.row", pf.conditions)
            given = r.parse(spec["given"], f"{path}.given", pf.conditions)
            both, alone = f"{HIDDEN}{name}{HIDDEN}and", f"{HIDDEN}{name}{HIDDEN}given"
            nodes[both] = Op("all", (row, given))
            nodes[alone] = given
            derived.append(Derived(name, "given", (both, alone)))
        else:
            raise r.error(path, "a row is { row = CONDITION, given = CONDITION } (a "
                                "conditional probability) or { count = NAME } (the expected "
                                "number of cards); fix it.")
    return derived, nodes


def never_played(behaviours: dict[int, Behaviour], costs: dict[int, int],
                 classes: list[ClassInfo], features: list[Feature], extra: int,
                 deck_size: int, rules: TurnRules, extra_given: bool = True) -> list[str]:
    """A note for each draw card that can never be played in this deck: its cost needs an
    Extra Deck of 3+ or a card the deck lacks, or the Deck is too small for what it takes
    (its roles still count; with the card removed the rest of the odds are the same)."""
    out = []
    left = deck_size - rules.cards_by(1, False)
    for c, b in sorted(behaviours.items()):
        if b.searches:
            continue
        name = classes[c].label
        if b.extra_deck_cost and extra < 3:
            how = ("the Extra Deck size was not given (pass extra= or the Deck)"
                   if not extra_given else f"the Extra Deck holds {extra}")
            out.append(f"{name} can never be played here: its cost banishes 3 or 6 face-down "
                       f"cards from the Extra Deck, and {how}.")
            continue
        if c in costs:
            members = [i for i, ci in enumerate(classes) if costs[c] in ci.features]
            if sum(classes[i].size for i in members if i != c) == 0:
                out.append(f"{name} can never be played here: its cost discards "
                           f"{features[costs[c]].name}, and the deck has no such card.")
                continue
        need = b.banish_top + b.draw + b.excavate
        if need > left:
            out.append(f"{name} can never be played here: it takes {need} cards from the "
                       f"Deck, which holds {left} after the opening hand.")
    return out


def _behaviours(pf: ProfileFile, r: _Resolver
                ) -> dict[str, tuple[Behaviour, int | None, int | None]]:
    """card name -> (behaviour, target feature, cost feature): the built-in table for the
    deck's cards, with the profile's entries laid over it."""
    written_for: dict[str, tuple[str, Any]] = {}
    for written, entry in pf.cards.items():
        path = f"cards.{toml_key(written)}"
        hit = r.card_name(written, path)
        if hit:
            written_for[hit] = (path, entry)
    out: dict[str, tuple[Behaviour, int | None, int | None]] = {}
    for name, card in r.cards.items():
        base = builtin_rules(card.name, card.rule_name)
        path, entry = written_for.get(name, (f"cards.{toml_key(name)}", None))
        if base is None and entry is None:
            continue
        b = behaviour(base, entry, path, r.source)
        if b is None:
            continue
        tgt: int | None = None
        cost: int | None = None
        if b.search:
            tgt = r.target(b.search, f"{path}.search")
        elif b.then_banish:
            tgt = r.target(b.then_banish, f"{path}.then_banish")
        if b.discard_cost:
            cost = r.target(b.discard_cost, f"{path}.discard_cost")
        for f, key in ((tgt, "search" if b.search else "then_banish"), (cost, "discard_cost")):
            if f is not None and r.features[f].kind in ZONES:
                raise r.error(f"{path}.{key}", "names cards in the hand or Deck, not in the GY "
                                               "or banished; drop the zone.")
        out[name] = (b, tgt, cost)
    return out


def _classes(cards: list[Card], r: _Resolver, behaviours: dict[str, Any],
             refine: dict[str, int] | None = None, monsters_apart: bool = False
             ) -> tuple[list[ClassInfo], dict[str, int]]:
    """Cards with the same features and behaviour are interchangeable; a card counted by
    "N different" conditions keeps its own class (its name matters)."""
    by_name = {n for f in r.distinct_features for n in r.features[f].members}
    sig_of: dict[str, tuple[frozenset[int], str | None, int]] = {}
    for name in r.cards:
        feats = frozenset(i for i, f in enumerate(r.features) if name in f.members)
        own = name in behaviours or name in by_name or (
            monsters_apart and r.cards[name].kind is Kind.MONSTER)
        sig_of[name] = (feats, name if own else None, (refine or {}).get(name, -1))
    counts: dict[str, int] = {}
    for c in cards:
        counts[c.name] = counts.get(c.name, 0) + 1
    by_sig: dict[tuple[frozenset[int], str | None, int], ClassInfo] = {}
    for name, n in counts.items():
        sig = sig_of[name]
        ci = by_sig.setdefault(sig, ClassInfo(sig[0], sig[1], {}))
        ci.cards[name] = n
    classes = list(by_sig.values())
    for ci in classes:
        ci.label = _label(ci, r.features)
    seen: dict[str, int] = {}
    for ci in classes:
        seen[ci.label] = seen.get(ci.label, 0) + 1
    for ci in classes:  # two classes never share a label (failing hands are keyed by it)
        if seen[ci.label] > 1:
            ci.label = f"{ci.label} ({', '.join(sorted(ci.cards))})"
    if refine is not None:
        classes.sort(key=lambda c: min(c.cards))
    else:
        classes.sort(key=lambda c: (not c.features and c.behaviour is None, c.label))
    class_of_name = {name: i for i, ci in enumerate(classes) for name in ci.cards}
    return classes, class_of_name


class _OneSummon:
    """One Normal Summon a turn: a case of the conditions that needs two summons (of two
    roles) can only hold with one card that is both — the same card with overlap, never
    without it (one card fills one requirement)."""

    def __init__(self, features: list[Feature], classes: list[ClassInfo],
                 overlap: bool, active: bool = True) -> None:
        self.features, self.classes, self.overlap = features, classes, overlap
        self.active = active  # (Rush Duel: no limit on Normal Summons)

    def __call__(self, terms: list[Term]) -> list[Term]:
        if not self.active:
            return terms
        out = []
        for t in terms:
            t.nots = [self(sub) for sub in t.nots]
            summons = [f for f in t.lows if self.features[f].kind == "summon"]
            if len(summons) > 1:
                if not self.overlap:
                    continue
                f = self._both(summons)
                t.lows = {k: v for k, v in t.lows.items() if k not in summons}
                t.lows[f] = 1
            out.append(t)
        return out

    def _both(self, summons: list[int]) -> int:
        name = " & ".join(sorted(self.features[f].name for f in summons))
        members = set.intersection(*(self.features[f].members for f in summons))
        for i, f in enumerate(self.features):
            if (f.kind, f.name) == ("summon", name):
                return i
        self.features.append(Feature("summon", name, members))
        fid = len(self.features) - 1
        for ci in self.classes:  # classes never straddle a feature's members
            if set(ci.cards) <= members:
                ci.features = ci.features | {fid}
        return fid


def _shares_one(a: Card, b: Card) -> bool:
    """Exactly one of Type, Attribute, Level, ATK, DEF is the same (Small World)."""
    same = sum(x is not None and x == y for x, y in (
        (a.race, b.race), (a.attribute, b.attribute), (a.level, b.level), (a.atk, b.atk),
        (a.defense, b.defense)))
    return same == 1


def _small_world(cards: dict[str, Card], classes: list[ClassInfo],
                 class_of_name: dict[str, int]) -> list[tuple[int, int, tuple[int, ...]]]:
    """(revealed, added, bridges) for Small World, from the card data; only moves that
    change what the conditions count (a card with a feature is revealed or added)."""
    mons = sorted(n for n in class_of_name if cards[n].kind is Kind.MONSTER
                  and not cards[n].frame.is_extra)
    out = []
    for a in mons:
        for t in mons:
            ca, ct = class_of_name[a], class_of_name[t]
            if not (classes[ca].features or classes[ct].features):
                continue
            bridges = tuple(class_of_name[b] for b in mons
                            if _shares_one(cards[a], cards[b]) and _shares_one(cards[b],
                                                                               cards[t]))
            if bridges:
                out.append((ca, ct, bridges))
    return out


def _label(ci: ClassInfo, features: list[Feature]) -> str:
    if len(ci.cards) == 1:
        return next(iter(ci.cards))
    names = sorted(features[f].name for f in ci.features
                   if features[f].kind != "card" and features[f].kind not in ZONES)
    return "+".join(names) if names else "other"
