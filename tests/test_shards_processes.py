"""Several dealer processes on one PostgreSQL store (issue 16): a process dies, a paused
one wakes up late.

Each process is ``tests/shardworker.py``: the table service with shard leases and fenced
appends (the bot's own ``Ownership``), playing the tables of the shards it holds. Not
through Discord: the fake Discord has one guild and one gateway session, so it cannot
yet route guilds to shards; the gateway part (AutoShardedBot on ``CHIPFIST_SHARDS``) is
not exercised here.

In CI: 2 shards, 2 processes (A on shard 0; B on shard 1, also configured to take over
lapsed shards), 6 tables. With ``CHIPFIST_SHARDS_FULL=1``: 4 shards, owners A (0-1) and
B (2-3), a standby S, 40 tables.

1. All tables play. A is SIGKILLed mid-hand; the standby takes A's shards after the
   lease, recovers their tables from the log and every hand in progress finishes.
2. B is SIGSTOPped; its shards go to the standby (in CI a new standby process C is
   started first, since B was it). B is SIGCONTed: its first writes are refused by the
   store (the fence moved), it drops the shards and applies nothing.
3. Every table, replayed from the log, conserves chips (R-2.5), its ledger agrees, and
   no command was applied twice (each idempotency key, one per turn, once).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bot.store import open_store
from bot.store.lease import shard_of
from bot.table.ports import StoreAdapter
from bot.table.recovery import ledger_error, load
from tests.pgcluster import Cluster

ROOT = Path(__file__).resolve().parent.parent
FULL = os.environ.get("CHIPFIST_SHARDS_FULL", "") == "1"
TTL = 2.0


class Worker:
    def __init__(
        self, url: str, name: str, shards: str, count: int, tables: list[str], *, standby: bool
    ) -> None:
        args = [
            sys.executable,
            "-m",
            "tests.shardworker",
            url,
            name,
            shards,
            str(count),
            str(TTL),
            ",".join(tables),
        ]
        if standby:
            args.append("--standby")
        self.name = name
        self.proc = subprocess.Popen(
            args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.lines: list[dict[str, Any]] = []
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(json.loads(line))

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.errors.append(line)

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in list(self.lines) if e.get("ev") == kind]

    def gained(self) -> set[int]:
        return {s for e in self.events("gained") for s in e["shards"]}

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


def wait_for(what: str, check: Any, timeout: float) -> float:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return time.time()
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _tables(count: int, n: int) -> list[str]:
    """n tables, "GUILD:i", guild i << 22: table i is on shard i % count."""
    return [f"{i << 22}:{i}" for i in range(n)]


async def _progress(url: str) -> dict[str, tuple[int, int, bool]]:
    """table -> (last seq, last hand number, whether that hand is still in progress)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "WITH last AS (SELECT table_id, MAX(seq) AS seq FROM events GROUP BY table_id),"
            " hand AS (SELECT DISTINCT ON (table_id) table_id, hand_no, end_seq FROM hands"
            " ORDER BY table_id, hand_no DESC)"
            " SELECT last.table_id, last.seq, COALESCE(hand.hand_no, 0),"
            " hand.hand_no IS NOT NULL AND hand.end_seq IS NULL"
            " FROM last LEFT JOIN hand ON hand.table_id = last.table_id"
        )
        return {str(r[0]): (int(r[1]), int(r[2]), bool(r[3])) for r in rows}
    finally:
        await conn.close()


async def _dump(url: str, tables: list[str]) -> str:
    """The logs of these tables, one event a line (for a failure's report)."""
    store = await open_store(url)
    try:
        lines = []
        for tid in tables:
            for e in await store.events(tid):
                text = json.dumps(dict(e.payload))[:160]
                lines.append(f"{tid} {e.seq} {e.kind} {e.idem_key} {e.created_at:.3f} {text}")
        return "\n".join(lines)
    finally:
        await store.close()


async def _migrate(url: str) -> None:
    await (await open_store(url)).close()


def progress(url: str) -> dict[str, tuple[int, int, bool]]:
    return asyncio.run(_progress(url))


async def _verify(url: str, tables: list[str]) -> dict[str, int]:
    store = await open_store(url)
    port = StoreAdapter(store)
    hands: dict[str, int] = {}
    try:
        for tid in tables:
            events = await store.events(tid)
            keys = [e.idem_key for e in events if e.idem_key is not None]
            assert len(keys) == len(set(keys)), f"{tid}: a command applied twice"
            state = await load(port, tid)
            assert state.conservation_error() is None, (tid, state.conservation_error())
            assert await ledger_error(port, state) is None, tid
            assert not state.halted, tid
            hands[tid] = state.hand_no
    finally:
        await store.close()
    return hands


