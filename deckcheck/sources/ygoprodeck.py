"""YGOPRODeck API v7: the full `cardinfo.php?misc=yes` dump, online or from a file.

`parse(data)` turns the API answer into source records (plain dicts, see
`deckcheck.sources.records`); `remote_version` asks `checkDBVer.php` for the database version
and `download` fetches the dump, both through the shared HTTP helper. Importing it into the
store is the import layer's (`deckcheck.imports.update.update_ygoprodeck`).
"""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.cards.rulename import rule_name_from_english
from deckcheck.errors import ImportFailed
from deckcheck.sources.reading import UNEXPECTED, read_json_file, unreadable
from deckcheck.sources.records import SourceData, SourceRecord

if TYPE_CHECKING:  # the HTTP client only online (`update --from FILE` starts without it)
    from deckcheck.sources.http import Http, Progress

NAME = "ygoprodeck"
DEFAULT_URL = "https://db.ygoprodeck.com/api/v7"

_FRAMES = {
    "normal", "effect", "ritual", "fusion", "synchro", "xyz", "link", "normal_pendulum",
    "effect_pendulum", "ritual_pendulum", "fusion_pendulum", "synchro_pendulum", "xyz_pendulum",
    "spell", "trap", "token", "skill",
}
_NO_NS = re.compile(r"cannot be normal summoned(?:/| or )set|must (?:first )?be special summoned",
                    re.IGNORECASE)


#: `_NO_NS` for text already lower-cased (`_cannot_normal_summon`)
_NO_NS_LOWER = re.compile(_NO_NS.pattern)


def _cannot_normal_summon(desc: str) -> bool:
    """Whether the card text says the monster cannot be Normal Summoned (`_NO_NS`). ASCII text
    (nearly every card's) is lower-cased and searched case-sensitively: the same matches (for
    ASCII, case-insensitive matching is lower-casing), several times faster; and searched
    only when it holds one of the pattern's two fixed words (most texts hold neither)."""
    if desc.isascii():
        low = desc.lower()
        return ("normal summoned" in low or "be special summoned" in low) and \
            _NO_NS_LOWER.search(low) is not None
    return _NO_NS.search(desc) is not None


def base_url(url: str | None = None) -> str:
    return (url or os.environ.get("DECKCHECK_YGOPRODECK_URL") or DEFAULT_URL).rstrip("/")


def looks_like(data: Any) -> bool:
    """True for a `cardinfo.php` answer: {"data": [{"id", "name", "frameType"…}…]}."""
    if not isinstance(data, dict) or not isinstance(data.get("data"), list):
        return False
    first = next(iter(data["data"]), None)
    return isinstance(first, dict) and "frameType" in first and "id" in first


def parse(data: Any) -> Iterator[SourceRecord]:
    """Source records for every card of a `cardinfo.php` answer."""
    if not looks_like(data):
        raise ImportFailed("The file is not a YGOPRODeck cardinfo.php answer (no \"data\" list "
                           "of cards); nothing was changed — download it again.")
    for n, raw in enumerate(data["data"], 1):
        try:
            rec = card_record(raw)
        except BadRecord as exc:
            raise ImportFailed(f"YGOPRODeck card #{n}{_which(raw)}: {exc}; nothing was changed "
                               "— download the data again or report it to YGOPRODeck.") from None
        except (TypeError, ValueError, AttributeError, OverflowError, KeyError) as exc:
            raise ImportFailed(f"YGOPRODeck card #{n}{_which(raw)} is malformed ({exc}); nothing "
                               "was changed — download the data again.") from None
        if rec is not None:
            yield rec


class BadRecord(ValueError):
    """A field of a card record has a value no card can have."""


def _which(raw: Any) -> str:
    """' (id 123, "Name")' for a message, with what the record says, shortened."""
    if not isinstance(raw, dict):
        return f" (a {type(raw).__name__}, not a card object)"
    parts = [f"id {str(raw.get('id'))[:24]}"] if "id" in raw else []
    if isinstance(raw.get("name"), str):
        parts.append(json.dumps(raw["name"][:60], ensure_ascii=False))
    return f" ({', '.join(parts)})" if parts else ""


