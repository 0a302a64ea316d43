"""What keeps tournaments moving on a live service: one loop over the open tournaments
that ticks their levels by the clock, tells each runner of every hand a table finished,
deals every table the runner says may deal, and starts a scheduled one at its time.

Players act at the tables by the platform's own commands (buttons, slash commands); the
driver only notices what the tables did (it reads their state, never a presenter's
words) and carries the director's side out through :class:`~bot.tourney_run.runner.
Runner`. Each tournament's steps run under its own lock, so a registration click and the
loop never interleave. The platform is told through :class:`Hooks`: a table's place is
made before its first deal, and what the director said is handed on as messages.

Which tournaments exist is the driver's index, a reserved log (:data:`INDEX_LOG`): one
``opened`` record per tournament (its id, where it was opened, its start time), so
:meth:`Driver.recover` finds them after a restart and each runner's ``load()`` finishes
what a crash cut short.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot.poker.messages import Msg
from bot.table.ownership import RESERVED_PREFIX, NotOwned
from bot.table.ports import DuplicateKey
from bot.table.service import TableService
from bot.tournament import director
from bot.tournament.director import Decision, State
from bot.tournament.structure import Config
from bot.tourney_run import waiting
from bot.tourney_run.journal import journal_id
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id

log = logging.getLogger(__name__)

INDEX_LOG = f"{RESERVED_PREFIX}tournaments"
"""Reserved log: one ``opened`` record per tournament, never a table."""
OPENED = "opened"
LIVE = ("registering", "running")


@dataclass(frozen=True, slots=True)
class Opened:
    """A tournament in the index: its id, the platform's place for it (a channel id
    here, 0 for none), who opened it, and when a scheduled one starts (0: by hand);
    the host's ``title`` (empty: none), the platform's ``guild`` (0: none) and the
    tournament's ``number`` among that guild's (0: not counted), which name it when it
    has no title (:func:`bot.tourney_run.titles.event_said`)."""

    tournament: str
    place: int = 0
    host: str = ""
    starts_at: float = 0.0
    title: str = ""
    guild: int = 0
    number: int = 0

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tournament": self.tournament,
            "place": self.place,
            "host": self.host,
            "starts_at": self.starts_at,
        }
        extra = {"title": self.title, "guild": self.guild, "number": self.number}
        return out | {k: v for k, v in extra.items() if v}

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> Opened:
        return cls(
            str(data["tournament"]),
            int(data.get("place", 0)),
            str(data.get("host", "")),
            float(data.get("starts_at", 0.0)),
            str(data.get("title", "")),
            int(data.get("guild", 0)),
            int(data.get("number", 0)),
        )


class Hooks(Protocol):
    """What the driver asks of the platform."""

    async def place(self, tournament: str, table_id: str) -> None:
        """Make (once) the place ``table_id`` is played in; called before it deals."""

    async def said(self, tournament: str, message: Msg) -> None:
        """The director said this (a registration, a move, a level, a place...)."""

    async def changed(self, tournament: str) -> None:
        """The tournament's state changed (its status board is to be redrawn)."""

    async def finished(self, tournament: str) -> None:
        """The tournament is over (its standings are to be posted); once per run."""

    async def moved(self, tournament: str, entry: str, table_id: str) -> None:
        """``entry`` now plays at ``table_id`` (a balancing move or a broken table)."""


