"""Versioned schema migrations for both back ends, from one list.

``schema_version`` holds one row: the number of migrations applied. Migration ``n``
(1-based) is ``MIGRATIONS[n - 1]``; each runs in its own transaction together with the
version bump, so a crash part-way leaves the database at a whole version and the next start
resumes from there. Re-running is a no-op. Append new migrations at the end; never change
what a shipped one means.

Each migration is written once, as SQL with a few ``{placeholders}`` for the only things the
two dialects spell differently (:data:`DIALECTS`): the row-id column, the integer and float
types, and SQLite's check that an amount really is an integer (PostgreSQL's BIGINT column
already refuses anything else). Everything else (tables, columns, constraints, indexes,
backfills) is the same text on SQLite and PostgreSQL, so both mean the same schema. A
backfill that must read the payloads' JSON (which the dialects spell differently) is a
:class:`Backfill`: a Python fold over rows one query selects, inserted by one statement,
in the migration's transaction.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

import aiosqlite

from bot.store import handtotals, record
from bot.store.errors import StoreError
from bot.store.records import HAND_ENDED, HAND_STARTED, TABLE_CLOSED, TABLE_OPENED

if TYPE_CHECKING:  # asyncpg is the optional ``postgres`` extra
    import asyncpg

Dialect = Literal["sqlite", "postgres"]

DIALECTS: Final[Mapping[Dialect, Mapping[str, str]]] = {
    "sqlite": {
        "row_id": "INTEGER PRIMARY KEY",
        "int": "INTEGER",
        "real": "REAL",
        "amount_is_integer": "CHECK (typeof(amount) = 'integer')",
    },
    "postgres": {
        "row_id": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        "int": "BIGINT",
        "real": "DOUBLE PRECISION",
        "amount_is_integer": "",
    },
}
_NAMES: Final = {
    "opened": TABLE_OPENED,
    "closed": TABLE_CLOSED,
    "started": HAND_STARTED,
    "ended": HAND_ENDED,
}


class Fold(Protocol):
    def feed(self, rows: Iterable[tuple[Any, ...]]) -> None: ...

    def rows(self) -> list[tuple[Any, ...]]: ...


@dataclass(frozen=True, slots=True)
class Backfill:
    """A fold no SQL spells the same on both dialects (reading JSON payloads): ``read``
    selects the rows, streamed in chunks into a new ``fold``, whose rows ``write``
    inserts (``?`` placeholders, numbered for PostgreSQL)."""

    read: str
    fold: Callable[[], Fold]
    write: str


_CHUNK: Final = 5000
"""Rows a backfill reads at a time (a big log is never all in memory)."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema version: its statements, written once for both dialects."""

    name: str
    statements: tuple[str, ...]
    backfill: Backfill | None = None
    """Rows worked out in Python from rows already there, after the statements."""

    def render(self, dialect: Dialect) -> list[str]:
        """The statements as this dialect spells them."""
        words = {**DIALECTS[dialect], **_NAMES}
        return [statement.format(**words) for statement in self.statements]


_V1_LOG_AND_LEDGER = Migration(
    "log and ledger",
    (
        """
        CREATE TABLE events (
            id {row_id},
            table_id TEXT NOT NULL,
            seq {int} NOT NULL CHECK (seq > 0),
            kind TEXT NOT NULL,
            hand_no {int},
            idem_key TEXT,
            payload TEXT NOT NULL,
            created_at {real} NOT NULL,
            UNIQUE (table_id, seq)
        )
        """,
        "CREATE UNIQUE INDEX events_idem ON events (table_id, idem_key) WHERE idem_key IS NOT NULL",
        """
        CREATE TABLE ledger (
            id {row_id},
            table_id TEXT NOT NULL,
            seq {int} NOT NULL,
            player_id TEXT NOT NULL,
            kind TEXT NOT NULL
                CHECK (kind IN ('buy_in', 'top_up', 'cash_out', 'rake', 'adjustment')),
            amount {int} NOT NULL {amount_is_integer},
            hand_no {int},
            FOREIGN KEY (table_id, seq) REFERENCES events (table_id, seq)
        )
        """,
        "CREATE INDEX ledger_table ON ledger (table_id, seq)",
    ),
)

_V2_SNAPSHOTS = Migration(
    "snapshots",
    (
        """
        CREATE TABLE snapshots (
            table_id TEXT NOT NULL,
            seq {int} NOT NULL,
            payload TEXT NOT NULL,
            created_at {real} NOT NULL,
            PRIMARY KEY (table_id, seq)
        )
        """,
    ),
)

