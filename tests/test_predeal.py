"""What happens before a deal (bot/table/predeal): contributors shape the next deal's
rules; a tournament's level sets the stakes of the next deal only (R-19.1)."""

from __future__ import annotations

import pytest

from bot.table import snapshot
from bot.table.errors import TableError
from bot.table.predeal import DealContext, FixedLevel, Level, NextDeal, run
from bot.table.predeal.choice import Choice
from bot.table.predeal.seats import Seats
from bot.table.predeal.straddle import position
from bot.table.predeal.timecharge import TimeCharge
from bot.table.recovery import load
from bot.table.state import state_digest
from tests.harness import Harness
from tests.said import en


async def test_r19_1_a_level_sets_the_blinds_and_ante_of_the_next_deal_only() -> None:
    """A level set during a hand changes nothing in it; the next deal is dealt at it,
    and the hand's record keeps the stakes it was dealt at (recovery reads them)."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], buy_in=200, small_blind=1, big_blind=2)
    level = FixedLevel(Level(small_blind=5, big_blind=10, ante=1))
    table.stakes = level
    assert (await h.deal(table)).ok
    first = table.state.current
    assert first is not None
    rules = first.start.rules
    assert max(rules.blinds_or_straddles) == 10 and sum(rules.antes) == 3
    # The table shows the hand at its level, and a snapshot taken now keeps it.
    stakes = table.snapshot(None).stakes_data
    assert (stakes.blinds, stakes.ante) == ((5, 10), 1)
    snap = snapshot.from_payload(table.table_id, snapshot.to_payload(table.state))
    assert snap is not None and snap.current is not None and snap.current.level == first.level
    level.current = Level(small_blind=50, big_blind=100, ante=10)
    hand = table.state.hand
    assert hand is not None and hand.rules.blinds_or_straddles == rules.blinds_or_straddles
    total = sum(s.stack for s in table.state.seats.values())
    await h.play_passively(table)
    assert sum(s.stack for s in table.state.seats.values()) == total
    assert (await h.deal(table)).ok
    second = table.state.current
    assert second is not None and max(second.start.rules.blinds_or_straddles) == 100
    assert sum(second.start.rules.antes) == 30
    # The first hand is told at the stakes it was dealt at, not the level of now.
    head = (await table.hand_told(1))[0]
    assert "blinds 5/10, ante 1" in en(head)
    # The table's own settings are untouched: the level is the tournament's.
    assert table.settings.big_blind == 2
    again = await load(h.store, table.table_id)
    assert state_digest(again) == state_digest(table.state)


async def test_r19_1_a_cash_table_deals_at_its_settings() -> None:
    h = Harness()
    table = await h.seated(["a", "b"], buy_in=200, small_blind=3, big_blind=6)
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None and max(info.start.rules.blinds_or_straddles) == 6


async def test_r14_6_a_contributor_that_refuses_leaves_the_table_as_it_was() -> None:
    """The time charge would leave one player with chips: the pipeline refuses, the
    seats are as they were (the charge was applied in memory only) and nothing is
    written: all or nothing."""
    h = Harness()
    table = await h.seated(["a", "b"], buy_in=40, time_charge=2, big_blind=2, small_blind=1)
    seq, b = table.state.seq, table.state.seat_of("b")
    assert b is not None
    b.stack = 2  # what the pipeline would see after a losing hand
    ctx = DealContext(table.state, h.time.now(), None)
    with pytest.raises(TableError) as refused:
        run((Choice(), Seats(), TimeCharge()), NextDeal(table.settings), ctx)
    assert refused.value.msg.key == "deal.time_too_few"
    assert "nothing was collected (R-14.6)" in en(refused.value.msg)
    assert b.stack == 2 and table.state.seq == seq
    b.stack = 40


async def test_r3_4_a_straddle_is_twice_the_big_blind_of_the_level_in_force() -> None:
    """The contributors compose in order: the level sets the big blind, the straddle
    doubles it."""
    h = Harness()
    table = await h.seated(
        ["a", "b", "c", "d"], buy_in=200, straddle=True, big_blind=2, small_blind=1
    )
    table.stakes = FixedLevel(Level(small_blind=2, big_blind=4))
    plan = table._plan()
    assert plan is not None
    pos = position(plan)
    assert pos is not None
    straddler = table.state.seats[plan.order[pos]].user_id
    assert (await table.straddle(straddler, key=h.key())).ok
    deal = table._next_deal(None)
    assert deal.settings.big_blind == 4 and deal.live[pos] == 8
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None and info.start.rules.blinds_or_straddles[pos] == 8


class _Cup:
    """A tournament's levels: its tables only."""

    def __init__(self, level: Level) -> None:
        self.current = level

    def level(self, table_id: str) -> Level | None:
        return self.current if table_id.startswith("tn:cup:") else None


async def test_r19_1_the_services_source_sets_its_tables_stakes_after_a_restart_too() -> None:
    """One source on the service answers for a tournament's tables; a cash table beside
    them deals at its settings; tables recovered from the log follow the source."""
    h = Harness()
    await h.seated(["a", "b"], buy_in=100, table_id="tn:cup:1")
    await h.seated(["c", "d"], buy_in=100, table_id="cash")
    h2 = Harness(store=h.store)
    await h2.service.recover()
    h2.service.stakes = _Cup(Level(small_blind=10, big_blind=20))
    cup, cash = h2.service.table("tn:cup:1"), h2.service.table("cash")
    for table in (cup, cash):
        out = await table.deal("host", key="after-restart")
        assert out.ok and not out.duplicate
    assert cup.state.current is not None and cash.state.current is not None
    assert max(cup.state.current.start.rules.blinds_or_straddles) == 20
    assert max(cash.state.current.start.rules.blinds_or_straddles) == 2
    h2.check(cup)
    h2.check(cash)
