"""deckcheck's own list and format files: TOML a person can read and edit.

A list file (`banlists/<format>/<YYYY-MM-DD>.toml`) states facts, one card a line:

    # 2026.05 TCG
    name = "2026.05 TCG"
    format = "tcg"
    effective = 2026-05-18
    source = "EDOPro LFLists, 0TCG.lflist.conf"
    whitelist = false          # true: every card not listed is forbidden

    [forbidden]
    21044178 = "Abyss Dweller"

    [limited]                  # also [semi-limited], and [unlimited] (whitelists)
    ...

    [points.100]               # Genesys: points per card
    21044178 = "Abyss Dweller"

    [groups."Limited 1"]       # Speed Duel: at most `max` cards in total from the group
    max = 1
    [groups."Limited 1".cards]
    87102774 = "Golden Ladybug"

Keys are passcodes, values the card's name (for people; the passcode decides). A passcode
appears once among the status and points sections. A format file (`format.toml`) holds the
fields of `Format` (sizes as `[main]`/`[extra]`/`[side]` tables, `[imports]`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from deckcheck.errors import FormatError
from deckcheck.formats import fast_toml
from deckcheck.formats.model import Banlist, BanlistEntry, Format, LimitGroup

if TYPE_CHECKING:
    from pathlib import Path

#: section name <-> copy limit
SECTIONS: dict[str, int] = {"forbidden": 0, "limited": 1, "semi-limited": 2, "unlimited": 3}
LIMIT_SECTION = {v: k for k, v in SECTIONS.items()}
_HEADER_KEYS = {"name", "format", "effective", "source", "whitelist"}


def _where(path: str | Path | None) -> str:
    return str(path) if path is not None else "the list"


def _error(path: str | Path | None, what: str) -> FormatError:
    return FormatError(f"{_where(path)}: {what}.")


def _passcode(key: str, path: str | Path | None, section: str) -> int:
    if not key.isdigit():
        raise _error(path, f"[{section}] key {key!r} is not a passcode; write "
                           "passcode = \"Card name\"")
    return int(key)


def _name(value: Any, path: str | Path | None, section: str, key: str) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise _error(path, f"[{section}] {key} must be the card's name in quotes")
    return value


def parse_list(text: str, path: str | Path | None = None) -> Banlist:
    """A native list file's text -> `Banlist` (FormatError naming the file when invalid)."""
    data = fast_toml.list_toml(text)
    return list_from_dict(_toml(text, path) if data is None else data, path)


def _toml(text: str, path: str | Path | None) -> dict[str, Any]:
    """`text` read by tomllib, for what the fast readers leave (imported only then: start-up);
    invalid TOML is a FormatError naming the file."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _error(path, f"not valid TOML ({exc}); fix the line it names") from None


def _effective(data: dict[str, Any], path: str | Path | None) -> dt.date:
    effective = data["effective"]
    if isinstance(effective, str):
        try:
            effective = dt.date.fromisoformat(effective)
        except ValueError:
            raise _error(path, "`effective` must be a date like 2026-05-18") from None
    if isinstance(effective, dt.datetime) or not isinstance(effective, dt.date):
        raise _error(path, "`effective` must be a date like 2026-05-18")
    return effective


class _Entries:
    """A list's entries as plain dicts until every one is checked (a passcode listed once)."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = path
        self.by_code: dict[int, dict[str, Any]] = {}

    def add(self, table: dict[str, Any], section: str, **status: int) -> None:
        for key, value in table.items():
            code = _passcode(key, self.path, section)
            name = _name(value, self.path, section, key)
            if code in self.by_code:
                raise _error(self.path, f"passcode {code} is listed twice (again in "
                                        f"[{section}]); keep one line")
            self.by_code[code] = {"passcode": code, "name": name, **status}

    def sections(self, data: dict[str, Any]) -> None:
        for section, limit in SECTIONS.items():
            table = data.get(section, {})
            if not isinstance(table, dict):
                raise _error(self.path, f"[{section}] must be a table of passcode = \"name\" "
                                        "lines")
            self.add(table, section, limit=limit)

    def points(self, data: dict[str, Any]) -> None:
        points = data.get("points", {})
        if not isinstance(points, dict):
            raise _error(self.path, "[points] must hold tables like [points.20]")
        for value_key, table in points.items():
            section = f"points.{value_key}"
            if not value_key.isdigit() or not isinstance(table, dict):
                raise _error(self.path, f"[{section}] must be a number of points holding "
                                        "passcode = \"name\" lines")
            self.add(table, section, points=int(value_key))


def _groups(data: dict[str, Any], path: str | Path | None) -> list[LimitGroup]:
    groups: list[LimitGroup] = []
    raw_groups = data.get("groups", {})
    if not isinstance(raw_groups, dict):
        raise _error(path, "[groups] must hold tables like [groups.\"Limited 1\"]")
    for gname, group in raw_groups.items():
        section = f"groups.{gname}"
        if not isinstance(group, dict) or not isinstance(group.get("max"), int) \
                or set(group) - {"max", "cards"}:
            raise _error(path, f"[{section}] needs `max = N` and a [{section}.cards] table")
        cards = group.get("cards", {})
        if not isinstance(cards, dict):
            raise _error(path, f"[{section}.cards] must be a table of passcode = \"name\"")
        codes = frozenset(_passcode(k, path, section + ".cards") for k in cards)
        groups.append(LimitGroup(name=gname, max=group["max"], passcodes=codes))
    return groups


def _check_keys(data: dict[str, Any], path: str | Path | None) -> None:
    unknown = set(data) - _HEADER_KEYS - set(SECTIONS) - {"points", "groups"}
    if unknown:
        raise _error(path, f"unknown key(s) {', '.join(sorted(unknown))}; a list has name, "
                           f"format, effective, source, whitelist and the sections "
                           f"{', '.join(SECTIONS)}, points, groups")
    for key in ("name", "format", "effective"):
        if key not in data:
            raise _error(path, f"`{key}` is missing; add it at the top of the file")


