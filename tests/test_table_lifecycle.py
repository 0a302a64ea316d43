"""A table's whole life in one channel: close and reopen, the keys each table derives,
recovery that isolates a table it cannot settle, deals that are all or nothing with a
time charge (R-14.6), and a carried pot at the close (R-16.13). Through the service
harness (in-memory store, manual clock, R-2.5 checked at every step)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.poker.messages import Chips, Count, Name, Number, Rule, msg
from bot.table import log as tlog
from bot.table.errors import SettingsError
from bot.table.ports import MemoryStore, RecordingPresenter
from bot.table.recovery import ledger_error, load
from bot.table.service import TableService
from bot.table.settings import TableSettings
from bot.table.state import state_digest
from bot.table.table import Table
from tests.harness import HOST, Harness


async def ledger_ok(h: Harness, table_id: str = "t") -> None:
    table = h.service.table(table_id)
    assert table.conservation_error() is None
    assert await ledger_error(h.store, table.state) is None


async def reopen(h: Harness, names: list[str], table_id: str = "t", **settings: Any) -> Table:
    out = await h.service.create(table_id, HOST, TableSettings.of(**settings), key=h.key())
    assert out.ok, out.msg
    table = h.service.table(table_id)
    for n in names:
        assert (await table.sit(n, n, 100, key=h.key())).ok
    return table


async def play_hands(h: Harness, table: Table, count: int) -> None:
    for _ in range(count):
        assert (await h.deal(table)).ok
        await h.play_passively(table)
        assert not table.state.in_hand


async def test_r16_11_a_channel_reopened_after_close_deals_and_ends_its_hands() -> None:
    """R-16.11 / R-1.1: the channel's weekly game. A table plays two hands and closes;
    a new one opens in the channel and plays its own hands 1 and 2 to the end (its keys
    never collide with the first table's), chips conserved; a new process on the same
    log starts it as it was."""
    h = Harness()
    table = await h.seated(["alice", "bob"])
    await play_hands(h, table, 2)
    assert (await table.close(HOST, key=h.key())).ok
    table = await reopen(h, ["carol", "dave"])
    assert table.state.incarnation == 2 and table.state.hand_no == 0
    await play_hands(h, table, 2)
    assert table.state.hand_no == 2
    await ledger_ok(h)
    ended = tlog.read_rows(await h.store.events("t"), tlog.HandEnded)
    assert [e.hand_no for e in ended] == [1, 2, 1, 2]
    # A third table, then a restart: every table starts, none halted.
    assert (await table.close(HOST, key=h.key())).ok
    table = await reopen(h, ["erin", "frank"])
    assert (await h.deal(table)).ok
    fresh = TableService(h.store, RecordingPresenter(), h.time)
    assert await fresh.recover() == []
    again = fresh.table("t")
    assert state_digest(again.state) == state_digest(table.state)
    assert again.state.incarnation == 3
    await h.play_passively(again)
    assert not again.state.in_hand and again.conservation_error() is None


async def test_r16_11_the_clock_acts_in_a_reopened_table() -> None:
    """R-16.11: the clock's keys (``clock:{hand}:{turn}``) are the new table's own: a
    timeout in the reopened table's hand 1 acts, where the first table timed out at the
    same hand and turn."""
    h = Harness()
    table = await h.seated(["alice", "bob"], action_clock=10, time_bank=0)
    assert (await h.deal(table)).ok
    h.time.advance(11)
    assert await h.service.tick() == 1
    turn = table.state.turn
    await h.play_passively(table)
    assert (await table.close(HOST, key=h.key())).ok
    table = await reopen(h, ["carol", "dave"], action_clock=10, time_bank=0)
    assert (await h.deal(table)).ok
    h.time.advance(11)
    before = table.state.turn
    assert await h.service.tick() == 1
    assert table.state.turn > before and turn > 0
    await ledger_ok(h)


async def test_r16_11_reopen_forgets_the_last_tables_memory() -> None:
    """R-16.11: what a table kept in memory (players away, the declaration told) is not
    the next table's: a player marked away at the first table acts for himself at the
    second."""
    h = Harness()
    table = await h.seated(["alice", "bob"])
    assert (await h.deal(table)).ok
    await table.member_gone("alice")
    await h.play_passively(table)
    assert (await table.close(HOST, key=h.key())).ok
    table = await reopen(h, ["alice", "bob"])
    assert "alice" not in table.away


async def test_r2_5_a_derived_key_already_in_the_log_halts_never_already_done() -> None:
    """R-2.5: a key the table derives (a hand's end) that the log already holds means
    the log knows something the table does not: the table halts with the reason, and
    the command is not answered "already done"."""
    h = Harness()
    table = await h.seated(["alice", "bob"])
    assert (await h.deal(table)).ok
    store = h.store
    assert isinstance(store, MemoryStore)
    store._keys.add(("t", "end:1"))  # as a table before it would have left it
    while table.state.hand is not None and not table.state.halted:
        hand = table.state.hand
        word = "check" if "check" in hand.legal().actions else "call"
        out = await table.act(h.to_act(table), word, key=h.key())
    assert table.state.halted is not None and table.state.halted.key == "table.key_collision"
    assert table.state.halted.get("entry") == Name("end:1")
    assert not out.ok and not out.duplicate and out.code == "halted"
    refused = await table.deal(HOST, key=h.key())
    assert not refused.ok and not refused.duplicate


class FailingStore(MemoryStore):
    """A store that cannot write one kind of event for one table."""

    def __init__(self) -> None:
        super().__init__()
        self.fail: tuple[str, str] | None = None

    async def append(self, table_id: str, kind: str, *args: Any, **kwargs: Any) -> int:
        if self.fail == (table_id, kind):
            raise OSError("disk full")
        return await super().append(table_id, kind, *args, **kwargs)


async def test_r2_5_recovery_halts_only_the_table_it_cannot_settle() -> None:
    """R-2.5 / invariant 4: a table whose last action was logged but whose end could not
    be written, on a store that still cannot write it, halts at the next start with a
    reason; the bot starts and every other table plays."""
    store = FailingStore()
    h = Harness(store)
    broken = await h.seated(["alice", "bob"], table_id="a")
    other = await h.seated(["carol", "dave"], table_id="b")
    assert (await h.deal(broken)).ok
    store.fail = ("a", "hand_ended")
    while broken.state.hand is not None and not broken.state.hand.over:
        hand = broken.state.hand
        word = "check" if "check" in hand.legal().actions else "call"
        await broken.act(h.to_act(broken), word, key=h.key())
    fresh = TableService(store, RecordingPresenter(), h.time)
    halted = await fresh.recover()
    assert halted == ["a"]
    assert fresh.table("a").state.halted
    assert not fresh.table("b").state.halted
    assert (await fresh.table("b").deal(HOST, key=h.key())).ok
    assert other.state.table_id == "b"


def test_r14_6_a_time_charge_above_the_big_blind_is_refused() -> None:
    """R-14.6: no setting takes a stack in one collection: the time charge is at most
    the big blind (the small bet when larger)."""
    with pytest.raises(SettingsError) as refused:
        TableSettings.of(small_blind=1, big_blind=2, time_charge=1_000_000_000)
    assert refused.value.msg == msg(
        "settings.time_charge_above",
        most=msg("settings.unit.chips", count=Count(2)),
        value=Name("1000000000"),
    )
    assert TableSettings.of(small_blind=1, big_blind=2, time_charge=2).time_charge == 2


def test_r14_6_a_step_rake_above_a_fifth_of_the_pot_is_refused() -> None:
    """R-14.6: a step rake of 1e9 chips per chip would take every pot: refused, with
    the most it may be; a fifth of the pot is allowed."""
    with pytest.raises(SettingsError) as refused:
        TableSettings().changed({"rake_step_chips": 1_000_000_000, "rake_step_per": 1})
    assert refused.value.msg.key == "settings.step_rake_above"
    assert refused.value.msg.get("percent") == Number(20)
    assert refused.value.msg.get("per") == Chips(1)
    ok = TableSettings().changed({"rake_step_chips": 1, "rake_step_per": 5})
    assert (ok.value("rake_step_chips"), ok.value("rake_step_per")) == (1, 5)


async def test_r14_6_a_refused_deal_collects_no_time() -> None:
    """R-14.6: a deal the time charge would leave with fewer than two players with chips
    is refused and collects nothing; the period is not begun, so the deal after a top-up
    collects it once, and later periods collect again (no key collides)."""
    h = Harness()
    table = await h.seated(["alice", "bob"], buy_in=2, min_buy_in=1, time_charge=2)
    refused = await h.deal(table)
    assert not refused.ok and not refused.duplicate
    assert refused.msg == msg("deal.time_too_few", amount=Chips(2), rule=Rule("R-14.6"))
    assert table.state.rake_total == 0 and table.state.time_collected_at is None
    assert all(s.stack == 2 for s in table.state.seats.values())
    assert not [r for r in await h.store.ledger_rows("t") if r.kind == "rake"]
    for user in ("alice", "bob"):
        assert (await table.top_up(user, 20, key=h.key())).ok
    for period in range(1, 4):
        out = await h.deal(table)
        assert out.ok and not out.duplicate, out.msg
        assert table.state.rake_total == 4 * period
        await h.play_passively(table)
        h.time.advance(1801)
    await ledger_ok(h)


async def _carry_a_guts_pot(h: Harness) -> Table:
    table = await h.seated(["a", "b", "c"], buy_in=200, variant="guts", guts_stake=5)
    assert (await h.deal(table)).ok
    hand, info = table.state.hand, table.state.current
    assert hand is not None and info is not None
    for pos in hand.guts_pending():
        assert (await h.do(table, info.users[pos], "out")).ok
    assert table.state.carried == 15
    return table


async def test_r16_13_close_returns_a_carried_pot_in_equal_shares() -> None:
    """R-16.13 / R-14.4: a Guts pot that nobody played for is carried; the close gives
    it back to the three players of that hand, 5 each, and the nets plus the rake sum to
    zero; the next table in the channel starts with nothing carried."""
    h = Harness()
    table = await _carry_a_guts_pot(h)
    out = await table.close(HOST, key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "notice.space"
    assert out.msg.get("head") == msg(
        "table.close.carry_returned", amount=Chips(15), count=Count(3), rule=Rule("R-16.13")
    )
    assert out.msg.get("tail") == msg("table.close.done")
    assert table.state.carried == 0
    await ledger_ok(h)
    cashed = {r.player_id: r.amount for r in await h.store.ledger_rows("t") if r.kind == "cash_out"}
    assert cashed == {"a": 200, "b": 200, "c": 200}
    report = await h.service.session("t")
    assert sum(r.net for r in report.results) == 0
    table = await reopen(h, ["d", "e"])
    assert table.state.carried == 0 and table.state.pot_state is None
    await ledger_ok(h)


async def test_r16_13_a_player_who_left_gets_his_share_cashed_out() -> None:
    """R-16.13: a player of the carrying hand who stood up before the close is paid his
    share as a cash-out; odd chips go one each from the first player left of the
    button."""
    h = Harness()
    table = await _carry_a_guts_pot(h)
    info = table.state.current
    assert info is not None
    first, second, third = info.users
    assert (await table.stand(third, key=h.key())).ok
    assert (await table.sit("z", "z", 100, key=h.key())).ok  # not of the carrying hand
    assert (await table.close(HOST, key=h.key())).ok
    await ledger_ok(h)
    rows = [r for r in await h.store.ledger_rows("t") if r.kind == "cash_out"]
    paid: dict[str, int] = {}
    for r in rows:
        paid[r.player_id] = paid.get(r.player_id, 0) + r.amount
    assert paid == {first: 200, second: 200, third: 200, "z": 100}
    again = await load(h.store, "t")
    assert again.closed and again.carried == 0 and again.conservation_error() is None


async def test_r16_13_abandon_returns_a_carried_pot() -> None:
    """R-16.13 with R-16.11: a table that loses its place with a pot carried gives it
    back before cashing everyone out."""
    h = Harness()
    table = await _carry_a_guts_pot(h)
    done = await table.abandon("its channel was deleted", by="test")
    assert done is not None
    assert sorted(c for _, _, c in done.cashed) == [200, 200, 200]
    await ledger_ok(h)


async def test_r16_13_a_session_report_is_the_current_tables_own() -> None:
    """R-14.4: ``/settle`` of a reopened table shows its own session, not the last
    table's players."""
    h = Harness()
    table = await h.seated(["alice", "bob"])
    await play_hands(h, table, 1)
    assert (await table.close(HOST, key=h.key())).ok
    await reopen(h, ["carol", "dave"])
    report = await h.service.session("t")
    assert {r.user_id for r in report.results} == {"carol", "dave"}


async def test_r2_5_a_command_whose_later_write_failed_says_it_was_recorded() -> None:
    """R-2.5 / invariant 4: the store takes a hand's last action but not its end (disk
    full): the player is told his action was recorded (it was), never "nothing was
    done"; once the store writes again, the next command finishes the hand."""
    store = FailingStore()
    h = Harness(store)
    table = await h.seated(["alice", "bob"])
    assert (await h.deal(table)).ok
    store.fail = ("t", "hand_ended")
    out = await table.act(h.to_act(table), "fold", key=h.key())
    assert out.ok and out.code == "partly_recorded", out.msg
    assert out.msg == msg("table.partly_recorded")
    info = table.state.current
    assert info is not None and not info.ended and table.state.hand is not None
    store.fail = None
    assert (await table.sit("carol", "carol", 100, key=h.key())).ok
    assert table.state.current is not None and table.state.current.ended
    await ledger_ok(h)


async def test_r16_14_a_stopped_table_with_every_chip_counted_can_be_closed() -> None:
    """R-16.14: a table halted mid-hand (its log held a key it derived) is closed by
    the host: the hand is cancelled, each player has back what he put in and is cashed
    out, and the channel's next table deals."""
    h = Harness()
    table = await h.seated(["alice", "bob"])
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    dealt = dict(zip(info.users, info.start.stacks, strict=True))
    store = h.store
    assert isinstance(store, MemoryStore)
    store._keys.add(("t", "end:1"))
    while not table.state.halted:
        await table.act(h.to_act(table), "fold", key=h.key())
    refused = await table.deal(HOST, key=h.key())
    assert not refused.ok
    store._keys.discard(("t", "end:1"))  # the operator cleared what stopped it
    out = await table.close(HOST, key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "notice.space", out.msg
    assert out.msg.get("head") == msg("table.close.cancelled", hand=Number(1), rule=Rule("R-16.14"))
    assert out.msg.get("tail") == msg("table.close.done")
    cashed = {r.player_id: r.amount for r in await h.store.ledger_rows("t") if r.kind == "cash_out"}
    assert cashed == dealt
    await ledger_ok(h)
    table = await reopen(h, ["carol", "dave"])
    assert not table.state.halted
    await play_hands(h, table, 1)


async def test_r16_14_a_wrong_count_keeps_a_stopped_table_as_it_is() -> None:
    """R-16.14 with R-2.5: on a wrong count nothing moves, the close included."""
    h = Harness()
    table = await h.seated(["alice", "bob"])
    table.state.seats[1].stack += 5  # a count the log does not back
    await table._check_conservation()
    assert table.state.halted
    seq = table.state.seq
    out = await table.close(HOST, key=h.key())
    assert not out.ok and table.state.seq == seq and not table.state.closed
