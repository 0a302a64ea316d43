"""Seats and the players in them: stacks off the felt, sitting out, owed blinds, clocks.

A :class:`Seat` is plain mutable state owned by one table's state machine; it changes
only when the table applies an event from its log (so it can always be rebuilt).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SeatState = Literal["active", "sitting_out", "waiting"]
"""``waiting``: a newcomer (or returning player) waiting for the big blind (R-1.6, R-1.7)."""


@dataclass(slots=True)
class Seat:
    number: int
    user_id: str
    name: str
    stack: int
    """Chips in front of the player between deals (during a deal the engine holds them)."""
    state: SeatState = "waiting"
    bank: float = 0.0
    """Time bank seconds left (R-13.2 clocks setting)."""
    timeouts: int = 0
    """Consecutive clock expiries; reaching the setting sits the player out."""
    owes: int = 0
    """Missed blind chips owed on return under the ``post`` option (R-1.6)."""
    leaving: bool = False
    """Stood up during a deal: cashed out when the deal ends (R-2.3)."""
    sit_out_next: bool = False
    missed: bool = False
    """The big blind went past this seat while he sat out (R-1.6): he missed a blind and
    waits for the big blind (or posts) on return. False: he missed nothing (R-1.9)."""

    @property
    def dealable(self) -> bool:
        """Can be dealt into the next hand (active, with chips)."""
        return self.state == "active" and self.stack > 0 and not self.leaving

    @property
    def ready(self) -> bool:
        return self.state != "sitting_out" and self.stack > 0 and not self.leaving


def find_free_seat(taken: set[int], seats: int, wanted: int | None) -> int | None:
    if wanted is not None:
        return wanted if 1 <= wanted <= seats and wanted not in taken else None
    for n in range(1, seats + 1):
        if n not in taken:
            return n
    return None
