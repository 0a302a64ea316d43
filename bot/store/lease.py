"""Shard leases on PostgreSQL: which process drives the tables of which shard.

One row per shard in ``shard_leases``: the owner (a process name), the generation and the
expiry (the database's clock, so the processes' clocks never have to agree). A process
holds a shard while it renews the row before it expires; another process may take it
over once it has expired. Taking a shard over bumps the fence ``shard:N`` (the store's
fencing tokens, ``fences``) in the same transaction, and the lease's generation *is* that
fence's generation: every append of a table of shard N carries ``("shard:N", generation)``
and the store refuses it (:class:`~bot.store.errors.StaleFence`) once someone else took the
shard. A paused owner that wakes up after its lease went to another can therefore not
write, whatever its own clock says.

``table_guilds`` keeps the guild of each table (a table is a channel; its shard is its
guild's, Discord's ``(guild_id >> 22) % shard_count``).

SQLite has none of this: one process owns every table of its file.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from bot.store.postgres import _require_asyncpg

FENCE_PREFIX = "shard:"

_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS shard_leases (
        shard INTEGER PRIMARY KEY CHECK (shard >= 0),
        owner TEXT NOT NULL,
        generation BIGINT NOT NULL,
        expires_at DOUBLE PRECISION NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS table_guilds (
        table_id TEXT PRIMARY KEY,
        guild_id BIGINT NOT NULL
    )
    """,
)
# Serialises the CREATE TABLEs of processes starting together.
_SCHEMA_LOCK = 0x43_46_4C_53  # "CFLS"
_NOW = "extract(epoch from clock_timestamp())"


def fence_name(shard: int) -> str:
    return f"{FENCE_PREFIX}{shard}"


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's formula: the shard a guild's events arrive on."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Lease:
    shard: int
    owner: str
    generation: int
    expires_at: float

    @property
    def fence(self) -> tuple[str, int]:
        """What every append of this shard's tables carries."""
        return (fence_name(self.shard), self.generation)


class LeaseStore:
    """The lease rows of one database, on a connection of their own (not the writer's:
    a renewal must never wait behind a large batch)."""

    def __init__(self, url: str, conn: Any, ttl: float) -> None:
        self.url = url
        self.ttl = ttl
        self._conn = conn
        # One connection, one statement at a time: the lease loop and a table's creation
        # (record_guild) may come at once.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, url: str, *, ttl: float = 10.0) -> LeaseStore:
        if ttl <= 0:
            raise ValueError("the lease time must be positive")
        conn = await _require_asyncpg().connect(url)
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _SCHEMA_LOCK)
            for statement in _SCHEMA:
                await conn.execute(statement)
        return cls(url, conn, ttl)

    async def close(self) -> None:
        await self._conn.close()

    @contextlib.asynccontextmanager
    async def _live(self) -> AsyncIterator[Any]:
        async with self._lock:
            if self._conn.is_closed():
                self._conn = await _require_asyncpg().connect(self.url)
            yield self._conn

    async def acquire(self, shard: int, owner: str) -> Lease | None:
        """Take ``shard`` if it is free, expired or already ``owner``'s; None if another
        process holds it. A take-over (a new owner, or an owner whose lease lapsed) gets a
        new generation: the fence moves, so the previous holder's appends are refused
        from this commit on. Renewing an unexpired lease of one's own keeps it."""
        async with self._live() as conn:
            try:
                return await self._acquire(conn, shard, owner)
            except _require_asyncpg().LockNotAvailableError:
                # The old owner is inside a write holding the fence (a paused process: the
                # server ends its transaction soon, see postgres.WRITER_SETTINGS). Next step.
                return None

    async def _acquire(self, conn: Any, shard: int, owner: str) -> Lease | None:
        async with conn.transaction():
            # Never wait long on a row a paused process holds: the lease loop must go on.
            await conn.execute(f"SET LOCAL lock_timeout = {max(1, int(self.ttl * 500))}")
            await conn.execute(
                "INSERT INTO shard_leases (shard, owner, generation, expires_at)"
                " VALUES ($1, '', 0, 0) ON CONFLICT (shard) DO NOTHING",
                shard,
            )
            row = await conn.fetchrow(
                f"SELECT owner, generation, expires_at, {_NOW} AS now"
                " FROM shard_leases WHERE shard = $1 FOR UPDATE",
                shard,
            )
            assert row is not None
            now = float(row["now"])
            if row["owner"] == owner and row["expires_at"] > now:
                generation = int(row["generation"])
            elif row["owner"] and row["expires_at"] > now:
                return None
            else:
                # Take the fence over first: it waits for any batch of the old owner that
                # holds the fence row, so that batch commits wholly before the take-over.
                name = fence_name(shard)
                await conn.execute(
                    "INSERT INTO fences (name, generation) VALUES ($1, 0)"
                    " ON CONFLICT (name) DO NOTHING",
                    name,
                )
                generation = int(
                    await conn.fetchval(
                        "UPDATE fences SET generation = generation + 1 WHERE name = $1"
                        " RETURNING generation",
                        name,
                    )
                )
            expires = now + self.ttl
            await conn.execute(
                "UPDATE shard_leases SET owner = $2, generation = $3, expires_at = $4"
                " WHERE shard = $1",
                shard,
                owner,
                generation,
                expires,
            )
        return Lease(shard, owner, generation, expires)

    async def renew(self, lease: Lease) -> Lease | None:
        """Push the expiry on; None if the lease was lost (expired and taken, or expired
        at all: a lapsed lease is not renewed, it must be acquired again, which moves the
        fence, because another process may have driven the shard meanwhile)."""
        async with self._live() as conn:
            row = await conn.fetchrow(
                f"UPDATE shard_leases SET expires_at = {_NOW} + $4"
                " WHERE shard = $1 AND owner = $2 AND generation = $3"
                f" AND expires_at > {_NOW} RETURNING expires_at",
                lease.shard,
                lease.owner,
                lease.generation,
                self.ttl,
            )
            if row is None:
                return None
            return Lease(lease.shard, lease.owner, lease.generation, float(row["expires_at"]))

    async def release(self, lease: Lease) -> None:
        """Give the shard up now (a clean stop): it may be taken without waiting."""
        async with self._live() as conn:
            await conn.execute(
                "UPDATE shard_leases SET expires_at = 0"
                " WHERE shard = $1 AND owner = $2 AND generation = $3",
                lease.shard,
                lease.owner,
                lease.generation,
            )

    async def leases(self) -> list[Lease]:
        """Every shard's row (for operators and tests)."""
        async with self._live() as conn:
            rows = await conn.fetch(
                "SELECT shard, owner, generation, expires_at FROM shard_leases ORDER BY shard"
            )
            return [Lease(int(r[0]), str(r[1]), int(r[2]), float(r[3])) for r in rows]

    async def now(self) -> float:
        async with self._live() as conn:
            return float(await conn.fetchval(f"SELECT {_NOW}"))

    # ------------------------------------------------------------------ guilds

    async def record_guild(self, table_id: str, guild_id: int) -> None:
        async with self._live() as conn:
            await conn.execute(
                "INSERT INTO table_guilds (table_id, guild_id) VALUES ($1, $2)"
                " ON CONFLICT (table_id) DO UPDATE SET guild_id = excluded.guild_id",
                table_id,
                guild_id,
            )

    async def guilds(self, table_ids: list[str]) -> dict[str, int]:
        async with self._live() as conn:
            rows = await conn.fetch(
                "SELECT table_id, guild_id FROM table_guilds WHERE table_id = ANY($1::text[])",
                table_ids,
            )
            return {str(r[0]): int(r[1]) for r in rows}
