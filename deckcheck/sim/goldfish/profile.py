"""Goldfishing profiles: what a deck needs in its opening hand, as a small TOML file.

A profile tags cards with **roles** (any name you like: starter, extender, hand trap,
brick, garnet…), states **conditions** on how many cards of a role (or of one card) the hand
holds, and declares what **draw and search cards** do. deckcheck finds it next to the deck
(``deck.ydk`` -> ``deck.profile.toml`` or ``deck.toml``), or takes it from ``--profile``,
or builds it from ``--role``/``--need`` options.

Example (``deck.profile.toml``)::

    # Top-level keys come before the first [table].
    # success: what a good hand is. Default: every named condition below holds.
    success = { all = ["a starter", "interaction", "few bricks"] }

    [options]
    overlap = false     # may one card fill two roles at once? (default: no)

    [roles]
    # A list of card names (any language the card pool knows) ...
    starter = ["Snake-Eye Ash", "Snake-Eye Oak", "Bonfire"]
    "hand trap" = ["Ash Blossom & Joyous Spring", "Effect Veiler"]
    # ... or a table with card names and/or archetypes (Card.archetypes).
    extender = { cards = ["WANTED: Seeker of Sinful Spoils"], archetypes = ["Snake-Eye"] }
    brick = { cards = ["Diabellstar the Black Witch"] }

    [conditions]
    # "NAME OP N": NAME is a role or a card name; OP is >=, <=, ==, >, < or !=.
    # A bare NAME means "NAME >= 1".
    "a starter" = "starter >= 1"
    # any / all / not nest freely.
    interaction = { any = ["hand trap >= 1", "Called by the Grave"] }
    "few bricks" = { not = "brick >= 2" }
    # The long form of an atom: exactly one of role / card, and at_least / at_most / exactly.
    "one field spell" = { card = "Bonfire", exactly = 1 }

    # What draw and search cards do (by card name).
    [cards."Snake-Eye Ash"]
    search = "extender"          # adds any 1 card of role (or card) "extender" from the Deck
    [cards."Pot of Desires"]
    draw = 2
    banish_top = 10              # cost: banish the top 10 cards face-down first
    [cards."Allure of Darkness"]
    draw = 2
    then_banish = "DARK"         # then banish 1 DARK (role, card or Attribute) from the hand,
                                 # or the whole hand is discarded
    [cards."Trade-In"]
    draw = 2
    discard_cost = "brick"       # cost: discard 1 card of this role/card/Attribute first
    [cards."Pot of Prosperity"]
    excavate = 6                 # look at the top 6, add 1 to the hand
    excavate_rest = "bottom"     # the rest go to the bottom ("shuffle": back into the Deck)

Meaning:

- A hand **succeeds** when the ``success`` condition holds; each named condition is also
  reported on its own. A name in ``success`` may refer to a named condition.
- **overlap = false** (the default): a card counts toward at most one "at least"
  requirement at a time, decided exactly as a bipartite matching (copies in hand ->
  role requirements), never greedily. "At most" limits always count every copy in hand
  (a brick is a brick). With ``overlap = true`` every card counts for all its roles.
- **Searchers** (``search``): when the hand does not yet succeed, each searcher card name
  is used once per turn to add one card of its target from the Deck, if any is left;
  deckcheck tries every target (and chains of searchers) and succeeds if one choice does
  (a search that cannot make the hand succeed is not made). The searcher stays in the hand
  and keeps its roles unless ``spent = true``. Both engines handle searchers exactly.
- **Draw / excavate cards** (``draw``, ``excavate``): played, once per turn per card name,
  only when the hand does not yet succeed, and only if the Deck holds enough cards (and the
  hand a card for ``discard_cost``); the card leaves the hand (``spent = false`` keeps it).
  An excavation adds the excavated card that makes the hand succeed, else the one with the
  most roles. These need the Monte Carlo engine.
- ``once_per_turn = false`` lets every copy of a draw card be played in one turn.
- **Turns**: "by turn N" means the hand succeeded at the Main Phase of some turn up to N
  (going first, turn 1 has no draw; going second, it draws). At the End Phase a hand over
  6 cards discards: cards without roles first, then cards only "at most" conditions count,
  then the rest.
- **Engines**: exact (fractions) for opening hands and, for "at least"-only profiles without
  draw cards, for later turns until the hand size limit could matter; Monte Carlo (hands,
  seed and a 95% Wilson interval are reported) for everything else.

Validation: unknown keys and wrong types are errors, reported in one sentence with the
TOML key path (``cards."Pot of Desires".draw: …``); names that are neither a role nor a
card the pool knows are errors with "did you mean" suggestions.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from deckcheck.cards.model import Card
from deckcheck.cards.names import normalize
from deckcheck.cards.pool import CardPool
from deckcheck.errors import ProfileError

ATTRIBUTES = ("DARK", "LIGHT", "EARTH", "WATER", "FIRE", "WIND", "DIVINE")
MAX_TERMS = 512
MAX_LOWER_FEATURES = 10


# --------------------------------------------------------------------------------------
# The file format (pydantic, extra="forbid")
# --------------------------------------------------------------------------------------
class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")

    overlap: bool = False


class RoleSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cards: list[str] = Field(default_factory=list)
    archetypes: list[str] = Field(default_factory=list)


class Behaviour(BaseModel):
    """What one draw or search card does."""

    model_config = ConfigDict(extra="forbid")

    search: str | None = None
    draw: int = Field(default=0, ge=0, le=10)
    banish_top: int = Field(default=0, ge=0, le=60)
    excavate: int = Field(default=0, ge=0, le=20)
    excavate_rest: Literal["bottom", "shuffle"] = "bottom"
    then_banish: str | None = None
    discard_cost: str | None = None
    spent: bool | None = None
    once_per_turn: bool = True

    @model_validator(mode="after")
    def _one_kind(self) -> Behaviour:
        kinds = [k for k, v in (("search", self.search), ("draw", self.draw),
                                ("excavate", self.excavate)) if v]
        if len(kinds) != 1:
            raise ValueError("a card needs exactly one of search, draw or excavate"
                             + (f", not {' and '.join(kinds)}" if kinds else ""))
        if (self.banish_top or self.then_banish) and not self.draw:
            raise ValueError("banish_top and then_banish only go with draw")
        if self.discard_cost and self.search:
            raise ValueError("discard_cost only goes with draw or excavate")
        return self

    @property
    def kind(self) -> str:
        return "search" if self.search else "draw" if self.draw else "excavate"

    @property
    def is_spent(self) -> bool:
        return self.spent if self.spent is not None else self.kind != "search"


class ProfileFile(BaseModel):
    """A profile as written (conditions are parsed separately, with their key paths)."""

    model_config = ConfigDict(extra="forbid")

    success: Any = None
    options: Options = Field(default_factory=Options)
    roles: dict[str, list[str] | RoleSpec] = Field(default_factory=dict)
    conditions: dict[str, Any] = Field(default_factory=dict)
    cards: dict[str, Behaviour] = Field(default_factory=dict)


def _key(part: object) -> str:
    if isinstance(part, int):
        return f"[{part}]"
    s = str(part)
    return s if re.fullmatch(r"[A-Za-z0-9_-]+", s) else f'"{s}"'


def key_path(loc: tuple[object, ...]) -> str:
    """A TOML key path: ("cards", "Pot of Desires", "draw") -> cards."Pot of Desires".draw."""
    out = ""
    for part in loc:
        k = _key(part)
        out += k if k.startswith("[") or not out else "." + k
    return out or "(top level)"


def _pydantic_error(exc: ValidationError, source: str) -> ProfileError:
    err = exc.errors()[0]
    loc = tuple(p for p in err["loc"] if p not in ("list[str]", "RoleSpec"))
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        msg = "unknown key"
    msg = msg.removeprefix("Value error, ")
    return ProfileError(f"{source}: {key_path(loc)}: {msg}; fix the profile (its format is "
                        f"described in the README).")


def load_profile_file(path: str | Path) -> ProfileFile:
    """Read and validate a profile TOML file."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProfileError(f"No profile file {p}; check the path.") from None
    except IsADirectoryError:
        raise ProfileError(f"{p} is a folder, not a profile file; give a .profile.toml file."
                           ) from None
    except UnicodeDecodeError:
        raise ProfileError(f"{p} is not a text file; give a profile TOML file saved as UTF-8."
                           ) from None
    except OSError as exc:
        raise ProfileError(f"{p}: cannot be read ({exc.strerror}); check the file.") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{p}: not valid TOML ({exc}); fix the syntax.") from None
    return parse_profile(data, str(p))


