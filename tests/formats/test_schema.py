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


def test_each_class_declares_its_fields_once() -> None:
    """Issue 23 point 3: the constructor's keywords and the schema's fields both follow from
    the one field list (they were written out three times: slots, `__init__`, schema)."""
    import inspect

    for plain, strict in PAIRS:
        params = list(inspect.signature(plain.__init__).parameters)[1:]
        assert params == list(plain.model_fields), plain.__name__  # type: ignore[attr-defined]
        assert list(strict.model_fields) == params


def test_a_new_field_is_one_line() -> None:
    """A class declared like the format classes gets its constructor, slots and a strict
    schema (types, defaults and nested classes) from its annotated fields alone."""
    from pydantic import ValidationError

    from deckcheck.plain import Plain

    @model._value
    class Toy(Plain):
        name: str
        size: model.SizeRange = model.field(default_factory=lambda: model.SizeRange(max=2))
        tags: list[str] = model.field(default_factory=list)
        note: str | None = None
        day: dt.date | None = None

    toy = Toy(name="t", tags=["a"])
    assert Toy.__slots__ == ("name", "size", "tags", "note", "day")
    assert (toy.size, toy.tags, toy.note) == (model.SizeRange(min=0, max=2), ["a"], None)
    assert Toy(name="u").tags == [] and Toy(name="u").tags is not Toy(name="v").tags
    strict = schema._schema(Toy)
    assert strict(name="t").model_dump() == Toy(name="t").model_dump()
    assert strict(name="t", day="2026-01-02").model_dump()["day"] == dt.date(2026, 1, 2)
    with pytest.raises(ValidationError, match="size.max"):
        strict(name="t", size={"min": 1})
    with pytest.raises(ValidationError, match="colour"):
        strict(name="t", colour="red")
    with pytest.raises(TypeError):
        Toy(name="t", colour="red")  # type: ignore[call-arg]
