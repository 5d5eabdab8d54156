"""`Plain` and `Value`: the bases of deckcheck's value classes (cards, decks, formats, reports).

They are plain classes, not pydantic models: a plain `deckcheck check` never imports pydantic
(its import and the building of each model class cost more than the whole check; see
ARCHITECTURE.md, "Speed"). Values are built by deckcheck's own readers and loaders, which
check what they read; pydantic stays at the boundaries where people write the input (user
format files, goldfish profiles), in schema twins built only there.

- `Value`: an immutable, hashable value (what a rule found, a violation). Its fields are
  declared once, as annotated class attributes with their defaults (as in a dataclass); the
  keyword-only constructor, the storage (a tuple: nothing can be reassigned) and
  `model_fields` all follow from that one list, so a new field is one line. Built in one C
  call on hot paths (`from_fields`), where a frozen dataclass sets each field through
  `object.__setattr__`. Its field reads cost 25 ns against 15 for a `__slots__` field
  (CPython 3.11 specialises slot reads only): values read thousands of times per check stay
  `Plain`.
- `Plain`: a `__slots__` class with a hand-written keyword-only constructor (decks, reports,
  cards; and deck entries and locations, read on every check: they hash by their fields, so
  they must not be changed once built, a rule not enforced; make a changed copy with
  `model_copy(update=...)`).

Both keep the small part of pydantic's model interface the code and its users rely on:
`model_fields`, `model_copy(update=...)`, `model_dump(mode="python"|"json", exclude=...)`,
`model_dump_json()`, `model_construct(...)` and `model_validate(...)` /
`model_validate_json(...)` for data deckcheck wrote itself (nested values are built, not
re-validated). Equality compares the class and every field.
"""

from __future__ import annotations

import collections
import datetime as dt
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, dataclass_transform

_P = TypeVar("_P", bound="Plain")
_V = TypeVar("_V", bound="Value")
_M = TypeVar("_M", bound="_Model")


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
    if isinstance(value, _Model):
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


class _Model:
    """What `Plain` and `Value` share: pydantic's model interface, over `model_fields`."""

    __slots__ = ()

    #: Field names in declaration order (as pydantic's `model_fields` keys).
    model_fields: ClassVar[dict[str, None]] = {}
    #: Fields holding other plain values, for `model_validate`: name -> class, or [class]
    #: for a list of them.
    _nested: ClassVar[dict[str, Any]] = {}
    #: Fields left out of `model_dump` (pydantic's `Field(exclude=True)`).
    _excluded: ClassVar[frozenset[str]] = frozenset()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in self.model_fields)

    def __repr__(self) -> str:
        args = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.model_fields)
        return f"{type(self).__name__}({args})"

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
    def model_construct(cls: type[_M], **values: Any) -> _M:
        return cls(**values)

    @classmethod
    def model_validate(cls: type[_M], data: Any) -> _M:
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
    def model_validate_json(cls: type[_M], text: str | bytes) -> _M:
        import json

        return cls.model_validate(json.loads(text))


class Plain(_Model):
    """A mutable value class: `__slots__` fields, a keyword-only constructor, pydantic-like
    helpers. The classes that hash by their fields must not be changed once built: make a
    changed copy with `model_copy(update=...)` (or make them a `Value`)."""

    __slots__ = ()

    _all_slots: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        slots = [s for c in reversed(cls.__mro__) for s in c.__dict__.get("__slots__", ())]
        cls._all_slots = tuple(slots)
        # private slots (a leading underscore: caches) are not fields
        cls.model_fields = dict.fromkeys(s for s in slots if not s.startswith("_"))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    # defining __eq__ makes a class unhashable (mutable) unless it defines __hash__ too

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


_tuple_new = tuple.__new__
_tuple_eq = tuple.__eq__
#: The C field getter of namedtuple's fields (its own fallback on another Python), without
#: building a namedtuple class per `Value` class (~0.15 ms of start-up each).
_tuplegetter: Callable[[int, str], Any] = collections._tuplegetter  # type: ignore[attr-defined]
if TYPE_CHECKING:
    def from_fields(cls: type[_V], values: tuple[Any, ...], /) -> _V:
        """A `Value` from all its fields in declaration order, in one C call (hot loops; a
        test beside each use holds the order to `model_fields`). Nothing is converted."""
else:
    from_fields = _tuple_new


