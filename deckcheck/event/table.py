"""Registration tables: one player per row (name / id / deck), in a workbook sheet or a CSV.

A table is recognised by its header row (within the first rows of the sheet or file): it has
a deck column (Deck, Decklist, Deck list, ydke, Passcodes, List…) and a player column
(Player, Name, Player name, First/Last name, Participant…) or an id column (Konami ID, CARD
GAME ID, COSSY ID, Player ID…). A header with card-table words (Count, Qty, Copies, Card,
Section…) is a deck written as a table, not a registration table, and so is a table whose
deck column does not hold decklists (URLs, codes, pasted lists, passcodes). "Deck name",
"Archetype", "Timestamp", "Email" and other columns are ignored.

The header words are those organisers use in English, German, French, Italian, Spanish,
Portuguese and Japanese: `HEADER_WORDS`, the one table of them ("Spielername", "Konami-ID",
"Deckliste"; "Nom du joueur", "Liste de deck"; "プレイヤー名", "デッキリスト"…). A header cell
is compared after `_norm`: case, accents, width and punctuation do not matter ("Prénom" is
"prenom", "Konami-ID" is "konami id", "ＩＤ" is "id").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: How many leading rows are searched for the header row (titles may come first).
HEADER_SEARCH_ROWS = 10

#: The words of registration-table headers, by language and role. Roles:
#: "player" a whole name (a cell equal to one of these, or holding one of the one-word ones),
#: "first" / "last" a first or last name (the whole cell), "id" the CARD GAME ID (the whole
#: cell, or any header holding the word "id"), "deck" the decklist column (a cell holding one
#: of the one-word ones, or equal to one), "list" the deck columns preferred when a table has
#: several ("Decklist" over a bare "Deck"), "deck_other" words that make a deck header about
#: something else ("Deck name", "Nom du deck"), "card" headers of a deck written as a table
#: (the whole cell), "count" words of a quantity column (anywhere in a cell).
HEADER_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "player": ("Player", "Name", "Player name", "Participant", "Duelist", "Nickname",
                   "Competitor", "Username", "Handle", "Full name", "Fullname"),
        "first": ("First name", "Given name", "Firstname", "Forename"),
        "last": ("Last name", "Surname", "Family name", "Lastname"),
        "id": ("Konami ID", "CARD GAME ID", "Cardgame ID", "COSSY ID", "COSSY", "KID",
               "Player ID", "Game ID", "ID", "Konami", "CGID", "Konami card game ID",
               "Konami number", "Player number"),
        "deck": ("Deck", "Decklist", "Decklists", "ydke", "ydk", "Passcodes", "List", "Decks"),
        "list": ("Decklist", "ydke", "List", "Passcodes"),
        "deck_other": ("Name", "Title", "Type", "Archetype", "Theme", "Format"),
        "card": ("Count", "Qty", "Quantity", "Copies", "Amount", "Section", "Card", "Cards",
                 "Card name", "Cardname", "Attribute", "ATK", "Level"),
        "count": ("Qty", "Quantity", "Copies", "Count"),
    },
    "de": {
        "player": ("Spieler", "Spielername", "Name des Spielers", "Teilnehmer", "Duellant",
                   "Vollständiger Name"),
        "first": ("Vorname",),
        "last": ("Nachname", "Familienname"),
        "id": ("Konami-ID", "Spieler-ID", "Konami-Nummer", "Kartenspiel-ID"),
        "deck": ("Deck", "Deckliste", "Decks"),
        "list": ("Deckliste",),
        "deck_other": ("Titel", "Typ", "Archetyp", "Thema"),
        "card": ("Anzahl", "Menge", "Karte", "Karten", "Kartenname", "Kopien", "Abschnitt"),
        "count": ("Anzahl", "Menge", "Kopien"),
    },
    "fr": {
        "player": ("Joueur", "Nom du joueur", "Nom et prénom", "Duelliste", "Pseudo",
                   "Participant"),
        "first": ("Prénom",),
        "last": ("Nom", "Nom de famille"),
        "id": ("ID Konami", "Identifiant Konami", "Numéro Konami", "N° Konami", "ID joueur"),
        "deck": ("Deck", "Liste de deck", "Liste du deck", "Decklist", "Liste"),
        "list": ("Liste de deck", "Liste du deck", "Liste"),
        "deck_other": ("Nom", "Titre", "Archétype", "Thème"),
        "card": ("Quantité", "Qté", "Carte", "Cartes", "Nom de la carte", "Exemplaires"),
        "count": ("Quantité", "Qté", "Exemplaires"),
    },
    "it": {
        "player": ("Giocatore", "Nome giocatore", "Nome del giocatore", "Nome e cognome",
                   "Partecipante", "Duellante"),
        "first": ("Nome",),
        "last": ("Cognome",),
        "id": ("ID Konami", "Codice Konami", "Numero Konami", "ID giocatore"),
        "deck": ("Mazzo", "Lista del mazzo", "Deck", "Lista"),
        "list": ("Lista del mazzo", "Lista"),
        "deck_other": ("Nome", "Titolo", "Tipo", "Archetipo", "Tema", "Formato"),
        "card": ("Quantità", "Carta", "Carte", "Nome carta", "Nome della carta", "Copie"),
        "count": ("Quantità", "Copie"),
    },
    "es": {
        "player": ("Jugador", "Nombre del jugador", "Nombre completo", "Participante",
                   "Duelista"),
        "first": ("Nombre",),
        "last": ("Apellido", "Apellidos"),
        "id": ("ID de Konami", "ID Konami", "Número Konami", "Código Konami", "ID de jugador"),
        "deck": ("Mazo", "Lista del mazo", "Lista de mazo", "Deck", "Lista"),
        "list": ("Lista del mazo", "Lista de mazo", "Lista"),
        "deck_other": ("Nombre", "Título", "Tipo", "Arquetipo", "Tema", "Formato"),
        "card": ("Cantidad", "Carta", "Cartas", "Nombre de la carta", "Copias"),
        "count": ("Cantidad", "Copias"),
    },
    "pt": {
        "player": ("Jogador", "Nome do jogador", "Nome completo", "Participante", "Duelista"),
        "first": ("Nome", "Primeiro nome"),
        "last": ("Sobrenome", "Apelido", "Último nome"),
        "id": ("ID Konami", "ID da Konami", "Número Konami", "Código Konami", "ID do jogador"),
        "deck": ("Deck", "Baralho", "Lista do deck", "Lista do baralho", "Lista"),
        "list": ("Lista do deck", "Lista do baralho", "Lista"),
        "deck_other": ("Nome", "Título", "Tipo", "Arquétipo", "Tema", "Formato"),
        "card": ("Quantidade", "Qtd", "Carta", "Cartas", "Nome da carta", "Cópias"),
        "count": ("Quantidade", "Qtd", "Cópias"),
    },
    "ja": {
        "player": ("プレイヤー名", "プレイヤー", "氏名", "名前", "お名前", "選手名", "参加者",
                   "参加者名", "ハンドルネーム"),
        "first": ("名",),
        "last": ("姓",),
        "id": ("コナミID", "KONAMI ID", "カードゲームID", "プレイヤーID", "会員ID"),
        "deck": ("デッキ", "デッキリスト", "デッキレシピ", "デッキコード"),
        "list": ("デッキリスト", "デッキレシピ", "デッキコード"),
        "deck_other": ("デッキ名", "テーマ", "タイプ"),
        "card": ("枚数", "数量", "カード", "カード名"),
        "count": ("枚数", "数量"),
    },
}


#: Latin accents, dropped from header cells (the marks of Japanese kana are kept).
_ACCENTS = re.compile("[\u0300-\u036f]")
_NOT_WORD = re.compile(r"[\W_]+")


def _norm(value: Any) -> str:
    """A header cell as compared: width and case folded, Latin accents dropped, anything but
    letters and digits a single space."""
    text = "" if value is None else str(value)
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    text = unicodedata.normalize("NFKC", _ACCENTS.sub("", text))
    return " ".join(_NOT_WORD.sub(" ", text).split())


def _phrases(role: str) -> frozenset[str]:
    return frozenset(_norm(w) for words in HEADER_WORDS.values() for w in words.get(role, ()))


def _one_word(phrases: frozenset[str]) -> frozenset[str]:
    return frozenset(p for p in phrases if " " not in p)


_ID_HEADERS = _phrases("id")
_DECK_PHRASES = _phrases("deck")
_DECK_WORDS = _one_word(_DECK_PHRASES)
_LIST_PHRASES = _phrases("list")
_LIST_WORDS = _one_word(_LIST_PHRASES)
_IGNORE_WITH_DECK = _one_word(_phrases("deck_other"))
_DECK_OTHER = _phrases("deck_other")
_PLAYER_PHRASES = _phrases("player")
_PLAYER_WORDS = _one_word(_PLAYER_PHRASES)
_FIRST = _phrases("first")
_LAST = _phrases("last")
_DECK_TABLE_WORDS = _phrases("card")
_COUNT_WORDS = _one_word(_phrases("count"))


def expected_table() -> str:
    """What a registration table needs, as a phrase for error sentences, with the header
    words of each language."""
    def examples(role: str) -> str:
        return ", ".join(dict.fromkeys(words[role][0] for words in HEADER_WORDS.values()))

    return (f"a header row with a player column ({examples('player')}…) or a Konami ID "
            f"column, and a decklist column ({examples('list')}…) holding ydke:// URLs, Omega "
            "codes, pasted lists or passcodes")


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
    deckish = h in _DECK_PHRASES or bool(words & _DECK_WORDS)
    if h in _ID_HEADERS or ("id" in words and not deckish):
        return "id"
    if h in _FIRST:
        return "first"
    if h in _LAST:
        return "last"
    if h in _DECK_TABLE_WORDS or words & _COUNT_WORDS:
        return "card"
    if deckish:
        if h in _DECK_OTHER or (words & _IGNORE_WITH_DECK and not _explicit(h)):
            return None  # "Deck name", "Deck type", "Nom du deck", "デッキ名"
        return "deck"
    if h in _PLAYER_PHRASES or words & _PLAYER_WORDS:
        return "player"
    return None


def _explicit(h: str) -> bool:
    """A deck header naming the list itself ("Decklist", "ydke", "Liste de deck")."""
    return h in _LIST_PHRASES or bool(set(h.split()) & _LIST_WORDS)


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
        if _explicit(_norm(row[i])):
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


def diagnose(rows: Sequence[Sequence[Any]]) -> str | None:
    """Why `rows` (a CSV file or a sheet) is no registration table although a header row of
    its first rows names the players (two or more header cells, one of them a player column
    other than a bare "Name", or an id column): that row has no decklist column, or its deck
    column holds no decklists. None when no row looks like a registration table's header, or
    a row is a card table's ("Qty", "Card name"…): such rows are a deck's, and so are a
    deck's "Player: Jane" or "CARD GAME ID | 0301234567" lines (one header cell each) and a
    "Name | Passcode" list."""
    first = rows[:HEADER_SEARCH_ROWS]
    roles = [[classify(v) if isinstance(v, str) else None for v in row] for row in first]
    if any("card" in r for r in roles):
        return None  # a deck written as a table
    for i, (row, row_roles) in enumerate(zip(first, roles, strict=True)):
        if sum(r is not None for r in row_roles) < 2:
            continue
        who = [_shown(v) for v, r in zip(row, row_roles, strict=True)
               if r in ("player", "first", "last", "id") and _norm(v) != "name"]
        if not who:
            continue
        if "deck" not in row_roles:
            return f"its header row (row {i + 1}: {', '.join(who)}) has no decklist column"
        cols = header_columns(row)
        if cols is not None and not deck_column_holds_decks(rows[i + 1:], cols):
            return f"its {_shown(row[cols.deck])} column (row {i + 1}) holds no decklists"
        return None
    return None


def _shown(value: Any) -> str:
    text = " ".join(str(value).split())
    return repr(text if len(text) <= 40 else text[:37] + "...")


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
