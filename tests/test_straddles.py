"""Straddles beyond the one left of the big blind (R-20.57, R-3.4, R-3.3): the button's
(Mississippi) straddle and re-straddles, through the table service: who may ask, the
posting order, the amounts, who starts the first round and who has the option. R-2.5 is
checked after every step by the harness."""

from __future__ import annotations

from bot.poker.events import ForcedBet
from bot.poker.messages import Chips, Count, Msg, Name, msg
from bot.table.table import Table
from tests.harness import Harness
from tests.said import said_in

SEED = "w24"


def seat_user(table: Table, position: int) -> str:
    plan = table._plan()
    assert plan is not None
    return table.state.seats[plan.order[position]].user_id


def straddled(table: Table, user: str, amount: int) -> Msg:
    name = next(s.name for s in table.state.seats.values() if s.user_id == user)
    return msg("table.straddled", who=Name(name), amount=Chips(amount))


def forced(table: Table) -> list[tuple[int, str, int]]:
    info = table.state.current
    assert info is not None and info.events is not None
    return [(e.player, e.kind, e.amount) for e in info.events if isinstance(e, ForcedBet)]


async def test_r20_57_re_straddles_post_in_order_doubling_and_the_last_acts_last() -> None:
    """R-20.57: UTG straddles 4, the next re-straddles 8 and the next 16 (three allowed);
    a fourth is refused; the round starts left of the largest, which has the option."""
    h = Harness()
    names = ["a", "b", "c", "d", "e", "f"]
    table = await h.seated(names, straddle=True, straddles=3)
    utg, second, third, fourth = (seat_user(table, p) for p in (2, 3, 4, 5))
    refused = await table.straddle(second, key=h.key())
    assert not refused.ok  # the first straddle is UTG's
    out = await table.straddle(utg, key=h.key())
    assert out.ok and said_in(out.msg, straddled(table, utg, 4))
    refused = await table.straddle(third, key=h.key())
    assert not refused.ok and refused.msg == msg("straddle.next", who=Name(second))
    assert said_in((await table.straddle(second, key=h.key())).msg, straddled(table, second, 8))
    assert said_in((await table.straddle(third, key=h.key())).msg, straddled(table, third, 16))
    refused = await table.straddle(fourth, key=h.key())
    assert not refused.ok and refused.msg == msg("straddle.most", most=Count(3))
    await h.deal(table)
    hand = table.state.hand
    assert hand is not None
    assert forced(table) == [
        (0, "small_blind", 1),
        (1, "big_blind", 2),
        (2, "straddle", 4),
        (3, "straddle", 8),
        (4, "straddle", 16),
    ]
    assert hand.current_bet == 16
    assert hand.to_act == 5  # left of the largest straddle
    order = []
    for _ in range(5):  # everyone calls round to the last straddle
        order.append(hand.to_act)
        assert (await h.do(table, h.to_act(table), "call")).ok
    assert order == [5, 0, 1, 2, 3]
    assert hand.to_act == 4 and "raise" in hand.legal().actions  # his option
    assert (await h.do(table, h.to_act(table), "check")).ok
    await h.play_passively(table)
    assert table.state.straddler is None and table.state.hosting.restraddles == []
    assert "blinds_or_straddles = [1, 2, 4, 8, 16]" in await table.hand_history(1)


async def test_r20_57_a_mississippi_straddle_starts_with_the_small_blind() -> None:
    """R-20.57: the button straddles 4; the first round starts with the small blind and
    the button acts last with the option; no re-straddle follows it."""
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], straddle=True, straddle_button=True, straddles=2)
    button, utg = seat_user(table, 3), seat_user(table, 2)
    out = await table.straddle(button, key=h.key())
    assert out.ok and said_in(out.msg, straddled(table, button, 4))
    refused = await table.straddle(utg, key=h.key())
    assert not refused.ok and refused.msg.key == "straddle.after_button"
    await h.deal(table)
    hand = table.state.hand
    assert hand is not None
    assert forced(table) == [(0, "small_blind", 1), (1, "big_blind", 2), (3, "straddle", 4)]
    assert hand.to_act == 0  # the small blind opens (R-3.3: left of the largest)
    order = []
    for _ in range(3):
        order.append(hand.to_act)
        assert (await h.do(table, h.to_act(table), "call")).ok
    assert order == [0, 1, 2]
    assert hand.to_act == 3 and "raise" in hand.legal().actions  # the button's option
    await h.play_passively(table)
    # PHH (docs/phh.md): the button's straddle is the last player's forced bet.
    assert "blinds_or_straddles = [1, 2, 0, 4]" in await table.hand_history(1)


