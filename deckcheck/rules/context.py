"""`CheckContext`: everything a rule may look at, resolved once per deck.

The engine (`deckcheck.checker`) resolves each passcode of the deck once, works out the
copy-limit key ("rule name") of each card once, and hands every rule the same context. Rules
only read it; a rule adds a notice (not a violation) through `ctx.notice()`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from deckcheck.cards.coverage import past
from deckcheck.cards.model import Kind
from deckcheck.decks.model import Location
from deckcheck.plain import from_fields
from deckcheck.rules.violation import Found

if TYPE_CHECKING:
    from deckcheck.cards.model import Card
    from deckcheck.cards.pool import CardPool
    from deckcheck.decks.model import Deck, Entry, Section
    from deckcheck.formats.model import Banlist, Format


#: A passcode's facts under one format and list: the `Item` fields card, key, place, limit,
#: points, unusual, named.
Facts = tuple["Card | None", str, "str | None", "int | None", int, bool, bool]


#: What a rule returns when the deck gives it nothing to look at: an empty iterator, cheaper
#: than running a generator to its end (it is exhausted from the start, so it can be shared).
NOTHING: Iterator[Found] = iter(())


def where(loc: Location) -> Location | None:
    """The location, or None when nothing is known about where it was written."""
    return loc if loc.known else None


class Item:
    """One deck entry with its card resolved (None when the pool does not know the passcode).

    (The values of this module are plain `__slots__` classes: a dataclass costs `deckcheck
    check` start-up.)"""

    __slots__ = ("section", "entry", "card", "key", "place", "limit", "points", "unusual",
                 "named")

    def __init__(self, section: Section, entry: Entry, card: Card | None, key: str,
                 place: str | None = None, limit: int | None = None, points: int = 0,
                 unusual: bool = False, named: bool = True) -> None:
        self.section = section
        self.entry = entry
        self.card = card
        #: Copy-limit key: the normalised rule name, or "#<passcode>" for an unknown card.
        self.key = key
        #: The deck the card is built into ("main", "extra"; None for tokens, skills,
        #: unknown).
        self.place = place
        #: The strictest list limit naming any passcode of the card (None: not listed).
        self.limit = limit
        #: Points per copy (points formats).
        self.points = points
        #: The card is a Token or Skill, has scopes or release dates, or the passcode written
        #: is not one of its own: only these items can break DC120/DC121/DC402/DC403/DC404.
        self.unusual = unusual
        #: The card's own name is its rule name (or the card is unknown): a list naming that
        #: name already names this card (see `_limits.named_card_limit`).
        self.named = named

    def __repr__(self) -> str:
        return (f"Item({self.section!r}, {self.entry!r}, {self.card!r}, {self.key!r}, "
                f"place={self.place!r}, limit={self.limit!r})")

    @property
    def count(self) -> int:
        return self.entry.count

    @property
    def location(self) -> Location | None:
        loc = self.entry.location  # `where`, inline: this runs for every problem found
        return loc if loc.known else None

    @property
    def label(self) -> str:
        """The card's name, or what was written when the card is unknown."""
        if self.card is not None:
            return self.card.name
        if self.entry.written:
            return self.entry.written
        return str(self.entry.passcode) if self.entry.passcode is not None else "?"


class ListView:
    """A banlist flattened for lookups, built once per list (not per deck)."""

    __slots__ = ("limits", "points", "listed", "group_of")

    def __init__(self, limits: dict[int, int], points: dict[int, int], listed: frozenset[int],
                 group_of: dict[int, list[int]]) -> None:
        self.limits = limits
        self.points = points
        self.listed = listed
        self.group_of = group_of  # passcode -> indexes into banlist.groups

    @classmethod
    def of(cls, banlist: Banlist | None) -> ListView:
        if banlist is None:
            return cls({}, {}, frozenset(), {})
        group_of: dict[int, list[int]] = {}
        for i, g in enumerate(banlist.groups):
            for pc in g.passcodes:
                group_of.setdefault(pc, []).append(i)
        return cls(banlist.limits(), banlist.points(),
                   frozenset(e.passcode for e in banlist.entries), group_of)


