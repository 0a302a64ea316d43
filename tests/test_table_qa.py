"""Regression tests for what an exploratory QA pass found in the table service (each
failed before its fix). Every step checks R-2.5 through the harness."""

from __future__ import annotations

from bot.poker.messages import Chips, Msg, Name, Rule, msg
from tests.harness import Harness
from tests.said import said_in


async def test_r2_2_open_stakes_top_up_during_a_hand_respects_the_maximum() -> None:
    h = Harness()
    table = await h.seated(
        ["a", "b"], buy_in=200, limit="fixed", open_stakes=True, small_bet=2, big_bet=4
    )
    await h.deal(table)
    actor = h.to_act(table)
    out = await table.top_up(actor, 20, key=h.key())
    # Heads-up the small blind acts first: 199 behind after posting 1, so 1 fits.
    assert not out.ok
    assert out.msg == msg("table.top_up.above_max", most=Chips(200), room=Chips(1))
    hand = table.state.hand
    assert hand is not None and max(hand.stacks) <= 200
    h.check(table)


async def test_r1_6_back_after_stand_is_refused_and_back_mid_hand_keeps_playing() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    assert (await table.sit_out("c", key=h.key())).ok
    out = await table.sit_in("c", key=h.key())
    assert out.ok and out.msg == msg("table.keeps_playing", who=Name("c"))
    assert (await table.stand("c", key=h.key())).ok
    out = await table.sit_in("c", key=h.key())
    assert not out.ok and out.msg == msg("table.sit_in.leaving")
    out = await table.sit_out("c", key=h.key())
    assert not out.ok
    h.check(table)


async def test_r3_5_complete_is_refused_where_nothing_can_be_completed() -> None:
    """Hold'em has no bring-in: "complete" must not turn into a minimum raise."""
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    turn = table.state.turn
    out = await h.do(table, h.to_act(table), "complete")
    assert not out.ok and out.msg is not None and out.msg.key == "table.refusal"
    assert out.msg.get("reason") == msg("table.nothing_to_complete")
    assert table.state.turn == turn  # nothing changed
    h.check(table)


async def test_r3_5_razz_bring_in_refusal_names_the_highest_card() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], variant="razz", limit="fixed", small_bet=2, big_bet=4)
    await h.deal(table)
    out = await h.do(table, h.to_act(table), "check")
    assert not out.ok and out.msg is not None and out.msg.key == "table.refusal"
    reason = out.msg.get("reason")
    assert isinstance(reason, Msg) and reason.key == "refuse.bring_in_highest"
    assert reason.get("rule") == Rule("R-3.5")
    h.check(table)


async def test_r15_2_a_guts_call_is_final_and_the_refusal_says_so() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], variant="guts", guts_stake=2)
    await h.deal(table)
    assert (await h.do(table, "a", "in")).ok
    out = await h.do(table, "a", "out")
    assert not out.ok and out.msg == msg("refuse.guts_final", rule=Rule("R-15.2"))
    h.check(table)


def test_r15_2_guts_is_named_without_a_betting_structure() -> None:
    from bot.table.settings import TableSettings

    said = TableSettings.of(variant="guts", guts_stake=2).stakes_said()
    assert said == msg(
        "engine.comma", head=msg("game.guts"), tail=msg("table.stakes.stake", amount=Chips(2))
    )


async def test_r5_1_bet_or_raise_without_an_amount_in_fixed_and_no_limit() -> None:
    h = Harness()
    fixed = await h.seated(["a", "b", "c"], limit="fixed", small_bet=2, big_bet=4)
    await h.deal(fixed)
    out = await h.do(fixed, h.to_act(fixed), "raise")
    last = fixed.state.last_said
    assert out.ok and last is not None and last.key == "notice.action.raise"
    assert last.get("amount") == Chips(4)
    nl = await h.seated(["d", "e", "f"], table_id="nl")
    await h.deal(nl)
    turn = nl.state.turn
    out = await h.do(nl, h.to_act(nl), "raise")
    assert not out.ok and out.msg is not None and out.msg.key == "table.refusal"
    assert out.msg.get("reason") == msg("table.say_how_much")
    assert said_in(out.msg, msg("legal.range", low=Chips(4), high=Chips(100)))
    assert nl.state.turn == turn
    h.check(fixed)
    h.check(nl)


async def test_r16_2_between_deals_the_view_shows_the_next_game_of_the_rotation() -> None:
    h = Harness()
    table = await h.seated(
        ["a", "b", "c"], rotation=("holdem:fixed", "razz:fixed"), small_bet=2, big_bet=4
    )
    assert table.snapshot(None).variant == "holdem"
    await h.deal(table)
    await h.play_passively(table)
    assert table.state.hand is None
    assert table.snapshot(None).variant == "razz"
    h.check(table)


def test_r15_2_guts_cannot_be_in_a_rotation() -> None:
    import pytest

    from bot.table.errors import SettingsError
    from bot.table.settings import TableSettings

    with pytest.raises(SettingsError) as refused:
        TableSettings(rotation=("holdem", "guts"))
    assert refused.value.msg == msg("settings.guts_in_rotation")


async def test_r15_2_dealers_choice_stays_guts_while_a_guts_pot_waits() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], dealers_choice=True, guts_stake=2)
    plan = table._plan()
    assert plan is not None
    dealer = table.state.seats[plan.button].user_id
    assert (await table.choose(dealer, "guts", key=h.key())).ok
    await h.deal(table)
    for user in ("a", "b", "c"):  # everyone out: the pot of 6 carries over
        assert (await h.do(table, user, "out")).ok
    assert table.state.hand is None and table.state.carried == 6
    plan = table._plan()
    assert plan is not None
    dealer = table.state.seats[plan.button].user_id
    out = await table.choose(dealer, "holdem", key=h.key())
    assert not out.ok
    assert out.msg == msg("deal.guts_waiting", amount=Chips(6), rule=Rule("R-16.10"))
    assert (await table.choose(dealer, "guts", key=h.key())).ok
    h.check(table)


async def test_r3_4_straddle_left_of_the_big_blind_acts_last_with_the_option() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], straddle=True)
    plan = table._plan()
    assert plan is not None
    utg = table.state.seats[plan.order[2]].user_id  # left of the big blind (position 1)
    other = table.state.seats[plan.order[3]].user_id
    out = await table.straddle(other, key=h.key())
    assert not out.ok and out.msg == msg("table.straddle.left_of_big_blind", who=Name(utg))
    out = await table.straddle(utg, key=h.key())
    assert out.ok and out.msg == msg("table.straddled", who=Name(utg), amount=Chips(4))
    await h.deal(table)
    hand = table.state.hand
    assert hand is not None
    assert hand.bets[2] == 4 and hand.current_bet == 4
    assert hand.to_act == 3  # the round starts left of the straddle
    for _ in range(3):  # everyone calls round to the straddle
        assert (await h.do(table, h.to_act(table), "call")).ok
    assert hand.to_act == 2 and "raise" in hand.legal().actions  # his option
    h.check(table)


async def test_r3_4_straddle_is_an_option_and_only_between_deals() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    assert (await table.straddle("a", key=h.key())).msg == msg("table.straddle.off")
    h.check(table)
