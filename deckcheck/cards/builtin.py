"""The built-in card pool: every card, so deckcheck checks real decks before any import.

Files next to this module (inside the package, so a wheel carries them), generated from real
card data by deckcheck's own importers (`deckcheck.cards.build_builtin`; a test regenerates
them and compares):

- `builtin_cards.tsv`: one card a line, sorted by passcode, TAB-separated, the columns of
  `COLUMNS` (an empty cell: nothing known). Facts only, never card texts. Its header names
  each source, its version and the day its data ends, and what the pool covers per family
  of facts (``# covers<TAB>md<TAB>2026-08-22``, `deckcheck.cards.coverage`).
- `builtin_ids.tsv`: the ids that are not a card's own passcode (alternate artworks,
  prerelease ids), sorted: ``id<TAB>passcode<TAB>kind``.
- `builtin_names.tsv`: every name of every card, normalised (`cards.names.normalize`), sorted:
  ``key<TAB>passcode,passcode``.
- `builtin_facts.tsv`: each card's compact facts, what a check reads (`compact.stored_facts`,
  the store's form), one card a line in the cards file's order: ``passcode<TAB>facts``
  (`facts_text`, made from the cards file).
- `builtin_cards.idx`: where each card's line starts in the cards file and in the facts file,
  by passcode (`index_bytes`: binary, made from both; a pool checks it against the files, and
  each line it finds through it, and makes the index itself when it does not fit; a facts file
  that does not fit is left for the cards lines).

Reading them costs nothing at start-up: the files are mapped into memory (`mmap`: only the
pages a look-up touches are read, where reading the 7 MB cost `deckcheck check` ~4 ms), the
ids and names files only when first needed; `BuiltinPool.get` finds a passcode, and
`find_name` a name, by bisecting the sorted bytes of the files (a deck reads only its own
~40 facts lines; after `_SHIPPED_BISECTIONS` finds, a run over many decks, it finds lines
through the shipped index, read once); the first look-up by Konami id or
rule name, a suggestion or a walk over every card parses every line once (`MemoryPool`). A
card found by passcode is built from its line of the facts file (`compact.card_from_row`, as
a store's card: ~4 µs where parsing its cards line cost ~15) and fills in the rest from its
cards line when first read.

`builtin_pool()` is what `deckcheck.cards.load.open_pool` falls back to when no card
database has been imported; an imported store always wins over it.
"""

from __future__ import annotations

import datetime as dt
import enum
import functools
import os
import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping
from itertools import accumulate
from typing import TYPE_CHECKING, Final

from deckcheck.cards.compact import card_from_row, released_days, stored_facts
from deckcheck.cards.model import Card
from deckcheck.cards.names import normalize
from deckcheck.cards.pool import LineSuggester, MemoryPool, PoolInfo
from deckcheck.cards.suggest import NameLines
from deckcheck.errors import CardPoolError

if TYPE_CHECKING:
    import mmap

    #: A file's bytes: read (`bytes`) or mapped (`mmap.mmap`, sliced into bytes).
    Buffer = bytes | mmap.mmap

CARDS_FILE = "builtin_cards.tsv"
INDEX_FILE = "builtin_cards.idx"
FACTS_FILE = "builtin_facts.tsv"
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
            released=released_days(released),
            master_duel=None if not md else md.startswith("yes"),
            scopes=scopes.split(",") if scopes else (), rule_name=rule_name or name,
            cannot_normal_summon=cns == "1")
    except ValueError as exc:
        raise BuiltinDataError(f"{where}: {exc}; regenerate the built-in card file.") from None


def line_facts(line: str) -> str:
    """A cards file line's compact facts (`compact.stored_facts`: what a check reads, as a
    store keeps them), for the facts file."""
    card = parse_line(line)
    return stored_facts({
        "kind": card.kind.value, "frame": card.frame.value, "alt_passcodes": card.alt_passcodes,
        "scopes": card.scopes, "released": card.released, "name": card.name,
        "rule_name": card.rule_name})


def facts_text(cards: str) -> str:
    """The facts file of the cards file's text `cards`: a header, then each card's line
    ``passcode<TAB>facts`` (`line_facts`), in the cards file's order."""
    lines = [line for line in cards.splitlines() if line and line[0] != "#"]
    head = (f"# deckcheck built-in card pool: each card's compact facts (what a check reads, "
            f"as a store keeps them), one card a line in the order of {CARDS_FILE}, made from "
            "it by `python -m deckcheck.cards.build_builtin`; do not edit by hand.\n"
            "# passcode\tfacts\n")
    return head + "".join(line.split("\t", 1)[0] + "\t" + line_facts(line) + "\n"
                          for line in lines)