def parse_profile(data: dict[str, Any], source: str = "profile") -> ProfileFile:
    try:
        return ProfileFile.model_validate(data)
    except ValidationError as exc:
        raise _pydantic_error(exc, source) from None


def find_profile(deck_path: str | Path) -> Path | None:
    """The profile next to a deck file: deck.profile.toml, then deck.toml."""
    p = Path(deck_path)
    try:
        candidates = (p.with_suffix(".profile.toml"), p.with_suffix(".toml"))
    except ValueError:  # "/", ".": no file name to put a suffix on
        return None
    for cand in candidates:
        if cand.is_file() and cand != p:
            return cand
    return None


def inline_roles(roles: list[str]) -> dict[str, list[str] | RoleSpec]:
    """Roles from `--role NAME="Card A,Card B"` options."""
    role_map: dict[str, list[str] | RoleSpec] = {}
    for r in roles:
        name, sep, cards = r.partition("=")
        if not sep or not name.strip():
            raise ProfileError(f"--role {r!r} is not NAME=\"Card A,Card B\"; write it that way.")
        role_map[name.strip()] = [c.strip().strip('"') for c in cards.split(",") if c.strip()]
    return role_map


def inline_profile(roles: list[str], needs: list[str]) -> ProfileFile:
    """A profile from `--role NAME="Card A,Card B"` and `--need "NAME>=1"` options."""
    if not needs:
        raise ProfileError("No condition given: add --need \"ROLE>=1\" (or a --profile file).")
    return ProfileFile(roles=inline_roles(roles), conditions={n: n for n in needs})


