"""Showing by choice at the table (R-20.8, R-20.15): after a hand, the winner of an
uncontested pot and each player whose hand was mucked are offered, privately, to show
their whole hand or one card of it; what they show goes to the whole table. The finished
hand is replayed from its record with what was shown so far (``ShownByChoice`` in the
log), so the engine's checks (who may show, which cards, not twice) hold across a
restart; no chip moves and no award changes."""

from __future__ import annotations

from bot.poker.actions import ShowCards
from bot.poker.hand import Hand
from bot.poker.messages import Msg, Rule, msg
from bot.table.errors import TableError

RULE = Rule("R-20.15")
WHICH = ("all", "1", "2")
"""What a player may ask to show: his whole hand, or his first or second card."""


def offered(hand: Hand) -> list[int]:
    """The positions that may show by choice after ``hand`` (R-20.8)."""
    result = hand.result
    if result is None:
        return []
    return [
        i
        for i in range(hand.n)
        if (result.reason == "uncontested" and not hand.folded[i]) or hand.mucked[i]
    ]


def prompt() -> Msg:
    return msg("home.show_ask.prompt", rule=RULE)


def action(hand: Hand, position: int, which: str) -> ShowCards:
    """The engine action for ``which`` (all, 1, 2) of his hole cards."""
    hole = tuple(hand.hole[position])
    if which == "all":
        return ShowCards(position, hole)
    index = int(which) - 1 if which in WHICH else -1
    if not 0 <= index < len(hole):
        raise TableError(msg("home.show_ask.which", rule=RULE))
    return ShowCards(position, (hole[index],))