def _package_path(name: str) -> str:
    # the package folder on disk (importlib.resources would cost ~10 ms of start-up)
    return os.path.join(os.path.dirname(__file__), name)


def _cannot_read(name: str, exc: OSError) -> BuiltinDataError:
    return BuiltinDataError(f"The built-in card file {name} cannot be read ({exc.strerror}); "
                            "reinstall deckcheck.")


def _package_file(name: str) -> bytes:
    """The bytes of the package's file `name`."""
    try:
        with open(_package_path(name), "rb") as f:
            return f.read()
    except OSError as exc:
        raise _cannot_read(name, exc) from None


def _package_map(name: str) -> Buffer:
    """The package's file `name` mapped into memory, read-only (its bytes when it cannot be
    mapped: an empty file)."""
    import mmap

    try:
        with open(_package_path(name), "rb") as f:
            try:
                return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except (ValueError, OSError):  # empty, or a file system that cannot map
                return f.read()
    except OSError as exc:
        raise _cannot_read(name, exc) from None


def _body(data: Buffer) -> int:
    """Where the lines after the `#` header start."""
    at = 0
    while data[at:at + 1] == b"#":
        end = data.find(b"\n", at)
        if end < 0:
            return len(data)
        at = end + 1
    return at


def line_index(data: Buffer, start: int, name: str = CARDS_FILE
               ) -> tuple[array[int], array[int]]:
    """The passcode of each line of the file `name`'s bytes `data` from `start` (its body),
    and where the line starts: two arrays, in file order (the file is sorted by passcode)."""
    lines = data[start:].split(b"\n")
    if lines and not lines[-1]:
        lines.pop()  # the file's last line end
    try:
        codes = [int(line[:line.find(b"\t")]) for line in lines]
    except ValueError:
        raise BuiltinDataError(f"{name} holds a line that is not a card; reinstall "
                               "deckcheck.") from None
    starts = list(accumulate([len(line) + 1 for line in lines[:-1]], initial=start))
    return array("q", codes), array("q", starts)


def index_bytes(cards: bytes, facts: bytes) -> bytes:
    """The index file of the cards file's bytes `cards` and the facts file's `facts` (whose
    lines follow the cards file's): both files' lengths, every line's passcode, where each
    line starts in the cards file, then in the facts file, as little-endian 64-bit integers."""
    codes, starts = line_index(cards, _body(cards))
    fact_starts = _facts_following(facts, _body(facts), codes)
    if fact_starts is None:
        raise BuiltinDataError(f"{FACTS_FILE} does not follow {CARDS_FILE} line for line; "
                               "regenerate the built-in card files.")
    out = array("q", [len(cards), len(facts)]) + codes + starts + fact_starts
    if sys.byteorder == "big":
        out.byteswap()
    return out.tobytes()


