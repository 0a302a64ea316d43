"""A process playing a tournament with robots until it is killed (tests/
test_tourney_crash.py's SIGKILL test): ``python -m tests.tourney_child STORE SEED``
creates the 27-player freezeout in the store (a SQLite path or a PostgreSQL URL), or
recovers it from there, and plays on. ``python -m tests.tourney_child STORE rebuys SEED``
plays it with rebuys (robots busted meanwhile wait, then rebuy or decline, R-19.48)."""

from __future__ import annotations

import asyncio
import random
import sys

from bot.table.ports import NullPresenter, open_store
from bot.table.service import TableService
from bot.tournament.structure import Entries
from bot.tourney_run.robots import step
from bot.tourney_run.runner import Runner
from tests.test_tourney_run import _started

REBUYS = Entries(rebuys=2, rebuy_until=3)


async def main(path: str, seed: int, entries: Entries | None = None) -> None:
    store = await open_store(path)
    service = TableService(store, NullPresenter(), seed=f"deal{seed}")
    await service.recover()
    runner = Runner(service, "weekly", rng=random.Random(seed))
    if not await runner.load():  # the first process: nothing in the store yet
        await store.close()
        store, runner = await _started(path, seed, *([entries] if entries else []))
    print("ready", flush=True)
    rng = random.Random(seed)
    while runner.st.status == "running":
        await step(runner, rng)
        print("step", flush=True)  # the parent kills after a number of these
    await store.close()
    print("finished", flush=True)


if __name__ == "__main__":
    if sys.argv[2:3] == ["rebuys"]:
        asyncio.run(main(sys.argv[1], int(sys.argv[3]), REBUYS))
    else:
        asyncio.run(main(sys.argv[1], int(sys.argv[2])))
