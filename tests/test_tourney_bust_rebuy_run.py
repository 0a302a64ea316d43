"""A busted player's rebuy wait (R-19.47 to R-19.49) carried out by the runner at real
tables of the service (SQLite file): the seat freed, the rebuy seating him again, a
decline, the wait running out by the clock, and each after the service is dropped."""

from __future__ import annotations

import random
from pathlib import Path

from bot.table.ports import NullPresenter, open_store
from bot.table.service import TableService
from bot.tournament.director import Decision
from bot.tournament.log import Out, Returned, Waiting
from bot.tournament.structure import Config, Entries, preset
from bot.tourney_run.robots import step
from bot.tourney_run.runner import Runner
from tests.killing import kill_after_steps
from tests.test_tourney_control import START, World, crashing

REBUYS = Entries(rebuys=1, rebuy_until=20, rebuy_wait=60)


def _config() -> Config:
    return Config(
        buy_in=100,
        fee=10,
        stack=1000,
        schedule=preset("turbo", 1000, unit="hands"),
        seats=9,
        entries=REBUYS,
    )


async def _to_a_wait(world: World, players: int) -> tuple[Runner, Waiting]:
    """Robots play (none answers a rebuy) until one busts and waits (the first of
    those who do)."""
    runner = await world.start(players)
    for _ in range(20_000):
        if runner.st.waiting:
            return runner, runner.st.waiting[min(runner.st.waiting)]
        playing = [n for n, p in sorted(runner.ports.items()) if not p.between_hands()]
        if playing:
            await world.finish_hand(playing[0])
        else:
            ready = runner.ready()
            assert ready, "no table may deal and nobody waits"
            assert await runner.deal(ready[0])
    raise AssertionError("nobody busted")


def _player(runner: Runner, entry: str) -> str:
    found = runner.st.entry(entry)
    assert found is not None
    return found.player


async def test_R_19_47_a_restart_keeps_the_wait_and_a_rebuy_cut_short_seats_him_once(
    tmp_path: Path,
) -> None:
    world = World(tmp_path / "wait.sqlite3", _config(), seed=4)
    runner, wait = await _to_a_wait(world, 4)
    player = _player(runner, wait.entry)
    table = runner.table(wait.table)
    assert table.state.seat_of(player) is None  # stood up: his seat is free
    assert wait.until == world.time.now() + 60 and wait.until > START
    runner.check_chips()
    runner = await world.reboot()
    assert runner.st.waiting[wait.entry] == wait  # the deadline too
    assert runner.waiting_entry(player) == wait
    chips, pool = runner.st.chips, runner.st.pool
    with crashing(world, "chips"):  # journaled, not yet carried out at the table
        await runner.rebuy(player, key="r1")
    for _ in range(2):
        runner = await world.reboot()
        number, seat = runner.st.seats[wait.entry]
        sat = runner.table(number).state.seats.get(seat)
        assert sat is not None and sat.user_id == player and sat.stack == 1000
        assert runner.st.chips == chips + 1000 and runner.st.pool == pool + 100
        runner.check_chips()
        assert await runner.rebuy(player, key="r1") == Decision()
    records = await runner.journal.records()
    assert sum(1 for r in records if isinstance(r, Returned)) == 1
    await world.play(200)  # he plays on; the chips stay put
    runner.check_chips()
    await world.store.close()


async def test_R_19_48_a_decline_stands_him_out_and_places_him(tmp_path: Path) -> None:
    world = World(tmp_path / "decline.sqlite3", _config(), seed=6)
    runner, wait = await _to_a_wait(world, 4)
    player = _player(runner, wait.entry)
    done = await runner.decline(player, key="d1")
    assert done.ok and wait.entry not in runner.st.waiting
    assert {f.entry: (f.first, f.last) for f in runner.st.finishes}[wait.entry] == (4, 4)
    assert await runner.decline(player, key="d1") == Decision()  # the same click again
    again = await runner.decline(player, key="d2")
    assert again.refusal is not None and again.refusal.key == "tournament.refuse.not_waiting"
    late = await runner.rebuy(player, key="r")
    assert late.refusal is not None
    runner.check_chips()
    await world.store.close()


async def test_R_19_49_heads_up_nothing_deals_until_the_wait_runs_out(tmp_path: Path) -> None:
    world = World(tmp_path / "clock.sqlite3", _config(), seed=2)
    runner, wait = await _to_a_wait(world, 2)
    assert runner.ready() == [] and runner.st.status == "running"  # no deal, no winner
    world.time.set(wait.until - 1)
    await runner.tick()
    assert runner.st.waiting and runner.st.status == "running"
    runner = await world.reboot()
    world.time.set(wait.until)
    await runner.tick()
    state = runner.st
    assert state.status == "finished" and state.winner is not None
    assert {f.entry: f.first for f in state.finishes}[wait.entry] == 2
    assert runner.ports == {} and runner.taken_at_end == state.chips
    await world.store.close()


async def test_R_19_47_a_rebuy_tournament_killed_with_sigkill_resumes(tmp_path: Path) -> None:
    """R-19.47, R-19.48, R-2.5: the 27-player freezeout with rebuys, its process killed
    (SIGKILL) at random moments and restarted from the file, then played to the end
    here: every wait ended once (a rebuy seating him again, or out), chips and places
    exact."""
    path = str(tmp_path / "kill.sqlite3")
    rng = random.Random(13)
    kills = await kill_after_steps("tests.tourney_child", [path, "rebuys"], 4, 150, rng)
    assert kills >= 2
    store = await open_store(path)
    service = TableService(store, NullPresenter(), seed="deal99")
    await service.recover()
    runner = Runner(service, "weekly", rng=random.Random(99))
    assert await runner.load()
    play = random.Random(5)
    while runner.st.status == "running":
        await step(runner, play)
    records = await runner.journal.records()
    waiting: set[str] = set()
    for record in records:
        if isinstance(record, Waiting):
            assert record.entry not in waiting
            waiting.add(record.entry)
        elif isinstance(record, Returned):
            waiting.remove(record.entry)
        elif isinstance(record, Out):
            waiting.discard(record.entry)
    assert not waiting and any(isinstance(r, Waiting) for r in records)
    state = runner.st
    assert len(state.entries) == 27 and len(state.finishes) == 27
    assert sum(f.prize for f in state.finishes) == state.pool
    assert state.chips == (27 + sum(state.rebuys.values())) * 1000
    runner.check_chips()
    assert runner.chips_at_tables() == runner.taken_at_end == state.chips
    await store.close()
