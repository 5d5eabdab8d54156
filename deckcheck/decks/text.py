"""Plain-text decklists, as people paste them into chats, forums and e-mails.

One card per line, with the count written any usual way: `3 Ash Blossom & Joyous Spring`,
`3x …`, `3 x …`, `x3 …`, `… x3`, `… (x3)`, `… (3)`, `… - 3`, or no count (one copy). Every
reading of a line is tried until its name is a card, so "7 Colored Fish" and "Harpie Lady 1"
stay whole names. A passcode may
stand instead of a name; names are looked up in every language the pool knows (English,
Japanese, Chinese…), ignoring case, width and punctuation. Section headers (`Main Deck`,
`Monsters (15)`, `Spell`, `Trap Cards:`, `Extra Deck`, `Side`, `主卡组`, `额外卡组`, `副卡组`,
`メインデッキ`, `エクストラデッキ`, `サイドデッキ`, `モンスター`, `魔法`, `罠`…) switch sections;
Monster/Spell/Trap headers are parts of the Main Deck. Cards listed before any header are
placed by their frame (Fusion/Synchro/Xyz/Link monsters to the Extra Deck, the rest to the Main
Deck), because such lists (e.g. copied from a game client) do not say.

`Player: …`, `Deck name: …`, `Event: …` lines become `meta`; `#` and `//` lines are comments;
"Total" lines are skipped. A name that fits no card becomes a `ReadProblem` with the closest
names; a count of 0, below 0 or over 99 becomes a `bad-count` problem.

Round trips through text canonicalise alternate artworks: the writer writes the card's name,
and a name reads back as the card's own passcode. Cards the pool does not know (or whose
name is shared by several cards) are written as passcodes, so nothing else is lost.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deckcheck.cards.model import Kind
from deckcheck.cards.names import normalize
from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import Deck, Entry, Location, ReadProblem, Section
from deckcheck.decks.resolve import (
    Resolver,
    bad_count,
    is_total,
    parse_count,
    place_by_frame,
    section_word,
)
from deckcheck.decks.source import MAX_ENTRIES, decode_text, split_lines, too_many_entries
from deckcheck.errors import DeckReadError

#: Longer lines are no card line (the longest card names have about 70 characters).
MAX_LINE = 200
#: At most this many problems are listed one by one.
MAX_PROBLEMS = 100

#: The ways a line reads as a count and a name, in the order tried. Count-first patterns
#: (count, then name) are matched forwards. Name-first ones ("Name x3", "Name (x3)") are
#: matched *backwards*, on the reversed line from its end: a lazy name followed by `\s*`
#: (`(.+?)\s*x\s*3`) backtracks over every split of a run of spaces, quadratic in the
#: line (3.0 s CPU for 200 KB of "a (   …   x 3" lines); anchored at the end, each is one
#: pass. `\s*[x×]?\s*` is written `\s*(?:[x×]\s*)?` (the same text, one way to match it).
_COUNT_FIRST = (
    re.compile(r"([+-]?[0-9]{1,4})\s*[x×*]\s*(.+)", re.I),       # 3x Name, 3 x Name
    re.compile(r"([+-]?[0-9]{1,4})\s+(.+)"),                    # 3 Name
    re.compile(r"[x×*]\s*([+-]?[0-9]{1,4})\s+(.+)", re.I),       # x3 Name
)
_NAME_FIRST = (  # reversed: the count (reversed), then what comes before it
    re.compile(r"([0-9]{1,4}[+-]?)\s*[x×*]\s*", re.I),           # Name x3
    re.compile(r"[)\]）]\s*(?:[x×]\s*)?([0-9]{1,4}[+-]?)\s*(?:[x×]\s*)?[(\[（]\s*",
               re.I),                                            # Name (x3)
)
#: Tried only after the whole line failed as a name: "Ash Blossom & Joyous Spring - 3"
#: (reversed too).
_WEAK = re.compile(r"([0-9]{1,2})\s*[-–—:=]\s*")
_BULLET = re.compile(r"^(?:[-•*·>]|\d{1,3}[.)])\s+")
_DECOR = re.compile(r"^[\s#=*\-_~\[\]【】<>|]+|[\s#=*\-_~\[\]【】<>|:：]+$")
_META = re.compile(r"^(player name|player|name|deck name|deck|title|event|tournament|date|"
                   r"country|format|author|created by|konami id|card game id|player id|id)"
                   r"\s*[:：]\s*(.+)$", re.I)
_META_KEYS = {"player name": "player", "player": "player", "name": "player",
              "deck name": "deck_name", "deck": "deck_name", "title": "deck_name",
              "event": "event", "tournament": "event", "date": "date", "country": "country",
              "format": "format", "author": "author", "created by": "created_by",
              "konami id": "player_id", "card game id": "player_id", "player id": "player_id",
              "id": "player_id"}


def read_text(data: bytes | str, pool: CardPool | None, source: str = "", *,
              name: str | None = None) -> Deck:
    """Read a plain-text decklist. Raises DeckReadError only when no line is a card."""
    where = source or "the deck"
    text = decode_text(data, where) if isinstance(data, bytes) else data
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = split_lines(text, where)
    resolver = Resolver(pool)
    deck = Deck(name=name, source=source or None)
    section: Section | None = None
    tried = 0
    headers = 0
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        loc = Location(source=source or None, line=number)
        # a long line is no card: before any other look at it, so no work grows with it
        too_long = len(line) > MAX_LINE
        if not too_long:
            header = section_word(_DECOR.sub("", line)) if len(line) <= 48 else None
            if header is not None:
                section = header[0]
                headers += 1
                continue
            if _no_card(line, resolver, deck.meta):
                continue
            line = _BULLET.sub("", line)
        tried += 1
        if tried > MAX_ENTRIES:
            raise too_many_entries(where)
        if too_long:
            deck.problems.append(ReadProblem(
                kind="bad-line", section=section, written=line[:40] + "...", location=loc,
                message=f"The line is {len(line):,} characters long, too long for a card "
                        "name; it was skipped."))
        else:
            _card_line(line, resolver, section, loc, deck)
    if tried == 0 and headers == 0:
        raise DeckReadError(f"{where} holds no card lines; write one card per line, like "
                            "'3 Ash Blossom & Joyous Spring'.")
    _gather_problems(deck, resolver, source)
    return deck


def _no_card(line: str, resolver: Resolver, meta: dict[str, str]) -> bool:
    """Whether a line is no card line: a comment, a rule of `=-_*~#`, a totals line, or a
    labelled field ("Player: Ann", kept in `meta`) that is no card name."""
    if line.startswith("#") or set(line) <= set("=-_*~#"):
        return True
    field = _META.match(line)
    if field and not _resolves(resolver, line):
        meta.setdefault(_META_KEYS[field.group(1).lower()], field.group(2).strip())
        return True
    return is_total(line)


def _card_line(line: str, resolver: Resolver, section: Section | None, loc: Location,
               deck: Deck) -> None:
    """A card line's entry into the deck, or its problem (unknown name, unreadable count)."""
    got = _parse_line(line, resolver)
    if got is None:
        first = _first_candidate(line)
        resolver.problems.append(resolver.problem(
            first[1], first[0] if isinstance(first[0], int) else 1, section, loc,
            _ambiguous(resolver, first[1])))
        return
    count, written, pc = got
    if isinstance(count, str):
        deck.problems.append(bad_count(written_count(line, written), written, section,
                                       count, loc))
        return
    sec = section if section is not None else place_by_frame(resolver.pool, pc)
    deck.section(sec).append(Entry(passcode=pc, written=written, count=count, location=loc))