# --------------------------------------------------------------------------------------
# Conditions: parsed into a small tree, then into DNF terms over "features"
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Atom:
    feature: int
    lo: int | None  # at least
    hi: int | None  # at most


@dataclass(frozen=True)
class Op:
    op: str  # "all" | "any" | "not"
    args: tuple[Node, ...]


Node = Atom | Op | bool

_ATOM = re.compile(r"^\s*(.*?)\s*(>=|<=|==|!=|=|>|<)\s*(-?\d+)\s*$")


@dataclass
class Term:
    """One conjunction of the DNF: lower bounds (need a matching) and upper bounds."""

    lows: dict[int, int]
    highs: dict[int, int]


@dataclass
class Feature:
    """A set of deck cards a condition counts: a role, one card name, or an Attribute."""

    kind: str  # "role" | "card" | "attr"
    name: str
    members: set[str] = field(default_factory=set)  # normalised card names in the deck


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

    @property
    def K(self) -> tuple[int, ...]:
        return tuple(c.size for c in self.classes)

    @property
    def has_draws(self) -> bool:
        return any(b.kind != "search" for b in self.behaviours.values())

    @property
    def monotone(self) -> bool:
        """True when adding cards to a hand can never make it fail (no upper bounds)."""
        terms = [*self.success, *(t for ts in self.conditions.values() for t in ts)]
        return not any(t.highs for t in terms)

    def class_members(self, feature: int) -> list[int]:
        return [i for i, c in enumerate(self.classes) if feature in c.features]

    def policy(self) -> str:
        """The play policy, stated in reports."""
        parts = ["overlap: one card may fill several roles" if self.overlap else
                 "no overlap: each card fills at most one 'at least' requirement (exact "
                 "matching)"]
        if any(b.kind == "search" for b in self.behaviours.values()):
            parts.append("searchers: while the hand does not yet succeed, each searcher card "
                         "name adds (once per turn) the target that makes it succeed, if the "
                         "Deck still holds one")
        if self.has_draws:
            parts.append("draw/excavate cards: played (once per turn per name) only while the "
                         "hand does not yet succeed and the Deck holds enough cards")
        parts.append("hand limit: at the End Phase cards without roles, then 'at most' "
                     "cards, are discarded first")
        return "; ".join(parts) + "."


