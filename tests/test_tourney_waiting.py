"""A scheduled tournament whose start time found too few players (R-19.65, R-19.68,
R-19.69): its waiting for the host is kept in the store, so a restarted driver shows it
as waiting, does not start it by the clock or say the notice again, and the host's
start still starts it; a start time passed while the dealer was down starts it at the
restart if enough registered, else it waits the same way."""

from __future__ import annotations

import random
from pathlib import Path

from bot.table.clocks import ManualTime
from bot.table.ports import NullPresenter, StorePort, open_store
from bot.table.service import TableService
from bot.tournament.structure import Config, preset
from bot.tourney_run import waiting
from bot.tourney_run.driver import Driver, Opened
from tests.test_tourney_driver import Hooks

START = 1_700_000_000.0
TOO_FEW = "tournament.refuse.too_few"


def _config() -> Config:
    return Config(format="scheduled", stack=400, schedule=preset("turbo", 400, unit="hands"))


async def _boot(path: Path, time: ManualTime) -> tuple[StorePort, Driver, Hooks]:
    store = await open_store(str(path))
    service = TableService(store, NullPresenter(), time, seed="waiting")
    await service.recover()
    hooks = Hooks()
    driver = Driver(service, hooks, rng=lambda t: random.Random(7))
    hooks.driver = driver
    return store, driver, hooks


async def test_R_19_68_a_scheduled_start_waiting_for_its_host_is_kept_across_a_restart(
    tmp_path: Path,
) -> None:
    """R-19.65, R-19.68: at its time with one player it says so once and waits; after a
    restart it is still waiting (the status says so), the clock does not try again and
    nothing is said again, a second registration does not start it, and the host's
    start does."""
    db, time = tmp_path / "w.sqlite3", ManualTime(START)
    store, driver, hooks = await _boot(db, time)
    await driver.create(Opened("s1", place=5, host="h", starts_at=START + 60), _config())
    assert (await driver.register("s1", "a", "A")).ok
    await driver.step("s1")
    assert not driver.waiting_for_host("s1") and TOO_FEW not in hooks.keys  # not yet
    time.advance(61)
    await driver.step("s1")
    assert driver.runners["s1"].st.status == "registering"
    assert hooks.keys.count(TOO_FEW) == 1 and driver.waiting_for_host("s1")
    await driver.step("s1")
    assert hooks.keys.count(TOO_FEW) == 1
    await store.close()

    time.advance(600)
    store, driver2, hooks2 = await _boot(db, time)
    assert await driver2.recover() == ["s1"]
    assert driver2.waiting_for_host("s1")
    assert driver2.opened["s1"] == Opened("s1", place=5, host="h")  # no start time left
    await driver2.step("s1")
    assert (await driver2.register("s1", "b", "B")).ok
    await driver2.step("s1")
    assert driver2.runners["s1"].st.status == "registering"  # only its host starts it
    assert TOO_FEW not in hooks2.keys  # not said again
    assert (await driver2.start("s1")).ok
    assert driver2.runners["s1"].st.status == "running"
    assert not driver2.waiting_for_host("s1")
    await store.close()


async def test_R_19_69_a_start_time_passed_while_the_dealer_was_down_starts_it_if_enough(
    tmp_path: Path,
) -> None:
    """R-19.69: the dealer was down at the start time; at the restart a tournament with
    enough players starts at once, one with too few says so once and waits for its host."""
    db, time = tmp_path / "down.sqlite3", ManualTime(START)
    store, driver, _ = await _boot(db, time)
    await driver.create(Opened("full", starts_at=START + 60), _config())
    await driver.create(Opened("thin", starts_at=START + 60), _config())
    for player in ("a", "b", "c"):
        assert (await driver.register("full", player, player.upper())).ok
    assert (await driver.register("thin", "a", "A")).ok
    await store.close()  # down before the start time

    time.advance(3600)
    store, driver2, hooks2 = await _boot(db, time)
    assert sorted(await driver2.recover()) == ["full", "thin"]
    await driver2.step("full")
    await driver2.step("thin")
    assert driver2.runners["full"].st.status == "running"
    assert driver2.runners["thin"].st.status == "registering"
    assert driver2.waiting_for_host("thin") and not driver2.waiting_for_host("full")
    assert hooks2.keys.count(TOO_FEW) == 1
    assert await waiting.waiting(driver2.runners["thin"].journal)
    assert not await waiting.waiting(driver2.runners["full"].journal)
    await store.close()
