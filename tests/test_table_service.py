"""Scenario tests through the table service (in-memory store, manual clock).

Every test asserts chip conservation (R-2.5) after every step through the harness.
"""

from __future__ import annotations

import pytest

from bot.poker.messages import Chips, Msg, Name, Number, Rule, msg
from bot.table.errors import SettingsError
from bot.table.settings import TableSettings
from tests.harness import HOST, Harness


@pytest.fixture
def h() -> Harness:
    return Harness(moderators={"mod"})


async def test_sit_buy_in_deal_showdown_top_up_stand(h: Harness) -> None:
    table = await h.seated(["alice", "bob", "carol"])
    assert (await h.deal(table)).ok
    assert table.state.hand is not None
    await h.play_passively(table)
    assert table.state.hand is None and table.state.hand_no == 1
    stacks = {s.user_id: s.stack for s in table.state.seats.values()}
    assert sum(stacks.values()) == 300
    # Top up between hands, within the maximum.
    alice = table.state.seat_of("alice")
    assert alice is not None
    before = alice.stack
    out = await table.top_up("alice", 20, key=h.key())
    assert out.ok and alice.stack == before + 20
    h.check(table)
    # Stand up: cash out the whole stack.
    bob = table.state.seat_of("bob")
    assert bob is not None
    stack = bob.stack
    out = await table.stand("bob", key=h.key())
    assert out.ok and out.msg == msg("table.stood", who=Name("bob"), amount=Chips(stack))
    assert table.state.seat_of("bob") is None
    h.check(table)
    assert table.state.cashed == stacks["bob"]


async def test_r2_2_buy_in_limits(h: Harness) -> None:
    table = await h.table(big_blind=2, small_blind=1)
    low, high = table.settings.buy_in_range
    assert (low, high) == (40, 200)
    out = await table.sit("a", "a", 39, key=h.key())
    assert not out.ok and out.msg == msg("table.sit.buy_in", low=Chips(40), high=Chips(200))
    out = await table.sit("a", "a", 201, key=h.key())
    assert not out.ok
    assert (await table.sit("a", "a", 200, key=h.key())).ok
    out = await table.top_up("a", 1, key=h.key())
    assert not out.ok and out.msg == msg("table.top_up.at_max", most=Chips(200))


async def test_r2_1_no_top_up_during_the_deal(h: Harness) -> None:
    table = await h.seated(["a", "b"])
    await h.deal(table)
    out = await table.top_up("a", 10, key=h.key())
    assert not out.ok and out.msg == msg("table.top_up.between_deals")
    h.check(table)


async def test_r2_3_standing_up_mid_hand_cashes_out_at_the_end(h: Harness) -> None:
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    out = await table.stand("a", key=h.key())
    assert out.ok and out.msg == msg("table.stands_after_hand", who=Name("a"))
    assert table.state.seat_of("a") is not None
    await h.play_passively(table)
    assert table.state.seat_of("a") is None
    h.check(table)


