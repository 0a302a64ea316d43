"""R-20.58: a player waiting for the big blind (a newcomer, R-1.7; a player back after
missing it, or who rebought after busting, R-1.9) may post a big blind instead, to be
dealt in at the next deal where he sits (the deal places him, R-1.9)."""

from __future__ import annotations

from bot.poker.messages import msg
from bot.table import log as tlog
from bot.table.errors import TableError
from bot.table.predeal.plan import plan_for
from bot.table.seating import Seat
from bot.table.state import TableState


def post_now(state: TableState, seat: Seat) -> tlog.Returned:
    """The record of his choice to post, or a refusal saying why he need not or cannot."""
    big = state.settings.big_blind
    if seat.state != "waiting" or state.hand_no == 0 or not big:
        raise TableError(msg("posting.not_waiting"))
    if seat.stack == 0:
        raise TableError(msg("table.sit_in.no_chips"))
    if seat.owes:
        raise TableError(msg("posting.already"))
    plan = plan_for(state, state.next_game()[0])
    if plan is not None and plan.bb_seat == seat.number:
        raise TableError(msg("posting.big_blind"))  # the big blind is his next deal anyway
    return tlog.Returned(seat.number, "waiting", big)
