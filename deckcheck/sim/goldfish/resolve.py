"""Names written in a profile resolved against one deck's cards: each a feature (a set of
the deck's cards a condition counts), and conditions parsed into trees over features.

Names in conditions resolve, in this order, to: a role; ``summon NAME`` (the cards of NAME
that can be Normal Summoned without a Tribute, see `deckcheck.sim.turnrules`); a card of the
deck (any language the pool knows); a card property from the card data — an Attribute
(``DARK``), ``Level N`` / ``Rank N``, a monster Type (``Spellcaster``), a Spell/Trap
property (``Quick-Play Spell``, ``Counter Trap``) or a kind (``monster``, ``spell``,
``trap``). ``N different NAME`` counts different card names; ``GY: NAME`` and
``banished: NAME`` count cards in those zones (Monte Carlo only). A name that is none of
these, a card that is not in the deck, or an archetype with no card in the deck is an error.
`compiled` groups the cards into classes and turns the trees into terms.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from deckcheck.cards.model import Card, Kind
from deckcheck.cards.names import normalize
from deckcheck.cards.pool import CardPool
from deckcheck.errors import ProfileError
from deckcheck.plain import Plain
from deckcheck.sim.goldfish.conditions import (
    ATOM_RE,
    DIFFERENT_RE,
    OPERATOR_CHARS,
    Node,
    Op,
    bounds,
    make_atom,
)
from deckcheck.sim.goldfish.keys import key as toml_key
from deckcheck.sim.goldfish.profile import ProfileFile, RoleSpec
from deckcheck.sim.turnrules import summonable_now

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
_ZONE = re.compile(r"^(gy|graveyard|banished)\s*:\s*(.+)$", re.IGNORECASE)


class Feature(Plain):
    """A set of deck cards a condition counts: a role, one card, a property, a summon."""

    __slots__ = ("kind", "name", "members")

    def __init__(self, kind: str, name: str, members: set[str] | None = None) -> None:
        self.kind = kind  # "role" | "card" | "prop" | "summon"
        self.name = name
        self.members = set() if members is None else members  # the deck's card names


def _close(word: str, options: list[str]) -> list[str]:
    import difflib  # only to suggest a name after a mistake

    return difflib.get_close_matches(word, options, n=3, cutoff=0.6)


class Resolver:
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
        for match in (self._attribute, self._level, self._kind, self._monster_type,
                      self._spell_trap_property):
            found = match(w)
            if found is not None:
                return found
        return None

    def _prop(self, label: str, has: Callable[[Card], bool]) -> int:
        return self.feature("prop", label, {n for n, c in self.cards.items() if has(c)})

    def _attribute(self, w: str) -> int | None:
        up = w.upper()
        if up not in ATTRIBUTES:
            return None
        return self._prop(up, lambda c: c.kind is Kind.MONSTER
                          and (c.attribute or "").upper() == up)

    def _level(self, w: str) -> int | None:
        m = _LEVEL.match(w)
        if not m:
            return None
        what, num = m.group(1).lower(), int(m.group(2))
        attr = {"level": "level", "rank": "rank", "link": "link_rating"}[what]
        return self._prop(f"{what.capitalize()} {num}",
                          lambda c: c.kind is Kind.MONSTER and getattr(c, attr) == num)

    def _kind(self, w: str) -> int | None:
        kind = KINDS.get(w.casefold())
        if kind is None:
            return None
        return self._prop(kind.value, lambda c: c.kind is kind)

    def _monster_type(self, w: str) -> int | None:
        low = w.casefold()
        for t in MONSTER_TYPES:
            if low == t.casefold():
                return self._prop(t, lambda c: c.kind is Kind.MONSTER
                                  and (c.race or "").casefold() == low)
        return None

    def _spell_trap_property(self, w: str) -> int | None:
        parts = w.casefold().rsplit(" ", 1)
        if len(parts) != 2 or parts[1] not in ("spell", "trap"):
            return None
        kind = Kind.SPELL if parts[1] == "spell" else Kind.TRAP
        for p in SPELL_TRAP_PROPERTIES:
            if parts[0] == p.casefold():
                return self._prop(f"{p} {kind.value.capitalize()}",
                                  lambda c: c.kind is kind
                                  and (c.race or "").casefold() == parts[0])
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
