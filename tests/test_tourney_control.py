"""The host's pause and cancel, rebuys, the add-on and the chip race, carried out by the
runner at real tables of the service (SQLite file): clocks, seats, chips and money
checked after each, and after the service is dropped at the worst moment."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Protocol

import pytest

from bot.table.clocks import ManualTime
from bot.table.ports import LedgerKind, NullPresenter, StoreAdapter, StorePort, open_store
from bot.table.service import TableService
from bot.tournament import director
from bot.tournament.director import Decision
from bot.tournament.log import (
    Cancelled,
    ChipRaced,
    HandFinished,
    HandStarted,
    LevelUp,
    Paused,
    Rebought,
    Registered,
    Resumed,
    Unregistered,
)
from bot.tournament.structure import Config, Entries, Level, Schedule, preset
from bot.tourney_run import control
from bot.tourney_run.journal import journal_id
from bot.tourney_run.money import settled
from bot.tourney_run.robots import act, step
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id
from tests.killing import kill_after_steps

START = 1_700_000_000.0


class Crash(Exception):
    """The process dies here."""


class World:
    """A tournament on a SQLite file, its service and clock; :meth:`reboot` drops it and
    recovers from the file as a restarted process does."""

    def __init__(self, path: Path | str, config: Config, seed: int = 1) -> None:
        self.path, self.config, self.seed = path, config, seed
        self.time = ManualTime(START)
        self.rng = random.Random(seed)
        self.crash_at: str | None = None
        self.armed: set[str] = set()
        self.hit: Counter[str] = Counter()
        self.store: StorePort
        self.runner: Runner

    def _checkpoint(self, where: str) -> None:
        if where == self.crash_at or where in self.armed:
            self.crash_at = None
            self.armed.discard(where)
            self.hit[where] += 1
            raise Crash(where)

    def _runner(self, service: TableService) -> Runner:
        runner = Runner(service, "cup", rng=random.Random(self.seed))
        runner.checkpoint = self._checkpoint  # type: ignore[method-assign]
        return runner

    async def open(self, players: int) -> Runner:
        self.store = await open_store(str(self.path))
        service = TableService(self.store, NullPresenter(), self.time, seed=f"d{self.seed}")
        self.runner = self._runner(service)
        await self.runner.create(self.config)
        for n in range(players):
            assert (await self.runner.register(f"p{n}", f"Player {n}")).ok
        return self.runner

    async def start(self, players: int) -> Runner:
        runner = await self.open(players)
        assert (await runner.start()).ok
        runner.check_chips()
        return runner

    async def reboot(self) -> Runner:
        await self.store.close()
        return await self.recover()

    async def recover(self) -> Runner:
        """Open the file as a restarted process does: the tables, then the journal."""
        self.store = await open_store(str(self.path))
        service = TableService(self.store, NullPresenter(), self.time, seed=f"d{self.seed}")
        await service.recover()
        self.runner = self._runner(service)
        assert await self.runner.load()
        return self.runner

    async def finish_hand(self, number: int) -> None:
        runner = self.runner
        while runner.table(number).state.in_hand:
            await act(runner, number, self.rng)
        await runner.after_hand(number)

    async def play(self, steps: int) -> None:
        for _ in range(steps):
            if self.runner.st.status != "running":
                return
            await step(self.runner, self.rng)


@contextmanager
def crashing(world: World, where: str) -> Iterator[None]:
    world.crash_at = where
    try:
        yield
    except Crash:
        pass
    else:
        raise AssertionError(f"no crash at {where}")


FREEZEOUT = Entries()


def _config(entries: Entries = FREEZEOUT) -> Config:
    """Levels of 15 minutes: the pause's clock is read in minutes."""
    return Config(
        buy_in=100, fee=10, stack=1000, schedule=preset("regular", 1000), seats=9, entries=entries
    )


def _keys(decision: Decision) -> list[str]:
    return [m.key for m in decision.notices]


