"""Checking decks: `check()` one deck, `check_many()` many inputs, `Checker` for both.

    >>> from deckcheck import check
    >>> report = check(deck, format="tcg", date=datetime.date(2026, 11, 22))
    >>> report.verdict, [v.code for v in report.violations]

    >>> result = check_many(["a.ydk", "b.txt", "ydke://…"], format="tcg")
    >>> result.exit_code, [o.error for o in result.unreadable]

For many decks under one format use `Checker` (the format, list and rules are prepared once,
and each passcode is looked up in the card pool once for the whole run): `Checker.check`
gives a deck's `Report`, `Checker.check_inputs` a `CheckResult` for files, `-`, ydke:// URLs,
Omega codes and uploaded or pasted decks (`DeckData`), each input's read error kept apart
from the reports.
"""

from __future__ import annotations

import datetime as dt
import os
from collections import OrderedDict
from typing import TYPE_CHECKING, cast

from deckcheck import clock
from deckcheck.cards.model import EXTRA_FRAMES, Kind
from deckcheck.decks.files import DECK_SUFFIXES, stem_suffix
from deckcheck.decks.model import Deck
from deckcheck.errors import BadDate, DeckcheckError, DeckReadError, sentence
from deckcheck.reports.model import Checked, CheckResult, Outcome, Report
from deckcheck.rules import registry
from deckcheck.rules.context import CheckContext, Facts, ListView, points_for, strictest_limit
from deckcheck.rules.violation import Violation

if TYPE_CHECKING:
    from collections.abc import Iterable

    from deckcheck.cards.pool import CardPool
    from deckcheck.decks.model import Entry, Section
    from deckcheck.formats.model import Banlist, Format

#: Among many inputs, files with `DECK_SUFFIXES` are read as decks; any other file (a README
#: beside the decks, a profile) is skipped with the reason. One input is always read.
#: At most this many sample hands per deck (each is a shuffle; more tells nothing new).
MAX_HANDS = 1000


class DeckData:
    """A deck given as content rather than a path: an uploaded file or a pasted list.

    `name` labels it in reports and locations ("upload.ydk", "<pasted>"); its extension, if
    any, helps tell the format when the content does not. An immutable value (equal and
    hashed by name and data). (A plain class: a dataclass costs `deckcheck check` start-up.)
    """

    __slots__ = ("name", "data")
    name: str
    data: bytes

    def __init__(self, name: str, data: bytes) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "data", data)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"DeckData is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"DeckData is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not DeckData:
            return NotImplemented
        return (self.name, self.data) == (other.name, other.data)

    def __hash__(self) -> int:
        return hash((self.name, self.data))

    def __repr__(self) -> str:
        return f"DeckData(name={self.name!r}, data={self.data!r})"

    @classmethod
    def text(cls, text: str, name: str = "<pasted>") -> DeckData:
        return cls(name, text.encode("utf-8"))


Input = str | os.PathLike[str] | DeckData


def check(deck: Deck, format: Format | str = "tcg", date: dt.date | str | None = None, *,
          pool: CardPool | None = None, banlist: Banlist | str | None = None,
          points_cap: int | None = None, select: Iterable[str] | None = None,
          ignore: Iterable[str] | None = None, strict: bool = False) -> Report:
    """Check one deck: every problem under `format`'s list in force on `date` (default today).

    `format` is a `Format` or a format id ("tcg", "ocg", "genesys"…); `banlist` overrides the
    format's list (a `Banlist`, or a list name, format id or list file); `pool` defaults to the
    imported card database (else the built-in set); `select` / `ignore` take rule codes,
    prefixes ("DC2") or names (a list, or one comma-separated string); `strict` makes warnings
    count as illegal. Raises `UnknownFormat`, `UnknownRule`, `BadDate` or `BadOption` for bad
    values, TypeError when `deck` is not a `Deck`.
    """
    if not isinstance(deck, Deck):
        raise TypeError(f"check() takes a Deck, not {type(deck).__name__}; read a file first "
                        "with deckcheck.read_deck(path, pool), or use deckcheck.check_many.")
    return _cached_checker(format, date, pool, banlist, points_cap, select, ignore,
                           strict).check(deck)


#: `check()`'s prepared checkers, most recently used last: a program calling `check()` deck
#: after deck under one format and date reuses the format, list view, rules and each
#: passcode's facts instead of rebuilding them per call. Bounded: at most this many.
_CACHE_SIZE = 8
_CHECKERS: OrderedDict[tuple[object, ...], Checker] = OrderedDict()


