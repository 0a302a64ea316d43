"""Versioned schema migrations, applied when the store opens.

``schema_version`` holds one row: the number of migrations applied. Migration ``n`` (1-based)
is ``MIGRATIONS[n - 1]``; each runs in its own transaction together with the version bump,
so a crash part-way leaves the database at a whole version and the next start resumes from
there. Re-running is a no-op. Append new migrations at the end; never edit a shipped one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import aiosqlite

from bot.store.errors import StoreError
from bot.store.records import HAND_ENDED, HAND_STARTED, TABLE_CLOSED, TABLE_OPENED

Migration = Callable[[aiosqlite.Connection], Awaitable[None]]


def _sql(*statements: str) -> Migration:
    # executescript() would COMMIT on its own and break the one-transaction-per-migration
    # rule, so statements run one by one inside the caller's transaction.
    async def run(conn: aiosqlite.Connection) -> None:
        for statement in statements:
            await conn.execute(statement)

    return run


_V1_LOG_AND_LEDGER = _sql(
    """
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        table_id TEXT NOT NULL,
        seq INTEGER NOT NULL CHECK (seq > 0),
        kind TEXT NOT NULL,
        hand_no INTEGER,
        idem_key TEXT,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL,
        UNIQUE (table_id, seq)
    )
    """,
    "CREATE UNIQUE INDEX events_idem ON events (table_id, idem_key) WHERE idem_key IS NOT NULL",
    """
    CREATE TABLE ledger (
        id INTEGER PRIMARY KEY,
        table_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        player_id TEXT NOT NULL,
        kind TEXT NOT NULL
            CHECK (kind IN ('buy_in', 'top_up', 'cash_out', 'rake', 'adjustment')),
        amount INTEGER NOT NULL CHECK (typeof(amount) = 'integer'),
        hand_no INTEGER,
        FOREIGN KEY (table_id, seq) REFERENCES events (table_id, seq)
    )
    """,
    "CREATE INDEX ledger_table ON ledger (table_id, seq)",
)

_V2_SNAPSHOTS = _sql(
    """
    CREATE TABLE snapshots (
        table_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    )
    """,
)

# Two small indexes kept by the writer, so neither start-up nor /history scans the log:
# which tables are open (a table's last created/closed event wins), and where each hand
# starts and ends. Cheaper than an index on events(table_id, hand_no): that one gets a row
# per action, and every extra index a batch touches costs a page per table per commit.
# Both are backfilled from the events already there.
_V3_TABLES_AND_HANDS = _sql(
    """
    CREATE TABLE tables (
        table_id TEXT PRIMARY KEY,
        is_open INTEGER NOT NULL CHECK (is_open IN (0, 1)),
        changed_seq INTEGER NOT NULL
    )
    """,
    f"""
    INSERT INTO tables (table_id, is_open, changed_seq)
    SELECT e.table_id, e.kind = '{TABLE_OPENED}', e.seq
    FROM events AS e
    WHERE e.kind IN ('{TABLE_OPENED}', '{TABLE_CLOSED}')
      AND e.seq = (
          SELECT MAX(x.seq) FROM events AS x
          WHERE x.table_id = e.table_id AND x.kind IN ('{TABLE_OPENED}', '{TABLE_CLOSED}')
      )
    """,
    """
    CREATE TABLE hands (
        table_id TEXT NOT NULL,
        hand_no INTEGER NOT NULL,
        start_seq INTEGER NOT NULL,
        end_seq INTEGER,
        PRIMARY KEY (table_id, hand_no)
    )
    """,
    f"""
    INSERT INTO hands (table_id, hand_no, start_seq)
    SELECT table_id, hand_no, MAX(seq) FROM events
    WHERE kind = '{HAND_STARTED}' AND hand_no IS NOT NULL
    GROUP BY table_id, hand_no
    """,
    f"""
    UPDATE hands SET end_seq = (
        SELECT MIN(e.seq) FROM events AS e
        WHERE e.table_id = hands.table_id AND e.hand_no = hands.hand_no
          AND e.kind = '{HAND_ENDED}' AND e.seq > hands.start_seq
    )
    """,
)

MIGRATIONS: tuple[Migration, ...] = (_V1_LOG_AND_LEDGER, _V2_SNAPSHOTS, _V3_TABLES_AND_HANDS)
LATEST = len(MIGRATIONS)


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The number of migrations applied to this database (0 for an empty one)."""
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
    """Bring the database up to ``target`` migrations; returns the version reached.

    ``conn`` must be in autocommit mode (``isolation_level=None``): transactions here are
    explicit. ``target`` below ``LATEST`` exists for the tests of upgrading old files.
    """
    if not 0 <= target <= LATEST:
        raise ValueError(f"target must be between 0 and {LATEST}")
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
        raise StoreError(
            f"the database is at schema version {version}, newer than this code ({LATEST}); "
            "refusing to open it"
        )
    while version < target:
        # BEGIN IMMEDIATE takes the write lock first, so two processes starting at once
        # cannot both apply the same migration; the version is re-read under the lock.
        await conn.execute("BEGIN IMMEDIATE")
        try:
            version = await schema_version(conn)
            if version >= target:
                await conn.execute("COMMIT")
                break
            await MIGRATIONS[version](conn)
            version += 1
            await conn.execute("UPDATE schema_version SET version = ?", (version,))
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
    return version
