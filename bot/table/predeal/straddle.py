"""R-3.4 and R-20.57: live straddles for the next deal, said between deals. The first is
posted by the player left of the big blind (twice the big blind), or, where the table
allows the Mississippi straddle, by the button; re-straddles follow, each by the player
left of the last straddle and twice it, up to the table's count (``straddles``). None
follows a button straddle. The engine reads a forced bet above the big blind as a
straddle: the largest acts last on the first round and has the option (R-3.3)."""

from __future__ import annotations

import dataclasses

from bot.poker.messages import Count, Name, msg
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


def chain(state: TableState) -> list[int]:
    """The seats that asked to straddle the next deal, in order."""
    first = state.straddler
    return [] if first is None else [first, *state.hosting.restraddles]


def next_amount(state: TableState) -> int:
    """What the next straddle asked for posts: twice the big blind, then twice the last."""
    return (2 * state.settings.big_blind) << len(chain(state))


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
    asked = chain(state)
    if seat.number in asked:
        raise TableError(msg("table.straddle.already"))
    button = plan.order[-1]
    if not asked:
        if plan.order[pos] == seat.number or (s.straddle_button and seat.number == button):
            return tlog.Straddled(seat.number)
        who = Name(state.seats[plan.order[pos]].name)
        if s.straddle_button:
            raise TableError(msg("straddle.who", who=who, button=Name(state.seats[button].name)))
        raise TableError(msg("table.straddle.left_of_big_blind", who=who))
    if asked[0] != plan.order[pos]:
        raise TableError(msg("straddle.after_button"))
    nxt = pos + len(asked)
    if len(asked) >= s.straddles or nxt >= len(plan.order):
        raise TableError(msg("straddle.most", most=Count(min(s.straddles, len(asked)))))
    if plan.order[nxt] != seat.number:
        raise TableError(msg("straddle.next", who=Name(state.seats[plan.order[nxt]].name)))
    return tlog.Straddled(seat.number)


class Straddle:
    """The contributor: the straddles asked for, as long as their players sit where the
    deal as planned puts them (left of the big blind and on, or on the button); a chain
    stops at the first that no longer fits."""

    def contribute(self, deal: NextDeal, ctx: DealContext) -> NextDeal:
        assert deal.plan is not None
        plan, state, s = deal.plan, ctx.state, deal.settings
        pos = position(plan)
        asked = chain(state)
        if not s.straddle or pos is None or not asked:
            return deal
        row = [*deal.live, *([0] * (len(plan.order) - len(deal.live)))]
        amount = 2 * s.big_blind
        if asked[0] == plan.order[-1] and asked[0] != plan.order[pos]:
            if s.straddle_button:
                row[-1] = max(row[-1], amount)  # Mississippi: the button straddles
            return dataclasses.replace(deal, live=tuple(row))
        for k, seat in enumerate(asked[: s.straddles]):
            at = pos + k
            if at >= len(plan.order) or plan.order[at] != seat:
                break
            row[at] = max(row[at], amount)
            amount *= 2
        return dataclasses.replace(deal, live=tuple(row))
