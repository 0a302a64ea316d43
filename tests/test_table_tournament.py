"""A table knows it is a tournament's from its own record (R-19.3): the tournament
that opened it is written with its ``Created`` and read back after a restart, not
guessed from whether a stakes source answers for it."""

from __future__ import annotations

import random
from pathlib import Path

from bot.table import log as tlog
from bot.table.ports import NullPresenter, open_store
from bot.table.predeal.stakes import CASH
from bot.table.service import TableService
from bot.table.settings import TableSettings
from bot.table.state import TableState
from bot.tournament.structure import Config, preset
from bot.tourney_run.runner import Runner
from tests.harness import HOST, Harness


def _config() -> Config:
    return Config(
        game=("holdem",),
        buy_in=100,
        stack=1000,
        schedule=preset("turbo", 1000, unit="hands"),
        seats=4,
        max_players=8,
    )


async def test_R_19_3_a_tournaments_tables_say_so_across_a_restart(tmp_path: Path) -> None:
    """R-19.3, R-20.50: the tables a tournament opens are its own by their record, a
    cash table beside them is not; after the service is dropped and recovered from the
    store they still are, and stay the tournament's even when no stakes source answers
    for them: its host tools that touch seats and chips are refused."""
    path = str(tmp_path / "t.sqlite3")
    store = await open_store(path)
    service = TableService(store, NullPresenter(), seed="tt")
    runner = Runner(service, "cup", rng=random.Random(1))
    assert (await runner.create(_config())).ok
    for n in range(8):
        await runner.register(f"p{n}", f"P{n}")
    assert (await runner.start()).ok
    assert (await service.create("cash", "h", TableSettings(), key="c")).ok
    ids = sorted(p.table.table_id for p in runner.ports.values())
    assert len(ids) == 2
    assert all(service.table(t).state.tournament == "cup" for t in ids)
    assert service.table("cash").state.tournament == ""
    await store.close()

    store = await open_store(path)
    service = TableService(store, NullPresenter(), seed="tt")
    await service.recover()  # no tournament loaded: its stakes source knows no table
    for t in ids:
        table = service.table(t)
        assert table.state.tournament == "cup"
        table.stakes = CASH
        player = next(iter(table.state.seats.values())).user_id
        before = table.state.seq
        refused = await table.host_tool(runner.director, "kick", player, key="kick")
        assert not refused.ok and refused.msg.key == "host.tournament"
        assert table.state.seq == before
    assert service.table("cash").state.tournament == ""
    await store.close()


async def test_R_19_3_the_record_of_a_cash_table_is_written_as_before() -> None:
    """A cash table's ``Created`` is stored as it always was (no tournament field);
    a tournament's carries its id and reads back."""
    cash = tlog.Created(TableSettings(), "h", 3)
    assert "tournament" not in cash.to_payload()
    opened = tlog.Created(TableSettings(), "h", 3, tournament="cup")
    assert opened.to_payload()["tournament"] == "cup"
    assert tlog.Created.from_payload(opened.to_payload()) == opened
    assert tlog.Created.from_payload(cash.to_payload()).tournament == ""


def test_R_19_3_a_table_opened_before_the_record_said_it_is_known_by_its_id() -> None:
    """A tournament table created before its ``Created`` named the tournament is still
    the tournament's (its id ``tn:<tournament>:<n>``); any other is a cash table."""
    for table_id, tournament in (("tn:cup:3", "cup"), ("tn:a:b:12", "a:b"), ("123", "")):
        state = TableState(table_id)
        state.apply(tlog.Created(TableSettings(), "h", 1))
        assert state.tournament == tournament, table_id


async def test_R_20_50_a_cash_table_with_a_stakes_source_is_still_a_cash_table() -> None:
    """A level from a stakes source does not make a cash table a tournament's: its host
    may still kick (the stakes decide the blinds, the record who owns the seats)."""
    from bot.table.levels import Level
    from bot.table.predeal.stakes import FixedLevel

    h = Harness()
    table = await h.seated(["alice", "bob"])
    table.stakes = FixedLevel(Level(1, 2))
    assert table.state.tournament == ""
    assert (await table.host_tool(HOST, "kick", "bob", key=h.key())).ok
