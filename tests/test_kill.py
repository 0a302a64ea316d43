"""Kill test (invariants 1 and 4): a local table played by scripted players is killed
with SIGKILL at random moments; after every kill it restarts on the same database (a
SQLite file, and again a PostgreSQL database: the test runs on both back ends),
must resume exactly where the log says it was, and must conserve every chip (R-2.5).

The table plays a rotation of games (hold'em, triple draw with its discards and
reshuffles, stud hi-lo, pot-limit Omaha hi-lo, short deck, badugi), so kills land in
draw phases, bring-ins and split pots as well as in hold'em betting.

At least 50 kills across at least 200 hands, each run killed after a random number of
the table's steps (not seconds: a loaded machine plays fewer steps a second).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.local.terminal import TABLE_ID
from bot.table.ports import open_store
from bot.table.recovery import ledger_error, load
from bot.table.state import state_digest

KILLS = int(os.environ.get("CHIPFIST_KILLS", "50"))
MIN_HANDS = 200
STEPS = 80
"""A run is killed after 1 to STEPS robot steps: about four hands on average, so
KILLS kills play MIN_HANDS hands."""
ROOT = Path(__file__).resolve().parents[1]
ROTATION = "holdem,27triple:fixed,stud8:fixed,omaha8:pot_limit,shortdeck,badugi:fixed"


async def _from_log(path: str) -> tuple[str | None, int, str | None]:
    """(digest, hand number, conservation error) of the table as its log rebuilds it."""
    store = await open_store(path)
    try:
        if TABLE_ID not in await store.open_tables():
            return None, 0, None
        state = await load(store, TABLE_ID)
        error = state.conservation_error() or await ledger_error(store, state)
        # The newest snapshot plus the log's tail must equal folding the whole log.
        whole = await load(store, TABLE_ID, use_snapshot=False)
        assert state_digest(whole) == state_digest(state), "snapshot recovery differs"
        return state_digest(state), state.hand_no, error
    finally:
        await store.close()


def _start(path: str, seed: int) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "bot", "--local", "--db", path, "--robots", "100000"]
    # Not --quiet: a ``state:`` line after each robot's step, counted to time the kill.
    cmd += ["--seed", str(seed), "--snapshot-every", "7", "a", "b", "c", "d"]
    cmd += ["--game", ROTATION]
    env = {**os.environ, "DISCORD_TOKEN": ""}
    return subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _steps(proc: subprocess.Popen[str], steps: int) -> None:
    """Read the child's output until it has made ``steps`` robot steps."""
    assert proc.stdout is not None
    while steps:
        line = proc.stdout.readline()
        assert line, f"the table stopped playing: {proc.stderr.read() if proc.stderr else ''}"
        steps -= line.startswith("state: ")


def test_kill_restart_resumes_and_conserves(store_url: str) -> None:
    path = store_url
    rng = random.Random(int(os.environ.get("CHIPFIST_KILL_SEED", "0")) or None)
    kills = 0
    resumed_checks = 0
    hands = 0
    began = time.monotonic()
    while kills < KILLS or hands < MIN_HANDS:
        expected, hands, error = asyncio.run(_from_log(path))
        assert error is None, error
        proc = _start(path, rng.randrange(1 << 30))
        assert proc.stdout is not None
        if rng.random() < 0.1:
            # Sometimes kill it while it is still starting up or recovering.
            time.sleep(rng.uniform(0.0, 0.3))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
            if proc.stderr is not None:
                proc.stderr.close()
            kills += 1
            continue
        first = proc.stdout.readline().strip()
        if expected is not None:
            # The first line of a restarted table is its rebuilt state.
            assert first.startswith("resumed: "), (first, proc.stderr.read() if proc.stderr else "")
            assert first.split()[1] == expected, "the table did not resume where the log was"
            resumed_checks += 1
        # Let it play a random number of steps (not seconds: a loaded machine plays
        # fewer a second), then kill it while it plays on (often mid-hand).
        _steps(proc, rng.randrange(1, STEPS))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        if proc.stderr is not None:
            proc.stderr.close()
        kills += 1
        # Progress, not speed: a loaded machine plays fewer hands between kills, so it
        # takes more kills; a table that stopped moving takes them all.
        assert kills < 4 * KILLS, f"no progress: {kills} kills, {hands} hands"
        assert time.monotonic() - began < 600, f"too slow: {kills} kills, {hands} hands"
    _, hands, error = asyncio.run(_from_log(path))
    assert error is None, error
    print(f"kill test: {kills} kills, {hands} hands, {time.monotonic() - began:.1f} s")
    assert kills >= KILLS and hands >= MIN_HANDS
    assert resumed_checks >= kills // 2
