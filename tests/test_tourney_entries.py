"""Re-entry through the service: a re-entry's seat is its player's user id (R-19.90),
the journal keeps the entry ids, and a restart finds every seat again."""

from __future__ import annotations

import random
from pathlib import Path

from bot.table.ports import NullPresenter, open_store
from bot.table.service import TableService
from bot.tournament.log import Out
from bot.tournament.structure import Config, Entries, preset
from bot.tourney_run.robots import play, step
from bot.tourney_run.runner import Runner

REENTRY = Entries(late_until=3, reentries=2)


def _config() -> Config:
    return Config(
        buy_in=100,
        stack=1000,
        schedule=preset("turbo", 1000, unit="hands"),
        seats=6,
        entries=REENTRY,
    )


async def test_R_19_90_a_reentry_sits_under_its_players_user_id(tmp_path: Path) -> None:
    path = str(tmp_path / "re.sqlite3")
    store = await open_store(path)
    service = TableService(store, NullPresenter(), seed="re90")
    runner = Runner(service, "weekly", rng=random.Random(3))
    await runner.create(_config())
    for n in range(8):
        assert (await runner.register(f"p{n}", f"Player {n}")).ok
    assert (await runner.start()).ok
    rng = random.Random(3)
    again: list[str] = []

    async def after(_number: int, outs: list[Out]) -> None:
        for out in outs:
            entry = runner.st.entry(out.entry)
            assert entry is not None
            if runner.st.registration_open and (await runner.register(entry.player, "x")).ok:
                again.append(entry.player)

    for _ in range(20_000):
        if again or runner.st.status != "running":
            break
        await step(runner, rng, after)
    assert again, "somebody busted and re-entered"
    player = again[0]
    state = runner.st
    entry = next(e.entry for e in state.entries if e.player == player and e.entry in state.seats)
    assert entry == f"{player}#2"
    table, seat = state.seats[entry]
    at = runner.table(table).state.seats[seat]
    # the table knows him by his user id, the director by the entry id.
    assert at.user_id == player and at.stack == 1000
    users = [s.user_id for p in runner.ports.values() for s in p.table.state.seats.values()]
    assert f"{player}#2" not in users and users.count(player) == 1
    assert runner.ports[table].seats()[seat] == entry
    # the re-entry's chips are in play, none made or lost.
    assert runner.chips_at_tables() == runner.st.chips == len(state.entries) * 1000
    # A restart finds the re-entry at his seat under the same user id.
    await store.close()
    store = await open_store(path)
    again_service = TableService(store, NullPresenter(), seed="re90")
    back = Runner(again_service, "weekly", rng=random.Random(4))
    assert await back.load()
    assert back.st.seats[entry] == (table, seat)
    assert back.table(table).state.seats[seat].user_id == player
    back.check_chips()
    # He plays on to the end: his seat acts under his user id; every entry is placed.
    await play(back, random.Random(5))
    assert back.st.status == "finished"
    assert sorted(f.entry for f in back.st.finishes) == sorted(e.entry for e in back.st.entries)
    back.check_chips()
    await store.close()
