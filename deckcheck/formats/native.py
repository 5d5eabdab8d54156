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
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from deckcheck.errors import FormatError
from deckcheck.formats.model import Banlist, BanlistEntry, Format, LimitGroup

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


_FAST_STR = re.compile(r'^([0-9]+|[A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[ \t]*'
                       r'"((?:[^"\\]|\\.)*)"[ \t]*$')
_FAST_VAL = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[ \t]*(true|false|0|[1-9][0-9]*|"
                       r"[0-9]{4}-[0-9]{2}-[0-9]{2})[ \t]*$")
_FAST_TABLE = re.compile(r'^\[(?:(forbidden|limited|semi-limited|unlimited)|points\.([0-9]+)|'
                         r'groups\.(?:"([^"\\]*)"|([A-Za-z0-9_-]+))(\.cards)?)\][ \t]*$')
#: What TOML allows nowhere raw (control characters but tab, a CR not ending a line).
_FAST_BAD = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]|\r(?!\n)")
#: JSON decodes these escapes but TOML refuses them (\/; \u of a lone surrogate; \U).
_FAST_ODD_ESCAPE = re.compile(r"\\(?:/|U|u[dD][89a-fA-F])")


#: TOML's one-letter escapes (a card name's quotes are the usual one).
_ESCAPES = {'"': '"', "\\": "\\", "b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r"}


def _unescape(raw: str) -> str | None:
    """A basic string's one-letter escapes decoded; None when it holds another (\\u…)."""
    out: list[str] = []
    i = 0
    while (j := raw.find("\\", i)) >= 0:
        rep = _ESCAPES.get(raw[j + 1:j + 2])
        if rep is None:
            return None
        out += (raw[i:j], rep)
        i = j + 2
    out.append(raw[i:])
    return "".join(out)


def _fast_toml(text: str) -> dict[str, Any] | None:
    """Parse the plain shape deckcheck writes (tomllib is slow on 10,000-line whitelists);
    None for anything else, which then goes to tomllib. Whatever it returns is what tomllib
    returns for the same text (a property test holds it to that)."""
    if _FAST_BAD.search(text):
        return None
    root: dict[str, Any] = {}
    table = root
    seen: set[tuple[str, ...]] = set()
    for line in text.split("\n"):
        s = line.removesuffix("\r").strip(" \t")
        if not s or s.startswith("#"):
            continue
        m = _FAST_STR.match(s)
        if m:
            raw = m[2]
            if m[1] in table:
                return None
            if "\\" not in raw:
                table[m[1]] = raw
                continue
            if _FAST_ODD_ESCAPE.search(raw):
                return None
            value = _unescape(raw)
            if value is None:
                import json  # \u escapes are rare: json stays off the start-up path

                try:
                    value = json.loads(f'"{raw}"')
                except ValueError:
                    return None
            table[m[1]] = value
            continue
        m = _FAST_VAL.match(s)
        if m:
            if m[1] in table:
                return None
            v = m[2]
            if v in ("true", "false"):
                table[m[1]] = v == "true"
            elif "-" in v:
                try:
                    table[m[1]] = dt.date.fromisoformat(v)
                except ValueError:
                    return None
            else:
                table[m[1]] = int(v)
            continue
        m = _FAST_TABLE.match(s)
        if m is None:
            return None
        if m[1]:
            key: tuple[str, ...] = (m[1],)
        elif m[2]:
            key = ("points", m[2])
        else:
            key = ("groups", m[3] if m[3] is not None else m[4]) + (("cards",) if m[5] else ())
        if key in seen:
            return None
        seen.add(key)
        found = _table_at(root, key)
        if found is None:
            return None
        table = found
    return root


def _table_at(root: dict[str, Any], parts: tuple[str, ...]) -> dict[str, Any] | None:
    """The table `[a.b.c]` names under `root`, made where missing (both fast TOML readers);
    None when one of the parts already holds a value, not a table."""
    table = root
    for part in parts:
        nxt = table.setdefault(part, {})
        if not isinstance(nxt, dict):
            return None
        table = nxt
    return table


class _Bail(Exception):
    """The fast format-file reader met something it leaves to tomllib."""


_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_DIGITS = frozenset("0123456789")


def _controls(s: str) -> bool:
    """True when `s` holds a character TOML allows in no string or comment (a control
    character other than tab)."""
    return any(ord(c) < 32 and c != "\t" or ord(c) == 127 for c in s)


