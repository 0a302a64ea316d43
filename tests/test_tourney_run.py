"""Tournaments played by robots through the table service on a real SQLite file: the
director's decisions carried out at real tables (tests/tourney_watch.py judges every
hand), the journal and the tables recovered after the service is dropped."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.table.ports import NullPresenter, StorePort, open_store
from bot.table.service import TableService
from bot.tournament.log import Out, Placed, Rebought, Returned, TableBroken, Waiting
from bot.tournament.structure import Config, Entries, preset
from bot.tourney_run.robots import play
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id
from tests.tourney_watch import Watch

PAYS_TEN = (2800, 1800, 1300, 1000, 800, 700, 500, 400, 350, 350)
"""Ten places paid: the bubble (11 left) comes with two tables still playing."""


FREEZEOUT = Entries()


HOLDEM = ("holdem",)
STUD = ("stud",)
HORSE = ("horse",)


def _config(entries: Entries = FREEZEOUT, game: tuple[str, ...] = HOLDEM) -> Config:
    # Stud deals to eight at most; a stud or mixed event's levels are a limit
    # game's.
    blinds = game == HOLDEM
    return Config(
        game=game,
        buy_in=100,
        fee=10,
        stack=1000,
        schedule=preset("regular", 1000, unit="hands", forced="blinds" if blinds else "bring_in"),
        seats=9 if blinds else 8,
        entries=entries,
        payouts=PAYS_TEN,
    )


async def _started(
    path: str | Path, seed: int, entries: Entries = FREEZEOUT, game: tuple[str, ...] = HOLDEM
) -> tuple[StorePort, Runner]:
    store = await open_store(str(path))
    service = TableService(store, NullPresenter(), seed=f"deal{seed}")
    runner = Runner(service, "weekly", rng=random.Random(seed))
    config = _config(entries, game)
    await runner.create(config)
    for n in range(27):
        await runner.register(f"p{n}", f"Player {n}")
    assert (await runner.start()).ok
    tables = -(-27 // config.seats)
    assert sorted(runner.ports) == list(range(1, tables + 1))
    assert all(len(p.seats()) in (27 // tables, -(-27 // tables)) for p in runner.ports.values())
    runner.check_chips()
    return store, runner


async def _finished(runner: Runner, watch: Watch, chips: int | None = None) -> None:
    state = runner.st
    records = await runner.journal.records()
    assert state.status == "finished" and state.winner is not None
    entrants = len(state.entries)
    # places unique and complete, one per entry.
    placed = [r for r in records if isinstance(r, Placed)]
    assert sorted(p.entry for p in placed) == sorted(e.entry for e in state.entries)
    assert len(state.finishes) == entrants
    # the prizes exactly the pool, recorded for the ledger, not at a table.
    rows = await runner.journal.payouts()
    assert sorted(e for e, _, _, _ in rows) == sorted(e.entry for e in state.entries)
    assert sum(prize for _, _, prize, _ in rows) == state.pool
    assert sum(b for _, _, _, b in rows) == state.bounty_pool
    for entry, _, prize, _ in rows:
        assert prize == next(f.prize for f in state.finishes if f.entry == entry)
    # broken down to the final table, announced once.
    tables = len(state.table_hands)
    assert tables == -(-27 // state.config.seats)
    assert sum(1 for r in records if isinstance(r, TableBroken)) == tables - 1
    assert [m.key for m in runner.notices].count("tournament.final_table") == 1
    # the final table closed with the end, the winner's chips taken off it.
    assert runner.ports == {}
    # the bubble hand-for-hand; those out in one round placed by their starts.
    assert watch.hfh_hands > 0
    assert any(r.group.startswith("hfh") for r in records if isinstance(r, Out))
    # out in one hand (or one hand-for-hand round): more chips at its start
    # finishes higher; equal starts share; the places of a group are consecutive.
    places = {p.entry: (p.first, p.last) for p in placed}
    groups: dict[str, list[Out]] = {}
    for r in records:
        if isinstance(r, Out):
            groups.setdefault(r.group, []).append(r)
    for outs in groups.values():
        for a in outs:
            for b in outs:
                if a.started_with > b.started_with:
                    assert places[a.entry][1] < places[b.entry][0]
                elif a.started_with == b.started_with:
                    assert places[a.entry] == places[b.entry]
        held = sorted({p for o in outs for p in range(places[o.entry][0], places[o.entry][1] + 1)})
        assert held == list(range(held[0], held[0] + len(outs)))
    # every chip at the tables to the end, then off the final table with the
    # winner; none ever in the cash ledger.
    runner.check_chips()
    assert runner.taken_at_end == (entrants * 1000 if chips is None else chips) == state.chips
    for number in state.table_hands:
        tid = table_id(runner.tournament, number)
        assert await runner.service.store.ledger_rows(tid) == []
        table = runner.service.get(tid)
        assert table is None or (table.state.closed and not table.state.seats)
    assert watch.balanced_checks > 0
    # down to two (unless the last three went out to one in a hand),
    # heads-up announced once; in blinds deals the button posts the small blind, which
    # the watch judges at every deal of two.
    heads_up = [m.key for m in runner.notices].count("tournament.heads_up")
    assert heads_up <= 1
    if state.config.game == HOLDEM:
        assert watch.big_blinds >= watch.hands // 2
        assert watch.heads_up > 0 or not heads_up
    elif state.config.game == HORSE:
        assert watch.big_blinds > 0


async def test_R_19_26_a_27_player_freezeout_through_the_service(tmp_path: Path) -> None:
    """R-19.26, R-19.29, R-19.30, R-19.31, R-19.33, R-19.34, R-19.36, R-19.40, R-2.5:
    three real tables, robots, blinds rising by hands, balanced after every hand, broken
    to one, hand-for-hand on the bubble, one winner, payouts exact, chips constant."""
    for seed in (1, 2):
        store, runner = await _started(tmp_path / f"t{seed}.sqlite3", seed)
        watch = Watch(runner)
        await play(runner, random.Random(seed), watch.after, watch.dealt)
        await _finished(runner, watch)
        assert len(runner.st.entries) == 27 and runner.st.pool == 2700
        assert runner.st.level > 0 and len(watch.levels) > 3, "the blinds rose"
        assert not runner.st.bounties, "no bounty of nothing in a freezeout without them"
        assert "tournament.bounty" not in [m.key for m in runner.notices]
        await store.close()


@pytest.mark.parametrize("game", [HOLDEM, STUD, HORSE], ids=["holdem", "stud", "horse"])
async def test_R_19_38_the_freezeout_with_reentry_and_bounties(
    tmp_path: Path, game: tuple[str, ...]
) -> None:
    """R-19.38, R-19.24: busted players re-enter while late registration is open (a
    full stack at a drawn seat, through move_in); every bounty paid, all to the pool.
    The same long run in seven-card stud and in HORSE (R-19.27, R-19.28, R-19.50):
    balancing, hand-for-hand on the bubble, players out together, the heads-up
    transition, places, payouts and chips judged as in hold'em."""
    # Limit games bust players slower: late registration stays open longer there.
    late = 2 if game == HOLDEM else 5
    store, runner = await _started(
        tmp_path / "re.sqlite3", 5, Entries(late_until=late, reentries=2, bounty=20), game
    )
    rng = random.Random(5)
    watch = Watch(runner, seats=runner.st.config.seats)
    reentered = 0

    async def after(number: int, outs: list[Out]) -> None:
        nonlocal reentered
        await watch.after(number, outs)
        for out in outs:
            entry = runner.st.entry(out.entry)
            assert entry is not None
            again = runner.st.registration_open and rng.random() < 0.8
            if again and (await runner.register(entry.player, entry.name)).ok:
                reentered += 1
                assert runner.chips_at_tables() == runner.st.chips

    await play(runner, rng, after, watch.dealt)
    state = runner.st
    assert reentered > 0 and len(state.entries) == 27 + reentered
    await _finished(runner, watch)
    assert state.pool == len(state.entries) * 80
    assert sum(b.amount for b in state.bounties) == len(state.entries) * 20
    await store.close()


