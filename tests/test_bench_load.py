"""The cash-table load the benchmarks share (bench/_load.py) and ``python -m bench
tournament`` printing its figures, run small."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import pytest

from bench import tournament
from bench._load import ms, run_rate, setup
from bot.table.ports import NullPresenter, open_store
from bot.table.service import TableService


async def test_R_2_5_the_shared_load_plays_cash_tables_for_seconds_or_until_told(
    tmp_path: Path,
) -> None:
    store = await open_store(str(tmp_path / "load.sqlite3"))
    service = TableService(store, NullPresenter(), seed="load")
    tables = await setup(service, 3, "c")
    chips = sum(t.state.chips_on_table() for t in tables)
    assert chips == 3 * 4 * 200
    timed = await run_rate(tables, 40.0, seconds=0.5)
    assert 5 <= len(timed) <= 21 and all(v > 0 for v in timed)
    assert sum(t.state.hand_no for t in tables) > 0, "the load deals"
    done = asyncio.Event()
    asyncio.get_running_loop().call_later(0.3, done.set)
    more = await run_rate(tables, 40.0, until=done)
    assert 1 <= len(more) <= 14
    # the load's top-ups are the only chips it brings; none is lost.
    for t in tables:
        assert t.conservation_error() is None
    with pytest.raises(ValueError):
        await run_rate(tables, 40.0)
    with pytest.raises(ValueError):
        await run_rate(tables, 40.0, seconds=1.0, until=done)
    await store.close()


def test_the_percentile_in_milliseconds() -> None:
    values = [i / 1000 for i in range(1, 101)]
    assert ms(values, 0.5) == pytest.approx(51.0)
    assert ms(values, 0.99) == pytest.approx(100.0)
    assert ms([0.002], 0.99) == pytest.approx(2.0)


async def test_R_2_5_bench_tournament_prints_every_figure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(players=12, tables=2, rate=20.0, seconds=0.5, seed=3)
    assert await tournament.amain(args) == 0  # chips checked after every hand inside
    printed = dict(
        line.split(": ", 1) for line in capsys.readouterr().out.splitlines() if ": " in line
    )
    assert printed["players"] == "12 entrants"
    assert printed["tables at the start"] == "2 tables"
    for figure in (
        "hands per second",
        "balancing step p99",
        "store size at the end",
        "cash action p99 without the tournament",
        "cash action p99 beside the tournament",
        "hands per second beside the cash tables",
    ):
        assert float(printed[figure].split()[0]) > 0, figure
