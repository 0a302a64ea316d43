"""One of the service's tables as the director drives it (:class:`TablePort`).

Entries sit and leave by the tables' move commands only (``move_in``/``move_out``, no
buy-in, no cash-out): tournament chips never enter the cash ledger. Every command is
idempotent by its key, so one repeated after a restart changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.table.errors import TableError
from bot.table.table import Table
from bot.tournament.balance import Kind
from bot.tournament.structure import Level
from bot.tourney_run.stakes import TournamentStakes, table_level


class ServiceTable:
    def __init__(
        self, number: int, table: Table, stakes: TournamentStakes, director: str, forced: str
    ) -> None:
        self._number = number
        self.table = table
        self.stakes = stakes
        self.director = director
        self.forced = forced

    @property
    def number(self) -> int:
        return self._number

    def seats(self) -> Mapping[int, str]:
        return {n: s.user_id for n, s in self.table.state.seats.items()}

    def stacks(self) -> Mapping[str, int]:
        return {s.user_id: s.stack for s in self.table.state.seats.values()}

    def positions(self) -> tuple[int | None, int | None, int | None]:
        st = self.table.state
        return st.prev_button, st.prev_sb, st.prev_bb

    def kind(self) -> Kind:
        return "stud" if self.forced == "bring_in" else "blinds"

    def between_hands(self) -> bool:
        return not self.table.state.in_hand

    async def move_out(self, entry: str, key: str) -> int:
        seat = self.table.state.seat_of(entry)
        chips = seat.stack if seat is not None else 0
        answer = await self.table.move_out(entry, key=key, transfer=key)
        if not answer.ok and not answer.duplicate:
            raise TableError(answer.msg)
        return chips

    async def move_in(self, entry: str, name: str, chips: int, seat: int, key: str) -> None:
        answer = await self.table.move_in(entry, name, chips, seat, key=key, transfer=key)
        if not answer.ok and not answer.duplicate:
            raise TableError(answer.msg)

    async def set_level(self, level: Level, key: str) -> None:
        # The level is the tournament's record; the table reads it at its next deal.
        self.stakes.set(self.table.table_id, table_level(level, self.forced))

    async def set_paused(self, paused: bool, key: str) -> None:
        if self.table.state.paused != paused:
            await self.table.pause(self.director, paused, key=key)
