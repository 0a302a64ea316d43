"""Kill a child process that plays, at random points: ``python -m MODULE ARGS... N``
prints ``ready`` once it has loaded, then ``step`` after each thing it does; it is
killed with SIGKILL after a random number of steps (not of seconds: a loaded machine
plays fewer steps a second, and a kill counted in seconds may come after the end)."""

from __future__ import annotations

import asyncio
import random
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


async def kill_after_steps(
    module: str, args: list[str], runs: int, most: int, rng: random.Random
) -> int:
    """Start ``module`` ``runs`` times in turn (its last argument the run's number),
    each killed after 5 to ``most`` steps unless it ends first; the number killed."""
    kills = 0
    for n in range(runs):
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", module, *args, str(n), cwd=ROOT, stdout=asyncio.subprocess.PIPE
        )
        assert child.stdout is not None
        assert (await asyncio.wait_for(child.stdout.readline(), 60)).strip() == b"ready"
        steps = rng.randrange(5, most)
        while steps and (await asyncio.wait_for(child.stdout.readline(), 60)).strip() == b"step":
            steps -= 1
        if not steps:
            child.send_signal(signal.SIGKILL)
            kills += 1
        await child.wait()
    return kills
