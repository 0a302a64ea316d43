"""Variants as data (R-16.2): deal steps, betting rounds and showdown evaluators.

The betting core never asks "is this hold'em?"; it reads a :class:`Variant`. A new game
is a new entry in :data:`VARIANTS`, not a new branch in the core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Opener = Literal["blinds", "left_of_button", "bring_in", "best_showing", "opener"]
Evaluator = Literal[
    "high", "omaha_high", "low_a5", "low_a5_8", "omaha_low_8", "low_27", "badugi"
]


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


@dataclass(frozen=True, slots=True)
class Variant:
    code: str
    name: str
    streets: tuple[Street, ...]
    showdown: tuple[Evaluator, ...]
    """One evaluator wins the whole pot; two (high, low) split it (R-11.3, R-11.5)."""
    forced: Literal["blinds", "bring_in", "antes"] = "blinds"
    max_players: int = 10
    button: bool = True

    @property
    def hole_count(self) -> int:
        return sum(s.hole + s.up for s in self.streets)

    @property
    def board_count(self) -> int:
        return sum(s.board for s in self.streets)

    @property
    def hi_lo(self) -> bool:
        return len(self.showdown) == 2


def _flop_game(code: str, name: str, hole: int, showdown: tuple[Evaluator, ...]) -> Variant:
    return Variant(
        code=code,
        name=name,
        streets=(
            Street("preflop", hole=hole, opener="blinds"),
            Street("flop", board=3),
            Street("turn", board=1, big_bet=True),
            Street("river", board=1, big_bet=True),
        ),
        showdown=showdown,
        max_players=10 if hole == 2 else 10,
    )


HOLDEM = _flop_game("holdem", "Texas hold'em", 2, ("high",))
OMAHA = _flop_game("omaha", "Omaha", 4, ("omaha_high",))
OMAHA8 = _flop_game("omaha8", "Omaha hi-lo eight-or-better", 4, ("omaha_high", "omaha_low_8"))

VARIANTS: dict[str, Variant] = {v.code: v for v in (HOLDEM, OMAHA, OMAHA8)}


def register(variant: Variant) -> None:
    VARIANTS[variant.code] = variant


def get_variant(code: str) -> Variant:
    try:
        return VARIANTS[code]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise KeyError(f"Unknown game {code!r}; known games: {known}.") from None