class Driver:
    """Every open tournament on ``service`` and the loop that moves them."""

    def __init__(
        self,
        service: TableService,
        hooks: Hooks,
        *,
        interval: float = 0.5,
        between: float = 0.0,
        rng: Callable[[str], random.Random] | None = None,
    ) -> None:
        self.service = service
        self.hooks = hooks
        self.interval = interval
        self.between = between
        """Seconds a table waits after a hand before the next deal (the players see
        the showdown); 0: at once."""
        self.refresh = 30.0
        """Seconds after which a running tournament's board is redrawn anyway."""
        self._told_at: dict[str, float] = {}
        self._ended: dict[tuple[str, int], float] = {}
        """(tournament, table) -> when the driver saw its last hand over."""
        self.runners: dict[str, Runner] = {}
        self.opened: dict[str, Opened] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._rng = rng or (lambda _t: random.Random())
        self._told_end: set[str] = set()
        self._told_moves: dict[str, int] = {}
        """Per tournament: the moves of the runner's history already told."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.waiting: set[str] = set()
        """Scheduled tournaments whose start time found too few players: they wait for
        their host's start (kept in their journals, R-19.68)."""
        self.owns: Callable[[str], bool] = lambda _tournament: True
        """Whether this process runs a tournament (several processes on one store:
        the holder of its shard's lease, :mod:`bot.tourney_run.lease`)."""
        self.elsewhere: set[str] = set()
        """Tournaments of the index another process runs (a command for one is told
        it is moving, as a cash table's is)."""

    # ------------------------------------------------------------ the index

    def lock(self, tournament: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament, asyncio.Lock())

    def _runner(self, tournament: str) -> Runner:
        async def tell(message: Msg) -> None:
            await self.hooks.said(tournament, message)

        return Runner(self.service, tournament, rng=self._rng(tournament), tell=tell)

    async def create(self, opened: Opened, config: Config) -> Runner | None:
        """Open a tournament (once: None when its id is taken)."""
        if opened.tournament in self.runners:
            return None
        try:
            await self.service.store.append(
                INDEX_LOG, OPENED, opened.to_payload(), idem_key=f"open:{opened.tournament}"
            )
        except DuplicateKey:
            return None
        runner = self._runner(opened.tournament)
        async with self.lock(opened.tournament):
            await runner.create(config)
        self.runners[opened.tournament] = runner
        self.opened[opened.tournament] = opened
        return runner

    def forget(self, tournament: str) -> None:
        """Another process runs ``tournament`` now: no step, no command of it here
        (its index entry stays: a command in its channel still finds it, and is told)."""
        self.runners.pop(tournament, None)
        self.elsewhere.add(tournament)

    async def recover(self) -> list[str]:
        """Load every tournament of the index still registering or running that this
        process runs and has not loaded yet, finishing what a crash (or the process
        that ran it before) cut short; returns their ids."""
        loaded = []
        rows = [r for r in await self.service.store.events(INDEX_LOG) if r.kind == OPENED]
        if self.service.ownership is not None:  # whose each one is: its journal's guild
            ids = [journal_id(Opened.from_payload(r.payload).tournament) for r in rows]
            await self.service.ownership.learn(ids)
        for row in rows:
            opened = Opened.from_payload(row.payload)
            if opened.tournament in self.runners:
                continue
            if not self.owns(opened.tournament):
                self.opened[opened.tournament] = opened
                self.elsewhere.add(opened.tournament)
                continue
            self.elsewhere.discard(opened.tournament)
            runner = self._runner(opened.tournament)
            async with self.lock(opened.tournament):
                if not await runner.load():
                    continue
            if runner.st.status == "registering" and await waiting.waiting(runner.journal):
                self.waiting.add(opened.tournament)  # not started by the clock
                opened = replace(opened, starts_at=0.0)
            self.opened[opened.tournament] = opened
            self.runners[opened.tournament] = runner
            self._told_moves[opened.tournament] = len(runner.history)
            if runner.st.status in LIVE:
                loaded.append(opened.tournament)
            else:
                self._told_end.add(opened.tournament)
        self.kick()
        return loaded

    def get(self, tournament: str) -> Runner | None:
        return self.runners.get(tournament)

    def standing(self, tournament: str) -> State | None:
        """The director's state of a tournament (None: none such, or not loaded)."""
        runner = self.runners.get(tournament)
        return None if runner is None else runner.state

    def waiting_for_host(self, tournament: str) -> bool:
        """A scheduled tournament past its start time with too few players, still
        registering: only its host's start starts it (R-19.65, R-19.68)."""
        state = self.standing(tournament)
        return tournament in self.waiting and state is not None and state.status == "registering"

    def at_place(self, place: int) -> list[str]:
        """The tournaments opened at ``place``, newest last."""
        return [t for t, o in self.opened.items() if o.place == place]

    # ------------------------------------------------------------ commands

    async def register(self, tournament: str, player: str, name: str) -> Decision:
        return await self.run(tournament, lambda runner: runner.register(player, name))

    async def unregister(self, tournament: str, player: str) -> Decision:
        async def unregister(runner: Runner) -> Decision:
            decision = director.unregister(runner.st, player)
            await runner.apply(decision, f"unregister:{runner.count}:{player}")
            return decision

        return await self.run(tournament, unregister)

    async def start(self, tournament: str) -> Decision:
        return await self.run(tournament, lambda runner: runner.start())

    async def run(
        self, tournament: str, command: Callable[[Runner], Awaitable[Decision]]
    ) -> Decision:
        """Any runner command (a registration, pause, resume, cancel...) under the
        tournament's lock, then the loop woken. Refused, nothing written, when another
        process runs the tournament now (R-19.77)."""
        runner = self.runners.get(tournament)
        if runner is not None and not self.owns(tournament):
            self.forget(tournament)
            runner = None
        if runner is None:
            if tournament not in self.elsewhere:
                raise KeyError(tournament)
            return Decision(refusal=NotOwned(tournament).msg)
        try:
            async with self.lock(tournament):
                decision = await command(runner)
        except NotOwned as refused:  # the lease went while it waited: the store refused
            self.forget(tournament)
            return Decision(refusal=refused.msg)
        await self._after_command(tournament, decision)
        return decision

    async def _after_command(self, tournament: str, decision: Decision) -> None:
        if decision.ok:
            await self.hooks.changed(tournament)
            self.kick()

    # ------------------------------------------------------------ the loop

    def kick(self) -> None:
        """Step soon (a hand may have ended, a tournament started)."""
        self._wake.set()

    async def step(self, tournament: str) -> bool:
        """One pass over one tournament; True when something happened."""
        runner = self.runners[tournament]
        moved = False
        async with self.lock(tournament):
            state = runner.st
            opened = self.opened.get(tournament)
            now = self.service.time.now()
            if state.status == "registering" and opened and 0 < opened.starts_at <= now:
                decision = await runner.start()
                moved = decision.ok
                if not decision.ok:
                    # Too few at the time: it waits for players and a start by hand,
                    # said once even across a restart.
                    self.opened[tournament] = Opened(opened.tournament, opened.place, opened.host)
                    self.waiting.add(tournament)
                    moved = True  # its board now says it waits for its host
                    if await waiting.mark(runner.journal) and decision.refusal is not None:
                        await self.hooks.said(tournament, decision.refusal)
            if runner.st.status == "running":
                moved = await self._play(runner) or moved
        await self._tell_moves(runner)
        if runner.st.status == "finished" and tournament not in self._told_end:
            self._told_end.add(tournament)
            await self.hooks.changed(tournament)
            await self.hooks.finished(tournament)
        elif moved or self._stale(runner):
            self._told_at[tournament] = self.service.time.now()
            await self.hooks.changed(tournament)
        return moved

    def _stale(self, runner: Runner) -> bool:
        """A running tournament's board is told again every :attr:`refresh` seconds
        even when nothing happened: its clock (the next level in minutes) moves on."""
        told = self._told_at.get(runner.tournament)
        now = self.service.time.now()
        return runner.st.status == "running" and (told is None or now - told >= self.refresh)

    async def _tell_moves(self, runner: Runner) -> None:
        told = self._told_moves.get(runner.tournament, 0)
        new = runner.history[told:]
        self._told_moves[runner.tournament] = told + len(new)  # each told once
        for _, move in new:
            await self.hooks.moved(
                runner.tournament, move.entry, table_id(runner.tournament, move.to_table)
            )

    async def _play(self, runner: Runner) -> bool:
        before = runner.count
        await runner.tick()
        for number in sorted(runner.ports):
            table = runner.table(number)
            st = table.state
            mid = st.in_hand and st.hand_no == runner.last_hand.get(number)
            if number in runner.st.playing and not mid:
                await runner.after_hand(number)
                self._ended[(runner.tournament, number)] = self.service.time.now()
        dealt = False
        now = self.service.time.now()
        if runner.st.status == "running":
            for number in runner.ready():
                if now < self._ended.get((runner.tournament, number), 0.0) + self.between:
                    continue  # the last hand's end still on show
                await self.hooks.place(runner.tournament, table_id(runner.tournament, number))
                dealt = await runner.deal(number) or dealt
        return dealt or runner.count != before

    async def step_all(self) -> None:
        for tournament in list(self.runners):
            if not self.owns(tournament):
                self.forget(tournament)  # its lease lost: the new owner drives it
                continue
            runner = self.runners[tournament]
            if runner.state is None or runner.st.status not in LIVE:
                if runner.state is not None and runner.st.status == "finished":
                    await self.step(tournament)  # tells the end once
                continue
            try:
                await self.step(tournament)
            except NotOwned:
                log.warning("tournament %s: its shard went to another process", tournament)
                self.forget(tournament)
            except Exception:  # one tournament's trouble stops neither the loop nor others
                log.exception("tournament %s: step failed; retried next pass", tournament)

    async def loop(self) -> None:
        while True:
            self._wake.clear()
            await self.step_all()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.interval)

    def start_loop(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self.loop(), name="tournaments")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


__all__ = ["INDEX_LOG", "Driver", "Hooks", "Opened"]
