"""Guts and two to win through the table service (§15): calls by private prompt, the
clock, the pot, markers, legs and reserve carried between deals, chips conserved."""

from __future__ import annotations

from bot.poker.potsystems import GutsState, TwoToWinState
from bot.poker.record import pot_state_from_dict
from tests.harness import Harness
from tests.said import told


async def test_r15_2_guts_calls_are_private_and_the_pot_carries_between_deals() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], buy_in=200, variant="guts", guts_stake=5)
    assert (await h.deal(table)).ok
    hand = table.state.hand
    info = table.state.current
    assert hand is not None and info is not None and hand.phase == "guts"
    asked = {u for _, u, n in h.presenter.private_notices if n.kind == "guts"}
    assert asked == set(info.users)  # everyone is asked privately
    public_before = len(h.presenter.public_notices)
    first, second, third = (info.users[p] for p in hand.guts_pending())
    assert (await h.do(table, first, "in")).ok
    said = [told(n) for _, n in h.presenter.public_notices[public_before:]]
    assert all(" in" not in t and " out" not in t for t in said), said  # only a count
    assert not (await h.do(table, first, "out")).ok  # a call is final
    assert (await h.do(table, second, "out")).ok
    assert (await h.do(table, third, "in")).ok
    assert table.state.hand is None  # settled
    state = pot_state_from_dict(table.state.pot_state or {})
    assert isinstance(state, GutsState)
    # One loser matched the pot of 15: the next pot is 15 (or, if the two stayers tied,
    # they split it and nobody lost: 0), and chips add up.
    assert state.pot in (15, 0) and table.state.carried == state.pot
    h.check(table)
    # The next deal plays for that pot with no new stake, or stakes again if
    # the pot was emptied.
    assert (await h.deal(table)).ok
    nxt = table.state.hand
    assert nxt is not None
    assert nxt.middle == (state.pot if state.pot else 3 * 5)
    assert sum(nxt.stacks) == sum(nxt.starting_stacks) - (0 if state.pot else 15)
    h.check(table)


async def test_r15_2_guts_clock_puts_a_silent_player_out() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], buy_in=200, variant="guts", guts_stake=5)
    assert (await h.deal(table)).ok
    hand = table.state.hand
    info = table.state.current
    assert hand is not None and info is not None
    for pos in hand.guts_pending()[:2]:
        assert (await h.do(table, info.users[pos], "in")).ok
    due = table.deadline()
    assert due is not None
    h.time.advance(due - h.time.now() + 1)
    assert await table.on_clock()
    assert table.state.hand is None
    h.check(table)


async def test_r15_1_two_to_win_markers_carry_to_the_next_deal() -> None:
    h = Harness()
    table = await h.seated(
        ["a", "b"], buy_in=200, limit="fixed", small_bet=2, big_bet=4, pot_system="two_to_win"
    )
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    state = pot_state_from_dict(table.state.pot_state or {})
    assert isinstance(state, TwoToWinState)
    # A showdown win (or a tie) gives markers; the pot stays in the middle.
    assert state.markers and state.pot == table.state.carried > 0
    h.check(table)
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    after = pot_state_from_dict(table.state.pot_state or {})
    assert isinstance(after, TwoToWinState)
    # Either a marker holder won again and collected, or both now hold markers.
    assert (after.pot == 0 and not after.markers) or len(after.markers) == 2
    assert after.pot == table.state.carried
    h.check(table)


async def test_r2_4_open_stakes_top_up_during_the_hand_is_logged_and_conserved() -> None:
    h = Harness()
    table = await h.seated(
        ["a", "b", "c"], buy_in=100, limit="fixed", small_bet=2, big_bet=4, open_stakes=True
    )
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    user = info.users[0]
    out = await table.top_up(user, 50, key=h.key())
    assert out.ok, out.msg
    h.check(table)  # bought rose by 50 and the chips are on the table
    await h.play_passively(table)
    h.check(table)
    closed = await h.seated(["d", "e"], buy_in=100, table_id="u", limit="fixed")
    assert (await h.deal(closed)).ok
    d_user = closed.state.current.users[0]  # type: ignore[union-attr]
    refused = await closed.top_up(d_user, 50, key=h.key())
    assert not refused.ok and refused.msg.key == "table.top_up.between_deals"


async def test_r14_2_time_collection_once_per_period_between_deals() -> None:
    h = Harness()
    table = await h.seated(
        ["a", "b", "c"], buy_in=100, small_blind=2, big_blind=4, time_charge=3, time_period=600
    )
    assert (await h.deal(table)).ok  # the first deal collects
    assert table.state.rake_total == 9
    await h.play_passively(table)
    assert (await h.deal(table)).ok  # within the period: nothing more
    assert table.state.rake_total == 9
    await h.play_passively(table)
    h.time.advance(601)
    assert (await h.deal(table)).ok
    assert table.state.rake_total == 18
    h.check(table)  # the charge is rake in the ledger: chips are conserved


async def test_r2_5_guts_with_a_table_ante_carries_every_chip() -> None:
    """R-2.5 with R-15.2: a Guts table with an ante; nobody stays in three deals running.
    The antes are in the pot that carries (the next deal plays for them too), and not a
    chip goes missing from one deal to the next."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], buy_in=200, variant="guts", guts_stake=5, ante=1)
    for deal in range(1, 4):
        assert (await h.deal(table)).ok
        hand, info = table.state.hand, table.state.current
        assert hand is not None and info is not None
        assert hand.middle == 18 + 3 * (deal - 1)  # the stakes once, then antes only
        for pos in hand.guts_pending():
            assert (await h.do(table, info.users[pos], "out")).ok
        assert table.state.carried == hand.middle
        h.check(table)
