"""What the engine says, as data: a message key and typed parameters.

The engine never writes a sentence. A refusal, a legal option or a line of a pot
system's log is a :class:`Msg`: a key that names the message (``"bet.below_min"``) and
its parameters, each typed by what it is (chips, a count that picks a plural form, a
player by position, cards, a rule id, a term of the catalogue, a list). Presenters turn
it into words in the reader's language (:mod:`bot.words`); nothing reads words back.

>>> m = msg("bet.below_min", least=Chips(4), rule=Rule("R-5.2"))
>>> m.key, m.get("least")
('bet.below_min', Chips(n=4))
>>> msg("x", n=3)
Traceback (most recent call last):
...
TypeError: parameter 'n' of 'x' is int; wrap it (Chips, Count, ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias


@dataclass(frozen=True, slots=True)
class Chips:
    """An amount of chips (formatted as a number in the reader's locale)."""

    n: int


@dataclass(frozen=True, slots=True)
class Count:
    """A number that chooses the plural form of its sentence (there is one per message)."""

    n: int


@dataclass(frozen=True, slots=True)
class Number:
    """Any other number: a seat, a hand number, seconds, a position in a list."""

    n: int | float


@dataclass(frozen=True, slots=True)
class Player:
    """A player by his position in the hand; the presenter names him."""

    position: int


@dataclass(frozen=True, slots=True)
class Name:
    """A name someone chose (a display name): shown as it is, escaped by the presenter."""

    text: str


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards by their two-character codes (``As``, ``Td``); shown as the reader's
    presenter shows cards."""

    codes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule id of the rulebook (``R-6.2``): the same in every language."""

    id: str


@dataclass(frozen=True, slots=True)
class Term:
    """A word of the catalogue chosen by the engine (a hand name, a game, a street)."""

    key: str


@dataclass(frozen=True, slots=True)
class Listing:
    """Several parts said as one list: ``a, b or c`` (``or``) or ``a, b and c``."""

    items: tuple[Msg, ...]
    conjunction: Literal["or", "and"] = "or"


Param: TypeAlias = "Chips | Count | Number | Player | Name | Cards | Rule | Term | Listing | Msg"
PARAM_TYPES = (Chips, Count, Number, Player, Name, Cards, Rule, Term, Listing)


@dataclass(frozen=True, slots=True)
class Msg:
    """One message: its key in the catalogue and its parameters by name."""

    key: str
    params: tuple[tuple[str, Param], ...] = ()

    def get(self, name: str) -> Param | None:
        """The parameter called ``name`` (None if the message has none)."""
        for key, value in self.params:
            if key == name:
                return value
        return None

    @property
    def named(self) -> Mapping[str, Param]:
        return dict(self.params)

    def count(self) -> int | None:
        """The number that picks this message's plural form, if it has one."""
        for _, value in self.params:
            if isinstance(value, Count):
                return value.n
        return None


def msg(key: str, **params: Param) -> Msg:
    """A :class:`Msg`; every parameter must be typed (a bare ``int`` or ``str`` would
    leave the presenter guessing whether it is chips, a count or a name)."""
    for name, value in params.items():
        if not isinstance(value, (*PARAM_TYPES, Msg)):
            raise TypeError(
                f"parameter {name!r} of {key!r} is {type(value).__name__}; "
                "wrap it (Chips, Count, ...)"
            )
    return Msg(key, tuple(params.items()))


def joined(items: tuple[Msg, ...] | list[Msg], separator: str = "engine.comma") -> Msg:
    """Several messages said one after another with a separator between them and no
    conjunction (``a, b, c``; with ``engine.semicolon``: ``a; b; c``), as one message."""
    if not items:
        raise ValueError("nothing to join")
    out = items[-1]
    for item in reversed(items[:-1]):
        out = msg(separator, head=item, tail=out)
    return out


def names(players: tuple[Param, ...] | list[Param]) -> Listing:
    """Players (or names) said as a list with "and" (``Ann, Bob and Cy``)."""
    return Listing(tuple(msg("engine.who", who=p) for p in players), "and")


RAW = "engine.raw"
"""The key of a sentence not yet moved to the catalogue (its text is its only parameter)."""


def raw(text: str) -> Msg:
    """A sentence written before its message had a key (shown as it is, in English)."""
    return Msg(RAW, (("text", Name(text)),))


def debug(m: Msg) -> str:
    """``m`` for a developer or an operator's log, never for a player: a raw sentence's
    text, else the key and its parameters (``refuse.bet_below_min(least=4)``). Words
    for players are the presenter's (``bot.words.render``)."""
    text = m.get("text")
    if m.key == RAW and isinstance(text, Name):
        return text.text
    if not m.params:
        return m.key
    return f"{m.key}({', '.join(f'{k}={_debug_param(v)}' for k, v in m.params)})"


def _debug_param(value: Param) -> str:
    if isinstance(value, Msg):
        return debug(value)
    if isinstance(value, (Chips, Count, Number)):
        return str(value.n)
    if isinstance(value, Name):
        return repr(value.text)
    if isinstance(value, Player):
        return f"p{value.position}"
    if isinstance(value, Cards):
        return "".join(value.codes)
    if isinstance(value, (Rule, Term)):
        return value.id if isinstance(value, Rule) else value.key
    return "[" + ", ".join(debug(i) for i in value.items) + "]"


__all__ = [
    "PARAM_TYPES",
    "Cards",
    "Chips",
    "Count",
    "Listing",
    "Msg",
    "Name",
    "Number",
    "Param",
    "Player",
    "Rule",
    "Term",
    "debug",
    "joined",
    "msg",
    "names",
    "raw",
]
