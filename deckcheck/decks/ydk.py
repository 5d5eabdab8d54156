"""`.ydk`: the YGOPro / EDOPro / MDPro3 deck file, one passcode per line.

What real files hold, and what the reader does with it:

- `#created by …` (or nothing) -> `meta["created_by"]`; other `# …` lines are comments;
- `#main`, `#extra`, `!side` start the sections; passcodes before any header count as Main;
  a missing `#extra` or `!side` just means that section is empty;
- blank lines, CRLF, a UTF-8 BOM, text after a passcode (`14558127 --Ash`) are fine;
- MDPro3's extra sections (`#pickup`, `#case`, `#protector`, `#field`, `#grave`, `#stand`,
  `#mate`, `#spare`, `#representative`, `##…`/`###…` lines) and `$12345678$` lines are
  skipped: their ids are not deck cards;
- MDPro3 writes a bare small id (`301322`, no card) as the last line of the Side Deck, directly
  before `#pickup`: in a `#created by MDPro3` file that one line is not a card; it is left out
  and noted in `meta["ignored"]` (line and id), not counted;
- sections are kept as written (an Extra Deck monster under `#main` is the validator's to
  report), and unknown, anime or alternate-artwork passcodes stay entries as written.

The reader needs no card pool and builds entries without validation: it is the hot path of
an event check. Consecutive copies of one passcode become one entry (count n, located at the
first of its lines).

    >>> deck = read_ydk(b"#main\\n14558127\\n14558127\\n#extra\\n!side\\n", "a.ydk")
    >>> deck.main[0].count, str(deck.main[0].location)
    (2, 'a.ydk:2')
"""

from __future__ import annotations

from typing import cast

from deckcheck.decks.model import SECTIONS, Deck, Entry, Location, ReadProblem, Section
from deckcheck.decks.source import MAX_ENTRIES, decode_text, split_lines, too_many_entries
from deckcheck.errors import DeckReadError

#: MDPro3 sections after the Side Deck whose ids are not deck cards.
MDPRO3_SECTIONS = frozenset({"pickup", "case", "protector", "field", "grave", "stand", "mate",
                             "spare", "representative"})
MAX_PASSCODE = 2**32 - 1
#: MDPro3's trailing item before `#pickup` is below this (`301322`); see the module docstring.
MDPRO3_MARKER_MAX = 999_999
#: At most this many unreadable lines are reported one by one.
MAX_LINE_PROBLEMS = 20
#: The fields `read_ydk` sets on each entry and location it builds (see the test that holds
#: them to `Entry.model_fields` and `Location.model_fields`).
ENTRY_FIELDS = ("passcode", "written", "count", "location")
LOCATION_FIELDS = ("source", "line", "sheet", "cell", "part")
_NOT_A_PASSCODE = "is not a passcode (at most 10 digits, below 2^32)"
_NOT_A_LINE = "is neither a passcode nor a section header"
_new = object.__new__
#: What `_directive` says a line that holds no passcode does (besides opening a section).
_OFF, _PICKUP, _CREATED, _BAD = "off", "pickup", "created", "bad"


def read_ydk(data: bytes | str, source: str = "", *, name: str | None = None) -> Deck:
    """Read a `.ydk` file's content. Raises DeckReadError only when the content is no ydk at
    all (no section header and no passcode)."""
    where = source or "the deck"
    text = decode_text(data, where) if isinstance(data, bytes) else data
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = split_lines(text, where)
    src = source or None
    deck = Deck(name=name, source=src)
    meta = deck.meta
    section: Section = "main"
    current = deck.main
    active, seen_header = True, False
    bad: list[tuple[int, Section, str]] = []  # unreadable lines: number, section, why
    entries = 0
    # the entry being read: passcode (-1: none), copies so far, first line, digits as written
    run, count, first, written = -1, 0, 0, ""
    # the text of the line that opened it (None when none is open): a line equal to it is
    # one more copy, with no more work (a third of a real deck's lines)
    prev: str | None = None
    # locals, not globals, in the loop that runs per line
    new, entry, location, top, most = _new, Entry, Location, MAX_PASSCODE, MAX_ENTRIES
    add = current.append
    for number, raw in enumerate(lines, 1):
        if raw == prev:
            count += 1
            continue
        # the passcode the line starts with: most lines are one bare passcode
        digits = raw if raw.isdigit() and raw.isascii() else _digits(raw)
        if digits is None:  # a section header, a comment, a blank or an unreadable line
            kind = _directive(raw)
            if _noted(kind, raw, number, section if active else None, bad, meta):
                continue
            # a section opens or the deck's sections end: the open entry is complete
            if run >= 0:
                add(_entry(run, written, count, src, first))
                if kind is _PICKUP:
                    _drop_mdpro3_marker(section if active else None, current, lines, number,
                                        meta)
            run, prev, active = -1, None, kind in SECTIONS
            if active:
                section = cast(Section, kind)
                current, seen_header = deck.section(section), True
                add = current.append
            continue
        if not active:
            continue
        if not (digits and len(digits) <= 10 and (pc := int(digits)) <= top):
            bad.append((number, section, _NOT_A_PASSCODE))
        elif pc == run:
            count += 1
        else:
            if run >= 0:  # `_entry`, without the call (most entries end here)
                loc = new(location)
                loc.source, loc.line, loc.sheet, loc.cell, loc.part = src, first, None, None, None
                done = new(entry)
                done.passcode, done.written, done.count, done.location = run, written, count, loc
                add(done)
            run = pc
            count = 1
            first = number
            written = digits
            prev = raw
            entries += 1
            if entries > most:
                raise too_many_entries(where)
    if run >= 0:
        current.append(_entry(run, written, count, src, first))
    if not seen_header:
        _refuse_without_cards(deck, where)
    if bad:
        deck.problems = _bad_lines(bad, lines, source)
    return deck


