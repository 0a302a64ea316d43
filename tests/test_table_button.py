"""Button and blind movement (R-1.3, R-1.4, R-1.5, R-1.7), pure and through the service."""

from __future__ import annotations

import pytest

from bot.poker.messages import Chips, Name, msg
from bot.table.button import plan_deal
from tests.harness import HOST, Harness


def plan(rule: str, active: list[int], prev: tuple[int, int, int] | None, waiting=()):  # type: ignore[no-untyped-def]
    pb, ps, pbb = prev if prev else (None, None, None)
    return plan_deal(
        rule=rule,
        active=active,
        waiting=list(waiting),
        prev_button=pb,
        prev_sb=ps,
        prev_bb=pbb,
        first_button=1,
    )


@pytest.mark.parametrize("rule", ["simplified", "moving", "dead"])
def test_r1_3_button_moves_one_seat_left_each_deal(rule: str) -> None:
    p = plan(rule, [1, 2, 3, 4], (1, 2, 3))
    assert p is not None
    assert (p.button, p.sb_seat, p.bb_seat) == (2, 3, 4)
    assert p.order == (3, 4, 1, 2)
    assert p.blind_positions == (0, 1)


def test_r1_3_first_button_is_drawn_once() -> None:
    p = plan("simplified", [2, 5, 7], None)
    assert p is not None and p.button == 2 and (p.sb_seat, p.bb_seat) == (5, 7)


def test_r1_4_simplified_when_the_big_blind_leaves() -> None:
    # Last deal: button 1, SB 2, BB 3. Seat 3 leaves.
    p = plan("simplified", [1, 2, 4, 5], (1, 2, 3))
    assert p is not None
    assert (p.button, p.sb_seat, p.bb_seat) == (2, 4, 5)


def test_r1_4_dead_button_dead_small_blind() -> None:
    # Last deal: button 1, SB 2, BB 3. Seat 3 (the big blind) leaves: the small blind is
    # dead (its seat is empty), the button goes to seat 2, the big blind to seat 4.
    p = plan("dead", [1, 2, 4, 5], (1, 2, 3))
    assert p is not None
    assert p.button == 2 and p.bb_seat == 4 and p.sb_seat is None
    assert p.blind_positions == (None, 0)


def test_r1_4_dead_button_on_an_empty_seat() -> None:
    # Last deal: button 1, SB 2, BB 3. Seat 2 (the small blind) leaves: the button sits
    # on the empty seat 2, seat 3 posts the small blind, seat 4 the big blind.
    p = plan("dead", [1, 3, 4, 5], (1, 2, 3))
    assert p is not None
    assert p.button == 2 and (p.sb_seat, p.bb_seat) == (3, 4)
    assert p.order == (3, 4, 5, 1)


def test_r1_5_heads_up_the_button_posts_the_small_blind() -> None:
    p = plan("simplified", [3, 7], (3, 7, 3))
    assert p is not None
    assert p.button == p.sb_seat == 3 and p.bb_seat == 7
    assert p.order == (7, 3)  # PHH: the button is the last position


@pytest.mark.parametrize("rule", ["simplified", "moving", "dead"])
def test_r1_5_shrinking_to_heads_up_the_big_blind_keeps_moving(rule: str) -> None:
    # Last deal: button 1, SB 2, BB 3; seat 1 leaves. The big blind moves on to seat 2
    # (it never stays on seat 3), and seat 3 gets the button and the small blind.
    p = plan(rule, [2, 3], (1, 2, 3))
    assert p is not None
    assert (p.button, p.sb_seat, p.bb_seat) == (3, 3, 2)


def test_r1_7_waiting_player_is_dealt_in_on_his_big_blind() -> None:
    p = plan("simplified", [1, 2, 3], (3, 1, 2), waiting=[5])
    assert p is not None and 5 not in p.order  # button 1, SB 2, BB 3
    p = plan("simplified", [1, 2, 3], (1, 2, 3), waiting=[5])
    assert p is not None and p.bb_seat == 5 and 5 in p.order


async def _deal_and_finish(h: Harness, table) -> tuple[int, int | None, int | None]:  # type: ignore[no-untyped-def]
    out = await h.deal(table)
    assert out.ok, out.msg
    info = table.state.current
    result = (info.button, info.sb_seat, info.bb_seat)
    await h.play_passively(table)
    return result


@pytest.mark.parametrize("rule", ["simplified", "moving", "dead"])
async def test_r1_4_blinds_follow_the_rule_through_the_service(rule: str) -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], button_rule=rule)
    b1, s1, bb1 = await _deal_and_finish(h, table)
    # The big blind of the first deal stands up.
    bb_user = table.state.seats[bb1].user_id
    assert (await table.stand(bb_user, key=h.key())).ok
    b2, s2, bb2 = await _deal_and_finish(h, table)
    assert bb2 is not None and bb2 != bb1
    if rule == "dead":
        assert s2 is None  # the small blind is dead on the empty seat
        assert b2 == s1
    else:
        assert b2 != b1 and s2 is not None
    h.check(table)