#: bounds of the numbers a card has (passcodes have at most 10 digits in any source)
MAX_PASSCODE = 10**10
MAX_STAT = 10**6


def _int(v: Any, limit: int = MAX_STAT) -> int | None:
    """An integer in -limit..limit from a number or digit string; None for null, "", a
    boolean, Infinity/NaN, a fraction or anything out of range."""
    if type(v) is int:  # nearly every value: no conversion to try
        return v if -limit <= v <= limit else None
    if v is None or v == "" or isinstance(v, bool):
        return None
    if isinstance(v, float):
        if not v.is_integer():
            return None
    elif isinstance(v, str):
        if len(v) > 24:
            return None
    elif not isinstance(v, int):
        return None
    try:
        out = int(v)
    except (TypeError, ValueError, OverflowError):
        return None
    return out if -limit <= out <= limit else None


def _day(v: Any) -> str | None:
    """A release date as YYYY-MM-DD, or None when the value is not a date."""
    if not isinstance(v, str):
        return None
    try:
        return dt.date.fromisoformat(v[:10]).isoformat()
    except ValueError:
        return None


def _text(raw: dict[str, Any], key: str) -> str | None:
    v = raw.get(key)
    if v is None or isinstance(v, str):
        return v
    raise BadRecord(f"\"{key}\" is {json.dumps(v)[:40]}, not text")


def card_record(raw: Any) -> SourceRecord | None:
    """One card object of the answer as a source record; None for an entry without an id or
    a name (the API lists a few)."""
    if not isinstance(raw, dict):
        raise BadRecord("it is not a card object")
    if raw.get("id") is None:
        return None
    passcode = _int(raw.get("id"), MAX_PASSCODE)
    if passcode is None or passcode <= 0:
        raise BadRecord(f"\"id\" {str(raw.get('id'))[:24]} is not a passcode (a whole number "
                        "of at most 10 digits)")
    name = _name(raw)
    if name is None:
        return None
    kind, frame = _kind_frame(raw)
    desc = raw.get("desc") or ""
    rec: SourceRecord = {"passcode": passcode, "name": name, "names": {"en": name},
                         "kind": kind, "frame": frame, "text": desc or None}
    alts = _artworks(raw, passcode)
    if alts:
        rec["alt_passcodes"] = alts
    race = raw.get("race") or None
    if kind == "monster" or kind == "token":
        _monster(rec, raw, race, desc)
    elif kind in ("spell", "trap"):
        rec["race"] = race
    if raw.get("archetype"):
        rec["archetypes"] = [raw["archetype"]]
    _scopes(rec, raw, name)
    if raw.get("card_sets"):
        # YGOPRODeck's card_sets are TCG printings: proof the card exists in the TCG, which
        # overrules another source's "OCG only" / "not yet released" (see imports.merge).
        rec["tcg_printed"] = True
    _rule_text(rec, desc, name)
    return rec


def _name(raw: dict[str, Any]) -> str | None:
    """The card's name (HTML entities decoded), None when it has none; every text field is
    checked to be text."""
    name = _text(raw, "name")
    if not name or not name.strip():
        return None
    get = raw.get
    for key in _TEXT_KEYS:  # `_text`'s check, its call only for a value that fails it
        if (v := get(key)) is not None and not isinstance(v, str):
            _text(raw, key)
    if "&" in name:  # the API writes some names HTML-escaped ("The Fallen &amp; The Virtuous")
        name = html.unescape(name)
    return name


_TEXT_KEYS = ("type", "frameType", "desc", "race", "attribute", "archetype")


def _artworks(raw: dict[str, Any], passcode: int) -> list[int]:
    """The ids of the card's other artworks (`card_images`)."""
    images = raw.get("card_images")
    if type(images) is list and len(images) == 1 and type(images[0]) is dict \
            and images[0].get("id") == passcode:  # one artwork, the card's own: none other
        return []
    return sorted({i for img in images or () if isinstance(img, dict)
                   for i in [_int(img.get("id"), MAX_PASSCODE)] if i is not None and i > 0
                   and i != passcode})


