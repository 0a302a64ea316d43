"""The driver (bot/tourney_run/driver.py) with no platform: it places each table before
its first deal, deals what the runner allows, tells the runner of every finished hand
while robots act at the tables, tells the end once, and after the service is dropped
a new driver recovers the tournament from the store and plays it to its end."""

from __future__ import annotations

import random
from pathlib import Path

from bot.poker.messages import Msg
from bot.table.ports import NullPresenter, StorePort, open_store
from bot.table.service import TableService
from bot.tournament.structure import Config, preset
from bot.tourney_run.driver import Driver, Opened
from bot.tourney_run.robots import act


class Hooks:
    """Records what the driver told the platform."""

    def __init__(self) -> None:
        self.driver: Driver | None = None
        self.placed: dict[str, int] = {}
        """Table -> its hand number when it was placed."""
        self.keys: list[str] = []
        self.changes = 0
        self.ends = 0
        self.moves: list[tuple[str, str]] = []

    async def place(self, tournament: str, table_id: str) -> None:
        assert self.driver is not None
        runner = self.driver.runners[tournament]
        number = int(table_id.rsplit(":", 1)[1])
        self.placed.setdefault(table_id, runner.table(number).state.hand_no)

    async def said(self, tournament: str, message: Msg) -> None:
        self.keys.append(message.key)

    async def changed(self, tournament: str) -> None:
        self.changes += 1

    async def finished(self, tournament: str) -> None:
        self.ends += 1

    async def moved(self, tournament: str, entry: str, table_id: str) -> None:
        self.moves.append((entry, table_id))


def _config() -> Config:
    return Config(
        format="sit_and_go",
        max_players=12,
        seats=6,
        stack=400,
        schedule=preset("turbo", 400, unit="hands"),
    )


async def _boot(path: Path) -> tuple[StorePort, Driver, Hooks]:
    store = await open_store(str(path))
    service = TableService(store, NullPresenter(), seed="driver")
    await service.recover()
    hooks = Hooks()
    driver = Driver(service, hooks, rng=lambda t: random.Random(7))
    hooks.driver = driver
    return store, driver, hooks


async def _play(driver: Driver, rng: random.Random, steps: int) -> None:
    """``steps`` passes: the driver's step, then a robot action at a table mid-hand."""
    runner = driver.runners["d1"]
    for _ in range(steps):
        if runner.st.status != "running":
            return
        await driver.step("d1")
        playing = [n for n, p in sorted(runner.ports.items()) if not p.between_hands()]
        if playing:
            await act(runner, rng.choice(playing), rng)
        async with driver.lock("d1"):
            runner.check_chips()  # between the driver's steps


async def test_r19_63_the_driver_places_deals_and_recovers_a_two_table_sit_and_go(
    tmp_path: Path,
) -> None:
    """R-19.63, R-19.61, R-2.5: the sit-and-go starts with its twelfth registration;
    every table is placed before its first deal; a new driver on the same store
    recovers it mid-way (R-19.65's index) and plays it to one winner, the end told
    once."""
    db = tmp_path / "driver.sqlite3"
    store, driver, hooks = await _boot(db)
    assert await driver.create(Opened("d1", place=42, host="h"), _config()) is not None
    assert await driver.create(Opened("d1"), _config()) is None  # its id is taken
    for n in range(12):
        assert (await driver.register("d1", f"u{n}", f"User {n}")).ok
    runner = driver.runners["d1"]
    assert runner.st.status == "running" and sorted(runner.ports) == [1, 2]
    await _play(driver, random.Random(1), 40)
    assert runner.st.status == "running", "cut mid-way"
    assert hooks.placed and set(hooks.placed.values()) == {0}, hooks.placed
    dealt = {p.table.table_id for p in runner.ports.values() if p.table.state.hand_no}
    assert dealt <= set(hooks.placed)
    await store.close()  # the process is gone: a new one starts on the same file

    store, driver2, hooks2 = await _boot(db)
    assert await driver2.recover() == ["d1"]
    assert driver2.opened["d1"] == Opened("d1", place=42, host="h")
    runner2 = driver2.runners["d1"]
    async with driver2.lock("d1"):
        runner2.check_chips()
    await _play(driver2, random.Random(2), 5000)
    await driver2.step("d1")
    await driver2.step("d1")
    assert runner2.st.status == "finished" and runner2.st.winner is not None
    assert hooks2.ends == 1  # told once, however many passes follow
    # Every move told once, none again after the restart, each to its new table.
    told = hooks.moves + hooks2.moves
    assert told == [(m.entry, f"tn:d1:{m.to_table}") for _, m in runner2.history] and told
    assert runner2.chips_at_tables() == 12 * 400 == runner2.st.chips
    await store.close()


