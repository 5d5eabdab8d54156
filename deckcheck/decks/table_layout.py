"""Where a deck sits in a table: header rows and the blocks of columns they define, or, without
a header row, blocks guessed from what the columns hold (see `decks/tabular.py`).

A header row names quantity, name and passcode columns (and maybe a section column) in any
order and in several languages; one row may define several blocks side by side (Main | Extra
| Side). A block's section comes from its header (`Extra Deck | Qty`) or a title above it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckcheck.cards.names import normalize
from deckcheck.decks.model import Section
from deckcheck.decks.resolve import section_word

_QTY = {normalize(w) for w in ("qty", "quantity", "count", "copies", "amount", "num", "no",
                               "数量", "枚数", "张数", "張数", "數量", "anzahl", "quantité",
                               "qté", "cantidad", "quantità")}
_NAME = {normalize(w) for w in ("name", "card", "card name", "cards", "卡名", "卡片名称", "卡片名",
                                "名称", "名稱", "カード名", "名前", "カード", "nom", "nombre",
                                "kartenname", "nome", "card name (english)")}
_CODE = {normalize(w) for w in ("passcode", "id", "password", "code", "card id", "卡密", "密码",
                                "密碼", "パスワード", "card number", "card code")}
#: Longer than any header word above (with room for spacing): such a cell is data.
_LONGEST_HEADER = 40
_SECTION_COL = {normalize(w) for w in ("section", "deck", "part", "卡组", "牌組", "デッキ",
                                       "区分")}


@dataclass
class Block:
    qty: int | None = None
    name: int | None = None
    code: int | None = None
    section_col: int | None = None
    section: Section | None = None
    #: The Main Deck part the block's title names ("monster" for "Monster Cards"), if any.
    group: str | None = None
    first: int = 0
    last: int = 0

    def roles(self) -> list[int]:
        return [c for c in (self.qty, self.name, self.code, self.section_col) if c is not None]


def _role(value: Any) -> tuple[str, Section | None] | None:
    if not isinstance(value, str):
        return None
    t = value.strip()
    if len(t) > _LONGEST_HEADER:
        return None  # no header word is this long; a long cell is never normalised here
    if t == "#" or t.lower() in ("no.", "nr."):
        return ("qty", None)
    key = normalize(t)
    if key in _QTY:
        return ("qty", None)
    if key in _SECTION_COL:
        return ("section", None)
    if key in _NAME:
        return ("name", None)
    if key in _CODE:
        return ("code", None)
    sec = section_word(t)
    if sec is not None:
        return ("name", sec[0])
    return None


def header_blocks(row: list[Any]) -> list[Block]:
    """The blocks a header row defines (empty if it is no header row)."""
    if not any((role := _role(v)) is not None and role[1] is None for v in row):
        return []  # section words alone ("Spell Card | main_deck") are data, not headers
    good = [b for b in _row_blocks(row) if _usable(b)]
    for b in good:
        b.first, b.last = min(b.roles()), max(b.roles())
    # a lone "Main Deck" title is a section title, not a header; a header needs two roles
    # somewhere in the row (e.g. "Extra Deck | Qty", or "Qty | Name")
    if sum(len(b.roles()) for b in good) < 2:
        return []
    return good


def _row_blocks(row: list[Any]) -> list[Block]:
    """The blocks of a row's header words: a role met twice, or a section word after a name,
    starts the next block."""
    blocks: list[Block] = []
    cur = Block()
    for c, value in enumerate(row):
        role = _role(value)
        if role is None:
            continue
        kind, sec = role
        attr = "section_col" if kind == "section" else kind
        if getattr(cur, attr) is not None or (sec is not None and cur.name is not None):
            if cur.roles():
                blocks.append(cur)
            cur = Block()
        setattr(cur, attr, c)
        if sec is not None:
            cur.section = sec
            cur.group = (section_word(value) or (sec, None))[1]
    if cur.roles():
        blocks.append(cur)
    return blocks


def _usable(b: Block) -> bool:
    """A block names its cards (a name or passcode column) and has a second role or a
    section."""
    if b.name is None and b.code is None:
        return False
    return len(b.roles()) >= 2 or b.section is not None


def infer_blocks(rows: list[list[Any]]) -> list[Block]:
    """Blocks for a table without header row, from the content of its columns."""
    kinds = _column_kinds(rows)
    blocks = []
    used: set[int] = set()
    for c, kind in sorted(kinds.items()):
        if kind not in ("name", "code") or c in used:
            continue
        b = Block(name=c) if kind == "name" else Block(code=c)
        if kinds.get(c + 1) == "code" and kind == "name":
            b.code = c + 1
        b.qty = _qty_beside(kinds, c, b.code, used)
        if b.qty is None and b.code is None:
            continue  # a lone column of text is notes, not a decklist
        used.update(b.roles())
        b.first, b.last = min(b.roles()), max(b.roles())
        blocks.append(b)
    return blocks


def _qty_beside(kinds: dict[int, str], c: int, code: int | None, used: set[int]) -> int | None:
    """The quantity column of a block whose card column is `c`: left of it, or right of it
    (or of its passcode column)."""
    if kinds.get(c - 1) == "qty" and c - 1 not in used:
        return c - 1
    if kinds.get(c + 1) == "qty":
        return c + 1
    if kinds.get(c + 2) == "qty" and code == c + 1:
        return c + 2
    return None


def _column_kinds(rows: list[list[Any]]) -> dict[int, str]:
    """What each column mostly holds: "qty" (small numbers), "code" (long numbers) or "name"
    (text); columns holding none of these are left out."""
    width = max((len(r) for r in rows), default=0)
    kinds: dict[int, str] = {}
    for c in range(width):
        small = big = text = 0
        for row in rows:
            kind = _cell_kind(row[c] if c < len(row) else None)
            small += kind == "qty"
            big += kind == "code"
            text += kind == "name"
        best = max(small, big, text)
        if best >= 1:
            kinds[c] = "qty" if best == small else "code" if best == big else "name"
    return kinds


def _cell_kind(v: Any) -> str | None:
    """"qty" for a small number, "code" for a long one, "name" for text, else None."""
    if v is None:
        return None
    if isinstance(v, int) or (isinstance(v, str) and v.isascii() and v.isdigit()):
        n = int(v)
        if 1 <= n <= 99 and not (isinstance(v, str) and len(v) >= 5):
            return "qty"
        return "code" if n >= 1000 else None
    return "name" if isinstance(v, str) and len(v) >= 2 else None
