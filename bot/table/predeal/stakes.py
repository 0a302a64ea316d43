"""The stakes of the next deal: the table's settings at a cash table, the level in
force at a tournament's table (blinds, ante and bring-in), read at each deal so a new
level takes effect at the next deal and never during a hand.

The source is the service's (``TableService.stakes``): a tournament sets one that
answers for its tables, and every table the service makes or recovers asks it.

A hand's start records the rules it was dealt under (blinds and antes included), so a
deal replays from the table's log whatever the level is later; the level itself is the
tournament's record, not the table's.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Protocol

from bot.table.levels import Level, at_level
from bot.table.predeal.plan import DealContext, NextDeal


class StakesSource(Protocol):
    """Where a table's next deal takes its stakes from: None keeps the table's settings."""

    def level(self, table_id: str) -> Level | None: ...


class _Cash:
    def level(self, table_id: str) -> Level | None:
        return None


CASH: StakesSource = _Cash()
"""A cash table: the stakes are the table's settings."""


@dataclass(slots=True)
class FixedLevel:
    """A source holding one level; whoever runs the levels sets ``current``."""

    current: Level | None = None

    def level(self, table_id: str) -> Level | None:
        return self.current


@dataclass(frozen=True, slots=True)
class Stakes:
    """The contributor: the level in force replaces the settings' forced bets."""

    source: StakesSource

    def contribute(self, deal: NextDeal, ctx: DealContext) -> NextDeal:
        level = self.source.level(ctx.state.table_id)
        if level is None:
            return deal
        return dataclasses.replace(deal, settings=at_level(deal.settings, level), level=level)
