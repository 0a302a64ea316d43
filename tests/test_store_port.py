"""The two implementations of the table service's store port agree (R-2.5 accounting):
the in-memory store of the unit tests and the SQLite store behind ``open_store`` keep
the same events (seqs counted per table), the same ledger rows and totals, and refuse
the same repeated key."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.table.ports import DuplicateKey, LedgerRow, MemoryStore, StorePort, open_store


async def _play(store: StorePort) -> tuple[object, ...]:
    await store.append("t", "created", {}, idem_key="k1")
    await store.append("u", "created", {}, idem_key="k1")  # another table: its own seqs
    await store.append("t", "sat", {}, idem_key="k2", ledger=[LedgerRow("a", "buy_in", 100)])
    await store.append(
        "t",
        "hand_ended",
        {"hand_no": 3},
        ledger=[LedgerRow("house", "rake", 5), LedgerRow("a", "adjustment", -2)],
    )
    await store.append("t", "stood", {}, ledger=[LedgerRow("a", "cash_out", 93, hand_no=4)])
    with pytest.raises(DuplicateKey):
        await store.append("t", "sat", {}, idem_key="k2", ledger=[LedgerRow("b", "buy_in", 1)])
    rows = await store.ledger_rows("t")
    events = [*await store.events("t", after_seq=1), *await store.events("u")]
    return (
        [(r.table_id, r.seq, r.player_id, r.kind, r.amount, r.hand_no) for r in rows],
        await store.ledger_totals("t"),
        await store.ledger_totals("nobody"),
        [(e.table_id, e.seq, e.kind, e.hand_no, e.idem_key, e.payload) for e in events],
        await store.open_tables(),
    )


async def test_r2_5_memory_and_sqlite_stores_keep_the_same_ledger(tmp_path: Path) -> None:
    memory = await _play(MemoryStore())
    sqlite = await open_store(str(tmp_path / "port.sqlite3"))
    try:
        real = await _play(sqlite)
    finally:
        await sqlite.close()
    assert memory == real
    rows, totals = real[0], real[1]
    assert rows[1] == ("t", 3, "house", "rake", 5, 3)  # the event's hand, by default
    assert rows[3] == ("t", 4, "a", "cash_out", 93, 4)  # unless the row names one
    assert totals == {"buy_in": 100, "top_up": 0, "cash_out": 93, "rake": 5, "adjustment": -2}
    assert [e[:4] for e in real[3]] == [
        ("t", 2, "sat", None),
        ("t", 3, "hand_ended", 3),
        ("t", 4, "stood", None),
        ("u", 1, "created", None),
    ]