class _Resolver:
    """Turns names written in a profile into features over the deck's cards."""

    def __init__(self, pf: ProfileFile, cards: list[Card], pool: CardPool | None,
                 source: str) -> None:
        self.pf = pf
        self.source = source
        self.pool = pool
        self.notes: list[str] = []
        self.features: list[Feature] = []
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

    def feature(self, kind: str, name: str, members: set[str]) -> int:
        key = (kind, name)
        if key not in self._index:
            self._index[key] = len(self.features)
            self.features.append(Feature(kind, name, members))
        return self._index[key]

    def card_name(self, written: str, path: str) -> str | None:
        """The deck's name for a written card name; None (with a note) if not in the deck."""
        hit = self.names.get(normalize(written))
        if hit:
            return hit
        if self.pool is not None and self.pool.find_name(written):
            self.notes.append(f"{written} ({path}) is not in this deck.")
            return None
        sugg = list(dict.fromkeys(
            [*_close(written, list(self.pf.roles)),
             *(self.pool.suggest(written) if self.pool is not None else []),
             *_close(written, list(self.cards))]))[:3]
        hint = f" (did you mean {', '.join(repr(s) for s in sugg)}?)" if sugg else ""
        raise ProfileError(f"{self.source}: {path}: {written!r} is neither a role nor a known "
                           f"card{hint}; fix the name.")

    def role(self, name: str) -> int:
        if name not in self._roles:
            self._roles[name] = self._role(name)
        return self._roles[name]

    def _role(self, name: str) -> int:
        spec = self.pf.roles[name]
        if isinstance(spec, list):
            spec = RoleSpec(cards=spec)
        members: set[str] = set()
        path = f"roles.{_key(name)}"
        for i, written in enumerate(spec.cards):
            hit = self.card_name(written, f"{path}[{i}]" if isinstance(
                self.pf.roles[name], list) else f"{path}.cards[{i}]")
            if hit:
                members.add(hit)
        for arch in spec.archetypes:
            found = {n for n, c in self.cards.items()
                     if any(a.casefold() == arch.casefold() for a in c.archetypes)}
            if not found:
                self.notes.append(f"No card of archetype {arch!r} ({path}) is in this deck.")
            members |= found
        return self.feature("role", name, members)

    def target(self, written: str, path: str) -> int:
        """A role, a card, or an Attribute (for search / then_banish)."""
        if normalize(written) in self.role_keys:
            return self.role(self.role_keys[normalize(written)])
        if written.upper() in ATTRIBUTES:
            attr = written.upper()
            return self.feature("attr", attr, {n for n, c in self.cards.items()
                                               if (c.attribute or "").upper() == attr})
        hit = self.card_name(written, path)
        return self.feature("card", hit or written, {hit} if hit else set())

    def parse(self, cond: Any, path: str, named: dict[str, Any] | None,
              seen: tuple[str, ...] = ()) -> Node:
        if isinstance(cond, bool):
            return cond
        if isinstance(cond, str):
            return self._parse_str(cond, path, named, seen)
        if isinstance(cond, list):
            raise ProfileError(f"{self.source}: {path}: a list is not a condition; wrap it "
                               f"as {{ all = [...] }} or {{ any = [...] }}.")
        if not isinstance(cond, dict):
            raise ProfileError(f"{self.source}: {path}: {cond!r} is not a condition; write "
                               f"\"ROLE >= N\" or a table.")
        keys = set(cond)
        for op in ("all", "any"):
            if keys == {op}:
                items = cond[op]
                if not isinstance(items, list) or not items:
                    raise ProfileError(f"{self.source}: {path}.{op}: needs a non-empty list "
                                       f"of conditions.")
                return Op(op, tuple(self.parse(c, f"{path}.{op}[{i}]", named, seen)
                                    for i, c in enumerate(items)))
        if keys == {"not"}:
            return Op("not", (self.parse(cond["not"], f"{path}.not", named, seen),))
        return self._parse_table(cond, path)

    def _parse_table(self, cond: dict[str, Any], path: str) -> Node:
        allowed = {"role", "card", "at_least", "at_most", "exactly"}
        extra = set(cond) - allowed
        if extra:
            raise ProfileError(f"{self.source}: {path}.{_key(sorted(extra)[0])}: unknown key; "
                               f"a condition table has all, any, not, or role/card with "
                               f"at_least/at_most/exactly.")
        who = [k for k in ("role", "card") if k in cond]
        if len(who) != 1 or not isinstance(cond[who[0]], str):
            raise ProfileError(f"{self.source}: {path}: needs exactly one of role = \"…\" or "
                               f"card = \"…\".")
        bounds = {k: cond[k] for k in ("at_least", "at_most", "exactly") if k in cond}
        for k, v in bounds.items():
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ProfileError(f"{self.source}: {path}.{k}: must be a whole number ≥ 0.")
        if not bounds or ("exactly" in bounds and len(bounds) > 1):
            raise ProfileError(f"{self.source}: {path}: give at_least and/or at_most, or "
                               f"exactly.")
        name = cond[who[0]]
        if who[0] == "role":
            if normalize(name) not in self.role_keys:
                raise ProfileError(f"{self.source}: {path}.role: no role {name!r} in [roles]; "
                                   f"add it or fix the name.")
            f = self.role(self.role_keys[normalize(name)])
        else:
            hit = self.card_name(name, f"{path}.card")
            f = self.feature("card", hit or name, {hit} if hit else set())
        lo = bounds.get("exactly", bounds.get("at_least"))
        hi = bounds.get("exactly", bounds.get("at_most"))
        return Atom(f, lo if lo else None, hi)

    def _parse_str(self, text: str, path: str, named: dict[str, Any] | None,
                   seen: tuple[str, ...]) -> Node:
        m = _ATOM.match(text)
        if m:
            name, op, num = m.group(1), m.group(2), int(m.group(3))
        else:
            name, op, num = text.strip(), ">=", 1
            if named is not None and name in named:
                if name not in seen:
                    return self.parse(named[name], f"conditions.{_key(name)}", named,
                                      (*seen, name))
                if seen != (name,) and normalize(name) not in self.role_keys and \
                        normalize(name) not in self.names:
                    raise ProfileError(f"{self.source}: {path}: condition {name!r} refers to "
                                       f"itself; remove the loop.")
        if not name:
            raise ProfileError(f"{self.source}: {path}: {text!r} names no role or card; write "
                               f"\"ROLE >= N\".")
        if normalize(name) in self.role_keys:
            f = self.role(self.role_keys[normalize(name)])
        else:
            hit = self.card_name(name, path)
            f = self.feature("card", hit or name, {hit} if hit else set())
        lo: int | None
        hi: int | None
        if op in ("=", "=="):
            lo, hi = num, num
        elif op == ">=":
            lo, hi = num, None
        elif op == ">":
            lo, hi = num + 1, None
        elif op == "<=":
            lo, hi = None, num
        elif op == "<":
            lo, hi = None, num - 1
        else:  # !=
            return Op("not", (Atom(f, num if num > 0 else None, num),))
        if hi is not None and hi < 0:
            return False
        return Atom(f, lo if lo and lo > 0 else None, hi)


