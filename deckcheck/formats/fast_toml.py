"""Fast readers for the plain TOML deckcheck writes (a speed trick, `bench_banlists.py`).

`tomllib` is slow on 10,000-line whitelists and costs start-up to import. `list_toml` reads
the shape of a native list file, `format_toml` that of a `format.toml`; each returns None for
anything else, which `native` then gives to tomllib. Whatever they return is what tomllib
returns for the same text (`tests/formats/test_toml_roundtrip.py` holds them to that).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

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


def list_toml(text: str) -> dict[str, Any] | None:
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


def format_toml(text: str) -> dict[str, Any] | None:
    """A format file's plain TOML without importing tomllib (start-up); None for anything
    else, which then goes to tomllib. Whatever it returns is what tomllib returns for the
    same text (tests hold it to that on every shipped file and on odd cases)."""
    try:
        return _FormatScan(text).document()
    except (_Bail, IndexError):
        return None
