"""Helpers for tests that check what the table or engine said as a message.

Tests hold answers to their key and typed parameters, not to English; a part of a
composed message (an option inside a refusal) is looked for with :func:`said_in`.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.poker.messages import Listing, Msg


def parts(m: Msg) -> Iterator[Msg]:
    """``m`` and every message inside it (parameters, lists), depth first."""
    yield m
    for _, value in m.params:
        if isinstance(value, Msg):
            yield from parts(value)
        elif isinstance(value, Listing):
            for item in value.items:
                yield from parts(item)


def said_in(m: Msg | None, part: Msg) -> bool:
    """Whether ``part`` is ``m`` or a message inside it."""
    return m is not None and any(p == part for p in parts(m))


def keys_in(m: Msg | None) -> set[str]:
    """The keys of ``m`` and of every message inside it."""
    return set() if m is None else {p.key for p in parts(m)}
