"""Shared by the list-limit rules (DC201–DC204): the limit that applies to each rule name."""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.rules.context import (
    NOTHING,
    CheckContext,
    Item,
    elsewhere,
    going_over,
    make,
    paren,
    strictest_limit,
)
from deckcheck.rules.violation import Found


class GroupLimit:
    """One rule name's entries that go over a limit. (A plain class: a dataclass costs
    `deckcheck check` start-up.)"""

    __slots__ = ("key", "items", "total", "listed", "effective", "by", "holder")

    def __init__(self, key: str, items: list[Item], total: int, listed: int | None,
                 effective: int | None, by: Item | None, holder: str | None = None) -> None:
        self.key = key
        self.items = items
        self.total = total
        #: the strictest list limit of any card the deck uses in this group
        self.listed = listed
        #: after "Forbidden counts as Limited" (Traditional)
        self.effective = effective
        #: the entry whose card carries the strictest limit
        self.by = by
        #: the name of the card the list limits ("Harpie Lady")
        self.holder = holder


def named_card_limit(ctx: CheckContext, items: list[Item]) -> tuple[int | None, str | None]:
    """The list limit of the card whose own name is the group's rule name, when the deck uses
    only cards that are *treated as* that name: a list limits a name, so "Harpie Lady" being
    Limited limits Harpie Lady 1, 2 and 3 too."""
    name = ctx.rule_name(items)
    if all(it.card is None or it.card.name == name for it in items):
        return None, None  # the named card itself is in the deck: its limit is already counted
    memo: dict[str, tuple[int | None, str | None]] = ctx.memo.setdefault(  # type: ignore[assignment]
        "named_card_limit", {})
    found = memo.get(name)
    if found is None:
        found = None, None
        for card in ctx.pool.find_name(name):
            if card.name == name:
                found = strictest_limit(ctx.view, card.all_passcodes), card.name
                break
        memo[name] = found
    return found


def group_limits(ctx: CheckContext) -> list[GroupLimit]:
    """One `GroupLimit` per rule name in the deck (main + extra + side) whose copies go over
    a limit: the format's copy limit, or the list's (computed once per deck). A group within
    both limits can break neither DC201 nor DC202-204, so none is built for it: most decks
    have none over."""
    cached = ctx.cache.get("group_limits")
    if cached is not None:
        return cached  # type: ignore[return-value]  # this key always holds list[GroupLimit]
    out: list[GroupLimit] = []
    for key, items in ctx.by_key(_keys_maybe_over(ctx)).items():
        group = _group_limit(ctx, key, items)
        if group is not None:
            out.append(group)
    ctx.cache["group_limits"] = out
    return out


def _keys_maybe_over(ctx: CheckContext) -> set[str]:
    """The keys the engine's pass found over the copy limit, listed or treated as another
    name (any other group is within both limits); of those, when the engine worked out each
    key's strictest limit, only the ones its totals do not show within every limit, so that
    no `Item` is made for the others."""
    keys = ctx.candidates
    if ctx.listed is None or not keys:
        return keys
    cap = ctx.format.copies
    totals, listed_of, unnamed = ctx.totals, ctx.listed, ctx.unnamed
    return {k for k in keys if k in unnamed or totals[k] > cap
            or totals[k] > listed_of.get(k, cap)}


def _group_limit(ctx: CheckContext, key: str, items: list[Item]) -> GroupLimit | None:
    """The `GroupLimit` of one rule name's entries, None when they are within every limit."""
    cap = ctx.format.copies
    listed: int | None = None
    by: Item | None = None
    total = 0
    named = True
    for it in items:
        total += it.entry.count
        lim = it.limit
        if lim is not None and (listed is None or lim < listed):
            listed, by = lim, it
        named = named and it.named
    if named and total <= cap and (listed is None or total <= listed):
        return None  # within every limit (a limit of 0 is 1 for `as_limited`, no lower)
    holder = by.label if by is not None else None
    if not named:  # a card *treated as* another name: that name's limit counts too
        n_limit, n_holder = named_card_limit(ctx, items)
        if n_limit is not None and (listed is None or n_limit < listed):
            listed, by, holder = n_limit, items[0], n_holder
    effective = 1 if listed == 0 and ctx.format.forbidden_as_limited else listed
    if total <= cap and (effective is None or total <= effective):
        return None
    return GroupLimit(key, items, total, listed, effective, by, holder)


def names_note(ctx: CheckContext, g: GroupLimit, at: Item) -> str:
    """" — Harpie Lady 1 ×2 and Harpie Lady ×2 share the name Harpie Lady" when names differ,
    plus where the other entries are."""
    per: dict[str, int] = {}
    for it in g.items:
        label = it.label
        per[label] = per.get(label, 0) + it.entry.count
    note = ""
    if len(per) > 1:
        parts = [f"{name} ×{n}" for name, n in per.items()]
        joined = ", ".join(parts[:-1]) + " and " + parts[-1]
        note = f"{joined} all count as {ctx.rule_name(g.items)}"
    return paren(note, elsewhere(g.items, at))


_WORD = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited"}


def over_limit(ctx: CheckContext, limit: int) -> Iterator[Found]:
    """Violations for groups whose effective list limit is `limit` and whose total exceeds it."""
    groups = group_limits(ctx)
    return _over_limit(ctx, limit, groups) if groups else NOTHING


def _over_limit(ctx: CheckContext, limit: int, groups: list[GroupLimit]) -> Iterator[Found]:
    where = ctx.list_name()
    as_limited = ctx.format.forbidden_as_limited
    for g in groups:
        if g.effective != limit or g.total <= limit or g.by is None:
            continue
        at = going_over(g.items, limit)
        listed_as = _WORD.get(g.listed if g.listed is not None else -1, "limited")
        holder = g.holder or g.by.label
        if g.listed == 0 and as_limited:
            rule = (f"{holder} is Forbidden in {where}, which counts as Limited in "
                    f"{ctx.format.name}: at most 1, the deck has {g.total}")
        elif limit == 0:
            it = "it" if g.total == 1 else f"all {g.total} copies"
            rule = f"{holder} is Forbidden in {where}; remove {it}"
        else:
            rule = f"{holder} is {listed_as} in {where}: at most {limit}, the deck has {g.total}"
        yield make(rule + names_note(ctx, g, at) + ".", at,
                   card=ctx.rule_name(g.items), count=g.total, limit=limit)