def _scopes(rec: SourceRecord, raw: dict[str, Any], name: str) -> None:
    """Skill cards, and what `misc_info` adds (`_misc`) with the scopes it implies."""
    misc = raw.get("misc_info")
    if misc is None and rec["kind"] != "skill":  # most cards: nothing to add
        return
    scopes: set[str] = {"skill"} if rec["kind"] == "skill" else set()
    if isinstance(misc, list) and misc and isinstance(misc[0], dict):
        scopes |= _misc(rec, misc[0], name)
    if scopes or isinstance(misc, list):
        rec["scopes"] = sorted(scopes)


def _rule_text(rec: SourceRecord, desc: str, name: str) -> None:
    """What the card text says about the name the card counts as."""
    said = rule_name_from_english(desc)
    rec["spoke"] = ["ygoprodeck-text"]
    if said and said != name:
        rec.setdefault("hints", []).append(["ygoprodeck-text", "name", said, "en"])


def _kind_frame(raw: dict[str, Any]) -> tuple[str, str]:
    """The card's kind and frame from "type" and "frameType" (guessed from "type" when the
    frame is one deckcheck does not know)."""
    ctype = raw.get("type") or ""
    frame = (raw.get("frameType") or "").lower()
    if ctype == "Skill Card":
        frame = "skill"
    elif ctype == "Token":
        frame = "token"
    if frame not in _FRAMES:
        frame = "effect" if "Monster" in ctype else "spell" if "Spell" in ctype else \
            "trap" if "Trap" in ctype else "effect"
    return (frame if frame in ("spell", "trap", "token", "skill") else "monster"), frame


def _monster(rec: SourceRecord, raw: dict[str, Any], race: str | None, desc: str) -> None:
    """The facts of a monster (or token): types, attribute, stats, level/rank/link, scale."""
    frame = rec["frame"]
    typeline = [t for t in raw.get("typeline") or () if isinstance(t, str)]
    if typeline and race and typeline[0] == race:
        typeline = typeline[1:]
    rec["monster_types"] = typeline
    rec["attribute"] = raw.get("attribute") or None
    rec["race"] = race
    atk, dfn = _int(raw.get("atk")), _int(raw.get("def"))
    rec["atk"] = None if atk is None or atk < 0 else atk
    rec["defense"] = None if dfn is None or dfn < 0 else dfn
    level = _int(raw.get("level"))
    if frame.startswith("xyz"):
        rec["rank"] = level
    elif frame == "link":
        rec["link_rating"] = _int(raw.get("linkval"))
        rec["link_arrows"] = [a for a in raw.get("linkmarkers") or () if isinstance(a, str)]
    else:
        rec["level"] = level
    scale = _int(raw.get("scale"))
    if scale is not None:
        rec["scale"] = scale
    if rec["kind"] == "monster" and _cannot_normal_summon(desc):
        rec["cannot_normal_summon"] = True


def _misc(rec: SourceRecord, m: dict[str, Any], name: str) -> set[str]:
    """What `misc_info` adds (Konami id, release dates, Master Duel, treated-as name); returns
    the scopes its formats imply."""
    kid = _int(m.get("konami_id"), 2**31 - 1)
    if kid is not None and kid > 0:
        rec["konami_id"] = kid
    released = {r: day for r in ("tcg", "ocg") if (day := _day(m.get(f"{r}_date")))}
    if released:
        rec["released"] = released
    formats = {str(f).lower() for f in m.get("formats") or ()}
    if "master duel" in formats or m.get("md_rarity"):
        rec["master_duel"] = True
    elif formats:  # the formats the card is in, as of the dump: not Master Duel
        rec["master_duel"] = False
    _treated_as(rec, m.get("treated_as"), name)
    return _format_scopes(formats, released)


