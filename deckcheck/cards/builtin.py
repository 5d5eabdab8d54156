"""The built-in card pool: every card, so deckcheck checks real decks before any import.

Two text files next to this module (inside the package, so a wheel carries them), generated
from real card data by deckcheck's own importers (`deckcheck.cards.build_builtin`; a test
regenerates them and compares):

- `builtin_cards.tsv`: one card a line, sorted by passcode, TAB-separated, the columns of
  `COLUMNS` (an empty cell: nothing known). Facts only, never card texts. Its header names
  each source, its version and the day its data ends, and what the pool covers per family
  of facts (``# covers<TAB>md<TAB>2026-08-22``, `deckcheck.cards.coverage`).
- `builtin_ids.tsv`: the ids that are not a card's own passcode (alternate artworks,
  prerelease ids), sorted: ``id<TAB>passcode<TAB>kind``.
- `builtin_names.tsv`: every name of every card, normalised (`cards.names.normalize`), sorted:
  ``key<TAB>passcode,passcode``.

Reading them costs nothing at start-up: `BuiltinPool.get` finds a passcode, and `find_name` a
name, by bisecting the sorted bytes of the files (a deck parses only its own ~40 lines); the
first look-up by Konami id or rule name or a walk over every card parses every
line once (`MemoryPool`).

`builtin_pool()` is what `deckcheck.cards.load.open_pool` falls back to when no card
database has been imported; an imported store always wins over it.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from deckcheck.cards.model import Card
from deckcheck.cards.names import normalize
from deckcheck.cards.pool import LineSuggester, MemoryPool, PoolInfo
from deckcheck.cards.suggest import NameLines
from deckcheck.errors import CardPoolError

CARDS_FILE = "builtin_cards.tsv"
IDS_FILE = "builtin_ids.tsv"
NAMES_FILE = "builtin_names.tsv"
#: the languages `builtin_names.tsv` indexes (with the English name)
NAME_LANGS = ("en", "ja", "zh-CN", "zh-TW", "ko")
#: `builtin_cards.tsv`'s columns. `alt`: alternate-artwork passcodes; `rule_name`: the name
#: the card counts as, when not its own; `stars`: level, rank or link rating (by frame);
#: `released`: first release per region ("tcg=2002-03-08,ocg=…"); `master_duel`: "yes" or
#: "no" and the sources that say so ("yes:yaml-yugi+ygojson"), empty when none says;
#: `cns`: "1" when the card cannot be Normal Summoned/Set.
COLUMNS = (
    "passcode", "alt", "konami", "kind", "frame", "name", "ja", "zh-CN", "zh-TW", "ko",
    "rule_name", "types", "stars", "scale", "attribute", "race", "atk/def", "scopes",
    "released", "master_duel", "cns",
)
_LANGS = ("ja", "zh-CN", "zh-TW", "ko")
_N = len(COLUMNS)


class BuiltinDataError(CardPoolError):
    """The built-in card file is malformed (a packaging bug, not a user error)."""


def released_cell(released: Mapping[str, str | dt.date]) -> str:
    """"tcg=2002-03-08,ocg=1999-…": release days by region, in region order."""
    return ",".join(f"{r}={d if isinstance(d, str) else d.isoformat()}"
                    for r, d in sorted(released.items()))


def _ints(cell: str) -> tuple[int, ...]:
    return tuple(map(int, cell.split(","))) if cell else ()


def _int(cell: str) -> int | None:
    return int(cell) if cell else None


def parse_line(line: str, where: str = CARDS_FILE) -> Card:
    """One card from one line of `builtin_cards.tsv`."""
    cells = line.rstrip("\r\n").split("\t")
    if len(cells) != _N:
        raise BuiltinDataError(f"{where}: {len(cells)} columns instead of {_N}; regenerate the "
                               "built-in card file.")
    (passcode, alt, konami, kind, frame, name, *langs) = cells[:10]
    (rule_name, types, stars, scale, attribute, race, atkdef, scopes, released, md,
     cns) = cells[10:]
    try:
        names = {"en": name}
        for lang, n in zip(_LANGS, langs, strict=True):
            if n:
                names[lang] = n
        level = rank = link = None
        if frame.startswith("xyz"):
            rank = _int(stars)
        elif frame == "link":
            link = _int(stars)
        else:
            level = _int(stars)
        atk = defense = None
        if atkdef:
            a, _, d = atkdef.partition("/")
            atk, defense = _int(a), _int(d)
        return Card(
            passcode=int(passcode), alt_passcodes=_ints(alt), konami_id=_int(konami),
            name=name, names=names, kind=kind, frame=frame,
            monster_types=types.split(",") if types else (), level=level, rank=rank,
            link_rating=link, scale=_int(scale), attribute=attribute or None,
            race=race or None, atk=atk, defense=defense,
            released={r: d for r, _, d in (p.partition("=") for p in released.split(","))}
            if released else None,
            master_duel=None if not md else md.startswith("yes"),
            scopes=scopes.split(",") if scopes else (), rule_name=rule_name or name,
            cannot_normal_summon=cns == "1")
    except ValueError as exc:
        raise BuiltinDataError(f"{where}: {exc}; regenerate the built-in card file.") from None


def _package_file(name: str) -> bytes:
    # the package folder on disk (importlib.resources would cost ~10 ms of start-up)
    try:
        return (Path(__file__).parent / name).read_bytes()
    except OSError as exc:
        raise BuiltinDataError(f"The built-in card file {name} cannot be read ({exc.strerror});"
                               " reinstall deckcheck.") from None


def _body(data: bytes) -> int:
    """Where the lines after the `#` header start."""
    at = 0
    while data.startswith(b"#", at):
        at = data.index(b"\n", at) + 1
    return at


def _find(data: bytes, lo: int, key: int | bytes) -> bytes | None:
    """The line of `data[lo:]` (sorted by its first cell: a number, or bytes when `key` is
    bytes) whose first cell is `key`."""
    number = isinstance(key, int)
    hi = len(data)
    while lo < hi:
        mid = (lo + hi) // 2
        start = data.rfind(b"\n", lo, mid) + 1 or lo
        if start < lo:
            start = lo
        end = data.find(b"\n", start)
        if end < 0:
            end = hi
        cell = data[start:data.find(b"\t", start, end)]
        found = int(cell) if number else cell
        if found == key:
            return data[start:end]
        if found < key:  # type: ignore[operator]  # both numbers or both bytes
            lo = end + 1
        else:
            hi = start
    return None


class BuiltinPool:
    """A `CardPool` over the built-in files: passcodes by bisection, everything else from a
    `MemoryPool` of every card, built on first need."""

    def __init__(self, cards: bytes, ids: bytes, names: bytes) -> None:
        self._data, self._ids_data, self._names_data = cards, ids, names
        self._start, self._ids_start = _body(cards), _body(ids)
        self._names_start = _body(names)
        self._cards: dict[int, Card | None] = {}
        self._memory: MemoryPool | None = None
        self._suggester = LineSuggester(NameLines(names, self._names_start), self._all)
        head = cards[:self._start].decode("utf-8").splitlines()
        sources: dict[str, str] = {}
        covers: dict[str, dt.date] = {}
        count = 0
        for line in head:
            cells = line.split("\t")
            if cells[0] == "# source" and len(cells) > 5 and cells[1] != "name":
                sources[cells[1]] = f"{cells[3]} (data ends {cells[5]})"
            elif cells[0] == "# covers" and len(cells) == 3:
                covers[cells[1]] = dt.date.fromisoformat(cells[2])
            elif cells[0] == "# cards" and len(cells) == 2:
                count = int(cells[1])
        self.info = PoolInfo(builtin=True, sources=sources, card_count=count, covers=covers)

    def _line_card(self, line: bytes) -> Card:
        card = parse_line(line.decode("utf-8"))
        self._cards[card.passcode] = card
        return card

    def get(self, passcode: int) -> Card | None:
        try:
            return self._cards[passcode]
        except KeyError:
            pass
        if self._memory is not None:
            card = self._memory.get(passcode)
        elif not isinstance(passcode, int) or passcode < 0:
            return None
        else:
            line = _find(self._data, self._start, passcode)
            card = None
            if line is not None:
                card = self._cards.get(passcode) or self._line_card(line)
            else:
                alias = _find(self._ids_data, self._ids_start, passcode)
                if alias is not None:
                    main = int(alias.split(b"\t")[1])
                    card = self.get(main)
        self._cards[passcode] = card
        return card

    def _all(self) -> MemoryPool:
        if self._memory is None:
            text = self._data[self._start:].decode("utf-8")
            cards = [parse_line(line) for line in text.splitlines()]
            extra = {}
            for line in self._ids_data[self._ids_start:].decode("utf-8").splitlines():
                i, pc, kind = line.split("\t")
                if kind == "prerelease":
                    extra[int(i)] = int(pc)
            self._memory = MemoryPool(cards, self.info, extra_ids=extra)
        return self._memory

    def find_name(self, name: str) -> list[Card]:
        if self._memory is not None:
            return self._memory.find_name(name)
        key = normalize(name)
        line = _find(self._names_data, self._names_start, key.encode("utf-8")) if key else None
        if line is None:
            return []
        cards = [self.get(int(pc)) for pc in line.split(b"\t", 1)[1].split(b",")]
        return [c for c in cards if c is not None]

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """As `MemoryPool.suggest`, from the names file without parsing every card."""
        return self._suggester.suggest(self, name, limit)

    def by_konami_id(self, konami_id: int) -> Card | None:
        return self._all().by_konami_id(konami_id)

    def with_rule_name(self, rule_name: str) -> list[Card]:
        return self._all().with_rule_name(rule_name)

    def preload(self, passcodes: Iterable[int]) -> None:
        """Nothing to do: each look-up is a bisection of the file in memory."""

    def __iter__(self) -> Iterator[Card]:
        return iter(self._all())

    def __len__(self) -> int:
        return self.info.card_count


def builtin_cards() -> list[Card]:
    """Every built-in card, in passcode order."""
    return list(builtin_pool())


@functools.cache
def builtin_pool() -> BuiltinPool:
    """The built-in card pool (read once, then cached)."""
    return BuiltinPool(_package_file(CARDS_FILE), _package_file(IDS_FILE),
                       _package_file(NAMES_FILE))
