"""The store's contract (``bot.store``), on both back ends: every test taking ``store`` or
``store_url`` runs once on a real SQLite file and once on a real PostgreSQL database (a
throwaway cluster, ``tests/pgcluster.py``). The few that check SQLite's own machinery (WAL,
checkpoints) say so in their names."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.store import (
    BaseStore,
    DuplicateCommand,
    LedgerKind,
    LedgerRow,
    StaleFence,
    Store,
    StoreClosed,
    StoreError,
    is_postgres,
    open_store,
)
from bot.store.schema import LATEST, migrate, pg_migrate, pg_schema_version, schema_version

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
async def store(store_url: str):  # type: ignore[no-untyped-def]
    s = await open_store(store_url)
    yield s
    await s.close()


async def _raw(path: Path | str) -> aiosqlite.Connection:
    return await aiosqlite.connect(path, isolation_level=None)


async def _sql(url: str, sql: str, rows: list[tuple[object, ...]] | None = None) -> list[Any]:
    """Run one statement (``?`` placeholders) on the database behind the store's back."""
    if is_postgres(url):
        import asyncpg

        marks = iter(range(1, 100))
        text = re.sub(r"\?", lambda _: f"${next(marks)}", sql)
        conn = await asyncpg.connect(url)
        try:
            if rows is not None:
                await conn.executemany(text, rows)
                return []
            return list(await conn.fetch(text))
        finally:
            await conn.close()
    conn = await _raw(url)
    try:
        if rows is not None:
            await conn.executemany(sql, rows)
            return []
        return list(await conn.execute_fetchall(sql))
    finally:
        await conn.close()


async def _version(url: str) -> int:
    if is_postgres(url):
        import asyncpg

        pg = await asyncpg.connect(url)
        try:
            return await pg_schema_version(pg)
        finally:
            await pg.close()
    conn = await _raw(url)
    try:
        return await schema_version(conn)
    finally:
        await conn.close()


async def _migrate(url: str, target: int = LATEST) -> int:
    if is_postgres(url):
        import asyncpg

        pg = await asyncpg.connect(url)
        try:
            return await pg_migrate(pg, target=target)
        finally:
            await pg.close()
    conn = await _raw(url)
    try:
        return await migrate(conn, target=target)
    finally:
        await conn.close()


# ---------------------------------------------------------------------- migrations


async def test_migrations_from_empty_and_reopen(store_url: str) -> None:
    s = await open_store(store_url)
    await s.append("t", "created", {"host": "h"})
    await s.close()
    assert await _version(store_url) == LATEST
    # Idempotent: running again applies nothing and keeps the data.
    assert await _migrate(store_url) == LATEST
    assert (await _sql(store_url, "SELECT COUNT(*) FROM schema_version"))[0][0] == 1
    s = await open_store(store_url)
    try:
        assert [e.kind for e in await s.events("t")] == ["created"]
        assert await s.append("t", "x", {}) == 2
    finally:
        await s.close()


async def test_sqlite_store_is_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    await (await Store.open(path)).close()
    rows = await _sql(str(path), "PRAGMA journal_mode")
    assert rows[0][0] == "wal"


async def test_migrations_from_older_version_backfill(store_url: str) -> None:
    assert await _migrate(store_url, target=1) == 1
    rows: list[tuple[object, ...]] = [
        ("open", 1, "created"),
        ("gone", 1, "created"),
        ("gone", 2, "closed"),
        ("again", 1, "created"),
        ("again", 2, "closed"),
        ("again", 3, "created"),
    ]
    await _sql(
        store_url,
        "INSERT INTO events (table_id, seq, kind, payload, created_at) VALUES (?, ?, ?, '{}', 0)",
        rows,
    )
    hand_rows: list[tuple[object, ...]] = [
        ("open", 2, "hand_started", 1),
        ("open", 3, "action", 1),
        ("open", 4, "hand_ended", 1),
        ("open", 5, "hand_started", 2),
    ]
    await _sql(
        store_url,
        "INSERT INTO events (table_id, seq, kind, hand_no, payload, created_at)"
        " VALUES (?, ?, ?, ?, '{}', 0)",
        hand_rows,
    )
    s = await open_store(store_url)
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
        assert await s.take_fence("f") == 1  # the v4 table exists
    finally:
        await s.close()
    assert await _version(store_url) == LATEST


