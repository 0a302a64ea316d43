"""R-20.4, R-20.11: the bomb pot contributor: whether the next deal is a bomb pot (every
``bomb_pot_every`` hands, or after a passed proposal) and, if so, the deal's rules with
the agreed ante in place of every other forced bet."""

from __future__ import annotations

import dataclasses

from bot.poker.rules import Rules, community_game
from bot.poker.variants import get_variant
from bot.table.home import bombvote
from bot.table.predeal.plan import DealContext, NextDeal
from bot.table.settings import TableSettings
from bot.table.state import TableState


def ante_of(settings: TableSettings) -> int:
    """R-20.11: the bomb pot's ante: the table's ``bomb_pot_ante``, or the big blind
    when that is 0."""
    return settings.bomb_pot_ante or settings.big_blind


def scheduled(state: TableState, settings: TableSettings) -> bool:
    """R-20.11: every ``bomb_pot_every``-th hand of the table (0: never by count)."""
    every = settings.bomb_pot_every
    return every > 0 and (state.hand_no + 1) % every == 0


def playable(deal: NextDeal) -> bool:
    """A bomb pot is dealt only where the engine plays one (R-20.4: hold'em and Omaha
    games; :func:`bomb_rules` checks the rest: one pot system, no declaration);
    elsewhere the deal is a normal one."""
    return community_game(get_variant(deal.variant)) and ante_of(deal.settings) > 0


class BombPot:
    """The contributor (last in the pipeline): marks the deal a bomb pot when one is
    due and the game can play it."""

    def contribute(self, deal: NextDeal, ctx: DealContext) -> NextDeal:
        agreed = bombvote.agreed(ctx.state.bomb)
        if agreed is not None and community_game(get_variant(deal.variant)):
            # a vote's bomb pot is dealt on the terms its players agreed to.
            ante, double = agreed
            return dataclasses.replace(deal, bomb_ante=ante, double_board=double)
        due = scheduled(ctx.state, deal.settings) or bombvote.passed(ctx.state.bomb)
        if not due or not playable(deal):
            return deal
        return dataclasses.replace(
            deal, bomb_ante=ante_of(deal.settings), double_board=deal.settings.double_board
        )


def bomb_rules(rules: Rules, deal: NextDeal) -> Rules:
    """The deal's rules as a bomb pot (R-20.4): the ante and nothing else, so no blind
    is posted or cleared by it (a missed blind stays owed for the next normal hand)."""
    if not deal.bomb_ante or rules.declare != "none" or rules.pot_system != "normal":
        return rules
    return dataclasses.replace(
        rules,
        bomb_pot_ante=deal.bomb_ante,
        double_board=deal.double_board,
        blinds_or_straddles=(),
        antes=(),
        dead_posts=(),
    )