def test_r2_5_failover_and_stale_owner_across_processes(pg_cluster: Cluster) -> None:
    """R-2.5 across processes: kill an owner mid-hand, pause another; the standby takes
    their shards after the lease, every hand resumes, the paused owner's late writes
    are refused, chips are conserved and no command is applied twice."""
    url = pg_cluster.new_database()
    count, n = (4, 40) if FULL else (2, 6)
    tables = _tables(count, n)
    assert {shard_of(int(t.split(":")[0]), count) for t in tables} == set(range(count))
    half = count // 2
    a_shards = f"0-{half - 1}"
    b_shards = f"{half}-{count - 1}"
    a_tables = [t for t in tables if shard_of(int(t.split(":")[0]), count) < half]
    b_tables = [t for t in tables if t not in a_tables]
    asyncio.run(_migrate(url))  # before anyone reads it
    workers: list[Worker] = []
    try:
        a = Worker(url, "A", a_shards, count, tables, standby=False)
        workers.append(a)
        b = Worker(url, "B", b_shards, count, tables, standby=not FULL)
        workers.append(b)
        if FULL:
            s = Worker(url, "S", "", count, tables, standby=True)
            workers.append(s)
        else:
            s = b
        # Phase 1: everyone plays, then A dies mid-hand.
        wait_for(
            "every table to play two hands",
            lambda: len(p := progress(url)) == n and all(h >= 2 for _, h, _ in p.values()),
            120,
        )
        before = progress(url)
        wait_for("a hand in progress at A", lambda: any(progress(url)[t][2] for t in a_tables), 30)
        killed = time.time()
        a.proc.send_signal(signal.SIGKILL)
        at_kill = progress(url)
        mid = [t for t in a_tables if at_kill[t][2]]
        assert mid, "A was killed between hands: not the case this test is about"
        set_a = set(range(half))
        taken = wait_for(
            "the standby to take A's shards", lambda: set_a <= s.gained(), 8 * TTL + 30
        )
        gained = [e for e in s.events("gained") if set(e["shards"]) & set_a]
        resumed = wait_for(
            "every hand cut by the kill to finish",
            lambda: all((p := progress(url))[t][1] > at_kill[t][1] or not p[t][2] for t in mid),
            60,
        )
        failover = taken - killed
        print(
            f"\nfailover: lease {TTL:.1f} s; shards taken {failover:.2f} s after the kill "
            f"(lease step and recovery {taken - gained[0]['started']:.2f} s); "
            f"every cut hand finished {resumed - killed:.2f} s after it"
        )
        assert failover < TTL + TTL / 3 + 10, failover
        assert all(progress(url)[t][0] > before[t][0] for t in a_tables)
        # Phase 2: B is paused; its shards go to a standby; B wakes up late.
        if not FULL:
            s = Worker(url, "C", "", count, tables, standby=True)
            workers.append(s)
            time.sleep(TTL + 0.5)  # C's own start-up wait
        b.proc.send_signal(signal.SIGSTOP)
        paused = progress(url)
        set_b = set(range(half, count))
        wait_for("the standby to take B's shards", lambda: set_b <= s.gained(), 8 * TTL + 30)
        wait_for(
            "B's tables to move on under the standby",
            lambda: all(progress(url)[t][0] > paused[t][0] for t in b_tables),
            60,
        )
        b.proc.send_signal(signal.SIGCONT)
        wait_for("B to see it lost its shards", lambda: b.events("refused") or b.events("lost"), 20)
        time.sleep(1.0)
        assert b.events("refused"), "B's late write was not even tried: the test proves nothing"
        assert not b.events("acted_after_wake"), b.events("acted_after_wake")
        assert b.proc.poll() is None, "".join(b.errors)  # dropped the shards, did not crash
        time.sleep(1.0)
    finally:
        for w in workers:
            w.stop()
            # For a failure's report: what each process said last.
            said = f"{w.events('refusal')[:10]} {w.lines[-3:]}"
            print(f"--- {w.name}: {said}\n{''.join(w.errors)[-2000:]}")
        stuck = sorted({e["table"] for w in workers for e in w.events("refusal")})
        if stuck:
            print(asyncio.run(_dump(url, stuck[:2])))
    for w in workers:
        assert not [e for e in w.lines if e.get("ev") == "lease_error"], w.name
        if w is b:
            # The paused owner's writes after it woke fail (the server ended its session
            # while it was stopped); they are logged, refused, and it lives on.
            failed = [ln for ln in w.errors if ln.startswith("bot.store.errors.")]
            assert all("StoreError: write to table" in ln for ln in failed), failed
        else:
            assert "Traceback" not in "".join(w.errors), (w.name, "".join(w.errors)[-3000:])
    hands = asyncio.run(_verify(url, tables))
    assert all(hands[t] > before[t][1] for t in tables)
    print(f"{n} tables, {sum(hands.values())} hands in all, conserved")
