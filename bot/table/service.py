"""The table service: one :class:`Table` per channel, recovery at start, the clock loop.

A presenter (the Discord cogs, the terminal) holds one :class:`TableService` and calls
``service.table(channel_id)`` for the table of a channel, or ``service.create(...)``.
Tables do not share a lock, so they never wait for each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.poker.messages import Msg, msg
from bot.store.lease import shard_of
from bot.table.clocks import SystemTime, TimeSource
from bot.table.errors import TableError
from bot.table.levels import Level
from bot.table.log import GuildRecorded, Halted, PrivacyChosen, Sat, read_rows
from bot.table.ownership import NotOwned, Ownership, is_table_log
from bot.table.ports import LedgerKind, LedgerRow, Presenter, StorePort
from bot.table.predeal.stakes import CASH, StakesSource
from bot.table.record import Ledger
from bot.table.records import Records
from bot.table.recovery import ledger_error, load
from bot.table.session import PlayerStats, SessionReport, session_results
from bot.table.settings import TableSettings
from bot.table.standings import (
    DEFAULT_MIN_HANDS,
    DEFAULT_TOP,
    STANDINGS_LOG,
    Leaderboard,
    PlayerStanding,
    StandingsError,
    StandingsSource,
    check_board,
    scope_of,
)
from bot.table.state import TableState
from bot.table.table import Outcome, Table

log = logging.getLogger(__name__)


class TableService:
    def __init__(
        self,
        store: StorePort,
        presenter: Presenter,
        time: TimeSource | None = None,
        *,
        snapshot_every: int = 50,
        seed: str | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        self.snapshot_every = snapshot_every
        self.seed = seed
        """Local games only (``--seed``): reproducible deals; None is the secure shuffle."""
        self.store = store
        self.presenter = presenter
        self.time = time or SystemTime()
        self.tables: dict[str, Table] = {}
        self._creating: dict[str, asyncio.Lock] = {}
        self._clock_task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self.ownership = ownership
        """Several processes on one store: only the tables of held shards are driven."""
        self._lease_task: asyncio.Task[None] | None = None
        self.lease_hooks: list[Callable[[], Awaitable[object]]] = []
        """Run after each lease step, once the tables of the shards gained are recovered
        (what rides on those tables, a tournament's director, is adopted then): when
        a shard was gained or lost, and again after a hook failed."""
        self._hooks_due = False
        self.stakes: StakesSource = CASH
        """Where every table's deals take their stakes from (R-19.1): a tournament sets
        one source answering for its tables (``level(table_id)``; None for the others,
        dealt at their settings). Read at each deal, so tables recovered at start-up
        follow it too."""
        self._stakes = _Delegate(self._stakes_of)
        if ownership is not None:
            ownership.on_lost = self._lost

    # ------------------------------------------------------------------ tables

    def table(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            ownership = self.ownership
            known = ownership is not None and table_id in ownership.guilds
            if known and ownership is not None and not ownership.owns(table_id):
                raise NotOwned(table_id) from None  # its shard moved to another process
            raise TableError(msg("table.no_table")) from None

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def tournament_of(self, table_id: str) -> str:
        """The tournament that opened the loaded table ``table_id`` ("" for a cash
        table, or one not loaded): for presenters, which read no table state."""
        table = self.tables.get(table_id)
        return table.state.tournament if table is not None else ""

    async def create(
        self,
        table_id: str,
        host: str,
        settings: TableSettings | None = None,
        *,
        key: str | None = None,
        host_name: str | None = None,
        guild: int | None = None,
        tournament: str = "",
    ) -> Outcome:
        """R-1.1: one table per channel; the creator is the host (``host_name``: how the
        public line names him; his id otherwise). ``guild``: the server the channel is in
        (the platform's), recorded with the table for the standings and, when several
        processes share the store, for its shard. ``tournament``: the tournament opening
        it (recorded with it, R-19.3)."""
        if not is_table_log(table_id):
            raise ValueError(f"{table_id!r} is a reserved log id, not a table's")
        lock = self._creating.setdefault(table_id, asyncio.Lock())
        async with lock:
            existing = self.tables.get(table_id)
            if self.ownership is not None and existing is None:
                await self.ownership.record(table_id, guild)
                if not self.ownership.owns(table_id):
                    return _refused(NotOwned(table_id).msg, 0)
                # The shard may have just moved here, its tables still being recovered:
                # a table another process created is taken from the log, never shadowed
                # by a blank one (whose create would be a duplicate of the first).
                state = await load(self.store, table_id)
                if state.seq and table_id not in self.tables:
                    self.tables[table_id] = self._table(state)
                    await self.tables[table_id].settle()
                existing = self.tables.get(table_id)
            if existing is None and self.ownership is None:
                # A table closed before this start is not loaded; its channel's new
                # table continues its log, so start from it: the chip counters run on
                # for the whole channel (R-2.5, as recovery folds them).
                state = await load(self.store, table_id)
                if state.seq:
                    existing = self.tables[table_id] = self._table(state)
            if existing is not None and not existing.state.closed:
                return _refused(msg("table.channel_has_table"), existing.state.turn)
            # A closed table's channel opens a new one on the same log.
            table = existing if existing is not None else self._table(TableState(table_id))
            outcome = await table.create(
                host,
                settings or TableSettings(),
                key=key,
                host_name=host_name,
                guild=guild,
                tournament=tournament,
            )
            if outcome.ok:
                self.tables[table_id] = table
                self._wake.set()
            return outcome

    async def reopen(self, table_id: str, *, key: str) -> Outcome:
        """Open a closed table again with the settings and host it closed with (the
        platform's return after R-16.11 closed it); seats start empty."""
        table = self.tables.get(table_id)
        state = table.state if table is not None else await load(self.store, table_id)
        if not state.closed or not state.host:
            return _refused(msg("table.nothing_to_reopen"), state.turn)
        return await self.create(table_id, state.host, state.settings, key=key)

    def _table(self, state: TableState) -> Table:
        table = Table(
            state, self.store, self.presenter, self.time, snapshot_every=self.snapshot_every
        )
        table.seed = self.seed
        table.stakes = self._stakes
        return table

    def _stakes_of(self, table_id: str) -> Level | None:
        return self.stakes.level(table_id)

    # ------------------------------------------------------------------ recovery

    def open_count(self) -> int:
        """Tables not closed (the metrics' gauge)."""
        return sum(1 for t in self.tables.values() if not t.state.closed)

    def is_seated(self, table_id: str, user_id: str) -> bool:
        """Whether this user has a seat at this table (a presenter's first check)."""
        table = self.get(table_id)
        return table is not None and table.state.seat_of(user_id) is not None

    async def session(self, table_id: str) -> SessionReport:
        """Who is up and who is down at this table (``/ledger``, ``/settle``): the
        store's ledger sums per player and kind, the stacks still on the table, and the
        names from the log's seating rows (two small reads, however long the table has
        run)."""
        table = self.get(table_id)
        if table is None:
            return SessionReport((), {}, {})
        # This table's session only (the sums since its Created): an earlier table of
        # the channel settled its own.
        sums = await self.store.ledger_sums(table_id)
        rows = [LedgerRow(player, kind, amount) for (player, kind), amount in sums.items()]
        seats = list(table.state.seats.values())
        stacks = {s.user_id: s.stack for s in seats}
        # Players who stood up are in the results too: their names come from the log.
        seating = await self.store.seating(table_id)
        names = {sat.user: sat.name for sat in read_rows(seating, Sat, table_id=table_id)}
        names.update({s.user_id: s.name for s in seats})
        results = tuple(r for r in session_results(rows, stacks) if r.user_id != "house")
        totals = dict.fromkeys(LedgerKind, 0)
        for r in rows:
            totals[r.kind] += r.amount
        return SessionReport(results, names, totals if results else {})

    async def stats(self, table_id: str) -> list[PlayerStats]:
        """Hands played and won, net and biggest win per player (``/stats``): the
        store's running totals, one row per player, and the names from the seating."""
        totals = await self.store.hand_totals(table_id)
        seating = await self.store.seating(table_id)
        names = {sat.user: sat.name for sat in read_rows(seating, Sat, table_id=table_id)}
        out = [
            PlayerStats(
                t.player_id, names.get(t.player_id, t.player_id), t.hands, t.won, t.net, t.best
            )
            for t in totals
        ]
        return sorted(out, key=lambda s: (-s.net, s.user_id))

    async def session_ledger(self, table_id: str) -> Ledger:
        """The table's session's ledger (``/ledger``, ``/settle``; R-20.40)."""
        return await self.records.session_ledger(self.get(table_id), table_id)

    @property
    def records(self) -> Records:
        """The night's record: ledgers, settle-up, stats, boards, the story
        (bot/table/records.py)."""
        return Records(self.store)

    # ------------------------------------------------------------------ standings

    def _standings(self) -> StandingsSource:
        store = self.store
        if not isinstance(store, StandingsSource):
            raise StandingsError(msg("table.standings.no_store"))
        return store

    async def player_standing(
        self,
        player_id: str,
        *,
        scope: str = "everywhere",
        guild: int | None = None,
        viewer: str | None = None,
    ) -> PlayerStanding:
        """A player's stats over one server's tables (``guild``) or every table in the
        database (bot/table/standings.py), one query. A player hidden from the global
        boards shows his results across servers to himself only (``viewer``)."""
        name, where = scope_of(scope, guild)
        totals = await self._standings().player_totals(player_id, guild=where)
        if totals.hidden and name == "everywhere" and viewer not in (None, player_id):
            raise StandingsError(msg("table.standings.private"))
        return PlayerStanding(name, where, totals)

    async def leaderboard(
        self,
        *,
        scope: str = "server",
        guild: int | None = None,
        top: int = DEFAULT_TOP,
        min_hands: int = DEFAULT_MIN_HANDS,
    ) -> Leaderboard:
        """The top ``top`` by net (R-14.4, R-14.5), one query: this server's tables, or
        every server's, without the players who chose to be hidden from those."""
        check_board(top, min_hands)
        name, where = scope_of(scope, guild)
        rows = await self._standings().leaderboard(
            guild=where, min_hands=min_hands, limit=top, hide_private=name == "everywhere"
        )
        return Leaderboard(name, where, min_hands, tuple(rows))

    async def set_hidden(self, user_id: str, hidden: bool) -> None:
        """A player's choice about the global leaderboards (kept in the store's log)."""
        self._standings()
        rec = PrivacyChosen(user_id, hidden)
        await self.store.append(STANDINGS_LOG, rec.kind, rec.to_payload())

    async def fill_guilds(self, guild_of: Callable[[str], int | None]) -> list[str]:
        """Record the guild of each table that has none on record (tables from before
        guilds were recorded) when ``guild_of`` knows it; the ids recorded. Until then
        such a table counts in "everywhere" only.

        With several processes a table's shard follows its guild, so an open table's
        guild is recorded only where that cannot hand it to a second driver
        (:meth:`_regroup`); the others wait until they close (their next creation
        records the guild before its first event)."""
        source = self._standings()
        missing = await source.unguilded_tables()
        still_open = set(await self.store.open_tables()) if self.ownership and missing else set()
        recorded = []
        for table_id in missing:
            guild = guild_of(table_id)
            if guild is None:
                continue
            if table_id in still_open:
                if not await self._regroup(table_id, guild):
                    continue
            else:
                await self._record_guild(table_id, guild)
            recorded.append(table_id)
        return recorded

    async def _record_guild(self, table_id: str, guild: int) -> None:
        rec = GuildRecorded(table_id, guild)
        await self.store.append(STANDINGS_LOG, rec.kind, rec.to_payload())

    async def _regroup(self, table_id: str, guild: int) -> bool:
        """Record an open table's guild with several processes: only here, where it is
        driven (its guild unknown, it is on FALLBACK_SHARD, which this process holds),
        and only if its guild's shard is held here too, so the table stays with this
        process and no other one may adopt it. Under the table's lock: no append of it
        is in flight with the old shard's fence, and the next one carries the new's."""
        own = self.ownership
        table = self.tables.get(table_id)
        if own is None or table is None:
            return False

        def stays_here() -> bool:
            return own.owns(table_id) and shard_of(guild, own.shard_count) in own.held

        if not stays_here():
            return False
        async with table.lock:
            if not stays_here() or self.tables.get(table_id) is not table:
                return False
            await self._record_guild(table_id, guild)
            own.guilds[table_id] = guild
        return True

    async def recover(self, *, settle: bool = True) -> list[str]:
        """Rebuild every open table from the log (hands in progress replayed) and check
        conservation (R-2.5). Returns the ids of halted tables. ``settle`` then finishes
        what a crash cut in half (see :meth:`Table.settle`)."""
        ids = await self.store.open_tables()
        if self.ownership is not None:
            await self.ownership.learn(ids)
            ids = [t for t in ids if self.ownership.owns(t) and t not in self.tables]
        results = await asyncio.gather(*(load(self.store, t) for t in ids), return_exceptions=True)
        halted: list[str] = []
        loaded: list[Table] = []
        for table_id, state in zip(ids, results, strict=True):
            if isinstance(state, BaseException):
                if not isinstance(state, Exception):
                    raise state
                # One table whose log cannot be read must not keep the others (or the
                # bot) from starting: it is stopped, in memory only, and nothing moves.
                log.error("table %s: log unreadable", table_id, exc_info=state)
                state = TableState(table_id)
                state.halted = msg("table.unreadable_log")
                self.tables[table_id] = self._table(state)
                halted.append(table_id)
                continue
            if self.ownership is not None and state.table_id in self.tables:
                continue  # loaded meanwhile (a create while the shard was recovered)
            table = self._table(state)
            self.tables[state.table_id] = table
            loaded.append(table)
            try:
                await self._check_loaded(table)
            except Exception:
                log.exception("table %s: could not be started; halting it", table.table_id)
                table.halt_in_memory(msg("table.unstartable"))
            if table.state.halted:
                halted.append(state.table_id)
        if settle:
            # Only the tables just loaded: those already running are not cut in half.
            await asyncio.gather(*(t.settle() for t in loaded))
            halted.extend(t.table_id for t in loaded if t.state.halted and t.table_id not in halted)
        self._wake.set()
        return halted

    async def _check_loaded(self, table: Table) -> None:
        """A table just rebuilt: cancel a hand it cannot replay (R-16.8) and halt it on a
        count that disagrees with its ledger (R-2.5)."""
        state = table.state
        if state.current is not None and state.current.replay_error is not None:
            async with table.lock:
                await table.cancel_unreplayable()
        error = state.conservation_error() or await ledger_error(self.store, state)
        if error and not state.halted:
            async with table.lock:
                await table._commit(Halted(error))

    async def settle_all(self) -> None:
        await asyncio.gather(*(t.settle() for t in self.tables.values()))

    # ------------------------------------------------------------------ shards

    async def lease_step(self) -> list[str]:
        """Renew the leases, take shards, adopt the tables of the shards gained (replayed
        from the log, as at start) and drop those of the shards lost. Returns the ids of
        halted tables among those adopted."""
        assert self.ownership is not None
        change = await self.ownership.step()
        for shard in change.lost:
            self._lost(shard)
        halted: list[str] = []
        # Replaying the tables and adopting tournaments may outlast the lease: renew it
        # meanwhile, or the shard would lapse and be taken again under a new fence.
        async with self.ownership.kept():
            if change.gained:
                started = self.time.now()
                before = len(self.tables)
                halted = await self.recover()
                log.info(
                    "shards %s: %d tables recovered in %.2f s",
                    change.gained,
                    len(self.tables) - before,
                    self.time.now() - started,
                )
            if change.gained or change.lost or self._hooks_due:
                self._hooks_due = False
                for hook in self.lease_hooks:
                    try:
                        await hook()
                    except Exception:  # retried at the next step; the tables run on
                        log.exception("after the lease step: %r failed", hook)
                        self._hooks_due = True
        return halted

    def _lost(self, shard: int) -> None:
        """Stop driving the tables of ``shard`` (another process has them now)."""
        assert self.ownership is not None
        gone = [t for t in self.tables if self.ownership.shard(t) == shard]
        for table_id in gone:
            del self.tables[table_id]
        if gone:
            log.warning("shard %d lost: %d tables no longer driven here", shard, len(gone))

    async def run_leases(self, *, standby_delay: float | None = None) -> None:
        """Keep the leases forever: a step every third of the lease time. A standby
        waits one lease time first, so the owners starting beside it take theirs."""
        assert self.ownership is not None
        ttl = self.ownership.leases.ttl
        if self.ownership.standby:
            await asyncio.sleep(ttl if standby_delay is None else standby_delay)
        while True:
            try:
                await self.lease_step()
            except Exception:  # the database is away: the fences keep the tables safe
                log.exception("lease step failed; retrying")
            await asyncio.sleep(ttl / 3)

    def start_leases(self) -> None:
        if self.ownership is not None and self._lease_task is None:
            self._lease_task = asyncio.create_task(self.run_leases(), name="shard-leases")

    # ------------------------------------------------------------------ clocks

    async def tick(self) -> int:
        """Run every clock that is due now; returns how many fired (tests call this)."""
        now = self.time.now()
        due = [t for t in self.tables.values() if (d := t.due_at()) is not None and d <= now]
        fired = await asyncio.gather(*(t.on_clock() for t in due), return_exceptions=True)
        for table, result in zip(due, fired, strict=True):
            if isinstance(result, BaseException):
                # One table's failure never stops the clocks of the others.
                if not isinstance(result, Exception):
                    raise result  # cancelled: the clock loop is being stopped
                log.error("table %s: clock failed", table.table_id, exc_info=result)
        return sum(1 for f in fired if f is True)

    def next_due(self) -> float | None:
        dues = [d for t in self.tables.values() if (d := t.due_at()) is not None]
        return min(dues, default=None)

    async def run_clocks(self, max_sleep: float = 0.5) -> None:
        """Fire clocks forever: sleep until the earliest deadline (or ``max_sleep``)."""
        while True:
            await self.tick()
            nxt = self.next_due()
            delay = max_sleep if nxt is None else max(0.0, min(max_sleep, nxt - self.time.now()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

    def wake(self) -> None:
        """Look at the clocks again now (a table's hold was lifted, say)."""
        self._wake.set()

    def start_clocks(self) -> None:
        if self._clock_task is None:
            self._clock_task = asyncio.create_task(self.run_clocks(), name="table-clocks")

    async def stop(self) -> None:
        if self._lease_task is not None:
            self._lease_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lease_task
            self._lease_task = None
        if self._clock_task is not None:
            self._clock_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._clock_task
            self._clock_task = None


def _refused(said: Msg, turn: int) -> Outcome:
    """A refusal given as a message."""
    return Outcome(False, said, turn)


class _Delegate:
    """A table's stakes source that asks the service's at each deal."""

    def __init__(self, of: Callable[[str], Level | None]) -> None:
        self._of = of

    def level(self, table_id: str) -> Level | None:
        return self._of(table_id)