async def _check_money(world: World, runner: Runner) -> None:
    """R-19.46: the tournament's money in the store's ledger under its own log: every
    price paid in, every prize, bounty and refund paid out per player, the fees the
    difference; the standings read it; no table has a ledger row (chips never enter)."""
    state = runner.st
    rows = await world.store.ledger_rows(journal_id(runner.tournament))
    paid_in = sum(r.amount for r in rows if r.kind in (LedgerKind.BUY_IN, LedgerKind.TOP_UP))
    records = await runner.journal.records()
    rebuys = sum(r.paid for r in records if isinstance(r, Rebought))
    players = {r.entry: r.player for r in records if isinstance(r, Registered)}
    gone: Counter[str] = Counter()  # unregistered before the start: the price back
    for record in records:
        if isinstance(record, Unregistered):
            gone[players[record.entry]] += record.refund
    assert paid_in == sum(e.paid for e in state.entries) + rebuys + sum(gone.values())
    out: Counter[str] = Counter()
    for row in rows:
        if row.kind is LedgerKind.CASH_OUT:
            out[row.player_id] += row.amount
    assert out == Counter(settled(state)) + gone
    kept = state.fees if state.chips else 0  # called off before the start: all back
    assert paid_in - sum(out.values()) == kept
    assert isinstance(world.store, StoreAdapter)
    for entry in state.entries:
        totals = await world.store.store.player_totals(entry.player)
        mine = [r for r in rows if r.player_id == entry.player]
        assert totals.cashed == out[entry.player]
        assert totals.bought == sum(r.amount for r in mine if r.kind is not LedgerKind.CASH_OUT)
    for port in runner.ports.values():
        assert await world.store.ledger_rows(port.table.table_id) == []


# ---------------------------------------------------------------- pause


async def test_R_19_41_a_paused_tournament_stops_clocks_and_tables_and_resumes_with_the_time_left(
    tmp_path: Path,
) -> None:
    """R-19.41: paused five minutes into a 15-minute level with a hand in progress at
    table 1: table 2 stops at once, table 1 when its hand is over; no level goes up and
    no table deals during the pause; resumed an hour later, the level ends ten minutes
    after the resume. A repeated key applies nothing."""
    world = World(tmp_path / "pause.sqlite3", _config())
    runner = await world.start(18)
    assert sorted(runner.ports) == [1, 2]
    assert await runner.deal(1)
    world.time.advance(300)
    paused = await runner.pause("host", key="k1")
    assert paused.ok and _keys(paused) == ["tournament.paused"]
    assert runner.st.paused
    assert runner.table(2).state.paused and not runner.table(1).state.paused
    assert runner.ready() == [] and not await runner.deal(2)
    assert (await runner.pause("host", key="k1")) == Decision()  # the same key: done
    again = await runner.pause("host", key="k2")
    assert again.refusal is not None and again.refusal.key == "tournament.refuse.paused"
    board = director.status(runner.st, world.time.now())
    assert board[-1].key == "tournament.status.paused"
    world.time.advance(3600)
    await runner.tick()
    assert runner.st.level == 0, "the level clock stops during the pause"
    late = director.status(runner.st, world.time.now())
    assert late[1] == board[1], "the status board's next level stays where it stopped"
    await world.finish_hand(1)  # the hand in progress finishes
    assert runner.table(1).state.paused and runner.ready() == []
    runner.check_chips()
    resumed = await runner.resume("host", key="r1")
    assert resumed.ok and _keys(resumed) == ["tournament.resumed"]
    assert not runner.st.paused and sorted(runner.ready()) == [1, 2]
    assert not any(p.table.state.paused for p in runner.ports.values())
    world.time.advance(599)
    await runner.tick()
    assert runner.st.level == 0
    world.time.advance(1)
    await runner.tick()
    assert runner.st.level == 1, "ten minutes were left when it paused"
    not_paused = await runner.resume("host", key="r2")
    assert not_paused.refusal is not None
    assert not_paused.refusal.key == "tournament.refuse.not_paused"
    records = await runner.journal.records()
    assert [type(r).__name__ for r in records].count("Paused") == 1
    assert [type(r).__name__ for r in records].count("Resumed") == 1
    runner.check_chips()
    await world.store.close()


async def test_R_19_41_a_pause_is_refused_before_the_start(tmp_path: Path) -> None:
    """R-19.41: only a running tournament pauses; the refusal says why, nothing changes."""
    world = World(tmp_path / "early.sqlite3", _config())
    runner = await world.open(4)
    refused = await runner.pause("host", key="k")
    assert refused.refusal is not None and refused.refusal.key == "tournament.refuse.not_running"
    assert not runner.st.paused and len(await runner.journal.records()) == 5
    await world.store.close()


