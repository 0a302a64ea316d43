"""`python -m bench tournament`: a multi-table freezeout played by robots through the
table service on a SQLite file, alone and beside cash tables.

1. A 180-player freezeout (20 tables of nine, blinds rising by hands) played by robots
   (:mod:`bot.tourney_run.robots`) to one winner: hands per second, the time of one
   balancing step (the planner and its moves, p50/p99), the store's size at the end.
2. 50 cash tables of four robots at an aggregate rate (the load of bench service,
   bench/_load.py) for
   ``--seconds``, alone: their action latency p99.
3. The same cash load while a second freezeout plays beside it on the same service and
   store: the cash tables' action p99 again, and that tournament's hands per second.

Figures, one per line: ``figure: value unit``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench._load import ms, run_rate, setup
from bot.table.ports import NullPresenter, StorePort, open_store
from bot.table.service import TableService
from bot.tournament import balance
from bot.tournament.structure import Config, preset
from bot.tourney_run.robots import play
from bot.tourney_run.runner import Runner


class TimedRunner(Runner):
    """Times every balancing step (the plan and its moves carried out) and, apart,
    every plan."""

    steps: list[float]
    plans: list[float]

    async def balance(self) -> None:
        began = time.perf_counter()
        real = balance.plan

        def timed(*args: Any, **kwargs: Any) -> balance.Plan:
            t0 = time.perf_counter()
            try:
                return real(*args, **kwargs)
            finally:
                self.plans.append(time.perf_counter() - t0)

        balance.plan = timed
        try:
            await super().balance()
        finally:
            balance.plan = real
        self.steps.append(time.perf_counter() - began)


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


async def _tournament(
    service: TableService, players: int, seed: int
) -> tuple[TimedRunner, int, int]:
    """The freezeout played to one winner: its runner, its hands and its tables at the
    start."""
    runner = TimedRunner(service, f"bench{seed}", rng=random.Random(seed))
    runner.steps, runner.plans = [], []
    await runner.create(
        Config(buy_in=100, stack=1000, schedule=preset("regular", 1000, unit="hands"), seats=9)
    )
    for n in range(players):
        await runner.register(f"p{n}", f"Player {n}")
    assert (await runner.start()).ok
    tables = len(runner.ports)
    hands = 0

    async def after(_table: int, _outs: object) -> None:
        nonlocal hands
        hands += 1
        if not runner.st.playing:
            runner.check_chips()

    await play(runner, random.Random(seed), after)
    assert runner.st.status == "finished"
    runner.check_chips()
    return runner, hands, tables


async def _service(path: Path) -> tuple[StorePort, TableService]:
    store = await open_store(str(path))
    return store, TableService(store, NullPresenter(), seed="bench")


async def amain(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        # 1. The tournament alone.
        path = Path(tmp) / "alone.sqlite3"
        store, service = await _service(path)
        began = time.perf_counter()
        runner, hands, tables_at_start = await _tournament(service, args.players, args.seed)
        elapsed = time.perf_counter() - began
        await store.close()
        print(f"players: {args.players} entrants")
        print(f"tables at the start: {tables_at_start} tables")
        print(f"hands: {hands} hands")
        print(f"duration: {elapsed:.1f} s")
        print(f"hands per second: {hands / elapsed:.1f} hands/s")
        print(f"balancing step p50: {ms(runner.steps, 0.50):.2f} ms")
        print(f"balancing step p99: {ms(runner.steps, 0.99):.2f} ms")
        print(f"balancing plan p99: {ms(runner.plans, 0.99):.2f} ms")
        print(f"balancing moves: {len(runner.history)} moves")
        print(f"store size at the end: {_size(path) / 1e6:.2f} MB")
        # 2. The cash tables alone.
        store, service = await _service(Path(tmp) / "cash.sqlite3")
        tables = await setup(service, args.tables, "c")
        done = asyncio.Event()
        asyncio.get_running_loop().call_later(args.seconds, done.set)
        alone = await run_rate(tables, args.rate, until=done)
        await store.close()
        print(f"cash action p99 without the tournament: {ms(alone, 0.99):.2f} ms")
        # 3. The cash tables beside a tournament on the same service and store.
        store, service = await _service(Path(tmp) / "beside.sqlite3")
        tables = await setup(service, args.tables, "c")
        done = asyncio.Event()
        cash = asyncio.create_task(run_rate(tables, args.rate, until=done))
        began = time.perf_counter()
        runner, hands, _ = await _tournament(service, args.players, args.seed + 1)
        elapsed = time.perf_counter() - began
        done.set()
        beside = await cash
        await store.close()
        print(f"cash action p99 beside the tournament: {ms(beside, 0.99):.2f} ms")
        print(f"cash actions beside the tournament: {len(beside)} actions")
        print(f"hands per second beside the cash tables: {hands / elapsed:.1f} hands/s")
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench tournament", description=__doc__)
    ap.add_argument("--players", type=int, default=180)
    ap.add_argument("--tables", type=int, default=50, help="cash tables")
    ap.add_argument("--rate", type=float, default=25.0, help="cash actions per second")
    ap.add_argument("--seconds", type=float, default=20.0, help="the cash tables alone")
    ap.add_argument("--seed", type=int, default=1)
    return asyncio.run(amain(ap.parse_args(argv)))