def _env(pool: CardPool | None) -> tuple[str | None, ...]:
    """The environment variables that decide which files a `check()` call reads: the list
    files ($DECKCHECK_BANLISTS, else the data folder's: $XDG_DATA_HOME, $HOME), and the card
    database ($DECKCHECK_DB, else the data folder's) when no pool is given. Those that
    decide nothing for this call are not read: each one missing from the environment costs
    `os.environ.get` two `KeyError`s, ~2 µs of a check."""
    get = os.environ.get
    lists = get("DECKCHECK_BANLISTS")
    db = get("DECKCHECK_DB") if pool is None else None
    if lists and (pool is not None or db):
        return lists, db  # the data folder decides nothing
    return lists, db, get("XDG_DATA_HOME"), get("HOME")


def clear_cache() -> None:
    """Forget `check()`'s prepared checkers (`formats.loader.clear_cache` calls this after an
    import wrote new list files: registered with `formats.loader.on_clear` when the first
    checker is prepared)."""
    _CHECKERS.clear()


def _cached_checker(format: Format | str, date: dt.date | str | None, pool: CardPool | None,
                    banlist: Banlist | str | None, points_cap: int | None,
                    select: Iterable[str] | None, ignore: Iterable[str] | None,
                    strict: bool) -> Checker:
    """The `Checker` for these arguments, from `_CHECKERS` when one was made for them.

    Objects (a `Format`, a pool, a `Banlist`) are keyed by identity: the cached checker holds
    them, so their ids cannot be reused while it is cached. Without a pool the key includes
    the card database file's identity (an import replaces the file)."""
    day = parse_date(date)
    if isinstance(select, str):
        select = select.split(",")
    if isinstance(ignore, str):
        ignore = ignore.split(",")
    select = tuple(select) if select is not None else None
    ignore = tuple(ignore) if ignore is not None else None
    store: object = id(pool)
    if pool is None:
        from deckcheck.cards.dbpath import default_db_file

        try:
            st = os.stat(default_db_file())
            store = (st.st_ino, st.st_mtime_ns, st.st_size)
        except OSError:
            store = None
    key = (format if isinstance(format, str) else id(format), day, store,
           banlist if banlist is None or isinstance(banlist, str) else id(banlist),
           points_cap, select, ignore, strict, _env(pool))
    checker = _CHECKERS.get(key)
    if checker is None:
        checker = Checker(format, day, pool=pool, banlist=banlist, points_cap=points_cap,
                          select=select, ignore=ignore, strict=strict)
        from deckcheck.formats.loader import on_clear

        on_clear(clear_cache)  # (before any checker is kept: new list files forget them)
        _CHECKERS[key] = checker
        if len(_CHECKERS) > _CACHE_SIZE:
            _CHECKERS.popitem(last=False)
    else:
        _CHECKERS.move_to_end(key)
    return checker


def check_many(inputs: Iterable[Input], format: Format | str = "tcg",
               date: dt.date | str | None = None, *, pool: CardPool | None = None,
               banlist: Banlist | str | None = None, points_cap: int | None = None,
               select: Iterable[str] | None = None, ignore: Iterable[str] | None = None,
               strict: bool = False, hands: int = 0, seed: int | None = None,
               keep_decks: bool = False) -> CheckResult:
    """Read and check every input (files, "-", ydke:// URLs, Omega codes, `DeckData`): one
    `Outcome` per input in the order given, holding its reports (a workbook may hold several
    decks) or the one sentence saying why it could not be read. See `Checker.check_inputs`.
    Bad options raise as `check()` does; unreadable inputs never raise."""
    return Checker(format, date, pool=pool, banlist=banlist, points_cap=points_cap,
                   select=select, ignore=ignore, strict=strict).check_inputs(
        inputs, hands=hands, seed=seed, keep_decks=keep_decks)


def resolve_format(format: Format | str | None) -> Format:
    if format is None:
        format = "tcg"
    if isinstance(format, str):
        from deckcheck.formats import load_format

        return load_format(format)
    if not hasattr(format, "banlist_at"):
        raise TypeError(f"format must be a format id such as 'tcg' or a Format, not "
                        f"{type(format).__name__}.")
    return format


def parse_date(date: dt.date | str | None) -> dt.date:
    if date is None:
        return clock.today()
    if isinstance(date, dt.date):
        return date
    try:
        return dt.date.fromisoformat(date)
    except (ValueError, TypeError):
        raise BadDate(f"\"{date}\" is not a date; write it as YYYY-MM-DD, e.g. 2026-05-18.")\
            from None


