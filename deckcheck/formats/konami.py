"""Official lists keyed by Konami's card database id (YAML Yugi's limit regulation).

    {"date": "2026-05-18", "regulation": {"4023": 1, "4426": 0, …}}   copy limits
    {"date": "2026-08-01", "regulation": {"4007": 5, …}}               Genesys points

Konami ids are not passcodes: they map to cards through the card pool's `by_konami_id`
(pass the pool in). Older lists keyed by English name (`*.name.json`, `{"Card": 0}`) and the
TCG Genesys point list as scraped (`{"Card": "20"}`) map through the pool's `find_name`.
A list is built only when every card maps; otherwise `UnmappedCards` says how many did not.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from deckcheck.errors import FormatError
from deckcheck.formats.model import Banlist, BanlistEntry

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool


class UnmappedCards(FormatError):
    """Some cards of a list are not in the card pool."""

    def __init__(self, what: str, missing: list[str]) -> None:
        self.missing = missing
        shown = ", ".join(missing[:5]) + (", …" if len(missing) > 5 else "")
        super().__init__(f"{what}: {len(missing)} card(s) are not in the card pool ({shown}); "
                         "import the full card database (`deckcheck cards update`) and retry.")


def parse_vector(data: Any, source: str | None = None) -> tuple[dt.date | None, dict[int, int]]:
    """A vector document -> (its date, {konami_id: value})."""
    where = source or "the list"
    if not isinstance(data, dict) or not isinstance(data.get("regulation"), dict):
        raise FormatError(f"{where}: not a Konami-id list (expected {{\"date\": …, "
                          "\"regulation\": {id: 0|1|2}}).")
    day = None
    if data.get("date"):
        try:
            day = dt.date.fromisoformat(str(data["date"])[:10])
        except ValueError:
            raise FormatError(f"{where}: `date` {data['date']!r} is not a date like "
                              "2026-05-18.") from None
    try:
        regulation = {int(k): int(v) for k, v in data["regulation"].items()}
    except (TypeError, ValueError):
        raise FormatError(f"{where}: `regulation` must map Konami ids to numbers.") from None
    return day, regulation


def from_vector(regulation: Mapping[int, int], pool: CardPool, *, name: str, format: str,
                effective: dt.date, points: bool = False, source: str | None = None) -> Banlist:
    """{konami_id: limit or points} -> `Banlist`, mapped through `pool.by_konami_id`."""
    mapped: list[tuple[Any, int]] = []
    missing: list[str] = []
    for kid, value in regulation.items():
        card = pool.by_konami_id(kid)
        if card is None:
            missing.append(f"Konami id {kid}")
        else:
            mapped.append((card, value))
    return _banlist(mapped, missing, name=name, format=format, effective=effective,
                    points=points, source=source)


def from_names(table: Mapping[str, Any], pool: CardPool, *, name: str, format: str,
               effective: dt.date, points: bool = False, source: str | None = None,
               tolerate: int = 0) -> Banlist:
    """{English card name: limit or points} -> `Banlist`, mapped through `pool.find_name`.
    Up to `tolerate` names that match no card (a misspelling in the source) are left out and
    named in the list's `source`; more raise `UnmappedCards`."""
    mapped: list[tuple[Any, int]] = []
    missing: list[str] = []
    for card_name, raw in table.items():
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise FormatError(f"{source or name}: {card_name!r} has {raw!r}, not a number.") \
                from None
        found = {c.passcode: c for c in pool.find_name(card_name)}
        if len(found) != 1:
            missing.append(card_name)
        else:
            mapped.append((next(iter(found.values())), value))
    if missing and len(missing) <= tolerate and len(mapped) >= 10 * len(missing):
        source = (f"{source or name} (without {len(missing)} name(s) that match no card: "
                  f"{', '.join(sorted(missing))})")
        missing = []
    return _banlist(mapped, missing, name=name, format=format, effective=effective,
                    points=points, source=source)


def _banlist(mapped: list[tuple[Any, int]], missing: list[str], *, name: str, format: str,
             effective: dt.date, points: bool, source: str | None) -> Banlist:
    """The list from (card, value) pairs; every card must have mapped. Copy limits are kept
    to 0..3; a card named twice keeps its last value."""
    if missing:
        raise UnmappedCards(name, missing)
    entries: dict[int, BanlistEntry] = {}
    for card, value in mapped:
        entries[card.passcode] = BanlistEntry(
            passcode=card.passcode, name=card.name,
            **({"points": value} if points else {"limit": min(max(value, 0), 3)}))
    return Banlist(name=name, format=format, effective=effective, source=source,
                   entries=sorted(entries.values(), key=lambda e: e.passcode))


def to_vector(bl: Banlist, pool: CardPool) -> dict[str, Any]:
    """`Banlist` -> a Konami-id vector (cards without a Konami id in the pool are left out)."""
    regulation: dict[str, int] = {}
    for e in bl.entries:
        card = pool.get(e.passcode)
        value = e.points if e.points is not None else e.limit
        if card is not None and card.konami_id is not None and value is not None:
            regulation[str(card.konami_id)] = value
    return {"date": bl.effective.isoformat(), "regulation": regulation}