async def test_R_19_47_the_freezeout_with_rebuys_waits_for_the_busted(tmp_path: Path) -> None:
    """R-19.47 to R-19.49: rebuys sold through level 3; a robot busted meanwhile waits,
    then rebuys (a drawn seat, the same entry) or declines (out then, placed among
    those still in); the waits all end when rebuys close. Places, payouts and chips
    judged as in the freezeout."""
    store, runner = await _started(tmp_path / "rebuy.sqlite3", 7, Entries(rebuys=2, rebuy_until=3))
    rng = random.Random(7)
    watch = Watch(runner)
    await play(runner, rng, watch.after, watch.dealt, rebuy_rate=0.6)
    state = runner.st
    records = await runner.journal.records()
    waits = [r for r in records if isinstance(r, Waiting)]
    returned = [r for r in records if isinstance(r, Returned)]
    assert waits and returned and len(returned) < len(waits), "both answers were given"
    assert len(state.entries) == 27  # a rebuy is no new entry
    assert sum(state.rebuys.values()) == len(returned) + sum(
        1 for r in records if isinstance(r, Rebought) and r.entry not in {w.entry for w in waits}
    )
    assert state.pool == 27 * 100 + sum(state.rebuys.values()) * 100
    assert state.chips == 27 * 1000 + sum(state.rebuys.values()) * 1000
    assert not state.waiting
    await _finished(runner, watch, chips=state.chips)
    await store.close()