def strictest_limit(view: ListView, codes: Iterable[int]) -> int | None:
    best: int | None = None
    for pc in codes:
        lim = view.limits.get(pc)
        if lim is not None and (best is None or lim < best):
            best = lim
    return best


def points_for(view: ListView, codes: Iterable[int]) -> int:
    for pc in codes:
        p = view.points.get(pc)
        if p:
            return p
    return 0


def card_codes(item: Item) -> Iterable[int]:
    """Every passcode under which a list may name this entry's card (written one first)."""
    written = item.entry.passcode
    if written is not None:
        yield written
    if item.card is not None:
        for pc in item.card.all_passcodes:
            if pc != written:
                yield pc


class CheckContext:
    """What the rules look at. The engine fills in, in its one pass over the deck, the summary
    fields below `rows` (sizes, totals per rule name, …) so that a rule with nothing to look
    at returns at once instead of walking the deck again."""

    __slots__ = ("deck", "format", "banlist", "date", "pool", "view", "points_cap", "rows",
                 "notices", "cache", "memo", "sizes", "odd", "dated", "totals", "candidates",
                 "listed", "unnamed", "misplaced", "unknown", "known", "unsure", "_items",
                 "_unusual")

    def __init__(self, *, deck: Deck, format: Format,  # noqa: A002 (the field's name)
                 banlist: Banlist | None, date: dt.date, pool: CardPool, view: ListView,
                 points_cap: int | None, rows: list[tuple[Section, Entry, Facts]],
                 notices: list[str] | None = None, memo: dict[str, object] | None = None,
                 sizes: dict[str, int] | None = None, odd: int = 0, dated: int = 0,
                 totals: dict[str, int] | None = None, candidates: set[str] | None = None,
                 listed: dict[str, int] | None = None, unnamed: set[str] | None = None,
                 misplaced: set[str] | None = None, unknown: int = 0, known: int = 0) -> None:
        self.deck = deck
        self.format = format
        self.banlist = banlist
        self.date = date
        self.pool = pool
        self.view = view
        self.points_cap = points_cap
        #: Each entry with its section and its card's facts (the fields of its `Item`), in
        #: deck order; `items` makes the `Item`s from it when a rule first needs them (most
        #: decks need few or none: see `by_key` and `unknown_items`).
        self.rows = rows
        self.notices: list[str] = [] if notices is None else notices
        #: Values several rules share (computed by the first rule that needs them).
        self.cache: dict[str, object] = {}
        #: Facts that do not depend on the deck (per card or name under this format, list and
        #: date), kept by the `Checker` for all its decks: a rule stores its own under its
        #: CODE.
        self.memo: dict[str, object] = {} if memo is None else memo
        #: Cards per section counted in its size (`counts_in_size`).
        self.sizes: dict[str, int] = {} if sizes is None else sizes
        #: How many entries are `unusual` (Token, Skill, scoped, dated but not out in the
        #: region on the date, written under another id).
        self.odd = odd
        #: How many entries are not `unusual` but dated: out in the format's region on or
        #: before the date (not counted in Master Duel formats, where every dated card is
        #: `unusual`). The other known entries that are not `unusual` have no release dates.
        self.dated = dated
        #: Copies per copy-limit key (main + extra + side), keys in order of first appearance.
        self.totals: dict[str, int] = {} if totals is None else totals
        #: Keys that may break a limit: over the format's copy limit, listed, or a card
        #: treated as another name; a key not here is within every limit
        #: (`_limits.group_limits`).
        self.candidates: set[str] = set() if candidates is None else candidates
        #: Of the candidates: the strictest list limit of any entry per key (keys with one),
        #: and the keys with a card treated as another name; None when the engine did not
        #: work them out (`_limits.group_limits` then looks at every candidate's entries).
        self.listed = listed
        self.unnamed: set[str] = set() if unnamed is None else unnamed
        #: Sections holding a card built into another deck (DC110, DC111).
        self.misplaced: set[str] = set() if misplaced is None else misplaced
        #: Items whose card is unknown, and items whose card is known.
        self.unknown = unknown
        self.known = known
        #: Problems the card data cannot settle on this date (`open_point`), one sentence
        #: each.
        self.unsure: list[str] = []
        self._items: list[Item] | None = None
        self._unusual: list[Item] | None = None

    @property
    def items(self) -> list[Item]:
        """Every entry as an `Item`, in deck order (made once, on first use)."""
        if self._items is None:
            self._items = [Item(s, e, *f) for s, e, f in self.rows]
        return self._items

    @property
    def unusual(self) -> list[Item]:
        """Known cards that are Tokens, Skills, scoped, dated or written under another id."""
        if self._unusual is None:
            if not self.odd:
                self._unusual = []
            elif self._items is not None:
                self._unusual = [i for i in self._items if i.unusual]
            else:  # only these items are made (a deck has a few among dozens of entries)
                self._unusual = [Item(s, e, *f) for s, e, f in self.rows if f[5]]
        return self._unusual

    @property
    def unknown_items(self) -> list[Item]:
        """The items whose card the pool does not know, in deck order."""
        if not self.unknown:
            return []
        if self._items is not None:
            return [i for i in self._items if i.card is None]
        return [Item(s, e, *f) for s, e, f in self.rows if f[0] is None]

    def open_point(self, text: str, at: Item | None = None) -> None:
        """A problem that rests on the absence of a fact on a date past the day the card data
        ends (`deckcheck.cards.coverage`): not an error, but the deck is "could not be fully
        checked" (exit 2) unless it is illegal anyway. `at`: the entry it is about (its
        place starts the sentence)."""
        loc = at.location if at is not None else None
        if loc is not None:
            text = f"{loc}: {text}"
        if text not in self.unsure:
            self.unsure.append(text)

    def past(self, family: str) -> dt.date | None:
        """The day the pool's data of `family` ends, when the date checked is past it."""
        # a pool of the library user's own may have an info without `covers`: complete
        return past(getattr(self.pool.info, "covers", None) or {}, family, self.date)

    def notice(self, text: str) -> None:
        if text not in self.notices:
            self.notices.append(text)

    @property
    def deck_location(self) -> Location | None:
        """Where the deck as a whole comes from (its file), for deck-wide problems."""
        source = self.deck.source or self.deck.name
        return Location(source=source) if source else None

    def counts_in_size(self, item: Item) -> bool:
        """Skill Cards are not part of the Main Deck's size in formats that use them."""
        return not (self.format.skills != "forbidden" and item.card is not None
                    and item.card.kind is Kind.SKILL)

    def size(self, section: Section) -> int:
        return self.sizes.get(section, 0)

    def in_section(self, section: Section) -> Iterator[Item]:
        return (i for i in self.items if i.section == section)

    def by_key(self, keys: set[str] | None = None) -> dict[str, list[Item]]:
        """Items grouped by copy-limit key (rule name), main + extra + side, in deck order;
        only the groups of `keys` when given."""
        groups: dict[str, list[Item]] = {}
        if keys is None:
            for it in self.items:
                groups.setdefault(it.key, []).append(it)
        elif keys and self._items is not None:
            for it in self._items:
                if it.key in keys:
                    groups.setdefault(it.key, []).append(it)
        elif keys:  # only these groups' items are made
            for s, e, f in self.rows:
                if f[1] in keys:
                    groups.setdefault(f[1], []).append(Item(s, e, *f))
        return groups

    def rule_name(self, items: list[Item]) -> str:
        """The copy-limit name of a group of items, for people ("Harpie Lady")."""
        for it in items:
            if it.card is not None:
                return it.card.rule_name
        return items[0].label

    def list_name(self) -> str:
        return self.banlist.name if self.banlist is not None else "no list"

    def limit_of(self, item: Item) -> int | None:
        """The strictest list limit naming any passcode of this entry's card, or None."""
        return item.limit

    def points_of(self, item: Item) -> int:
        """The card's points per copy (0 when unlisted or not a points format)."""
        return item.points


