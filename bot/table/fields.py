"""The field readers of the persisted records: the table log (``bot.table.log``) and the
snapshots (``bot.table.snapshot``) read their JSON payloads through these, one set of
coercions with one wording of what was wrong.

JSON gives int, float, str, bool, None, list and dict. An int written as a string, or a
user id written as a number (old hand-edited logs), is read. Every reader raises
:class:`Malformed` naming the field; each record module turns it into its own error.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any

from bot.table.seating import SeatState


class Malformed(Exception):
    """A field of a payload that cannot be read (the message names it)."""


def get(p: Mapping[str, Any], key: str) -> Any:
    if key not in p:
        raise Malformed(f"missing {key!r}")
    return p[key]


def as_int(value: Any, key: str) -> int:
    if isinstance(value, bool):
        raise Malformed(f"{key!r} is a boolean, not a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            pass
    raise Malformed(f"{key!r} is {value!r}, not a whole number")


def opt_int(value: Any, key: str) -> int | None:
    return None if value is None else as_int(value, key)


def as_float(value: Any, key: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise Malformed(f"{key!r} is {value!r}, not a number")


def opt_float(value: Any, key: str) -> float | None:
    return None if value is None else as_float(value, key)


def as_str(value: Any, key: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # a user id written as a number
    raise Malformed(f"{key!r} is {value!r}, not text")


def opt_str(value: Any, key: str) -> str | None:
    return None if value is None else as_str(value, key)


def as_bool(value: Any, key: str) -> bool:
    if isinstance(value, bool):
        return value
    raise Malformed(f"{key!r} is {value!r}, not true or false")


def as_list(value: Any, key: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise Malformed(f"{key!r} is {value!r}, not a list")
    return list(value)


def as_ints(value: Any, key: str) -> tuple[int, ...]:
    return tuple(as_int(v, key) for v in as_list(value, key))


def as_dict(value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Malformed(f"{key!r} is {value!r}, not an object")
    return dict(value)


SEAT_STATES: frozenset[str] = frozenset(typing.get_args(SeatState))


def as_seat_state(value: Any, key: str) -> SeatState:
    text = as_str(value, key)
    if text not in SEAT_STATES:
        raise Malformed(
            f"{key!r} is {text!r}, not one of {', '.join(sorted(SEAT_STATES))}:"
            f" there is no seat state {text!r}"
        )
    return typing.cast(SeatState, text)  # checked just above
