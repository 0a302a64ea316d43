"""Variants as data (R-16.2): deal steps, betting rounds and showdown evaluators.

The betting core never asks "is this hold'em?"; it reads a :class:`Variant`. A new game
is a new entry in :data:`VARIANTS`, not a new branch in the core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.poker.evaluate import HandKind
from bot.poker.messages import Msg, msg

Opener = Literal["blinds", "left_of_button", "bring_in", "best_showing", "opener"]
Evaluator = HandKind
"""The showdown evaluators a variant may name: the hand kinds of :mod:`bot.poker.evaluate`."""


@dataclass(frozen=True, slots=True)
class Street:
    """One dealing step followed by (usually) a betting round."""

    name: str
    hole: int = 0
    """Face-down cards dealt to each player."""
    up: int = 0
    """Face-up cards dealt to each player (stud)."""
    board: int = 0
    """Community cards."""
    draw: int = 0
    """Draw phase before this street's betting: each player discards 0..draw cards."""
    big_bet: bool = False
    """Fixed limit: this round uses the big bet (R-5.1)."""
    opener: Opener = "left_of_button"
    betting: bool = True

    @property
    def title(self) -> Msg:
        """The street's name as a catalogue term (``street.third_street``); ``name`` is
        its code, kept in records."""
        return street_title(self.name)


def street_title(code: str) -> Msg:
    """The name of the street (or dealing step) whose code is ``code``, as a message."""
    return msg("street." + code.replace(" ", "_"))


@dataclass(frozen=True, slots=True)
class Variant:
    """A game; its name is the catalogue's (``game.<code>``), never written here."""

    code: str
    streets: tuple[Street, ...]
    showdown: tuple[Evaluator, ...]
    """One evaluator wins the whole pot; two (high, low) split it (R-11.3, R-11.5)."""
    forced: Literal["blinds", "bring_in", "antes"] = "blinds"
    max_players: int = 10
    button: bool = True
    showing: Literal["high", "low"] = "high"
    """Stud: which up-cards bring in and open later rounds (R-3.5, R-16.3)."""
    deck: Literal["full", "short"] = "full"
    """``short``: the 36-card six-plus deck (short-deck hold'em)."""

    @property
    def title(self) -> Msg:
        """The game's name, as a message."""
        return msg(f"game.{self.code}")

    @property
    def hole_count(self) -> int:
        return sum(s.hole + s.up for s in self.streets)

    @property
    def board_count(self) -> int:
        return sum(s.board for s in self.streets)

    @property
    def hi_lo(self) -> bool:
        return len(self.showdown) == 2


def _flop_game(
    code: str,
    hole: int,
    showdown: tuple[Evaluator, ...],
    deck: Literal["full", "short"] = "full",
) -> Variant:
    return Variant(
        deck=deck,
        code=code,
        streets=(
            Street("preflop", hole=hole, opener="blinds"),
            Street("flop", board=3),
            Street("turn", board=1, big_bet=True),
            Street("river", board=1, big_bet=True),
        ),
        showdown=showdown,
    )


HOLDEM = _flop_game("holdem", 2, ("high",))
OMAHA = _flop_game("omaha", 4, ("omaha_high",))
OMAHA8 = _flop_game("omaha8", 4, ("omaha_high", "omaha_low_8"))
# Six-plus: sixes to aces; a flush beats a full house and A-9-8-7-6 is a straight.
SHORTDECK = _flop_game("shortdeck", 2, ("short_high",), deck="short")
# The same with three of a kind ranked above a straight, as many rooms play it.
SHORTDECK_TRIPS = _flop_game(
    "shortdeck_trips",
    2,
    ("short_high_trips",),
    deck="short",
)


def _stud(code: str, showdown: tuple[Evaluator, ...], showing: Literal["high", "low"]) -> Variant:
    # third street brings in; later streets open with the best hand showing.
    return Variant(
        code=code,
        streets=(
            Street("third street", hole=2, up=1, opener="bring_in"),
            Street("fourth street", up=1, opener="best_showing"),
            Street("fifth street", up=1, big_bet=True, opener="best_showing"),
            Street("sixth street", up=1, big_bet=True, opener="best_showing"),
            Street("seventh street", hole=1, big_bet=True, opener="best_showing"),
        ),
        showdown=showdown,
        forced="bring_in",
        max_players=8,
        button=False,
        showing=showing,
    )


STUD = _stud("stud", ("high",), "high")
STUD8 = _stud("stud8", ("high", "low_a5_8"), "high")
RAZZ = _stud("razz", ("low_a5",), "low")
STUD5 = Variant(
    code="stud5",
    streets=(
        Street("second street", hole=1, up=1, opener="bring_in"),
        Street("third street", up=1, opener="best_showing"),
        Street("fourth street", up=1, big_bet=True, opener="best_showing"),
        Street("fifth street", up=1, big_bet=True, opener="best_showing"),
    ),
    showdown=("high",),
    forced="bring_in",
    max_players=10,
    button=False,
)


def _draw(code: str, cards: int, draws: int, showdown: tuple[Evaluator, ...]) -> Variant:
    # each draw is followed by a betting round. Triple draws use the big bet
    # from the second draw on; single-draw games after the draw.
    streets = [Street("predraw", hole=cards, opener="blinds")]
    for k in range(1, draws + 1):
        big = k >= 2 or draws == 1
        streets.append(Street(f"draw {k}" if draws > 1 else "draw", draw=cards, big_bet=big))
    return Variant(
        code=code,
        streets=tuple(streets),
        showdown=showdown,
        max_players=6,
    )


DRAW5 = _draw("draw5", 5, 1, ("high",))
DRAW5_HILO = _draw("draw5hl", 5, 1, ("high", "low_a5"))
DEUCE7_SINGLE = _draw("27single", 5, 1, ("low_27",))
DEUCE7_TRIPLE = _draw("27triple", 5, 3, ("low_27",))
A5_TRIPLE = _draw("a5triple", 5, 3, ("low_a5",))
A5_SINGLE = _draw("a5single", 5, 1, ("low_a5",))
BADUGI = _draw("badugi", 4, 3, ("badugi",))

GUTS = Variant(
    code="guts",
    streets=(Street("deal", hole=5, betting=False),),
    showdown=("high",),
    forced="antes",
)

VARIANTS: dict[str, Variant] = {
    v.code: v
    for v in (
        GUTS,
        HOLDEM,
        OMAHA,
        OMAHA8,
        SHORTDECK,
        SHORTDECK_TRIPS,
        STUD,
        STUD8,
        RAZZ,
        STUD5,
        DRAW5,
        DRAW5_HILO,
        DEUCE7_SINGLE,
        DEUCE7_TRIPLE,
        A5_SINGLE,
        A5_TRIPLE,
        BADUGI,
    )
}


def register(variant: Variant) -> None:
    VARIANTS[variant.code] = variant


def get_variant(code: str) -> Variant:
    try:
        return VARIANTS[code]
    except KeyError:
        raise KeyError(code) from None
