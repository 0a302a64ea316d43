"""One of the service's tables as the director drives it (:class:`TablePort`).

Entries sit and leave by the tables' move commands only (``move_in``/``move_out``, no
buy-in, no cash-out): tournament chips never enter the cash ledger. Every command is
idempotent by its key, so one repeated after a restart changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.table.errors import TableError
from bot.table.table import Table
from bot.tournament import rotation
from bot.tournament.balance import Kind
from bot.tournament.director import State
from bot.tournament.structure import Config, Level
from bot.tourney_run import games
from bot.tourney_run.entrants import entry_at, player_of
from bot.tourney_run.stakes import TournamentStakes


class ServiceTable:
    """The director speaks of entries; the table seats users (``state``: the
    tournament's state now, which says whose entry a seat is, R-19.90; without it an
    entry id is its seat's user id)."""

    def __init__(
        self,
        number: int,
        table: Table,
        stakes: TournamentStakes,
        director: str,
        config: Config,
        state: Callable[[], State] | None = None,
    ) -> None:
        self._number = number
        self._state = state
        self.table = table
        self.stakes = stakes
        self.director = director
        self.config = config
        self.forced = config.schedule.forced
        self.mixed = games.is_mixed(config)

    @property
    def number(self) -> int:
        return self._number

    def user(self, entry: str) -> str:
        """The user id ``entry`` sits under at the table."""
        return entry if self._state is None else player_of(self._state(), entry)

    def entry(self, user: str) -> str:
        """The entry of ``user``'s seat here."""
        return user if self._state is None else entry_at(self._state(), user, self._number)

    def seats(self) -> Mapping[int, str]:
        return {n: self.entry(s.user_id) for n, s in self.table.state.seats.items()}

    def stacks(self) -> Mapping[str, int]:
        return {self.entry(s.user_id): s.stack for s in self.table.state.seats.values()}

    def positions(self) -> tuple[int | None, int | None, int | None]:
        st = self.table.state
        return st.prev_button, st.prev_sb, st.prev_bb

    def next_variant(self) -> str:
        return self.table.state.next_game()[0]

    def kind(self) -> Kind:
        # A mixed table's button and blinds stay where its last blinds deal put them
        # through its stud deals: they are the hold'em positions.
        flop_dealt = self.table.state.prev_bb is not None
        return games.kind(self.config, self.next_variant(), flop_dealt)

    def between_hands(self) -> bool:
        return not self.table.state.in_hand

    async def move_out(self, entry: str, key: str) -> int:
        user = self.user(entry)
        seat = self.table.state.seat_of(user)
        chips = seat.stack if seat is not None else 0
        answer = await self.table.move_out(user, key=key, transfer=key)
        if not answer.ok and not answer.duplicate:
            raise TableError(answer.msg)
        return chips

    async def move_in(self, entry: str, name: str, chips: int, seat: int, key: str) -> None:
        user = self.user(entry)
        answer = await self.table.move_in(user, name, chips, seat, key=key, transfer=key)
        if not answer.ok and not answer.duplicate:
            raise TableError(answer.msg)

    async def set_level(self, level: Level, key: str) -> None:
        # The level is the tournament's record; the table reads it at its next deal (in
        # a mixed rotation, for the game that deal deals).
        tid, forced, mixed = self.table.table_id, self.forced, self.mixed
        if mixed:
            self.stakes.set_by_game(
                tid, lambda: games.game_level(level, forced, self.next_variant(), mixed)
            )
        else:
            self.stakes.set(tid, games.game_level(level, forced, self.next_variant(), mixed))

    def set_rotation(self, level_number: int) -> None:
        """The game of the rotation this table deals through level ``level_number``:
        the level's (R-19.55), the orbit's (R-19.56) or the deal's (R-19.50). Like the
        level, it is the tournament's record: set again whenever the tournament resumes."""
        c = self.config
        self.table.state.rotation_pick = rotation.pick(c.game, c.rotate, level_number, c.seats)

    async def set_paused(self, paused: bool, key: str) -> None:
        if self.table.state.paused != paused:
            await self.table.pause(self.director, paused, key=key)
