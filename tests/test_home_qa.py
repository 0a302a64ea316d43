"""Found by playing a home-game night as players would (at the terminal and through the
fake Discord): each test is a step a player took that went wrong, named after the rule
it holds the table to. Every one checks R-2.5 where chips could move."""

from __future__ import annotations

from bot.table.recovery import ledger_error
from bot.table.table import Table
from tests.harness import HOST, Harness
from tests.said import keys_in


async def ok(h: Harness, table: Table) -> None:
    """R-2.5 in memory and in the ledger."""
    assert table.conservation_error() is None
    assert await ledger_error(h.store, table.state) is None


async def test_r20_51_a_kicked_player_cannot_act_when_his_turn_comes() -> None:
    """Kicked out of turn, the player typed "raise to 50" the moment his turn came, before
    the clock's tick: the raise was taken. His turn is the clock's: only a fold of his own
    is taken, anything else is refused and changes nothing."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"], action_clock=30, time_bank=0)
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    first = h.to_act(table)
    victim = next(u for u in info.users if u != first)
    assert (await table.host_tool(HOST, "kick", victim, key=h.key())).ok
    while h.to_act(table) != victim:
        hand = table.state.hand
        assert hand is not None
        word = "check" if "check" in hand.legal().actions else "call"
        assert (await h.do(table, h.to_act(table), word)).ok
    turn = table.state.turn
    stacks = {s.user_id: s.stack for s in table.state.seats.values()}
    out = await h.do(table, victim, "raise to 50")
    assert not out.ok
    assert "host.kicked.no_action" in keys_in(out.msg)
    assert table.state.turn == turn, "nothing changed"
    assert {s.user_id: s.stack for s in table.state.seats.values()} == stacks
    # His own fold is what the clock would do: taken.
    assert (await h.do(table, victim, "fold")).ok
    hand = table.state.current.ensure_hand() if table.state.current else None
    pos = info.users.index(victim)
    assert hand is None or hand.folded[pos]
    await h.play_passively(table)
    assert table.state.seat_of(victim) is None
    await ok(h, table)
