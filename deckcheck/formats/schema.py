"""The strict (pydantic) schema of format and list files, for files people write.

`deckcheck.formats.model` holds plain classes (no pydantic on the check path); each declares
its fields once, and the schema classes here are made from those declarations (`_schema`):
the same fields in the same order, the same types (a plain class inside becomes its
schema), the same defaults, and `extra="forbid"`. A format file in the user's own folder is
validated against `FormatSchema` (exact pydantic error messages); the shipped format files
are read by a plain loader, and `tests/formats/test_schema.py` validates every shipped file
against this schema, so a bad shipped file still fails the tests. List files are checked
by `deckcheck.formats.native` line by line.
"""

from __future__ import annotations

import functools
import operator
import types
import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from deckcheck.formats import model
from deckcheck.formats.model import _Field
from deckcheck.plain import Plain

#: plain class -> its schema, filled in the order the classes nest
_SCHEMAS: dict[type, type[BaseModel]] = {}


def _boundary(tp: Any) -> Any:
    """A plain field's type with every plain class in it replaced by its schema."""
    if isinstance(tp, type) and issubclass(tp, Plain):
        return _SCHEMAS[tp]
    args = typing.get_args(tp)
    origin = typing.get_origin(tp)
    if not args or origin is typing.Literal:
        return tp
    inner = tuple(_boundary(a) for a in args)
    if origin in (types.UnionType, typing.Union):
        return functools.reduce(operator.or_, inner)
    return origin[inner] if len(inner) > 1 else origin[inner[0]]


def _to_schema(value: Any) -> Any:
    """A plain default as the schema's default (a plain value becomes a schema value)."""
    if isinstance(value, Plain):
        return _SCHEMAS[type(value)].model_validate(value.model_dump())
    return value


def _schema(plain: type[Plain]) -> type[BaseModel]:
    """The pydantic model of a plain class's fields (`plain.model_fields`, `_defaults`)."""
    hints = typing.get_type_hints(plain)
    defaults: dict[str, Any] = getattr(plain, "_defaults", {})
    fields: dict[str, Any] = {}
    for name in plain.model_fields:
        default = defaults.get(name, ...)
        if isinstance(default, _Field):
            factory = default.factory
            assert factory is not None
            default = Field(default_factory=lambda make=factory: _to_schema(make()))
        fields[name] = (_boundary(hints[name]), _to_schema(default))
    schema: type[BaseModel] = create_model(f"{plain.__name__}Schema", __doc__=plain.__doc__,
                                           __config__=ConfigDict(frozen=True, extra="forbid"),
                                           **fields)
    _SCHEMAS[plain] = schema
    return schema


SizeRangeSchema = _schema(model.SizeRange)
LimitGroupSchema = _schema(model.LimitGroup)
BanlistEntrySchema = _schema(model.BanlistEntry)
BanlistSchema = _schema(model.Banlist)
FormatImportsSchema = _schema(model.FormatImports)
FormatSchema = _schema(model.Format)