def _format_scopes(formats: set[str], released: dict[str, str]) -> set[str]:
    """"ocg_only", "tcg_only" or "speed" from the formats a card is in and where it is dated."""
    if "ocg" in formats and "tcg" not in formats and not released.get("tcg"):
        return {"ocg_only"}
    if "tcg" in formats and "ocg" not in formats and not released.get("ocg"):
        return {"tcg_only"}
    if formats and not formats & {"tcg", "ocg"} and "speed duel" in formats:
        return {"speed"}
    return set()


def _treated_as(rec: SourceRecord, treated: Any, name: str) -> None:
    """The name `misc_info` says the card is treated as: same-name rule evidence."""
    if isinstance(treated, list):
        treated = next((t for t in treated if isinstance(t, str)), None)
    if isinstance(treated, str) and treated.strip() and treated.strip() != name:
        rec.setdefault("hints", []).append(
            ["ygoprodeck-treated_as", "name", treated.strip(), "en"])


# -- online update ----------------------------------------------------------------------

def remote_version(http: Http, url: str | None = None) -> str | None:
    """The database version `checkDBVer.php` announces (None if it says nothing usable)."""
    answer = http.get_json(f"{base_url(url)}/checkDBVer.php")
    if isinstance(answer, list) and answer and isinstance(answer[0], dict):
        answer = answer[0]
    if isinstance(answer, dict):
        v = answer.get("database_version")
        last = answer.get("last_update")
        if v is not None:
            return f"{v}" + (f" ({last})" if last else "")
    return None


def download(http: Http, dest_dir: Path, url: str | None = None,
             progress: Progress | None = None) -> Path:
    """Download the full dump into `dest_dir`; returns the file (the caller deletes it)."""
    fd, name = tempfile.mkstemp(prefix=".cardinfo.", suffix=".json", dir=dest_dir)
    os.close(fd)
    try:
        return http.download(f"{base_url(url)}/cardinfo.php", name, params={"misc": "yes"},
                             progress=progress)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def load_file(path: str | Path, exact: bool = True, raw: bytes | None = None) -> Any:
    """A cardinfo answer from a JSON file or a .zip holding cardinfo.json (`exact`:
    `deckcheck.sources.reading.loads`; `raw`: the file's bytes, when already read)."""
    return read_json_file(Path(path), prefer="cardinfo.json", exact=exact, raw=raw)


def read_records(read: Callable[[bool], Any], where: str | Path,
                 not_an_answer: str | None = None) -> list[SourceRecord]:
    """`records` of the answer `read(exact)` reads (`deckcheck.sources.reading.loads`' `exact`),
    read fast first (`exact=False`: an integer beyond 64 bits may come as a float): the parser
    treats such a float as the integer (beyond every bound, `_int` gives None for both; any
    other field refuses both). Only when a card is refused is the answer read again as the
    standard library reads it, so that the sentence quotes the number as the file writes it.
    `not_an_answer`: the sentence for data that is no cardinfo answer (`looks_like`), if the
    caller has its own."""
    data = read(False)
    if not_an_answer is not None and not looks_like(data):
        raise ImportFailed(not_an_answer)
    try:
        return records(data, where)
    except ImportFailed:
        del data  # the answer as read fast: freed before it is read again
    return records(read(True), where)


def source(recs: list[SourceRecord], version: str | None, origin: str | None) -> SourceData:
    """The `SourceData` of records `parse` made: plain and checked by its construction (every
    value read through `_int`, `_text`, `_day`, `_kind_frame`…: a whole number, text, a date,
    a kind and frame `Card` knows), so the import neither looks through them to write their
    JSON nor validates their cards again (`SourceData.plain`, `SourceData.checked`)."""
    return SourceData(NAME, recs, version, origin, plain=True, checked=True)


def records(data: Any, where: str | Path) -> list[SourceRecord]:
    """`parse`'s records, or `deckcheck.sources.reading.unreadable`'s sentence for a value of
    a type no answer holds (`where`: what to call the data in it)."""
    try:
        return list(parse(data))
    except UNEXPECTED as exc:
        raise unreadable(where, exc) from None
