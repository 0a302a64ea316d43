"""What the director needs from a table: the port the table service will implement.

The director decides (:mod:`bot.tournament.director`, :mod:`bot.tournament.balance`);
a table carries it out. Moving a player is two idempotent commands under the
tournament's key: ``move_out`` (stand without cashing out: the chips stay the
tournament's) and ``move_in`` (sit with the same chips), each a no-op when its key was
already applied, so a crash between them is finished by replaying the log's ``Moved``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Protocol, TypeAlias

from bot.tournament.balance import Kind, TableShape
from bot.tournament.structure import Level

Leaving: TypeAlias = Literal["moved", "out", "wait", "end", "cancel"]
"""Why an entry leaves a table (the table words each: ``bot.table.moves.Leaving``, the
same values; the director imports nothing of the tables)."""
Arriving: TypeAlias = Literal["moved", "seated"]
"""Why an entry sits at a table (``bot.table.moves.Arriving``)."""


class TablePort(Protocol):
    """One tournament table as the director drives it."""

    @property
    def number(self) -> int:
        """The table's number in the tournament (1, 2, ...)."""
        ...

    def seats(self) -> Mapping[int, str]:
        """Seat -> the entry sitting there."""
        ...

    def stacks(self) -> Mapping[str, int]:
        """Entry -> chips in front of him (between hands: all his chips)."""
        ...

    def positions(self) -> tuple[int | None, int | None, int | None]:
        """The last hand's button, small blind and big blind seats (None before the
        first hand; in a mixed rotation's stud round, the frozen button)."""
        ...

    def kind(self) -> Kind:
        """How this table's players move when it balances (``blinds``, ``stud``,
        ``mixed_stud``)."""
        ...

    def between_hands(self) -> bool:
        """No hand in progress: players may leave or arrive (R-19.31)."""
        ...

    async def move_out(self, entry: str, key: str, why: Leaving = "moved") -> int:
        """Stand ``entry`` up without cashing out; his chips (returned) stay in the
        tournament; the table is told ``why``. Idempotent by ``key``."""
        ...

    async def move_in(
        self, entry: str, name: str, chips: int, seat: int, key: str, why: Arriving = "moved"
    ) -> None:
        """Sit ``entry`` at ``seat`` with ``chips``, dealt in from the next hand; the
        table is told ``why``. Idempotent by ``key``."""
        ...

    async def set_level(self, level: Level, key: str) -> None:
        """Stakes and antes for the next deal (R-19.20). Idempotent by ``key``."""
        ...

    async def set_paused(self, paused: bool, key: str) -> None:
        """Stop dealing after the current hand (a break, a halt, hand-for-hand), or
        deal again. Idempotent by ``key``."""
        ...


def shape(port: TablePort, seat_count: int, vacated: tuple[int, ...] = ()) -> TableShape:
    """The planner's view of a table read through its port."""
    button, small, big = port.positions()
    return TableShape(
        table=port.number,
        seats=seat_count,
        players=tuple(sorted(port.seats().items())),
        button=button,
        small_blind=small,
        big_blind=big,
        between_hands=port.between_hands(),
        kind=port.kind(),
        vacated=vacated,
    )


__all__ = ["TablePort", "shape"]
