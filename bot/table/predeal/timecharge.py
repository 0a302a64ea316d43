"""R-14.2, R-14.6: the house's time charge, due once per period from each player dealt
in and collected with the deal it pays for: a deal that does not go ahead collects
nothing, and one that goes ahead is planned as the seats will be once charged."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Mapping, Sequence

from bot.poker.messages import Chips, Msg, Rule, msg
from bot.table import log as tlog
from bot.table.errors import TableError
from bot.table.ports import LedgerKind, LedgerRow
from bot.table.predeal.plan import DealContext, NextDeal, plan_for
from bot.table.state import TableState


def due(state: TableState, now: float, order: Sequence[int]) -> dict[int, int]:
    """The charge due from each player dealt in (all he has, if less), once per period,
    between deals; empty when none is due."""
    s = state.settings
    if s.time_charge <= 0:
        return {}
    if state.time_collected_at is not None and now - state.time_collected_at < s.time_period:
        return {}
    return {n: min(s.time_charge, state.seats[n].stack) for n in order if state.seats[n].stack}


@contextlib.contextmanager
def charged(state: TableState, charges: Mapping[int, int]) -> Iterator[None]:
    """The seats as they will be once ``charges`` are paid, to plan and build the deal
    before any chip moves (R-14.6: all or nothing). Nothing may await inside."""
    seats = state.seats
    for n, amount in charges.items():
        seats[n].stack -= amount
    try:
        yield
    finally:
        for n, amount in charges.items():
            seats[n].stack += amount


def collection(
    state: TableState, charges: Mapping[int, int]
) -> tuple[tlog.TimeCollected, str, list[LedgerRow], Msg]:
    """What collecting ``charges`` writes (the record, its key, the ledger as rake,
    R-2.5) and what the table says of it."""
    ledger = [
        LedgerRow(state.seats[n].user_id, LedgerKind.RAKE, amount)
        for n, amount in charges.items()
        if amount
    ]
    told = msg(
        "deal.time_collected",
        amount=Chips(state.settings.time_charge),
        total=Chips(sum(charges.values())),
    )
    # The log position: a retry of this very collection is the same key, a later
    # period's is not (the hand number does not move when a deal is refused).
    return tlog.TimeCollected(tuple(charges.items())), f"time:{state.seq}", ledger, told


class TimeCharge:
    """The contributor: the charges due, and the deal planned as the seats will be once
    they are paid (fewer than two left with chips: no deal, nothing collected)."""

    def contribute(self, deal: NextDeal, ctx: DealContext) -> NextDeal:
        assert deal.plan is not None
        state = ctx.state
        charges = due(state, ctx.now, deal.plan.order)
        if not charges:
            return deal
        with charged(state, charges):
            plan = plan_for(state, deal.variant)
        if plan is None or len(plan.order) < 2:
            raise TableError(
                msg(
                    "deal.time_too_few",
                    amount=Chips(state.settings.time_charge),
                    rule=Rule("R-14.6"),
                )
            )
        return dataclasses.replace(deal, plan=plan, charges=charges)
