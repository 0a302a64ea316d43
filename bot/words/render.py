"""From a message to words in one language: the only place that happens.

>>> from bot.poker.messages import Chips, msg
>>> render(msg("legal.call", amount=Chips(1500)), "en")
'call 1,500'
>>> render(msg("legal.call", amount=Chips(1500)), "de")
'1.500 mitgehen'
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

from babel.lists import format_list
from babel.numbers import format_decimal

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
)
from bot.words.catalog import translations
from bot.words.locales import DEFAULT, Locale

PLURAL: str = ".plural"
"""A plural message's second id is its key plus this (gettext needs two ids)."""

Namer = Callable[[int], str]


class MissingKey(KeyError):
    """A key no catalogue holds, not even English's (the catalogue test prevents it)."""


def _lookup(key: str, count: int | None, locale: Locale) -> str:
    for lang in (locale, DEFAULT):
        t = translations(lang)
        if count is not None:
            # A count picks a plural form where the message has them; elsewhere it is
            # just a number in the sentence.
            text = t.ngettext(key, key + PLURAL, count)
            if text not in (key, key + PLURAL):
                return str(text)
        text = t.gettext(key)
        if text != key:
            return str(text)
    raise MissingKey(key)


class _Params(Mapping[str, str]):
    """A message's parameters as text, made only when its sentence asks for them."""

    def __init__(self, m: Msg, locale: Locale, names: Namer | None) -> None:
        self._m, self._locale, self._names = m, locale, names

    def __getitem__(self, name: str) -> str:
        value = self._m.get(name)
        if value is None:
            raise KeyError(name)
        return _param(value, self._locale, self._names)

    def __iter__(self) -> Any:
        return iter(dict(self._m.params))

    def __len__(self) -> int:
        return len(self._m.params)


def _number(n: int | float, locale: Locale, *, grouped: bool = True) -> str:
    return str(format_decimal(n, locale=locale, group_separator=grouped))


def _param(value: Param, locale: Locale, names: Namer | None) -> str:
    if isinstance(value, (Chips, Count)):
        return _number(value.n, locale)
    if isinstance(value, Number):
        # A seat, a hand or turn number, seconds: a label, never grouped ("Hand #1024"),
        # with the language's decimal mark.
        return _number(value.n, locale, grouped=False)
    if isinstance(value, Player):
        return names(value.position) if names is not None else f"{{p{value.position}}}"
    if isinstance(value, Name):
        return value.text
    if isinstance(value, Cards):
        return " ".join(value.codes)
    if isinstance(value, Rule):
        return value.id
    if isinstance(value, Term):
        return render(Msg(value.key), locale, names=names)
    if isinstance(value, Listing):
        parts = [render(item, locale, names=names) for item in value.items]
        if len(parts) <= 1:
            return "".join(parts)
        if value.conjunction == "or":
            return str(format_list(parts, style="or", locale=locale))
        return str(format_list(parts, style="standard", locale=locale))
    return render(value, locale, names=names)


def render(m: Msg, locale: Locale = DEFAULT, *, names: Namer | None = None) -> str:
    """``m`` in words in ``locale`` (English where the language lacks the key).
    ``names``: how to name a player by position (else a ``{pN}`` token is left)."""
    template = _lookup(m.key, m.count(), locale)
    return string.Formatter().vformat(template, (), _Params(m, locale, names))


__all__ = ["MissingKey", "Namer", "render"]
