"""The pictures' words, in the language of whoever reads the picture.

Every word a picture draws or says in its alt text is a key of the ``art`` catalogue
(``bot/words/locales/<lang>/LC_MESSAGES/art.po``), said through :func:`bot.words.render`.
Words the caller brings (a game's or a hand's name, a street, a last action, a caption)
are a :data:`Text`: a :class:`~bot.poker.messages.Msg`, said in the picture's language,
or a ``str``, drawn as it is (a player's name, or words the caller has already said).
Amounts are numbers of the locale (CLDR, through Babel): ``1,480`` / ``1.480`` / ``1 480``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TypeAlias

from babel.numbers import format_decimal

from bot.poker.messages import Msg, Name, Param, msg
from bot.words import DEFAULT, Locale, render

Text: TypeAlias = "str | Msg"
"""Words given to a picture: a message said in its language, or text drawn as it is."""

_MILLION = 1_000_000
_BILLION = 1_000_000_000


@lru_cache(maxsize=8192)
def _said(m: Msg, locale: Locale) -> str:
    return render(m, locale)


@lru_cache(maxsize=8192)
def _say(locale: Locale, key: str, params: tuple[tuple[str, Param], ...]) -> str:
    # Labels repeat from one picture to the next: each is said once per language.
    return render(msg(key, **dict(params)), locale)


class Words:
    """One picture's words in one language (cheap; the sentences are cached)."""

    __slots__ = ("locale",)

    def __init__(self, locale: Locale = DEFAULT) -> None:
        self.locale: Locale = locale

    def __call__(self, key: str, **params: Param) -> str:
        """The ``art`` message ``key`` with its parameters, in this language."""
        return _say(self.locale, key, tuple(params.items()))

    def text(self, value: Text) -> str:
        """A caller's words: a message said in this language, a ``str`` as it is."""
        return value if isinstance(value, str) else _said(value, self.locale)

    def amount(self, n: int) -> str:
        """Chips with the locale's grouping; from ten million on shortened (``12.5M``,
        ``12,5 Mio.``, ``12,5 млн``) so plates stay narrow."""
        return _amount(n, self.locale)


@lru_cache(maxsize=8192)
def _amount(n: int, locale: Locale) -> str:
    if abs(n) >= 10 * _MILLION:
        big = abs(n) >= 10 * _BILLION
        short = n / (_BILLION if big else _MILLION)
        number = str(format_decimal(short, format="0.0", locale=locale))
        key = "art.amount.billions" if big else "art.amount.millions"
        return _said(msg(key, n=Name(number)), locale)
    return str(format_decimal(n, format="#,##0", locale=locale))


ENGLISH = Words()

__all__ = ["ENGLISH", "Text", "Words"]
