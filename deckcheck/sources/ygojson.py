"""YGOJSON v1 "individual" files (a zip of `cards/<uuid>.json`, `sets/<uuid>.json`, …):
release dates per region, Master Duel presence, Konami ids and artwork ids.

A card's first release in a region is the earliest ``locales.<loc>.date`` of a physical set
whose ``contents[]`` entry for that locale prints the card:

- ``tcg``: any TCG locale (``en``, ``na``, ``eu``, ``oc`` and ``fr``, ``de``, ``it``, ``sp``,
  ``pt``, ``fc``) — English dates are missing from most boosters, so the earliest over all
  TCG locales is the first TCG release;
- ``ocg``: ``jp``; ``kr``, ``sc``, ``tc``, ``ae``: the other OCG regions, where present;
- ``md``: a lower bound of the day the card came to Master Duel (`master_duel_day`): the
  game's launch or the card's first paper release, whichever is later (a Master Duel set's
  date shows the card in the game *by* that day, never "not before").

A card is in Master Duel when a Master Duel set holds it or the card carries ``masterDuel``
data (its rarity there). Records only enrich cards other sources know (`enrich_only`): the
card facts come from YGOPRODeck, YAML Yugi and EDOPro.

The zip is read member by member (never unpacked whole), each member bounded in size.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from deckcheck.cards.coverage import MD_LAUNCH
from deckcheck.cards.model import UNOFFICIAL_IDS
from deckcheck.errors import ImportFailed

if TYPE_CHECKING:
    from deckcheck.sources.records import SourceData, SourceRecord

NAME = "ygojson"

#: locale -> region of `Card.released`
REGION_OF = {
    "en": "tcg", "na": "tcg", "eu": "tcg", "oc": "tcg", "fr": "tcg", "de": "tcg", "it": "tcg",
    "sp": "tcg", "pt": "tcg", "fc": "tcg",
    "jp": "ocg", "kr": "kr", "sc": "sc", "tc": "tc", "ae": "ae",
}
#: the largest single YGOJSON file is ~1.4 MB; anything far bigger is not YGOJSON data
MEMBER_LIMIT = 32 * 1024 * 1024


def looks_like_zip(zf: zipfile.ZipFile) -> bool:
    """True for a YGOJSON "individual" archive: meta.json beside cards/ and sets/ folders."""
    prefix = _prefix(zf)
    if prefix is None:
        return False
    names = zf.namelist()
    return any(n.startswith(prefix + "cards/") for n in names) and \
        any(n.startswith(prefix + "sets/") for n in names)


def _prefix(zf: zipfile.ZipFile) -> str | None:
    """The folder holding meta.json ("" at the top), or None."""
    for n in zf.namelist():
        if n == "meta.json" or (n.endswith("/meta.json") and n.count("/") == 1):
            return n[: -len("meta.json")]
    return None


def _load(zf: zipfile.ZipFile, info: zipfile.ZipInfo, origin: str) -> Any:
    from deckcheck.sources.reading import loads, read_member

    raw = read_member(zf, info, origin, MEMBER_LIMIT)
    try:
        return loads(raw)  # `json.loads`' values or error, 2x faster
    except (ValueError, UnicodeDecodeError) as exc:
        raise ImportFailed(f"{origin}: {info.filename} is not valid JSON "
                           f"({str(exc).splitlines()[0][:80]}); nothing was changed — "
                           "download the archive again.") from None


def _day(v: Any) -> str | None:
    """A YYYY-MM-DD string, or None for anything else."""
    if isinstance(v, str) and len(v) >= 10 and v[4] == "-" and v[7] == "-" \
            and v[:4].isdigit() and v[5:7].isdigit() and v[8:10].isdigit():
        return v[:10]
    return None


def _earliest(table: dict[str, dict[str, str]], card: str, region: str, day: str) -> None:
    have = table.setdefault(card, {})
    old = have.get(region)
    if old is None or day < old:
        have[region] = day


def read_zip(zf: zipfile.ZipFile, *, origin: str, version: str | None) -> SourceData:
    """Source records from an open YGOJSON archive."""
    from deckcheck.sources.records import SourceData

    prefix = _prefix(zf) or ""
    cards_dir, sets_dir = prefix + "cards/", prefix + "sets/"
    released: dict[str, dict[str, str]] = {}  # card uuid -> region -> earliest day
    printed: dict[str, bool] = {}  # card uuid -> printed on paper (True: in a TCG locale)
    in_md: set[str] = set()
    set_infos = [i for i in zf.infolist() if i.filename.startswith(sets_dir)
                 and i.filename.endswith(".json")]
    card_infos = [i for i in zf.infolist() if i.filename.startswith(cards_dir)
                  and i.filename.endswith(".json")]
    for info in set_infos:
        _read_set(_load(zf, info, origin), released, printed, in_md)
    records = list(_records(zf, card_infos, origin, released, printed, in_md))
    meta_version = version
    try:
        meta = _load(zf, zf.getinfo(prefix + "meta.json"), origin)
        if isinstance(meta, dict) and meta.get("lastYugipediaRead"):
            meta_version = f"{str(meta['lastYugipediaRead'])[:10]} ({version})"
    except KeyError:
        pass
    # plain by construction: whole numbers, text, booleans, and dicts and lists of them
    return SourceData(NAME, records, meta_version, origin, plain=True)


def _read_set(s: Any, released: dict[str, dict[str, str]], printed: dict[str, bool],
              in_md: set[str]) -> None:
    """What one set says about its cards: a physical set (with `locales`) their printings and
    first days per region; a Master Duel set that they are in Master Duel, and from when."""
    if not isinstance(s, dict):
        return
    contents = [c for c in _seq(s.get("contents")) if isinstance(c, dict)]
    locales = s.get("locales")
    if isinstance(locales, dict):
        dates = {loc: _day(v.get("date")) for loc, v in locales.items() if isinstance(v, dict)}
        for c in contents:
            _read_printing(c, dates, released, printed)
    else:
        _read_master_duel_set(s, contents, released, in_md)


def _read_printing(c: dict[str, Any], dates: dict[str, str | None],
                   released: dict[str, dict[str, str]], printed: dict[str, bool]) -> None:
    """One `contents[]` entry of a physical set: its cards are printed (in the TCG when a
    TCG locale prints them) and released in each region from the earliest of its days."""
    uuids = [u for p in _seq(c.get("cards")) if type(p) is dict
             and isinstance(u := p.get("card"), str)]
    first: dict[str, str] = {}  # region -> earliest day of this entry's locales
    tcg = False
    for loc in _seq(c.get("locales")):
        region = REGION_OF.get(loc) if isinstance(loc, str) else None
        if region is None:
            continue
        tcg = tcg or region == "tcg"
        day = dates.get(loc)
        if day is not None and (region not in first or day < first[region]):
            first[region] = day
    # `_earliest` inlined: this runs for each card of each printing (~290,000 times)
    days = first.items()
    for u in uuids:
        if tcg or u not in printed:
            printed[u] = tcg or printed.get(u, False)
        if not first:
            continue
        have = released.get(u)
        if have is None:
            released[u] = dict(first)
            continue
        for region, day in days:
            old = have.get(region)
            if old is None or day < old:
                have[region] = day


def _read_master_duel_set(s: dict[str, Any], contents: list[dict[str, Any]],
                          released: dict[str, dict[str, str]], in_md: set[str]) -> None:
    """A virtual set: its Master Duel cards are in Master Duel, from the set's day if dated."""
    day = _day(s.get("date"))
    for c in contents:
        if "masterduel" not in _seq(c.get("formats")):
            continue
        for p in _seq(c.get("cards")):
            if isinstance(p, dict) and isinstance(p.get("card"), str):
                in_md.add(p["card"])
                if day is not None:
                    _earliest(released, p["card"], "md", day)


