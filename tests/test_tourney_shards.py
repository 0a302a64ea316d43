"""Tournaments when several bot processes share one PostgreSQL store (R-19.75 to
R-19.79).

Two table services on one database, each with its own store and lease connection, as
two processes have (the shape of tests/test_shards.py). Owner A runs a 12-player,
two-table tournament (levels by hands) on its guild's shard; A dies mid-tournament
(stops renewing, with a hand in progress); the standby B takes the shard over, recovers
the tables and the tournament from the journal and plays it to one winner. A, waking
late, is refused everything: by its own clock first, and by the store's fence when its
clock lies. Chips are conserved, places complete, each hand and each move once.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from typing import Any

import pytest

from bot.poker.messages import Msg
from bot.store import open_store
from bot.store.lease import Lease, LeaseStore
from bot.table.clocks import ManualTime, TimeSource
from bot.table.moves import balance, moves_log
from bot.table.ownership import NotOwned, Ownership
from bot.table.ports import NullPresenter, StoreAdapter
from bot.table.recovery import load
from bot.table.service import TableService
from bot.tournament.director import Decision
from bot.tournament.log import HandFinished, HandStarted, Paused, Placed
from bot.tournament.structure import Config, Level, Unit, preset
from bot.tourney_run import lease
from bot.tourney_run.driver import Driver, Opened
from bot.tourney_run.journal import journal_id
from bot.tourney_run.robots import step
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id
from tests.pgcluster import Cluster

TTL = 0.6
GUILD = 5 << 22
"""The tournament's server: shard 1 of 2."""
PLAYERS = 12
STACK = 500
EVENT = "weekly"


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    return pg_cluster.new_database()


class Hooks:
    """The platform's side, quiet: what the director said, kept."""

    def __init__(self) -> None:
        self.keys: list[str] = []

    async def place(self, tournament: str, table_id: str) -> None:
        return None

    async def said(self, tournament: str, message: Msg) -> None:
        self.keys.append(message.key)

    async def changed(self, tournament: str) -> None:
        return None

    async def finished(self, tournament: str) -> None:
        return None

    async def moved(self, tournament: str, entry: str, table_id: str) -> None:
        return None


async def _process(
    url: str, name: str, shards: set[int], clock: TimeSource | None = None, **kw: Any
) -> tuple[TableService, Driver]:
    """One bot process: its store, lease connection, service and tournament driver. The
    presenter knows no tournament table's guild (a table's thread is made later), so
    only the journal's recorded guild can put the tables on the right shard."""
    adapter = StoreAdapter(await open_store(url))
    leases = await LeaseStore.open(url, ttl=TTL)
    ownership = Ownership(leases, name, 2, shards, guild_of=lambda _t: None, **kw)
    lease.follow(ownership)
    adapter.fencing = ownership
    service = TableService(
        adapter, NullPresenter(), clock, seed=f"deal-{name}", ownership=ownership
    )
    driver = Driver(service, Hooks(), rng=lambda _t: random.Random(7))
    lease.attach(driver)
    return service, driver


async def _close(service: TableService) -> None:
    await service.stop()
    assert service.ownership is not None
    await service.ownership.leases.close()
    await service.store.close()


