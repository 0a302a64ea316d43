"""Clocks (action clock, time bank, sit-out after timeouts, declaration clock) and
command serialisation (duplicates, stale turns). Time moves by hand, nobody sleeps."""

from __future__ import annotations

from bot.poker.messages import Name, Number, msg
from tests.harness import HOST, Harness
from tests.said import said_in


async def test_clock_expiry_checks_when_checking_is_free() -> None:
    h = Harness()
    table = await h.seated(["a", "b"], action_clock=30, time_bank=0)
    await h.deal(table)
    # Heads-up: the button (small blind) acts first; he calls, the big blind may check.
    await h.do(table, h.to_act(table), "call")
    bb = h.to_act(table)
    deadline = table.deadline()
    assert deadline == h.time.now() + 30
    h.time.advance(29)
    assert await h.service.tick() == 0
    h.time.advance(1)
    assert await h.service.tick() == 1
    h.check(table)
    hand = table.state.hand
    assert hand is not None and hand.street_index == 1  # the big blind checked: flop
    seat = table.state.seat_of(bb)
    assert seat is not None and seat.timeouts == 1
    last = table.state.last_said
    assert last is not None and last.key == "notice.action.check"


async def test_clock_expiry_folds_when_facing_a_bet() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=20, time_bank=0)
    await h.deal(table)
    first = h.to_act(table)
    h.time.advance(20)
    assert await h.service.tick() == 1
    h.check(table)
    hand = table.state.hand
    info = table.state.current
    assert hand is not None and info is not None
    assert hand.folded[info.users.index(first)]
    ran_out = msg("table.story.time_ran_out", who=Name(first))
    assert any(said_in(n.msg, ran_out) for _, n in h.presenter.public_notices)


async def test_time_bank_extends_the_clock_and_is_used_up() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=20, time_bank=15)
    await h.deal(table)
    first = h.to_act(table)
    assert table.deadline() == h.time.now() + 35
    h.time.advance(25)  # 5 s into his bank
    assert await h.service.tick() == 0
    await h.do(table, first, "call")
    seat = table.state.seat_of(first)
    assert seat is not None and seat.bank == 10
    await h.play_passively(table)
    h.check(table)


async def test_sit_out_after_repeated_timeouts() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=10, time_bank=5, timeouts_to_sit_out=2)
    sleeper = None
    for _ in range(4):
        await h.deal(table)
        while table.state.hand is not None:
            user = h.to_act(table)
            if sleeper is None:
                sleeper = user
            if user == sleeper:
                h.time.advance(60)
                assert await h.service.tick() == 1
            else:
                hand = table.state.hand
                word = "check" if "check" in hand.legal().actions else "call"
                await h.do(table, user, word)
            h.check(table)
        seat = table.state.seat_of(sleeper)  # type: ignore[arg-type]
        assert seat is not None
        if seat.state == "sitting_out":
            break
    assert seat.state == "sitting_out"
    assert seat.bank == 0  # the bank went on the first timeout
    await h.deal(table)
    info = table.state.current
    assert info is not None and sleeper not in info.users


async def test_auto_deal_after_the_pause() -> None:
    h = Harness()
    table = await h.seated(["a", "b"], auto_deal=True, hand_pause=3)
    assert table.due_at() == h.time.now() + 3
    h.time.advance(3)
    assert await h.service.tick() == 1
    assert table.state.hand is not None
    await h.play_passively(table)
    h.time.advance(2.9)
    assert await h.service.tick() == 0
    h.time.advance(0.2)
    assert await h.service.tick() == 1
    assert table.state.hand_no == 2


async def test_clocks_survive_a_restart() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=20, time_bank=0)
    await h.deal(table)
    deadline = table.deadline()
    # A new service on the same log: the deadline is the same wall-clock moment.
    h2 = Harness(store=h.store)
    h2.time.set(h.time.now() + 5)
    await h2.service.recover()
    again = h2.service.table("t")
    assert again.deadline() == deadline
    h2.time.set(deadline)  # type: ignore[arg-type]
    assert await h2.service.tick() == 1
    h2.check(again)


async def test_duplicate_command_applies_once() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    user = h.to_act(table)
    first = await table.act(user, "call", key="interaction-1")
    assert first.ok and not first.duplicate
    turn = table.state.turn
    again = await table.act(user, "call", key="interaction-1")
    assert again.ok and again.duplicate
    assert again.msg == msg("table.already_done_at", turn=Number(first.turn))
    assert table.state.turn == turn
    h.check(table)
    # The same key after a restart is still recognised (it is in the log).
    h2 = Harness(store=h.store)
    await h2.service.recover()
    third = await h2.service.table("t").act(user, "call", key="interaction-1")
    assert third.duplicate


async def test_stale_command_is_refused_clearly() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    turn = table.state.turn
    user = h.to_act(table)
    assert (await table.act(user, "call", key=h.key(), turn=turn)).ok
    nxt = h.to_act(table)
    out = await table.act(nxt, "fold", key=h.key(), turn=turn)
    assert not out.ok and out.code == "stale"
    assert out.msg == msg("table.stale", turn=Number(turn), now=Number(table.state.turn))
    assert table.state.turn == turn + 1
    assert (await table.act(nxt, "call", key=h.key(), turn=turn + 1)).ok
    h.check(table)


async def test_different_tables_have_separate_clocks() -> None:
    h = Harness()
    t1 = await h.seated(["a", "b"], table_id="one", action_clock=10, time_bank=0)
    t2 = await h.seated(["c", "d"], table_id="two", action_clock=30, time_bank=0)
    await t1.deal(HOST, key=h.key())
    await t2.deal(HOST, key=h.key())
    h.time.advance(10)
    assert await h.service.tick() == 1
    assert t2.state.turn == t2.state.turn  # untouched
    h.check(t1)
    h.check(t2)


async def test_an_old_key_forgotten_in_memory_is_still_refused_by_the_store() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    user = h.to_act(table)
    assert (await table.act(user, "call", key="old-key")).ok
    turn = table.state.turn
    table.state.idem.clear()  # as if it had aged out of memory
    again = await table.act(h.to_act(table), "call", key="old-key")
    assert again.duplicate and table.state.turn == turn
    h.check(table)
    assert (await h.do(table, h.to_act(table), "call")).ok


async def test_r16_2_dealer_who_does_not_choose_gets_the_default_game() -> None:
    h = Harness()
    table = await h.seated(
        ["a", "b", "c"], dealers_choice=True, auto_deal=True, hand_pause=2, action_clock=20
    )
    h.time.advance(2)
    assert await h.service.tick() == 0  # the dealer has his clock to choose
    h.time.advance(20)
    assert await h.service.tick() == 1
    info = table.state.current
    assert info is not None and info.variant == table.settings.variant
    h.check(table)
