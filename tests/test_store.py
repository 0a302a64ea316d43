"""Tests of the durable store (``bot.store``) on real SQLite files."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import aiosqlite
import pytest

from bot.store import (
    DuplicateCommand,
    LedgerRow,
    Store,
    StoreClosed,
    StoreError,
)
from bot.store.schema import LATEST, migrate, schema_version

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
async def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = await Store.open(tmp_path / "store.sqlite3")
    yield s
    await s.close()


async def _raw(path: Path) -> aiosqlite.Connection:
    return await aiosqlite.connect(path, isolation_level=None)


# ---------------------------------------------------------------------- migrations


async def test_migrations_from_empty_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    s = await Store.open(path)
    await s.append("t", "created", {"host": "h"})
    await s.close()
    conn = await _raw(path)
    try:
        assert await schema_version(conn) == LATEST
        mode = list(await conn.execute_fetchall("PRAGMA journal_mode"))
        assert mode[0][0] == "wal"
        # Idempotent: running again applies nothing and keeps the data.
        assert await migrate(conn) == LATEST
        rows = list(await conn.execute_fetchall("SELECT COUNT(*) FROM schema_version"))
        assert rows[0][0] == 1
    finally:
        await conn.close()
    s = await Store.open(path)
    try:
        assert [e.kind for e in await s.events("t")] == ["created"]
        assert await s.append("t", "x", {}) == 2
    finally:
        await s.close()


async def test_migrations_from_older_version_backfill(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = await _raw(path)
    try:
        assert await migrate(conn, target=1) == 1
        rows = [
            ("open", 1, "created"),
            ("gone", 1, "created"),
            ("gone", 2, "closed"),
            ("again", 1, "created"),
            ("again", 2, "closed"),
            ("again", 3, "created"),
        ]
        await conn.executemany(
            "INSERT INTO events (table_id, seq, kind, payload, created_at)"
            " VALUES (?, ?, ?, '{}', 0)",
            rows,
        )
        hand_rows = [
            ("open", 2, "hand_started", 1),
            ("open", 3, "action", 1),
            ("open", 4, "hand_ended", 1),
            ("open", 5, "hand_started", 2),
        ]
        await conn.executemany(
            "INSERT INTO events (table_id, seq, kind, hand_no, payload, created_at)"
            " VALUES (?, ?, ?, ?, '{}', 0)",
            hand_rows,
        )
    finally:
        await conn.close()
    s = await Store.open(path)
    try:
        assert sorted(await s.open_tables()) == ["again", "open"]
        rec = await s.hand_record("open", 1)  # the v3 hand index was backfilled
        assert rec is not None and rec.end is not None and rec.end.seq == 4
        assert [e.seq for e in rec.actions] == [3]
        live = await s.hand_record("open", 2)
        assert live is not None and live.end is None
        assert [h.hand_no for h in await s.hands("open")] == [1]
        assert await s.append("again", "x", {}) == 4
        await s.save_snapshot("again", 4, {"k": 1})  # the v2 table exists
        await s.append("gone", "created", {})
        assert sorted(await s.open_tables()) == ["again", "gone", "open"]
    finally:
        await s.close()
    conn = await _raw(path)
    try:
        assert await schema_version(conn) == LATEST
    finally:
        await conn.close()


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    await (await Store.open(path)).close()
    conn = await _raw(path)
    try:
        await migrate(conn)
        await conn.execute("UPDATE schema_version SET version = ?", (LATEST + 1,))
    finally:
        await conn.close()
    with pytest.raises(StoreError, match="newer"):
        await Store.open(path)


# ---------------------------------------------------------------------- the log


async def test_append_and_read_back(store: Store) -> None:
    assert await store.last_seq("a") == 0
    assert await store.append("a", "created", {"host": "u1", "blinds": [1, 2]}) == 1
    assert await store.append("b", "created", {}) == 1  # seqs are per table
    assert await store.append("a", "hand_started", {"hand_no": 7, "deck": ["As", "Kd"]}) == 2
    assert await store.append("a", "note", {"text": "é ✓"}, hand_no=8) == 3
    events = await store.events("a")
    assert [(e.seq, e.kind, e.hand_no) for e in events] == [
        (1, "created", None),
        (2, "hand_started", 7),  # taken from the payload
        (3, "note", 8),
    ]
    assert events[0].payload == {"host": "u1", "blinds": [1, 2]}
    assert events[2].payload == {"text": "é ✓"}
    assert all(e.table_id == "a" and e.created_at > 0 for e in events)
    assert [e.seq for e in await store.events("a", after_seq=1)] == [2, 3]
    assert [e.seq for e in await store.events("a", after_seq=1, limit=1)] == [2]
    assert await store.last_seq("a") == 3
    assert await store.last_seq("b") == 1


async def test_bad_input_fails_the_caller_only(store: Store) -> None:
    with pytest.raises(TypeError):
        await store.append("a", "x", {"v": object()})
    with pytest.raises(ValueError):
        await store.append("a", "x", {"v": float("nan")})
    with pytest.raises(TypeError):
        await store.append("a", "x", {}, ledger=[LedgerRow("p", "buy_in", 10.0)])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await store.append("a", "x", {}, ledger=[{"kind": "gift", "user_id": "p", "amount": 1}])
    with pytest.raises(ValueError):
        await store.append("a", "x", {}, ledger=[LedgerRow("p", "cash_out", -5)])
    assert await store.events("a") == []
    assert await store.append("a", "x", {}) == 1


async def test_idempotency(store: Store) -> None:
    seq = await store.append("a", "action", {"n": 1}, idem_key="k1")
    await store.append("a", "action", {"n": 2}, idem_key="k2")
    with pytest.raises(DuplicateCommand) as info:
        await store.append("a", "action", {"n": 3}, idem_key="k1")
    assert info.value.existing_seq == seq
    assert [e.payload["n"] for e in await store.events("a")] == [1, 2]
    assert await store.seen("a", "k1") == seq
    assert await store.seen("a", "nope") is None
    assert await store.seen("b", "k1") is None
    assert await store.append("b", "action", {}, idem_key="k1") == 1  # keys are per table


async def test_same_key_twice_in_one_batch(store: Store) -> None:
    results = await asyncio.gather(
        *(store.append("a", "action", {"i": i}, idem_key="same") for i in range(5)),
        return_exceptions=True,
    )
    seqs = [r for r in results if isinstance(r, int)]
    dups = [r for r in results if isinstance(r, DuplicateCommand)]
    assert seqs == [1] and len(dups) == 4
    assert {d.existing_seq for d in dups} == {1}
    assert len(await store.events("a")) == 1


# ---------------------------------------------------------------------- ledger


async def test_ledger_totals_and_by_player(store: Store) -> None:
    await store.append("a", "sit", {}, ledger=[LedgerRow("p1", "buy_in", 100)])
    await store.append("a", "sit", {}, ledger=[{"kind": "buy_in", "user_id": "p2", "amount": 50}])
    await store.append("a", "add", {}, ledger=[LedgerRow("p2", "top_up", 25)])
    await store.append(
        "a",
        "hand_ended",
        {"hand_no": 3},
        ledger=[LedgerRow("house", "rake", 5), LedgerRow("p1", "adjustment", -2)],
    )
    await store.append(
        "a", "leave", {}, ledger=[{"kind": "cash_out", "player_id": "p1", "amount": 60}]
    )
    await store.append("b", "sit", {}, ledger=[LedgerRow("p1", "buy_in", 1000)])
    assert await store.ledger_totals("a") == {
        "buy_in": 150,
        "top_up": 25,
        "cash_out": 60,
        "rake": 5,
        "adjustment": -2,
    }
    by_player = await store.ledger_by_player("a")
    assert by_player == {"p1": 100 - 2 - 60, "p2": 75, "house": -5}
    assert sum(by_player.values()) == 150 + 25 - 60 - 5 - 2  # chips now on the table
    entries = await store.ledger("a")
    assert [(e.seq, e.kind, e.hand_no) for e in entries][3:5] == [
        (4, "rake", 3),  # the event's hand, by default
        (4, "adjustment", 3),
    ]
    assert await store.ledger_totals("nobody") == dict.fromkeys(
        ["buy_in", "top_up", "cash_out", "rake", "adjustment"], 0
    )


async def test_failed_transaction_writes_neither_event_nor_ledger(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite3"
    await (await Store.open(path)).close()
    conn = await _raw(path)
    try:
        # A real failure inside the transaction, after the event row went in.
        await conn.execute(
            "CREATE TRIGGER boom BEFORE INSERT ON ledger WHEN NEW.player_id = 'boom'"
            " BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
        )
    finally:
        await conn.close()
    s = await Store.open(path)
    try:
        await s.append("a", "sit", {}, ledger=[LedgerRow("p", "buy_in", 10)])
        results = await asyncio.gather(
            s.append(
                "a", "sit", {}, ledger=[LedgerRow("q", "buy_in", 5), LedgerRow("boom", "buy_in", 1)]
            ),
            *(s.append(f"t{i}", "x", {}, ledger=[LedgerRow("p", "buy_in", 1)]) for i in range(20)),
            return_exceptions=True,
        )
        assert isinstance(results[0], StoreError) and "disk on fire" in str(results[0])
        assert results[1:] == [1] * 20  # the rest of the batch still committed
        assert s.stats.failed_batches >= 1
        assert [e.seq for e in await s.events("a")] == [1]
        assert await s.ledger_totals("a") == {
            "buy_in": 10,
            "top_up": 0,
            "cash_out": 0,
            "rake": 0,
            "adjustment": 0,
        }
        assert await s.append("a", "next", {}) == 2  # no gap left by the failed write
    finally:
        await s.close()


# ---------------------------------------------------------------------- group commit


async def test_group_commit_many_tables(store: Store) -> None:
    tables = [f"table-{i}" for i in range(50)]
    per_table = 40

    async def play(table: str) -> list[int]:
        return [
            await store.append(table, "action", {"i": i}, idem_key=f"{table}:{i}")
            for i in range(per_table)
        ]

    before = store.stats
    results = await asyncio.gather(*(play(t) for t in tables))
    assert all(seqs == list(range(1, per_table + 1)) for seqs in results)
    stats = store.stats
    appends = stats.appends - before.appends
    batches = stats.batches - before.batches
    assert appends == 50 * per_table
    assert batches * 10 < appends, (batches, appends)
    for table in tables[:5]:
        assert [e.payload["i"] for e in await store.events(table)] == list(range(per_table))


async def test_close_drains_queue(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    s = await Store.open(path)
    tasks = [asyncio.create_task(s.append(f"t{i % 7}", "x", {"i": i})) for i in range(300)]
    await asyncio.sleep(0)  # let every task enqueue
    await s.close()
    assert len([t.result() for t in tasks]) == 300
    with pytest.raises(StoreClosed):
        await s.append("t0", "x", {})
    await s.close()  # idempotent
    s = await Store.open(path)
    try:
        total = 0
        for i in range(7):
            total += len(await s.events(f"t{i}"))
        assert total == 300
    finally:
        await s.close()


# ---------------------------------------------------------------------- crash


_CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from bot.store import Store

    async def main(path):
        store = await Store.open(path)
        async def table(t):
            n = 0
            while True:
                n += 1
                seq = await store.append(f"t{t}", "action", {"n": n}, idem_key=str(n))
                print(t, seq, flush=True)
        await asyncio.gather(*(table(t) for t in range(8)))

    asyncio.run(main(sys.argv[1]))
    """
)


