"""The rabbit hunt at the table (R-20.9, R-20.14): after a hand that ended before its
board was complete, a player asks, and the table shows the cards that would have come,
marked as not played. The engine finds them (:func:`bot.poker.home.rabbit_hunt`) in
the finished hand replayed from its record. The table writes what it showed
(``RabbitHunted`` in the log), so once a hand holds across a restart; no chip moves."""

from __future__ import annotations

from bot.poker.events import RabbitHunted
from bot.poker.hand import Hand
from bot.poker.home import rabbit_hunt
from bot.poker.messages import Rule, msg
from bot.table.errors import TableError
from bot.table.home import aftermath
from bot.table.state import TableState

RULE = Rule("R-20.14")


def check(state: TableState) -> int:
    """The hand to hunt (the last one), or a refusal (R-20.14: once a hand)."""
    if not state.settings.rabbit_hunt:
        raise TableError(msg("home.rabbit_ask.off"))
    if state.in_hand or state.hand_no == 0:
        raise TableError(msg("home.rabbit_ask.when", rule=RULE))
    if aftermath.hunted(state.after, state.hand_no):
        raise TableError(msg("home.rabbit_ask.once"))
    return state.hand_no


def hunt(hand: Hand) -> RabbitHunted:
    """The cards that would have come (the engine refuses after a showdown, in a game
    without a board, or with nothing left to come, in words)."""
    return rabbit_hunt(hand)