class Checker:
    """A format, list, date, card pool and rule selection, ready to check many decks."""

    def __init__(self, format: Format | str = "tcg", date: dt.date | str | None = None, *,
                 pool: CardPool | None = None, banlist: Banlist | str | None = None,
                 points_cap: int | None = None, select: Iterable[str] | None = None,
                 ignore: Iterable[str] | None = None, strict: bool = False) -> None:
        self.format = resolve_format(format)
        self.date = parse_date(date)
        if isinstance(select, str):
            select = select.split(",")
        if isinstance(ignore, str):
            ignore = ignore.split(",")
        self.rules = registry.selected(select, ignore)
        if points_cap is not None and points_cap < 0:
            from deckcheck.errors import BadOption

            raise BadOption(f"--points-cap must be 0 or more, not {points_cap}; give the "
                            "points a deck may have.")
        if pool is None:
            from deckcheck.cards.load import open_pool

            pool = open_pool(None)
        self.pool = pool
        if isinstance(banlist, (str, os.PathLike)):  # a list name, format id or file
            from deckcheck.formats.loader import find_banlist

            banlist = find_banlist(str(banlist), self.date, pool)
        self.banlist = banlist if banlist is not None else self.format.banlist_at(self.date)
        first = self.format.first_list() if self.banlist is None else None
        if first is not None:
            # A verdict of "legal" that skipped the list could cost a player a game loss:
            # refuse instead of guessing.
            from deckcheck.errors import NoListInForce

            raise NoListInForce(
                f"No {self.format.name} list in force on {self.date.isoformat()} is known to "
                f"deckcheck (the earliest it has is {first.name}, from "
                f"{first.effective.isoformat()}); check the date, or pass --banlist to check "
                "against a list of your choice.")
        self.view = ListView.of(self.banlist)
        self.points_cap = points_cap if points_cap is not None else self.format.points_cap
        self.strict = strict
        #: written passcode -> Item fields (card, key, place, limit, points, unusual), looked up
        #: once per run.
        self._facts: dict[int, Facts] = {}
        #: passcodes whose card is `unusual` only for its release dates and was released in
        #: the format's region on or before the date (not a Master Duel format): not
        #: `unusual`, so that DC402 and the other rules of unusual items skip it; the engine
        #: counts them (`CheckContext.dated`) so that DC402 still knows the deck is dated.
        self._dated: set[int] = set()
        #: what rules work out per card or name, shared by all this checker's decks
        #: (`CheckContext.memo`); bounded by the card pool like `_facts`.
        self._memo: dict[str, object] = {}
        self.notices: list[str] = []
        if self.banlist is None:
            self.notices.append(
                f"No {self.format.name} list was in force on {self.date.isoformat()}, so no "
                f"card limits were checked.")
        if banlist is None:  # the format's own list: say when it is stale or names no pool
            from deckcheck.formats.stale import list_notices

            self.notices += list_notices(self.format, self.banlist, self.date)
        self._uses_points = self.format.list_mode == "points" or bool(self.view.points)
        #: the selected rules that can find anything under this format, list and cap
        self._active = registry.Active(self.rules, self.format, self.banlist,
                                       self.points_cap)

    def context(self, deck: Deck) -> CheckContext:
        """The rules' view of `deck`: each entry with its card, copy-limit key and list facts,
        and, from the same one pass, what the rules would otherwise each work out again
        (sizes, copies per rule name, which keys may break a limit, misplaced cards)."""
        facts = self._facts
        cap = self.format.copies
        skills_count = self.format.skills == "forbidden"  # Skill Cards count in the size
        rows: list[tuple[Section, Entry, Facts]] = []
        add = rows.append
        odd_count = 0
        dated_count = 0
        dated = self._dated
        totals: dict[str, int] = {}
        candidates: set[str] = set()
        listed: dict[str, int] = {}
        unnamed: set[str] = set()
        misplaced: set[str] = set()
        sizes: dict[str, int] = {}
        unknown = 0
        section: Section
        for section, entries in (("main", deck.main), ("extra", deck.extra),
                                 ("side", deck.side)):
            size = 0
            for entry in entries:
                pc = entry.passcode
                f = facts.get(pc)  # type: ignore[arg-type]  # None: no passcode
                if f is None:
                    if pc is not None:  # not looked up yet: all of them, then again
                        return self._looked_up(deck)
                    f = (None, f"?{entry.written or ''}", None, None, 0, False, True)
                add((section, entry, f))
                card, key, place, limit, _, odd, named = f
                count = entry.count
                total = totals.get(key, 0) + count
                totals[key] = total
                if total > cap or limit is not None or not named:
                    candidates.add(key)
                    if limit is not None and limit < listed.get(key, limit + 1):
                        listed[key] = limit
                    if not named:
                        unnamed.add(key)
                if card is None:
                    unknown += 1
                elif place != section and place is not None and section != "side":
                    misplaced.add(section)
                if odd:
                    odd_count += 1
                    if not skills_count and card is not None and card.kind is Kind.SKILL:
                        continue  # not part of the size (`CheckContext.counts_in_size`)
                elif pc in dated:
                    dated_count += 1
                size += count
            sizes[section] = size
        return CheckContext(deck=deck, format=self.format, banlist=self.banlist, date=self.date,
                            pool=self.pool, view=self.view, points_cap=self.points_cap,
                            rows=rows, notices=list(self.notices), memo=self._memo,
                            sizes=sizes, odd=odd_count, dated=dated_count, totals=totals,
                            candidates=candidates,
                            listed=listed, unnamed=unnamed, misplaced=misplaced,
                            unknown=unknown, known=len(rows) - unknown)

    def _looked_up(self, deck: Deck) -> CheckContext:
        """`context(deck)` once every passcode of the deck has its facts (`learn`)."""
        self.learn(e.passcode for e in (*deck.main, *deck.extra, *deck.side))
        return self.context(deck)

    def learn(self, passcodes: Iterable[int | None]) -> None:
        """Look up the facts of the `passcodes` not looked up yet, the cards read from the
        pool in one query: a caller with a batch of decks (an event) learns all their cards
        at once, so that no deck's `context` stops at a card it has not met."""
        facts = self._facts
        written = set(passcodes)
        written.discard(None)
        missing = cast("set[int]", written.difference(facts))
        if not missing:
            return
        pool = self.pool
        pool.preload(missing)  # the store: one query at most
        get, view = pool.get, self.view
        region, day = self.format.region, self.date
        limits, points = view.limits, view.points
        for pc in missing:  # each new passcode's `Facts`: this runs for every card a run meets
            card = get(pc)
            if card is None:
                facts[pc] = None, f"#{pc}", None, limits.get(pc), 0, False, True
                continue
            main, alts, kind = card.passcode, card.alt_passcodes, card.kind
            if alts or pc != main:
                codes = (pc, main, *alts)
                own = pc == main or pc in alts
                limit = strictest_limit(view, codes) if limits else None
                worth = points_for(view, codes) if points else 0
            else:  # most cards: one passcode, written as it is
                own = True
                limit = limits.get(pc)
                worth = points.get(pc) or 0
            odd = kind is Kind.TOKEN or kind is Kind.SKILL
            unusual = bool(odd or card.scopes or not own)
            if not unusual and card.released:
                released = card.released.get(region) if region != "md" else None
                if released is not None and released <= day:
                    self._dated.add(pc)  # dated, and out on the day: nothing for DC402
                else:
                    unusual = True
            facts[pc] = (card, card.rule_key,
                         None if odd else "extra" if card.frame in EXTRA_FRAMES else "main",
                         limit, worth, unusual, card.name == card.rule_name)

    def check(self, deck: Deck, *, label: str | None = None) -> Report:
        """The verdict on one deck; problems in reading order (deck-wide ones first).
        `label` names the deck in the report (default: its file, else its name)."""
        ctx = self.context(deck)
        violations = sorted(registry.run(self._active, deck, ctx), key=_reading_order)
        bad = ("error", "warning") if self.strict else ("error",)
        illegal = any(v.severity in bad for v in violations)
        unsure = ctx.unsure
        points = None
        if self._uses_points:
            points = sum(f[4] * e.count for _, e, f in ctx.rows)
        return Report(
            deck=label or deck.source or deck.name or "<deck>",
            verdict="illegal" if illegal else "unchecked" if unsure else "legal",
            format=self.format.id,
            format_name=self.format.name,
            banlist=self.banlist.name if self.banlist is not None else None,
            date=self.date.isoformat(),
            sizes=dict(ctx.sizes),  # main, extra, side
            points=points,
            cap=self.points_cap if self._uses_points else None,
            violations=violations,
            notices=ctx.notices,
            open_points=unsure,
            pool=pool_used(self.pool) if ctx.unknown or unsure or (deck.problems and any(
                p.kind in _OUTSIDE for p in deck.problems)) else None,
        )

    def check_inputs(self, inputs: Iterable[Input], *, hands: int = 0, seed: int | None = None,
                     keep_decks: bool = False) -> CheckResult:
        """Read and check every input; an input that cannot be read becomes an `Outcome` with
        its one-sentence `error`, and never stops the rest. Among several inputs, a file that
        is not a deck file (README.md beside the decks) is `skipped` with the reason.

        `hands` sample opening hands are dealt from each deck (`seed` makes them repeatable);
        `keep_decks` keeps each deck as read in its `Checked` entry (to show or convert it)."""
        from deckcheck.errors import BadOption

        if hands < 0 or hands > MAX_HANDS:
            raise BadOption(f"--hands must be 0 to {MAX_HANDS}, not {hands}.")
        inputs = list(inputs)
        if sum(1 for i in inputs if isinstance(i, str) and i == "-") > 1:
            raise BadOption("Standard input (-) can be read only once; save the other decks "
                            "to files.")
        result = CheckResult(
            format=self.format.id, format_name=self.format.name,
            banlist=self.banlist.name if self.banlist is not None else None,
            date=self.date.isoformat(), hands=hands, notices=list(self.notices))
        many = len(inputs) > 1
        for source in inputs:
            result.outcomes.append(self.check_input(source, hands=hands, seed=seed,
                                                    keep_decks=keep_decks, among_many=many))
        return result

    def check_input(self, source: Input, *, hands: int = 0, seed: int | None = None,
                    keep_decks: bool = False, among_many: bool = False) -> Outcome:
        """The `Outcome` of one input (see `check_inputs`)."""
        label = source.name if isinstance(source, DeckData) else os.fspath(source)
        outcome = Outcome(source=label)
        if among_many and not isinstance(source, DeckData):
            outcome.skipped = _not_a_deck_file(label)
            if outcome.skipped is not None:
                return outcome
        try:
            decks = _read(source, self.pool)
        except DeckcheckError as exc:  # one unreadable input must not stop the rest
            outcome.error = exc.message
            return outcome
        except OSError as exc:
            outcome.error = sentence(exc)
            return outcome
        for deck in decks:
            name = None
            if len(decks) > 1 and deck.name:  # a workbook's sheets: "book.xlsx [Alice]"
                name = f"{deck.source or deck.name or '<deck>'} [{deck.name}]"
            report = self.check(deck, label=name)
            checked = Checked(report=report, deck=deck if keep_decks else None)
            if hands:
                _deal(checked, deck, self.pool, hands, seed, self.format.hand_size)
            outcome.decks.append(checked)
        return outcome


