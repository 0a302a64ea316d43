"""`python -m bench store`: 50 tables appending to one store at once, as the table service would.

Each table appends sequentially (the table lock allows one command at a time), every table
concurrently; each append carries an idempotency key and a typical action payload, and
every tenth a ledger row. Latency is measured per append, from the call to its durable
acknowledgement. Uses a temporary database file.

Options: ``--seconds S`` (default 5), ``--tables N`` (default 50),
``--synchronous NORMAL|FULL`` (default: the store's default, NORMAL), ``--dir D`` (where
the temporary database goes; e.g. /dev/shm to take the disk out of the figures),
``--db postgresql://...`` (the same run on that PostgreSQL database too, side by side).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from typing import cast

from bot.store import LedgerKind, LedgerRow, describe, is_postgres, open_store
from bot.store.store import Synchronous


async def _measure(db: str, seconds: float, tables: int, synchronous: str | None) -> list[str]:
    """The workload on one database; its figure lines."""
    sync: Synchronous | None = None if synchronous is None else cast(Synchronous, synchronous)
    store = await open_store(db, synchronous=sync)
    tag = f"{int(time.time() * 1000) % 10**9}-" if is_postgres(db) else ""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def table(t: int) -> None:
        table_id = f"bench-{tag}{t}"
        await store.append(table_id, "created", {"host": "u0", "settings": {"sb": 1}})
        n = 0
        while time.perf_counter() < stop:
            n += 1
            ledger = [LedgerRow(f"u{n % 9}", LedgerKind.BUY_IN, 100)] if n % 10 == 0 else []
            began = time.perf_counter()
            await store.append(
                table_id,
                "action",
                {"hand_no": n // 12 + 1, "seat": n % 9, "action": "raise", "amount": 40},
                idem_key=f"cmd-{n}",
                ledger=ledger,
            )
            latencies.append(time.perf_counter() - began)

    before = store.stats
    started = time.perf_counter()
    await asyncio.gather(*(table(t) for t in range(tables)))
    elapsed = time.perf_counter() - started
    stats = store.stats
    await store.close()
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    return [
        f"appends per second: {len(latencies) / elapsed:.0f} per s",
        f"append p50: {pct(0.50):.2f} ms",
        f"append p99: {pct(0.99):.2f} ms",
        f"batches per second: {(stats.batches - before.batches) / elapsed:.0f} per s",
        await _standings(db, tag),
    ]


STANDINGS_ROWS = 10_000


async def _standings(db: str, tag: str) -> str:
    """The global leaderboard's query (bot/store/standings.py) over 10,000 ledger rows
    (5,000 finished sessions of 1,000 players at 50 tables in 7 guilds, one hand result
    each): the median of 9 runs. On PostgreSQL the database's earlier rows count too."""
    store = await open_store(db)
    try:
        for t in range(50):
            await store.append(f"lb-{tag}{t}", "created", {"guild": (t % 7) << 22})
        writes = []
        for i in range(STANDINGS_ROWS // 2):
            table, player = f"lb-{tag}{(i // 3) % 50}", f"p{(i * 7919) % 1000}"
            rows = [
                LedgerRow(player, LedgerKind.BUY_IN, 100),
                LedgerRow(player, LedgerKind.CASH_OUT, i % 250),
            ]
            writes.append(store.append(table, "stood", {}, ledger=rows))
            result = {"hand_no": i, "users": [player], "net": [i % 250 - 100], "won": [i % 250]}
            writes.append(store.append(table, "hand_ended", result))
        await asyncio.gather(*writes)
        took = []
        for _ in range(9):
            began = time.perf_counter()
            await store.leaderboard(min_hands=1, limit=10, hide_private=True)
            took.append(time.perf_counter() - began)
    finally:
        await store.close()
    took.sort()
    return f"leaderboard, {STANDINGS_ROWS:,} ledger rows: {took[4] * 1000:.1f} ms"


async def _run(
    seconds: float, tables: int, synchronous: str | None, where: str | None, db: str | None
) -> int:
    with tempfile.TemporaryDirectory(prefix="chipfist-bench-", dir=where) as tmp:
        lite = await _measure(os.path.join(tmp, "bench.sqlite3"), seconds, tables, synchronous)
    if db is None:
        print("\n".join(lite))
        return 0
    pg = await _measure(db, seconds, tables, None)
    print(f"SQLite (synchronous {synchronous or 'NORMAL'}) | PostgreSQL {describe(db)}")
    for a, b in zip(lite, pg, strict=True):
        print(f"{a} (SQLite) | {b.split(': ', 1)[1]} (PostgreSQL)")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench store", description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--synchronous", choices=["NORMAL", "FULL"], default=None)
    parser.add_argument("--dir", default=None, help="where to put the temporary database")
    parser.add_argument(
        "--db", default=None, help="a postgresql:// URL: the same run there too, side by side"
    )
    args = parser.parse_args(argv)
    if args.db is not None and not is_postgres(args.db):
        parser.error("--db takes a postgresql:// URL (SQLite runs on a temporary file)")
    return asyncio.run(_run(args.seconds, args.tables, args.synchronous, args.dir, args.db))