async def test_r19_65_a_scheduled_start_waits_for_enough_players(tmp_path: Path) -> None:
    store, driver, hooks = await _boot(tmp_path / "s.sqlite3")
    now = driver.service.time.now()
    config = Config(format="scheduled", stack=400, schedule=preset("turbo", 400, unit="hands"))
    await driver.create(Opened("s1", starts_at=now - 1), config)
    await driver.register("s1", "a", "A")
    await driver.step("s1")
    assert driver.runners["s1"].st.status == "registering"
    assert hooks.keys[-1] == "tournament.refuse.too_few"
    assert driver.opened["s1"].starts_at == 0.0  # it waits for its host now
    await driver.register("s1", "b", "B")
    await driver.step("s1")
    assert driver.runners["s1"].st.status == "registering"  # no second automatic start
    assert (await driver.start("s1")).ok
    assert driver.runners["s1"].st.status == "running"
    await store.close()


class Clock:
    def __init__(self, now: float) -> None:
        self.t = now

    def now(self) -> float:
        return self.t


async def test_r19_63_a_table_shows_the_hand_s_end_before_the_next_deal(tmp_path: Path) -> None:
    """R-19.63, R-19.64: the dealer deals each hand as soon as the tournament allows
    it, but a table first shows the last hand's end for ``between`` seconds; the board
    is redrawn when something happened, or when its clock moved on."""
    store, driver, hooks = await _boot(tmp_path / "b.sqlite3")
    clock = Clock(driver.service.time.now())
    driver.service.time = clock
    driver.between = 3.0
    config = Config(format="sit_and_go", max_players=2, seats=2, stack=10_000)
    await driver.create(Opened("b1"), config)
    await driver.register("b1", "a", "A")
    await driver.register("b1", "b", "B")
    runner = driver.runners["b1"]
    await driver.step("b1")
    table = runner.table(1)
    assert table.state.in_hand and table.state.hand_no == 1
    rng = random.Random(3)
    while table.state.in_hand:
        await act(runner, 1, rng)
    await driver.step("b1")  # the end heard of; the table waits
    assert not table.state.in_hand and table.state.hand_no == 1
    clock.t += 2.9
    await driver.step("b1")
    assert not table.state.in_hand
    clock.t += 0.2
    await driver.step("b1")
    assert table.state.in_hand and table.state.hand_no == 2
    # Nothing happens mid-hand: the board is told again only once its clock moved on.
    told = hooks.changes
    await driver.step("b1")
    assert hooks.changes == told
    clock.t += driver.refresh
    await driver.step("b1")
    assert hooks.changes == told + 1
    await store.close()


async def test_r19_31_a_hand_over_before_the_director_hears_of_it_neither_deals_nor_moves(
    tmp_path: Path,
) -> None:
    """R-19.31, R-19.34: players act while the loop runs, so a table's hand can end
    between two of the driver's steps. Until the runner hears of it that table is still
    in the hand: it is not dealt again (its stacks would be read after the new blinds)
    and the balancing plan moves nobody from it (a busted player is not out yet)."""
    store, driver, _ = await _boot(tmp_path / "r.sqlite3")
    await driver.create(Opened("r1"), _config())
    for n in range(12):
        await driver.register("r1", f"u{n}", f"User {n}")
    runner = driver.runners["r1"]
    await driver.step("r1")
    table = runner.table(2)
    assert table.state.in_hand and 2 in runner.st.playing
    rng = random.Random(4)
    while table.state.in_hand:
        await act(runner, 2, rng)  # the hand ends; the driver has not stepped
    assert 2 in runner.st.playing and runner.ports[2].between_hands()
    assert 2 not in runner.ready()
    assert not runner._shape(runner.ports[2]).between_hands
    await driver.step("r1")  # now it hears of it, and deals it again
    assert 2 not in runner.st.playing or runner.table(2).state.hand_no == 2
    async with driver.lock("r1"):
        runner.check_chips()
    await store.close()
