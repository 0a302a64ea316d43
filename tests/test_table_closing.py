"""The table side of moderators' actions (issue 15): ``Table.abandon`` (R-16.11),
``Table.member_gone`` (R-16.12), ``Table.hold`` and ``TableService.reopen``, through the
service harness (in-memory store, manual clock, R-2.5 checked at every step)."""

from __future__ import annotations

from bot.poker.messages import Name, Rule, msg
from bot.table import log as tlog
from bot.table.recovery import ledger_error, load
from bot.table.service import TableService
from tests.harness import HOST, Harness


async def ledger_ok(h: Harness, table_id: str = "t") -> None:
    table = h.service.table(table_id)
    assert table.conservation_error() is None
    assert await ledger_error(h.store, table.state) is None


async def test_r16_11_abandon_mid_hand_returns_what_each_put_in() -> None:
    """R-16.11: abandoned mid-hand after a raise and a call: the hand is cancelled (each
    gets back his stack at the deal), nothing is raked, every stack is cashed out, the
    table is closed, and the log rebuilds the same table. A second abandon changes
    nothing."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"], rake_percent_bp=500, no_flop_no_drop=False)
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    dealt = {info.users[p]: s for p, s in enumerate(info.start.stacks)}
    assert (await h.do(table, h.to_act(table), "raise to 10")).ok
    assert (await h.do(table, h.to_act(table), "call")).ok
    assert table.snapshot(None).pot_total >= 20
    done = await table.abandon("its channel was deleted", by="test")
    assert done is not None and done.cancelled == info.hand_no
    assert {u: c for u, _, c in done.cashed} == dealt
    assert table.state.closed and not table.state.seats
    ended = tlog.read_rows(await h.store.events("t"), tlog.HandEnded)[-1]
    assert (ended.reason, ended.rake) == ("cancelled", 0)
    cashed = {r.player_id: r.amount for r in await h.store.ledger_rows("t") if r.kind == "cash_out"}
    assert cashed == dealt
    await ledger_ok(h)
    again = await load(h.store, "t")
    assert again.closed and again.conservation_error() is None
    assert await table.abandon("again", by="test") is None


async def test_r16_11_abandon_between_deals_cancels_nothing() -> None:
    """R-16.11 between deals: no hand to cancel; every stack is cashed out as it is."""
    h = Harness()
    table = await h.seated(["alice", "bob"])
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    stacks = {s.user_id: s.stack for s in table.state.seats.values()}
    done = await table.abandon("removed", by="test")
    assert done is not None and done.cancelled is None
    assert {u: c for u, _, c in done.cashed} == stacks
    await ledger_ok(h)


async def test_r16_12_member_gone_mid_hand_is_away_then_stood_up() -> None:
    """R-16.12: dealt in, the member who left is away (the clock is due at once for
    him: check if free, else fold) and leaves when the hand ends, cashed out."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert (await h.deal(table)).ok
    gone = h.to_act(table)
    said = await table.member_gone(gone)
    assert said is not None and said.key == "table.gone.leaving"
    assert said.get("rule") == Rule("R-16.12") and said.get("who") == Name(gone)
    assert table.due_at() is not None and table.due_at() <= h.time.now()  # type: ignore[operator]
    turn = table.state.turn
    assert await h.service.tick() == 1
    assert table.state.turn == turn + 1
    await h.play_passively(table)
    assert table.state.seat_of(gone) is None and gone not in table.away
    cashed = [r for r in await h.store.ledger_rows("t") if r.kind == "cash_out"]
    assert [r.player_id for r in cashed] == [gone]
    await ledger_ok(h)


async def test_r16_12_member_gone_sits_again_acts_for_himself() -> None:
    """R-16.12: a member who left and came back and sits again is not away any more."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    await table.member_gone("carol")
    assert table.state.seat_of("carol") is None
    assert (await table.sit("carol", "carol", 100, key=h.key())).ok
    assert "carol" not in table.away
    assert await table.member_gone("nobody") is None
    await ledger_ok(h)


async def test_hold_stops_deals_not_the_hand_r2_5() -> None:
    """A hold (the platform cannot post) refuses a new deal, by hand or clock, but the
    hand in progress keeps its clock and plays on. R-2.5."""
    h = Harness()
    table = await h.seated(["alice", "bob"], auto_deal=True)
    assert (await h.deal(table)).ok
    held = msg("hold.ephemeral", where=Name("#here"))
    table.hold = held
    assert table.deadline() is not None  # the hand's clock runs
    await h.play_passively(table)
    assert table.due_at() is None
    out = await table.deal(HOST, key=h.key())
    assert not out.ok and out.msg == held
    table.hold = None
    assert table.due_at() is not None
    await ledger_ok(h)


async def test_r2_5_new_table_in_a_channel_closed_before_a_restart() -> None:
    """R-2.5 (sibling fix): a table closed, the service restarted (closed tables are not
    loaded), a new table created in that channel: its chip counters run on from the
    log, so the ledger and the live table agree (they did not: the new table counted
    from 0 while the ledger held the whole channel), and reopen keeps the settings."""
    h = Harness()
    table = await h.seated(["alice", "bob"], big_blind=4, small_blind=2)
    settings = table.state.settings
    assert (await table.close(HOST, key=h.key())).ok
    fresh = TableService(h.store, h.presenter, h.time)
    await fresh.recover()
    assert fresh.get("t") is None
    out = await fresh.reopen("t", key="again")
    assert out.ok, out.msg
    reopened = fresh.table("t")
    assert reopened.state.settings == settings and reopened.state.host == HOST
    assert (await reopened.sit("carol", "carol", 100, key="k-c")).ok
    assert reopened.conservation_error() is None
    assert await ledger_error(h.store, reopened.state) is None
    assert not (await fresh.reopen("t", key="twice")).ok  # open: nothing to reopen
