"""The next deal as the contributors shape it, and the one protocol they follow."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from bot.poker.variants import get_variant
from bot.table.button import DealPlan, plan_deal
from bot.table.levels import Level
from bot.table.settings import TableSettings
from bot.table.state import TableState


@dataclass(frozen=True, slots=True)
class DealContext:
    """What the contributors read: the table as it is (never changed by them), the
    moment, and the key the deal was asked with (``choice-timeout``: the clock's deal
    after the dealer's time to choose ran out, R-16.10)."""

    state: TableState
    now: float
    key: str | None = None


@dataclass(frozen=True, slots=True)
class NextDeal:
    """The next deal: the settings its rules come from, its game, who is dealt in, and
    what the contributors add (time charges by seat, live posts by position)."""

    settings: TableSettings
    variant: str = ""
    limit: str = ""
    plan: DealPlan | None = None
    charges: Mapping[int, int] = field(default_factory=dict)
    """R-14.2: the time charge due from each seat dealt in (collected with the deal)."""
    live: tuple[int, ...] = ()
    """Live forced bets by PHH position beyond the blinds (a straddle, R-3.4)."""
    chooser_late: int | None = None
    """The seat of a dealer who did not name the game in time (R-16.10)."""
    level: Level | None = None
    """The tournament level the deal is dealt at (R-19.1), recorded with the hand."""
    bomb_ante: int = 0
    """R-20.4: the deal is a bomb pot with this ante (0: a normal deal)."""
    double_board: bool = False
    """R-20.5: the bomb pot is dealt on two boards."""


class Contributor(Protocol):
    """One step before a deal: returns the deal as it shapes it, or raises a
    ``TableError`` (the deal does not happen, and nothing was written)."""

    def contribute(self, deal: NextDeal, ctx: DealContext) -> NextDeal: ...


def run(contributors: Iterable[Contributor], deal: NextDeal, ctx: DealContext) -> NextDeal:
    """Fold ``contributors`` over ``deal``, in order."""
    for contributor in contributors:
        deal = contributor.contribute(deal, ctx)
    return deal


def plan_for(state: TableState, variant: str) -> DealPlan | None:
    """Who is dealt in and where the button and the blinds go (R-1.3 to R-1.5) for a deal
    of ``variant`` with the seats as they are; None with fewer than two to deal."""
    active, waiting, posting = state.plan_inputs()
    return plan_deal(
        rule=state.settings.button_rule,
        active=active,
        waiting=waiting,
        posting=posting,
        prev_button=state.prev_button,
        prev_sb=state.prev_sb,
        prev_bb=state.prev_bb,
        blinds=get_variant(variant).forced == "blinds",
        first_button=state.first_button,
    )