async def test_r20_57_the_button_may_not_straddle_unless_the_table_allows_it() -> None:
    """R-20.57: without ``straddle_button`` the button's straddle is refused (R-3.4's
    player left of the big blind is named); ``straddles`` 1 allows no re-straddle."""
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], straddle=True)
    button, utg = seat_user(table, 3), seat_user(table, 2)
    refused = await table.straddle(button, key=h.key())
    assert not refused.ok and refused.msg.key == "table.straddle.left_of_big_blind"
    assert (await table.straddle(utg, key=h.key())).ok
    refused = await table.straddle(button, key=h.key())
    assert not refused.ok and refused.msg == msg("straddle.most", most=Count(1))
    refused = await table.change_settings("host", {"straddles": 9})
    assert not refused.ok  # 1 to 8
    await h.deal(table)
    assert forced(table)[-1] == (2, "straddle", 4)
    await h.play_passively(table)


async def _busted_and_rebought(h: Harness) -> Table:
    """Four players; d busts (his stack taken to the bank, R-20.53) after one hand, the
    big blind passes his seat, and he rebuys: he missed it, so he waits (R-1.9)."""
    h.service.seed = SEED  # the first button and the decks: the same story every run
    table = await h.seated(["a", "b", "c", "d"])
    await h.deal(table)
    await h.play_passively(table)
    seat = table.state.seat_of("d")
    assert seat is not None
    assert (await table.host_tool("host", "adjust", "d", amount=-seat.stack, reason="bust")).ok
    for _ in range(2):
        await h.deal(table)
        await h.play_passively(table)
    assert (await table.top_up("d", 100, key=h.key())).ok
    seat = table.state.seat_of("d")
    assert seat is not None and seat.state == "waiting" and seat.missed
    plan = table._plan()
    assert plan is not None and plan.bb_seat != seat.number
    return table


async def test_r20_58_a_player_who_rebuys_after_busting_may_post_instead_of_waiting() -> None:
    """R-20.58 / R-1.7: the rebuyer posts a big blind and is dealt in at the next deal,
    his live blind posted out of position; asking twice is refused."""
    h = Harness()
    table = await _busted_and_rebought(h)
    out = await table.sit_in("d", post=True, key=h.key())
    assert out.ok and said_in(out.msg, msg("table.back_posting", who=Name("d"), amount=Chips(2)))
    assert not (await table.sit_in("d", post=True)).ok  # already posting
    await h.deal(table)
    info = table.state.current
    assert info is not None and "d" in info.users
    assert info.bb_seat != table.state.seat_of("d").number  # type: ignore[union-attr]
    assert (info.users.index("d"), "blind", 2) in forced(table)
    await h.play_passively(table)
    assert table.state.seat_of("d").owes == 0  # type: ignore[union-attr]  # paid


async def test_r20_58_a_rebuyer_who_does_not_post_waits_for_the_big_blind() -> None:
    """R-1.9 / R-20.58: without posting, the rebuyer is not dealt in at that deal; a
    seated player who is not waiting has nothing to post."""
    h = Harness()
    table = await _busted_and_rebought(h)
    refused = await table.sit_in("a", post=True)
    assert not refused.ok
    await h.deal(table)
    info = table.state.current
    assert info is not None and "d" not in info.users
    await h.play_passively(table)


async def test_r20_58_under_the_post_option_a_rebuyer_posts_what_he_missed() -> None:
    """R-1.6 / R-20.58: at a table whose missed blinds are posted, the busted player who
    rebuys after the blinds passed him owes them and is dealt in at once, posting the big
    blind live and the small dead."""
    h = Harness()
    h.service.seed = SEED
    table = await h.seated(["a", "b", "c", "d"], missed_blinds="post")
    await h.deal(table)
    await h.play_passively(table)
    seat = table.state.seat_of("d")
    assert seat is not None
    assert (await table.host_tool("host", "adjust", "d", amount=-seat.stack, reason="bust")).ok
    for _ in range(2):
        await h.deal(table)
        await h.play_passively(table)
    assert (await table.top_up("d", 100, key=h.key())).ok
    seat = table.state.seat_of("d")
    assert seat is not None and seat.state == "waiting" and seat.owes == 3
    await h.deal(table)
    info = table.state.current
    assert info is not None and "d" in info.users
    pos = info.users.index("d")
    posts = forced(table)
    assert (pos, "dead_blind", 1) in posts and (pos, "blind", 2) in posts
    await h.play_passively(table)