def going_over(items: list[Item], limit: int) -> Item:
    """The entry at which the running count first exceeds `limit` (the last one otherwise)."""
    total = 0
    for it in items:
        total += it.count
        if total > limit:
            return it
    return items[-1]


def others(items: list[Item], at: Item) -> str:
    """" (also at lines 3 and 7)" for the entries besides `at`; "" when there are none."""
    return paren(elsewhere(items, at))


def elsewhere(items: list[Item], at: Item) -> str:
    """"also at lines 3, 7 and 9" (file name dropped when it is `at`'s); "" when none."""
    locs = [loc for it in items if it is not at and (loc := it.location) is not None]
    if not locs:
        return ""
    more = len(locs) - 5
    locs = locs[:5]
    ref = at.location
    same_file = ref is not None and all(
        loc.source == ref.source and loc.line is not None and loc.sheet is None
        and loc.part is None for loc in locs)
    if same_file:
        shown = [str(loc.line) for loc in locs]
        word = "line " if len(locs) == 1 and more <= 0 else "lines "
    else:
        shown, word = [str(loc) for loc in locs], ""
    if more > 0:
        return f"also at {word}{', '.join(shown)} and {more} more"
    if len(shown) == 1:
        return f"also at {word}{shown[0]}"
    return f"also at {word}{', '.join(shown[:-1])} and {shown[-1]}"