def _seq(v: Any) -> list[Any]:
    """A JSON list, or nothing when the value is anything else (a number, a string, null)."""
    return v if isinstance(v, list) else []


def _passcode(v: Any) -> int | None:
    """A passcode from YGOJSON's string ("29301450") or number; None when not 1-10 digits."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if 0 < v < 10**10 else None
    if isinstance(v, str) and v.isdigit() and len(v) <= 10:
        return int(v) or None
    return None


def _records(zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo], origin: str,
             released: dict[str, dict[str, str]], printed: dict[str, bool],
             in_md: set[str]) -> Iterator[SourceRecord]:
    for info in infos:
        card = _load(zf, info, origin)
        if not isinstance(card, dict):
            continue
        rec = card_record(card, released, printed, in_md)
        if rec is not None:
            yield rec


def master_duel_day(days: dict[str, str], in_md: bool) -> str | None:
    """The day before which a card cannot have been in Master Duel — a lower bound, so that
    a deck is never refused on a guess: the game's launch or the card's first paper release,
    whichever is later. A Master Duel set's date says the card was in the game *by* that day,
    never that it was not there before (secret packs keep their launch date as cards are added
    to them, and cards of the launch pool appear in later-dated packs), so it is not used."""
    if not in_md:
        return None
    paper = min((d for r, d in days.items() if r != "md"), default=None)
    return max(MD_LAUNCH, paper or MD_LAUNCH)


def card_record(card: dict[str, Any], released: dict[str, dict[str, str]],
                printed: dict[str, bool], in_md: set[str]) -> SourceRecord | None:
    """One card's record: its first passcode, the others (and artwork ids) as alternates."""
    uuid = card.get("id")
    codes, pre = _ids(card)
    if not codes:
        return None
    rec: SourceRecord = {"passcode": codes[0], "enrich_only": True}
    if len(codes) > 1:
        rec["alt_passcodes"] = sorted(set(codes[1:]))
    if pre:
        rec["extra_ids"] = pre
    ext = card.get("externalIDs")
    if isinstance(ext, dict):
        kid = ext.get("dbID")
        if isinstance(kid, int) and not isinstance(kid, bool) and 0 < kid < 2**31:
            rec["konami_id"] = kid
    if isinstance(uuid, str):
        _dates(rec, card, uuid, released, printed, in_md)
    return rec


