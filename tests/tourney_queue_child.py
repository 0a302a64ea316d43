"""A process playing a tournament in which players ask for rebuys during their hands,
until it is killed (tests/test_tourney_queue.py's SIGKILL test): ``python -m
tests.tourney_queue_child PATH N`` creates it, or recovers it from the file, and plays
on with keys unique to this process (``N``)."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from tests.test_tourney_control import World
from tests.test_tourney_queue import play_asking, quick


async def main(path: Path, n: int) -> None:
    world = World(path, quick(), seed=n)
    if path.exists():
        await world.recover()
    else:
        await world.start(12)
    print("ready", flush=True)
    rng = random.Random(n)
    i = 0
    while world.runner.st.status == "running":
        await play_asking(world, rng, f"{n}:{i}")
        i += 1
        print("step", flush=True)  # the parent kills after a number of these
    await world.store.close()
    print("finished", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