class _FormatScan:
    """Reads the plain shape of a `format.toml` (comments; bare or simple quoted keys; basic
    strings, integers, booleans, dates and arrays of them, arrays across lines; `[a.b]`
    tables) without importing tomllib. Anything else raises `_Bail`."""

    def __init__(self, text: str) -> None:
        self.t = text
        self.i = 0

    def peek(self) -> str:
        return self.t[self.i:self.i + 1]

    def blank(self, newlines: bool = False) -> None:
        """Skip spaces and tabs (and comments and newlines when `newlines`)."""
        t, n = self.t, len(self.t)
        while self.i < n:
            c = t[self.i]
            if c in " \t":
                self.i += 1
            elif newlines and c in "\r\n":
                if c == "\r" and t[self.i + 1:self.i + 2] != "\n":
                    raise _Bail
                self.i += 1
            elif newlines and c == "#":
                self.comment()
            else:
                break

    def comment(self) -> None:
        end = self.t.find("\n", self.i)
        end = len(self.t) if end < 0 else end
        body = self.t[self.i:end].removesuffix("\r")
        if not body.isprintable() and _controls(body):
            raise _Bail
        self.i = end

    def end_of_line(self) -> None:
        self.blank()
        if self.peek() == "#":
            self.comment()
        if self.t.startswith("\r\n", self.i):
            self.i += 2
        elif self.peek() == "\n":
            self.i += 1
        elif self.i < len(self.t):
            raise _Bail

    def key(self) -> str:
        if self.peek() == '"':
            end = self.t.find('"', self.i + 1)
            k = self.t[self.i + 1:end]
            if end < 0 or "\\" in k or "\n" in k or any(ord(c) < 32 or ord(c) == 127
                                                           for c in k):
                raise _Bail
            self.i = end + 1
            return k
        start = self.i
        while self.peek() and self.peek() in _BARE:
            self.i += 1
        if self.i == start:
            raise _Bail
        return self.t[start:self.i]

    def string(self) -> str:
        end = self.i + 1
        while True:
            end = self.t.find('"', end)
            if end < 0:
                raise _Bail
            backslashes = 0
            while self.t[end - 1 - backslashes] == "\\":
                backslashes += 1
            if backslashes % 2 == 0:
                break
            end += 1
        raw = self.t[self.i + 1:end]
        if not raw.isprintable() and _controls(raw):
            raise _Bail
        value = _unescape(raw) if "\\" in raw else raw
        if value is None:
            raise _Bail
        self.i = end + 1
        return value

    def value(self) -> Any:
        c = self.peek()
        if c == '"':
            if self.t.startswith('"""', self.i):
                raise _Bail
            return self.string()
        if c == "[":
            self.i += 1
            out: list[Any] = []
            while True:
                self.blank(newlines=True)
                if self.peek() == "]":
                    self.i += 1
                    return out
                out.append(self.value())
                self.blank(newlines=True)
                if self.peek() == ",":
                    self.i += 1
                elif self.peek() == "]":
                    self.i += 1
                    return out
                else:
                    raise _Bail
        start = self.i
        while self.peek() and self.peek() in _BARE:
            self.i += 1
        word = self.t[start:self.i]
        if word in ("true", "false"):
            return word == "true"
        if word.isdigit() and word.isascii() and (word == "0" or word[0] != "0"):
            return int(word)
        if len(word) == 10 and word[4] == word[7] == "-" and set(word[:4] + word[5:7]
                                                              + word[8:]) <= _DIGITS:
            if self.peek() in (" ", "T", "t", ".", ":", "Z", "z", "+"):
                # a time may follow (a datetime): tomllib decides
                rest = self.t[self.i:self.i + 2]
                if rest[:1] != " " or rest[1:2] in _DIGITS:
                    raise _Bail
            try:
                return dt.date.fromisoformat(word)
            except ValueError:
                raise _Bail from None
        raise _Bail

    def document(self) -> dict[str, Any]:
        root: dict[str, Any] = {}
        table = root
        tables: set[tuple[str, ...]] = set()
        n = len(self.t)
        while True:
            self.blank(newlines=True)
            if self.i >= n:
                return root
            if self.peek() == "[":
                if self.t.startswith("[[", self.i):
                    raise _Bail
                self.i += 1
                self.blank()
                parts = [self.key()]
                self.blank()
                while self.peek() == ".":
                    self.i += 1
                    self.blank()
                    parts.append(self.key())
                    self.blank()
                if self.peek() != "]":
                    raise _Bail
                self.i += 1
                self.end_of_line()
                name = tuple(parts)
                if name in tables:
                    raise _Bail
                tables.add(name)
                found = _table_at(root, name)
                if found is None:
                    raise _Bail
                table = found
                continue
            k = self.key()
            self.blank()
            if self.peek() != "=" or k in table:
                raise _Bail
            self.i += 1
            self.blank()
            table[k] = self.value()
            self.end_of_line()