async def test_newer_schema_is_refused(store_url: str) -> None:
    await (await open_store(store_url)).close()
    await _sql(store_url, "UPDATE schema_version SET version = ?", [(LATEST + 1,)])
    with pytest.raises(StoreError, match="newer"):
        await open_store(store_url)


# ---------------------------------------------------------------------- the log


async def test_append_and_read_back(store: BaseStore) -> None:
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


async def test_bad_input_fails_the_caller_only(store: BaseStore) -> None:
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


async def test_idempotency(store: BaseStore) -> None:
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


async def test_same_key_twice_in_one_batch(store: BaseStore) -> None:
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


async def test_ledger_totals_and_by_player(store: BaseStore) -> None:
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


async def test_r2_5_ledger_kinds_are_one_enum_stored_as_their_text(store_url: str) -> None:
    """R-2.5 (every chip across the table's edge is in the ledger): the kinds are one
    enum, written and read as members; the column holds the same text as ever
    (``buy_in``), and a kind that is not one of them is refused by name before it
    reaches the store."""
    store = await open_store(store_url)
    try:
        await store.append("k", "sat", {}, ledger=[LedgerRow("p1", LedgerKind.BUY_IN, 100)])
        await store.append(
            "k", "stood", {}, ledger=[{"kind": "cash_out", "player_id": "p1", "amount": 40}]
        )
        entries = await store.ledger("k")
        assert [e.kind for e in entries] == [LedgerKind.BUY_IN, LedgerKind.CASH_OUT]
        assert all(type(e.kind) is LedgerKind for e in entries)
        totals = await store.ledger_totals("k")
        assert all(type(k) is LedgerKind for k in totals)
        assert totals[LedgerKind.BUY_IN] == 100 and totals[LedgerKind.CASH_OUT] == 40
    finally:
        await store.close()
    rows = await _sql(store_url, "SELECT kind FROM ledger WHERE table_id = 'k' ORDER BY seq")
    assert [type(r[0]) for r in rows] == [str, str]
    assert [str(r[0]) for r in rows] == ["buy_in", "cash_out"]
    with pytest.raises(ValueError, match="ledger kind must be one of buy_in, top_up"):
        LedgerRow("p1", "buyin", 5)  # type: ignore[arg-type]  # the misspelling under test
    assert LedgerRow("p1", "top_up", 5).kind is LedgerKind.TOP_UP  # type: ignore[arg-type]  # text


async def test_failed_transaction_writes_neither_event_nor_ledger(store_url: str) -> None:
    await (await open_store(store_url)).close()
    # A real failure inside the transaction, after the event row went in.
    if is_postgres(store_url):
        await _sql(
            store_url,
            "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            " IF NEW.player_id = 'boom' THEN RAISE EXCEPTION 'disk on fire'; END IF;"
            " RETURN NEW; END $$",
        )
        await _sql(
            store_url,
            "CREATE TRIGGER boom BEFORE INSERT ON ledger FOR EACH ROW EXECUTE FUNCTION boom()",
        )
    else:
        await _sql(
            store_url,
            "CREATE TRIGGER boom BEFORE INSERT ON ledger WHEN NEW.player_id = 'boom'"
            " BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
        )
    s = await open_store(store_url)
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


async def test_group_commit_many_tables(store: BaseStore) -> None:
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


async def test_close_drains_queue(store_url: str) -> None:
    path = store_url
    s = await open_store(path)
    tasks = [asyncio.create_task(s.append(f"t{i % 7}", "x", {"i": i})) for i in range(300)]
    await asyncio.sleep(0)  # let every task enqueue
    await s.close()
    assert len([t.result() for t in tasks]) == 300
    with pytest.raises(StoreClosed):
        await s.append("t0", "x", {})
    await s.close()  # idempotent
    s = await open_store(path)
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
    from bot.store import open_store

    async def main(path):
        store = await open_store(path)
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