def _rebuild(cls: type[_V], values: tuple[Any, ...]) -> _V:
    """A value from its fields in order (how a `Value` is pickled and copied)."""
    return from_fields(cls, values)


def _constructor(name: str, fields: list[str], defaults: dict[str, Any], kw_only: bool,
                 convert: dict[str, Callable[[Any], Any]]) -> Callable[..., Any]:
    """The `__new__` of a `Value` class: its fields as (keyword-only) parameters with their
    defaults, each given to its converter when the class names one, stored as a tuple."""
    env: dict[str, Any] = {"_new": _tuple_new}
    params, items = [], []
    for i, f in enumerate(fields):
        if f in defaults:
            env[f"_d{i}"] = defaults[f]
            params.append(f"{f}=_d{i}")
        else:
            params.append(f)
        if f in convert:
            env[f"_c{i}"] = convert[f]
            items.append(f"_c{i}({f})")
        else:
            items.append(f)
    star = "*, " if kw_only else ""
    src = (f"def __new__(_cls, {star}{', '.join(params)}):\n"
           f"    return _new(_cls, ({', '.join(items)},))\n")
    exec(src, env)  # noqa: S102 - our own field names, as namedtuple and dataclasses do
    new: Callable[..., Any] = env["__new__"]
    new.__qualname__ = f"{name}.__new__"
    return new


class _ValueMeta(type):
    """Makes a `Value` class of its annotated fields: their order, defaults and converters
    give the constructor, `model_fields` and a read-only getter per field."""

    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any],
                kw_only: bool = True, **kwargs: Any) -> _ValueMeta:
        ns.setdefault("__slots__", ())
        fields = [f for f, kind in ns.get("__annotations__", {}).items()
                  if not f.startswith("_") and not str(kind).startswith("ClassVar")]
        if fields:
            if any(getattr(b, "model_fields", None) for b in bases):
                raise TypeError(f"{name}: a Value class declares all its fields itself")
            defaults = {f: ns.pop(f) for f in fields if f in ns}
            ns.update({f: _tuplegetter(i, f"Alias for field number {i}")
                       for i, f in enumerate(fields)})
            ns["model_fields"] = dict.fromkeys(fields)
            ns["__new__"] = _constructor(name, fields, defaults, kw_only,
                                         ns.get("_convert", {}))
        return super().__new__(mcls, name, bases, ns, **kwargs)

    def __init__(cls, name: str, bases: tuple[type, ...], ns: dict[str, Any],
                 kw_only: bool = True, **kwargs: Any) -> None:
        super().__init__(name, bases, ns, **kwargs)


if TYPE_CHECKING:
    _Tuple = object
else:
    _Tuple = tuple


@dataclass_transform(kw_only_default=True, frozen_default=True)
class Value(_Model, _Tuple, metaclass=_ValueMeta):
    """An immutable, hashable value class: declare each field once, as an annotated class
    attribute with its default (`line: int | None = None`); a field without a default must be
    given. `class X(Value, kw_only=False)` takes its fields positionally too. `_convert`
    (name -> function) normalises what a caller gives for a field (a list kept as a tuple).
    Fields cannot be reassigned; `model_copy(update=...)` makes a changed copy."""

    __slots__ = ()

    #: Field name -> a function each given value (or default) goes through.
    _convert: ClassVar[dict[str, Callable[[Any], Any]]] = {}

    if not TYPE_CHECKING:
        __hash__ = tuple.__hash__

    def _values(self) -> tuple[Any, ...]:
        return tuple(self)  # type: ignore[arg-type]  # a tuple at run time

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            # another tuple would compare by its items: a value is not a tuple
            return False if isinstance(other, tuple) else NotImplemented
        return _tuple_eq(self, other)  # type: ignore[arg-type]

    def __ne__(self, other: object) -> bool:
        if type(other) is not type(self):
            return True if isinstance(other, tuple) else NotImplemented
        return not _tuple_eq(self, other)  # type: ignore[arg-type]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), tuple(self)))  # type: ignore[arg-type]

    def model_copy(self: _V, *, update: dict[str, Any] | None = None, deep: bool = False) -> _V:
        """A copy with the fields in `update` replaced (`deep`: the other fields deep-copied)."""
        values = dict(zip(self.model_fields, self._values(), strict=True))
        if deep:
            import copy

            values = copy.deepcopy(values)
        for name in update or {}:
            if name not in self.model_fields:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
        values.update(update or {})
        return type(self)(**values)
