"""A tournament level's forced bets over a table's settings (R-19.1): the one place
that says which settings a level sets, for the deal (bot/table/predeal/stakes.py), the
hand's record (``HandStarted.level``) and the words of a hand dealt at it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.table.settings import TableSettings


@dataclass(frozen=True, slots=True)
class Level:
    """Forced bets of one tournament level (chips; 0 for a bet size derives it as the
    table does: the small bet from the big blind, the big bet twice the small)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0

    def pairs(self) -> tuple[tuple[str, int], ...]:
        """As the hand's record keeps it."""
        return tuple((f.name, getattr(self, f.name)) for f in dataclasses.fields(self))

    @classmethod
    def of(cls, pairs: tuple[tuple[str, int], ...]) -> Level:
        """The level a hand's record keeps (a name this version lacks is not read)."""
        values = dict(pairs)
        return cls(**{f.name: values.get(f.name, 0) for f in dataclasses.fields(cls)})


def at_level(settings: TableSettings, level: Level | None) -> TableSettings:
    """``settings`` with the level's forced bets (unchanged without a level)."""
    if level is None:
        return settings
    return dataclasses.replace(
        settings,
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        ante=level.ante,
        bring_in=level.bring_in,
        small_bet=level.small_bet,
        big_bet=level.big_bet,
    )