async def test_r1_4_moving_button_skipped_player_owes_the_big_blind() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], button_rule="moving")
    _, s1, bb1 = await _deal_and_finish(h, table)
    # The small blind leaves: the button jumps onto the last big blind, and the player
    # who was due the big blind now gets the small blind: he skipped it and owes it.
    assert s1 is not None and bb1 is not None
    assert (await table.stand(table.state.seats[s1].user_id, key=h.key())).ok
    b2, s2, _ = await _deal_and_finish(h, table)
    assert b2 == bb1 and s2 is not None
    assert table.state.seats[s2].owes == table.settings.big_blind
    # He posts it (live, like a big blind: R-1.6 "live big") on his next deal out of the
    # blinds; one blind per player per hand.
    for _ in range(3):
        await _deal_and_finish(h, table)
        if table.state.seats[s2].owes == 0:
            break
    assert table.state.seats[s2].owes == 0
    posted = [
        info.start.rules.blinds_or_straddles[info.order.index(s2)]
        for info in table.state.recent.values()
        if info.hand_no > 2
        and s2 in info.order
        and s2 not in (info.sb_seat, info.bb_seat)
        and info.order.index(s2) < len(info.start.rules.blinds_or_straddles)
    ]
    assert table.settings.big_blind in posted
    h.check(table)


async def test_r1_4_busted_player_leaves_the_rotation() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    # Everyone all in until someone busts (the deck is shuffled for real, and a split
    # pot busts nobody: deal again, a bounded number of times).
    busted: list = []
    for _ in range(20):
        await h.deal(table)
        while table.state.hand is not None:
            hand = table.state.hand
            user = h.to_act(table)
            word = "all in" if hand.legal().max_to is not None else "call"
            assert (await h.do(table, user, word)).ok
        busted = [s for s in table.state.seats.values() if s.stack == 0]
        if busted:
            break
    assert busted and all(s.state == "sitting_out" for s in busted)
    if len(busted) < 2:
        await h.deal(table)
        info = table.state.current
        assert info is not None
        assert all(s.number not in info.order for s in busted)
    h.check(table)


async def test_r1_5_heads_up_transition_through_the_service() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    _, _, bb1 = await _deal_and_finish(h, table)
    leaver = next(s for s in table.state.seats.values() if s.number != bb1)
    assert (await table.stand(leaver.user_id, key=h.key())).ok
    b2, s2, bb2 = await _deal_and_finish(h, table)
    assert b2 == s2 and bb2 != b2 and bb2 != bb1  # the big blind moved on
    b3, _, bb3 = await _deal_and_finish(h, table)
    assert (b3, bb3) == (bb2, b2)  # heads-up: they alternate
    hand = table.state.recent[3]
    # The engine made the button post the small blind.
    assert hand.start.rules.blinds_or_straddles == (1, 2)
    assert HOST


async def test_r1_6_missed_blinds_are_posted_on_return_with_the_option() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], missed_blinds="post")
    # Pinned so that he comes back behind the big blind: between the button and the
    # small blind nobody is dealt in (tests/test_floor_table.py).
    table.state.first_button = 2
    await _deal_and_finish(h, table)
    assert (await table.sit_out("d", key=h.key())).ok
    seat = table.state.seat_of("d")
    assert seat is not None
    for _ in range(4):  # the big blind goes round past him
        await _deal_and_finish(h, table)
    owed = seat.owes
    assert owed == table.settings.small_blind + table.settings.big_blind
    out = await table.sit_in("d", key=h.key())
    assert out.ok and out.msg == msg("table.back_posting", who=Name("d"), amount=Chips(owed))
    await h.deal(table)
    info = table.state.current
    assert info is not None and "d" in info.users  # dealt in at once, not waiting
    pos = info.users.index("d")
    if seat.number not in (info.sb_seat, info.bb_seat):
        # R-1.6 "live big, dead small": the missed big blind is his live bet, the missed
        # small blind is dead money. (The first button is random, so in some runs he
        # comes back in a blind and owes nothing extra.)
        rules = info.start.rules
        assert rules.dead_posts[pos] == table.settings.small_blind
        assert rules.blinds_or_straddles[pos] == table.settings.big_blind
        assert seat.owes == 0
    h.check(table)


async def test_r1_7_post_to_enter_option_deals_a_newcomer_in_at_once() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], post_to_enter=True)
    # Pinned: the newcomer's seat 4 is then behind the big blind on his first deal (not
    # between the button and the small blind, where nobody is dealt in).
    table.state.first_button = 3
    await _deal_and_finish(h, table)
    assert (await table.sit("d", "d", 100, key=h.key())).ok
    await h.deal(table)
    info = table.state.current
    assert info is not None and "d" in info.users
    h.check(table)
