"""The table service and an earlier table of the same channel: a turn's button carries
its table (R-20.95, R-20.96), and an earlier table's hand can be asked for by naming
its table (R-20.97, R-20.98). In memory (``MemoryStore``, held to the real store's
contract by tests/test_store_port.py)."""

from __future__ import annotations

from bot.poker.messages import Number, msg
from bot.table.errors import TableError
from bot.table.recovery import ledger_error
from bot.table.table import Table
from bot.table.text_actions import ActionRequest
from tests.harness import HOST, Harness


async def _ok(h: Harness, table: Table) -> None:
    """R-2.5 in memory and in the ledger."""
    assert table.conservation_error() is None
    assert await ledger_error(h.store, table.state) is None


async def _fold_to_one(h: Harness, table: Table) -> None:
    assert (await h.deal(table)).ok
    while table.state.hand is not None:
        assert (await h.do(table, h.to_act(table), "fold")).ok


async def _two_tables(h: Harness) -> tuple[Table, dict[int, str]]:
    """A first table that dealt hands 1 and 2, closed; a second that dealt 1 and 2 too.
    The first table's exports (as ``a`` sees them: his cards tell the hands apart),
    taken while it was open."""
    table = await h.seated(["a", "b", "c"], auto_deal=False)
    await _fold_to_one(h, table)
    await _fold_to_one(h, table)
    kept = {n: await table.hand_history(n, "a") for n in (1, 2)}
    assert (await table.close(HOST, key=h.key())).ok
    again = await h.seated(["a", "b", "c"], auto_deal=False)
    assert again.state.incarnation == 2
    await _fold_to_one(h, again)
    await _fold_to_one(h, again)
    return again, kept


async def test_R_20_98_an_earlier_tables_hand_is_found_by_its_table() -> None:
    h = Harness()
    again, kept = await _two_tables(h)
    for n in (1, 2):
        assert await again.hand_history(n, "a", session=1) == kept[n]
        assert await again.hand_history(n, "a") != kept[n]  # this table's own hand n
        assert await again.hand_history(n, "a", session=2) == await again.hand_history(n, "a")
    story = await again.hand_told(1, session=1)
    assert story[0].key == "table.story.head" and story[0].get("hand") == Number(1)
    mine = await again.hand_told(1)
    second = msg("table.hand_label", hand=Number(1), session=Number(2))
    assert mine[0].get("hand") == second
    for session in (0, 3):
        try:
            await again.hand_history(1, session=session)
        except TableError as exc:
            assert exc.msg.key == "table.story.no_hand"
            asked = msg("table.hand_label", hand=Number(1), session=Number(session))
            assert exc.msg.get("hand") == (Number(1) if session <= 1 else asked)
        else:
            raise AssertionError(f"table {session} of a channel that had two was found")
    await _ok(h, again)


async def test_R_20_98_an_earlier_tables_export_shows_only_the_viewers_cards() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], auto_deal=False)
    assert (await h.deal(table)).ok
    users = {seat.name: seat.user_id for seat in table.snapshot(None).seats}
    own = {
        name: [c for s in table.snapshot(uid).seats if s.user_id == uid for c in s.cards]
        for name, uid in users.items()
    }
    while table.state.hand is not None:
        assert (await h.do(table, h.to_act(table), "fold")).ok
    assert (await table.close(HOST, key=h.key())).ok
    again = await h.seated(["a", "b", "c"], auto_deal=False)
    await _fold_to_one(h, again)
    text = await again.hand_history(1, users["a"], session=1)
    assert all(c in text for c in own["a"]), (own["a"], text)
    for other in ("b", "c"):
        assert not any(c in text for c in own[other]), (other, text)
    assert "????" in text
    await _ok(h, again)


async def test_R_20_95_a_turns_request_from_an_earlier_table_changes_nothing() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], auto_deal=False)
    await _fold_to_one(h, table)
    assert (await table.close(HOST, key=h.key())).ok
    again = await h.seated(["a", "b", "c"], auto_deal=False)
    assert (await h.deal(again)).ok
    actor = h.to_act(again)
    turn, seq = again.state.turn, again.state.seq
    fold = ActionRequest("fold")
    for session, key in ((1, "table.stale.earlier_table"), (0, "table.stale.table_unsaid")):
        out = await again.act(actor, fold, key=h.key(), turn=turn, session=session)
        assert not out.ok and out.msg is not None and out.msg.key == key
        out = await again.act(actor, fold, key=h.key(), prompt_turn=turn, session=session)
        assert not out.ok and out.msg is not None and out.msg.key == key
        assert (again.state.turn, again.state.seq) == (turn, seq)
    # This table's own button, and a typed action (no button: no session), act.
    assert (await again.act(actor, fold, key=h.key(), turn=turn, session=2)).ok
    assert (await again.act(h.to_act(again), "fold", key=h.key())).ok
    await _ok(h, again)
