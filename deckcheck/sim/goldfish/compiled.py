"""A profile compiled against one deck: names resolved (`resolve`), cards grouped into
classes, every goal as DNF terms over features, every draw/search card's behaviour settled.
"""

from __future__ import annotations

from typing import Any

from deckcheck.cards.model import Card, Kind
from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import Deck
from deckcheck.errors import ProfileError
from deckcheck.plain import Plain, Value
from deckcheck.sim.goldfish.cardrules import builtin_rules
from deckcheck.sim.goldfish.conditions import (
    Node,
    Op,
    Term,
    all_terms,
    dnf,
    make_atom,
    nnf,
)
from deckcheck.sim.goldfish.keys import key as toml_key
from deckcheck.sim.goldfish.profile import (
    Behaviour,
    ProfileFile,
    behaviour,
)
from deckcheck.sim.goldfish.resolve import Feature, Resolver
from deckcheck.sim.turnrules import DEFAULT_RULES, TurnRules

MAX_LOWER_FEATURES = 10
#: Zones a condition can count besides the hand: feature kind -> block of the hand vector.
ZONES = {"gy": 1, "banished": 2}


class ClassInfo(Plain):
    """Cards of the deck that no condition tells apart: same features, same behaviour."""

    __slots__ = ("features", "behaviour", "cards", "label")

    def __init__(self, features: frozenset[int], behaviour: str | None, cards: dict[str, int],
                 label: str = "") -> None:
        self.features = features
        self.behaviour = behaviour  # card name of the behaviour, if any
        self.cards = cards  # card name -> copies
        self.label = label

    @property
    def size(self) -> int:
        return sum(self.cards.values())


#: Hidden goals of derived rows are named from this prefix (no profile name starts with it).
HIDDEN = "\x00"


class Derived(Value, kw_only=False):
    """A derived row: "given" (P(row | given) = P(row and given) / P(given), `goals` the
    hidden goals of both and of given) or "count" (the expected number of cards of a
    feature in the hand = the sum over j of P(at least j), `goals` those hidden goals)."""

    name: str
    kind: str  # "given" | "count"
    goals: tuple[str, ...]


class CompiledProfile(Plain):
    """A profile compiled against one deck: classes of cards and conditions as DNF terms."""

    __slots__ = ("source", "overlap", "features", "classes", "conditions", "success",
                 "behaviours", "targets", "costs", "notes", "deck_size", "class_of_name",
                 "extra_size", "rules", "seat_success", "small_world", "derived", "hidden")

    def __init__(self, source: str, overlap: bool, features: list[Feature],
                 classes: list[ClassInfo], conditions: dict[str, list[Term]],
                 success: list[Term], behaviours: dict[int, Behaviour],
                 targets: dict[int, int], costs: dict[int, int], notes: list[str],
                 deck_size: int, class_of_name: dict[str, int], extra_size: int = 0,
                 rules: TurnRules = DEFAULT_RULES,
                 seat_success: dict[bool, list[Term]] | None = None,
                 small_world: list[tuple[int, int, tuple[int, ...]]] | None = None,
                 derived: list[Derived] | None = None,
                 hidden: dict[str, list[Term]] | None = None) -> None:
        self.source = source
        self.overlap = overlap
        self.features = features
        self.classes = classes
        #: named condition -> DNF terms; "success" is kept apart.
        self.conditions = conditions
        self.success = success
        self.behaviours = behaviours  # class index -> behaviour
        self.targets = targets  # class index -> feature searched / banished
        self.costs = costs  # class index -> feature of the card discarded as the cost
        self.notes = notes
        self.deck_size = deck_size
        self.class_of_name = class_of_name
        #: Cards in the Extra Deck (the cost of Pot of Prosperity / Extravagance).
        self.extra_size = extra_size
        self.rules = rules
        #: The goal per seat (going_second -> terms) when it differs from `success`.
        self.seat_success = {} if seat_success is None else seat_success
        #: Small World: (revealed class, added class, bridge classes) for monsters of the
        #: deck (each monster its own class when the deck plays Small World).
        self.small_world = [] if small_world is None else small_world
        #: Derived rows (`[rows]`: conditional probabilities, expected counts) ...
        self.derived = [] if derived is None else derived
        #: ... and the hidden goals they are computed from (measured like named conditions).
        self.hidden = {} if hidden is None else hidden

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
    extra_given = extra is not None or isinstance(cards, Deck)
    cards, extra = _main_deck(cards, pool, source, extra)
    r = Resolver(pf, cards, pool, source, strict)
    r.summons = rules.normal_summons
    for role in pf.roles:  # every role is a feature (reported), even if no condition uses it
        r.role(role)
    named, success_node, seat_nodes = _goal_nodes(pf, r, source)
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
    _check_width([*success, *(t for ts in conditions.values() for t in ts),
                  *(t for ts in seat_success.values() for t in ts),
                  *(t for ts in hidden.values() for t in ts)], source)
    r.notes.extend(never_played(bmap, cmap, classes, r.features, extra, len(cards), rules,
                                extra_given))
    return CompiledProfile(source=source, overlap=pf.options.overlap, features=r.features,
                           classes=classes, conditions=conditions, success=success,
                           behaviours=bmap, targets=tmap, costs=cmap, notes=r.notes,
                           deck_size=len(cards), class_of_name=class_of_name,
                           extra_size=extra, rules=rules, seat_success=seat_success,
                           small_world=_small_world(r.cards, classes, class_of_name)
                           if by_name else [], derived=derived, hidden=hidden)


def _main_deck(cards: list[Card] | Deck, pool: CardPool | None, source: str,
               extra: int | None) -> tuple[list[Card], int]:
    """The Main Deck cards (a `Deck` dealt with `pool`) and the Extra Deck's size (`extra`
    when given, else a Deck's real one, else 0)."""
    if isinstance(cards, Deck):
        from deckcheck.sim.state import deal_cards

        if pool is None:
            raise ProfileError(f"{source}: compiling a profile against a Deck needs the card "
                               f"pool to deal it; pass pool.")
        cards, extra_cards = deal_cards(cards, pool)
        extra = len(extra_cards) if extra is None else extra
    return cards, extra or 0


def _goal_nodes(pf: ProfileFile, r: Resolver, source: str
                ) -> tuple[dict[str, Node], Node, dict[bool, Node]]:
    """The named conditions, the success goal and the goal per seat where the profile gives
    one, parsed."""
    named: dict[str, Node] = {}
    for name, cond in pf.conditions.items():
        named[name] = r.parse(cond, f"conditions.{toml_key(name)}", pf.conditions, (name,))
    success_node: Node
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
    return named, success_node, seat_nodes


def _check_width(terms: list[Term], source: str) -> None:
    for term in all_terms(terms):
        if len(term.lows) > MAX_LOWER_FEATURES:
            raise ProfileError(f"{source}: one case of the conditions needs more than "
                               f"{MAX_LOWER_FEATURES} different roles at once; simplify it.")


#: The most copies an expected count counts up to (a hand holds no more by turn 10).
MAX_COUNT = 16


def _derived_rows(pf: ProfileFile, r: Resolver, cards: list[Card]
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


def _behaviours(pf: ProfileFile, r: Resolver
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


def _classes(cards: list[Card], r: Resolver, behaviours: dict[str, Any],
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
