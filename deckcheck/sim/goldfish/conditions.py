"""Conditions as a small tree (`Atom`, `Op`) and their disjunctive normal form (`Term`s).

A condition counts cards of a *feature* (a role, one card, a property such as an Attribute)
in the hand. Its tree is brought to DNF: a list of `Term`s, any of which may hold. A term
has "at least" bounds (`lows`, filled by a matching without overlap), "at most" bounds
(`highs`, every copy counts), "different names" bounds (`distinct`), and negated
sub-conditions (`nots`).

**NOT is the complement of the whole condition** under either overlap mode: ``not X`` holds
exactly when X, evaluated on its own, does not. It is pushed into an atom only where that is
the same thing (``not (brick >= 2)`` is ``brick <= 1``: an "at most" bound counts every copy,
with no matching); otherwise the negated condition is kept whole in `Term.nots`. So
P(X) + P(not X) = 1 for every X.
"""

from __future__ import annotations

import re

from deckcheck.errors import ProfileError
from deckcheck.plain import Plain, Value

MAX_TERMS = 512


class Atom(Value, kw_only=False):
    """A count test on one feature: at least `lo`, at most `hi` (None: no bound)."""

    feature: int
    lo: int | None  # at least
    hi: int | None  # at most
    #: Count different card names of the feature instead of copies.
    distinct: bool = False


class Op(Value, kw_only=False):
    """All / any / not of its arguments."""

    op: str  # "all" | "any" | "not"
    args: tuple[Node, ...]


Node = Atom | Op | bool

#: "NAME OP N". The name is lazy, so "a >= 1" splits as ("a", ">=", "1").
ATOM_RE = re.compile(r"^\s*(.*?)\s*(>=|<=|==|!=|=|>|<)\s*(-?\d+)\s*$")
#: "2 different starters" / "2 different starter".
DIFFERENT_RE = re.compile(r"^\s*(\d+)\s+different\s+(.+?)\s*$", re.IGNORECASE)
OPERATOR_CHARS = set("<>=!")


def bounds(op: str, num: int) -> tuple[int | None, int | None] | None:
    """(at least, at most) for "OP num"; None for "!=" (a negation)."""
    if op in ("=", "=="):
        return num, num
    if op == ">=":
        return num, None
    if op == ">":
        return num + 1, None
    if op == "<=":
        return None, num
    if op == "<":
        return None, num - 1
    return None


def make_atom(feature: int, lo: int | None, hi: int | None, distinct: bool = False) -> Node:
    """An atom, simplified: "at least 0" is no bound; "at most -1" never holds."""
    if hi is not None and hi < 0:
        return False
    return Atom(feature, lo if lo and lo > 0 else None, hi, distinct)


class Term(Plain):
    """One conjunction of the DNF."""

    __slots__ = ("lows", "highs", "distinct", "nots")

    def __init__(self, lows: dict[int, int], highs: dict[int, int],
                 distinct: dict[int, tuple[int | None, int | None]] | None = None,
                 nots: list[list[Term]] | None = None) -> None:
        self.lows = lows
        self.highs = highs
        #: feature -> (at least, at most) different card names (None: no bound).
        self.distinct = {} if distinct is None else distinct
        #: Negated sub-conditions (each in DNF): the term needs every one of them to fail.
        self.nots = [] if nots is None else nots


# -- negation normal form ------------------------------------------------------------------
def nnf(node: Node, neg: bool = False) -> Node:
    """Push a negation down to where it stays a complement: into a copy-counting atom whose
    complement has no "at least" part, and through `any` when every part is such an atom;
    anything else stays `not` (evaluated whole)."""
    if isinstance(node, bool):
        return node != neg
    if isinstance(node, Atom):
        return _negate_atom(node) if neg else node
    if node.op == "not":
        return nnf(node.args[0], not neg)
    if neg:
        # not any(a, b) = all(not a, not b) holds as long as each "not" is a copy count: an
        # "all" is not split (without overlap its parts share one matching)
        if node.op == "any" and all(_negates_to_highs(a) for a in node.args):
            return Op("all", tuple(nnf(a, True) for a in node.args))
        return Op("not", (nnf(node, False),))
    return Op(node.op, tuple(nnf(a, False) for a in node.args))


def _negates_to_highs(node: Node) -> bool:
    """Whether `not node` is a plain "at most" bound (no matching involved)."""
    if isinstance(node, bool):
        return True
    if isinstance(node, Atom):
        return not node.distinct and node.hi is None
    return False


def _negate_atom(a: Atom) -> Node:
    if a.distinct or a.hi is not None:
        return Op("not", (a,))  # kept whole: its complement would need an "at least"
    if a.lo is None:
        return False
    return Atom(a.feature, None, a.lo - 1)


# -- disjunctive normal form ---------------------------------------------------------------
def dnf(node: Node, source: str) -> list[Term]:
    """Disjunctive normal form: a list of Terms (an empty list is "never")."""
    if isinstance(node, bool):
        return [Term({}, {})] if node else []
    if isinstance(node, Atom):
        if node.distinct:
            return [Term({}, {}, {node.feature: (node.lo, node.hi)})]
        lows = {node.feature: node.lo} if node.lo is not None else {}
        highs = {node.feature: node.hi} if node.hi is not None else {}
        return [Term(lows, highs)]
    if node.op == "not":
        inner = dnf(node.args[0], source)
        if not inner:
            return [Term({}, {})]
        return [Term({}, {}, nots=[inner])]
    if node.op == "any":
        out: list[Term] = []
        for a in node.args:
            out.extend(dnf(a, source))
    else:  # all
        out = [Term({}, {})]
        for a in node.args:
            sub = dnf(a, source)
            merged = [merge(x, y) for x in out for y in sub]
            out = [t for t in merged if t is not None]
            if len(out) > MAX_TERMS:
                break
    if len(out) > MAX_TERMS:
        raise ProfileError(f"{source}: the conditions expand to more than {MAX_TERMS} cases; "
                           f"simplify them.")
    return out


def merge(a: Term, b: Term) -> Term | None:
    """Both terms at once; None when they contradict each other."""
    lows = dict(a.lows)
    for f, v in b.lows.items():
        lows[f] = max(lows.get(f, 0), v)
    highs = dict(a.highs)
    for f, v in b.highs.items():
        highs[f] = min(highs.get(f, v), v)
    if any(lows[f] > highs[f] for f in lows if f in highs):
        return None
    distinct = dict(a.distinct)
    for f, (lo, hi) in b.distinct.items():
        lo0, hi0 = distinct.get(f, (None, None))
        lo1 = max(x for x in (lo0, lo) if x is not None) if lo0 is not None or lo is not None \
            else None
        hi1 = min(x for x in (hi0, hi) if x is not None) if hi0 is not None or hi is not None \
            else None
        if lo1 is not None and hi1 is not None and lo1 > hi1:
            return None
        distinct[f] = (lo1, hi1)
    return Term(lows, highs, distinct, [*a.nots, *b.nots])


def all_terms(terms: list[Term]) -> list[Term]:
    """Every term, the negated sub-conditions' terms included."""
    out: list[Term] = []
    for t in terms:
        out.append(t)
        for sub in t.nots:
            out.extend(all_terms(sub))
    return out
