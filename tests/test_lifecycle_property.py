"""The lifecycle property (R-2.5, invariant 4): random sequences of what a community and
an operator do to the tables of several channels over weeks — create, sit, deal, act,
let the clock run out, pause, close, reopen, the bot removed and added back (R-16.11),
the home-game options (§20: bomb pots by count and by vote, double boards, run it
twice, the 7-2 game, rabbit hunts, showing by choice), a restart on the same database,
and a kill between two writes — on the in-memory store,
a real SQLite file and PostgreSQL. After every step:

- chips are conserved at every table (R-2.5, carried pots included) and the ledger
  agrees with the log;
- every command is answered (no exception escapes the service);
- a refused command wrote nothing (all or nothing), and no fresh command is answered
  "already done";
- every restart starts every table (none halted) in the state it was left in.

``CHIPFIST_LIFECYCLE_EXAMPLES`` sets how many sequences run (a long run, once, for the
issue's note).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.table.clocks import ManualTime
from bot.table.ports import MemoryStore, RecordingPresenter, StorePort, open_store
from bot.table.recovery import ledger_error
from bot.table.service import TableService
from bot.table.settings import TableSettings
from bot.table.state import state_digest
from bot.table.table import Outcome, Table
from tests.pgcluster import Cluster

HOST = "host"
CHANNELS = ("c1", "c2")
USERS = ("ann", "bob", "cat", "dan")
GAMES = ("holdem", "omaha", "stud", "razz", "guts", "draw5", "stud8", "27triple")
WORDS = ("check", "call", "fold", "all in", "raise min", "bet min", "in", "out", "stand pat")
WORDS += ("declare high", "declare low", "bring in", "complete", "run twice no")
FITTING = {
    "bet": "bet min",
    "raise": "raise min",
    "bring_in": "bring in",
    "draw": "stand pat",
    "declare": "declare high",
    "guts": "in",
    "run_twice": "run twice yes",
}
EXAMPLES = int(os.environ.get("CHIPFIST_LIFECYCLE_EXAMPLES", "25"))


class Killed(Exception):
    """The process died between two writes (the store took none of the next one)."""


class KillableStore:
    """The durable store, behind a switch that "kills" the process before the n-th
    next append: that append and every later one never happen."""

    def __init__(self, inner: StorePort) -> None:
        self.inner = inner
        self.left: int | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def append(self, *args: Any, **kwargs: Any) -> int:
        if self.left is not None:
            if self.left <= 0:
                raise Killed()
            self.left -= 1
        return await self.inner.append(*args, **kwargs)


def _steps(kind: str, args: st.SearchStrategy[str], weight: int) -> list[Any]:
    # Most of a night happens at one table; the other channel's table comes and goes.
    channel = st.sampled_from(("c1", "c1", "c1", "c2"))
    return [st.tuples(st.just(kind), channel, args)] * weight


step = st.one_of(
    *_steps("create", st.sampled_from(GAMES), 2),
    *_steps("sit", st.sampled_from(USERS), 1),
    *_steps("deal", st.just(""), 4),
    *_steps("act", st.sampled_from(WORDS), 8),
    *_steps("clock", st.sampled_from(("31", "400")), 2),
    *_steps("stand", st.sampled_from(USERS), 1),
    *_steps("pause", st.sampled_from(("on", "off")), 1),
    *_steps("close", st.just(""), 1),
    *_steps("removed", st.just(""), 1),
    *_steps("kill", st.sampled_from(("0", "1", "2", "3")), 1),
    *_steps("bomb", st.sampled_from(USERS), 1),
    *_steps("rabbit", st.sampled_from(USERS), 1),
    *_steps("show", st.sampled_from(USERS), 1),
    st.tuples(st.just("restart"), st.just(""), st.just("")),
)


@dataclass
class World:
    """One database and the service of the process now running on it."""

    open_inner: Callable[[], Awaitable[StorePort]]
    time: ManualTime = field(default_factory=ManualTime)
    store: KillableStore | None = None
    service: TableService | None = None
    keys: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    steps: int = 0
    acts: int = 0
    restarts: int = 0
    stores: list[StorePort] = field(default_factory=list)

    def key(self) -> str:
        return f"k{next(self.keys)}"

    async def start(self) -> None:
        # A new process: the one before it is gone, its files closed by the kernel, and
        # with them the SQLite file's one-process lock (bot/store/inuse.py). Nothing of
        # it is left to commit: every append it made was awaited, or killed.
        while self.stores:
            await self.stores.pop().close()
        inner = await self.open_inner()
        self.stores.append(inner)
        self.store = KillableStore(inner)
        self.service = TableService(self.store, RecordingPresenter(), self.time)  # type: ignore[arg-type]
        halted = await self.service.recover()
        assert halted == [], [self.service.tables[t].state.halted for t in halted]
        self.restarts += 1

    async def restart(self) -> None:
        """A new process on the same database: each table as it was left."""
        assert self.service is not None
        before = {
            t: state_digest(table.state)
            for t, table in self.service.tables.items()
            if not table.state.closed
        }
        await self.start()
        assert self.service is not None
        after = {
            t: state_digest(table.state)
            for t, table in self.service.tables.items()
            if not table.state.closed
        }
        assert after == before

    def table(self, channel: str) -> Table | None:
        assert self.service is not None
        return self.service.get(channel)

    async def check(self) -> None:
        assert self.service is not None and self.store is not None
        for table in self.service.tables.values():
            error = table.conservation_error()
            assert error is None, error
            assert await ledger_error(self.store.inner, table.state) is None

    async def command(self, table: Table, run: Callable[[str], Awaitable[Outcome]]) -> None:
        """One command with a fresh key: answered; refused means nothing was written."""
        seq = table.state.seq
        out = await run(self.key())
        assert isinstance(out, Outcome)
        assert not out.duplicate, out.msg
        if not out.ok:
            assert table.state.seq == seq, out.msg

    async def act(self, table: Table, word: str) -> None:
        hand = table.state.hand
        info = table.state.current
        if hand is None or info is None:
            return
        actors = hand.actors()
        if not actors:
            return
        self.acts += 1
        actor = actors[self.acts % len(actors)]
        user = info.users[actor.position]
        legal = actor.legal
        text = word
        if word.split()[0] not in legal.actions and self.acts % 4:
            # Mostly a player says something that fits (the rest is bad input).
            name = sorted(legal.actions)[self.acts % len(legal.actions)]
            word = FITTING.get(name, name)
            text = word
        if word.endswith(" min"):
            amount = legal.min_to if legal.min_to else 0
            text = f"{word.split()[0]} to {amount}" if word.startswith("raise") else f"bet {amount}"
        await self.command(table, lambda key: table.act(user, text, key=key, turn=table.state.turn))

    async def run(self, kind: str, channel: str, arg: str) -> None:
        assert self.service is not None and self.store is not None
        self.steps += 1
        table = self.table(channel)
        if kind == "create":
            # Half the tables play the home-game options (§20) where their game has them.
            home: dict[str, Any] = {}
            if self.steps % 2:
                home = dict(run_it_twice=True, bomb_pot_every=2, seven_deuce_bounty=5)
                home.update(rabbit_hunt=True, double_board=bool(self.steps % 4 == 1))
            settings_ = TableSettings.of(variant=arg, small_blind=1, big_blind=2, **home)
            existing = table is not None and not table.state.closed
            out = await self.service.create(channel, HOST, settings_, key=self.key())
            assert out.ok != existing, out.msg
            if out.ok:  # a community opens a table with its regulars sitting down
                new = self.service.table(channel)
                for user in USERS[: 2 + self.steps % 3]:
                    await self.command(new, lambda key, u=user: new.sit(u, u, 100, key=key))
            assert out.code != "store_error", out.msg
        elif kind == "restart":
            await self.restart()
        elif table is None or table.state.closed:
            return
        elif kind == "sit":
            await self.command(table, lambda key: table.sit(arg, arg, 100, key=key))
        elif kind == "deal":
            await self.command(table, lambda key: table.deal(HOST, key=key))
            for _ in range(self.steps % 12):  # and the players play on
                await self.act(table, "check")
        elif kind == "act":
            for _ in range(2 + self.steps % 7):
                await self.act(table, arg)
        elif kind == "clock":
            self.time.advance(float(arg))
            await self.service.tick()
        elif kind == "stand":
            await self.command(table, lambda key: table.stand(arg, key=key))
        elif kind == "bomb":
            # a proposal, or a vote yes or no (refusals write nothing).
            agree = None if self.steps % 3 == 0 else self.steps % 3 == 1
            await self.command(table, lambda key: table.bomb_vote(arg, agree, key=key))
        elif kind == "rabbit":
            await self.command(table, lambda key: table.rabbit(arg, key=key))
        elif kind == "show":
            # showing by choice after the hand (all, or one card of two).
            which = ("all", "1", "2")[self.steps % 3]
            await self.command(table, lambda key: table.show_by_choice(arg, which, key=key))
        elif kind == "pause":
            await self.command(table, lambda key: table.pause(HOST, arg == "on", key=key))
        elif kind == "close":
            await self.command(table, lambda key: table.close(HOST, key=key))
        elif kind == "removed":
            # the bot removed from the server, then added back.
            await table.abandon("the dealer was removed from the server", by="test")
            out = await self.service.reopen(channel, key=self.key())
            assert out.ok, out.msg
        elif kind == "kill":
            # The process dies before its n-th next write; what it answered then is
            # never seen (nobody is left to send it).
            self.store.left = int(arg)
            try:
                for _ in range(4):
                    hand, info = table.state.hand, table.state.current
                    if hand is not None and info is not None and hand.to_act is not None:
                        word = "check" if "check" in hand.legal().actions else "call"
                        await table.act(info.users[hand.to_act], word, key=self.key())
                    else:
                        await table.deal(HOST, key=self.key())
            finally:
                self.store.left = None
            # Whatever the dying process did in memory is gone with it.
            await self.start()
        await self.check()

    async def close(self) -> None:
        for store in self.stores:
            close = getattr(store, "close", None)
            if close is not None:
                await close()


async def play(world: World, steps: list[tuple[str, str, str]]) -> None:
    await world.start()
    try:
        for kind, channel, arg in steps:
            await world.run(kind, channel, arg)
        await world.restart()
        await world.check()
        assert world.service is not None
        ended = 0
        for channel in CHANNELS:
            rows = await world.service.store.events(channel)
            ended += sum(1 for r in rows if r.kind == "hand_ended")
        hands = ended
        event(f"hands dealt: {min(hands, 5)}{'+' if hands >= 5 else ''}")
        event(f"restarts: {min(world.restarts, 4)}{'+' if world.restarts >= 4 else ''}")
    finally:
        await world.close()


steps_strategy = st.builds(
    lambda game, rest: [("create", "c1", game), *rest],  # the night starts with a table
    st.sampled_from(GAMES),
    st.lists(step, min_size=10, max_size=60),
)
hypothesis_settings = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@hypothesis_settings
@given(steps=steps_strategy)
def test_r2_5_lifecycle_on_the_memory_store(steps: list[tuple[str, str, str]]) -> None:
    """R-2.5 / invariant 4 over random lives of two channels' tables (memory store)."""
    store = MemoryStore()

    async def same() -> StorePort:
        return store

    asyncio.run(play(World(same), steps))


@settings(
    max_examples=max(3, EXAMPLES // 5),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(steps=steps_strategy)
def test_r2_5_lifecycle_on_a_sqlite_file(steps: list[tuple[str, str, str]]) -> None:
    """R-2.5 / invariant 4 over random lives, on a real SQLite file: every restart and
    kill opens the file anew."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "life.sqlite3")

        async def reopen() -> StorePort:
            return await open_store(path)

        asyncio.run(play(World(reopen), steps))


@pytest.mark.usefixtures("pg_cluster")
@settings(
    max_examples=max(2, EXAMPLES // 8),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(steps=steps_strategy)
def test_r2_5_lifecycle_on_postgresql(
    pg_cluster: Cluster, steps: list[tuple[str, str, str]]
) -> None:
    """R-2.5 / invariant 4 over random lives, on PostgreSQL: a new database each."""
    url = pg_cluster.new_database()

    async def reopen() -> StorePort:
        return await open_store(url)

    asyncio.run(play(World(reopen), steps))
