"""Whether a tournament sells rebuys, the add-on or a re-entry now (R-19.38), and the
key that makes the clicks of one purchase button count once (R-19.91).

The director decides every purchase (:func:`bot.tournament.director.rebuy`); this only
says when a platform shows the buttons, so a button offered is one the director may
grant (a player's own situation, his stack or his hand in progress, is still his
table's to say when he clicks).
"""

from __future__ import annotations

import math

from bot.poker.messages import Chips, Count, Msg, msg
from bot.tournament.director import State
from bot.tournament.log import Waiting
from bot.tourney_run.entrants import live_entry

ANSWER_YES = "tournament.answer_yes"
ANSWER_NO = "tournament.answer_no"
"""The catalogue words a player types to answer :func:`rebuy_question` (R-19.48)."""


def _level(state: State) -> int:
    return state.config.schedule.level_number(state.level)


def _in_money(state: State) -> bool:
    return any(f.prize for f in state.finishes)


def rebuys_open(state: State) -> bool:
    """Rebuys are sold now (through level ``rebuy_until``, until the first prize)."""
    e = state.config.entries
    return (
        state.status == "running"
        and e.rebuys > 0
        and _level(state) <= e.rebuy_until
        and not _in_money(state)
    )


def addon_open(state: State) -> bool:
    """The add-on is sold now (the last rebuy level and the next, until the first prize)."""
    e = state.config.entries
    level = _level(state)
    return (
        state.status == "running"
        and e.addon > 0
        and e.rebuy_until <= level <= e.rebuy_until + 1
        and not _in_money(state)
    )


def reentry_open(state: State, player: str) -> bool:
    """``player`` may re-enter now (R-19.38): late registration open, no entry of his
    still in, a re-entry left."""
    mine = [e for e in state.entries if e.player == player]
    return (
        state.status == "running"
        and state.registration_open
        and bool(mine)
        and live_entry(state, player) is None
        and not any(e.entry in state.waiting for e in mine)  # his rebuy is asked first
        and len(mine) <= state.config.entries.reentries
    )


def seconds_left(wait: Waiting, now: float) -> int:
    """Whole seconds left of a busted player's wait to rebuy (R-19.47), rounded up."""
    return max(0, math.ceil(wait.until - now))


def rebuy_question(state: State, wait: Waiting, now: float) -> Msg:
    """The question put to a busted player who may rebuy (R-19.48): the chips, the
    price, the seconds left; he answers :data:`ANSWER_YES` or :data:`ANSWER_NO`."""
    return msg(
        "tournament.ask_rebuy",
        amount=Chips(state.config.stack),
        price=Chips(state.config.prize_part),
        count=Count(seconds_left(wait, now)),
    )


def offer(state: State) -> int:
    """The purchases made so far (rebuys and add-ons of every entry): a purchase button
    drawn now carries it, so its clicks name the offer they answer."""
    return sum(state.rebuys.values()) + len(state.addons)


def click_key(player: str, *, addon: bool, offered: int) -> str:
    """The key of ``player``'s click on a purchase button drawn at ``offered``: the
    same for every click of that button (a double click buys once); the button drawn
    again after any purchase carries a new offer (his next rebuy is a new key)."""
    return f"button:{'addon' if addon else 'rebuy'}:{player}:{offered}"


__all__ = [
    "ANSWER_NO",
    "ANSWER_YES",
    "addon_open",
    "click_key",
    "offer",
    "rebuy_question",
    "rebuys_open",
    "reentry_open",
    "seconds_left",
]
