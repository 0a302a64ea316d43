"""§20 host tools and the waiting list through the table service (R-20.50 to R-20.56):
kick in the middle of a hand and between hands, a seat move, a stack adjustment with its
ledger row, the next-hand sit-out, co-host rights, the end of the session, and a waiting
list across a leave whose offer runs out to the next in line. Every step checks R-2.5 (the
harness after each play, ``ok`` after each host change: memory and the ledger agree)."""

from __future__ import annotations

from bot.poker.messages import Msg
from bot.table import log as tlog
from bot.table.actor import Actor
from bot.table.levels import Level
from bot.table.ports import LedgerKind, MemoryStore
from bot.table.predeal.stakes import FixedLevel
from bot.table.recovery import ledger_error, load
from bot.table.settings import TableSettings
from bot.table.table import Table
from bot.words import render
from tests.harness import HOST, Harness


async def ok(h: Harness, table: Table) -> None:
    """R-2.5: chips on the table equal chips bought less cashed out, in memory and in
    the ledger (adjustments included)."""
    assert table.conservation_error() is None
    assert await ledger_error(h.store, table.state) is None


def host_records(events: list[tlog.LogRecord]) -> list[tlog.HostActed]:
    return [e for e in events if isinstance(e, tlog.HostActed)]


async def logged(h: Harness) -> list[tlog.LogRecord]:
    return [tlog.read_event(e.kind, e.payload) for e in await h.store.events("t")]


def said(m: Msg | None) -> str:
    assert m is not None
    return render(m, "en")


async def test_r20_51_kick_on_his_turn_folds_at_once_and_cashes_out_after_the_hand() -> None:
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert (await h.deal(table)).ok
    victim = h.to_act(table)
    out = await table.host_tool(HOST, "kick", victim, key=h.key())
    assert out.ok, out.msg
    h.check(table)
    info = table.state.current
    hand = table.state.hand
    assert info is not None and hand is not None
    pos = info.users.index(victim)
    assert hand.folded[pos], "folded at once: it was his turn"
    await h.play_passively(table)
    assert table.state.seat_of(victim) is None
    rows = [r for r in await h.store.ledger_rows("t") if r.player_id == victim]
    assert [r.kind for r in rows][-1] is LedgerKind.CASH_OUT
    kicks = host_records(await logged(h))
    assert [(k.what, k.user, k.by) for k in kicks] == [("kick", victim, HOST)]
    await ok(h, table)


async def test_r20_51_kick_out_of_turn_is_folded_by_the_clock_in_turn() -> None:
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"], action_clock=30, time_bank=0)
    assert (await h.deal(table)).ok
    info = table.state.current
    hand = table.state.hand
    assert info is not None and hand is not None
    first = h.to_act(table)
    victim = next(u for u in info.users if u != first)
    assert (await table.host_tool(HOST, "kick", victim, key=h.key())).ok
    pos = info.users.index(victim)
    assert not hand.folded[pos], "not his turn: nothing is done for him yet"
    # The others play; when his turn comes the clock is due at once (no 30 seconds).
    while table.state.hand is not None and h.to_act(table) != victim:
        user = h.to_act(table)
        word = "check" if "check" in table.state.hand.legal().actions else "call"
        assert (await h.do(table, user, word)).ok
    assert table.state.hand is not None
    due = table.due_at()
    assert due is not None and due <= h.time.now()
    assert await h.service.tick() == 1
    h.check(table)
    assert table.state.current is not None
    hand = table.state.current.ensure_hand()
    assert hand.folded[pos]
    await h.play_passively(table)
    assert table.state.seat_of(victim) is None
    await ok(h, table)


async def test_r20_51_kick_between_hands_cashes_out_at_once() -> None:
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    out = await table.host_tool(HOST, "kick", "bob", key=h.key())
    assert out.ok and said(out.msg).startswith("bob was removed")
    assert table.state.seat_of("bob") is None
    assert table.state.cashed == 100
    # A kick is not a ban: he may sit again.
    assert (await table.sit("bob", "bob", 100, key=h.key())).ok
    assert "bob" not in table.state.hosting.kicked
    await ok(h, table)


