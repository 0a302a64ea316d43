"""The final table closed once the tournament is over (R-19.80): after the winner is
known and the prizes are recorded, the winner stands up with every chip as a transfer
(never a cash-out), the table is closed, and a restart neither opens it again nor
takes anything twice; a crash between the stand-up and the close is finished at the
restart."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.table.ports import NullPresenter, StorePort, open_store
from bot.table.service import TableService
from bot.tournament.structure import Config, preset
from bot.tourney_run import closing
from bot.tourney_run.robots import play
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id

PLAYERS = 6
STACK = 1000


async def _boot(path: Path, seed: int) -> tuple[StorePort, Runner]:
    store = await open_store(str(path))
    service = TableService(store, NullPresenter(), seed=f"end{seed}")
    await service.recover()
    return store, Runner(service, "end", rng=random.Random(seed))


async def _started(path: Path) -> tuple[StorePort, Runner]:
    store, runner = await _boot(path, 1)
    config = Config(stack=STACK, schedule=preset("turbo", STACK, unit="hands"), seats=6)
    await runner.create(config)
    for n in range(PLAYERS):
        await runner.register(f"p{n}", f"Player {n}")
    assert (await runner.start()).ok and sorted(runner.ports) == [1]
    return store, runner


async def _stood_at_end(store: StorePort) -> list[tuple[int, str]]:
    rows = await store.events(table_id("end", 1))
    prefix = closing.end_key("end", "")
    return [
        (int(r.payload["amount"]), str(r.payload["transfer"]))
        for r in rows
        if r.kind == "stood" and str(r.payload.get("transfer")).startswith(prefix)
    ]


async def _closed_for_good(store: StorePort, runner: Runner) -> None:
    state = runner.st
    assert state.status == "finished" and state.winner is not None
    tid = table_id("end", 1)
    rows = await store.events(tid)
    kinds = [r.kind for r in rows]
    assert kinds.count("closed") == 1 and kinds[-1] == "closed", kinds[-4:]
    # The winner left with every chip in play, once, as a transfer.
    assert await _stood_at_end(store) == [(PLAYERS * STACK, closing.end_key("end", state.winner))]
    assert await store.ledger_rows(tid) == [], "tournament chips entered the cash ledger"
    assert runner.ports == {}
    # every chip accounted for, at the tables to the end and then with the winner.
    runner.check_chips()
    assert runner.chips_at_tables() == runner.taken_at_end  # no open table holds any
    assert runner.taken_at_end == PLAYERS * STACK == state.chips == state.stacks[state.winner]
    table = runner.service.get(tid)
    assert table is None or (table.state.closed and not table.state.seats)


async def test_R_19_80_the_final_table_closes_once_the_winner_is_known(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "end.sqlite3"
    store, runner = await _started(path)
    order: list[str] = []
    payouts, close_final = runner._record_payouts, closing.close_final

    async def record_payouts() -> None:
        order.append("payouts")
        await payouts()

    async def closed(*args: object) -> int:
        order.append("close")
        return await close_final(*args)  # type: ignore[arg-type]  # the same arguments

    monkeypatch.setattr(runner, "_record_payouts", record_payouts)
    monkeypatch.setattr(closing, "close_final", closed)
    await play(runner, random.Random(1))
    assert order == ["payouts", "close"], "the table closes after the prizes are recorded"
    assert len(await runner.journal.payouts()) == PLAYERS
    await _closed_for_good(store, runner)
    count = len(await store.events(table_id("end", 1)))
    monkeypatch.undo()
    # A restart: the table is not opened again and nothing is done twice.
    await store.close()
    store, runner = await _boot(path, 2)
    assert runner.service.get(table_id("end", 1)) is None
    assert await runner.load()
    assert runner.service.get(table_id("end", 1)) is None
    await _closed_for_good(store, runner)
    assert len(await store.events(table_id("end", 1))) == count
    await store.close()


class Crash(Exception):
    """The process stops here."""


async def test_R_19_80_a_crash_before_the_close_is_finished_at_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "crash.sqlite3"
    store, runner = await _started(path)

    async def crash(port: object, tournament: str) -> None:
        raise Crash

    monkeypatch.setattr(closing, "close", crash)
    with pytest.raises(Crash):
        await play(runner, random.Random(3))
    monkeypatch.undo()
    assert runner.st.status == "finished"
    table = runner.service.get(table_id("end", 1))
    assert table is not None and not table.state.closed and not table.state.seats
    assert len(await _stood_at_end(store)) == 1, "the winner stood up before the crash"
    await store.close()
    store, runner = await _boot(path, 4)
    assert runner.service.get(table_id("end", 1)) is not None  # still open: loaded
    assert await runner.load()
    await _closed_for_good(store, runner)
    await store.close()