def _fast_format_toml(text: str) -> dict[str, Any] | None:
    """A format file's plain TOML without importing tomllib (start-up); None for anything
    else, which then goes to tomllib. Whatever it returns is what tomllib returns for the
    same text (tests hold it to that on every shipped file and on odd cases)."""
    try:
        return _FormatScan(text).document()
    except (_Bail, IndexError):
        return None


def parse_list(text: str, path: str | Path | None = None) -> Banlist:
    """A native list file's text -> `Banlist` (FormatError naming the file when invalid)."""
    data = _fast_toml(text)
    return list_from_dict(_toml(text, path) if data is None else data, path)


def _toml(text: str, path: str | Path | None) -> dict[str, Any]:
    """`text` read by tomllib, for what the fast readers leave (imported only then: start-up);
    invalid TOML is a FormatError naming the file."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _error(path, f"not valid TOML ({exc}); fix the line it names") from None


def list_from_dict(data: dict[str, Any], path: str | Path | None = None) -> Banlist:
    unknown = set(data) - _HEADER_KEYS - set(SECTIONS) - {"points", "groups"}
    if unknown:
        raise _error(path, f"unknown key(s) {', '.join(sorted(unknown))}; a list has name, "
                           f"format, effective, source, whitelist and the sections "
                           f"{', '.join(SECTIONS)}, points, groups")
    for key in ("name", "format", "effective"):
        if key not in data:
            raise _error(path, f"`{key}` is missing; add it at the top of the file")
    effective = data["effective"]
    if isinstance(effective, str):
        try:
            effective = dt.date.fromisoformat(effective)
        except ValueError:
            raise _error(path, "`effective` must be a date like 2026-05-18") from None
    if isinstance(effective, dt.datetime) or not isinstance(effective, dt.date):
        raise _error(path, "`effective` must be a date like 2026-05-18")

    # entries as plain dicts until every one is checked
    entries: dict[int, dict[str, Any]] = {}

    def add(entry: dict[str, Any], section: str) -> None:
        code = entry["passcode"]
        if code in entries:
            raise _error(path, f"passcode {code} is listed twice (again in [{section}]); "
                               "keep one line")
        entries[code] = entry

    for section, limit in SECTIONS.items():
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise _error(path, f"[{section}] must be a table of passcode = \"name\" lines")
        for key, value in table.items():
            add({"passcode": _passcode(key, path, section),
                 "name": _name(value, path, section, key), "limit": limit}, section)
    points = data.get("points", {})
    if not isinstance(points, dict):
        raise _error(path, "[points] must hold tables like [points.20]")
    for value_key, table in points.items():
        section = f"points.{value_key}"
        if not value_key.isdigit() or not isinstance(table, dict):
            raise _error(path, f"[{section}] must be a number of points holding passcode = "
                               "\"name\" lines")
        for key, value in table.items():
            add({"passcode": _passcode(key, path, section),
                 "name": _name(value, path, section, key), "points": int(value_key)}, section)
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
    name, fmt, source, whitelist = (data["name"], data["format"], data.get("source"),
                                    data.get("whitelist", False))
    for key, ok, what in (
            ("name", isinstance(name, str), "a valid string"),
            ("format", isinstance(fmt, str), "a valid string"),
            ("source", source is None or isinstance(source, str), "a valid string"),
            ("whitelist", isinstance(whitelist, bool), "a valid boolean")):
        if not ok:
            raise _error(path, f"`{key}` input should be {what}")
    # the entries were checked above, one by one: built without checking them again
    return Banlist(name=name, format=fmt, effective=effective, source=source,
                   whitelist=whitelist, entries=[BanlistEntry(**e) for e in entries.values()],
                   groups=groups)


def read_header(path: Path) -> dict[str, Any]:
    """name/format/effective of a native list file without parsing its entries (fast)."""
    head: list[str] = []
    try:
        with path.open(encoding="utf-8") as fh:
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
    data = _fast_format_toml(text)
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
