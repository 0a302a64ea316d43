"""Which tables this process drives, when several processes share one PostgreSQL store.

A table belongs to the shard of its guild (``(guild_id >> 22) % shard_count``, Discord's
formula). A process drives the tables of the shards whose lease it holds
(:mod:`bot.store.lease`): :class:`Ownership` renews those leases, takes the shards it is
configured for (and, as a standby, any shard whose lease expired), and tells the table
service which shards it gained (recover their tables from the log) and lost (stop
driving them). Every append of a table carries its shard's fence
(:meth:`Ownership.fence_for`), so a process that lost a shard without noticing (paused,
its lease expired and taken) is refused by the store; :meth:`Ownership.stale` then drops
the shard at once instead of failing command after command.

Tables with no guild on record (created before sharding) belong to shard
:data:`FALLBACK_SHARD` until their guild is recorded. Logs whose id starts with
:data:`RESERVED_PREFIX` are not tables but the Discord side's process-wide records (the
command-sync hash, players' preferences, table message ids): no shard owns them, any
process may append to them, and their appends carry no fence.

Logs that go together share a shard: :attr:`Ownership.anchor` names, for a log, the log
whose guild decides its shard (a tournament's tables, its moves log and its journal all
follow the journal, :mod:`bot.tourney_run.lease`). A reserved log with an anchor is
owned and fenced like a table: only the process holding its shard appends to it.

Nothing here knows Discord: the guild of a new table comes from ``guild_of`` (the
presenter's lookup of a channel's guild).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from bot.poker.messages import msg
from bot.store.lease import Lease, shard_of
from bot.table.errors import TableError

log = logging.getLogger(__name__)

FALLBACK_SHARD = 0
"""The shard of a table whose guild is unknown (tables from before sharding)."""
RESERVED_PREFIX = "_"
"""Log ids starting with this are process-wide records, never a table (table ids are
channel ids, ``local``, or ids of tables not named after a channel such as a
tournament's ``tn:<tournament>:<n>``, whose place the presenter records, R-19.3)."""


def is_table_log(log_id: str) -> bool:
    """Whether ``log_id`` is a table's log (owned by a shard), not a reserved one."""
    return not log_id.startswith(RESERVED_PREFIX)


def no_anchor(_log_id: str) -> str | None:
    """Every log on its own guild's shard."""
    return None


class NotOwned(TableError):
    """This process does not hold the table's shard (any more): nothing was written."""

    code = "not_owned"

    def __init__(self, table_id: str) -> None:
        super().__init__(msg("table.not_owned"))
        self.table_id = table_id


class LeasePort(Protocol):
    ttl: float

    async def acquire(self, shard: int, owner: str) -> Lease | None: ...

    async def renew(self, lease: Lease) -> Lease | None: ...

    async def release(self, lease: Lease) -> None: ...

    async def record_guild(self, table_id: str, guild_id: int) -> None: ...

    async def guilds(self, table_ids: list[str]) -> dict[str, int]: ...

    async def close(self) -> None: ...


def parse_shards(text: str) -> frozenset[int]:
    """``"0-3"``, ``"0,2,5-6"`` -> the shard ids; ``""`` -> none. Raises ValueError
    with what is allowed."""
    out: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ValueError(
                f"{part!r} is not a shard or a range: write shard ids like 0-3 or 0,2,5-6"
            ) from None
        if first < 0 or last < first:
            raise ValueError(f"{part!r}: a range goes from a low shard id to a higher one")
        out.update(range(first, last + 1))
    return frozenset(out)


@dataclass
class Change:
    gained: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)