async def test_R_19_41_a_pause_survives_a_restart_and_each_key_applies_once(
    tmp_path: Path,
) -> None:
    """R-19.41: the service dropped right after the pause was journaled (before any
    table heard of it) and again during it: the pause holds, its clock is kept, the
    tables stop; the same keys after the restart apply nothing."""
    world = World(tmp_path / "restart.sqlite3", _config())
    runner = await world.start(18)
    world.time.advance(120)
    with crashing(world, "hold"):
        await runner.pause("host", key="k1")
    assert not any(p.table.state.paused for p in runner.ports.values())
    runner = await world.reboot()
    assert runner.st.paused and all(p.table.state.paused for p in runner.ports.values())
    assert runner.ready() == []
    assert await runner.pause("host", key="k1") == Decision()
    world.time.advance(7200)
    runner = await world.reboot()
    await runner.tick()
    assert runner.st.level == 0 and runner.st.paused
    assert (await runner.resume("host", key="r1")).ok
    runner = await world.reboot()
    assert await runner.resume("host", key="r1") == Decision()
    assert not any(p.table.state.paused for p in runner.ports.values())
    world.time.advance(15 * 60 - 120 - 1)
    await runner.tick()
    assert runner.st.level == 0
    world.time.advance(1)
    await runner.tick()
    assert runner.st.level == 1
    records = await runner.journal.records()
    assert Counter(type(r).__name__ for r in records)["Paused"] == 1
    runner.check_chips()
    await world.store.close()


# ---------------------------------------------------------------- cancel


async def test_R_19_39_a_cancelled_tournament_refunds_every_price_before_the_start(
    tmp_path: Path,
) -> None:
    """R-19.39: cancelled before the start, each entry gets its whole price back (buy-in,
    bounty and fee); no table was ever opened; the money in equals the money out."""
    world = World(tmp_path / "before.sqlite3", _config(Entries(bounty=20)))
    runner = await world.open(5)
    done = await runner.cancel("host", key="c1")
    assert done.ok and _keys(done)[0] == "tournament.cancelled"
    assert runner.st.status == "cancelled"
    assert sorted(runner.st.refunds) == sorted((f"p{n}", 110) for n in range(5))
    assert sum(a for _, a in runner.st.refunds) == sum(e.paid for e in runner.st.entries)
    assert runner.ports == {}
    assert await runner.cancel("host", key="c1") == Decision()
    over = await runner.cancel("host", key="c2")
    assert over.refusal is not None and over.refusal.key == "tournament.refuse.over"
    (record,) = [r for r in await runner.journal.records() if isinstance(r, Cancelled)]
    assert record.by == "host"
    await _check_money(world, runner)
    await world.store.close()


async def _cancel_mid_tournament(world: World) -> tuple[Runner, dict[str, int]]:
    """Robots play until someone is out and a hand is in progress; returns the runner
    and each entry's stack as the director last knew it."""
    runner = await world.start(18)
    for _ in range(20_000):
        await step(runner, world.rng)
        busy = any(not p.between_hands() for p in runner.ports.values())
        if (runner.st.out or runner.st.finishes) and busy and runner.st.status == "running":
            break
    assert busy and runner.st.status == "running"
    return runner, dict(runner.st.stacks)