def _refuse_without_cards(deck: Deck, where: str) -> None:
    """A text with no section header is a ydk only when it holds passcodes."""
    if not (deck.main or deck.extra or deck.side):
        raise DeckReadError(f"{where} is not a YDK deck file (no #main, #extra or !side line and "
                            "no passcodes); check the file or name its format.")


def _noted(kind: str | None, raw: str, number: int, section: Section | None,
           bad: list[tuple[int, Section, str]], meta: dict[str, str]) -> bool:
    """Whether a line holding no passcode is done with here (nothing, unreadable or
    `#created by`), not opening or ending a section; `section` is None where lines are
    skipped (after MDPro3's sections)."""
    if kind is _BAD:
        if section is not None:
            bad.append((number, section, _NOT_A_LINE))
    elif kind is _CREATED:
        meta.setdefault("created_by", _created_by(raw))
    return kind is None or kind is _BAD or kind is _CREATED


def _entry(passcode: int, written: str, count: int, source: str | None, line: int) -> Entry:
    """`Entry(passcode=…, location=Location(source=…, line=…))` without the two keyword calls:
    every slot of both plain classes set here (a test holds them to the classes' fields),
    about 3x faster per entry, and entries are most of a read."""
    loc = _new(Location)
    loc.source, loc.line, loc.sheet, loc.cell, loc.part = source, line, None, None, None
    entry = _new(Entry)
    entry.passcode, entry.written, entry.count, entry.location = passcode, written, count, loc
    return entry


def _digits(raw: str) -> str | None:
    """The passcode a line starts with, spaces around it and text after it (`14558127 --Ash`)
    aside; "" when the line starts with a digit but holds no passcode; None when it does not
    start with a digit (blank lines too)."""
    line = raw.strip()
    if not line or not "0" <= line[0] <= "9":
        return None
    if line.isascii() and line.isdigit():
        return line
    end = 1
    while end < len(line) and "0" <= line[end] <= "9":
        end += 1
    rest = line[end]
    return line[:end] if rest.isspace() or rest in "#/-;," else ""


def _directive(raw: str) -> str | None:
    """What a line holding no passcode does: a Section name opens it; `_OFF` ends the deck's
    sections (MDPro3's, `##…`, other `!` lines); `_PICKUP` is MDPro3's `#pickup`; `_CREATED`
    is `#created by …`; `_BAD` is no ydk line; None: nothing (blank, a comment, `$…$`)."""
    line = raw.strip()
    if not line:
        return None
    first, low = line[0], line.lower()
    if first == "#":
        word = low[1:].strip()
        if word == "main" or word == "extra":
            return word
        if word.startswith("created by"):
            return _CREATED
        if word == "pickup":
            return _PICKUP
        return _OFF if low.startswith("##") or word in MDPRO3_SECTIONS else None
    if first == "!":
        return "side" if low[1:].strip() == "side" else _OFF
    return None if first == "$" else _BAD


def _created_by(raw: str) -> str:
    """Who wrote the file, from its `#created by …` line."""
    return raw.strip()[1:].strip()[len("created by"):].strip()


def _bad_lines(bad: list[tuple[int, Section, str]], lines: list[str], source: str
               ) -> list[ReadProblem]:
    """The problems of the unreadable lines: the first `MAX_LINE_PROBLEMS` one by one, then
    how many more."""
    out = []
    for number, section, why in bad[:MAX_LINE_PROBLEMS]:
        line = lines[number - 1].strip()
        shown = line if len(line) <= 40 else line[:37] + "..."
        out.append(ReadProblem(kind="bad-line", message=f"The line {shown!r} {why}; it was "
                               "skipped.", section=section, written=shown,
                               location=Location(source=source or None, line=number)))
    if len(bad) > MAX_LINE_PROBLEMS:
        out.append(ReadProblem(
            kind="bad-line", message=f"{len(bad) - MAX_LINE_PROBLEMS} more lines are neither "
            "passcodes nor section headers and were skipped.", location=Location(source=source)))
    return out


def _drop_mdpro3_marker(section: Section | None, entries: list[Entry], lines: list[str],
                        number: int, meta: dict[str, str]) -> None:
    """`#pickup` on line `number` of an MDPro3 file, right after the entry it ends: the Side
    Deck's last entry, when it is a single bare small id on the line directly above (blank
    lines aside), is MDPro3's marker, not a card."""
    last = entries[-1]
    line, written = last.location.line or 0, last.written
    if section != "side" or meta.get("created_by") != "MDPro3" or last.count != 1 \
            or (last.passcode or 0) > MDPRO3_MARKER_MAX or lines[line - 1].strip() != written \
            or any(lines[i].strip() for i in range(line, number - 1)):
        return
    entries.pop()
    meta["ignored"] = (f"line {line}: {written}, MDPro3's item before #pickup (no card), "
                       "was not counted")


def write_ydk(deck: Deck, *, created_by: str = "deckcheck") -> str:
    """The deck as `.ydk` text: one passcode per copy, `#main`, `#extra`, `!side`.
    Entries without a passcode (names that did not resolve) cannot be written and are left out."""
    out = [f"#created by {created_by}"]
    headers: tuple[tuple[str, Section], ...] = (
        ("#main", "main"), ("#extra", "extra"), ("!side", "side"))
    for header, sec in headers:
        out.append(header)
        for e in deck.section(sec):
            if e.passcode is not None:
                out.extend([str(e.passcode)] * e.count)
    return "\n".join(out) + "\n"