def _fits(data: Buffer, codes: array[int], starts: array[int]) -> bool:
    """Whether the first, middle and last line of `data` start where `starts` says, with
    their passcodes."""
    n = len(codes)
    for i in (0, n // 2, n - 1):
        head = b"%d\t" % codes[i]
        if data[starts[i]:starts[i] + len(head)] != head:
            return False
    return True


def _facts_following(facts: Buffer, start: int, codes: array[int]) -> array[int] | None:
    """Where each line of the facts file (its bytes `facts`, body from `start`) starts, when
    its lines follow the cards file's passcodes `codes` one for one; else None."""
    try:
        fact_codes, fact_starts = line_index(facts, start, FACTS_FILE)
    except BuiltinDataError:
        return None
    return fact_starts if fact_codes == codes else None


def read_index(raw: bytes, cards: Buffer, start: int, facts: tuple[Buffer, int] | None = None
               ) -> tuple[array[int], array[int], array[int] | None] | None:
    """The index in `raw` (`index_bytes`) when it fits the cards file's bytes `cards` (body
    from `start`): its length, and the first, middle and last line where it says; else None.
    With it, where each facts line starts when it fits the facts file `facts` (its bytes and
    body) too, else None."""
    n, odd = divmod(len(raw) - 16, 24)
    if n < 1 or odd:
        return None
    numbers = array("q")
    numbers.frombytes(raw)
    if sys.byteorder == "big":
        numbers.byteswap()
    codes, starts, fact_starts = numbers[2:n + 2], numbers[n + 2:2 * n + 2], numbers[2 * n + 2:]
    if numbers[0] != len(cards) or starts[0] != start or not _fits(cards, codes, starts):
        return None
    fits = facts is not None and numbers[1] == len(facts[0]) and fact_starts[0] == facts[1] \
        and _fits(facts[0], codes, fact_starts)
    return codes, starts, fact_starts if fits else None


#: How many steps of each bisection `_find` remembers (the cards file takes ~22 steps).
_REMEMBERED = 12
#: How many lines (cards or facts) a pool finds by bisection before it indexes the files
#: (`BuiltinPool._bisecting`).
_BISECTIONS = 2_000
#: The same, for a pool with the shipped index file: reading it (0.37-0.46 ms) costs what
#: ~25-40 bisections do (1.1-1.3 ms a hundred); one deck's cards (~40) stay under this.
_SHIPPED_BISECTIONS = 64


class _Answer(enum.Enum):
    """`_facts_row`'s answer besides the facts (text) and None."""

    NO_CARD = "no card's own passcode"


#: `_facts_row`'s answer for a passcode that is no card's own (compared by identity).
_NO_CARD: Final = _Answer.NO_CARD
#: A bisection's probe of a file: the line around a byte position (start, end, first cell).
Probe = tuple[int, int, "int | bytes"]


def _line_at(data: Buffer, begin: int) -> bytes:
    """The line of `data` that starts at `begin`, without its line end."""
    end = data.find(b"\n", begin)
    return data[begin:end if end >= 0 else len(data)]


def _find(data: Buffer, lo: int, key: int | bytes,
          probes: dict[int, Probe] | None = None) -> bytes | None:
    """The line of `data[lo:]` (sorted by its first cell: a number, or bytes when `key` is
    bytes) whose first cell is `key`. `probes` remembers the line met at each position
    bisected in the first `_REMEMBERED` steps: every look-up's bisection starts at the same
    positions (the middle, the quarters…), so later look-ups read only the last few lines
    afresh (at most 2**_REMEMBERED probes are kept)."""
    number = isinstance(key, int)
    hi = len(data)
    depth = 0
    while lo < hi:
        mid = (lo + hi) // 2
        depth += 1
        probe = probes.get(mid) if probes is not None and depth <= _REMEMBERED else None
        if probe is None:
            # the line holding `mid` (`lo` is always a line start, so the line's start does
            # not depend on `lo`, nor its end on `hi`: a probe holds for every look-up)
            start = data.rfind(b"\n", lo, mid) + 1 or lo
            if start < lo:
                start = lo
            end = data.find(b"\n", start)
            if end < 0:
                end = hi
            cell = data[start:data.find(b"\t", start, end)]
            probe = start, end, int(cell) if number else cell
            if probes is not None and depth <= _REMEMBERED:
                probes[mid] = probe
        start, end, found = probe
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

    def __init__(self, cards: Buffer, ids: Buffer | None = None,
                 names: Buffer | None = None, index: str | None = None,
                 facts: str | None = None) -> None:
        """The pool over the bytes of the cards, ids and names files (read or mapped);
        `ids` and `names` None: the package's own, mapped when first needed. `index`: the
        package's file holding the cards and facts files' index (`index_bytes`), read when
        first needed. `facts`: the package's facts file (`facts_text`), mapped when first
        needed; without it (or when it does not fit the cards file) each card is parsed from
        its cards line."""
        self._data = cards
        self._index_file = index
        self._facts_file = facts
        #: the facts file's bytes and where its lines start, once mapped
        self._facts: tuple[Buffer, int] | None = None
        #: the facts file's and the ids file's bisection probes (`_find`)
        self._fact_probes: dict[int, Probe] = {}
        self._id_probes: dict[int, Probe] = {}
        #: where each facts line starts, in `_index`'s order (None: no facts file that fits)
        self._fact_starts: array[int] | None = None
        self._start = _body(cards)
        self._ids: tuple[Buffer, int] | None = None if ids is None else (ids, _body(ids))
        self._names: tuple[Buffer, int] | None = (None if names is None
                                                  else (names, _body(names)))
        self._cards: dict[int, Card | None] = {}
        #: whether `_line_index` was read from the index file (each line it finds is checked)
        self._index_read = False
        #: the cards file's bisection probes (`_find`)
        self._probes: dict[int, Probe] = {}
        #: every card's passcode and where its line starts, sorted (`_index`), once made
        self._line_index: tuple[array[int], array[int]] | None = None
        #: how many lines were found by bisection (`_bisecting`)
        self._bisected = 0
        self._memory: MemoryPool | None = None
        #: "did you mean" from the names file (`LineSuggester`), made on the first suggestion
        self._suggester: LineSuggester | None = None
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

    def _ids_file(self) -> tuple[Buffer, int]:
        """`builtin_ids.tsv`'s bytes and where its lines start."""
        if self._ids is None:
            data = _package_map(IDS_FILE)
            self._ids = data, _body(data)
        return self._ids

    def _names_file(self) -> tuple[Buffer, int]:
        """`builtin_names.tsv`'s bytes and where its lines start."""
        if self._names is None:
            data = _package_map(NAMES_FILE)
            self._names = data, _body(data)
        return self._names

    def _own_card(self, passcode: int) -> Card | None:
        """The card whose own passcode is `passcode` (None: no card's own): built from its
        facts line, else parsed from its cards line (no facts file, one that does not fit or
        cannot be read, and a passcode the facts file does not hold, asked again there)."""
        if self._facts_file is not None:
            try:
                facts = self._facts_row(passcode)
                if facts is _NO_CARD:
                    return None
                if facts is not None:
                    return card_from_row(passcode, facts, self)
            except (ValueError, KeyError):  # a line that is no facts: the cards lines'
                self._facts_file = None
        line = self._line(passcode)
        return None if line is None else parse_line(line.decode("utf-8"))

    def _facts_row(self, passcode: int) -> str | _Answer | None:
        """The facts of the card whose own passcode is `passcode`, from the facts file: by
        bisection for the first finds, as `_line`, then through `_index`. `_NO_CARD` when
        `_index` (the cards file's) holds no such passcode; None when the facts file holds
        no such line (the cards file then says whether a card has it), or cannot say
        (missing, or not the cards file's: the pool then reads cards lines)."""
        facts = self._facts_map()
        if facts is None:
            return None
        data, start = facts
        if self._bisecting():
            found = _find(data, start, passcode, self._fact_probes)
            return None if found is None else found[found.find(b"\t") + 1:].decode("utf-8")
        codes = self._index()[0]
        fact_starts = self._fact_starts
        i = bisect_left(codes, passcode)
        if i == len(codes) or codes[i] != passcode:
            return _NO_CARD if fact_starts is not None else None
        if fact_starts is None:
            return None
        line = _line_at(data, fact_starts[i])
        head = b"%d\t" % passcode
        if not line.startswith(head):  # not the cards file's facts
            self._facts_file = None
            return None
        return line[len(head):].decode("utf-8")

    def _facts_map(self) -> tuple[Buffer, int] | None:
        """The facts file's bytes and where its lines start (None: no such file)."""
        if self._facts is None and self._facts_file is not None:
            try:
                data = _package_map(self._facts_file)
            except BuiltinDataError:
                self._facts_file = None
                return None
            self._facts = data, _body(data)
        return self._facts if self._facts_file is not None else None

    def stored_card(self, passcode: int) -> Card:
        """The full card of a card's own passcode, parsed from its line, not kept (a card of
        `card_from_row` fills itself from it)."""
        line = self._line(passcode)
        if line is None:
            raise BuiltinDataError(f"{CARDS_FILE}: no line for {passcode}; reinstall deckcheck.")
        return parse_line(line.decode("utf-8"))

    def _index(self) -> tuple[array[int], array[int]]:
        """Every card's passcode and where its line starts, sorted by passcode: two arrays,
        read from the package's index file (`index_bytes`) when it fits the cards file, else
        made from it (~15-30 ms, once); a forked process shares them without copying. Where
        each facts line starts (`_fact_starts`) comes with them: from the index file when it
        fits the facts file too, else made from the facts file; a facts file whose lines do
        not follow the cards file's is left."""
        if self._line_index is None:
            facts = self._facts_map()
            shipped = None
            if self._index_file is not None:
                try:
                    shipped = read_index(_package_file(self._index_file), self._data,
                                         self._start, facts)
                except BuiltinDataError:  # no index file: made here
                    pass
            self._index_read = shipped is not None
            codes, starts, fact_starts = shipped or (*line_index(self._data, self._start), None)
            if facts is not None and fact_starts is None:
                fact_starts = _facts_following(*facts, codes)
                if fact_starts is None:
                    self._facts_file = None
            self._line_index, self._fact_starts = (codes, starts), fact_starts
        return self._line_index

    def _bisecting(self) -> bool:
        """Whether the next line is found by bisection (counted), not through `_index`."""
        if self._line_index is not None:
            return False
        self._bisected += 1
        return self._bisected <= (_BISECTIONS if self._index_file is None
                                  else _SHIPPED_BISECTIONS)

    def _line(self, passcode: int) -> bytes | None:
        """The line of the card whose own passcode is `passcode` (None: no card's own). Found
        by bisecting the file's bytes (~10 µs) until `_BISECTIONS` lines were found so, then
        through `_index` (made then: about what that many bisections cost; read from the
        shipped file after `_SHIPPED_BISECTIONS`, what reading it costs), so that a run over
        many decks pays for its ~10,000 different cards at most about twice what the index
        alone would cost, and one deck never pays for the index."""
        if self._bisecting():
            return _find(self._data, self._start, passcode, self._probes)
        codes, starts = self._index()
        i = bisect_left(codes, passcode)
        if i == len(codes) or codes[i] != passcode:
            return None
        data = self._data
        line = _line_at(data, starts[i])
        if not line.startswith(b"%d\t" % passcode):  # a shipped index that does not fit
            if not self._index_read:
                raise BuiltinDataError(f"{CARDS_FILE}: the line of {passcode} is not where "
                                       "the index says; reinstall deckcheck.")
            self._line_index, self._index_read = line_index(data, self._start), False
            return self._line(passcode)
        return line

    def get(self, passcode: int) -> Card | None:
        cards = self._cards
        if passcode in cards:  # (not `try`: a KeyError raised costs more than the test)
            return cards[passcode]
        if self._memory is not None:
            card = self._memory.get(passcode)
        elif not isinstance(passcode, int) or passcode < 0:
            return None
        else:
            card = self._own_card(passcode)
            if card is None:
                alias = _find(*self._ids_file(), passcode, self._id_probes)
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
            ids, start = self._ids_file()
            for line in ids[start:].decode("utf-8").splitlines():
                i, pc, kind = line.split("\t")
                if kind == "prerelease":
                    extra[int(i)] = int(pc)
            self._memory = MemoryPool(cards, self.info, extra_ids=extra)
        return self._memory

    def find_name(self, name: str) -> list[Card]:
        if self._memory is not None:
            return self._memory.find_name(name)
        key = normalize(name)
        line = _find(*self._names_file(), key.encode("utf-8")) if key else None
        if line is None:
            return []
        cards = [self.get(int(pc)) for pc in line.split(b"\t", 1)[1].split(b",")]
        return [c for c in cards if c is not None]

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """As `MemoryPool.suggest`, from the names file without parsing every card."""
        if self._suggester is None:
            self._suggester = LineSuggester(NameLines(*self._names_file()), self._all)
        return self._suggester.suggest(self, name, limit)

    def by_konami_id(self, konami_id: int) -> Card | None:
        return self._all().by_konami_id(konami_id)

    def with_rule_name(self, rule_name: str) -> list[Card]:
        return self._all().with_rule_name(rule_name)

    def preload(self, passcodes: Iterable[int]) -> None:
        """Nothing to do ahead of the look-ups: `get` finds each card's facts line in the
        file in memory (bisecting, then through the index: `_facts_row`) and keeps the card
        it builds."""

    def __iter__(self) -> Iterator[Card]:
        return iter(self._all())

    def __len__(self) -> int:
        return self.info.card_count

    # --- what an event's workers need (`event.run.CachingPool`, `event.jobs`) -------------

    def before_fork(self) -> None:
        """Before worker processes are forked: read the index of the cards and facts files
        now (`_index`), so that every worker finds its cards through the one index instead
        of reading its own."""
        if self._memory is None:
            self._index()

    def reopen(self) -> None:
        """In a forked worker: nothing to reopen (the files are mapped or read into memory,
        and the cards parsed so far stay)."""


def builtin_cards() -> list[Card]:
    """Every built-in card, in passcode order."""
    return list(builtin_pool())


@functools.cache
def builtin_pool() -> BuiltinPool:
    """The built-in card pool (read once, then cached)."""
    return BuiltinPool(_package_map(CARDS_FILE), index=INDEX_FILE, facts=FACTS_FILE)
