"""The host's pause and cancel, rebuys, the add-on and the chip race, carried out by the
runner at real tables of the service (SQLite file): clocks, seats, chips and money
checked after each, and after the service is dropped at the worst moment."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.table.clocks import ManualTime
from bot.table.ports import NullPresenter, StorePort, open_store
from bot.table.service import TableService
from bot.tournament.director import Decision
from bot.tournament.log import Cancelled, ChipRaced, HandStarted, LevelUp, Rebought
from bot.tournament.structure import Config, Entries, Level, Schedule, preset
from bot.tourney_run import control
from bot.tourney_run.robots import act, step
from bot.tourney_run.runner import Runner

START = 1_700_000_000.0


class Crash(Exception):
    """The process dies here."""


class World:
    """A tournament on a SQLite file, its service and clock; :meth:`reboot` drops it and
    recovers from the file as a restarted process does."""

    def __init__(self, path: Path, config: Config, seed: int = 1) -> None:
        self.path, self.config, self.seed = path, config, seed
        self.time = ManualTime(START)
        self.rng = random.Random(seed)
        self.crash_at: str | None = None
        self.store: StorePort
        self.runner: Runner

    def _checkpoint(self, where: str) -> None:
        if where == self.crash_at:
            self.crash_at = None
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
    world.time.advance(3600)
    await runner.tick()
    assert runner.st.level == 0, "the level clock stops during the pause"
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
    for port in runner.ports.values():
        assert await world.store.ledger_rows(port.table.table_id) == []
    assert await runner.after_hand(busy[0]) == []  # nothing heard of a called-off hand
    assert not await runner.deal(busy[0])
    await world.store.close()


async def test_R_19_42_a_cancel_cut_short_by_a_crash_is_finished_once(tmp_path: Path) -> None:
    """R-19.42: the service dropped right after the cancel was journaled, before any
    table heard of it: the restart calls off the hand, empties and closes every table,
    once; a second restart changes nothing."""
    world = World(tmp_path / "cut.sqlite3", _config(Entries(bounty=20)), seed=6)
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
