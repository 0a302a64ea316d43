"""A tournament survives the service being dropped at any point: between the two
commands of a move, mid-hand, right after a level change, right after a deal, and at
random steps. Each time a new service recovers the tables from the SQLite file and the
runner its journal; levels, seats, moves and hands resume and nothing is applied twice."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bot.table.moves import Balance, balance
from bot.table.ports import NullPresenter, StorePort, open_store
from bot.table.recovery import load
from bot.table.service import TableService
from bot.table.table import Table
from bot.tournament.log import HandFinished, HandStarted
from bot.tournament.structure import Break
from bot.tourney_run.robots import step
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id, table_level
from tests.killing import kill_after_steps
from tests.test_tourney_run import _started
from tests.tourney_watch import Watch


class Crash(Exception):
    """The process dies here."""


class Faults:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.armed: set[str] = set()
        self.hit: Counter[str] = Counter()

    def check(self, where: str) -> None:
        if where in self.armed:
            self.armed.discard(where)
            self.hit[where] += 1
            raise Crash(where)


async def _boot(path: str, seed: int, faults: Faults) -> tuple[StorePort, Runner]:
    store = await open_store(path)
    service = TableService(store, NullPresenter(), seed=f"deal{seed}")
    await service.recover()
    runner = Runner(service, "weekly", rng=random.Random(seed))
    runner.checkpoint = faults.check  # type: ignore[method-assign]
    try:
        assert await runner.load()
    except Crash:
        await store.close()
        raise
    return store, runner


async def _moves(runner: Runner) -> Balance:
    """The moves checked over every table the tournament had, the closed ones (R-19.52,
    no longer the service's) read from the store; every broken table closed, and the
    final one once the tournament is over."""
    state = runner.st
    numbers = set(state.table_hands) | {t for t, _ in state.seats.values()}
    tables = {}
    for n in sorted(numbers):
        tid = table_id(runner.tournament, n)
        table = runner.service.get(tid)
        tables[tid] = table.state if table is not None else await load(runner.service.store, tid)
        over = state.status == "finished"  # the final table closed too
        assert tables[tid].closed == (n in state.broken or over), tid
    recorded, _ = await runner.mover.recorded()
    return balance(tables, recorded)


async def _assert_played_once_and_exact(runner: Runner) -> None:
    """Nothing twice: each hand heard of once, each move out once and in once; chips,
    places and prizes exact (R-2.5, R-19.80)."""
    state = runner.st
    assert state.status == "finished"
    records = await runner.journal.records()
    started = Counter((r.table, r.hand) for r in records if isinstance(r, HandStarted))
    finished = Counter((r.table, r.hand) for r in records if isinstance(r, HandFinished))
    assert max(started.values()) == 1 and max(finished.values()) == 1
    assert set(started) == set(finished)
    moves = await _moves(runner)
    odd = [(what, t) for what, t in moves.problems if what != "unknown" or ":move:" in t]
    assert odd == [] and moves.in_flight == 0
    recorded, done = await runner.mover.recorded()
    assert len(recorded) == len(runner.history) == len(done)
    runner.check_chips()
    assert runner.chips_at_tables() == runner.taken_at_end == 27 * 1000
    assert len(state.finishes) == 27
    assert sum(f.prize for f in state.finishes) == state.pool


def _resumed(
    runner: Runner, before: dict[str, tuple[int, bool]], seated: dict[str, dict[int, str]]
) -> None:
    """What a recovery must give back: the chips, each table's level for its next deal,
    every entry in the seat the director gave him, the hands where they were."""
    state = runner.st
    if not state.playing:
        runner.check_chips()
    assert runner.chips_at_tables() == state.chips
    if state.status == "finished":  # the final table closed, the winner's chips off it
        assert runner.ports == {} and runner.taken_at_end == state.chips
        return
    item = state.config.schedule.item(state.level)
    assert not isinstance(item, Break)
    for port in runner.ports.values():
        tid = port.table.table_id
        assert runner.stakes.level(tid) == table_level(item, state.config.schedule.forced)
        hand_no, in_hand = before.get(tid, (0, False))
        now = {n: s.user_id for n, s in port.table.state.seats.items()}
        was = seated.get(tid, {})
        kept = {n: u for n, u in now.items() if u in was.values()}
        assert kept == {n: u for n, u in was.items() if u in now.values()}, (
            f"{tid}: seats {now}, before the crash {was}"
        )
        assert port.table.state.hand_no >= hand_no
        if in_hand:
            assert port.table.state.hand_no == hand_no and port.table.state.in_hand
    where = {
        s.user_id: (n, s.number)
        for n, p in runner.ports.items()
        for s in p.table.state.seats.values()
    }
    for entry, seat in state.seats.items():
        assert where[entry] == seat, f"{entry} at {where.get(entry)}, the director says {seat}"


@pytest.mark.parametrize("seed", [3, 8])
async def test_R_19_2_a_tournament_dropped_at_random_points_resumes(
    store_url: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-19.2, R-19.20, R-19.52, R-2.5: dropped between the two commands of a move,
    mid-hand, after a level change, after a deal, before a broken table is closed and at
    random steps, recovered from the store (a SQLite file, or a PostgreSQL database)."""
    path = store_url
    rng = random.Random(seed)
    faults = Faults(rng)
    real_move_in = Table.move_in

    async def move_in(self: Table, *args: Any, **kwargs: Any) -> Any:
        key = kwargs.get("key") or ""
        if ":move:" in key:
            faults.check("move")
        return await real_move_in(self, *args, **kwargs)

    monkeypatch.setattr(Table, "move_in", move_in)
    store, runner = await _started(path, seed)
    runner.checkpoint = faults.check  # type: ignore[method-assign]
    watch = Watch(runner)
    crashes = 0
    until = rng.randrange(20, 150)
    for n in range(200_000):
        if runner.st.status != "running":
            break
        if n == until:
            faults.armed |= {"move", "level", "dealt", "close"}
        try:
            if n == until + 10 and any(not p.between_hands() for p in runner.ports.values()):
                faults.hit["mid_hand"] += 1
                raise Crash("mid_hand")
            await step(runner, rng, watch.after, watch.dealt)
        except Crash:
            crashes += 1
            before = {
                p.table.table_id: (p.table.state.hand_no, p.table.state.in_hand)
                for p in runner.ports.values()
            }
            seated = {
                p.table.table_id: {k: s.user_id for k, s in p.table.state.seats.items()}
                for p in runner.ports.values()
            }
            vacated = {t: list(v) for t, v in runner.vacated.items()}
            await store.close()
            while True:  # a fault still armed may stop the recovery itself: again
                try:
                    store, runner = await _boot(path, seed + crashes, faults)
                    break
                except Crash:
                    crashes += 1
            _resumed(runner, before, seated)
            for t, seats in vacated.items():  # seats emptied, known again from the journal
                assert runner.vacated[t][: len(seats)] == seats
            watch.runner = runner
            until = n + rng.randrange(20, 150)
    assert {"move", "level", "dealt", "mid_hand", "close"} <= set(faults.hit), faults.hit
    assert crashes >= 8
    await _assert_played_once_and_exact(runner)
    await store.close()


async def test_R_19_2_a_tournament_process_killed_with_sigkill_resumes(store_url: str) -> None:
    """R-19.2, R-2.5: the process playing the tournament is killed (SIGKILL) at random
    moments, restarted from the store each time (a SQLite file, or a PostgreSQL
    database), and finally played to the end here: every hand heard of once, every move
    out once and in once, chips and places exact."""
    path = store_url
    rng = random.Random(11)
    kills = await kill_after_steps("tests.tourney_child", [path], 5, 120, rng)
    assert kills >= 3
    faults = Faults(rng)
    store, runner = await _boot(path, 99, faults)
    assert runner.st.hands_in_level or runner.st.level, "the killed processes played hands"
    rng2 = random.Random(5)
    while runner.st.status == "running":
        await step(runner, rng2)
    await _assert_played_once_and_exact(runner)
    await store.close()