class Renewing:
    """A process's lease loop, stepped between the robots' moves: a renewal every third
    of the lease time, as ``TableService.run_leases`` does."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.last = time.monotonic()

    async def __call__(self) -> None:
        if time.monotonic() - self.last >= TTL / 3:
            self.last = time.monotonic()
            await self.service.lease_step()


async def _play(runner: Runner, renew: Renewing, rng: random.Random) -> None:
    """To the end, the lease renewed as it goes."""
    for _ in range(200_000):
        if runner.st.status != "running":
            return
        await renew()
        await step(runner, rng)
    raise AssertionError("the tournament did not end")


def _config(unit: Unit = "hands") -> Config:
    return Config(
        game=("holdem",),
        buy_in=100,
        fee=10,
        stack=STACK,
        schedule=preset("turbo", STACK, unit=unit),
        seats=6,
        payouts=(5000, 3000, 2000),
    )


async def _opened(service: TableService, driver: Driver, unit: Unit = "hands") -> Runner:
    assert await lease.claim(service, EVENT, GUILD) is None
    runner = await driver.create(Opened(EVENT, place=1, host="host"), _config(unit))
    assert runner is not None
    for n in range(PLAYERS):
        assert (await driver.register(EVENT, f"p{n}", f"Player {n}")).ok
    assert (await driver.start(EVENT)).ok
    assert sorted(runner.ports) == [1, 2]
    return runner


async def _exact(runner: Runner) -> None:
    """One winner; places unique and complete; prizes the pool; every hand heard of
    once and every move out once and in once; chips exact (R-2.5, R-19.80)."""
    state = runner.st
    assert state.status == "finished" and state.winner is not None
    records = await runner.journal.records()
    placed = [r.entry for r in records if isinstance(r, Placed)]
    assert sorted(placed) == sorted(e.entry for e in state.entries)
    assert len(state.finishes) == PLAYERS == len({f.entry for f in state.finishes})
    assert sum(f.prize for f in state.finishes) == state.pool
    started = Counter((r.table, r.hand) for r in records if isinstance(r, HandStarted))
    finished = Counter((r.table, r.hand) for r in records if isinstance(r, HandFinished))
    assert max(started.values()) == 1 and max(finished.values()) == 1
    assert set(started) == set(finished)
    tables = {}
    for n in sorted(state.table_hands):
        tid = table_id(EVENT, n)
        tables[tid] = await load(runner.service.store, tid)
        assert tables[tid].closed and tables[tid].conservation_error() is None
    recorded, done = await runner.mover.recorded()
    moves = balance(tables, recorded)
    assert moves.in_flight == 0
    assert [p for p in moves.problems if p[0] != "unknown" or ":move:" in p[1]] == []
    assert len(recorded) == len(runner.history) == len(done)
    keys = [e.idem_key for e in await runner.service.store.events(journal_id(EVENT))]
    assert len(keys) == len(set(keys))
    assert runner.taken_at_end == state.chips == PLAYERS * STACK


def test_R_19_75_a_tournament_s_logs_and_tables_follow_its_journal() -> None:
    """R-19.75: the journal, the moves log and every table of a tournament have one
    anchor, the journal; a cash table, another reserved log or a look-alike none."""
    j = journal_id(EVENT)
    assert lease.anchor(j) == j
    assert lease.anchor(moves_log(EVENT)) == j
    assert lease.anchor(table_id(EVENT, 3)) == j
    assert lease.anchor(table_id("t:x", 12)) == journal_id("t:x")
    for other in ("123", "_tournaments", "_tourney_board", "tn:", "tn:weekly:x", "local"):
        assert lease.anchor(other) is None


async def test_R_19_76_standby_finishes_a_tournament_its_owner_died_in(pg_url: str) -> None:
    """R-19.75 to R-19.78, R-2.5: owner A runs the tournament on its guild's shard (its
    tables there too, though their guild is not known on their own); A dies with a hand
    in progress after moves and eliminations; standby B takes the shard over, adopts
    the tournament from the journal and finishes it to one winner, nothing twice. A's
    late commands are refused and write nothing."""
    a, da = await _process(pg_url, "a", {1})
    b, db = await _process(pg_url, "b", set(), standby=True)
    try:
        await a.lease_step()
        await b.lease_step()  # the standby takes the free shard 0 only
        assert a.ownership is not None and b.ownership is not None
        assert set(a.ownership.held) == {1} and set(b.ownership.held) == {0}
        # a process not holding the guild's shard may not open it there.
        refused = await lease.claim(b, "other", GUILD)
        assert refused is not None and refused.key == "table.not_owned"
        runner = await _opened(a, da)
        for n in (1, 2):  # the tables on the tournament's shard, their guild recorded
            assert a.ownership.shard(table_id(EVENT, n)) == 1
        known = await b.ownership.leases.guilds([table_id(EVENT, 1), journal_id(EVENT)])
        assert known == {table_id(EVENT, 1): GUILD, journal_id(EVENT): GUILD}
        assert db.runners == {} and await db.recover() == []  # not B's to run
        assert EVENT in db.elsewhere
        # A plays until a player is out and a move was made, and stops mid-hand.
        rng, renew = random.Random(4), Renewing(a)
        for _ in range(20_000):
            mid = any(not p.between_hands() for p in runner.ports.values())
            if runner.outs and runner.history and mid:
                break
            await renew()
            await step(runner, rng)
        else:
            raise AssertionError("no elimination and move mid-hand")
        level, hands = runner.st.level, dict(runner.last_hand)
        out_before, moves_before = len(runner.outs), len(runner.history)
        count = len(await runner.journal.records())
        # A dies (no renewal). After the lease, B takes shard 1: tables and tournament.
        await asyncio.sleep(TTL * 1.5)
        await b.lease_step()
        assert set(b.ownership.held) == {0, 1}
        adopted = db.get(EVENT)
        assert adopted is not None and adopted is not runner
        assert EVENT not in db.elsewhere
        assert adopted.st.level == level and adopted.last_hand == hands
        assert len(adopted.outs) == out_before and len(adopted.history) == moves_before
        assert adopted.chips_at_tables() == adopted.st.chips == PLAYERS * STACK
        # A wakes: its own clock says the lease ran out, so nothing reaches the store.
        playing = next(n for n, p in runner.ports.items() if not p.between_hands())
        table = runner.table(playing)
        hand, info = table.state.hand, table.state.current
        assert hand is not None and info is not None
        user = info.users[hand.actors()[0].position]
        refused_act = await table.act(user, "fold", key="a-late", turn=table.state.turn)
        assert not refused_act.ok and refused_act.msg.key == "table.not_owned"
        late = await da.register(EVENT, "late", "Late")
        assert late.refusal is not None and late.refusal.key == "table.not_owned"
        assert da.get(EVENT) is None and EVENT in da.elsewhere
        assert len(await adopted.journal.records()) == count
        # B finishes it.
        await _play(adopted, Renewing(b), random.Random(9))
        await _exact(adopted)
        # A's driver, stepping on, runs nothing of it and never takes the shard back.
        await da.step_all()
        await a.lease_step()
        assert not a.ownership.held and da.runners == {}
    finally:
        await _close(a)
        await _close(b)


async def test_R_19_77_a_stale_owner_s_journal_and_moves_are_fenced(pg_url: str) -> None:
    """R-19.77, R-19.78: a paused owner whose clock says its lease still runs (a clock that
    jumped) appends to the journal and the moves log with the old fence: the store
    refuses both, nothing is written, and A drops the shard, its tables and the
    tournament at once."""
    a, da = await _process(pg_url, "a", {1})
    b, db = await _process(pg_url, "b", set(), standby=True)
    try:
        await a.lease_step()
        runner = await _opened(a, da)
        assert a.ownership is not None and b.ownership is not None
        await asyncio.sleep(TTL * 1.5)
        await b.lease_step()
        assert 1 in b.ownership.held and db.get(EVENT) is not None
        a.ownership.valid_until[1] = time.monotonic() + 60  # A believes it still holds it
        before = len(await b.store.events(journal_id(EVENT)))
        with pytest.raises(NotOwned):
            await runner.journal.append((Paused("host", 0.0),), "stale-pause")
        assert 1 not in a.ownership.held and a.tables == {}
        a.ownership.held[1] = Lease(1, "a", 1, 0.0)  # its old lease, stale again
        a.ownership.valid_until[1] = time.monotonic() + 60
        with pytest.raises(NotOwned):
            await a.store.append(moves_log(EVENT), "move", {"transfer": "x"}, idem_key="x")
        assert len(await b.store.events(journal_id(EVENT))) == before
        assert await b.store.events(moves_log(EVENT)) == []
        # the host's pause reaching A is answered as a moving table's command is.
        answer = await da.run(EVENT, lambda r: r.pause("host", key="late"))
        assert answer == Decision(refusal=NotOwned(EVENT).msg)
        # B, the owner, pauses it: appended once, with B's fence.
        adopted = db.get(EVENT)
        assert adopted is not None
        assert (await db.run(EVENT, lambda r: r.pause("host", key="i1"))).ok
        assert adopted.st.paused and len(await b.store.events(journal_id(EVENT))) == before + 1
    finally:
        await _close(a)
        await _close(b)


async def test_R_19_79_level_clock_and_pause_carry_over_a_take_over(pg_url: str) -> None:
    """R-19.79, R-19.41: levels by minutes. A starts the tournament and its host pauses
    it; A dies. B adopts it still paused, the level where it was: no level passes while
    paused, however long the take-over took. Resumed, the level has the time it had
    left when paused; the time before the pause counted."""
    clock = ManualTime(1_000_000.0)
    a, da = await _process(pg_url, "a", {1}, clock)
    b, db = await _process(pg_url, "b", set(), clock, standby=True)
    try:
        await a.lease_step()
        runner = await _opened(a, da, "minutes")
        item = runner.st.config.schedule.item(0)
        assert isinstance(item, Level)
        length = 60.0 * item.length
        clock.advance(length / 3)
        assert (await da.run(EVENT, lambda r: r.pause("host", key="i1"))).ok
        await asyncio.sleep(TTL * 1.5)  # A dies
        clock.advance(length * 3)  # the take-over took long, on the tournament's clock
        await b.lease_step()
        adopted = db.get(EVENT)
        assert adopted is not None and adopted.st.paused
        assert adopted.st.level == 0 and adopted.st.level_at == runner.st.level_at
        await adopted.tick()
        assert adopted.st.level == 0  # paused: the clock stood still
        assert (await db.run(EVENT, lambda r: r.resume("host", key="i2"))).ok
        left = adopted.st.level_at + length - clock.now()
        assert left == pytest.approx(length * 2 / 3)
        clock.advance(left - 1)
        await adopted.tick()
        assert adopted.st.level == 0
        clock.advance(1)
        await adopted.tick()
        assert adopted.st.level == 1
        adopted.check_chips()
    finally:
        await _close(a)
        await _close(b)


async def test_R_19_76_adopting_is_tried_again_after_a_failed_lease_step(pg_url: str) -> None:
    """R-19.76: what rides on a shard gained (a tournament's adoption) runs after the
    lease step that gained it; when it fails (the database away a moment) it runs again
    at the next step though nothing changed then, and no more once it succeeded."""
    a, _ = await _process(pg_url, "a", {1})
    calls: list[int] = []

    async def hook() -> None:
        calls.append(len(calls))
        if len(calls) == 1:
            raise ConnectionError("the database went away")

    a.lease_hooks.append(hook)
    try:
        await a.lease_step()  # gained shard 1: the hooks run; this one fails
        assert len(calls) == 1
        await a.lease_step()  # nothing gained or lost, but a hook failed: again
        assert len(calls) == 2
        await a.lease_step()
        assert len(calls) == 2
    finally:
        await _close(a)


async def test_R_19_76_registration_goes_on_at_the_standby(pg_url: str) -> None:
    """R-19.76, R-19.78: the owner dies while players register; the standby adopts the
    tournament still registering, with every registration once; the next ones and the
    start are its, and the dead owner's late registration is refused."""
    a, da = await _process(pg_url, "a", {1})
    b, db = await _process(pg_url, "b", set(), standby=True)
    try:
        await a.lease_step()
        assert await lease.claim(a, EVENT, GUILD) is None
        assert await da.create(Opened(EVENT, place=1, host="host"), _config()) is not None
        for n in range(5):
            assert (await da.register(EVENT, f"p{n}", f"Player {n}")).ok
        await asyncio.sleep(TTL * 1.5)
        await b.lease_step()
        adopted = db.get(EVENT)
        assert adopted is not None and adopted.st.status == "registering"
        assert sorted(e.entry for e in adopted.st.entries) == [f"p{n}" for n in range(5)]
        late = await da.register(EVENT, "p9", "Player 9")
        assert late.refusal is not None and late.refusal.key == "table.not_owned"
        for n in range(5, PLAYERS):
            assert (await db.register(EVENT, f"p{n}", f"Player {n}")).ok
        assert (await db.start(EVENT)).ok
        assert len(adopted.st.entries) == PLAYERS and sorted(adopted.ports) == [1, 2]
        assert all(b.ownership is not None and b.ownership.owns(p.table.table_id)
                   for p in adopted.ports.values())  # fmt: skip
        adopted.check_chips()
    finally:
        await _close(a)
        await _close(b)