def _check_cancelled(runner: Runner, stacks: dict[str, int], money_in: int) -> None:
    state = runner.st
    assert state.status == "cancelled"
    # every chip in play left the tables through the cancel, each entry's
    # stack as the director had it (the hand in progress called off).
    assert control.cashed_out(runner) == state.chips == sum(stacks.values())
    prefix = f"{runner.tournament}:cancel:"
    for port in runner.ports.values():
        st = port.table.state
        assert st.closed and not st.seats and st.conservation_error() is None
        for key, chips in st.moves.items():
            if key.startswith(prefix):
                assert -chips == stacks[key[len(prefix) :]]
    # what is left of the pool shared by chips, own bounties back; fees kept.
    left = state.pool - sum(f.prize for f in state.finishes)
    total = sum(stacks.values())
    bounty = state.config.entries.bounty
    refunds = dict(state.refunds)
    assert set(refunds) == set(stacks)
    for entry, chips in stacks.items():
        assert refunds[entry] - bounty in (left * chips // total, left * chips // total + 1)
    paid_out = (
        sum(refunds.values())
        + sum(f.prize for f in state.finishes)
        + sum(b.amount for b in state.bounties)
    )
    assert paid_out + state.fees == money_in


async def test_R_19_39_a_cancelled_tournament_refunds_by_chips_mid_tournament(
    tmp_path: Path,
) -> None:
    """R-19.39, R-19.42, R-2.5: cancelled with a hand in progress and entries already
    out: the hand is called off as a misdeal, every table emptied (no cash-out: no
    ledger row) and closed, the pool left shared by the chips, own bounties back; the
    money paid in is all paid out or kept as fees, and every chip is accounted for."""
    world = World(tmp_path / "mid.sqlite3", _config(Entries(bounty=20)), seed=4)
    runner, _ = await _cancel_mid_tournament(world)
    busy = [n for n, p in runner.ports.items() if not p.between_hands()]
    hands = {n: runner.table(n).state.hand_no for n in busy}
    stacks = dict(runner.st.stacks)
    money_in = sum(e.paid for e in runner.st.entries)
    done = await runner.cancel("host", key="c")
    assert done.ok and "tournament.refund" in _keys(done)
    _check_cancelled(runner, stacks, money_in)
    for n in busy:
        info = runner.table(n).state.recent[hands[n]]
        assert info.ended
        ended = [
            e
            for e in await world.store.events(runner.table(n).table_id)
            if e.kind == "hand_ended" and e.payload.get("hand_no") == hands[n]
        ]
        assert [e.payload.get("reason") for e in ended] == ["cancelled"]
    await _check_money(world, runner)
    assert await runner.after_hand(busy[0]) == []  # nothing heard of a called-off hand
    assert not await runner.deal(busy[0])
    await world.store.close()


async def test_R_19_42_a_cancel_cut_short_by_a_crash_is_finished_once(store_url: str) -> None:
    """R-19.42: the service dropped right after the cancel was journaled, before any
    table heard of it: the restart calls off the hand, empties and closes every table,
    once; a second restart changes nothing (SQLite and PostgreSQL)."""
    world = World(store_url, _config(Entries(bounty=20)), seed=6)
    runner, stacks = await _cancel_mid_tournament(world)
    money_in = sum(e.paid for e in runner.st.entries)
    with crashing(world, "cancel"):
        await runner.cancel("host", key="c")
    runner = await world.reboot()
    assert runner.st.status == "cancelled"
    ids = sorted(p.table.table_id for p in runner.ports.values())
    assert ids, "the tables still open were recovered"
    _check_cancelled(runner, stacks, money_in)
    logs = {tid: await world.store.events(tid) for tid in ids}
    runner = await world.reboot()
    assert runner.ports == {}, "closed tables are not opened again"
    for tid in ids:
        events = await world.store.events(tid)
        assert len(events) == len(logs[tid]), "nothing applied twice"
        outs = Counter(e.payload.get("transfer") for e in events if e.kind == "stood")
        assert max(outs.values()) == 1
        assert sum(1 for e in events if e.kind == "closed") == 1
    assert await runner.cancel("host", key="c") == Decision()
    await _check_money(world, runner)
    await world.store.close()


# ---------------------------------------------------------------- rebuys

REBUYS = Entries(rebuys=2, rebuy_until=2, addon=1500, addon_price=100)


def _quick(entries: Entries) -> Config:
    """Levels of one hand per table, by hands: the add-on period comes soon."""
    schedule = Schedule(
        (Level(5, 10, length=1), Level(10, 20, length=1), Level(25, 50, length=1),
         Level(50, 100, length=1000)),
        unit="hands",
    )  # fmt: skip
    return Config(buy_in=100, fee=10, stack=1000, schedule=schedule, seats=9, entries=entries)


async def test_R_19_43_a_rebuy_adds_a_stack_at_his_table_between_hands_only(
    tmp_path: Path,
) -> None:
    """R-19.38, R-19.43, R-2.5: a rebuy adds the starting stack to the player's seat
    between his hands, as a transfer of the tournament (no ledger row), the pool grows
    by its price, chips in play by its chips; refused with the reason during his hand,
    above the starting stack, for the add-on before its period and for one not playing;
    a repeated key applies nothing."""
    world = World(tmp_path / "rebuy.sqlite3", _quick(REBUYS))
    runner = await world.start(12)
    where = runner.st.seats["p0"]
    table = runner.table(where[0])
    pool, chips = runner.st.pool, runner.st.chips
    assert await runner.deal(where[0])
    refused = await runner.rebuy("p0", key="b0")
    assert refused.refusal is not None and refused.refusal.key == "tournament.refuse.in_hand"
    assert runner.st.chips == chips and runner.st.pool == pool
    await world.finish_hand(where[0])
    # Someone at the table lost chips in the hand (a blind at least): he may rebuy.
    who, before = min(runner.ports[where[0]].stacks().items(), key=lambda kv: kv[1])
    assert 0 < before <= 1000
    done = await runner.rebuy(who, key="b1")
    assert done.ok and _keys(done) == ["tournament.rebought"]
    seat = table.state.seat_of(who)
    assert seat is not None and seat.stack == before + 1000
    assert runner.st.chips == chips + 1000 and runner.st.pool == pool + 100
    assert runner.st.rebuys[who] == 1
    runner.check_chips()
    assert await world.store.ledger_rows(table.table_id) == []
    assert await runner.rebuy(who, key="b1") == Decision()
    assert runner.st.chips == chips + 1000
    high = await runner.rebuy(who, key="b2")
    assert high.refusal is not None and high.refusal.key == "tournament.refuse.rebuy_stack"
    early = await runner.rebuy(who, addon=True, key="a1")
    assert early.refusal is not None and early.refusal.key == "tournament.refuse.addon_closed"
    ghost = await runner.rebuy("nobody", key="g")
    assert ghost.refusal is not None and ghost.refusal.key == "tournament.refuse.not_playing"
    records = await runner.journal.records()
    assert sum(1 for r in records if isinstance(r, Rebought)) == 1
    await world.store.close()


async def test_R_19_39_a_cancelled_tournament_refunds_rebought_chips_by_chips_too(
    tmp_path: Path,
) -> None:
    """R-19.39, R-19.42, R-19.46: cancelled after a rebuy with hands in progress: the
    rebuy's price is in the pool shared by chips, its chips in the stacks that share
    it; every chip leaves the tables, every price is paid back or kept as a fee."""
    world = World(tmp_path / "rebuycancel.sqlite3", _quick(REBUYS), seed=8)
    runner = await world.start(12)
    assert (await runner.rebuy("p5", key="b")).ok
    for number in sorted(runner.ports):
        assert await runner.deal(number)
    stacks = dict(runner.st.stacks)
    assert stacks["p5"] == 2000
    money_in = sum(e.paid for e in runner.st.entries) + 100
    assert (await runner.cancel("host", key="c")).ok
    _check_cancelled(runner, stacks, money_in)
    await _check_money(world, runner)
    await world.store.close()


async def test_R_19_43_the_add_on_in_its_period_once(tmp_path: Path) -> None:
    """R-19.38, R-19.43: from the last rebuy level the add-on is open, once per entry,
    its chips at the table between hands; rebuys close after their last level."""
    world = World(tmp_path / "addon.sqlite3", _quick(REBUYS), seed=2)
    runner = await world.start(12)
    for _ in range(5_000):
        if runner.st.config.schedule.level_number(runner.st.level) >= 2:
            break
        await step(runner, world.rng)
    playing = [n for n, p in runner.ports.items() if not p.between_hands()]
    for n in playing:
        await world.finish_hand(n)
    assert runner.st.config.schedule.level_number(runner.st.level) == 2
    entry = sorted(runner.st.seats)[0]
    player = runner.st.entry(entry)
    assert player is not None
    chips = runner.st.chips
    done = await runner.rebuy(player.player, addon=True, key="a1")
    assert done.ok and _keys(done) == ["tournament.addon_bought"]
    assert runner.st.chips == chips + 1500 and entry in runner.st.addons
    runner.check_chips()
    twice = await runner.rebuy(player.player, addon=True, key="a2")
    assert twice.refusal is not None and twice.refusal.key == "tournament.refuse.addon_closed"
    await world.store.close()


async def test_R_19_43_a_rebuy_cut_short_by_a_crash_is_made_once(tmp_path: Path) -> None:
    """R-19.43, R-2.5: dropped after the rebuy was journaled and before the table added
    the chips: the table does not deal until the restart adds them, once; the same key
    and a second restart add nothing."""
    world = World(tmp_path / "rebuycrash.sqlite3", _quick(REBUYS), seed=3)
    runner = await world.start(12)
    number = runner.st.seats["p3"][0]
    before = runner.ports[number].stacks()["p3"]
    with crashing(world, "chips"):
        await runner.rebuy("p3", key="b")
    assert number not in runner.ready(), "a table with chips still to add does not deal"
    assert not await runner.deal(number)
    for _ in range(2):
        runner = await world.reboot()
        assert runner.ports[number].stacks()["p3"] == before + 1000
        runner.check_chips()
        assert await runner.rebuy("p3", key="b") == Decision()
    events = await world.store.events(runner.table(number).table_id)
    assert sum(1 for e in events if e.kind == "chips_changed") == 1
    await world.store.close()


# ---------------------------------------------------------------- chip race


def _raced(unit: int) -> Config:
    schedule = Schedule(
        (Level(5, 10, length=2), Level(25, 50, length=1000)),
        unit="hands",
    )
    return Config(
        buy_in=100, fee=0, stack=1000, schedule=schedule, seats=9,
        chip_races=((2, 5, unit),),
    )  # fmt: skip


async def _to_the_race(world: World) -> Runner:
    runner = await world.start(18)
    for _ in range(20_000):
        if any(isinstance(r, ChipRaced) for r in await runner.journal.records()):
            return runner
        await step(runner, world.rng)
    raise AssertionError("no chip race")


async def test_R_19_45_a_chip_race_at_its_level_at_every_table_between_hands(
    tmp_path: Path,
) -> None:
    """R-19.25, R-19.45, R-2.5: at the level the schedule names, every table finishes
    its hand and waits; the race changes each stack at its table to a multiple of the
    new chip, nobody raced out, chips in play changed by the race's delta only; no
    table dealt between the level's start and the race."""
    world = World(tmp_path / "race.sqlite3", _raced(25), seed=5)
    runner = await _to_the_race(world)
    records = await runner.journal.records()
    (race,) = [r for r in records if isinstance(r, ChipRaced)]
    i_race = records.index(race)
    i_level = max(i for i, r in enumerate(records[:i_race]) if isinstance(r, LevelUp))
    assert not any(isinstance(r, HandStarted) for r in records[i_level:i_race])
    assert runner.st.unit == 25
    alive = [e for e, _ in race.stacks]
    assert set(alive) == set(runner.st.seats), "nobody raced out"
    for port in runner.ports.values():
        for entry, chips in port.stacks().items():
            assert chips % 25 == 0 and chips > 0, (entry, chips)
            assert chips == runner.st.stacks[entry]
    assert runner.st.chips == 18 * 1000 + race.delta
    runner.check_chips()
    await world.play(200)  # and play goes on
    runner.check_chips()
    await world.store.close()


async def test_R_19_45_a_chip_race_cut_short_by_a_crash_is_finished_once(tmp_path: Path) -> None:
    """R-19.45, R-2.5: dropped after the race was journaled, before the tables changed
    a stack: the restart makes every change, once."""
    world = World(tmp_path / "racecrash.sqlite3", _raced(25), seed=7)
    runner = await world.start(18)
    with crashing(world, "chips"):
        for _ in range(20_000):
            await step(runner, world.rng)
    runner = await world.reboot()
    assert runner.st.unit == 25
    runner.check_chips()
    runner = await world.reboot()
    runner.check_chips()
    changed = Counter(
        t for p in runner.ports.values() for t in p.table.state.moves if ":chips:" in t
    )
    assert changed and max(changed.values()) == 1
    for port in runner.ports.values():
        assert all(chips % 25 == 0 for chips in port.stacks().values())
    await world.play(100)
    runner.check_chips()
    await world.store.close()


# ---------------------------------------------------------------- money


async def test_R_19_46_a_tournament_s_money_in_the_ledger_and_the_standings(
    store_url: str,
) -> None:
    """R-19.46: a sit-and-go with rebuys and bounties played to its winner: each price
    paid (entries, rebuys, an unregistration's refund) and each player's prizes and
    bounties are ledger rows under the tournament's log, once; the players' totals
    and the leaderboard read them; the tables' ledgers stay empty (SQLite and
    PostgreSQL)."""
    config = _quick(Entries(rebuys=1, rebuy_until=2, bounty=20))
    world = World(store_url, config, seed=9)
    runner = await world.open(7)
    assert await runner.apply(director.unregister(runner.st, "p6"), "unregister:p6")
    assert (await runner.start()).ok
    rebought = 0
    for _ in range(50_000):
        if runner.st.status != "running":
            break
        await step(runner, world.rng)
        for entry in list(runner.st.seats):
            if runner.st.stacks[entry] <= 1000 and (await runner.rebuy(entry, key=entry)).ok:
                rebought += 1
    assert runner.st.status == "finished" and rebought > 0
    await _check_money(world, runner)
    winner = runner.st.winner
    assert winner is not None
    assert isinstance(world.store, StoreAdapter)
    board = await world.store.store.leaderboard()
    top = board[0]
    assert top.player_id == winner
    paid = sum(
        r.amount
        for r in await world.store.ledger_rows(journal_id("cup"))
        if r.player_id == winner and r.kind is not LedgerKind.CASH_OUT
    )
    assert top.net == settled(runner.st)[winner] - paid
    # Told its server, the tournament counts in that server's boards too.
    assert (await world.store.store.leaderboard(guild=77)) == []
    assert await runner.journal.record_guild(77)
    assert not await runner.journal.record_guild(77)
    server = (await world.store.store.leaderboard(guild=77))[0]
    assert (server.player_id, server.net) == (winner, top.net)
    mine = await world.store.store.player_totals(winner, guild=77)
    assert mine.cashed == settled(runner.st)[winner] and mine.bought == paid
    runner = await world.reboot()
    await _check_money(world, runner)  # nothing written twice by the restart
    await world.store.close()


async def test_R_19_44_a_stack_change_is_a_transfer_counted_at_the_table(tmp_path: Path) -> None:
    """R-19.44, R-2.5: ``Table.change_chips`` changes a stack between hands as a
    transfer (counted in the table's moves, no ledger row), once per transfer id, is
    refused during his hand or when it would leave no chip, and is recovered from the
    log after a restart."""
    world = World(tmp_path / "transfer.sqlite3", _quick(REBUYS))
    runner = await world.start(12)
    table = runner.table(1)
    user = table.state.seats[min(table.state.seats)].user_id
    seat = table.state.seat_of(user)
    assert seat is not None
    before = seat.stack
    done = await table.change_chips(user, 700, key="x1", transfer="cup:test:1")
    assert done.ok and done.msg is not None and done.msg.key == "tournament.chips_changed"
    assert seat.stack == before + 700 and table.state.moves["cup:test:1"] == 700
    assert table.state.conservation_error() is None
    again = await table.change_chips(user, 700, key="x2", transfer="cup:test:1")
    assert again.duplicate and seat.stack == before + 700
    none_left = await table.change_chips(user, -(before + 700), key="x3", transfer="cup:test:2")
    assert not none_left.ok and none_left.msg is not None
    assert none_left.msg.key == "tournament.refuse.chips"
    assert await world.store.ledger_rows(table.table_id) == []
    assert await runner.deal(2)
    other = runner.table(2)
    dealt = other.state.seats[min(other.state.seats)].user_id
    busy = await other.change_chips(dealt, 100, key="x4", transfer="cup:test:3")
    assert not busy.ok and busy.msg is not None and busy.msg.key == "deal.move.in_hand"
    assert "cup:test:3" not in other.state.moves
    runner = await world.reboot()
    table = runner.table(1)
    seat = table.state.seat_of(user)
    assert seat is not None and seat.stack == before + 700
    assert table.state.conservation_error() is None
    await world.store.close()


# ---------------------------------------------------------------- all of it, dropped at random


class Holder(Protocol):
    """Whatever holds the runner of the moment (a restart replaces it)."""

    runner: Runner


Command = Callable[[], Awaitable[Decision]]


def controlled() -> Config:
    """Rebuys through level 2, the add-on in levels 2 and 3, a color-up at level 3."""
    schedule = Schedule(
        (Level(5, 10, length=2), Level(10, 20, length=2), Level(25, 50, length=3),
         Level(50, 100, length=3), Level(100, 200, length=1000)),
        unit="hands",
    )  # fmt: skip
    return Config(
        buy_in=100, fee=10, stack=1000, schedule=schedule, seats=9,
        entries=Entries(rebuys=3, rebuy_until=2, addon=1000, addon_price=80, bounty=20),
        chip_races=((3, 5, 25),),
    )  # fmt: skip


async def _on_runner(
    holder: Holder, command: str, who: str, *, key: str, addon: bool = False
) -> Decision:
    runner = holder.runner
    if command == "pause":
        return await runner.pause(who, key=key)
    if command == "resume":
        return await runner.resume(who, key=key)
    return await runner.rebuy(who, addon=addon, key=key)


def random_command(holder: Holder, rng: random.Random, tag: str) -> Command | None:
    """Now and then the host pauses or resumes, or a player at or below the starting
    stack rebuys or takes the add-on (keys unique to ``tag``)."""
    state = holder.runner.st
    r = rng.random()
    if r < 0.01 and not state.paused:
        return partial(_on_runner, holder, "pause", "host", key=f"p{tag}")
    if state.paused and r < 0.1:
        return partial(_on_runner, holder, "resume", "host", key=f"r{tag}")
    if r < 0.15:
        low = sorted(e for e, c in state.stacks.items() if c <= 1000)
        if low:
            addon = rng.random() < 0.3
            who = rng.choice(low)
            return partial(_on_runner, holder, "rebuy", who, key=f"b{tag}", addon=addon)
    return None


async def random_play(holder: Holder, rng: random.Random, command: Command | None) -> None:
    """The command, or a robot's step (while paused: only hands in progress go on)."""
    runner = holder.runner
    if command is not None:
        await command()
    elif runner.st.paused:
        playing = [k for k, p in sorted(runner.ports.items()) if not p.between_hands()]
        if playing:
            number = rng.choice(playing)
            if await act(runner, number, rng):
                await runner.after_hand(number)
    else:
        await step(runner, rng)


async def _check_end(world: World) -> None:
    """Played to the end: every hand heard of once, every stack change made once at one
    table (read from every table's log, closed ones too), pauses and resumes in turn,
    chips and money exact."""
    runner = world.runner
    state = runner.st
    assert state.status == "finished", "played to the end"
    records = await runner.journal.records()
    started = Counter((r.table, r.hand) for r in records if isinstance(r, HandStarted))
    finished = Counter((r.table, r.hand) for r in records if isinstance(r, HandFinished))
    assert max(started.values()) == 1 and set(started) == set(finished)
    assert any(isinstance(r, ChipRaced) for r in records)
    assert sum(1 for r in records if isinstance(r, Rebought)) > 0
    made: Counter[str] = Counter()
    for number in state.table_hands:
        for row in await world.store.events(table_id("cup", number)):
            if row.kind == "chips_changed":
                made[row.payload["transfer"]] += 1
    assert sorted(made) == sorted(c.transfer for c in runner.changes)
    assert max(made.values()) == 1
    pauses = [type(r).__name__ for r in records if isinstance(r, Paused | Resumed)]
    assert pauses and all(a != b for a, b in itertools.pairwise(pauses))
    runner.check_chips()
    await _check_money(world, runner)


@pytest.mark.parametrize("seed", [21, 22])
async def test_R_19_43_pauses_rebuys_and_a_race_dropped_at_random_points_apply_once(
    tmp_path: Path, seed: int
) -> None:
    """R-19.41, R-19.43, R-19.44, R-19.45, R-19.46, R-2.5: robots play while the host
    pauses and resumes and players rebuy and take the add-on, a color-up due on the
    way; the service is dropped right after such decisions are journaled (before the
    tables heard of them) and at other points. After each restart the interrupted
    command, given again with its key, applies nothing; at the end every hand was heard
    of once, every stack change made once at one table, chips and money exact."""
    world = World(tmp_path / "random.sqlite3", controlled(), seed=seed)
    await world.start(18)
    rng = random.Random(seed)
    until = rng.randrange(10, 60)
    crashes = 0
    for n in range(200_000):
        if world.runner.st.status != "running":
            break
        if n == until:
            world.armed |= {"hold", "chips", "dealt", "level", "move"}
        command = random_command(world, rng, str(n))
        try:
            await random_play(world, world.rng, command)
        except Crash:
            crashes += 1
            while True:
                try:
                    await world.reboot()
                    break
                except Crash:
                    crashes += 1
            if not world.runner.st.playing:
                world.runner.check_chips()
            if command is not None:
                assert await command() == Decision(), "the same key applied twice"
            until = n + rng.randrange(10, 60)
    assert {"hold", "chips"} <= set(world.hit), world.hit
    assert crashes >= 4
    await _check_end(world)
    await world.store.close()


async def test_R_19_41_a_process_killed_during_pauses_and_rebuys_resumes(tmp_path: Path) -> None:
    """R-19.41, R-19.43, R-19.45, R-2.5: the process playing (pauses, rebuys, add-ons,
    the chip race) is killed with SIGKILL at random moments and restarted from the
    file each time, then played to the end here: nothing applied twice, chips and
    money exact."""
    path = tmp_path / "killed.sqlite3"
    rng = random.Random(13)
    kills = await kill_after_steps("tests.tourney_control_child", [str(path)], 4, 80, rng)
    assert kills >= 3
    world = World(path, controlled(), seed=99)
    runner = await world.recover()
    if not runner.st.playing:
        runner.check_chips()
    for n in range(200_000):
        if world.runner.st.status != "running":
            break
        await random_play(world, world.rng, random_command(world, rng, f"end:{n}"))
    await _check_end(world)
    await world.store.close()


async def test_R_19_44_a_change_made_at_a_table_no_longer_open_is_not_made_again(
    tmp_path: Path,
) -> None:
    """R-19.44: after a restart, a rebuy made at a table the runner no longer opens (a
    broken table is closed once its players moved on) is known from that table's log:
    nothing is pending, nothing is added twice."""
    world = World(tmp_path / "closed.sqlite3", _quick(REBUYS))
    runner = await world.start(12)
    number = runner.st.seats["p2"][0]
    assert (await runner.rebuy("p2", key="b")).ok
    runner = await world.reboot()
    runner.ports.pop(number)  # as if closed: its log is all that is left of it
    runner.made.clear()
    assert [c.entry for c in control.pending(runner)] == ["p2"]
    await control.recall_changes(runner)
    assert control.pending(runner) == []
    await world.store.close()
