"""A process playing a tournament with robots on a SQLite file until it is killed
(tests/test_tourney_crash.py's SIGKILL test): ``python -m tests.tourney_child PATH SEED``
creates the 27-player freezeout, or recovers it from the file, and plays on."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from bot.table.ports import NullPresenter, open_store
from bot.table.service import TableService
from bot.tourney_run.robots import step
from bot.tourney_run.runner import Runner
from tests.test_tourney_run import _started


async def main(path: Path, seed: int) -> None:
    if path.exists():
        store = await open_store(str(path))
        service = TableService(store, NullPresenter(), seed=f"deal{seed}")
        await service.recover()
        runner = Runner(service, "weekly", rng=random.Random(seed))
        assert await runner.load()
    else:
        store, runner = await _started(path, seed)
    print("ready", flush=True)
    rng = random.Random(seed)
    while runner.st.status == "running":
        await step(runner, rng)
    await store.close()
    print("finished", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
