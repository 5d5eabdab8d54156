"""Every importer yields `SourceRecord`s: the passcode, only declared keys, each value of
its declared type (strictly: a bool is no int, a number no text)."""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deckcheck.sources import read_source
from deckcheck.sources.records import SourceData, SourceRecord

FIXTURES = Path(__file__).parent / "fixtures"
TYPES = typing.get_type_hints(SourceRecord)


def fits(value: object, tp: Any) -> bool:
    """Whether `value` is of the (plain-data) type `tp`."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, a) for a in args)
    if tp is None or tp is type(None):
        return value is None
    if origin is list:
        return isinstance(value, list) and all(fits(v, args[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(fits(k, args[0]) and fits(v, args[1])
                                               for k, v in value.items())
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, tp)


def problems(rec: dict[str, Any]) -> list[str]:
    out = [] if "passcode" in rec else ["no passcode"]
    for key, value in rec.items():
        if key not in TYPES:
            out.append(f"undeclared key {key!r}")
        elif not fits(value, TYPES[key]):
            out.append(f"{key}={value!r} is not {TYPES[key]}")
    return out


def assert_records(data: SourceData) -> None:
    assert data.records, data.name
    for rec in data.records:
        assert not problems(dict(rec)), (data.name, rec["passcode"], problems(dict(rec)))


@pytest.mark.parametrize("name", ["ygoprodeck_small.json", "yamlyugi_small.json",
                                  "ygocdb_small.json"])
def test_fixture_records_are_source_records(name: str) -> None:
    assert_records(read_source(FIXTURES / name))


def test_cdb_records_are_source_records(cdb_factory: Callable[..., Path]) -> None:
    path = cdb_factory([
        (89631139, 3, 0, 0x11, 3000, 2500, 8, 0x2000, 0x10, "Blue-Eyes White Dragon", "x"),
        (89631140, 3, 89631139, 0x11, 3000, 2500, 8, 0x2000, 0x10, "Blue-Eyes White Dragon",
         "x"),
        (12345, 3, 0, 0x4000021, 1000, 0x1 | 0x4, 2, 0x1, 0x20, "Linky", "y"),
    ])
    assert_records(read_source(path))


def test_the_check_can_fail() -> None:
    assert problems({"passcode": "123"}) == ["passcode='123' is not <class 'int'>"]
    assert problems({"passcode": 1, "nickname": "x"}) == ["undeclared key 'nickname'"]
    assert problems({"passcode": 1, "level": True, "names": {"en": 5}, "text": None}) == [
        "level=True is not int | None", "names={'en': 5} is not dict[str, str]"]
    assert problems({"name": "x"}) == ["no passcode"]


def test_real_records_are_source_records(real_store: Any) -> None:
    _, results = real_store
    for data, _ in results.values():
        assert_records(data)
