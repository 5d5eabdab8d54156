"""Helpers of the desk tests: a hand-made card pool and TCG format (facts only), decks, and
the steps a browser takes (open a form, send it)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool, PoolInfo
from deckcheck.formats.model import Banlist, BanlistEntry, Format

# Facts: passcodes, names and frames of real cards; fillers are made up and named so.
CARDS = [
    Card(passcode=14558127, alt_passcodes=(14558128,), name="Ash Blossom & Joyous Spring",
         names={"ja": "灰流うらら", "zh-CN": "灰流丽"}, kind=Kind.MONSTER, frame=Frame.EFFECT,
         rule_name="Ash Blossom & Joyous Spring"),
    Card(passcode=55144522, name="Pot of Greed", kind=Kind.SPELL, frame=Frame.SPELL,
         rule_name="Pot of Greed"),
    Card(passcode=1861629, name="Decode Talker", kind=Kind.MONSTER, frame=Frame.LINK,
         rule_name="Decode Talker"),
] + [Card(passcode=90000000 + i, name=f"Filler {i}", kind=Kind.MONSTER, frame=Frame.NORMAL,
          rule_name=f"Filler {i}") for i in range(40)]

TEST_TCG = Format(id="tcg", name="TCG Advanced", excluded_scopes=["ocg_only", "anime"],
                  history=[Banlist(name="2026.05 TCG", format="tcg",
                                   effective=dt.date(2026, 5, 18),
                                   entries=[BanlistEntry(passcode=55144522, limit=0)])])
EVENT_DAY = dt.date(2026, 12, 5)


def ydk(main: list[int], extra: list[int] = (), side: list[int] = ()) -> bytes:  # type: ignore[assignment]
    lines = ["#created by a test", "#main", *map(str, main), "#extra", *map(str, extra),
             "!side", *map(str, side)]
    return ("\n".join(lines) + "\n").encode()


#: 40 legal main cards: 3 Ash Blossom and 37 fillers; 1 Decode Talker in the Extra Deck.
LEGAL_MAIN = [14558127] * 3 + [90000000 + i for i in range(37)]
LEGAL = ydk(LEGAL_MAIN, [1861629])
#: The same with Pot of Greed (forbidden) in place of one filler: illegal.
ILLEGAL = ydk(LEGAL_MAIN[:-1] + [55144522], [1861629])


def pool() -> MemoryPool:
    return MemoryPool(CARDS, PoolInfo(card_count=len(CARDS)))


class Clock:
    def __init__(self, when: dt.datetime) -> None:
        self.now = when

    def __call__(self) -> dt.datetime:
        return self.now


def csrf(client: Any, path: str = "/") -> str:
    """Open a page like a browser does and return its form's CSRF token."""
    page = client.get(path)
    m = re.search(r'name="csrf" value="([^"]+)"', page.text)
    if m is None:  # a page without a form (submissions closed): a page opened before
        token = client.cookies.get("desk_csrf")
        assert token, page.text
        return str(token)
    return m.group(1)


def form_value(html: str, name: str) -> str:
    """The value of the hidden field `name` in a page."""
    m = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert m, f"no field {name}"
    return m.group(1)


def submit(client: Any, *, player: str = "Alice Example", player_id: str = "0301234567",
           deck: bytes | None = None, filename: str = "deck.ydk", paste: str | None = None,
           receipt: str = "", nonce: str | None = None, token: str | None = None) -> Any:
    data = {"csrf": token or csrf(client), "player": player, "player_id": player_id,
            "receipt": receipt}
    if paste is not None:
        data["paste"] = paste
    if nonce is not None:
        data["nonce"] = nonce
    files = {"deck": (filename, deck, "application/octet-stream")} if deck is not None else None
    return client.post("/submit", data=data, files=files)


def staff_login(client: Any, token: str = "staff-secret-token") -> None:
    r = client.get(f"/staff?token={token}")
    assert r.status_code == 303, r.text


@dataclass(frozen=True)
class Sent:
    """A list the desk accepted: its receipt page's address and the receipt code on it."""

    path: str
    receipt: str


def receipt_of(client: Any, response: Any) -> Sent:
    """Follow a submission's redirect in the browser that sent it and read the receipt code
    (shown to that browser only; it is in no address)."""
    assert response.status_code == 303, response.text
    path = response.headers["location"]
    assert re.fullmatch(r"/r/[A-Za-z0-9_\-]{16}", path), path
    page = client.get(path)
    m = re.search(r'id="receipt">([A-Z0-9]{4}-[A-Z0-9]{4})<', page.text)
    assert m, page.text[-2000:]
    assert m.group(1) not in path
    return Sent(path, m.group(1))