def _ids(card: dict[str, Any]) -> tuple[list[int], list[int]]:
    """The card's passcodes (its first one first, then artwork ids) and its prerelease ids."""
    codes = [pc for v in _seq(card.get("passwords")) if (pc := _passcode(v)) is not None]
    arts = [pc for img in _seq(card.get("images")) if isinstance(img, dict)
            and (pc := _passcode(img.get("password"))) is not None]
    # an "artwork" id of 100,000,000 or more is the card's prerelease id, not an artwork
    pre = sorted({pc for pc in (*codes, *arts) if pc >= UNOFFICIAL_IDS})
    codes = [pc for pc in codes if pc < UNOFFICIAL_IDS]
    codes += [pc for pc in arts if pc < UNOFFICIAL_IDS and pc not in codes]
    return codes, pre


def _dates(rec: SourceRecord, card: dict[str, Any], uuid: str,
           released: dict[str, dict[str, str]], printed: dict[str, bool],
           in_md: set[str]) -> None:
    """First release per region, printings and Master Duel, from what the sets said."""
    days = dict(released.get(uuid) or {})
    md = uuid in in_md or isinstance(card.get("masterDuel"), dict)
    md_day = master_duel_day(days, md)
    days.pop("md", None)
    if md_day is not None:
        days["md"] = md_day
    if days:
        rec["released"] = dict(sorted(days.items()))
    if uuid in printed:
        rec["printed"] = True
        if printed[uuid]:
            rec["tcg_printed"] = True
    rec["master_duel"] = md
