"""The list writer writes TOML that tomllib reads back, and the fast reader reads exactly
what tomllib reads (property tests with hypothesis)."""

from __future__ import annotations

import datetime as dt
import tomllib
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.formats import fast_toml, native
from deckcheck.formats.model import Banlist, BanlistEntry, LimitGroup

names = st.text(max_size=30)  # every code point but surrogates: control characters, U+007F…
passcodes = st.integers(min_value=0, max_value=10**10)


@st.composite
def banlists(draw: st.DrawFn) -> Banlist:
    codes = draw(st.lists(passcodes, max_size=12, unique=True))
    entries = []
    for code in codes:
        if draw(st.booleans()):
            entries.append(BanlistEntry(passcode=code, name=draw(st.none() | names),
                                        limit=draw(st.integers(0, 3))))
        else:
            entries.append(BanlistEntry(passcode=code, name=draw(st.none() | names),
                                        points=draw(st.integers(1, 100))))
    groups = [LimitGroup(name=n, max=draw(st.integers(0, 3)),
                         passcodes=frozenset(draw(st.lists(st.sampled_from(codes), max_size=4))
                                             if codes else ()))
              for n in draw(st.lists(names.filter(bool), max_size=2, unique=True))]
    return Banlist(name=draw(names), format="tcg", source=draw(st.none() | names.filter(bool)),
                   effective=draw(st.dates(dt.date(1999, 1, 1), dt.date(2100, 1, 1))),
                   whitelist=draw(st.booleans()), entries=entries, groups=groups)


def _facts(bl: Banlist) -> tuple[object, ...]:
    return (bl.name, bl.format, bl.effective, bl.source, bl.whitelist,
            sorted((e.passcode, e.name or None, e.limit, e.points) for e in bl.entries),
            sorted((g.name, g.max, sorted(g.passcodes)) for g in bl.groups))


@settings(max_examples=300, deadline=None)
@given(banlists())
def test_written_lists_read_back_the_same(bl: Banlist) -> None:
    text = native.dump_list(bl, comment="made by a test\nsecond line \x7f")
    tomllib.loads(text)  # valid TOML, whatever the names hold
    assert _facts(native.parse_list(text)) == _facts(bl)


def test_u007f_is_escaped() -> None:
    bl = Banlist(name="del\x7f", format="tcg", effective=dt.date(2026, 1, 1),
                 entries=[BanlistEntry(passcode=1, name="a\x7fb", limit=0)])
    text = native.dump_list(bl)
    assert "\x7f" not in text and tomllib.loads(text)["forbidden"] == {"1": "a\x7fb"}


# lines like the writer's, and lines that are almost like them
_line = st.one_of(
    st.builds(lambda k, v: f'{k} = "{v}"', st.sampled_from(["name", "source", "1", "007", "a-b"]),
              st.text(max_size=8)),
    st.builds(lambda k, v: f"{k} = {v}", st.sampled_from(["effective", "whitelist", "max"]),
              st.sampled_from(["true", "false", "0", "01", "12", "2026-05-18", "2026-13-01",
                               "2026-02-30", "+1", "1_0"])),
    st.sampled_from(["[forbidden]", "[limited]", "[points.20]", "[points.020]",
                     '[groups."Limited 1"]', '[groups."Limited 1".cards]', "[groups.a]",
                     '[groups."a"]', "# comment", "", "  ", "\t", "[forbidden] # x"]),
    st.text(max_size=12),
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(_line, max_size=8), st.sampled_from(["\n", "\r\n"]))
def test_the_fast_reader_agrees_with_tomllib(lines: list[str], newline: str) -> None:
    _agrees_with_tomllib(fast_toml.list_toml, newline.join(lines))


def _agrees_with_tomllib(fast_reader: Callable[[str], object], text: str) -> None:
    """A fast reader gives up (None) or reads exactly what `tomllib` reads; never accepts
    what `tomllib` refuses."""
    fast = fast_reader(text)
    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        assert fast is None, text
        return
    assert fast is None or fast == expected, text


_format_line = st.one_of(
    st.builds(lambda k, v: f"{k} = {v}", st.sampled_from(["id", "a-b", '"q k"', "x.y", "1"]),
              st.sampled_from(['"s"', '"a\\"b"', "3", "03", "true", "2026-05-18", "[]",
                               '["a", "b",]', "[\n 1, # c\n 2\n]", "2026-05-18 # c", "1.0",
                               "'lit'", '"\\u00e9"', "[1,,2]", "2026-02-30"])),
    st.sampled_from(["[main]", "[imports.dates]", "[ main ]", "[a.b.c]", "# c", "", "[[x]]"]),
    st.text(max_size=12),
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(_format_line, max_size=8), st.sampled_from(["\n", "\r\n"]))
def test_the_fast_format_reader_agrees_with_tomllib(lines: list[str], newline: str) -> None:
    _agrees_with_tomllib(fast_toml.format_toml, newline.join(lines))
