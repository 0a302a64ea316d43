"""R-20.84: a hand's number as the table shows it. Hand numbers start again with each
table of a channel (R-20.40, R-20.77), so at a channel's later table a number alone
could be an earlier table's hand: there it is said with which of the channel's tables
it is (``2`` for the second). At a channel's first table it is the number alone, as
it always was."""

from __future__ import annotations

from bot.poker.messages import Msg, Number, msg


def hand_label(session: int, hand: int) -> Number | Msg:
    """Hand ``hand`` of the channel's ``session``-th table (``TableState.incarnation``),
    as a message parameter: the number, or the number and the table after the first."""
    if session <= 1:
        return Number(hand)
    return msg("table.hand_label", hand=Number(hand), session=Number(session))
