"""Dealer's choice (R-16.2, R-16.9, R-16.10): the next dealer names the game of his
deal; the contributor sets the game of every deal (the choice, a waiting Guts pot's
Guts, else the rotation) and holds the deal until the dealer has chosen, or his time
ran out."""

from __future__ import annotations

import dataclasses

from bot.poker.errors import PokerError
from bot.poker.messages import Chips, Msg, Name, Number, Rule, joined, msg
from bot.poker.variants import VARIANTS, get_variant
from bot.table import log as tlog
from bot.table.button import DealPlan
from bot.table.errors import NotAllowed, SettingsError, TableError
from bot.table.predeal.plan import DealContext, NextDeal, plan_for
from bot.table.settings import TableSettings
from bot.table.state import TableState
from bot.table.view import stakes_of, stakes_said

TIMED_OUT = "choice-timeout"
"""The key of the clock's deal once the dealer's time to choose ran out (R-16.10)."""


def guts_waiting(state: TableState) -> bool:
    """A Guts match pot waits for the next Guts deal (R-15.2)."""
    held = state.pot_state or {}
    return held.get("system") == "guts" and bool(state.carried)


def pending(state: TableState) -> bool:
    """R-16.2, R-16.10: the next dealer has a game to name (not while Guts waits)."""
    return state.settings.dealers_choice and state.chosen is None and not guts_waiting(state)


def choices(settings: TableSettings, players: int) -> Msg:
    """What the dealer may choose for a deal to ``players`` (R-16.2, R-16.9)."""
    games = []
    for code, info in VARIANTS.items():
        if info.max_players < players:
            continue
        try:
            settings.rules_for(code, settings.limit_for(code), players, (0, 1))
        except PokerError:
            continue
        games.append(msg("engine.who", who=Name(code)))
    return msg("deal.choices", games=joined(games))


def chooser(state: TableState) -> tuple[int, Msg] | None:
    """Between deals at a dealer's-choice table: the seat who chooses and what the table
    tells him he may choose; None when nobody has to."""
    if not pending(state):
        return None
    plan = plan_for(state, state.next_game()[0])
    if plan is None:
        return None
    seat = state.seats[plan.button]
    told = msg(
        "deal.chooser", who=Name(seat.name), choices=choices(state.settings, len(plan.order))
    )
    return seat.number, told


def stakes_line(settings: TableSettings, variant: str, limit: str) -> Msg:
    """The stakes of a deal of ``variant`` at ``limit`` as a message."""
    declare = settings.declare != "none" and get_variant(variant).hi_lo
    return stakes_said(stakes_of(settings, variant, limit, declare))


def check_choose(state: TableState, user: str, game: str, plan: DealPlan | None) -> tlog.Chosen:
    """The ``choose`` command's checks (R-16.2): the record to write, or a refusal."""
    s = state.settings
    if not s.dealers_choice:
        raise TableError(msg("table.choose.not_choice"))
    if state.in_hand:
        raise TableError(msg("table.choose.between_hands"))
    if plan is None:
        raise TableError(msg("table.choose.too_few"))
    dealer = state.seats[plan.button]
    if dealer.user_id != user:
        raise NotAllowed(msg("table.choose.not_yours", who=Name(dealer.name)))
    # A bare game is dealt in its conventional structure.
    variant, limit = s.game(game)
    if guts_waiting(state) and variant != "guts":
        # The match pot belongs to Guts: it waits for the next Guts deal,
        # so the game stays Guts until someone takes it (R-16.10: no choice).
        raise TableError(
            msg("deal.guts_waiting", amount=Chips(state.carried), rule=Rule("R-16.10"))
        )
    info = get_variant(variant)
    if len(plan.order) > info.max_players:
        raise TableError(
            msg("table.choose.too_many", game=info.title, most=Number(info.max_players))
        )
    try:
        s.rules_for(variant, limit, 2, (0, 1))
    except PokerError as exc:
        raise SettingsError(exc.msg) from None
    return tlog.Chosen(variant, limit)


class Choice:
    """The contributor: the game of the next deal; a dealer who has a game to name
    holds the deal until he does, or the clock deals the table's game (R-16.10)."""

    def contribute(self, deal: NextDeal, ctx: DealContext) -> NextDeal:
        state = ctx.state
        variant, limit = state.next_game()
        late = None
        if pending(state):
            plan = plan_for(state, variant)
            if plan is not None:
                seat = state.seats[plan.button]
                if ctx.key != TIMED_OUT:
                    raise TableError(
                        msg(
                            "deal.must_choose",
                            who=Name(seat.name),
                            choices=choices(state.settings, len(plan.order)),
                        )
                    )
                late = seat.number
        return dataclasses.replace(deal, variant=variant, limit=limit, chooser_late=late)


def late_said(deal: NextDeal, state: TableState) -> Msg | None:
    """R-16.10: what the table says, just before the deal, of a dealer who did not
    choose in time."""
    if deal.chooser_late is None:
        return None
    who = Name(state.seats[deal.chooser_late].name)
    stakes = stakes_line(deal.settings, deal.variant, deal.limit)
    return msg("deal.choice_timeout", who=who, stakes=stakes, rule=Rule("R-16.10"))