async def test_r20_53_adjust_a_stack_from_and_to_the_bank_with_a_ledger_row() -> None:
    h = Harness()
    table = await h.seated(["alice", "bob"])
    out = await table.host_tool(HOST, "adjust", "alice", amount=50, reason="chip miscount")
    assert out.ok, out.msg
    assert table.state.seat_of("alice").stack == 150  # type: ignore[union-attr]  # seated
    await ok(h, table)
    out = await table.host_tool(HOST, "adjust", "bob", amount=-30, reason="  paid  in cash ")
    assert out.ok
    assert "paid in cash" in said(out.msg)
    assert table.state.seat_of("bob").stack == 70  # type: ignore[union-attr]  # seated
    await ok(h, table)
    rows = [r for r in await h.store.ledger_rows("t") if r.kind is LedgerKind.ADJUSTMENT]
    assert [(r.player_id, r.amount) for r in rows] == [("alice", 50), ("bob", -30)]
    # the session's nets read an adjustment as chips brought, not won.
    report = await h.service.session("t")
    assert {r.user_id: r.net for r in report.results} == {"alice": 0, "bob": 0}
    acted = host_records(await logged(h))
    assert [(a.what, a.user, a.by, a.amount, a.reason) for a in acted] == [
        ("adjust", "alice", HOST, 50, "chip miscount"),
        ("adjust", "bob", HOST, -30, "paid in cash"),
    ]
    # Never from another player: alice's stack did not pay for bob's, nor the reverse.
    assert sum(s.stack for s in table.state.seats.values()) == 220
    # Refusals change nothing: no reason, zero, below 0, above R-2.6's bound, mid-hand,
    # not the host.
    before = await h.store.events("t")
    for amount, reason in ((10, " "), (0, "x"), (-71, "x"), (10**12, "x")):
        assert not (await table.host_tool(HOST, "adjust", "bob", amount=amount, reason=reason)).ok
    assert not (await table.host_tool("alice", "adjust", "alice", amount=5, reason="x")).ok
    assert (await h.deal(table)).ok
    assert not (await table.host_tool(HOST, "adjust", "bob", amount=5, reason="x")).ok
    assert len(await h.store.events("t")) == len(before) + 1  # the deal only
    await h.play_passively(table)
    await ok(h, table)


async def test_r20_52_move_a_player_to_another_seat_between_hands() -> None:
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert table.state.seat_of("bob").number == 2  # type: ignore[union-attr]  # seated
    out = await table.host_tool(HOST, "seat", "bob", to=5, key=h.key())
    assert out.ok, out.msg
    assert table.state.seat_of("bob").number == 5  # type: ignore[union-attr]  # seated
    assert 2 not in table.state.seats
    assert not (await table.host_tool(HOST, "seat", "bob", to=1)).ok  # taken
    assert not (await table.host_tool(HOST, "seat", "bob", to=11)).ok  # no such seat
    assert (await h.deal(table)).ok
    assert not (await table.host_tool(HOST, "seat", "bob", to=7)).ok  # in a hand
    await h.play_passively(table)
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    # Recovery from the log seats him where he was moved.
    again = await load(h.store, "t")
    assert again.seat_of("bob").number == 5  # type: ignore[union-attr]  # seated
    await ok(h, table)


async def test_r20_54_the_host_sits_a_player_out_from_the_next_hand() -> None:
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert (await h.deal(table)).ok
    out = await table.host_tool(HOST, "sitout", "carol", key=h.key())
    assert out.ok, out.msg
    assert table.state.seat_of("carol").sit_out_next  # type: ignore[union-attr]  # seated
    assert not (await table.host_tool(HOST, "sitout", "carol")).ok  # already
    await h.play_passively(table)
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None and "carol" not in info.users
    await h.play_passively(table)
    await ok(h, table)


async def test_r20_50_a_co_host_uses_the_host_tools_but_names_no_co_host() -> None:
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    refused = await table.host_tool("alice", "kick", "bob")
    assert not refused.ok and refused.code == "not_allowed"
    assert not (await table.pause("alice")).ok
    out = await table.host_tool(HOST, "cohost", "alice", name="alice", key=h.key())
    assert out.ok, out.msg
    assert (await table.pause("alice")).ok and (await table.pause("alice", False)).ok
    assert (await table.host_tool("alice", "sitout", "carol")).ok
    named = await table.host_tool("alice", "cohost", "bob", name="bob")
    assert not named.ok and named.code == "not_allowed"
    # A moderator (the platform's word) names co-hosts too, and removes them.
    assert (await table.host_tool(Actor("mod", may_manage=True), "cohost", "bob", name="bob")).ok
    assert (await table.host_tool(HOST, "uncohost", "alice", name="alice")).ok
    assert not (await table.host_tool("alice", "kick", "bob")).ok
    assert (await table.host_tool("bob", "kick", "alice")).ok
    assert (await table.sit(HOST, "the host", 100)).ok
    refused = await table.host_tool("bob", "kick", HOST)  # not on the host
    assert not refused.ok and refused.code == "not_allowed"
    acted = host_records(await logged(h))
    assert [(a.what, a.user, a.by) for a in acted] == [
        ("cohost", "alice", HOST),
        ("sitout", "carol", "alice"),
        ("cohost", "bob", "mod"),
        ("uncohost", "alice", HOST),
        ("kick", "alice", "bob"),
    ]
    again = await load(h.store, "t")
    assert again.hosting.cohosts == {"bob"}
    await ok(h, table)


async def test_r20_54_ending_the_session_cashes_every_stack_out() -> None:
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    assert (await table.host_tool(HOST, "adjust", "carol", amount=25, reason="bonus")).ok
    assert (await table.host_tool(HOST, "cohost", "bob", name="bob")).ok
    out = await table.close("bob", key=h.key())  # a co-host ends the session
    assert out.ok, out.msg
    assert table.state.closed and not table.state.seats
    totals = await h.store.ledger_totals("t")
    assert totals[LedgerKind.CASH_OUT] == 325
    assert totals[LedgerKind.BUY_IN] + totals.get(LedgerKind.ADJUSTMENT, 0) == 325
    await ok(h, table)


