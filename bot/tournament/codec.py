"""One codec for the tournament's frozen records: a dataclass's fields to plain JSON
data and back, led by the fields' types.

Tuples are stored as lists (nested as deep as the type goes), a value with its own
``to_payload``/``from_payload`` (a :class:`~bot.tournament.structure.Config`) as its
payload, everything else as it is. Decoding checks each value against its field's
type, so a payload that does not fit is refused (:class:`CodecError`) instead of
making a record the fold would misread; a field a payload lacks takes its default
(fields added later read in logs written before them).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union, get_args, get_origin


class CodecError(ValueError):
    """A value that does not fit its field's type (for the operator: the field's path,
    the type expected, the value found)."""


def encode(value: object) -> object:
    """``value`` as plain JSON data (a dataclass as a dict of its fields, in order)."""
    to_payload = getattr(value, "to_payload", None)
    if callable(to_payload):
        return to_payload()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [encode(v) for v in value]
    return value


def fields(cls: type[object], data: Mapping[str, Any]) -> dict[str, object]:
    """The values of dataclass ``cls``'s fields that ``data`` holds, decoded by their
    types (a field it lacks is left to its default)."""
    hints = _hints(cls)
    return {
        f.name: _decode(hints[f.name], data[f.name], f.name)
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]  # a dataclass type, checked by _hints
        if f.name in data
    }


_HINTS: dict[type[object], dict[str, Any]] = {}


def _hints(cls: type[object]) -> dict[str, Any]:  # Any: type expressions
    hints = _HINTS.get(cls)
    if hints is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError("dataclass", cls)
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _decode(kind: Any, value: object, path: str) -> object:  # Any: a type expression
    origin, args = get_origin(kind), get_args(kind)
    if kind is Any:
        return value
    if origin is Literal:
        if value not in args or isinstance(value, bool) != isinstance(args[0], bool):
            raise CodecError(path, "literal", value)
        return value
    if origin in (Union, types.UnionType):
        for option in args:
            try:
                return _decode(option, value, path)
            except CodecError:
                continue
        raise CodecError(path, "union", value)
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise CodecError(path, "list", value)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v, f"{path}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise CodecError(path, "length", len(value))
        pairs = enumerate(zip(args, value, strict=True))
        return tuple(_decode(a, v, f"{path}[{i}]") for i, (a, v) in pairs)
    if kind is bool:
        if not isinstance(value, bool):
            raise CodecError(path, "bool", value)
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise CodecError(path, "int", value)
        return value
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise CodecError(path, "float", value)
        return float(value)
    if kind is str:
        if not isinstance(value, str):
            raise CodecError(path, "str", value)
        return value
    from_payload: Callable[[Any], object] | None = getattr(kind, "from_payload", None)
    if from_payload is not None:
        if not isinstance(value, Mapping):
            raise CodecError(path, "mapping", value)
        return from_payload(value)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(value, Mapping):
            raise CodecError(path, "mapping", value)
        return kind(**fields(kind, value))
    raise TypeError(path, kind)


__all__ = ["CodecError", "encode", "fields"]