def _gather_problems(deck: Deck, resolver: Resolver, source: str) -> None:
    """The reader's and the resolver's problems in line order, the first `MAX_PROBLEMS` one
    by one, then how many more."""
    deck.problems.extend(resolver.problems)
    deck.problems.sort(key=lambda p: p.location.line or 0)
    if len(deck.problems) > MAX_PROBLEMS:
        more = len(deck.problems) - MAX_PROBLEMS
        del deck.problems[MAX_PROBLEMS:]
        deck.problems.append(ReadProblem(
            kind="bad-line", location=Location(source=source or None),
            message=f"{more} more lines could not be read as cards; is this a decklist?"))


def written_count(line: str, name: str) -> str:
    """The count as written on a line (the line without the name)."""
    rest = line.replace(name, " ", 1)
    return rest.strip(" ()[]（）") or line


def _resolves(resolver: Resolver, text: str) -> bool:
    return resolver.pool is not None and bool(resolver.pool.find_name(text))


def _ambiguous(resolver: Resolver, written: str) -> list[str] | None:
    found = resolver.lookup(written)
    return found if isinstance(found, list) else None


def _readings(line: str) -> Iterator[tuple[str, str]]:
    """(count, name) for each way the line reads as a count and a name, in the order tried;
    each costs one pass over the line."""
    for pattern in _COUNT_FIRST:
        m = pattern.fullmatch(line)
        if m:
            yield m.group(1), m.group(2)
    backwards = line[::-1]
    for pattern in _NAME_FIRST:
        got = _name_then(pattern, line, backwards)
        if got is not None:
            yield got


