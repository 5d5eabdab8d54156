from __future__ import annotations

import datetime as dt

import pytest

from deckcheck.errors import FormatError
from deckcheck.formats import fast_toml, native
from deckcheck.formats.model import Banlist, BanlistEntry, LimitGroup


def sample() -> Banlist:
    return Banlist(
        name="2026.05 Test", format="speed", effective=dt.date(2026, 5, 18),
        source="hand-written", whitelist=True,
        entries=[BanlistEntry(passcode=55144522, name="Pot of Greed", limit=0),
                 BanlistEntry(passcode=83764718, name="Monster Reborn", limit=1),
                 BanlistEntry(passcode=14558127, name='Ash "Blossom"', limit=2),
                 BanlistEntry(passcode=21044178, name="Abyss Dweller", limit=3)],
        groups=[LimitGroup(name="Limited 1", max=1, passcodes=frozenset({83764718}))])


def test_round_trip_keeps_every_fact() -> None:
    bl = sample()
    text = native.dump_list(bl)
    back = native.parse_list(text)

    def facts(b: Banlist) -> dict:
        d = b.model_dump()
        d["entries"] = sorted(d["entries"], key=lambda e: e["passcode"])
        return d

    assert facts(back) == facts(bl)
    assert native.dump_list(back) == text


def test_points_round_trip() -> None:
    bl = Banlist(name="G", format="genesys", effective=dt.date(2026, 6, 8),
                 entries=[BanlistEntry(passcode=1, name="A", points=20),
                          BanlistEntry(passcode=2, name="B", points=100)])
    text = native.dump_list(bl)
    assert "[points.20]\n1 = \"A\"" in text
    assert native.parse_list(text).points() == {1: 20, 2: 100}


def test_written_form_is_readable() -> None:
    text = native.dump_list(sample())
    assert text.splitlines()[:7] == [
        "# 2026.05 Test: speed list in force from 2026-05-18.",
        'name = "2026.05 Test"', 'format = "speed"', "effective = 2026-05-18",
        'source = "hand-written"', "whitelist = true", ""]
    assert "[forbidden]\n55144522 = \"Pot of Greed\"\n" in text
    assert '[groups."Limited 1"]\nmax = 1\n[groups."Limited 1".cards]\n83764718 = ' \
           '"Monster Reborn"' in text


@pytest.mark.parametrize("text,fragment", [
    ('name="x"\nformat="tcg"\neffective=2026-01-01\n[forbidden]\n1="A"\n[limited]\n1="A"\n',
     "listed twice"),
    ('name="x"\nformat="tcg"\neffective=2026-01-01\n[forbidden]\nabc="A"\n', "not a passcode"),
    ('name="x"\neffective=2026-01-01\n', "`format` is missing"),
    ('name="x"\nformat="tcg"\neffective=2026-01-01\nbanned=1\n', "unknown key(s) banned"),
    ('name="x"\nformat="tcg"\neffective="May"\n', "must be a date"),
    ('name="x"\nformat="tcg"\neffective=2026-01-01\n[forbidden\n', "not valid TOML"),
])
def test_invalid_files_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(FormatError) as info:
        native.parse_list(text, "my.toml")
    assert str(info.value).startswith("my.toml: ")
    assert fragment in str(info.value)


def test_read_header_skips_entries(tmp_path) -> None:
    path = tmp_path / "x.toml"
    path.write_text(native.dump_list(sample()), encoding="utf-8")
    head = native.read_header(path)
    assert head == {"name": "2026.05 Test", "format": "speed",
                    "effective": dt.date(2026, 5, 18), "source": "hand-written",
                    "whitelist": True}


def test_format_file_rejects_unknown_keys() -> None:
    with pytest.raises(FormatError, match="f.toml: `colour`"):
        native.parse_format('id = "x"\nname = "X"\ncolour = "red"\n', "f.toml")


def test_fast_path_reads_exactly_what_tomllib_reads() -> None:
    import tomllib

    from deckcheck.formats.loader import shipped_dir

    texts = [native.dump_list(sample())]
    texts += [p.read_text(encoding="utf-8") for p in sorted(shipped_dir().glob("*/*.toml"))
              if p.name != "format.toml"]
    texts.append('name = "A \\"quoted\\" \\u00e9 name"\nformat = "x"\neffective = 2026-01-01\n'
                 'whitelist = false\n[groups.plain]\nmax = 2\n[groups.plain.cards]\n1 = ""\n')
    for text in texts:
        assert fast_toml.list_toml(text) == tomllib.loads(text)


@pytest.mark.parametrize("text", [
    "name = 'literal'\n",                      # literal strings
    'name = "x" # note\n',                     # comments after a value
    '[forbidden]\n1 = "A"\n1 = "B"\n',         # a key twice: tomllib's error message
    '[forbidden]\n1 = "A"\n[forbidden]\n',     # a table twice
    '[points]\n',                              # anything unusual
    'name = "\\U0001F600"\n',
])
def test_fast_path_leaves_the_rest_to_tomllib(text: str) -> None:
    assert fast_toml.list_toml(text) is None


def test_fast_format_reader_reads_exactly_what_tomllib_reads() -> None:
    import tomllib

    from deckcheck.formats.loader import shipped_dir

    texts = [p.read_text(encoding="utf-8") for p in sorted(shipped_dir().glob("*/format.toml"))]
    assert texts
    texts += ['a = [\n  "x", # c\n  "y\\"z",\n]\n[imports.dates]\n"Edison" = 2010-03-01 # d\n',
              'a=1\r\nb = [ ]\r\n[ t . u ]\r\nc = true\r\n', "", "# only a comment\n",
              'k = "tab\there"\n']
    for text in texts:
        assert fast_toml.format_toml(text) == tomllib.loads(text), text


@pytest.mark.parametrize("text", [
    "a = 'literal'\n", 'a = """multi"""\n', "a = 1.5\n", "a = -1\n", "a = 1_000\n",
    "a = 007\n", "a = 2026-05-18T10:00:00\n", "a = 2026-05-18 10:00:00\n", "a = {b = 1}\n",
    "a.b = 1\n", "a = 1\na = 2\n", "[t]\n[t]\n", "a = 1\n[a]\n", "[[t]]\n", "a = [1\n",
    'a = "x\\u00e9"\n', "a = 2026-13-01\n", "a = 1 b\n", "a = \"x\ny\"\n", "a = 1\rb = 2\n",
])
def test_fast_format_reader_leaves_the_rest_to_tomllib(text: str) -> None:
    import tomllib

    fast = fast_toml.format_toml(text)
    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        assert fast is None
        return
    assert fast is None or fast == expected