def _close(word: str, options: list[str]) -> list[str]:
    import difflib

    return difflib.get_close_matches(word, options, n=3, cutoff=0.6)


# -- DNF ---------------------------------------------------------------------------------
def _nnf(node: Node, neg: bool = False) -> Node:
    if isinstance(node, bool):
        return node != neg
    if isinstance(node, Atom):
        if not neg:
            return node
        parts: list[Node] = []
        if node.lo is not None:
            parts.append(Atom(node.feature, None, node.lo - 1))
        if node.hi is not None:
            parts.append(Atom(node.feature, node.hi + 1, None))
        if not parts:
            return False
        return parts[0] if len(parts) == 1 else Op("any", tuple(parts))
    if node.op == "not":
        return _nnf(node.args[0], not neg)
    op = node.op if not neg else ("any" if node.op == "all" else "all")
    return Op(op, tuple(_nnf(a, neg) for a in node.args))


def _dnf(node: Node, source: str) -> list[Term]:
    """Disjunctive normal form: a list of Terms (an empty list is "never")."""
    if isinstance(node, bool):
        return [Term({}, {})] if node else []
    if isinstance(node, Atom):
        lows = {node.feature: node.lo} if node.lo is not None else {}
        highs = {node.feature: node.hi} if node.hi is not None else {}
        return [Term(lows, highs)]
    if node.op == "any":
        out: list[Term] = []
        for a in node.args:
            out.extend(_dnf(a, source))
    else:  # all
        out = [Term({}, {})]
        for a in node.args:
            sub = _dnf(a, source)
            merged = [_merge(x, y) for x in out for y in sub]
            out = [t for t in merged if t is not None]
            if len(out) > MAX_TERMS:
                break
    if len(out) > MAX_TERMS:
        raise ProfileError(f"{source}: the conditions expand to more than {MAX_TERMS} cases; "
                           f"simplify them.")
    return out