async def test_r20_55_r20_56_a_waiting_list_across_a_leave_and_an_offer_that_runs_out() -> None:
    h = Harness()
    table = await h.seated(["a", "b"], seats=2, action_clock=30)
    assert not (await table.wait_list("a", "a", True)).ok  # seated
    assert (await table.wait_list("w1", "w1", True, key=h.key())).ok
    assert (await table.wait_list("w2", "w2", True, key=h.key())).ok
    assert not (await table.wait_list("w1", "w1", True)).ok  # already
    assert [u for u, _ in table.state.hosting.waiting] == ["w1", "w2"]
    # b leaves: the seat is offered to w1, privately, until the table's clock runs out.
    assert (await table.stand("b", key=h.key())).ok
    offer = table.state.hosting.offer
    assert offer is not None and offer.user == "w1"
    assert offer.until == h.time.now() + 30
    told = [(u, n) for _, u, n in h.presenter.private_notices if n.kind == "waitlist_offer"]
    assert [u for u, _ in told] == ["w1"] and told[0][1].deadline == offer.until
    # Nobody else may take the offered seat meanwhile; joining is still possible.
    refused = await table.sit("x", "x", 100)
    assert not refused.ok and "kept for the waiting list" in said(refused.msg)
    assert table.due_at() == offer.until
    h.time.advance(29)
    assert await h.service.tick() == 0
    h.time.advance(1)
    assert await h.service.tick() == 1  # w1's offer ran out: the seat goes to w2
    offer = table.state.hosting.offer
    assert offer is not None and offer.user == "w2"
    assert not table.state.hosting.waits("w1")
    told = [u for _, u, n in h.presenter.private_notices if n.kind == "waitlist_offer"]
    assert told == ["w1", "w2"]
    assert not (await table.sit("w1", "w1", 100)).ok
    out = await table.sit("w2", "w2", 100, key=h.key())
    assert out.ok, out.msg
    assert table.state.hosting.offer is None and not table.state.hosting.waiting
    assert table.due_at() is None or table.due_at() != offer.until
    events = await logged(h)
    steps = [(e.what, e.user) for e in events if isinstance(e, tlog.Waitlisted)]
    assert steps == [
        ("join", "w1"),
        ("join", "w2"),
        ("offer", "w1"),
        ("lapse", "w1"),
        ("offer", "w2"),
    ]
    await ok(h, table)


async def test_r20_55_leaving_the_list_and_a_free_seat_refuses_joining() -> None:
    h = Harness()
    table = await h.seated(["a"], seats=2)
    refused = await table.wait_list("w", "w", True)
    assert not refused.ok and "sit down instead" in said(refused.msg)
    assert (await table.sit("b", "b", 100)).ok
    assert (await table.wait_list("w", "w", True)).ok
    assert (await table.wait_list("w", "w", False)).ok
    assert not (await table.wait_list("w", "w", False)).ok
    assert (await table.stand("b")).ok
    assert table.state.hosting.offer is None  # nobody waits: nothing offered
    await ok(h, table)


async def test_r20_55_the_waiting_list_survives_a_restart() -> None:
    store = MemoryStore()
    h = Harness(store)
    table = await h.seated(["a", "b"], seats=2, action_clock=30)
    assert (await table.wait_list("w1", "w1", True)).ok
    assert (await table.wait_list("w2", "w2", True)).ok
    assert (await table.stand("a")).ok
    again = await load(store, "t")
    assert again.hosting.offer is not None and again.hosting.offer.user == "w1"
    assert again.hosting.waiting == [("w2", "w2")]
    assert again.conservation_error() is None


async def test_r20_50_a_tournament_table_refuses_kicks_moves_adjustments_and_a_waiting_list() -> (
    None
):
    """R-20.50: at a tournament's table (one a tournament opened, R-19.3) the director
    owns seats and chips: kick, seat move, adjustment and the waiting list are refused
    and write nothing; a co-host may still be named."""
    h = Harness()
    opened = await h.service.create(
        "tn:t1:1", HOST, TableSettings.of(seats=2), key=h.key(), tournament="t1"
    )
    assert opened.ok
    table = h.service.table("tn:t1:1")
    for name in ("alice", "bob"):
        assert (await table.sit(name, name, 100, key=h.key())).ok
    table.stakes = FixedLevel(Level(1, 2))
    before = table.state.seq
    for out in (
        await table.host_tool(HOST, "kick", "bob"),
        await table.host_tool(HOST, "seat", "bob", to=1),
        await table.host_tool(HOST, "adjust", "bob", amount=5, reason="x"),
        await table.wait_list("carol", "carol", True),
    ):
        assert not out.ok and "tournament" in said(out.msg)
    assert table.state.seq == before
    assert (await table.host_tool(HOST, "cohost", "alice", name="alice")).ok
    await ok(h, table)