# Two small indexes kept by the writer, so neither start-up nor /history scans the log:
# which tables are open (a table's last created/closed event wins), and where each hand
# starts and ends. Cheaper than an index on events(table_id, hand_no): that one gets a row
# per action, and every extra index a batch touches costs a page per table per commit.
# Both are backfilled from the events already there.
_V3_TABLES_AND_HANDS = Migration(
    "open tables and hand index",
    (
        """
        CREATE TABLE tables (
            table_id TEXT PRIMARY KEY,
            is_open {int} NOT NULL CHECK (is_open IN (0, 1)),
            changed_seq {int} NOT NULL
        )
        """,
        """
        INSERT INTO tables (table_id, is_open, changed_seq)
        SELECT e.table_id, CASE WHEN e.kind = '{opened}' THEN 1 ELSE 0 END, e.seq
        FROM events AS e
        WHERE e.kind IN ('{opened}', '{closed}')
          AND e.seq = (
              SELECT MAX(x.seq) FROM events AS x
              WHERE x.table_id = e.table_id AND x.kind IN ('{opened}', '{closed}')
          )
        """,
        """
        CREATE TABLE hands (
            table_id TEXT NOT NULL,
            hand_no {int} NOT NULL,
            start_seq {int} NOT NULL,
            end_seq {int},
            PRIMARY KEY (table_id, hand_no)
        )
        """,
        """
        INSERT INTO hands (table_id, hand_no, start_seq)
        SELECT table_id, hand_no, MAX(seq) FROM events
        WHERE kind = '{started}' AND hand_no IS NOT NULL
        GROUP BY table_id, hand_no
        """,
        """
        UPDATE hands SET end_seq = (
            SELECT MIN(e.seq) FROM events AS e
            WHERE e.table_id = hands.table_id AND e.hand_no = hands.hand_no
              AND e.kind = '{ended}' AND e.seq > hands.start_seq
        )
        """,
    ),
)

# Fencing tokens: a named generation number, bumped by whoever takes the name over
# (Store.take_fence). An append that carries a fence commits only while the fence is still
# at the generation it names, so a stale owner (a paused process that wakes up after its
# lease went to another) cannot write. Generation 0 means "never taken".
_V4_FENCES = Migration(
    "fencing tokens",
    (
        """
        CREATE TABLE fences (
            name TEXT PRIMARY KEY,
            generation {int} NOT NULL CHECK (generation >= 0)
        )
        """,
    ),
)

# The standings (bot/store/standings.py): each table's guild, each player's running
# totals at each table (his settled and pending chips from the ledger, his hands from the
# hand ends) and each player's privacy choice, kept by the writer in the transaction of
# the events they come from, so a player's stats and a leaderboard are one query each
# over one row per player and table, never a read of every log or of the whole ledger.
# ``table_guilds`` may already exist on PostgreSQL (the shard leases made it before this
# version, bot/store/lease.py), with these very columns. The ledger already written is
# folded in here (its hands are not: old hand ends do not name their players).
_V5_STANDINGS = Migration(
    "standings",
    (
        """
        CREATE TABLE IF NOT EXISTS table_guilds (
            table_id TEXT PRIMARY KEY,
            guild_id {int} NOT NULL
        )
        """,
        "CREATE INDEX table_guilds_guild ON table_guilds (guild_id, table_id)",
        """
        CREATE TABLE standings (
            table_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            bought {int} NOT NULL,
            cashed {int} NOT NULL,
            pending {int} NOT NULL,
            sessions {int} NOT NULL,
            hands {int} NOT NULL,
            won {int} NOT NULL,
            hands_net {int} NOT NULL,
            best {int} NOT NULL,
            PRIMARY KEY (table_id, player_id)
        )
        """,
        "CREATE INDEX standings_player ON standings (player_id, table_id)",
        """
        INSERT INTO standings
            (table_id, player_id, bought, cashed, pending, sessions, hands, won, hands_net, best)
        SELECT table_id, player_id,
            SUM(CASE WHEN seq <= upto AND kind <> 'cash_out' THEN amount ELSE 0 END),
            SUM(CASE WHEN kind = 'cash_out' THEN amount ELSE 0 END),
            SUM(CASE WHEN upto IS NULL OR seq > upto THEN amount ELSE 0 END),
            SUM(CASE WHEN kind = 'cash_out' THEN 1 ELSE 0 END),
            0, 0, 0, 0
        FROM (
            SELECT table_id, player_id, kind, amount, seq,
                MAX(CASE WHEN kind = 'cash_out' THEN seq END)
                    OVER (PARTITION BY table_id, player_id) AS upto
            FROM ledger WHERE kind <> 'rake'
        ) AS w
        GROUP BY table_id, player_id
        """,
        """
        CREATE TABLE player_prefs (
            player_id TEXT PRIMARY KEY,
            hidden {int} NOT NULL CHECK (hidden IN (0, 1))
        )
        """,
    ),
)