def _check_header(data: dict[str, Any], path: str | Path | None) -> None:
    name, fmt, source, whitelist = (data["name"], data["format"], data.get("source"),
                                    data.get("whitelist", False))
    for key, ok, what in (
            ("name", isinstance(name, str), "a valid string"),
            ("format", isinstance(fmt, str), "a valid string"),
            ("source", source is None or isinstance(source, str), "a valid string"),
            ("whitelist", isinstance(whitelist, bool), "a valid boolean")):
        if not ok:
            raise _error(path, f"`{key}` input should be {what}")


def list_from_dict(data: dict[str, Any], path: str | Path | None = None) -> Banlist:
    _check_keys(data, path)
    effective = _effective(data, path)
    entries = _Entries(path)
    entries.sections(data)
    entries.points(data)
    groups = _groups(data, path)
    _check_header(data, path)
    # the entries were checked above, one by one: built without checking them again
    return Banlist(name=data["name"], format=data["format"], effective=effective,
                   source=data.get("source"), whitelist=data.get("whitelist", False),
                   entries=[BanlistEntry(**e) for e in entries.by_code.values()],
                   groups=groups)


def read_header(path: str | Path) -> dict[str, Any]:
    """name/format/effective of a native list file without parsing its entries (fast)."""
    head: list[str] = []
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.lstrip().startswith("["):
                    break
                head.append(line)
    except UnicodeDecodeError:
        raise _error(path, "not a UTF-8 text file; save it as UTF-8, or remove it") from None
    return _toml("".join(head), path)


#: TOML basic-string escapes: quote, backslash, and every control character (U+007F too,
#: which JSON leaves raw and TOML refuses).
_TOML_ESCAPES = {**{i: f"\\u{i:04x}" for i in (*range(0x20), 0x7F)},
                 ord('"'): '\\"', ord("\\"): "\\\\", ord("\b"): "\\b", ord("\t"): "\\t",
                 ord("\n"): "\\n", ord("\f"): "\\f", ord("\r"): "\\r"}


def _str(s: str) -> str:
    """A TOML basic string (tomli-w writes the same, but cannot write the comments and
    layout of a list file; this one line is all the writer needs of it)."""
    return '"' + s.translate(_TOML_ESCAPES) + '"'


_COMMENT_ESCAPES = {i: f"\\u{i:04x}" for i in (*range(0x09), *range(0x0A, 0x20), 0x7F)}


def _comment(s: str) -> str:
    """A `#` comment line: control characters (TOML allows none there) shown escaped."""
    return "# " + s.translate(_COMMENT_ESCAPES)


def _key(s: str) -> str:
    return s if s and all(c.isalnum() or c in "-_" for c in s) and s.isascii() else _str(s)


def _lines(entries: Iterable[BanlistEntry]) -> list[str]:
    return [f"{e.passcode} = {_str(e.name or '')}" for e in
            sorted(entries, key=lambda e: ((e.name or "").casefold(), e.passcode))]


def dump_list(bl: Banlist, comment: str | None = None) -> str:
    """`Banlist` -> native list file text (sorted by name within each section)."""
    out = [_comment(f"{bl.name}: {bl.format} list in force from {bl.effective.isoformat()}.")]
    if comment:
        out += [_comment(line) for line in comment.split("\n")]
    out += [f"name = {_str(bl.name)}", f"format = {_str(bl.format)}",
            f"effective = {bl.effective.isoformat()}"]
    if bl.source:
        out.append(f"source = {_str(bl.source)}")
    out.append(f"whitelist = {'true' if bl.whitelist else 'false'}")
    for section, limit in SECTIONS.items():
        chosen = [e for e in bl.entries if e.limit == limit and e.points is None]
        if chosen:
            out += ["", f"[{section}]", *_lines(chosen)]
    for value in sorted({e.points for e in bl.entries if e.points is not None}):
        out += ["", f"[points.{value}]", *_lines(e for e in bl.entries if e.points == value)]
    names = {e.passcode: e.name for e in bl.entries}
    for group in bl.groups:
        key = f"groups.{_key(group.name)}"
        members = [BanlistEntry(passcode=p, name=names.get(p)) for p in group.passcodes]
        out += ["", f"[{key}]", f"max = {group.max}", f"[{key}.cards]", *_lines(members)]
    return "\n".join(out) + "\n"


def parse_format(text: str, path: str | Path | None = None, *, trusted: bool = False) -> Format:
    """A `format.toml` text -> `Format` (without history). A file people write is validated
    against the strict schema (`FormatSchema`); `trusted` (a shipped file) is read plainly."""
    data = fast_toml.format_toml(text)
    if data is None:
        data = _toml(text, path)
    if "history" in data:
        raise _error(path, "a format file does not hold lists; put each list in its own "
                           "file beside it")
    if trusted:
        # a shipped file: read plainly (tests/formats/test_schema.py validates every shipped
        # file against the strict schema, so a bad one fails the tests, not a user's check)
        try:
            return Format.model_validate(data)
        except (TypeError, ValueError) as exc:
            raise _error(path, f"not a valid format file ({exc})") from None
    from pydantic import ValidationError

    from deckcheck.formats.schema import FormatSchema

    try:
        checked = FormatSchema.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise _error(path, f"`{loc}`: {first['msg'].lower()}") from None
    return Format.model_validate(checked.model_dump())


def looks_native(text: str) -> bool:
    """True when a text is a native list file rather than an EDOPro `.lflist.conf`."""
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        return "=" in s and not s.startswith(("!", "$"))
    return False
