"""The status board while players wait to rebuy: the average stack is over the
players with chips, the waiting ones said apart (R-19.124); a cancel ends the waits
(R-19.39). Chips constant (R-2.5)."""

from __future__ import annotations

from bot.poker.messages import Chips, Count, Number, msg
from bot.tournament import director
from tests.test_tourney_bust_rebuy import _bust, _game


def test_R_19_124_the_average_counts_only_the_players_with_chips() -> None:
    """Four players, one busted and waiting to rebuy: four are left (he is still in),
    the average is the chips over the three with chips, and one is said waiting."""
    d = _game()
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    lines = director.status(d.state)
    chips = sum(d.state.stacks.values())
    assert chips == d.state.chips == 4000
    players = msg(
        "tournament.status.players",
        count=Count(4),
        entries=Number(4),
        average=Chips(chips // 3),
    )
    assert players in lines, lines
    assert msg("tournament.status.waiting", count=Count(1)) in lines, lines


def test_R_19_124_nobody_waiting_says_no_waiting_line() -> None:
    d = _game()
    lines = director.status(d.state)
    assert not any(m.key == "tournament.status.waiting" for m in lines)
    assert any(m.key == "tournament.status.players" for m in lines)


def test_R_19_39_a_cancel_ends_the_waits_and_the_replay_agrees() -> None:
    """A busted player waits to rebuy; the host cancels: nobody waits any more (the
    status lists no one waiting), his refund is his share by stacks (none: no chips,
    R-19.39), the pool paid back exactly, and the journal replayed gives the same
    state (R-2.5)."""
    d = _game()
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    assert a in d.state.waiting
    d.do(director.cancel(d.state))
    assert d.state.status == "cancelled" and d.state.waiting == {}
    refunds = dict(d.state.refunds)
    assert refunds[a] == 0 and sum(refunds.values()) == d.state.pool
    assert not any(m.key == "tournament.status.waiting" for m in director.status(d.state))
    assert director.replay(d.log) == d.state
