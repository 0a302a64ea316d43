"""A process playing a tournament with pauses, rebuys, add-ons and a chip race until it
is killed (tests/test_tourney_control.py's SIGKILL test): ``python -m
tests.tourney_control_child PATH N`` creates it, or recovers it from the file, and plays
on with keys unique to this process (``N``)."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from tests.test_tourney_control import World, controlled, random_command, random_play


async def main(path: Path, n: int) -> None:
    world = World(path, controlled(), seed=n)
    if path.exists():
        await world.recover()
    else:
        await world.start(18)
    print("ready", flush=True)
    rng = random.Random(n)
    i = 0
    while world.runner.st.status == "running":
        await random_play(world, world.rng, random_command(world, rng, f"{n}:{i}"))
        i += 1
        print("step", flush=True)  # the parent kills after a number of these
    await world.store.close()
    print("finished", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
