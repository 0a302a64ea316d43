"""A rebuy or add-on is granted only while the tournament runs (R-19.100), checked by
the director itself, whatever path asks (the queue's check is not the only one)."""

from __future__ import annotations

from bot.tournament import director
from bot.tournament.structure import Entries, Level, Schedule
from tests.test_tournament import _started

SCHED = Schedule((Level(5, 10, 0, 0, 10), Level(10, 20, 0, 0, 10)))


def test_R_19_100_no_rebuy_or_addon_after_a_cancel() -> None:
    d = _started(4, stack=1000, schedule=SCHED, entries=Entries(rebuys=2, rebuy_until=2, addon=500))
    a, *_ = d.seated(1)
    assert director.rebuy(d.state, a).refusal is None  # sold while it runs
    d.do(director.cancel(d.state))
    assert d.state.status == "cancelled"
    pool, chips = d.state.pool, d.state.chips
    for addon in (False, True):
        refused = director.rebuy(d.state, a, addon=addon)
        assert refused.refusal is not None and not refused.records
        assert refused.refusal.key == "tournament.refuse.not_running"
    assert (d.state.pool, d.state.chips) == (pool, chips)  # nothing sold, nothing made


def test_R_19_100_no_rebuy_before_the_start() -> None:
    d = _started(4, stack=1000, schedule=SCHED, entries=Entries(rebuys=2, rebuy_until=2))
    a, *_ = d.seated(1)
    before = director.State(d.state.config)
    assert before.status == "registering"
    refused = director.rebuy(before, a)
    assert refused.refusal is not None and refused.refusal.key == "tournament.refuse.not_running"
