"""The stakes of tournament tables (R-19.20): each table deals at the level last set on
it, from its next deal; every other table keeps its own settings."""

from __future__ import annotations

from bot.table.levels import Level as TableLevel
from bot.tournament.structure import Level

PREFIX = "tn:"


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

    def set(self, table: str, level: TableLevel) -> None:
        self.levels[table] = level

    def level(self, table_id: str) -> TableLevel | None:
        return self.levels.get(table_id)
