"""`Plain`: the base of deckcheck's value classes (cards, decks, formats, reports).

They are plain `__slots__` classes with hand-written keyword-only constructors, not pydantic
models: a plain `deckcheck check` never imports pydantic (its import and the building of
each model class cost more than the whole check; see ARCHITECTURE.md, "Speed"). Values are
built by deckcheck's own readers and loaders, which check what they read; pydantic stays at
the boundaries where people write the input (user format files, goldfish profiles), in
schema twins built only there.

`Plain` keeps the small part of pydantic's model interface the code and its users rely on:
`model_fields`, `model_copy(update=...)`, `model_dump(mode="python"|"json", exclude=...)`,
`model_dump_json()`, `model_construct(...)` and `model_validate(...)` /
`model_validate_json(...)` for data deckcheck wrote itself (nested values are built, not
re-validated). Equality compares the class and every field; the classes used as values
(cards, locations, entries, violations) hash by their fields, so they must not be changed once
built: make a changed copy with `model_copy(update=...)`. That is a rule, not enforced: a
refusing `__setattr__` made every field set a Python call (measured: `.ydk` reading 55 -> 75
us/deck with frozen locations; a GOAT check 265 -> 368 us/deck with frozen violations).
"""

from __future__ import annotations

import datetime as dt
from enum import Enum
from typing import Any, ClassVar, TypeVar

_P = TypeVar("_P", bound="Plain")


def _key(key: Any) -> str:
    """A dict key as JSON (pydantic's way): strings as they are, enums by value, dates in ISO
    form, anything else as `str`."""
    if isinstance(key, str) and not isinstance(key, Enum):
        return key
    if isinstance(key, Enum):
        return str(key.value)
    if isinstance(key, (dt.date, dt.datetime)):
        return key.isoformat()
    return str(key)


def _dump(value: Any, json: bool) -> Any:
    if isinstance(value, Plain):
        return value.model_dump(mode="json" if json else "python")
    if isinstance(value, list):
        return [_dump(v, json) for v in value]
    if isinstance(value, dict):
        return {(_key(k) if json else k): _dump(v, json) for k, v in value.items()}
    if json:
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, (dt.date, dt.datetime)):
            return value.isoformat()
        if isinstance(value, (tuple, set, frozenset)):
            return [_dump(v, json) for v in value]
        return value
    if isinstance(value, tuple):
        return tuple(_dump(v, json) for v in value)
    return value


class Plain:
    """A value class: `__slots__` fields, a keyword-only constructor, pydantic-like helpers."""

    __slots__ = ()

    #: Field names in declaration order (as pydantic's `model_fields` keys); private slots
    #: (a leading underscore: caches) are not fields.
    model_fields: ClassVar[dict[str, None]] = {}
    #: Fields holding other plain values, for `model_validate`: name -> class, or [class]
    #: for a list of them.
    _nested: ClassVar[dict[str, Any]] = {}
    #: Fields left out of `model_dump` (pydantic's `Field(exclude=True)`).
    _excluded: ClassVar[frozenset[str]] = frozenset()
    _all_slots: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        slots = [s for c in reversed(cls.__mro__) for s in c.__dict__.get("__slots__", ())]
        cls._all_slots = tuple(slots)
        cls.model_fields = dict.fromkeys(s for s in slots if not s.startswith("_"))

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in self.model_fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    # defining __eq__ makes a class unhashable (mutable) unless it defines __hash__ too

    def __repr__(self) -> str:
        args = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.model_fields)
        return f"{type(self).__name__}({args})"

    def __copy__(self: _P) -> _P:
        return self.model_copy()

    def model_copy(self: _P, *, update: dict[str, Any] | None = None, deep: bool = False) -> _P:
        """A copy (shallow unless `deep`), with the fields in `update` replaced."""
        new = object.__new__(type(self))
        for name in self._all_slots:
            try:
                value = getattr(self, name)
            except AttributeError:  # pragma: no cover - every slot is set by __init__
                continue
            object.__setattr__(new, name, value)
        if deep:
            import copy

            for name in self.model_fields:
                object.__setattr__(new, name, copy.deepcopy(getattr(self, name)))
        for name, value in (update or {}).items():
            if name not in self.model_fields:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
            object.__setattr__(new, name, value)
        return new

    def model_dump(self, *, mode: str = "python", exclude: set[str] | None = None
                   ) -> dict[str, Any]:
        """The fields as a dict, nested values too; `mode="json"`: JSON-ready values (enums
        by value, dates as ISO strings, tuples and sets as lists)."""
        json = mode == "json"
        skip = self._excluded | (exclude or set())
        return {n: _dump(getattr(self, n), json) for n in self.model_fields if n not in skip}

    def model_dump_json(self) -> str:
        import json

        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False,
                          separators=(",", ":"))

    @classmethod
    def model_construct(cls: type[_P], **values: Any) -> _P:
        return cls(**values)

    @classmethod
    def model_validate(cls: type[_P], data: Any) -> _P:
        """Build from a dict deckcheck wrote (`model_dump`); nested values are built too.
        Values are not checked: user-written input goes through a pydantic schema."""
        if isinstance(data, cls):
            return data
        if not isinstance(data, dict):
            raise TypeError(f"{cls.__name__} needs a dict, not {type(data).__name__}")
        values = dict(data)
        for name, sub in cls._nested.items():
            value = values.get(name)
            if value is None:
                continue
            if isinstance(sub, list):
                values[name] = [sub[0].model_validate(v) for v in value]
            else:
                values[name] = sub.model_validate(value)
        return cls(**values)

    @classmethod
    def model_validate_json(cls: type[_P], text: str | bytes) -> _P:
        import json

        return cls.model_validate(json.loads(text))
