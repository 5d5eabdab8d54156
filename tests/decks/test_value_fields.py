"""`Location`, `Entry` and `ReadProblem` declare their fields once (annotations; `__slots__`
follow); the hand-written constructor and hash are held to that list here, so a new field
is its annotation plus its keyword, and this test says when one is missing."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from deckcheck.decks.model import Entry, Location, ReadProblem

#: A value of each field's type, different from its default.
SAMPLES: dict[str, Any] = {
    "source": "deck.ydk", "line": 7, "sheet": "Deck", "cell": "B7", "part": "main[3]",
    "passcode": 14558127, "written": "Ash Blossom", "count": 2,
    "location": Location(source="a.ydk", line=3), "kind": "bad-line", "message": "m.",
    "section": "side", "suggestions": ("Ash Blossom & Joyous Spring",),
}
CLASSES = (Location, Entry, ReadProblem)


@pytest.mark.parametrize("cls", CLASSES)
def test_the_slots_are_the_annotated_fields(cls: type) -> None:
    assert cls.__slots__ == tuple(cls.__annotations__)
    assert list(cls.model_fields) == list(cls.__annotations__)


@pytest.mark.parametrize("cls", CLASSES)
def test_the_constructor_takes_and_sets_every_field(cls: type) -> None:
    params = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    assert params == list(cls.__annotations__)
    value = cls(**{name: SAMPLES[name] for name in params})
    assert {name: getattr(value, name) for name in params} == {n: SAMPLES[n] for n in params}


@pytest.mark.parametrize("cls", CLASSES)
def test_equality_and_hash_see_every_field(cls: type) -> None:
    fields = list(cls.__annotations__)
    base = cls(**{name: SAMPLES[name] for name in fields})
    for name in fields:
        other = base.model_copy(update={name: None if name != "count" else 3})
        assert other != base, name
        assert hash(other) != hash(base), name  # (a collision here is ~2**-64)
