"""Lists from YGOPRODeck's `cardinfo.php` answer: each card's `banlist_info`.

    {"data": [{"id": 21044178, "name": "Abyss Dweller",
               "banlist_info": {"ban_tcg": "Forbidden", "ban_ocg": "Limited"}}, …]}

"Banned"/"Forbidden" -> 0, "Limited" -> 1, "Semi-Limited" -> 2. The answer carries no date:
the caller says from when the list is in force. Cards are keyed by YGOPRODeck's main id
(`id`); alternate-artwork ids (`card_images`) are not listed separately.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from deckcheck.errors import FormatError
from deckcheck.formats.model import Banlist, BanlistEntry

STATUS: dict[str, int] = {"banned": 0, "forbidden": 0, "limited": 1, "semi-limited": 2,
                          "semi limited": 2, "semilimited": 2}
#: banlist_info key -> format id (when no format file claims the key)
KEYS: dict[str, str] = {"ban_tcg": "tcg", "ban_ocg": "ocg", "ban_goat": "goat"}


def cards_of(data: Any, source: str | None = None) -> list[dict[str, Any]]:
    cards = data.get("data") if isinstance(data, dict) else data
    if not isinstance(cards, list):
        raise FormatError(f"{source or 'the file'}: not a YGOPRODeck cardinfo answer "
                          "(expected {\"data\": [cards]}).")
    return cards


def limits(data: Any, key: str, source: str | None = None) -> dict[int, tuple[str, int]]:
    """{id: (name, limit)} of every card with `banlist_info[key]`."""
    out: dict[int, tuple[str, int]] = {}
    for card in cards_of(data, source):
        status = (card.get("banlist_info") or {}).get(key)
        if status is None:
            continue
        limit = STATUS.get(str(status).strip().casefold())
        if limit is None:
            raise FormatError(f"{source or 'the file'}: {card.get('name')!r} has an unknown "
                              f"{key} status {status!r}.")
        out[int(card["id"])] = (str(card.get("name", "")), limit)
    return out


def alt_ids(data: Any) -> dict[int, int]:
    """Every id in `card_images` -> the card's main `id`."""
    out: dict[int, int] = {}
    for card in cards_of(data):
        for image in card.get("card_images") or ():
            if isinstance(image, dict) and "id" in image:
                out[int(image["id"])] = int(card["id"])
        out[int(card["id"])] = int(card["id"])
    return out


def banlists(data: Any, *, effective: dt.date, keys: Mapping[str, str] | None = None,
             source: str | None = None) -> list[Banlist]:
    """One `Banlist` per `banlist_info` key present ({key: format id}, default `KEYS`)."""
    out = []
    for key, fid in (keys or KEYS).items():
        table = limits(data, key, source)
        if not table:
            continue
        entries = [BanlistEntry(passcode=pc, name=name or None, limit=limit)
                   for pc, (name, limit) in sorted(table.items())]
        label = key.removeprefix("ban_").upper()
        out.append(Banlist(name=f"YGOPRODeck {label} {effective.isoformat()}", format=fid,
                           effective=effective, source=source or "YGOPRODeck cardinfo.php",
                           entries=entries))
    return out