# Reads that do not grow with a table's age. ``hand_totals``: each player's hands, hands
# won, net and best hand at each table (bot/store/handtotals.py), kept by the writer, so
# a table's /stats is one read of a row per player; the logs already written are folded
# in. ``ledger_sums``: the ledger's sum per table, player and kind since the table's
# latest ``created``, kept by the writer too (and summed here from the ledger already
# written), so /ledger and /settle read a few rows, not a row per raked hand.
# ``events_seating``: a partial index of the few rows that say who sat where and under
# which settings, so a hand's export, /ledger and /settle find the players' names without
# reading the hands' rows (a partial index costs nothing on the other rows).
_V6_READS = Migration(
    "hand totals, ledger sums and seating index",
    (
        """
        CREATE TABLE hand_totals (
            table_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            hands {int} NOT NULL,
            won {int} NOT NULL,
            net {int} NOT NULL,
            best {int} NOT NULL,
            PRIMARY KEY (table_id, player_id)
        )
        """,
        "CREATE INDEX events_seating ON events (table_id, seq)"
        f" WHERE kind IN {handtotals.SEATING_KINDS}",
        """
        CREATE TABLE ledger_sums (
            table_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            amount {int} NOT NULL,
            PRIMARY KEY (table_id, player_id, kind)
        )
        """,
        handtotals.LEDGER_BACKFILL,
    ),
    Backfill(handtotals.BACKFILL_READ, handtotals.LogFold, handtotals.UPSERT),
)

# The night's record (bot/store/record.py): the ledger's sums per day, each player's
# hands per day with what he did before the flop and at the showdown, and each player's
# stack after each hand, kept by the writer, so a server's ledger over a date range, a
# period's stats and leaderboard, and a session's story are one query each. The ledger
# already written is summed per day here; hands ended before this version carry no
# profile and are not counted in the new rows.
_V7_RECORD = Migration(
    "the night's record",
    record.MIGRATION,
    Backfill(record.BACKFILL_READ, record.LedgerDaysFold, record.DAYS_UPSERT),
)

# The hands index by table session: a channel's tables each count their hands
# from 1, so the index is keyed by which of the channel's tables a hand was dealt at (the
# count of ``created`` events before it), and an earlier table's hand N is still found once
# a later one reaches N. ``tables.sessions`` counts a log's tables, so the writer dates each
# hand without reading the log.
_V8_HAND_SESSIONS = Migration(
    "hands by table session",
    (
        "ALTER TABLE tables ADD COLUMN sessions {int} NOT NULL DEFAULT 0",
        """
        UPDATE tables SET sessions = (
            SELECT COUNT(*) FROM events AS e
            WHERE e.table_id = tables.table_id AND e.kind = '{opened}'
        )
        """,
        """
        CREATE TABLE hands_by_session (
            table_id TEXT NOT NULL,
            session {int} NOT NULL,
            hand_no {int} NOT NULL,
            start_seq {int} NOT NULL,
            end_seq {int},
            PRIMARY KEY (table_id, session, hand_no)
        )
        """,
        # Each hand start and end with its table's session, in one pass over the log
        # (a running count of ``created`` per log), kept while the index is built.
        """
        CREATE TABLE hand_marks_v8 AS
        SELECT table_id, kind, hand_no, seq, session FROM (
            SELECT table_id, kind, hand_no, seq,
                SUM(CASE WHEN kind = '{opened}' THEN 1 ELSE 0 END) OVER (
                    PARTITION BY table_id ORDER BY seq ROWS UNBOUNDED PRECEDING
                ) AS session
            FROM events
            WHERE kind IN ('{opened}', '{started}', '{ended}')
        ) AS w
        WHERE kind IN ('{started}', '{ended}') AND hand_no IS NOT NULL
        """,
        "CREATE INDEX hand_marks_v8_hand ON hand_marks_v8 (table_id, session, hand_no, kind, seq)",
        """
        INSERT INTO hands_by_session (table_id, session, hand_no, start_seq)
        SELECT table_id, session, hand_no, MAX(seq) FROM hand_marks_v8
        WHERE kind = '{started}'
        GROUP BY table_id, session, hand_no
        """,
        """
        UPDATE hands_by_session SET end_seq = (
            SELECT MIN(m.seq) FROM hand_marks_v8 AS m
            WHERE m.table_id = hands_by_session.table_id
              AND m.session = hands_by_session.session
              AND m.hand_no = hands_by_session.hand_no
              AND m.kind = '{ended}' AND m.seq > hands_by_session.start_seq
        )
        """,
        "DROP TABLE hand_marks_v8",
        "DROP TABLE hands",
        "ALTER TABLE hands_by_session RENAME TO hands",
    ),
)

