"""`python -m bench service`: the table service under load, through the real store.

N tables (default 50) of four robot players take random legal actions at an aggregate
rate (default 25 actions/s) for at least 20 s, through the service, the store and
a null presenter. Prints the latency per action (p50/p99), actions and appends per
second. ``--push`` drives every table as fast as it will go instead. Then 100 tables
are left mid-hand and a new service is timed until every hand is playable again.
``--db postgresql://...`` runs the same workload on a temporary SQLite file and on that
PostgreSQL database, and prints the figures side by side.

Figures, one per line: ``figure: value unit``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bench._load import ms, run_rate, setup, step
from bot.store import describe, is_postgres
from bot.table.ports import (
    HandTotal,
    LedgerEntry,
    LedgerKind,
    LedgerRow,
    LoggedEvent,
    NullPresenter,
    StorePort,
    open_store,
)
from bot.table.service import TableService
from bot.table.table import Table


class CountingStore:
    """Counts committed appends (the figure "appends per second")."""

    def __init__(self, inner: StorePort) -> None:
        self.inner = inner
        self.appends = 0

    async def append(
        self,
        table_id: str,
        kind: str,
        payload: Mapping[str, Any],
        *,
        idem_key: str | None = None,
        ledger: Sequence[LedgerRow] = (),
    ) -> int:
        seq = await self.inner.append(table_id, kind, payload, idem_key=idem_key, ledger=ledger)
        self.appends += 1
        return seq

    async def events(self, table_id: str, after_seq: int = 0) -> list[LoggedEvent]:
        return await self.inner.events(table_id, after_seq)

    async def open_tables(self) -> list[str]:
        return await self.inner.open_tables()

    async def ledger_totals(self, table_id: str) -> dict[LedgerKind, int]:
        return await self.inner.ledger_totals(table_id)

    async def ledger_rows(self, table_id: str) -> list[LedgerEntry]:
        return await self.inner.ledger_rows(table_id)

    async def ledger_sums(self, table_id: str) -> dict[tuple[str, LedgerKind], int]:
        return await self.inner.ledger_sums(table_id)

    async def hand_totals(self, table_id: str) -> list[HandTotal]:
        return await self.inner.hand_totals(table_id)

    async def hand_events(
        self, table_id: str, hand_no: int, *, session: int | None = None
    ) -> list[LoggedEvent]:
        return await self.inner.hand_events(table_id, hand_no, session=session)

    async def seating(self, table_id: str, *, before_seq: int | None = None) -> list[LoggedEvent]:
        return await self.inner.seating(table_id, before_seq=before_seq)

    async def after_hand(
        self, table_id: str, hand_no: int, kinds: Sequence[str], *, session: int | None = None
    ) -> list[LoggedEvent]:
        return await self.inner.after_hand(table_id, hand_no, kinds, session=session)

    async def save_snapshot(self, table_id: str, seq: int, payload: Mapping[str, Any]) -> None:
        await self.inner.save_snapshot(table_id, seq, payload)

    async def latest_snapshot(self, table_id: str) -> tuple[int, Mapping[str, Any]] | None:
        return await self.inner.latest_snapshot(table_id)

    async def close(self) -> None:
        await self.inner.close()


async def run_push(tables: list[Table], seconds: float) -> list[float]:
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def loop(table: Table, seed: int) -> None:
        rng = random.Random(seed)
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            await step(table, rng)
            latencies.append(time.perf_counter() - t0)

    await asyncio.gather(*(loop(t, i) for i, t in enumerate(tables)))
    return latencies


async def restart(path: str, count: int, tag: str = "") -> float:
    store = await open_store(path)
    service = TableService(store, NullPresenter())
    tables = await setup(service, count, f"r{tag}")
    rng = random.Random(2)
    for t in tables:
        await step(t, rng)  # deal
        for _ in range(rng.randrange(0, 4)):
            if t.state.hand is not None:
                await step(t, rng)
    await store.close()
    began = time.perf_counter()
    store = await open_store(path)
    service = TableService(store, NullPresenter())
    await service.recover()
    for tid in (f"r{tag}{i}" for i in range(count)):
        table = service.table(tid)
        hand = table.state.hand
        if hand is not None and hand.to_act is not None:
            hand.legal()  # playable: the engine answers for the player to act
    elapsed = time.perf_counter() - began
    await store.close()
    return elapsed


async def measure(args: argparse.Namespace, db: str, restart_db: str) -> dict[str, str]:
    """The workload on one database; its figures, by name, as printed."""
    # A PostgreSQL database may already hold tables from an earlier run: new ids each run.
    tag = f"{int(time.time() * 1000) % 10**9}-" if is_postgres(db) else ""
    store = CountingStore(await open_store(db, synchronous=args.synchronous))
    if await store.open_tables():
        await store.close()
        raise SystemExit(f"{describe(db)} already has open tables: give the bench an empty one")
    service = TableService(store, NullPresenter())
    tables = await setup(service, args.tables, f"t{tag}")
    store.appends = 0
    began = time.perf_counter()
    if args.push:
        latencies = await run_push(tables, args.seconds)
    else:
        latencies = await run_rate(tables, args.rate, seconds=args.seconds)
    elapsed = time.perf_counter() - began
    appends = store.appends
    errors = [t.table_id for t in tables if t.conservation_error() is not None]
    if restart_db == db:
        # The restart below shares this database: only its own tables may be open there,
        # as in the SQLite run (a file of its own).
        for t in tables:
            await store.inner.append(t.table_id, "closed", {"by": "bench"})
    await store.close()
    out = {
        "duration": f"{elapsed:.1f} s",
        "actions": f"{len(latencies)} commands",
        "actions per second": f"{len(latencies) / elapsed:.0f} actions/s",
        "appends per second": f"{appends / elapsed:.0f} appends/s",
        "latency p50": f"{ms(latencies, 0.50):.2f} ms",
        "latency p99": f"{ms(latencies, 0.99):.2f} ms",
        "latency mean": f"{1000 * statistics.fmean(latencies):.2f} ms",
        "latency max": f"{1000 * max(latencies):.2f} ms",
        "conservation failures": f"{len(errors)} tables",
    }
    if args.restart:
        seconds = await restart(restart_db, args.restart, tag)
        out[f"restart {args.restart} tables"] = f"{seconds:.2f} s"
    return out


async def amain(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = str(Path(tmp) / "bench.sqlite3")
        runs: dict[str, dict[str, str]] = {}
        if args.db and is_postgres(args.db):
            # PostgreSQL, and the same workload on SQLite beside it for comparison.
            runs["sqlite"] = await measure(args, sqlite, str(Path(tmp) / "restart.sqlite3"))
            runs["postgres"] = await measure(args, args.db, args.db)
        else:
            path = args.db or sqlite
            runs["sqlite"] = await measure(args, path, str(Path(tmp) / "restart.sqlite3"))
    sync = args.synchronous or "FULL"
    mode = f"{'push' if args.push else 'rate'} {args.tables} tables"
    if len(runs) == 1:
        print(f"mode: {mode}, synchronous {sync}")
        for name, value in runs["sqlite"].items():
            print(f"{name}: {value}")
    else:
        print(f"mode: {mode}; SQLite synchronous {sync} | PostgreSQL {describe(args.db)}")
        for name, value in runs["sqlite"].items():
            print(f"{name}: {value} (SQLite) | {runs['postgres'][name]} (PostgreSQL)")
    failed = any(r["conservation failures"] != "0 tables" for r in runs.values())
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench service", description=__doc__)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--rate", type=float, default=25.0, help="aggregate actions per second")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--push", action="store_true", help="as fast as possible")
    ap.add_argument("--restart", type=int, default=100, help="tables in the restart test")
    ap.add_argument("--synchronous", choices=["FULL", "NORMAL"], default=None)
    ap.add_argument(
        "--db",
        default=None,
        help="SQLite file (default: a temporary one), or a postgresql:// URL: then the "
        "workload runs on a temporary SQLite file and on PostgreSQL, figures side by side",
    )
    return asyncio.run(amain(ap.parse_args(argv)))