def paren(*parts: str) -> str:
    """" (a; b)" from the non-empty parts; "" when all are empty."""
    text = "; ".join(p for p in parts if p)
    return f" ({text})" if text else ""


def make(message: str, at: Item | None = None, *, card: str | None = None,
         count: int | None = None, limit: int | None = None, points: int | None = None,
         cap: int | None = None, section: Section | None = None,
         suggestions: list[str] | None = None, location: Location | None = None,
         with_card: bool = True, passcode: int | None = None) -> Found:
    """What a rule found, pointing at entry `at` (card name, passcode as written, section,
    location); the engine adds the rule's code, name and severity.

    A `card` other than the entry's own comes with `passcode` (None when not given), never
    with the entry's passcode: name and passcode always belong to one card.
    `with_card=False` points at the entry's location only (deck-size problems)."""
    if at is not None:
        if with_card:
            label = at.label
            if card is None or card == label:
                card, passcode = label, at.entry.passcode
        section = section or at.section
        location = location or at.location
    # the fields in `Found`'s order, in one C call (a rule's every finding comes here; a
    # test holds it to the keyword constructor)
    return from_fields(Found, (message, card, passcode, section, location, count, limit,
                               points, cap, tuple(suggestions) if suggestions else ()))


def distinct(items: Iterable[Item]) -> dict[int | str, list[Item]]:
    """Items grouped by card (its main passcode; unknown cards by key), in deck order."""
    out: dict[int | str, list[Item]] = {}
    for it in items:
        k: int | str = it.card.passcode if it.card is not None else it.key
        out.setdefault(k, []).append(it)
    return out


def copies(n: int) -> str:
    return f"{n} cop{'y' if n == 1 else 'ies'}"


_FRAME_LABEL = {
    "normal": "a Normal Monster", "effect": "an Effect Monster", "ritual": "a Ritual Monster",
    "fusion": "a Fusion Monster", "synchro": "a Synchro Monster", "xyz": "an Xyz Monster",
    "link": "a Link Monster", "normal_pendulum": "a Pendulum Monster",
    "effect_pendulum": "a Pendulum Monster", "ritual_pendulum": "a Ritual Pendulum Monster",
    "fusion_pendulum": "a Fusion Pendulum Monster",
    "synchro_pendulum": "a Synchro Pendulum Monster", "xyz_pendulum": "an Xyz Pendulum Monster",
    "spell": "a Spell Card", "trap": "a Trap Card", "token": "a Token", "skill": "a Skill Card",
}


def frame_label(card: Card) -> str:
    """"a Link Monster", "an Effect Monster", "a Spell Card"…"""
    return _FRAME_LABEL.get(card.frame.value, f"a {card.frame.value} card")
