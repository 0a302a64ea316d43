"""`python -m bench reads`: the reads of an old table, per call and as the event loop sees them.

A table with ``--hands`` finished hands (default 10,000), every one of them dealt and
played through the table service by the engine: hold'em with a rake (so the ledger
gets a row most hands, as at a raked table) between three robots that take random legal
actions (``bench.service.step``: a top-up for a busted robot, then the deal), on a
SQLite file with ``synchronous=NORMAL``. Building it is the slow part (about a minute at
10,000 hands); ``--db PATH`` keeps the file, and a later run with the same ``--db``
reuses it when it already holds the hands. ``--db postgresql://...`` builds (or reuses)
the table in that PostgreSQL database instead.

Then, on a fresh service recovered from that database (as after a restart), each read is
timed ``--calls`` times: ``/export`` of hand 1 (``Table.hand_history``), ``/stats``
(``TableService.stats``), ``/ledger`` (``TableService.session``) and ``/settle`` (the
session and its payments). A ticker task that sleeps 1 ms at a time runs alongside;
its longest gap less the 1 ms is the longest event-loop stall during the reads.

Figures, one per line: ``figure: value unit``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bench._load import step
from bot.store import is_postgres
from bot.table.ports import NullPresenter, open_store
from bot.table.service import TableService
from bot.table.settings import TableSettings

TABLE = "reads"
HOST = "host"
PLAYERS = ("a", "b", "c")
SETTINGS = TableSettings.of(rake_percent_bp=500, rake_cap=3)
TICK = 0.001


async def build(path: str, hands: int, seed: int = 1) -> None:
    """A table at ``path`` with ``hands`` finished hands, played by two robots."""
    store = await open_store(path, synchronous="NORMAL")
    try:
        service = TableService(store, NullPresenter())
        await service.recover()
        table = service.get(TABLE)
        if table is None:
            await service.create(TABLE, HOST, SETTINGS, key=f"create:{TABLE}")
            table = service.table(TABLE)
            for p in PLAYERS:
                await table.sit(p, p, 200, key=f"sit:{p}")
        rng = random.Random(seed)
        while table.state.hand_no < hands or table.state.hand is not None:
            await step(table, rng)
    finally:
        await store.close()


async def _finished(path: str) -> int:
    store = await open_store(path, synchronous="NORMAL")
    try:
        service = TableService(store, NullPresenter())
        await service.recover()
        table = service.get(TABLE)
        return 0 if table is None else table.state.hand_no
    finally:
        await store.close()


class Ticker:
    """The longest time the event loop took to come back to a 1 ms sleep."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(TICK)
            self.worst = max(self.worst, time.perf_counter() - t0 - TICK)

    def __enter__(self) -> Ticker:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(path: str, calls: int) -> dict[str, str]:
    store = await open_store(path, synchronous="NORMAL")
    try:
        service = TableService(store, NullPresenter())
        await service.recover()
        table = service.table(TABLE)

        async def export() -> None:
            text = await table.hand_history(1, PLAYERS[0])
            assert text.startswith("variant"), text[:40]

        async def stats() -> None:
            assert await service.stats(TABLE)

        async def ledger() -> None:
            assert (await service.session(TABLE)).results

        async def settle() -> None:
            (await service.session(TABLE)).payments()

        reads: dict[str, Callable[[], Awaitable[None]]] = {
            "export hand 1": export,
            "stats": stats,
            "ledger": ledger,
            "settle": settle,
        }
        out: dict[str, str] = {"hands": f"{table.state.hand_no} hands"}
        worst = 0.0
        for name, read in reads.items():
            await read()  # the first call warms the caches a restart empties
            times: list[float] = []
            with Ticker() as ticker:
                await asyncio.sleep(TICK * 2)
                for _ in range(calls):
                    t0 = time.perf_counter()
                    await read()
                    times.append(time.perf_counter() - t0)
                    await asyncio.sleep(TICK * 2)  # let the ticker see between calls
            out[f"{name} p50"] = f"{_ms(times, 0.5):.2f} ms"
            out[f"{name} p99"] = f"{_ms(times, 0.99):.2f} ms"
            out[f"{name} stall max"] = f"{1000 * ticker.worst:.2f} ms"
            worst = max(worst, ticker.worst)
        out["event loop stall max"] = f"{1000 * worst:.2f} ms"
        return out
    finally:
        await store.close()


async def amain(args: argparse.Namespace) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or str(Path(tmp) / "reads.sqlite3")
        there = is_postgres(path) or os.path.exists(path)
        if not (there and await _finished(path) >= args.hands):
            began = time.perf_counter()
            await build(path, args.hands)
            built = time.perf_counter() - began
        else:
            built = 0.0
        out = {"build": f"{built:.1f} s"}
        out.update(await measure(path, args.calls))
        return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench reads", description=__doc__)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument(
        "--db",
        default="",
        help="keep (or reuse) the table here: a SQLite file or a postgresql:// URL",
    )
    args = parser.parse_args(argv)
    for name, value in asyncio.run(amain(args)).items():
        print(f"{name}: {value}")
    return 0
