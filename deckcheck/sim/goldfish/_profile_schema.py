"""The goldfishing profile format as pydantic models: what `profile` falls back to when a
profile is not plainly well-formed, to coerce what pydantic coerces and to word the error
with its TOML key path. Well-formed profiles never import pydantic (`profile` checks them
itself, to the same rules).

The models are made from the plain classes of `profile_fields` (their fields, types,
defaults and bounds), so the two ends of a profile have one field list; `to_plain` turns a
model back into its plain class. This module imports nothing of `profile`: the plain reader
falls back to it, never the other way round."""

from __future__ import annotations

import functools
import operator
import types
import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, model_validator

from deckcheck.errors import ProfileError
from deckcheck.sim.goldfish.keys import key_path
from deckcheck.sim.goldfish.profile_fields import (
    Behaviour,
    CardEntry,
    Options,
    ProfileFile,
    RoleSpec,
    declared_fields,
    kind_problem,
)

#: The model made for each plain class, by class name (nested fields use the models).
_MODELS: dict[type, type[BaseModel]] = {}
_PLAIN: dict[str, type] = {}


def _swap(tp: Any) -> Any:
    """The type hint `tp` with every plain profile class replaced by its model."""
    if tp in _MODELS:
        return _MODELS[tp]
    args = typing.get_args(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, (_swap(a) for a in args))
    origin = typing.get_origin(tp)
    if origin in (dict, list):
        return origin[tuple(_swap(a) for a in args)] if len(args) > 1 else \
            origin[_swap(args[0])]
    return tp


def _model(cls: type, *, frozen: bool = False, **validators: Any) -> type[BaseModel]:
    """The pydantic model of the plain class `cls`: the same field names, types,
    defaults and bounds, unknown keys forbidden."""
    hints = typing.get_type_hints(cls)
    spec: dict[str, Any] = {}
    for f in declared_fields(cls):
        if f.internal:
            continue
        lo_hi = f.range
        bounds: dict[str, Any] = {"ge": lo_hi[0], "le": lo_hi[1]} if lo_hi else {}
        if f.factory is not None:
            factory: Any = f.factory
            default = Field(default_factory=_MODELS.get(factory, factory), **bounds)
        else:
            default = Field(default=f.default, **bounds)
        spec[f.name] = (_swap(hints[f.name]), default)
    model: type[BaseModel] = create_model(
        cls.__name__, __config__=ConfigDict(extra="forbid", frozen=frozen),
        __validators__=validators or None, **spec)
    _MODELS[cls] = model
    _PLAIN[cls.__name__] = cls
    return model


def _check_kind(self: Any) -> Any:
    problem = kind_problem(self)
    if problem is not None:
        raise ValueError(problem)
    return self


for _cls in (Options, RoleSpec, CardEntry):
    _model(_cls)
_model(Behaviour, frozen=True, one_kind=model_validator(mode="after")(_check_kind))
_model(ProfileFile)


def to_plain(value: Any) -> Any:
    """A validated model (and what it holds) as the plain classes `profile` uses."""
    if isinstance(value, BaseModel):
        cls = _PLAIN[type(value).__name__]
        if cls is CardEntry:  # only the fields the entry sets override the built-in table
            return CardEntry.of(value.model_dump(exclude_unset=True))
        return cls(**{k: to_plain(getattr(value, k)) for k in type(value).model_fields})
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    return value


def _pydantic_error(exc: ValidationError, source: str, prefix: str = "") -> ProfileError:
    err = exc.errors()[0]
    loc = tuple(p for p in err["loc"] if p not in ("list[str]", "RoleSpec"))
    if prefix:
        where = prefix + ("." + key_path(loc) if loc else "")
        msg = str(err["msg"]).removeprefix("Value error, ")
        return ProfileError(f"{source}: {where}: {msg}; fix the profile (its format is "
                            f"described in the README).")
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        msg = "unknown key"
    msg = msg.removeprefix("Value error, ")
    return ProfileError(f"{source}: {key_path(loc)}: {msg}; fix the profile (its format is "
                        f"described in the README).")


def validate_profile(data: dict[str, Any], source: str) -> BaseModel:
    """`data` as the model of a `ProfileFile`, or the ProfileError naming the first
    problem."""
    try:
        return _MODELS[ProfileFile].model_validate(data)
    except ValidationError as exc:
        raise _pydantic_error(exc, source) from None


def validate_behaviour(fields: dict[str, Any], source: str, path: str) -> BaseModel:
    """`fields` as the model of a `Behaviour`, or the ProfileError naming the problem under
    `path`."""
    try:
        return _MODELS[Behaviour].model_validate(fields)
    except ValidationError as exc:
        raise _pydantic_error(exc, source, prefix=path) from None