def test_crash_loses_nothing_acknowledged(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(path)],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    acked: list[tuple[str, int]] = []
    try:
        assert child.stdout is not None
        while len(acked) < 400:
            line = child.stdout.readline()
            assert line, "the child died before acknowledging enough appends"
            t, seq = line.split()
            acked.append((f"t{t}", int(seq)))
        os.kill(child.pid, signal.SIGKILL)  # no clean shutdown: nothing gets flushed
    finally:
        child.kill()
        child.wait()

    async def check() -> None:
        s = await Store.open(path)
        try:
            for table in {t for t, _ in acked}:
                events = await s.events(table)
                seqs = [e.seq for e in events]
                assert seqs == list(range(1, len(seqs) + 1))  # no holes
                assert [e.payload["n"] for e in events] == seqs
                want = max(seq for t, seq in acked if t == table)
                assert seqs and seqs[-1] >= want, (table, want, seqs[-1:])
        finally:
            await s.close()

    asyncio.run(check())


def test_process_exits_even_if_the_store_was_not_closed(tmp_path: Path) -> None:
    # A bot that dies of an unhandled error must exit (so its supervisor restarts it), not
    # hang on the store's threads.
    code = textwrap.dedent(
        """
        import asyncio, sys
        from bot.store import Store
        KEEP = []
        async def main(path):
            KEEP.append(await Store.open(path))
            await KEEP[0].append("t", "x", {})
            raise SystemExit(3)
        asyncio.run(main(sys.argv[1]))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "n.sqlite3")],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=20,
        capture_output=True,
    )
    assert done.returncode == 3, done.stderr


# ---------------------------------------------------------------------- recovery reads


async def test_open_tables_after_close(store: Store) -> None:
    await store.append("a", "created", {})
    await store.append("b", "created", {})
    await store.append("c", "sit", {})  # never created: not a table
    assert await store.open_tables() == ["a", "b"]
    await store.append("a", "closed", {"by": "u"})
    assert await store.open_tables() == ["b"]
    await store.append("a", "created", {})  # the channel gets a new table
    assert await store.open_tables() == ["a", "b"]
    # Closed and reopened within one batch: the last lifecycle event wins.
    await asyncio.gather(store.append("b", "closed", {}), store.append("b", "created", {}))
    await asyncio.gather(store.append("a", "created", {}), store.append("a", "closed", {}))
    assert await store.open_tables() == ["b"]


async def test_snapshot_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    s = await Store.open(path)
    try:
        assert await s.latest_snapshot("a") is None
        for i in range(5):
            await s.append("a", "x", {"i": i})
        await s.save_snapshot("a", 3, {"state": {"stacks": [1, 2]}})
        await s.save_snapshot("a", 5, {"state": "later"})
        with pytest.raises(StoreError, match="past the end"):
            await s.save_snapshot("a", 6, {})
        await s.append("a", "x", {"i": 5})
    finally:
        await s.close()
    s = await Store.open(path)
    try:
        snap = await s.latest_snapshot("a")
        assert snap is not None and (snap.seq, snap.payload) == (5, {"state": "later"})
        assert [e.payload["i"] for e in await s.events("a", after_seq=snap.seq)] == [5]
    finally:
        await s.close()


async def test_hand_record_and_history(store: Store) -> None:
    await store.append("a", "created", {})
    for hand in (1, 2, 3):
        await store.append("a", "hand_started", {"hand_no": hand, "deck": ["As"]})
        await store.append("a", "action", {"hand_no": hand, "a": "call"}, idem_key=f"{hand}:1")
        await store.append("a", "sat_out", {"seat": 2})  # no hand: not part of the record
        await store.append("a", "action", {"hand_no": hand, "a": "fold"})
        if hand < 3:
            await store.append("a", "hand_ended", {"hand_no": hand, "result": hand * 10})
    rec = await store.hand_record("a", 2)
    assert rec is not None and rec.finished
    assert rec.start.payload == {"hand_no": 2, "deck": ["As"]}
    assert [e.payload["a"] for e in rec.actions] == ["call", "fold"]
    assert rec.end is not None and rec.end.payload["result"] == 20
    live = await store.hand_record("a", 3)
    assert live is not None and live.end is None and len(live.actions) == 2
    assert await store.hand_record("a", 9) is None
    assert [h.hand_no for h in await store.hands("a")] == [2, 1]
    assert [h.hand_no for h in await store.hands("a", limit=1)] == [2]
    assert [h.hand_no for h in await store.hands("a", before=2)] == [1]
    assert await store.hands("b") == []


async def test_background_checkpoint_moves_the_wal_into_the_database(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite3"
    s = await Store.open(path)
    try:
        empty = path.stat().st_size
        for _ in range(20):
            await asyncio.gather(*(s.append(f"t{t}", "x", {"pad": "x" * 200}) for t in range(20)))
        deadline = asyncio.get_running_loop().time() + 5
        while path.stat().st_size <= empty:  # the writer itself would only at 20 000 pages
            assert asyncio.get_running_loop().time() < deadline, "no checkpoint ran"
            await asyncio.sleep(0.05)
    finally:
        await s.close()


async def test_hand_numbers_restart_after_the_table_reopens(store: Store) -> None:
    await store.append("a", "hand_started", {"hand_no": 1, "v": "old"})
    await store.append("a", "hand_ended", {"hand_no": 1})
    await store.append("a", "closed", {})
    await store.append("a", "created", {})
    await store.append("a", "hand_started", {"hand_no": 1, "v": "new"})
    rec = await store.hand_record("a", 1)
    assert rec is not None and rec.start.payload["v"] == "new" and rec.end is None
    assert await store.hands("a") == []


def test_payloads_are_json_text_on_disk(tmp_path: Path) -> None:
    async def go() -> None:
        s = await Store.open(tmp_path / "j.sqlite3")
        await s.append("a", "x", {"k": [1, "two"]})
        await s.close()
        conn = await _raw(tmp_path / "j.sqlite3")
        rows = list(await conn.execute_fetchall("SELECT payload FROM events"))
        await conn.close()
        assert json.loads(rows[0][0]) == {"k": [1, "two"]}

    asyncio.run(go())
