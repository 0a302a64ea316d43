"""Who is dealt into the next deal (R-1.3 to R-1.5): at least two, at most as many as
the game deals to."""

from __future__ import annotations

import dataclasses

from bot.poker.messages import msg
from bot.poker.variants import get_variant
from bot.table.errors import TableError
from bot.table.predeal.plan import DealContext, NextDeal, plan_for


class Seats:
    def contribute(self, deal: NextDeal, ctx: DealContext) -> NextDeal:
        plan = plan_for(ctx.state, deal.variant)
        if plan is None:
            raise TableError(msg("table.deal.too_few"))
        info = get_variant(deal.variant)
        if len(plan.order) > info.max_players:
            raise TableError(msg("deal.too_many", game=info.title))
        return dataclasses.replace(deal, plan=plan)
