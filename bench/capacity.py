"""`python -m bench capacity`: memory per open table, and start-up time, in one process.

Opens N tables (default 1000) of four players, each with a hand dealt and one action
taken (mid-hand, the heaviest state), on the real SQLite store with a null presenter,
and reports the process's resident memory before and after (Linux ``/proc``), per
table, and the time to recover them all in a fresh service. The Discord presenter
keeps a little more per table (recent lines, the last picture's key and message ids);
the pictures themselves are not kept.

Figures, one per line: ``figure: value unit``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import tempfile
import time
from pathlib import Path

from bench._load import setup, step
from bot.table.ports import NullPresenter, open_store
from bot.table.service import TableService


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def amain(args: argparse.Namespace) -> int:
    import cogs.app  # noqa: F401  (the bot's own imports count in the baseline)

    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or str(Path(tmp) / "capacity.sqlite3")
        store = await open_store(path)
        service = TableService(store, NullPresenter())
        gc.collect()
        base = rss_mib()
        tables = []
        for start in range(0, args.tables, 100):
            tables += await setup(service, min(100, args.tables - start), f"c{start}-")
        rng = random.Random(1)
        for table in tables:
            await step(table, rng)  # deal
            await step(table, rng)  # one action: mid-hand
        gc.collect()
        full = rss_mib()
        await store.close()
        store = await open_store(path)
        t0 = time.perf_counter()
        fresh = TableService(store, NullPresenter())
        halted = await fresh.recover()
        recover_s = time.perf_counter() - t0
        await store.close()
    per_table = (full - base) * 1024 / args.tables
    print(f"tables: {args.tables} tables")
    print(f"rss before: {base:.1f} MiB")
    print(f"rss with tables: {full:.1f} MiB")
    print(f"memory per table: {per_table:.1f} KiB")
    print(f"recover all: {recover_s:.2f} s")
    print(f"halted after recovery: {len(halted)} tables")
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench capacity", description=__doc__)
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--db", default=None, help="SQLite file (default: a temporary one)")
    return asyncio.run(amain(ap.parse_args(argv)))
