"""Session results and settlement (R-2.5 accounting, /ledger and /settle)."""

from __future__ import annotations

from bot.table.ports import LedgerRow
from bot.table.session import Payment, session_results, settle
from tests.harness import Harness


def test_results_and_settlement_balance() -> None:
    rows = [
        LedgerRow("a", "buy_in", 100),
        LedgerRow("b", "buy_in", 100),
        LedgerRow("c", "buy_in", 100),
        LedgerRow("c", "top_up", 50),
        LedgerRow("b", "cash_out", 20),
        LedgerRow("house", "rake", 5),
    ]
    results = session_results(rows, {"a": 225, "c": 100})
    nets = {r.user_id: r.net for r in results}
    assert nets == {"a": 125, "b": -80, "c": -50}
    assert settle(results) == [Payment("b", "a", 80), Payment("c", "a", 45)]


async def test_store_ledger_rows_feed_the_results() -> None:
    h = Harness()
    table = await h.seated(["a", "b"], buy_in=100)
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    rows = await h.store.ledger_rows("t")
    stacks = {s.user_id: s.stack for s in table.state.seats.values()}
    results = session_results(rows, stacks)
    assert sum(r.net for r in results) == -table.state.rake_total


async def test_stats_fold_hands_won_and_net_from_the_log() -> None:
    from bot.table.session import hand_stats

    h = Harness()
    table = await h.seated(["a", "b", "c"], buy_in=100)
    for _ in range(3):
        assert (await h.deal(table)).ok
        await h.play_passively(table)
    events = [(e.kind, e.payload) for e in await h.store.events("t")]
    stats = {s.user_id: s for s in hand_stats(events)}
    assert all(s.hands == 3 for s in stats.values())
    assert sum(s.net for s in stats.values()) == -table.state.rake_total
    stacks = {s.user_id: s.stack for s in table.state.seats.values()}
    assert all(stats[u].net == stacks[u] - 100 for u in stacks)
