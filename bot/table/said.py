"""Messages kept in the log and snapshots: a :class:`Msg` as JSON-ready data and back.

The log stores no prose: a record says what happened by message key and typed
parameters, and whoever reads the history later renders it in his own language. Text an
older record holds is read back as :func:`bot.poker.messages.raw` (shown as it was).

>>> from bot.poker.messages import Chips, Name, msg
>>> m = msg("t.sits", who=Name("ann"), amount=Chips(200))
>>> load(dump(m)) == m
True
>>> load("Ann calls 20")
Msg(key='engine.raw', params=(('text', Name(text='Ann calls 20')),))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from bot.poker.messages import (
    Cards,
    Chips,
    Count,
    Listing,
    Msg,
    Name,
    Number,
    Param,
    Player,
    Rule,
    Term,
    raw,
)


def _dump_param(value: Param) -> list[Any]:
    if isinstance(value, Msg):
        return ["msg", dump(value)]
    if isinstance(value, Cards):
        return ["cards", list(value.codes)]
    if isinstance(value, Listing):
        return ["list", [dump(item) for item in value.items], value.conjunction]
    if isinstance(value, Chips):
        return ["chips", value.n]
    if isinstance(value, Count):
        return ["count", value.n]
    if isinstance(value, Number):
        return ["number", value.n]
    if isinstance(value, Player):
        return ["player", value.position]
    if isinstance(value, Name):
        return ["name", value.text]
    if isinstance(value, Rule):
        return ["rule", value.id]
    return ["term", value.key]


def _load_param(data: list[Any]) -> Param:
    tag, value = data[0], data[1]
    if tag == "msg":
        return load(value)
    if tag == "cards":
        return Cards(tuple(str(c) for c in value))
    if tag == "list":
        conj: Literal["or", "and"] = "and" if data[2] == "and" else "or"
        return Listing(tuple(load(item) for item in value), conj)
    if tag == "chips":
        return Chips(int(value))
    if tag == "count":
        return Count(int(value))
    if tag == "number":
        return Number(value if isinstance(value, float) else int(value))
    if tag == "player":
        return Player(int(value))
    if tag == "name":
        return Name(str(value))
    if tag == "rule":
        return Rule(str(value))
    if tag == "term":
        return Term(str(value))
    raise ValueError(f"unknown parameter type {tag!r}")


def named(m: Msg, names: Sequence[str]) -> Msg:
    """``m`` with each player by position replaced by his name: a message that reads
    alone, as the log and the snapshots keep it (the positions' names are the hand's)."""

    def param(value: Param) -> Param:
        if isinstance(value, Player) and 0 <= value.position < len(names):
            return Name(names[value.position])
        if isinstance(value, Msg):
            return named(value, names)
        if isinstance(value, Listing):
            return Listing(tuple(named(i, names) for i in value.items), value.conjunction)
        return value

    return Msg(m.key, tuple((k, param(v)) for k, v in m.params))


def dump(m: Msg) -> dict[str, Any]:
    """``m`` as JSON-ready data: ``{"key": ..., "params": [[name, [type, value]], ...]}``."""
    out: dict[str, Any] = {"key": m.key}
    if m.params:
        out["params"] = [[name, _dump_param(value)] for name, value in m.params]
    return out


def load(data: object) -> Msg:
    """A message from :func:`dump`'s data; a plain string (an older record's words) is
    read as :func:`raw` text; nothing at all is the empty raw message."""
    if isinstance(data, Msg):
        return data
    if data is None:
        return raw("")
    if isinstance(data, str):
        return raw(data)
    if not isinstance(data, dict) or not isinstance(data.get("key"), str):
        raise ValueError(f"not a message: {data!r}")
    params = tuple((str(name), _load_param(value)) for name, value in data.get("params", ()))
    return Msg(data["key"], params)


__all__ = ["dump", "load", "named"]