def _merge(a: Term, b: Term) -> Term | None:
    lows = dict(a.lows)
    for f, v in b.lows.items():
        lows[f] = max(lows.get(f, 0), v)
    highs = dict(a.highs)
    for f, v in b.highs.items():
        highs[f] = min(highs.get(f, v), v)
    if any(lows[f] > highs[f] for f in lows if f in highs):
        return None
    return Term(lows, highs)


# -- compile -----------------------------------------------------------------------------
def compile_profile(pf: ProfileFile, cards: list[Card], pool: CardPool | None = None,
                    source: str = "profile") -> CompiledProfile:
    """Compile a profile against a deck's Main Deck cards (one Card per copy)."""
    r = _Resolver(pf, cards, pool, source)
    for role in pf.roles:  # every role is a feature (reported), even if no condition uses it
        r.role(role)
    named: dict[str, Node] = {}
    for name, cond in pf.conditions.items():
        named[name] = r.parse(cond, f"conditions.{_key(name)}", pf.conditions, (name,))
    if pf.success is not None:
        success_node = r.parse(pf.success, "success", pf.conditions)
    elif named:
        success_node = Op("all", tuple(named.values()))
    else:
        raise ProfileError(f"{source}: no [conditions] and no success; add at least one "
                           f"condition such as \"starter >= 1\".")
    behaviours: dict[str, tuple[Behaviour, int | None, int | None]] = {}
    for written, b in pf.cards.items():
        path = f"cards.{_key(written)}"
        hit = r.card_name(written, path)
        tgt: int | None = None
        cost: int | None = None
        if b.search:
            tgt = r.target(b.search, f"{path}.search")
        elif b.then_banish:
            tgt = r.target(b.then_banish, f"{path}.then_banish")
        if b.discard_cost:
            cost = r.target(b.discard_cost, f"{path}.discard_cost")
        if hit:
            behaviours[hit] = (b, tgt, cost)
    # classes: cards with the same features and behaviour are interchangeable
    sig_of: dict[str, tuple[frozenset[int], str | None]] = {}
    for name in r.cards:
        feats = frozenset(i for i, f in enumerate(r.features) if name in f.members)
        sig_of[name] = (feats, name if name in behaviours else None)
    counts: dict[str, int] = {}
    for c in cards:
        counts[c.name] = counts.get(c.name, 0) + 1
    by_sig: dict[tuple[frozenset[int], str | None], ClassInfo] = {}
    for name, n in counts.items():
        sig = sig_of[name]
        ci = by_sig.setdefault(sig, ClassInfo(sig[0], sig[1], {}))
        ci.cards[name] = n
    classes = list(by_sig.values())
    for ci in classes:
        ci.label = _label(ci, r.features)
    classes.sort(key=lambda c: (not c.features and c.behaviour is None, c.label))
    class_of_name = {name: i for i, ci in enumerate(classes) for name in ci.cards}
    bmap = {class_of_name[n]: b for n, (b, _, _) in behaviours.items()}
    tmap = {class_of_name[n]: t for n, (_, t, _) in behaviours.items() if t is not None}
    cmap = {class_of_name[n]: c for n, (_, _, c) in behaviours.items() if c is not None}
    conditions = {n: _dnf(_nnf(node), source) for n, node in named.items()}
    success = _dnf(_nnf(success_node), source)
    for term in [*success, *(t for ts in conditions.values() for t in ts)]:
        if len(term.lows) > MAX_LOWER_FEATURES:
            raise ProfileError(f"{source}: one case of the conditions needs more than "
                               f"{MAX_LOWER_FEATURES} different roles at once; simplify it.")
    return CompiledProfile(source=source, overlap=pf.options.overlap, features=r.features,
                           classes=classes, conditions=conditions, success=success,
                           behaviours=bmap, targets=tmap, costs=cmap, notes=r.notes,
                           deck_size=len(cards), class_of_name=class_of_name)


def _label(ci: ClassInfo, features: list[Feature]) -> str:
    if len(ci.cards) == 1:
        return next(iter(ci.cards))
    roles = sorted(features[f].name for f in ci.features if features[f].kind == "role")
    return "+".join(roles) if roles else "other"
