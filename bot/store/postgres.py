"""The store on PostgreSQL (``asyncpg``): the same log, ledger, snapshots, hand index and
fences as the SQLite store, from the same migrations (``schema.py``), for several bot
processes sharing one database.

Writes go through the same group-commit loop (:class:`~bot.store.writer.GroupCommitWriter`)
on one connection: everything queued from every table becomes one transaction, and each
``append`` returns after its COMMIT (``synchronous_commit`` as the server sets it, ``on``
by default: the WAL is flushed). A batch costs a fixed handful of round trips whatever its
size, because each kind of row goes in as one ``INSERT ... SELECT FROM unnest(arrays)``.
Reads use a small pool, so recovery and /history never wait for the writer.

Unlike the SQLite writer this one caches no seqs: it reads each table's last seq inside the
batch's own transaction, so a table that moved here from another process continues from
where that process left it. The UNIQUE (table_id, seq) index is the backstop against two
writers on one table; fences (``take_fence``) are the way to make sure there is only one.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from bot.store import handtotals
from bot.store import record as night
from bot.store.errors import StoreError
from bot.store.reader import Reader
from bot.store.records import StoredEvent
from bot.store.schema import pg_migrate
from bot.store.standings import UPSERT_COLUMNS, UPSERT_CONFLICT
from bot.store.store import BaseStore
from bot.store.writer import (
    AppendOp,
    FenceOp,
    GroupCommitWriter,
    Op,
    _Outcome,
    fence_names,
    plan_batch,
    session_tables,
)

try:
    import asyncpg
except ImportError:  # pragma: no cover - depends on the installed extras
    asyncpg = None


WRITER_SETTINGS = {"idle_in_transaction_session_timeout": "3000"}
"""A writer's transaction is a few round trips; one idle in the middle for 3 s belongs to
a process that is paused or hung. The server then ends it, so the row locks it holds
(a shard's fence, a table's next seq) do not stop the process taking the shard over."""


_BROKEN: tuple[type[BaseException], ...] = (OSError,)
if asyncpg is not None:
    _BROKEN = (
        OSError,
        asyncpg.InterfaceError,
        asyncpg.InternalClientError,
        asyncpg.PostgresConnectionError,
        asyncpg.exceptions.AdminShutdownError,
        asyncpg.exceptions.IdleInTransactionSessionTimeoutError,
    )


def _require_asyncpg() -> Any:
    if asyncpg is None:
        raise StoreError(
            "a postgresql:// database needs the asyncpg package: "
            "pip install 'chipfist[postgres]' (or use a SQLite file path)"
        )
    return asyncpg


class _Unsent(Exception):
    """A batch failed on a broken connection before its COMMIT was sent."""


class PostgresWriter(GroupCommitWriter):
    def __init__(self, conn: Any, url: str, max_batch: int) -> None:
        super().__init__(max_batch)
        self._conn = conn
        self._url = url

    @classmethod
    async def open(cls, conn: Any, url: str, *, max_batch: int = 2000) -> PostgresWriter:
        writer = cls(conn, url, max_batch)
        writer._start()
        return writer

    async def _shutdown(self) -> None:
        await self._conn.close()

    async def _transact(self, batch: list[Op]) -> list[_Outcome]:
        try:
            return await self._attempt(batch)
        except _Unsent:
            # The connection was dead before COMMIT went out (the server ended a paused
            # process's session, or the link dropped while idle): nothing of this batch
            # was committed, so it is written once more on a new connection.
            return await self._attempt(batch, retry=False)

    async def _attempt(self, batch: list[Op], *, retry: bool = True) -> list[_Outcome]:
        if self._conn.is_closed():
            # The server restarted or the network dropped: this batch gets a new
            # connection. If that fails too, the batch fails and the next one tries again.
            self._conn = await _require_asyncpg().connect(
                self._url, server_settings=WRITER_SETTINGS
            )
        conn = self._conn
        committing = False
        transaction = conn.transaction()
        try:
            await transaction.start()
            outcomes = await self._write(conn, batch)
            committing = True
            await transaction.commit()
        except BaseException as exc:
            with contextlib.suppress(Exception):
                await transaction.rollback()
            if isinstance(exc, _BROKEN):
                # The connection cannot be trusted any more; the next attempt opens a
                # new one. A break during COMMIT leaves the outcome unknown: that batch
                # fails (its callers are told) and is not written again.
                conn.terminate()
                if retry and not committing:
                    raise _Unsent from exc
            raise
        return outcomes

    async def _write(self, conn: Any, batch: list[Op]) -> list[_Outcome]:
        tables = sorted({op.table_id for op in batch if not isinstance(op, FenceOp)})
        keys = list(
            dict.fromkeys(
                (op.table_id, op.idem_key)
                for op in batch
                if isinstance(op, AppendOp) and op.idem_key is not None
            )
        )
        last = dict.fromkeys(tables, 0)
        existing: dict[tuple[str, str], int] = {}
        shared = sorted(
            {op.table_id for op in batch if isinstance(op, AppendOp) and op.fence is None}
        )
        if shared:
            # A log no fence covers may be appended to by several processes at once (the
            # Discord side's shared records: command sync, preferences, table messages):
            # one writer per log at a time, so the next statement reads the other's
            # committed last seq instead of both taking the same one.
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(t, 0))"
                " FROM unnest($1::text[]) AS t ORDER BY t",
                shared,
            )
        if tables:
            # One round trip for both: each table's last seq (rows without a key) and the
            # keys of this batch already in the log.
            rows = await conn.fetch(
                "SELECT table_id, NULL::text, MAX(seq) FROM events"
                " WHERE table_id = ANY($1::text[]) GROUP BY table_id"
                " UNION ALL"
                " SELECT e.table_id, e.idem_key, e.seq"
                " FROM unnest($2::text[], $3::text[]) AS k(t, i)"
                " JOIN events AS e ON e.table_id = k.t AND e.idem_key = k.i",
                tables,
                [t for t, _ in keys],
                [k for _, k in keys],
            )
            for table, key, seq in rows:
                if key is None:
                    last[str(table)] = int(seq)
                else:
                    existing[(str(table), str(key))] = int(seq)
        names = fence_names(batch)
        generations: dict[str, int] = {}
        if names:
            # Lock the fence rows for the rest of the transaction: a take-over from another
            # process waits for this COMMIT, so it lands either wholly before this batch
            # (whose fenced appends are then refused) or wholly after it.
            await conn.execute(
                "INSERT INTO fences (name, generation) SELECT n, 0 FROM unnest($1::text[]) AS n"
                " ON CONFLICT (name) DO NOTHING",
                names,
            )
            rows = await conn.fetch(
                "SELECT name, generation FROM fences WHERE name = ANY($1::text[])"
                " ORDER BY name FOR UPDATE",
                names,
            )
            generations = {str(n): int(g) for n, g in rows}
        dated = session_tables(batch)
        sessions: dict[str, int] = {}
        if dated:
            rows = await conn.fetch(
                "SELECT table_id, sessions FROM tables WHERE table_id = ANY($1::text[])", dated
            )
            sessions = {str(t): int(n) for t, n in rows}
        plan = plan_batch(batch, last, existing, generations, sessions)
        if plan.events:
            await conn.execute(
                "INSERT INTO events (table_id, seq, kind, hand_no, idem_key, payload, created_at)"
                " SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[],"
                " $5::text[], $6::text[], $7::float8[])",
                *_columns(plan.events, 7),
            )
        if plan.ledger:
            await conn.execute(
                "INSERT INTO ledger (table_id, seq, player_id, kind, amount, hand_no)"
                " SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[],"
                " $5::bigint[], $6::bigint[])",
                *_columns(plan.ledger, 6),
            )
        if plan.lifecycle:
            # One INSERT may not touch a row twice: a table's last lifecycle event wins.
            lifecycle = {row[0]: row for row in plan.lifecycle}
            await conn.execute(
                "INSERT INTO tables (table_id, is_open, changed_seq, sessions)"
                " SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])"
                " ON CONFLICT (table_id) DO UPDATE"
                " SET is_open = excluded.is_open, changed_seq = excluded.changed_seq,"
                " sessions = excluded.sessions",
                *_columns(list(lifecycle.values()), 4),
            )
        if plan.starts:
            # A hand number seen again now means the newer hand (the last start wins).
            starts = {(row[0], row[1], row[2]): row for row in plan.starts}
            await conn.execute(
                "INSERT INTO hands (table_id, session, hand_no, start_seq)"
                " SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])"
                " ON CONFLICT (table_id, session, hand_no) DO UPDATE"
                " SET start_seq = excluded.start_seq, end_seq = NULL",
                *_columns(list(starts.values()), 4),
            )
        if plan.ends:
            # The first end after the hand's start closes it, as SQLite's one-by-one
            # updates do.
            await conn.execute(
                "UPDATE hands AS h SET end_seq = e.seq FROM ("
                " SELECT k.t, k.g, k.n, MIN(k.s) AS seq"
                " FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])"
                " AS k(t, g, n, s)"
                " JOIN hands AS x ON x.table_id = k.t AND x.session = k.g AND x.hand_no = k.n"
                " AND x.end_seq IS NULL AND x.start_seq < k.s"
                " GROUP BY k.t, k.g, k.n) AS e"
                " WHERE h.table_id = e.t AND h.session = e.g AND h.hand_no = e.n",
                [r[1] for r in plan.ends],
                [r[2] for r in plan.ends],
                [r[3] for r in plan.ends],
                [r[0] for r in plan.ends],
            )
        if plan.guilds:
            # One INSERT may not touch a row twice: a table's last guild wins.
            guilds = dict(plan.guilds)
            await conn.execute(
                "INSERT INTO table_guilds (table_id, guild_id)"
                " SELECT * FROM unnest($1::text[], $2::bigint[])"
                " ON CONFLICT (table_id) DO UPDATE SET guild_id = excluded.guild_id",
                list(guilds),
                list(guilds.values()),
            )
        if plan.standings:
            # One row per (table, player) already: one INSERT touches each row once.
            await conn.execute(
                f"INSERT INTO standings ({UPSERT_COLUMNS})"
                " SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[],"
                " $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[],"
                f" $10::bigint[]){UPSERT_CONFLICT}",
                *_columns(plan.standings, 10),
            )
        if plan.totals:
            # One row per (table, player) already: one INSERT touches each row once.
            await conn.execute(
                f"INSERT INTO hand_totals ({handtotals.COLUMNS})"
                " SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[],"
                f" $5::bigint[], $6::bigint[]){handtotals.CONFLICT}",
                *_columns(plan.totals, 6),
            )
        if plan.reopened:
            await conn.execute(
                "DELETE FROM ledger_sums WHERE table_id = ANY($1::text[])", plan.reopened
            )
        if plan.sums:
            await conn.execute(
                f"INSERT INTO ledger_sums ({handtotals.LEDGER_COLUMNS})"
                " SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])"
                f"{handtotals.LEDGER_CONFLICT}",
                *_columns(plan.sums, 4),
            )
        if plan.ledger_days:
            await conn.execute(
                f"INSERT INTO ledger_days ({night.DAYS_COLUMNS})"
                " SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[],"
                f" $5::bigint[]){night.DAYS_CONFLICT}",
                *_columns(plan.ledger_days, 5),
            )
        if plan.player_days:
            await conn.execute(
                f"INSERT INTO player_days ({night.STAT_COLUMNS})"
                " SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[],"
                " $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[],"
                f" $10::bigint[], $11::bigint[], $12::bigint[]){night.STAT_CONFLICT}",
                *_columns(plan.player_days, 12),
            )
        if plan.hand_stacks:
            await conn.execute(
                f"INSERT INTO hand_stacks ({night.STACKS_COLUMNS})"
                " SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[],"
                " $5::bigint[])",
                *_columns(plan.hand_stacks, 5),
            )
        if plan.prefs:
            prefs = dict(plan.prefs)
            await conn.execute(
                "INSERT INTO player_prefs (player_id, hidden)"
                " SELECT * FROM unnest($1::text[], $2::bigint[])"
                " ON CONFLICT (player_id) DO UPDATE SET hidden = excluded.hidden",
                list(prefs),
                list(prefs.values()),
            )
        if plan.snapshots:
            snapshots = {(row[0], row[1]): row for row in plan.snapshots}
            await conn.execute(
                "INSERT INTO snapshots (table_id, seq, payload, created_at)"
                " SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::float8[])"
                " ON CONFLICT (table_id, seq) DO UPDATE"
                " SET payload = excluded.payload, created_at = excluded.created_at",
                *_columns(list(snapshots.values()), 4),
            )
        if plan.fences:
            await conn.execute(
                "UPDATE fences SET generation = k.g"
                " FROM unnest($1::text[], $2::bigint[]) AS k(n, g) WHERE fences.name = k.n",
                list(plan.fences),
                list(plan.fences.values()),
            )
        return plan.outcomes


def _columns(rows: list[Any], width: int) -> list[list[Any]]:
    """Rows to one list per column (the arrays ``unnest`` takes)."""
    return [[row[i] for row in rows] for i in range(width)]


_MARK = re.compile(r"\?")


class PostgresReader(Reader):
    """The SQLite reader's queries, sent to PostgreSQL: they are plain SQL both understand,
    but for the placeholders (``?`` becomes ``$n``) and SQLite's ``LIMIT -1``."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    async def _rows(self, sql: str, params: Any = ()) -> list[Any]:
        count = iter(range(1, 1_000_000))
        text = _MARK.sub(lambda _: f"${next(count)}", sql)
        return list(await self._pool.fetch(text, *tuple(params)))

    async def events(self, table_id: str, after_seq: int, limit: int | None) -> list[StoredEvent]:
        # LIMIT NULL is "no limit" in PostgreSQL (SQLite spells it -1).
        rows = await self._pool.fetch(
            "SELECT table_id, seq, kind, hand_no, idem_key, payload, created_at FROM events"
            " WHERE table_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
            table_id,
            after_seq,
            limit,
        )
        return [_event(r) for r in rows]


def _event(row: Any) -> StoredEvent:
    from bot.store.reader import _event as event

    return event(row)


class PostgresStore(BaseStore):
    """The store on a PostgreSQL database (a ``postgresql://`` URL)."""

    backend = "postgres"

    def __init__(self, url: str, pool: Any, writer: PostgresWriter) -> None:
        super().__init__(url, PostgresReader(pool), writer)
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, max_batch: int = 2000, readers: int = 4) -> PostgresStore:
        """Connect, bring the schema up to date, start the writer and the read pool."""
        pg = _require_asyncpg()
        try:
            conn = await pg.connect(url, server_settings=WRITER_SETTINGS)
        except (OSError, pg.PostgresError) as exc:
            raise StoreError(f"cannot connect to the PostgreSQL database: {exc}") from exc
        try:
            await pg_migrate(conn)
            pool = await pg.create_pool(url, min_size=1, max_size=readers)
        except BaseException:
            await conn.close()
            raise
        writer = await PostgresWriter.open(conn, url, max_batch=max_batch)
        return cls(url, pool, writer)

    async def close(self) -> None:
        """Commit everything already appended, then close the connections. Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._writer.close()
        finally:
            await self._pool.close()
