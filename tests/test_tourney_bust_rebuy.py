"""A player who busts while a rebuy is still sold to him waits to rebuy (R-19.47 to
R-19.49): the director's side, rule by rule."""

from __future__ import annotations

import random

from bot.poker.messages import Chips, Count
from bot.tournament import director
from bot.tournament.log import Out, Placed, Rebought, Returned, Waiting
from bot.tournament.structure import Entries, Level, Schedule
from bot.tourney_run.buying import rebuy_question, reentry_open
from tests.test_tournament import Director, _shape, _started

SCHED = Schedule((Level(5, 10, 0, 0, 10), Level(10, 20, 0, 0, 10), Level(20, 40, 0, 0, 10)))


def _game(players: int = 4, **entries: int) -> Director:
    options = {"rebuys": 1, "rebuy_until": 1, **entries}
    return _started(players, stack=1000, schedule=SCHED, entries=Entries(**options))


def _bust(d: Director, loser: str, winner: str) -> None:
    """One hand at table 1: ``loser``'s whole stack to ``winner``."""
    chips = d.state.stacks[loser]
    d.hand(1, {loser: 0, winner: d.state.stacks[winner] + chips}, {loser: [winner]})


def _places(d: Director) -> dict[str, tuple[int, int]]:
    return {f.entry: (f.first, f.last) for f in d.state.finishes}


def test_R_19_47_a_bust_with_a_rebuy_left_waits_and_is_not_out() -> None:
    d = _game()
    a, b, _c, _e = d.seated(1)
    table, seat = d.state.seats[a]
    _bust(d, a, b)
    wait = d.state.waiting[a]
    assert wait == Waiting(a, table, seat, 1000, 60.0, (b,))
    assert a not in d.state.seats and a not in d.state.stacks  # his seat is free
    assert not d.state.out and not d.state.finishes  # not out, not placed
    assert d.state.left() == 4 and d.state.status == "running"
    assert "tournament.waiting" in d.said_keys()
    assert sum(d.state.stacks.values()) == d.state.chips == 4000
    # The status board counts him among the players left.
    players = next(m for m in director.status(d.state) if m.key == "tournament.status.players")
    assert dict(players.params)["count"] == Count(4)
    # A re-entry is no way round the rebuy: his entry is still in.
    assert director.register(d.state, "p0", "P0").refusal is not None


def test_R_19_47_no_wait_without_a_rebuy_left() -> None:
    d = _game()
    a, b, *_ = d.seated(1)
    d.do(director.rebuy(d.state, a))  # his one rebuy, bought at the starting stack
    _bust(d, a, b)
    assert a not in d.state.waiting
    assert _places(d)[a] == (4, 4)


def test_R_19_48_a_rebuy_seats_the_waiting_entry_again_as_a_late_entry() -> None:
    d = _game()
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    pool, chips, entries = d.state.pool, d.state.chips, len(d.state.entries)
    decision = d.do(
        director.rebuy(d.state, a, tables=[_shape(d, 1)], rng=random.Random(5), at=30.0)
    )
    rebought, returned = decision.records
    assert rebought == Rebought(a, 1000, 100)
    assert isinstance(returned, Returned) and returned.entry == a and returned.table == 1
    assert d.state.seats[a] == (1, returned.seat) and d.state.stacks[a] == 1000
    assert a not in d.state.waiting and d.state.returns[a] == 1
    assert d.state.pool == pool + 100 and d.state.chips == chips + 1000
    assert len(d.state.entries) == entries  # the same entry, no new one
    assert sum(d.state.stacks.values()) == d.state.chips


def test_R_19_48_no_rebuy_after_the_wait_or_for_one_still_playing() -> None:
    d = _game()
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    late = director.rebuy(d.state, a, tables=[_shape(d, 1)], at=61.0)
    assert late.refusal is not None and late.refusal.key == "tournament.refuse.rebuy_closed"
    full = director.rebuy(d.state, a, tables=[])  # no seat to draw
    assert full.refusal is not None and full.refusal.key == "tournament.refuse.no_seat"
    nope = director.decline(d.state, b)
    assert nope.refusal is not None and nope.refusal.key == "tournament.refuse.not_waiting"


def test_R_19_48_a_decline_puts_him_out_at_once_and_pays_his_bounty() -> None:
    d = _game(bounty=20)
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    assert not d.state.bounties  # not out yet: no bounty
    decision = d.do(director.decline(d.state, a))
    assert any(isinstance(r, Out) and r.entry == a for r in decision.records)
    assert _places(d)[a] == (4, 4)
    assert [(x.entry, x.victim, x.amount) for x in d.state.bounties] == [(b, a, 20)]
    assert a not in d.state.waiting and director.decline(d.state, a).refusal is not None


def test_R_19_49_the_wait_ends_by_the_clock() -> None:
    d = _game()
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    assert not director.tick(d.state, 59.9).records
    d.do(director.tick(d.state, 60.0))
    assert a not in d.state.waiting and _places(d)[a] == (4, 4)
    assert "tournament.no_rebuy" in d.said_keys()


