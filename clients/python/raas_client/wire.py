"""The one place where Python names meet wire names.

Dataclass fields are snake_case in Python and camelCase on the wire (`loss_mask` <-> `lossMask`).
Only dataclass field names are converted: a plain dict (a task payload, a run's config, a job's
metadata) is the caller's own data and crosses the wire unchanged, in both directions.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, TypeVar

T = TypeVar("T")


class WireFormatError(ValueError):
    """A server reply that does not fit the client's dataclasses (a missing field, a wrong type)."""


def to_camel(name: str) -> str:
    """`created_at_ms` -> `createdAtMs`; a field may override it with `metadata={"wire": ...}`."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def wire_name(field: dataclasses.Field) -> str:
    return field.metadata.get("wire", to_camel(field.name))


@functools.cache
def field_types(cls: type) -> dict[str, Any]:
    """A dataclass's resolved annotations (cached: `get_type_hints` is slow)."""
    return typing.get_type_hints(cls)


def is_optional(annotation: Any) -> bool:
    return type(None) in union_members(annotation)


def union_members(annotation: Any) -> tuple[Any, ...]:
    """`X | None` -> (X, NoneType); a non-union -> (annotation,)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return typing.get_args(annotation)
    return (annotation,)


def to_wire(value: Any) -> Any:
    """A request value as JSON-ready data: dataclasses get camelCase keys, optional fields left unset
    (None with a None default) are omitted so the server applies its own default."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if item is None and field.default is None:
                continue
            out[wire_name(field)] = to_wire(item)
        return out
    if isinstance(value, (list, tuple)):
        return [to_wire(item) for item in value]
    return value


def from_wire(cls: type[T], data: Any, at: str = "$") -> T:
    """Builds `cls` (a dataclass, or a type annotation) from decoded JSON. Keys the client does not
    know are ignored, so a newer server with more fields still works; a missing field without a
    default raises WireFormatError."""
    return _convert(cls, data, at)


def _convert(annotation: Any, data: Any, at: str) -> Any:
    if annotation is Any:
        return data
    members = union_members(annotation)
    if len(members) > 1:
        if data is None:
            if type(None) in members:
                return None
            raise WireFormatError(f"{at}: null where {annotation} was expected")
        return _convert_union([m for m in members if m is not type(None)], data, at)
    if dataclasses.is_dataclass(annotation):
        return _convert_dataclass(annotation, data, at)
    origin = typing.get_origin(annotation)
    if origin is list:
        if not isinstance(data, list):
            raise WireFormatError(f"{at}: expected a list, got {type(data).__name__}")
        (item_type,) = typing.get_args(annotation) or (Any,)
        return [_convert(item_type, item, f"{at}[{index}]") for index, item in enumerate(data)]
    if origin is dict or annotation is dict:
        if not isinstance(data, dict):
            raise WireFormatError(f"{at}: expected an object, got {type(data).__name__}")
        return data
    if origin is typing.Literal:
        if data not in typing.get_args(annotation):
            raise WireFormatError(f"{at}: {data!r} is not one of {typing.get_args(annotation)}")
        return data
    if annotation is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise WireFormatError(f"{at}: expected a number, got {data!r:.40}")
        return float(data)
    if annotation in (int, str, bool):
        if not isinstance(data, annotation) or (annotation is int and isinstance(data, bool)):
            raise WireFormatError(f"{at}: expected {annotation.__name__}, got {data!r:.40}")
        return data
    return data


def _convert_union(members: list[Any], data: Any, at: str) -> Any:
    """A union of dataclasses is told apart by its `type` discriminator, else the first that fits."""
    errors = []
    for member in members:
        try:
            return _convert(member, data, at)
        except WireFormatError as error:
            errors.append(str(error))
    raise WireFormatError(errors[0])


def _convert_dataclass(cls: type, data: Any, at: str) -> Any:
    if not isinstance(data, dict):
        raise WireFormatError(f"{at}: expected an object for {cls.__name__}, got {type(data).__name__}")
    hints = field_types(cls)
    values = {}
    for field in dataclasses.fields(cls):
        if not field.init:
            continue
        key = wire_name(field)
        if key not in data:
            if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
                raise WireFormatError(f"{at}: {cls.__name__} needs {key!r}, which the reply lacks")
            continue
        values[field.name] = _convert(hints[field.name], data[key], f"{at}.{key}")
    return cls(**values)
