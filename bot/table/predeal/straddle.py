"""R-3.4: a live straddle of twice the big blind, posted by the player left of the big
blind for the next deal (said between deals)."""

from __future__ import annotations

import dataclasses

from bot.poker.messages import Name, msg
from bot.poker.variants import get_variant
from bot.table import log as tlog
from bot.table.button import DealPlan
from bot.table.errors import TableError
from bot.table.predeal.plan import DealContext, NextDeal, plan_for
from bot.table.seating import Seat
from bot.table.state import TableState


def position(plan: DealPlan) -> int | None:
    """The PHH position left of the big blind, who may straddle: none heads-up or
    without a big blind."""
    bb = plan.blind_positions[1]
    if len(plan.order) < 3 or bb is None or bb + 1 >= len(plan.order):
        return None
    return bb + 1


def check_straddle(state: TableState, seat: Seat) -> tlog.Straddled:
    """The ``straddle`` command's checks: the record to write, or a refusal."""
    s = state.settings
    if not s.straddle:
        raise TableError(msg("table.straddle.off"))
    if state.in_hand:
        raise TableError(msg("table.straddle.between_hands"))
    variant = state.next_game()[0]
    if get_variant(variant).forced != "blinds" or not s.big_blind:
        raise TableError(msg("table.straddle.blinds_only"))
    plan = plan_for(state, variant)
    pos = position(plan) if plan is not None else None
    if plan is None or pos is None:
        raise TableError(msg("table.straddle.three"))
    if plan.order[pos] != seat.number:
        who = state.seats[plan.order[pos]].name
        raise TableError(msg("table.straddle.left_of_big_blind", who=Name(who)))
    if state.straddler == seat.number:
        raise TableError(msg("table.straddle.already"))
    return tlog.Straddled(seat.number)


class Straddle:
    """The contributor: the straddle asked for, if its player is still left of the big
    blind in the deal as planned. The engine reads a forced bet above the big blind left
    of it as a straddle (acts last, has the option)."""

    def contribute(self, deal: NextDeal, ctx: DealContext) -> NextDeal:
        assert deal.plan is not None
        plan, state = deal.plan, ctx.state
        pos = position(plan)
        if not deal.settings.straddle or pos is None or plan.order[pos] != state.straddler:
            return deal
        row = [*deal.live, *([0] * (len(plan.order) - len(deal.live)))]
        row[pos] = max(row[pos], 2 * deal.settings.big_blind)
        return dataclasses.replace(deal, live=tuple(row))