_reading_order = Violation.sort_key
#: Read problems that mean a card outside the pool (the report then says which pool it used).
_OUTSIDE = frozenset({"unknown-name", "unknown-passcode"})


def pool_used(pool: CardPool) -> str:
    """Which card pool a check used, and how to get cards it does not know: one sentence for
    the first line of a report with cards outside it."""
    info = pool.info
    end = (getattr(info, "covers", None) or {}).get("cards")
    data = f" (card data to {end.isoformat()})" if end is not None else ""
    which = "deckcheck's built-in card pool" if info.builtin else "the imported card database"
    return (f"checked against {which}{data}; for cards it does not know, run `deckcheck cards "
            "update`, or offline `deckcheck cards import FILE`")


def _not_a_deck_file(source: str) -> str | None:
    """Why a path among many inputs is not read as a deck (None: read it)."""
    suffix = stem_suffix(source)[1]
    if source == "-" or suffix in DECK_SUFFIXES or not suffix:
        return None
    if not os.path.isfile(source):
        return None  # a URL, a deck code or a missing file: the reader says which
    return (f"{source} is not a deck file ({suffix}), so it was skipped; name it on its own "
            "to read it as a decklist.")


def _read(source: Input, pool: CardPool) -> list[Deck]:
    from deckcheck.decks.files import read_decks

    if isinstance(source, DeckData):
        decks = read_decks(source.name, pool, data=source.data)
    elif isinstance(source, str):
        decks = read_decks(source, pool)
    else:  # a path object (pathlib is imported already): a file, never a deck code
        from pathlib import Path

        decks = read_decks(source if isinstance(source, Path) else Path(source), pool)
    if not decks:
        raise DeckReadError(f"{source} holds no deck; check that it is a decklist.")
    return decks


def _deal(checked: Checked, deck: Deck, pool: CardPool, n: int, seed: int | None,
          hand_size: int) -> None:
    """`n` sample opening hands of the format's size (Speed Duel: 4) for `--hands`."""
    from deckcheck.sim.draws import opening_hands

    try:
        drawn = opening_hands(deck, pool, n, seed=seed, hand_size=hand_size)
    except DeckcheckError as exc:
        checked.hands_note = exc.message
        return
    checked.hands = [[c.name for c in hand] for hand in drawn]
