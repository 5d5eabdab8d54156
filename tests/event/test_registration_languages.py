"""Registration tables as organisers export them in their language: `,` `;` and tab separated
files (and a workbook), quoted lists holding the other separators and line breaks, headers in
English, German, French, Italian, Spanish, Portuguese and Japanese, the encodings their
spreadsheet programs write. Each is read into the same registrations; a table that is none
says what a registration table needs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from deckcheck.decks.ydke import to_ydke
from deckcheck.event.models import Registration
from deckcheck.event.registrations import discover, read_registrations
from deckcheck.event.table import HEADER_WORDS, classify

#: The hand-made legal deck of the event tests (built-in cards): 40 Main, 3 Extra, 2 Side.
MAIN = [(14558127, 3), (97268402, 3), (10045474, 3), (24224830, 1), (27204311, 3),
        (12580477, 1), (53129443, 1), (26202165, 1), (40640057, 3), (33508719, 3),
        (54652250, 3), (71625222, 3), (89631139, 3), (46986414, 3), (70781052, 3),
        (43096270, 3)]
EXTRA = [(86066372, 1), (38342335, 1), (44508094, 1)]
SIDE = [(94145021, 2)]


def pasted(pool: Any, lang: str = "en", one_line: str | None = None) -> str:
    """The deck as players paste it: "Main Deck" / "Extra Deck" / "Side Deck" and one card a
    line, names in `lang`; or, with `one_line`, the Main Deck on one line joined by it."""
    def name(pc: int) -> str:
        return str(pool.get(pc).names.get(lang) or pool.get(pc).name)

    if one_line is not None:
        return one_line.join(f"{n} {name(pc)}" for pc, n in MAIN)
    out = ["Main Deck", *(f"{n} {name(pc)}" for pc, n in MAIN), "Extra Deck",
           *(f"{n} {name(pc)}" for pc, n in EXTRA), "Side Deck",
           *(f"{n} {name(pc)}" for pc, n in SIDE)]
    return "\n".join(out)


def quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def players(regs: list[Registration]) -> list[tuple[str | None, str | None, int, int, int]]:
    out = []
    for r in regs:
        assert r.error is None and r.deck is not None, r.error
        assert r.deck.problems == [], r.deck.problems
        out.append((r.player, r.player_id, r.deck.size("main"), r.deck.size("extra"),
                    r.deck.size("side")))
    return out


FULL = (40, 3, 2)
#: A list pasted on one line (Main Deck only), joined by ";" or by ",": the comma in
#: "Nibiru, the Primal Being" is no separator (no count follows it).
SEMI_LIST = COMMA_LIST = (40, 0, 0)


def test_german_excel_semicolons_cp1252_with_comma_lists(tmp_path: Path, pool: Any) -> None:
    """German Excel: `;` separated, cp1252, CRLF; the lists hold commas (one line) and line
    breaks with commas in card names (a quoted cell over many lines)."""
    path = tmp_path / "Anmeldungen Regional Hamburg.csv"
    rows = ["Zeitstempel;Spielername;Konami-ID;Deckname;Deckliste",
            f"01.12.2026 10:02;Jürgen Müller;0301234567;Snake-Eye;"
            f"{quoted(pasted(pool, one_line=', '))}",
            f"01.12.2026 10:05;Anna-Lena Weiß;0307654321;Branded;{quoted(pasted(pool))}",
            f"01.12.2026 10:09;Björn Öztürk;0309999999;;{to_ydke_text(pool)}"]
    path.write_bytes("\r\n".join(rows).encode("cp1252") + b"\r\n")
    assert players(read_registrations(path, pool)) == [
        ("Jürgen Müller", "0301234567", *COMMA_LIST),
        ("Anna-Lena Weiß", "0307654321", *FULL),
        ("Björn Öztürk", "0309999999", *FULL)]


def to_ydke_text(pool: Any) -> str:
    from deckcheck.decks.model import Deck, Entry

    def entries(cards: list[tuple[int, int]]) -> list[Entry]:
        return [Entry(passcode=pc, count=n) for pc, n in cards]

    return to_ydke(Deck(main=entries(MAIN), extra=entries(EXTRA), side=entries(SIDE)))


def test_french_semicolons_utf8_bom_first_and_last_name(tmp_path: Path, pool: Any) -> None:
    path = tmp_path / "inscriptions.csv"
    rows = ["Tournoi régional de Lyon — inscriptions", "",
            "Horodateur;Prénom;Nom;ID Konami;Nom du deck;Liste de deck",
            f"2026-12-01 09:12;Éloïse;Lefèvre;0301112223;Tenpai;{quoted(pasted(pool))}",
            f"2026-12-01 09:30;François;N'Diaye;0304445556;Yubel;"
            f"{quoted(pasted(pool, one_line='; '))}"]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8-sig")
    assert players(read_registrations(path, pool)) == [
        ("Éloïse Lefèvre", "0301112223", *FULL),
        ("François N'Diaye", "0304445556", *SEMI_LIST)]


def test_italian_semicolons_with_ydke_urls(tmp_path: Path, pool: Any) -> None:
    path = tmp_path / "iscrizioni.csv"
    rows = ["Nome;Cognome;ID Konami;Nome del mazzo;Lista del mazzo",
            f"Giulia;Bianchi;0302223334;Labrynth;{to_ydke_text(pool)}",
            f"Marco;De Luca;0305556667;;{quoted(pasted(pool))}"]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert players(read_registrations(path, pool)) == [
        ("Giulia Bianchi", "0302223334", *FULL), ("Marco De Luca", "0305556667", *FULL)]


def test_spanish_workbook(tmp_path: Path, pool: Any) -> None:
    path = tmp_path / "inscripciones.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Respuestas"
    ws.append(["Marca temporal", "Jugador", "ID de Konami", "Nombre del mazo",
               "Lista del mazo"])
    ws.append(["2026-12-01 11:00", "José Ángel Núñez", "0306667778", "Fire King",
               pasted(pool)])
    ws.append(["2026-12-01 11:04", "María Peña", 306667779, "", pasted(pool, one_line=", ")])
    wb.save(path)
    assert players(read_registrations(path, pool)) == [
        ("José Ángel Núñez", "0306667778", *FULL), ("María Peña", "306667779", *COMMA_LIST)]


def test_portuguese_tab_separated_with_both_separators_in_lists(tmp_path: Path,
                                                                 pool: Any) -> None:
    """Tabs (Excel's "Unicode text": UTF-16); lists quoted, holding `,` and `;`."""
    path = tmp_path / "inscricoes.tsv"
    mixed = pasted(pool).replace("\n3 ", "\n3 ").replace("Main Deck\n", "Main Deck;\n")
    rows = ["Carimbo de data/hora\tNome do jogador\tID Konami\tLista do deck",
            f"2026-12-01 08:00\tJoão Gonçalves\t0308889990\t{quoted(pasted(pool))}",
            f"2026-12-01 08:02\tInês Araújo\t0308889991\t{quoted(mixed)}"]
    path.write_bytes(("\r\n".join(rows) + "\r\n").encode("utf-16"))
    assert players(read_registrations(path, pool)) == [
        ("João Gonçalves", "0308889990", *FULL), ("Inês Araújo", "0308889991", *FULL)]


def test_japanese_shift_jis_commas_japanese_card_names(tmp_path: Path, pool: Any) -> None:
    """Japanese Excel: comma separated, Shift-JIS (cp932); card names in Japanese."""
    path = tmp_path / "参加者一覧.csv"
    rows = ["タイムスタンプ,プレイヤー名,コナミID,デッキ名,デッキリスト",
            f"2026/12/01 13:00,山田 太郎,0301231231,天盃龍,{quoted(pasted(pool, 'ja'))}",
            f"2026/12/01 13:05,佐藤 花子,0301231232,,{to_ydke_text(pool)}"]
    path.write_bytes(("\r\n".join(rows) + "\r\n").encode("cp932"))
    assert players(read_registrations(path, pool)) == [
        ("山田 太郎", "0301231231", *FULL), ("佐藤 花子", "0301231232", *FULL)]


def test_english_commas_with_semicolon_lists(tmp_path: Path, pool: Any) -> None:
    path = tmp_path / "registrations.csv"
    rows = ["Player,Konami ID,Decklist"]
    rows += [f"Player {i},030000000{i},{quoted(pasted(pool, one_line='; '))}" for i in range(5)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert players(read_registrations(path, pool)) == [
        (f"Player {i}", f"030000000{i}", *SEMI_LIST) for i in range(5)]


@pytest.mark.parametrize(("lang", "player", "player_id", "deck"), [
    ("en", "Player name", "Konami ID", "Decklist"),
    ("de", "Spielername", "Konami-ID", "Deckliste"),
    ("fr", "Nom du joueur", "ID Konami", "Liste de deck"),
    ("it", "Nome del giocatore", "Codice Konami", "Lista del mazzo"),
    ("es", "Nombre del jugador", "Número Konami", "Lista del mazo"),
    ("pt", "Nome do jogador", "Código Konami", "Lista do baralho"),
    ("ja", "プレイヤー名", "ＫＯＮＡＭＩ　ＩＤ", "デッキリスト"),
])
def test_every_language_is_in_the_table_of_header_words(lang: str, player: str,
                                                         player_id: str, deck: str) -> None:
    assert lang in HEADER_WORDS
    assert (classify(player), classify(player_id), classify(deck)) == ("player", "id", "deck")


@pytest.mark.parametrize(("header", "role"), [
    ("Deckname", None), ("Nom du deck", None), ("Nome del mazzo", None),
    ("Nombre del mazo", None), ("Nome do deck", None), ("デッキ名", None),
    ("Anzahl", "card"), ("Quantité", "card"), ("Kartenname", "card"), ("枚数", "card"),
    ("Vorname", "first"), ("Nachname", "last"), ("Prénom", "first"), ("Cognome", "last"),
    ("Apellidos", "last"), ("Sobrenome", "last"),
])
def test_other_columns_of_those_languages(header: str, role: str | None) -> None:
    assert classify(header) == role


def test_a_table_that_is_none_says_what_a_registration_table_needs(tmp_path: Path,
                                                                   pool: Any) -> None:
    needs = ("a registration table needs a header row with a player column (Player, Spieler, "
             "Joueur, Giocatore, Jugador, Jogador, プレイヤー名…) or a Konami ID column, and "
             "a decklist column (Decklist, Deckliste, Liste de deck, Lista del mazzo, Lista "
             "del mazo, Lista do deck, デッキリスト…) holding ydke:// URLs, Omega codes, "
             "pasted lists or passcodes.")
    no_deck = tmp_path / "teilnehmer.csv"
    no_deck.write_text("Spielername;Konami-ID;Notizen\nJürgen;0301234567;Kommt später\n",
                       encoding="utf-8")
    (reg,) = read_registrations(no_deck, pool)
    assert reg.error == (f"{no_deck} is no registration table: its header row (row 1: "
                         f"'Spielername', 'Konami-ID') has no decklist column; {needs}")
    not_decks = tmp_path / "liste.csv"
    not_decks.write_text("Joueur;Liste de deck\nÉloïse;Tenpai\nFrançois;Yubel\n",
                         encoding="utf-8")
    (reg,) = read_registrations(not_decks, pool)
    assert reg.error == (f"{not_decks} is no registration table: its 'Liste de deck' column "
                         f"(row 1) holds no decklists; {needs}")
    neither = tmp_path / "notes.csv"
    neither.write_text("Datum;Ort\n05.12.2026;Hamburg\n", encoding="utf-8")
    (reg,) = read_registrations(neither, pool)
    assert reg.error is not None and "Qty,Card Name" in reg.error
    assert reg.error.startswith(f"{neither} holds neither a registration table (a header row")
    # the same for a workbook whose only sheet is a registration table missing its decks
    book = tmp_path / "anmeldung.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Anmeldungen"
    ws.append(["Spielername", "Konami-ID"])
    ws.append(["Jürgen", "0301234567"])
    wb.save(book)
    (reg,) = read_registrations(book, pool)
    assert reg.error == (f"{book}:Anmeldungen is no registration table: its header row (row "
                         f"1: 'Spielername', 'Konami-ID') has no decklist column; {needs}")


def test_a_folder_of_tables_in_several_languages(tmp_path: Path, pool: Any) -> None:
    (tmp_path / "de.csv").write_text(
        f"Spielername;Konami-ID;Deckliste\nJürgen;0301;{quoted(pasted(pool))}\n",
        encoding="utf-8")
    (tmp_path / "ja.csv").write_bytes(
        f"プレイヤー名,コナミID,デッキリスト\n山田 太郎,0302,{quoted(pasted(pool, 'ja'))}\n"
        .encode("cp932"))
    assert players(discover([tmp_path], pool)) == [("Jürgen", "0301", *FULL),
                                                   ("山田 太郎", "0302", *FULL)]


def test_decks_with_player_lines_are_still_decks(tmp_path: Path, pool: Any) -> None:
    """A deck's own "Player | Jane" lines, and deckcheck's registration sheet (First Name,
    CARD GAME ID… above the card table), are read as decks, not refused as registration
    tables without a decklist column."""
    from deckcheck.decks.files import write_deck
    from deckcheck.decks.model import Deck, Entry

    sheet = tmp_path / "Jane Doe.xlsx"
    deck = Deck(main=[Entry(passcode=pc, count=n) for pc, n in MAIN])
    write_deck(deck, sheet, pool, player="Jane Doe", player_id="0301234567", event="Regional")
    meta = tmp_path / "meta.csv"
    meta.write_text("Player,Jane Roe\nKonami ID,0301234568\nQty,Card Name\n"
                    "3,Ash Blossom & Joyous Spring\n", encoding="utf-8")
    assert players(read_registrations(sheet, pool)) == [("Jane Doe", "0301234567", 40, 0, 0)]
    assert players(read_registrations(meta, pool)) == [("Jane Roe", "0301234568", 3, 0, 0)]
