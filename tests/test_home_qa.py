"""Found by playing a home-game night as players would (at the terminal and through the
fake Discord): each test is a step a player took that went wrong, named after the rule
it holds the table to. Every one checks R-2.5 where chips could move."""

from __future__ import annotations

import io
from pathlib import Path

from bot.local.terminal import TABLE_ID, run
from bot.table.ports import open_store
from bot.table.recovery import ledger_error, load
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


async def _terminal(db: Path, lines: list[str], *args: str) -> str:
    out = io.StringIO()
    code = await run(["--db", str(db), *args], inp=io.StringIO("\n".join(lines) + "\n"), out=out)
    assert code == 0
    return out.getvalue()


async def test_r20_50_a_host_command_under_a_players_name_says_how_to_type_it(
    tmp_path: Path,
) -> None:
    """A player typed "alice: kick bob" and was told the actions he may take in a hand.
    At the terminal the host's commands are typed with no name in front: he is told so,
    with the very line to type, and nothing changes."""
    db = tmp_path / "q.sqlite3"
    lines = ["alice: kick bob", "bob: adjust alice +50 gift", "alice: seat bob 5", "table"]
    text = await _terminal(db, lines, "alice", "bob", "--buy-in", "100")
    assert "alice: `kick bob` is a table command: type it alone, without a name." in text
    assert "bob: `adjust alice +50 gift` is a table command" in text
    assert "alice: `seat bob 5` is a table command" in text
    assert "I did not understand" not in text
    store = await open_store(str(db))
    try:
        state = await load(store, TABLE_ID)
        bob = state.seat_of("bob")
        assert bob is not None and bob.number == 2
        assert [s.stack for s in state.seats.values()] == [100, 100]
        assert not state.hosting.cohosts and state.conservation_error() is None
    finally:
        await store.close()


async def test_r20_55_a_player_joins_the_waiting_list_under_his_own_name(
    tmp_path: Path,
) -> None:
    """ "carol: wait" at a full table was answered "`wait` is a table command: type it
    alone", and "wait" alone is not a command. A player asks for the list himself."""
    db = tmp_path / "w.sqlite3"
    lines = ["set seats=2", "carol: wait", "dave: wait", "carol: wait off", "dave: wait now"]
    text = await _terminal(db, lines, "alice", "bob", "--buy-in", "100")
    assert "carol joined the waiting list (number 1)." in text
    assert "dave joined the waiting list (number 2)." in text
    assert "carol left the waiting list." in text
    assert "is a table command" not in text
    assert text.count("Host commands: kick NAME") == 1  # "dave: wait now" does not read
    store = await open_store(str(db))
    try:
        state = await load(store, TABLE_ID)
        assert [u for u, _ in state.hosting.waiting] == ["dave"]
    finally:
        await store.close()
