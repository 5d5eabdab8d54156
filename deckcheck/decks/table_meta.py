"""The free fields around a deck in a table: label cells such as "Player Name", "CARD GAME ID",
"Event", "Date", "Country", "Deck Name" outside the card blocks give `Deck.meta` the value in
the cell to their right (or after a colon)."""

from __future__ import annotations

from typing import Any

from deckcheck.cards.names import normalize

_META_LABELS = {normalize(k): v for k, v in {
    "player": "player", "player name": "player", "name": "player", "first name": "first_name",
    "last name": "last_name", "family name": "last_name", "given name": "first_name",
    "id": "player_id", "player id": "player_id", "card game id": "player_id",
    "konami id": "player_id", "cossy id": "player_id", "konami card game id": "player_id",
    "event": "event", "event name": "event", "tournament": "event", "date": "date",
    "event date": "date", "country": "country", "country of residence": "country",
    "deck name": "deck_name", "deck": "deck_name", "選手名": "player", "氏名": "player",
    "玩家": "player", "姓名": "player", "选手": "player"}.items()}

#: Where the card blocks are: (first row, end row, first column, last column) each.
Spans = list[tuple[int, int, int, int]]


def table_meta(rows: list[list[Any]], header_rows: set[int], first_header: int,
               spans: Spans) -> dict[str, str]:
    """The labelled values outside the header rows and the card blocks (the first of each
    kind), with "player" made of first and last name when only those are given."""
    out: dict[str, str] = {}
    for r, row in enumerate(rows):
        if r in header_rows:
            continue
        for c, v in enumerate(row):
            if not isinstance(v, str) or len(v) > 60:
                continue
            if r >= first_header and any(s <= r < e and f <= c <= la for s, e, f, la in spans):
                continue
            _label_value(row, c, v, out)
    if "player" not in out and ("first_name" in out or "last_name" in out):
        out["player"] = " ".join(x for x in (out.get("first_name"), out.get("last_name")) if x)
    return out


def _label_value(row: list[Any], c: int, v: str, out: dict[str, str]) -> None:
    """If cell `c` (text `v`) is a label not met yet, its value into `out`: the text after a
    colon, else the next filled cell to the right (placeholders such as "____" are none)."""
    label, _, after = v.partition(":") if ":" in v else v.partition("：")
    key = _META_LABELS.get(normalize(label))
    if key is None or key in out:
        return
    value = after.strip()
    if not value:
        value = next(("" if v2 is None else str(v2) for v2 in row[c + 1:] if v2 is not None), "")
    if value and not set(value) <= set("_.-— "):
        out[key] = value