def test_crash_loses_nothing_acknowledged(store_url: str) -> None:
    path = store_url
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
        s = await open_store(path)
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


def test_process_exits_even_if_the_store_was_not_closed(store_url: str) -> None:
    # A bot that dies of an unhandled error must exit (so its supervisor restarts it), not
    # hang on the store's threads.
    code = textwrap.dedent(
        """
        import asyncio, sys
        from bot.store import open_store
        KEEP = []
        async def main(path):
            KEEP.append(await open_store(path))
            await KEEP[0].append("t", "x", {})
            raise SystemExit(3)
        asyncio.run(main(sys.argv[1]))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code, store_url],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=20,
        capture_output=True,
    )
    assert done.returncode == 3, done.stderr


# ---------------------------------------------------------------------- recovery reads


async def test_open_tables_after_close(store: BaseStore) -> None:
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


async def test_snapshot_round_trip(store_url: str) -> None:
    path = store_url
    s = await open_store(path)
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
    s = await open_store(path)
    try:
        snap = await s.latest_snapshot("a")
        assert snap is not None and (snap.seq, snap.payload) == (5, {"state": "later"})
        assert [e.payload["i"] for e in await s.events("a", after_seq=snap.seq)] == [5]
    finally:
        await s.close()


async def test_hand_record_and_history(store: BaseStore) -> None:
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


async def test_R_20_61_after_hand_reads_only_the_rows_between_its_end_and_the_next_deal(
    store: BaseStore,
) -> None:
    """R-20.61: what was settled after a hand (rows naming it, of the kinds asked, after
    its end and before the next hand started), on both back ends; nothing for a hand
    still being played, nothing of another hand's."""
    kinds = ("rabbit_hunted", "shown_by_choice")
    await store.append("a", "created", {})
    for hand in (1, 2, 3):
        await store.append("a", "hand_started", {"hand_no": hand})
        await store.append("a", "action", {"hand_no": hand, "a": "fold"})
        if hand < 3:
            await store.append("a", "hand_ended", {"hand_no": hand})
            await store.append("a", "rabbit_hunted", {"hand_no": hand, "cards": [str(hand)]})
            await store.append("a", "sat_out", {"seat": 2})
            await store.append("a", "shown_by_choice", {"hand_no": hand, "cards": ["x"]})
    await store.append("a", "rabbit_hunted", {"hand_no": 1, "cards": ["late"]})  # not after 1
    one = await store.after_hand("a", 1, kinds)
    assert [(e.kind, e.payload["cards"]) for e in one] == [
        ("rabbit_hunted", ["1"]),
        ("shown_by_choice", ["x"]),
    ]
    two = await store.after_hand("a", 2, kinds)
    assert [e.payload["cards"] for e in two] == [["2"], ["x"]]
    assert [e.kind for e in await store.after_hand("a", 2, ("rabbit_hunted",))] == ["rabbit_hunted"]
    assert await store.after_hand("a", 3, kinds) == []  # still being played
    assert await store.after_hand("a", 9, kinds) == []
    assert await store.after_hand("b", 1, kinds) == []


async def test_sqlite_background_checkpoint_moves_the_wal_into_the_database(tmp_path: Path) -> None:
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


async def test_hand_numbers_restart_after_the_table_reopens(store: BaseStore) -> None:
    await store.append("a", "hand_started", {"hand_no": 1, "v": "old"})
    await store.append("a", "hand_ended", {"hand_no": 1})
    await store.append("a", "closed", {})
    await store.append("a", "created", {})
    await store.append("a", "hand_started", {"hand_no": 1, "v": "new"})
    rec = await store.hand_record("a", 1)
    assert rec is not None and rec.start.payload["v"] == "new" and rec.end is None
    assert await store.hands("a") == []


async def test_payloads_are_json_text_on_disk(store_url: str) -> None:
    s = await open_store(store_url)
    await s.append("a", "x", {"k": [1, "two"]})
    await s.close()
    rows = await _sql(store_url, "SELECT payload FROM events")
    assert json.loads(rows[0][0]) == {"k": [1, "two"]}


# ---------------------------------------------------------------------- fencing


async def test_fence_refuses_a_stale_owner(store: BaseStore) -> None:
    """A table's owner appends with its fencing token; once another owner takes the fence
    over, the first one's appends are refused and write nothing."""
    assert await store.fence_generation("shard-0") == 0
    first = await store.take_fence("shard-0")
    assert first == 1
    assert await store.append("t", "action", {"n": 1}, fence=("shard-0", first)) == 1
    second = await store.take_fence("shard-0")
    assert second == 2 and await store.fence_generation("shard-0") == 2
    with pytest.raises(StaleFence) as info:
        await store.append(
            "t", "action", {"n": 2}, fence=("shard-0", first), ledger=[LedgerRow("p", "buy_in", 5)]
        )
    assert (info.value.generation, info.value.current) == (1, 2)
    assert await store.append("t", "action", {"n": 3}, fence=("shard-0", second)) == 2
    assert [e.payload["n"] for e in await store.events("t")] == [1, 3]
    assert (await store.ledger_totals("t"))["buy_in"] == 0
    # Never taken: nobody holds it, so no generation is current.
    with pytest.raises(StaleFence):
        await store.append("u", "action", {}, fence=("never", 1))
    with pytest.raises(ValueError):
        await store.append("u", "action", {}, fence=("shard-0", 0))
    assert await store.events("u") == []


async def test_fence_take_over_in_the_same_batch(store: BaseStore) -> None:
    """Appends queued before a take-over commit; the ones after it with the old token do
    not, even when all of them share one transaction."""
    gen = await store.take_fence("s")
    results = await asyncio.gather(
        store.append("t", "a", {"i": 0}, fence=("s", gen)),
        store.take_fence("s"),
        store.append("t", "a", {"i": 1}, fence=("s", gen)),
        return_exceptions=True,
    )
    assert results[0] == 1 and results[1] == gen + 1
    assert isinstance(results[2], StaleFence)
    assert [e.payload["i"] for e in await store.events("t")] == [0]


async def test_postgres_fence_refuses_a_paused_owner_in_another_process(
    pg_cluster: Any,
) -> None:
    """Two processes (two stores on one PostgreSQL database): the new owner takes the fence
    while the old one still has appends to send; the old owner's late append is refused,
    and the new owner continues the table's seqs where the log is."""
    url = pg_cluster.new_database()
    old = await open_store(url)
    new = await open_store(url)
    try:
        gen_old = await old.take_fence("shard-3")
        assert await old.append("t", "action", {"by": "old"}, fence=("shard-3", gen_old)) == 1
        gen_new = await new.take_fence("shard-3")
        assert await new.append("t", "action", {"by": "new"}, fence=("shard-3", gen_new)) == 2
        with pytest.raises(StaleFence):
            await old.append("t", "action", {"by": "late"}, fence=("shard-3", gen_old))
        assert [e.payload["by"] for e in await new.events("t")] == ["old", "new"]
    finally:
        await old.close()
        await new.close()


async def test_postgres_writer_reconnects_after_a_lost_connection(pg_cluster: Any) -> None:
    """The server dropping the writer's idle connection (a paused process's session
    ended, a restart) loses no write: nothing of the next batch was committed before the
    break showed, so it is written again on a new connection and the log continues."""
    import asyncpg

    url = pg_cluster.new_database()
    s = await open_store(url)
    try:
        assert await s.append("t", "x", {"i": 1}) == 1
        admin = await asyncpg.connect(url)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND application_name = ''"
            )
        finally:
            await admin.close()
        outcomes = [await s.append("t", "x", {"i": i}) for i in (2, 3, 4)]
        assert outcomes == [2, 3, 4]
        events = await s.events("t")
        assert [e.payload["i"] for e in events] == [1, 2, 3, 4]
    finally:
        await s.close()