def _name_then(pattern: re.Pattern[str], line: str,
               backwards: str) -> tuple[str, str] | None:
    """(count, name) when `line` ends with what the reversed `pattern` matches and a name
    comes before it."""
    m = pattern.match(backwards)
    if m is None or m.end() >= len(line):
        return None
    return m.group(1)[::-1], line[:len(line) - m.end()]


def _first_candidate(line: str) -> tuple[int | str, str]:
    for count, name in _readings(line):
        return parse_count(count), name.strip()
    return 1, line


def _parse_line(line: str, resolver: Resolver) -> tuple[int | str, str, int] | None:
    """(count or why-not, name as written, passcode) for the first reading of the line whose
    name resolves to one card; None when no reading does."""
    options = [(count, name.strip()) for count, name in _readings(line)]
    options.append(("1", line))
    weak = _name_then(_WEAK, line, line[::-1])
    if weak:
        options.append((weak[0], weak[1].strip()))
    for count, name in options:
        if not name:
            continue
        found = resolver.lookup(name)
        if isinstance(found, int):
            return parse_count(count), name, found
    return None


def write_text(deck: Deck, pool: CardPool | None) -> str:
    """A plain-text list grouped as Monster / Spell / Trap (Main Deck), Extra, Side, with
    counts in the headers and names from the pool (passcodes where a name would not read
    back as the same card)."""
    out: list[str] = []
    if deck.name:
        out.append(f"# {deck.name}")
    groups: dict[str, dict[int, int]] = {"Monster": {}, "Spell": {}, "Trap": {},
                                         "Main Deck": {}, "Extra Deck": {}, "Side Deck": {}}
    for sec, e in deck.entries():
        if e.passcode is None:
            continue
        card = pool.get(e.passcode) if pool is not None else None
        pc = card.passcode if card is not None else e.passcode
        if sec == "main":
            group = {Kind.MONSTER: "Monster", Kind.SPELL: "Spell",
                     Kind.TRAP: "Trap"}.get(card.kind, "Main Deck") if card is not None \
                else "Main Deck"
        else:
            group = "Extra Deck" if sec == "extra" else "Side Deck"
        groups[group][pc] = groups[group].get(pc, 0) + e.count
    for title, cards in groups.items():
        if not cards and title not in ("Extra Deck", "Side Deck"):
            continue
        if out:
            out.append("")
        out.append(f"{title} ({sum(cards.values())})")
        for pc, count in cards.items():
            out.append(f"{count} {_name_for(pc, pool)}")
    return "\n".join(out) + "\n"


def _name_for(passcode: int, pool: CardPool | None) -> str:
    card = pool.get(passcode) if pool is not None else None
    if card is None:
        return str(passcode)
    same = {c.passcode for c in pool.find_name(card.name)} if pool is not None else set()
    if same != {card.passcode} or not normalize(card.name) or section_word(card.name) \
            or is_total(card.name):
        return str(passcode)
    return card.name
