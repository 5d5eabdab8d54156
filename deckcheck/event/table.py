"""Registration tables: one player per row (name / id / deck), in a workbook sheet or a CSV.

A table is recognised by its header row (within the first rows of the sheet or file): it has
a deck column (Deck, Decklist, Deck list, ydke, Passcodes, List…) and a player column
(Player, Name, Player name, First/Last name, Participant…) or an id column (Konami ID, CARD
GAME ID, COSSY ID, Player ID…). A header with card-table words (Count, Qty, Copies, Card,
Section…) is a deck written as a table, not a registration table, and so is a table whose
deck column does not hold decklists (URLs, codes, pasted lists, passcodes). "Deck name",
"Archetype", "Timestamp", "Email" and other columns are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: How many leading rows are searched for the header row (titles may come first).
HEADER_SEARCH_ROWS = 10

_ID_HEADERS = {"konami id", "card game id", "cardgame id", "cossy id", "cossy", "kid",
               "player id", "game id", "id", "konami", "cgid", "konami card game id",
               "konami number", "player number"}
_DECK_WORDS = {"deck", "decklist", "decklists", "ydke", "ydk", "passcodes", "list", "decks"}
_IGNORE_WITH_DECK = {"name", "title", "type", "archetype", "theme", "format"}
_PLAYER_WORDS = {"player", "name", "participant", "duelist", "nickname", "competitor",
                 "username", "handle", "fullname"}
_FIRST = {"first name", "given name", "firstname", "forename", "vorname", "prenom"}
_LAST = {"last name", "surname", "family name", "lastname", "nachname", "nom"}
_DECK_TABLE_WORDS = {"count", "qty", "quantity", "copies", "amount", "section", "card",
                     "cards", "card name", "cardname", "attribute", "atk", "level"}


def _norm(value: Any) -> str:
    text = "" if value is None else str(value)
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.casefold()).split())


@dataclass
class Columns:
    """Column indexes (0-based) of the roles found in a header row."""

    deck: int
    player: list[int] = field(default_factory=list)
    first: int | None = None
    last: int | None = None
    player_id: int | None = None
    headers: list[str] = field(default_factory=list)


def classify(header: str) -> str | None:
    """The role of one header cell: "id", "deck", "player", "first", "last", "card" or None."""
    h = _norm(header)
    if not h:
        return None
    words = set(h.split())
    if h in _ID_HEADERS or ("id" in words and not words & _DECK_WORDS):
        return "id"
    if h in _FIRST:
        return "first"
    if h in _LAST:
        return "last"
    if h in _DECK_TABLE_WORDS or words & {"qty", "quantity", "copies", "count"}:
        return "card"
    if words & _DECK_WORDS:
        if words & _IGNORE_WITH_DECK and not words & {"ydke", "decklist", "list", "passcodes"}:
            return None  # "Deck name", "Deck type", "Deck archetype"
        return "deck"
    if words & _PLAYER_WORDS:
        return "player"
    return None


def header_columns(row: Sequence[Any]) -> Columns | None:
    """The columns of a registration table if `row` is its header row, else None."""
    roles = [classify(v) if isinstance(v, str) else None for v in row]
    if "card" in roles or "deck" not in roles:
        return None
    has_player = any(r in ("player", "first", "last") for r in roles)
    if not has_player and "id" not in roles:
        return None
    # Prefer the most explicit deck column: ydke / decklist over a bare "Deck".
    deck_cols = [i for i, r in enumerate(roles) if r == "deck"]
    deck = deck_cols[0]
    for i in deck_cols:
        if set(_norm(row[i]).split()) & {"ydke", "decklist", "list", "passcodes"}:
            deck = i
            break
    cols = Columns(deck=deck, headers=[_norm(v) if isinstance(v, str) else "" for v in row])
    for i, r in enumerate(roles):
        if r == "player":
            cols.player.append(i)
        elif r == "first" and cols.first is None:
            cols.first = i
        elif r == "last" and cols.last is None:
            cols.last = i
        elif r == "id" and cols.player_id is None:
            cols.player_id = i
    return cols


def find_header(rows: Sequence[Sequence[Any]]) -> tuple[int, Columns] | None:
    """(index of the header row, its columns) within the first rows, or None."""
    for i, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        cols = header_columns(row)
        if cols is not None:
            return i, cols
    return None


_NUMBER = re.compile(r"\d{4,10}")
_CODE = re.compile(r"^[A-Za-z0-9+/=_\-]{24,}$")


def looks_like_deck(text: str) -> bool:
    """Whether a cell's text could be a whole decklist: a ydke:// URL, an Omega code, a
    pasted list over several lines, or several passcodes or items on one line."""
    t = text.strip()
    if not t:
        return False
    if t[:7].lower() == "ydke://" or "\n" in t or _CODE.match(t):
        return True
    return len(_NUMBER.findall(t)) >= 5 or len(re.split(r"[,;]", t)) >= 5


def deck_column_holds_decks(rows: Sequence[Sequence[Any]], cols: Columns,
                            sample: int = 20) -> bool:
    """Whether at least half of the first `sample` filled cells of the deck column look like
    decklists (a table with `Name | Deck` columns holding "main_deck" is a card list)."""
    cells = [t for row in rows if (t := _get(row, cols.deck))][:sample]
    return not cells or 2 * sum(looks_like_deck(t) for t in cells) >= len(cells)


def cell_text(value: Any) -> str:
    """A cell as text: numbers without a trailing ".0", None as ""."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _get(row: Sequence[Any], i: int | None) -> str:
    if i is None or i >= len(row):
        return ""
    return cell_text(row[i])


def player_of(row: Sequence[Any], cols: Columns) -> str | None:
    """The player's name: a name column, or first and last name joined."""
    for i in cols.player:
        name = _get(row, i)
        if name:
            return " ".join(name.split())
    parts = [p for p in (_get(row, cols.first), _get(row, cols.last)) if p]
    return " ".join(" ".join(parts).split()) or None


def player_id_of(row: Sequence[Any], cols: Columns) -> str | None:
    return _get(row, cols.player_id) or None


def deck_of(row: Sequence[Any], cols: Columns) -> str:
    return _get(row, cols.deck)


def is_blank(row: Sequence[Any]) -> bool:
    return all(cell_text(v) == "" for v in row)
