"""Levels by the clock and breaks at real tables: a new level from each table's next
deal (a hand under way finishes at its level), a break pauses every table between
hands, and all of it survives a restart."""

from __future__ import annotations

import random
from pathlib import Path

from bot.table.clocks import ManualTime
from bot.table.ports import NullPresenter, open_store
from bot.table.service import TableService
from bot.tournament.structure import Break, Config, Level, Schedule
from bot.tourney_run.robots import act
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_level

SCHEDULE = Schedule(
    (Level(5, 10, 0, 0, 1), Break(1), Level(10, 20, 20, 0, 1), Level(20, 40, 40, 0, 1)),
    "minutes",
)


async def _boot(path: Path, time: ManualTime) -> Runner:
    store = await open_store(str(path))
    service = TableService(store, NullPresenter(), time, seed="levels")
    await service.recover()
    runner = Runner(service, "night", rng=random.Random(1))
    return runner


async def test_R_19_20_levels_by_minutes_and_a_break_at_the_tables(tmp_path: Path) -> None:
    """R-19.20: the level changes by the clock for every table at once, from each
    table's next deal; the break pauses every table once its hand is over; after a
    restart the tables are still paused and then deal at the next level."""
    path = tmp_path / "levels.sqlite3"
    time = ManualTime()
    runner = await _boot(path, time)
    await runner.create(Config(stack=1000, schedule=SCHEDULE, seats=9))
    for n in range(18):
        await runner.register(f"p{n}", f"Player {n}")
    assert (await runner.start()).ok
    rng = random.Random(2)
    assert runner.ready() == [1, 2]
    assert await runner.deal(1)
    first = runner.table(1).state.current
    assert first is not None and first.level == table_level(SCHEDULE.level(0), "blinds").pairs()
    time.advance(61)
    await runner.tick()  # the break: table 1 is mid-hand, table 2 between hands
    assert runner.st.level == 1
    assert runner.ready() == []
    assert runner.table(2).state.paused and runner.table(1).state.paused
    assert runner.table(1).state.in_hand, "a hand under way is played out"
    while not await act(runner, 1, rng):
        pass
    await runner.after_hand(1)
    assert runner.ready() == [] and not await runner.deal(2)
    # A restart during the break: still paused, still the break.
    await runner.service.store.close()
    runner = await _boot(path, time)
    assert await runner.load()
    assert runner.st.level == 1 and runner.ready() == []
    assert all(p.table.state.paused for p in runner.ports.values())
    time.advance(61)
    await runner.tick()
    assert runner.st.level == 2 and runner.ready() == [1, 2]
    assert not any(p.table.state.paused for p in runner.ports.values())
    assert await runner.deal(2)
    dealt = runner.table(2).state.current
    assert dealt is not None
    assert dealt.level == table_level(SCHEDULE.level(2), "blinds").pairs()
    assert dealt.level != first.level
    assert runner.chips_at_tables() == 18 * 1000
    await runner.service.store.close()