async def test_r2_3_return_within_minutes_brings_back_the_stack(h: Harness) -> None:
    table = await h.seated(["a", "b"], buy_in=150, return_minutes=30)
    assert (await table.stand("a", key=h.key())).ok
    out = await table.sit("a", "a", 100, key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "table.sit.come_back_with"
    assert out.msg.get("least") == Chips(150)
    h.time.advance(31 * 60)
    assert (await table.sit("a", "a", 100, key=h.key())).ok


async def test_seat_choice_and_full_table(h: Harness) -> None:
    table = await h.table(seats=2)
    assert (await table.sit("a", "a", 100, 2, key=h.key())).ok
    out = await table.sit("b", "b", 100, 2, key=h.key())
    assert not out.ok and out.msg == msg("table.sit.taken", seat=Number(2), last=Number(2))
    out = await table.sit("b", "b", 100, 0, key=h.key())
    assert not out.ok and out.msg == msg("table.sit.no_seat", seat=Number(0), last=Number(2))
    assert (await table.sit("b", "b", 100, key=h.key())).ok
    assert table.state.seat_of("b").number == 1  # type: ignore[union-attr]
    out = await table.sit("c", "c", 100, key=h.key())
    assert not out.ok and out.msg == msg("table.sit.full")


async def test_only_host_or_moderator_manages(h: Harness) -> None:
    table = await h.seated(["a", "b"])
    out = await table.deal("a", key=h.key())
    assert not out.ok and out.msg == msg("table.hosts_only")
    assert h.presenter.errors[-1][1] == "a"  # told to the actor only
    assert (await table.deal("mod", key=h.key())).ok


async def test_settings_change_between_hands_only(h: Harness) -> None:
    table = await h.seated(["a", "b"])
    assert (await table.change_settings(HOST, {"big_blind": 4}, key=h.key())).ok
    assert table.settings.big_blind == 4
    await h.deal(table)
    out = await table.change_settings(HOST, {"big_blind": 6}, key=h.key())
    assert not out.ok and out.msg == msg("table.settings.between_hands")
    out = await table.change_settings("a", {"big_blind": 6}, key=h.key())
    assert not out.ok


def test_settings_errors_are_messages() -> None:
    """R-2.6: a refused setting is a message of the settings catalogue, with the range."""
    with pytest.raises(SettingsError) as refused:
        TableSettings(seats=11)
    assert refused.value.msg.key == "settings.seats_range"
    with pytest.raises(SettingsError) as refused:
        TableSettings(small_blind=5, big_blind=2)
    assert refused.value.msg.key == "settings.small_blind_above"
    with pytest.raises(SettingsError) as refused:
        TableSettings(rotation=("holdum",))  # "hold'em" is an alias (games.py)
    assert refused.value.msg.key == "settings.unknown_game"
    with pytest.raises(SettingsError) as refused:
        TableSettings().changed({"blinds": 3})
    assert refused.value.msg.key == "settings.unknown"
    assert TableSettings(rotation=("holdem:fixed", "razz:fixed")).games()[1] == ("razz", "fixed")


async def test_r6_2_string_raise_is_a_call(h: Harness) -> None:
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    user = h.to_act(table)
    out = await h.do(table, user, "call... and raise 200")
    # The parser's remark, then what was done: both messages (a German player
    # reads both in German).
    assert out.ok and out.msg is not None and out.msg.key == "notice.space"
    remark = out.msg.get("head")
    assert isinstance(remark, Msg) and remark.key == "input.string_raise"
    assert remark.get("rule") == Rule("R-6.2")
    done = out.msg.get("tail")
    assert isinstance(done, Msg) and done.key == "notice.action.call"
    assert done.get("who") == Name(user)


async def test_refusals_are_private_and_change_nothing(h: Harness) -> None:
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    turn = table.state.turn
    actor = h.to_act(table)
    other = next(u for u in ("a", "b", "c") if u != actor)
    public_before = len(h.presenter.public_notices)
    out = await h.do(table, other, "check")
    assert not out.ok and out.msg == msg("table.not_your_turn", who=Name(actor))
    out = await h.do(table, actor, "bet 2.5")
    assert not out.ok and out.msg == msg("input.amount.fraction", text=Name("'2.5'"))
    out = await h.do(table, actor, "raise to 1")
    assert not out.ok
    assert table.state.turn == turn
    assert len(h.presenter.public_notices) == public_before
    assert {e[1] for e in h.presenter.errors} == {actor, other}


async def test_pot_and_half_pot_requests(h: Harness) -> None:
    table = await h.seated(["a", "b", "c"], limit="pot_limit")
    await h.deal(table)
    actor = h.to_act(table)
    hand = table.state.hand
    assert hand is not None
    legal = hand.legal()
    out = await h.do(table, actor, "pot")
    assert out.ok
    # Pot limit: "pot" is exactly the engine's maximum.
    assert max(hand.bets) == legal.max_to


async def test_r1_6_sit_out_and_come_back(h: Harness) -> None:
    table = await h.seated(["a", "b", "c"])
    # c is the big blind of the first deal, so the deal he sits out takes the small
    # blind that was his: he missed a blind and waits (R-1.9: otherwise he would not).
    table.state.first_button = 1
    await h.deal(table)
    await h.play_passively(table)
    assert (await table.sit_out("c", key=h.key())).ok
    await h.deal(table)
    info = table.state.current
    assert info is not None and "c" not in info.users  # sitting out: not dealt in
    await h.play_passively(table)
    out = await table.sit_in("c", key=h.key())
    assert out.ok and out.msg == msg("table.back_waiting", who=Name("c"))
    for _ in range(3):
        await h.deal(table)
        info = table.state.current
        assert info is not None
        if "c" in info.users:
            # R-1.7/R-1.6 "wait": he comes back in the big blind.
            assert info.bb_seat == table.state.seat_of("c").number  # type: ignore[union-attr]
            break
        await h.play_passively(table)
    else:
        pytest.fail("the returning player was never dealt in")


async def test_r1_7_newcomer_waits_for_the_big_blind(h: Harness) -> None:
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    await h.play_passively(table)
    assert (await table.sit("d", "d", 100, key=h.key())).ok
    for _ in range(4):
        await h.deal(table)
        info = table.state.current
        assert info is not None
        if "d" in info.users:
            assert info.bb_seat == table.state.seat_of("d").number  # type: ignore[union-attr]
            break
        await h.play_passively(table)
    else:
        pytest.fail("the newcomer was never dealt in")


async def test_r16_2_dealers_choice(h: Harness) -> None:
    table = await h.seated(["a", "b", "c"], dealers_choice=True)
    out = await h.deal(table)
    assert not out.ok and out.msg is not None and out.msg.key == "deal.must_choose"
    plan = table._plan()
    assert plan is not None
    dealer = table.state.seats[plan.button].user_id
    assert out.msg.get("who") == Name(dealer)
    other = next(u for u in "abc" if u != dealer)
    assert not (await table.choose(other, "omaha", key=h.key())).ok
    out = await table.choose(dealer, "omaha:pot_limit", key=h.key())
    assert out.ok, out.msg
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None and (info.variant, info.limit) == ("omaha", "pot_limit")
    hand = table.state.hand
    assert hand is not None and len(hand.hole[0]) == 4


async def test_r16_2_fixed_rotation(h: Harness) -> None:
    table = await h.seated(
        ["a", "b", "c"], rotation=("holdem:fixed", "omaha8:fixed"), small_bet=2, big_bet=4
    )
    games = []
    for _ in range(3):
        await h.deal(table)
        info = table.state.current
        assert info is not None
        games.append(info.variant)
        await h.play_passively(table)
    assert games == ["holdem", "omaha8", "holdem"]


async def test_hand_history_exports_phh(h: Harness) -> None:
    table = await h.seated(["a", "b"])
    await h.deal(table)
    await h.play_passively(table)
    text = await table.hand_history(1)
    assert 'variant = "NT"' in text and "finishing_stacks" in text


async def test_conservation_violation_halts_the_table(h: Harness) -> None:
    table = await h.seated(["a", "b"])
    table.state.seats[1].stack += 5  # a bug that creates chips
    out = await table.deal(HOST, key=h.key())  # checked before every deal too
    assert not out.ok and out.msg is not None and out.msg.key == "table.conservation_failed"
    assert out.msg.get("rule") == Rule("R-2.5") and out.msg.get("actual") == Chips(205)
    assert out.msg.get("expected") == Chips(200)
    assert table.state.halted and table.state.hand is None
    assert any(n.kind == "halted" for _, n in h.presenter.public_notices)
    out = await table.sit("c", "c", 100, key=h.key())
    assert not out.ok and out.code == "halted"


async def test_pause_and_close(h: Harness) -> None:
    table = await h.seated(["a", "b"])
    assert (await table.pause(HOST, key=h.key())).ok
    out = await h.deal(table)
    assert not out.ok and out.msg == msg("table.paused")
    assert (await table.pause(HOST, False, key=h.key())).ok
    assert (await table.close(HOST, key=h.key())).ok
    assert table.state.closed and not table.state.seats
    h.check(table)


async def test_a_channel_can_open_a_new_table_after_closing(h: Harness) -> None:
    table = await h.seated(["a", "b"])
    await h.deal(table)
    await h.play_passively(table)
    assert (await table.close(HOST, key=h.key())).ok
    assert await h.store.open_tables() == []
    out = await h.service.create("t", "newhost", TableSettings(big_blind=4), key=h.key())
    assert out.ok, out.msg
    again = h.service.table("t")
    assert again.state.host == "newhost" and not again.state.seats and again.state.hand_no == 0
    assert await h.store.open_tables() == ["t"]
    h.check(again)
    # A restart rebuilds only the new table, with the counters of the whole channel.
    h2 = Harness(store=h.store)
    await h2.service.recover()
    rebuilt = h2.service.table("t")
    assert rebuilt.state.host == "newhost" and rebuilt.settings.big_blind == 4
    h2.check(rebuilt)


async def test_a_seat_change_does_not_make_the_actor_stale(h: Harness) -> None:
    table = await h.seated(["a", "b", "c"], action_clock=30, time_bank=0)
    await h.deal(table)
    turn = table.state.turn
    deadline = table.deadline()
    actor = h.to_act(table)
    h.time.advance(10)
    assert (await table.sit("d", "d", 100, key=h.key())).ok
    assert table.state.turn == turn and table.deadline() == deadline
    assert (await table.act(actor, "call", key=h.key(), turn=turn)).ok


async def test_pause_stops_the_clock_and_resume_restarts_it(h: Harness) -> None:
    table = await h.seated(["a", "b"], action_clock=30, time_bank=0)
    await h.deal(table)
    assert (await table.pause(HOST, key=h.key())).ok
    h.time.advance(100)
    assert await h.service.tick() == 0
    assert (await table.pause(HOST, False, key=h.key())).ok
    assert table.deadline() == h.time.now() + 30


async def test_a_store_failure_changes_nothing_and_the_table_recovers(h: Harness) -> None:
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    actor = h.to_act(table)
    turn = table.state.turn
    real_append = h.store.append

    async def broken(*args: object, **kwargs: object) -> int:
        raise OSError("disk full")

    h.store.append = broken  # type: ignore[method-assign]
    out = await table.act(actor, "call", key=h.key())
    assert not out.ok and out.code == "store_error"
    assert table.state.turn == turn and h.to_act(table) == actor
    h.check(table)
    h.store.append = real_append  # type: ignore[method-assign]
    assert (await h.do(table, actor, "call")).ok


async def test_snapshot_shows_pots_stakes_turn_and_legal(h: Harness) -> None:
    table = await h.seated(["a", "b", "c"], action_clock=60, time_bank=10)
    await h.deal(table)
    actor = h.to_act(table)
    view = table.snapshot(actor)
    assert view.pot_total == 3 and view.pots == ()  # blinds are bets in front of seats
    assert sum(s.bet for s in view.seats) == 3
    assert view.stakes_data is not None
    assert (view.stakes_data.variant, view.stakes_data.structure) == ("holdem", "no_limit")
    assert view.stakes_data.blinds == (1, 2)
    assert view.legal is not None and "call" in view.legal.actions and view.legal.to_call == 2
    assert view.deadline == h.time.now() + 70
    assert view.to_act == table.state.seat_of(actor).number  # type: ignore[union-attr]
    await h.do(table, actor, "call")
    while (hand := table.state.hand) is not None and hand.street_index == 0:
        word = "check" if "check" in hand.legal().actions else "call"
        assert (await h.do(table, h.to_act(table), word)).ok
    after = table.snapshot(None)
    assert sum(p.amount for p in after.pots) == after.pot_total == 6
    spectator = table.snapshot(None)
    assert spectator.legal is None
    assert all(c == "??" for s in spectator.seats for c in s.cards)