def test_R_19_49_the_wait_stands_still_while_the_host_pauses() -> None:
    d = _game()
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    d.do(director.pause(d.state, "host", at=10.0))
    assert not director.tick(d.state, 100.0).records  # paused: nothing runs out
    d.do(director.resume(d.state, "host", at=40.0))
    assert d.state.waiting[a].until == 90.0
    assert not director.tick(d.state, 89.0).records
    d.do(director.tick(d.state, 90.0))
    assert a not in d.state.waiting


def test_R_19_49_the_waits_end_when_rebuys_close() -> None:
    d = _game()
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    d.do(director.level_up(d.state, 5.0))  # level 2: past rebuy_until
    assert not d.state.waiting and _places(d)[a] == (4, 4)


def test_R_19_49_waits_ending_together_rank_by_their_starting_chips() -> None:
    d = _game()
    a, b, c, _e = d.seated(1)
    d.hand(1, {a: 600, b: 1400})
    d.hand(1, {a: 0, c: 0, b: 3000})  # a began it with 600, c with 1000
    assert set(d.state.waiting) == {a, c}
    d.do(director.tick(d.state, 60.0))
    assert _places(d)[c] == (3, 3) and _places(d)[a] == (4, 4)


def test_R_19_49_equal_starts_ending_together_share_their_places() -> None:
    d = _game(players=5)
    a, b, c, _e, _f = d.seated(1)
    d.hand(1, {a: 0, c: 0, b: 3000})
    d.do(director.tick(d.state, 60.0))
    assert _places(d)[a] == _places(d)[c] == (4, 5)


def test_R_19_47_a_waiting_entry_counts_among_those_left_for_places() -> None:
    d = _game()
    a, b, c, _e = d.seated(1)
    _bust(d, a, b)  # a waits
    d.do(director.rebuy(d.state, c))  # c's one rebuy
    _bust(d, c, b)  # c is out at once, a still in
    assert _places(d)[c] == (4, 4)  # below the waiting a
    d.do(director.decline(d.state, a))
    assert _places(d)[a] == (3, 3)


def test_R_19_47_nobody_wins_while_another_may_still_rebuy() -> None:
    d = _game(players=2)
    a, b = d.seated(1)
    _bust(d, a, b)
    assert d.state.status == "running" and d.state.winner is None
    assert director.may_deal(d.state, 1, len(d.seated(1))) is False  # nothing deals alone
    d.do(director.rebuy(d.state, a, tables=[_shape(d, 1)], rng=random.Random(1)))
    assert len(d.state.seats) == 2
    _bust(d, a, b)  # his last rebuy is spent: out now
    assert d.state.status == "finished" and d.state.winner == b
    assert _places(d) == {a: (2, 2), b: (1, 1)}


def test_R_19_47_the_winner_waits_for_the_wait_to_run_out() -> None:
    d = _game(players=2)
    a, b = d.seated(1)
    _bust(d, a, b)
    d.do(director.tick(d.state, 60.0))
    assert d.state.status == "finished" and d.state.winner == b
    assert [r for r in d.log if isinstance(r, Placed)][-1].entry == b


def test_R_19_47_a_replay_restores_the_wait_and_its_deadline() -> None:
    d = _game()
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    again = director.replay(d.log)
    assert again.waiting == d.state.waiting and again.waiting[a].until == 60.0
    assert again == d.state


def test_R_19_47_a_cancel_refunds_a_waiting_entry_his_bounty() -> None:
    """R-19.39 with R-19.47: a busted entry waiting to rebuy is still in: no chips, so
    no share of the pool, but his own bounty back; the pools are paid out exactly."""
    d = _game(bounty=20)
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    d.do(director.cancel(d.state))
    refunds = dict(d.state.refunds)
    assert refunds[a] == 20
    assert sum(refunds.values()) == d.state.pool + d.state.bounty_pool


def test_R_19_49_re_entry_is_open_once_the_wait_is_over() -> None:
    """R-19.49 with R-19.38: while he waits his re-entry is refused (his entry is still
    in); declined, he may re-enter as before: a new entry at a drawn seat."""
    d = _game(late_until=2, reentries=1)
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    waiting = director.register(d.state, "p0", "P0", tables=[_shape(d, 1)])
    assert waiting.refusal is not None and waiting.refusal.key == "tournament.refuse.already"
    assert not reentry_open(d.state, "p0")  # no Re-enter button while he may rebuy
    d.do(director.decline(d.state, a))
    assert reentry_open(d.state, "p0")
    d.do(director.register(d.state, "p0", "P0", tables=[_shape(d, 1)], rng=random.Random(2)))
    assert "p0#2" in d.state.seats and len(d.state.entries) == 5


def test_R_19_48_the_question_says_the_chips_the_price_and_the_seconds_left() -> None:
    d = _game()
    a, b, *_ = d.seated(1)
    _bust(d, a, b)
    asked = rebuy_question(d.state, d.state.waiting[a], 15.2)
    assert asked.key == "tournament.ask_rebuy"
    params = dict(asked.params)
    assert (params["amount"], params["price"], params["count"]) == (
        Chips(1000),
        Chips(100),
        Count(45),
    )
