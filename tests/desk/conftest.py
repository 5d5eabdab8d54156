"""Desk tests: a hand-made card pool and TCG format (facts only), and a fresh app per test."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the desk extra is not installed "
                    "(pip install 'deckcheck[desk]')")
pytest.importorskip("jinja2", reason="the desk extra is not installed")
pytest.importorskip("multipart", reason="the desk extra is not installed")

from deckcheck.cards.model import Card, Frame, Kind  # noqa: E402
from deckcheck.cards.pool import MemoryPool, PoolInfo  # noqa: E402
from deckcheck.formats.model import Banlist, BanlistEntry, Format  # noqa: E402

# Facts: passcodes, names and frames of real cards; fillers are made up and named so.
CARDS = [
    Card(passcode=14558127, alt_passcodes=(14558128,), name="Ash Blossom & Joyous Spring",
         kind=Kind.MONSTER, frame=Frame.EFFECT, rule_name="Ash Blossom & Joyous Spring"),
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


@pytest.fixture
def clock() -> Clock:
    return Clock(dt.datetime(2026, 12, 5, 8, 0, tzinfo=dt.UTC))


@pytest.fixture
def make_settings(tmp_path: Path, clock: Clock) -> Callable[..., Any]:
    from deckcheck.desk.settings import DeskSettings

    def make(**kw: Any) -> DeskSettings:
        opts: dict[str, Any] = dict(event="Regional Berlin", store=tmp_path / "event.db",
                                    format=TEST_TCG, date=EVENT_DAY, pool=pool(),
                                    token="staff-secret-token", clock=clock)
        opts.update(kw)
        return DeskSettings(**opts)

    return make


@pytest.fixture
def client(make_settings: Callable[..., Any]) -> Any:
    from starlette.testclient import TestClient

    from deckcheck.desk.app import create_app

    with TestClient(create_app(make_settings()), follow_redirects=False) as c:
        yield c


def csrf(client: Any, path: str = "/") -> str:
    """Open a page like a browser does and return its form's CSRF token."""
    page = client.get(path)
    m = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert m, page.text
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