class Ownership:
    """The shards this process holds, and the fence of each of its tables."""

    def __init__(
        self,
        leases: LeasePort,
        owner: str,
        shard_count: int,
        shards: Iterable[int] = (),
        *,
        standby: bool = False,
        guild_of: Callable[[str], int | None] | None = None,
    ) -> None:
        if shard_count < 1:
            raise ValueError("the shard count must be at least 1")
        self.leases = leases
        self.owner = owner
        self.shard_count = shard_count
        self.wanted = frozenset(shards)
        bad = sorted(s for s in self.wanted if s >= shard_count)
        if bad:
            raise ValueError(f"shards {bad} do not exist: ids go from 0 to {shard_count - 1}")
        self.standby = standby
        self.guild_of = guild_of
        self.held: dict[int, Lease] = {}
        self.valid_until: dict[int, float] = {}
        """Per held shard, the monotonic time its lease surely still runs until: the
        moment the renew (or acquire) was sent, plus the lease's length. The server
        counts the length from when it ran the statement, which is later, so this end
        comes first. A process that was paused past it (SIGSTOP, a hung host) refuses its
        tables' commands at once on waking, before its next lease step has told it
        whether the shard is still its own."""
        self.guilds: dict[str, int] = {}
        self.on_lost: Callable[[int], None] | None = None
        """Called when a stale append shows a shard was lost (the service drops it)."""
        self.anchor: Callable[[str], str | None] = no_anchor
        """The log whose guild decides a log's shard when they go together (None: its
        own). A reserved log with an anchor is owned and fenced as a table is."""
        self._lost_meanwhile: list[int] = []
        """Shards whose renewal failed while :meth:`kept` ran; the next step tells them."""

    # ------------------------------------------------------------------ tables

    def shard(self, table_id: str) -> int:
        guild = self._guild(table_id)
        return FALLBACK_SHARD if guild is None else shard_of(guild, self.shard_count)

    def _guild(self, log_id: str) -> int | None:
        """The anchor's guild first: a log that goes with another is on its shard
        whatever was recorded for it on its own."""
        lead = self.anchor(log_id)
        guild = self.guilds.get(lead) if lead is not None else None
        return self.guilds.get(log_id) if guild is None else guild

    def fenced(self, log_id: str) -> bool:
        """Whether appends to ``log_id`` belong to a shard (a table, or a reserved log
        anchored to one), so carry its fence."""
        return is_table_log(log_id) or self.anchor(log_id) is not None

    def owns(self, table_id: str) -> bool:
        return self._current(self.shard(table_id)) is not None

    def _current(self, shard: int) -> Lease | None:
        """The shard's lease, if held and not run out by this process's own clock."""
        lease = self.held.get(shard)
        if lease is None:
            return None
        until = self.valid_until.get(shard)
        if until is not None and time.monotonic() >= until:
            return None
        return lease

    def fence_for(self, table_id: str) -> tuple[str, int] | None:
        """The fence every append of ``table_id`` carries (None for a reserved log, which
        no shard owns); :class:`NotOwned` if this process does not hold its shard."""
        if not self.fenced(table_id):
            return None
        lease = self._current(self.shard(table_id))
        if lease is None:
            raise NotOwned(table_id)
        return lease.fence

    def refusal(self, table_id: str) -> Exception:
        return NotOwned(table_id)

    def stale(self, table_id: str) -> None:
        """The store refused an append of ``table_id``: its shard went to another
        process. Drop the shard (once) and let the service stop its tables."""
        shard = self.shard(table_id)
        self.valid_until.pop(shard, None)
        if self.held.pop(shard, None) is not None:
            log.warning(
                "shard %d was taken over by another process (a write was refused): "
                "no longer driving its tables",
                shard,
            )
            if self.on_lost is not None:
                self.on_lost(shard)

    async def learn(self, table_ids: list[str]) -> None:
        """Load the recorded guilds of these tables (and of their anchors)."""
        anchors = [a for t in table_ids if (a := self.anchor(t)) is not None]
        missing = sorted({t for t in [*table_ids, *anchors] if t not in self.guilds})
        if missing:
            self.guilds.update(await self.leases.guilds(missing))

    async def record(self, table_id: str, guild: int | None = None) -> None:
        """Record a new table's guild before its first event: ``guild`` as the caller
        knows it (the interaction that creates the table carries it), else ``guild_of``
        (the gateway's cache, which may not hold the channel: a thread, or a guild not yet
        loaded). Without either the table would fall to :data:`FALLBACK_SHARD`, which is
        not its guild's shard, the one Discord sends its interactions to."""
        lead = self.anchor(table_id)
        if guild is None and lead is not None and lead != table_id:
            guild = self.guilds.get(lead)  # it goes with its anchor, whatever its place
        if guild is None and self.guild_of is not None:
            guild = self.guild_of(table_id)
        if guild is not None and self.guilds.get(table_id) != guild:
            await self.leases.record_guild(table_id, guild)
            self.guilds[table_id] = guild

    # ------------------------------------------------------------------ leases

    async def step(self) -> Change:
        """Renew what is held, take what is wanted (and, as a standby, what lapsed)."""
        change = Change()
        change.lost.extend(self._lost_meanwhile)
        self._lost_meanwhile.clear()
        change.lost.extend(await self.renew())
        candidates = range(self.shard_count) if self.standby else sorted(self.wanted)
        for shard in candidates:
            if shard in self.held:
                continue
            sent = time.monotonic()
            taken = await self.leases.acquire(shard, self.owner)
            if taken is not None:
                self.held[shard] = taken
                self.valid_until[shard] = sent + self.leases.ttl
                change.gained.append(shard)
                log.info("took shard %d (generation %d)", shard, taken.generation)
        return change

    async def renew(self) -> list[int]:
        """Renew every lease held; the shards whose lease was lost (no longer held)."""
        lost: list[int] = []
        for shard, lease in list(self.held.items()):
            sent = time.monotonic()
            renewed = await self.leases.renew(lease)
            if self.held.get(shard) is not lease:
                continue  # dropped meanwhile (a stale append)
            if renewed is None:
                del self.held[shard]
                self.valid_until.pop(shard, None)
                lost.append(shard)
                log.warning("lease of shard %d lost: no longer driving its tables", shard)
            else:
                self.held[shard] = renewed
                self.valid_until[shard] = sent + self.leases.ttl
        return lost

    @contextlib.asynccontextmanager
    async def kept(self) -> AsyncIterator[None]:
        """Keep renewing the leases held, every third of the lease time, while the body
        runs. The work after a take-over (replaying the tables, adopting tournaments) can
        outlast a short lease on a busy host; a lease let lapse meanwhile is not renewable,
        only taken again with a new generation, which refuses this process's own writes
        of the meantime. Leases lost here are told by the next :meth:`step`."""
        done = asyncio.Event()

        async def keep() -> None:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done.wait(), self.leases.ttl / 3)
                if done.is_set():
                    return
                try:
                    self._lost_meanwhile.extend(await self.renew())
                except Exception:  # the database is away: the next step retries
                    log.exception("lease renewal failed; retrying")

        keeper = asyncio.create_task(keep(), name="lease-keeper")
        try:
            yield
        finally:
            done.set()
            await keeper  # never cut short inside a renewal

    async def release_all(self) -> None:
        for lease in list(self.held.values()):
            await self.leases.release(lease)
        self.held.clear()
        self.valid_until.clear()