MIGRATIONS: tuple[Migration, ...] = (
    _V1_LOG_AND_LEDGER,
    _V2_SNAPSHOTS,
    _V3_TABLES_AND_HANDS,
    _V4_FENCES,
    _V5_STANDINGS,
    _V6_READS,
    _V7_RECORD,
    _V8_HAND_SESSIONS,
)
LATEST = len(MIGRATIONS)


def _check_target(target: int) -> None:
    if not 0 <= target <= LATEST:
        raise ValueError(f"target must be between 0 and {LATEST}")


def _too_new(version: int) -> StoreError:
    return StoreError(
        f"the database is at schema version {version}, newer than this code ({LATEST}); "
        "refusing to open it"
    )


# ---------------------------------------------------------------------- SQLite


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The number of migrations applied to this SQLite database (0 for an empty one)."""
    rows = list(
        await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        )
    )
    if not rows:
        return 0
    row = list(await conn.execute_fetchall("SELECT version FROM schema_version"))
    return int(row[0][0]) if row else 0


async def migrate(conn: aiosqlite.Connection, *, target: int = LATEST) -> int:
    """Bring the SQLite database up to ``target`` migrations; returns the version reached.

    ``conn`` must be in autocommit mode (``isolation_level=None``): transactions here are
    explicit. ``target`` below ``LATEST`` exists for the tests of upgrading old files.
    """
    _check_target(target)
    await conn.execute("BEGIN IMMEDIATE")
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        await conn.execute(
            "INSERT INTO schema_version (version) "
            "SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM schema_version)"
        )
        await conn.execute("COMMIT")
    except BaseException:
        await conn.execute("ROLLBACK")
        raise
    version = await schema_version(conn)
    if version > LATEST:
        raise _too_new(version)
    while version < target:
        # BEGIN IMMEDIATE takes the write lock first, so two processes starting at once
        # cannot both apply the same migration; the version is re-read under the lock.
        # executescript() would COMMIT on its own, so statements run one by one.
        await conn.execute("BEGIN IMMEDIATE")
        try:
            version = await schema_version(conn)
            if version >= target:
                await conn.execute("COMMIT")
                break
            migration = MIGRATIONS[version]
            for statement in migration.render("sqlite"):
                await conn.execute(statement)
            if (fill := migration.backfill) is not None:
                fold = fill.fold()
                cursor = await conn.execute(fill.read)
                while chunk := await cursor.fetchmany(_CHUNK):
                    fold.feed(tuple(r) for r in chunk)
                await cursor.close()
                await conn.executemany(fill.write, fold.rows())
            version += 1
            await conn.execute("UPDATE schema_version SET version = ?", (version,))
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
    return version


# ---------------------------------------------------------------------- PostgreSQL

# Any constant will do: it only has to be the same in every process migrating this database.
_PG_MIGRATION_LOCK: Final = 0x43484950  # "CHIP"


async def pg_schema_version(conn: asyncpg.Connection[Any]) -> int:
    """The number of migrations applied to this PostgreSQL database (0 for an empty one)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    version = await conn.fetchval("SELECT version FROM schema_version")
    return int(version or 0)


async def pg_migrate(conn: asyncpg.Connection[Any], *, target: int = LATEST) -> int:
    """Bring the PostgreSQL database up to ``target`` migrations; the version reached.

    DDL is transactional in PostgreSQL, so each migration and its version bump commit
    together. A transaction-scoped advisory lock plays the part of SQLite's BEGIN
    IMMEDIATE: two processes starting at once apply each migration once.
    """
    _check_target(target)
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _PG_MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        await conn.execute(
            "INSERT INTO schema_version (version) "
            "SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM schema_version)"
        )
    version = await pg_schema_version(conn)
    if version > LATEST:
        raise _too_new(version)
    while version < target:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _PG_MIGRATION_LOCK)
            version = await pg_schema_version(conn)
            if version >= target:
                break
            migration = MIGRATIONS[version]
            for statement in migration.render("postgres"):
                await conn.execute(statement)
            if (fill := migration.backfill) is not None:
                fold = fill.fold()
                cursor = await conn.cursor(fill.read)
                while chunk := await cursor.fetch(_CHUNK):
                    fold.feed(tuple(r) for r in chunk)
                if filled := fold.rows():
                    await conn.executemany(_numbered(fill.write), filled)
            version += 1
            await conn.execute("UPDATE schema_version SET version = $1", version)
    return version


def _numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL numbers them."""
    count = iter(range(1, 1_000_000))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)
