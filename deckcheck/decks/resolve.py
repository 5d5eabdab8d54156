"""What the name-based readers (plain text, CSV, xlsx, Omega) share: counts, section words,
and turning what a player wrote (a name in any language, or a passcode) into an entry or a
`ReadProblem` with the closest names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from deckcheck.cards.names import could_be_name, normalize
from deckcheck.cards.pool import CardPool, narrow_by_name, tell_apart
from deckcheck.decks.model import Deck, Location, ReadProblem, Section
from deckcheck.errors import DeckReadError

MAX_COUNT = 99
#: Passcodes as written: 1 to 10 digits (leading zeros allowed), below 2^32.
_PASSCODE = re.compile(r"[0-9]{1,10}")

_SECTION_WORDS: dict[str, tuple[Section, str | None]] = {}


def _add(section: Section, group: str | None, *words: str) -> None:
    for w in words:
        _SECTION_WORDS[normalize(w)] = (section, group)


_add("main", None, "main", "main deck", "maindeck", "main_deck", "deck", "主卡组", "主卡組",
     "卡组", "メインデッキ", "メイン")
_add("main", "monster", "monster", "monsters", "monster cards", "monster card", "怪兽", "怪獸",
     "怪兽卡", "モンスター", "モンスターカード")
_add("main", "spell", "spell", "spells", "spell cards", "spell card", "magic", "魔法", "魔法卡",
     "魔法カード")
_add("main", "trap", "trap", "traps", "trap cards", "trap card", "陷阱", "陷阱卡", "罠", "罠カード")
_add("extra", None, "extra", "extra deck", "extradeck", "extra_deck", "额外", "额外卡组",
     "額外", "額外牌組", "エクストラデッキ", "エクストラ")
_add("side", None, "side", "side deck", "sidedeck", "side_deck", "sideboard", "副卡组",
     "副卡組", "备牌", "サイドデッキ", "サイド")

#: Words that mark a totals row or line.
TOTAL_WORDS = frozenset(normalize(w) for w in (
    "total", "totals", "sum", "合计", "合計", "总计", "總計", "小计", "小計", "計", "计"))
_CJK_TOTALS = ("合计", "合計", "总计", "總計")
#: The longest text taken for a totals label ("Total number of Monster Cards in the Main
#: Deck: 20" has 49 characters).
MAX_TOTAL_LABEL = 100
_SEPARATORS = frozenset(":：-–—=")
_OPENERS = frozenset("([（【")
_CLOSERS = frozenset(")]）】")
_UNITS = ("cards", "card", "枚", "张", "張")


def split_trailing_count(text: str) -> tuple[str, int | None]:
    """`text` without a trailing count ("Monsters (12)", "Total: 40", "合计 40枚", "x3") and
    the count; (text, None) when there is none.

    Scans backwards once, so it takes linear time on any input (the regular expression it
    replaces, `[\\s:\\-=]*[(]?\\s*[x×]?\\s*\\d{1,3}\\s*(cards?|枚)?\\s*[)]?\\s*$`, took
    quadratic time and more on long runs of spaces, and this gives the same result)."""
    i = len(text)
    while i and text[i - 1].isspace():
        i -= 1
    if i and text[i - 1] in _CLOSERS:
        i -= 1
        while i and text[i - 1].isspace():
            i -= 1
    for end in _unit_ends(text, i):
        j = end
        while j and text[j - 1].isspace():
            j -= 1
        digits_end = j
        while j and digits_end - j < 3 and text[j - 1].isdecimal():
            j -= 1
        if j == digits_end:
            continue
        count = int(text[j:digits_end])
        while j and text[j - 1].isspace():
            j -= 1
        if j and text[j - 1] in "xX×":
            j -= 1
            while j and text[j - 1].isspace():
                j -= 1
        if j and text[j - 1] in _OPENERS:
            j -= 1
        while j and (text[j - 1].isspace() or text[j - 1] in _SEPARATORS):
            j -= 1
        return text[:j], count
    return text, None


def _unit_ends(text: str, i: int) -> list[int]:
    """Where the number may end before position `i`: before a unit word, else at `i`."""
    low = text[max(0, i - 5):i].casefold()
    ends = [i - len(u) for u in _UNITS if low.endswith(u)]
    return ends[:1] + [i]


def section_word(text: str) -> tuple[Section, str | None] | None:
    """("main", "spell") for "Spells (12)", ("extra", None) for "Extra Deck:", else None."""
    t = text.strip()
    if not t or len(t) > 40:
        return None
    key = normalize(t)
    hit = _SECTION_WORDS.get(key)
    if hit is not None:
        return hit
    stripped = split_trailing_count(t)[0]
    if stripped != t:
        return _SECTION_WORDS.get(normalize(stripped))
    return None


def is_total(text: str) -> bool:
    """True for "Total", "Total: 40", "Main Deck total", "Total Monster Cards", "合计 40"
    (not for "Total Defense Shogun"; never for text longer than any totals label)."""
    text = text.strip()
    if len(text) > MAX_TOTAL_LABEL:
        return False
    stripped = split_trailing_count(text)[0]
    key = normalize(stripped)
    if key in TOTAL_WORDS:
        return True
    if key.startswith(_CJK_TOTALS) or key.endswith(_CJK_TOTALS):
        return True
    words = [w for w in re.split(r"[\s:：]+", stripped.casefold()) if w]
    for total, rest in ((words[:1], words[1:]), (words[-1:], words[:-1])):
        if total and normalize(total[0]) in TOTAL_WORDS:
            joined = " ".join(rest)
            if not rest or joined in ("cards", "card", "deck") or section_word(joined):
                return True
    return False


def parse_count(text: str | int | float | None) -> int | str:
    """A copy count, or the reason (a phrase) why it is not one."""
    if isinstance(text, bool):
        return "is not a number"
    if isinstance(text, int):
        n = text
    elif isinstance(text, float):
        if not text.is_integer():
            return "is not a whole number"
        n = int(text)
    else:
        s = (text or "").strip().lower().strip("x×*")
        if re.fullmatch(r"[+-]?[0-9]+", s):
            n = int(s)
        elif re.fullmatch(r"[+-]?[0-9]+\.0*", s):
            n = int(float(s))
        else:
            return "is not a number"
    if n <= 0:
        return "is zero" if n == 0 else "is negative"
    if n > MAX_COUNT:
        return f"is more than {MAX_COUNT}"
    return n


def bad_count(written_count: object, name: str, section: Section | None,
              why: str, location: Location) -> ReadProblem:
    return ReadProblem(kind="bad-count", section=section, written=name,
                       message=f"The count {str(written_count)!r} for {name!r} {why}; write "
                               f"1 to {MAX_COUNT} copies.",
                       location=location)


@dataclass
class Resolver:
    """Turns written names or passcodes into entries, collecting problems."""

    pool: CardPool | None
    problems: list[ReadProblem] = field(default_factory=list)
    #: "Did you mean" searches are slow on a full pool (~0.2 s each): at most this many per
    #: deck, so pasting a page of prose cannot take minutes.
    suggest_budget: int = 25

    def passcode_of(self, written: str) -> int | None:
        s = written.strip()
        if _PASSCODE.fullmatch(s) and int(s) < 2**32:
            return int(s)
        return None

    def lookup(self, written: str) -> int | None | list[str]:
        """The passcode for `written`: int if found; a list of candidate names if ambiguous;
        None if unknown."""
        pc = self.passcode_of(written)
        if pc is not None:
            return pc
        if self.pool is None:
            raise DeckReadError("Reading card names needs a card pool; pass one (or run "
                                "`deckcheck cards update`).")
        if not could_be_name(written):
            return None  # longer than any card name: no lookup (and no normalising) needed
        cards = self.pool.find_name(written)
        if not cards:
            return None
        unique = {c.passcode: c for c in cards}
        if len(unique) == 1:
            return next(iter(unique))
        key = normalize(written)
        exact = [c for c in unique.values() if normalize(c.name) == key]
        if len(exact) == 1:
            return exact[0].passcode
        meant = narrow_by_name(written, exact or list(unique.values()))
        if len(meant) == 1:
            return meant[0].passcode
        return tell_apart(meant)

    def problem(self, written: str, count: int, section: Section | None, location: Location,
                found: list[str] | None) -> ReadProblem:
        if found:
            shown = ", ".join(found[:5])
            return ReadProblem(kind="ambiguous-name", section=section, written=written,
                               count=count, suggestions=tuple(found[:5]),
                               message=f"The name {written!r} fits several cards ({shown}); "
                                       "write the full English name or the passcode.",
                               location=location)
        assert self.pool is not None
        close: tuple[str, ...] = ()
        if self.suggest_budget > 0 and len(written) <= 100:
            self.suggest_budget -= 1
            close = tuple(self.pool.suggest(written))
        hint = f"did you mean {' or '.join(close)}?" if close else \
            "check the spelling or write the passcode."
        return ReadProblem(kind="unknown-name", section=section, written=written, count=count,
                           suggestions=close,
                           message=f"No card is named {written!r}; {hint}",
                           location=location)


def place_by_frame(pool: CardPool | None, passcode: int) -> Section:
    """Main or Extra, by the card's frame (unknown cards go to the Main Deck)."""
    card = pool.get(passcode) if pool is not None else None
    return "extra" if card is not None and card.deck == "extra" else "main"


def unknown_passcodes(deck: Deck, pool: CardPool) -> list[ReadProblem]:
    """One problem per entry whose passcode the pool does not know (for commands that do not
    run the validator, such as `convert`)."""
    out = []
    for sec, e in deck.entries():
        if e.passcode is not None and pool.get(e.passcode) is None:
            out.append(ReadProblem(
                kind="unknown-passcode", section=sec, written=e.written, count=e.count,
                message=f"The card database does not know passcode {e.passcode}; it is kept "
                        "as written.", location=e.location))
    return out
