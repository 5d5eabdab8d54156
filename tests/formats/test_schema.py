"""The strict format schema (pydantic, for files people write) and the plain classes agree,
and every shipped format file passes the strict schema (shipped files are read plainly)."""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path

import pytest

from deckcheck.formats import model, schema
from deckcheck.formats.loader import FORMAT_FILE, shipped_dir
from deckcheck.formats.native import parse_format

PAIRS = [(model.SizeRange, schema.SizeRangeSchema), (model.LimitGroup, schema.LimitGroupSchema),
         (model.BanlistEntry, schema.BanlistEntrySchema), (model.Banlist, schema.BanlistSchema),
         (model.FormatImports, schema.FormatImportsSchema), (model.Format, schema.FormatSchema)]
MINIMAL = {"SizeRange": {"max": 1}, "LimitGroup": {"name": "g", "max": 1},
           "BanlistEntry": {"passcode": 1},
           "Banlist": {"name": "n", "format": "f", "effective": dt.date(2026, 1, 1)},
           "FormatImports": {}, "Format": {"id": "x", "name": "X"}}


@pytest.mark.parametrize(("plain", "strict"), PAIRS, ids=[p.__name__ for p, _ in PAIRS])
def test_schema_matches_the_plain_class(plain: type, strict: type) -> None:
    assert list(plain.model_fields) == list(strict.model_fields)  # type: ignore[attr-defined]
    values = MINIMAL[plain.__name__]
    # the same defaults
    assert plain(**values).model_dump() == strict(**values).model_dump()


SHIPPED = sorted(shipped_dir().glob(f"*/{FORMAT_FILE}"))  # type: ignore[union-attr]


@pytest.mark.parametrize("path", SHIPPED, ids=[p.parent.name for p in SHIPPED])
def test_every_shipped_format_file_passes_the_strict_schema(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    strict = schema.FormatSchema.model_validate(tomllib.loads(text))
    plain = parse_format(text, path, trusted=True)
    assert plain.model_dump() == strict.model_dump()
    assert parse_format(text, path) == plain  # the user-file path gives the same format


def test_a_user_format_file_gets_pydantic_messages(tmp_path: Path) -> None:
    from deckcheck.errors import FormatError

    with pytest.raises(FormatError, match=r"`main.max`: field required"):
        parse_format('id = "x"\nname = "X"\n[main]\nmin = 40\n', tmp_path / FORMAT_FILE)
    with pytest.raises(FormatError, match=r"`colour`: extra inputs are not permitted"):
        parse_format('id = "x"\nname = "X"\ncolour = "red"\n', tmp_path / FORMAT_FILE)


def test_every_shipped_list_passes_the_strict_schema() -> None:
    """List files are checked line by line by `native`; what it builds from every shipped
    list also passes the strict schema, value for value."""
    from deckcheck.formats.native import parse_list

    paths = [p for p in sorted(shipped_dir().glob("*/*.toml"))  # type: ignore[union-attr]
             if p.name != FORMAT_FILE]
    assert paths
    for path in paths:
        bl = parse_list(path.read_text(encoding="utf-8"), path)
        strict = schema.BanlistSchema.model_validate(bl.model_dump())
        assert strict.model_dump() == bl.model_dump(), path
