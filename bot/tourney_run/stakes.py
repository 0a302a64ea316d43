"""The stakes of tournament tables (R-19.20): each table deals at the level last set on
it, from its next deal; every other table keeps its own settings."""

from __future__ import annotations

from collections.abc import Callable

from bot.table.levels import Level as TableLevel
from bot.table.state import TOURNAMENT_TABLE
from bot.tournament.structure import Level

PREFIX = TOURNAMENT_TABLE


def table_id(tournament: str, number: int) -> str:
    return f"{PREFIX}{tournament}:{number}"


def table_level(level: Level, forced: str) -> TableLevel:
    """A schedule's level as the table deals it: blinds and the big blind's ante, or
    stud's ante, bring-in and bets."""
    if forced == "bring_in":
        return TableLevel(
            0, 0, ante=level.ante, bring_in=level.bring_in, small_bet=level.small,
            big_bet=level.big,
        )  # fmt: skip
    return TableLevel(level.small, level.big, ante=level.ante)


class TournamentStakes:
    """The service's stakes source while tournaments run beside cash tables."""

    def __init__(self) -> None:
        self.levels: dict[str, TableLevel] = {}
        self.by_game: dict[str, Callable[[], TableLevel]] = {}
        """Tables of a mixed rotation: the level of the game their next deal deals."""

    def set(self, table: str, level: TableLevel) -> None:
        self.levels[table] = level
        self.by_game.pop(table, None)

    def set_by_game(self, table: str, level: Callable[[], TableLevel]) -> None:
        """A table whose forced bets follow the game of its next deal (R-19.50): asked
        at each deal, so the game the rotation deals next decides them."""
        self.by_game[table] = level
        self.levels.pop(table, None)

    def level(self, table_id: str) -> TableLevel | None:
        of_game = self.by_game.get(table_id)
        if of_game is not None:
            return of_game()
        return self.levels.get(table_id)
