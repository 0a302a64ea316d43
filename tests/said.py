"""Helpers for tests that check what the table or engine said as a message.

Tests hold answers to their key and typed parameters, not to English; a part of a
composed message (an option inside a refusal) is looked for with :func:`said_in`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.local.presenter import namer
from bot.poker.messages import Listing, Msg, Param
from bot.table.ports import Notice
from bot.words import Locale, render


def parts(m: Msg) -> Iterator[Msg]:
    """``m`` and every message inside it (parameters, lists), depth first."""
    yield m
    for _, value in m.params:
        if isinstance(value, Msg):
            yield from parts(value)
        elif isinstance(value, Listing):
            for item in value.items:
                yield from parts(item)


def params_in(m: Msg | None) -> list[Param]:
    """Every typed parameter of ``m`` and of the messages inside it (not the messages)."""
    if m is None:
        return []
    out: list[Param] = []
    for p in parts(m):
        out.extend(v for _, v in p.params if not isinstance(v, (Msg, Listing)))
    return out


def said_in(m: Msg | None, part: Msg) -> bool:
    """Whether ``part`` is ``m`` or a message inside it."""
    return m is not None and any(p == part for p in parts(m))


def keys_in(m: Msg | None) -> set[str]:
    """The keys of ``m`` and of every message inside it."""
    return set() if m is None else {p.key for p in parts(m)}


def en(m: Msg) -> str:
    """``m`` rendered in English, for the tests that check the wording."""
    return render(m, "en")


def told(notice: Notice, locale: Locale = "en") -> str:
    """The notice as a reader sees it: rendered in ``locale``, players named by the
    notice's hand (what a presenter does; for the tests that check the wording)."""
    return render(notice.msg, locale, names=namer(notice))


@contextmanager
def raises_saying(kind: type[Exception], pattern: str) -> Iterator[pytest.ExceptionInfo[Exception]]:
    """Like ``pytest.raises(kind, match=pattern)`` for an error that carries its refusal
    as a message (``msg``): the pattern is looked for in the message rendered in English,
    as a player reads it (the exception's ``str`` is for developers)."""
    with pytest.raises(kind) as info:
        yield info
    m = getattr(info.value, "msg", None)
    assert isinstance(m, Msg), info.value
    said = render(m, "en")
    assert re.search(pattern, said), said
