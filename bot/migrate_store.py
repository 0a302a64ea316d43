"""``python -m bot migrate-store SQLITE_FILE POSTGRES_URL``: move a single-process bot's
SQLite database into PostgreSQL.

Stop the bot first (what it writes after the copy began would stay behind), run this, then
start the bot with ``CHIPFIST_DB=postgresql://...``. It copies everything the store holds,
in one PostgreSQL transaction: every log (tables, hands in progress, the player
preferences and table-message logs, which are logs too), the ledger, snapshots, the
open-table and hand indexes, the standings, hand totals and ledger sums, the night's
record's sums, and fences.
Then it checks the copy before reporting success:

* the two stores read back the same, log by log (events, ledger rows in order, ledger
  totals and sums, newest snapshot, hand records, hand totals) and the same open tables;
* every open table recovers identically from both (the whole rebuilt state, hand in
  progress included, from the snapshot plus tail and from the whole log), and chips are
  conserved in it: the rebuilt state and the ledger agree (R-2.5).

It refuses to write into a target that already holds any event, ledger row, snapshot or
fence, and it leaves the SQLite file as it was (apart from bringing its schema up to date,
as the bot itself would on start).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.store.backends import describe, is_postgres, open_store
from bot.store.errors import StoreError
from bot.store.store import BaseStore, Store

# The table layer knows how to rebuild a table (the check after the copy); this module
# sits above both layers, beside bot/backup.py.
from bot.table.ports import StoreAdapter
from bot.table.recovery import ledger_error, load
from bot.table.snapshot import to_payload

# Copied in this order (the ledger refers to events); columns as both schemas name them.
_TABLES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "events",
        ("table_id", "seq", "kind", "hand_no", "idem_key", "payload", "created_at"),
        "id",
    ),
    ("ledger", ("table_id", "seq", "player_id", "kind", "amount", "hand_no"), "id"),
    ("snapshots", ("table_id", "seq", "payload", "created_at"), "table_id, seq"),
    ("tables", ("table_id", "is_open", "changed_seq", "sessions"), "table_id"),
    (
        "hands",
        ("table_id", "session", "hand_no", "start_seq", "end_seq"),
        "table_id, session, hand_no",
    ),
    ("fences", ("name", "generation"), "name"),
    ("table_guilds", ("table_id", "guild_id"), "table_id"),
    (
        "standings",
        (
            "table_id",
            "player_id",
            "bought",
            "cashed",
            "pending",
            "sessions",
            "hands",
            "won",
            "hands_net",
            "best",
        ),
        "table_id, player_id",
    ),
    ("player_prefs", ("player_id", "hidden"), "player_id"),
    (
        "hand_totals",
        ("table_id", "player_id", "hands", "won", "net", "best"),
        "table_id, player_id",
    ),
    ("ledger_sums", ("table_id", "player_id", "kind", "amount"), "table_id, player_id, kind"),
    # The night's record (bot/store/record.py).
    (
        "ledger_days",
        ("table_id", "player_id", "kind", "day", "amount"),
        "table_id, player_id, kind, day",
    ),
    (
        "player_days",
        (
            "table_id",
            "player_id",
            "day",
            "hands",
            "flop_hands",
            "vpip",
            "pfr",
            "showdowns",
            "showdowns_won",
            "won_without",
            "best_pot",
            "net",
        ),
        "table_id, player_id, day",
    ),
    (
        "hand_stacks",
        ("table_id", "seq", "hand_no", "player_id", "stack"),
        "table_id, seq, player_id",
    ),
)


@dataclass(frozen=True, slots=True)
class MigrationReport:
    logs: int
    """Logs copied (tables, and the bot's own logs such as preferences)."""
    rows: dict[str, int]
    """Rows copied per database table."""
    open_tables: int
    """Open tables that recovered identically on both sides, chips conserved."""
    hands_in_progress: int
    """Of those, tables with a hand in progress."""


async def migrate_store(sqlite_path: str, postgres_url: str) -> MigrationReport:
    """Copy ``sqlite_path`` into the empty PostgreSQL database ``postgres_url`` and verify
    the copy; raises :class:`StoreError` (with what went wrong) if it cannot."""
    if is_postgres(sqlite_path):
        raise StoreError("the source must be a SQLite file path, not a postgresql:// URL")
    if not is_postgres(postgres_url):
        raise StoreError("the target must be a postgresql:// URL")
    if not os.path.isfile(sqlite_path):
        raise StoreError(f"there is no SQLite database at {sqlite_path!r}")
    try:
        import asyncpg
    except ImportError:
        raise StoreError(
            "PostgreSQL needs the asyncpg package, which is not installed: "
            "pip install 'chipfist[postgres]'"
        ) from None
    # Bring the source's schema up to date (as the bot would), so both have every column.
    try:
        await (await Store.open(sqlite_path)).close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(
            f"{sqlite_path!r} is not a SQLite database this bot can read: {exc}"
        ) from exc

    from bot.store.schema import pg_migrate

    try:
        conn = await asyncpg.connect(postgres_url)
    except (OSError, asyncpg.PostgresError) as exc:
        raise StoreError(f"cannot connect to {describe(postgres_url)}: {exc}") from exc
    rows: dict[str, int] = {}
    try:
        await pg_migrate(conn)
        async with conn.transaction():
            for table in ("events", "ledger", "snapshots", "fences"):
                if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                    raise StoreError(
                        f"{describe(postgres_url)} is not empty (its {table} table has rows):"
                        " migrate-store only writes into an empty database"
                    )
            # One read transaction on the source: a consistent copy even if something
            # wrote to the file meanwhile (the bot should be stopped; see the docstring).
            source = _read_only(sqlite_path)
            try:
                source.execute("BEGIN")
                for table, columns, order in _TABLES:
                    data = source.execute(
                        f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}"
                    ).fetchall()
                    if data:
                        await conn.copy_records_to_table(table, records=data, columns=columns)
                    rows[table] = len(data)
            finally:
                source.close()
    finally:
        await conn.close()
    return await verify_copy(sqlite_path, postgres_url, rows)


async def verify_copy(sqlite_path: str, postgres_url: str, rows: dict[str, int]) -> MigrationReport:
    """Both stores read back alike, and every open table recovers identically from both."""
    old = await open_store(sqlite_path)
    try:
        new = await open_store(postgres_url)
        try:
            logs = await _logs(old)
            for log in logs:
                await _same_log(old, new, log)
            open_tables = await old.open_tables()
            if await new.open_tables() != open_tables:
                raise StoreError("the copy's open tables differ from the original's")
            in_progress = 0
            for table_id in open_tables:
                if await _same_recovery(old, new, table_id):
                    in_progress += 1
        finally:
            await new.close()
    finally:
        await old.close()
    return MigrationReport(len(logs), rows, len(open_tables), in_progress)


async def _logs(store: BaseStore) -> list[str]:
    assert isinstance(store, Store)
    conn = _read_only(store.path)
    try:
        return [str(r[0]) for r in conn.execute("SELECT DISTINCT table_id FROM events")]
    finally:
        conn.close()


async def _same_log(old: BaseStore, new: BaseStore, log: str) -> None:
    checks: list[tuple[str, Any, Any]] = [
        ("events", await old.events(log), await new.events(log)),
        ("ledger", await old.ledger(log), await new.ledger(log)),
        ("ledger totals", await old.ledger_totals(log), await new.ledger_totals(log)),
        ("snapshot", await old.latest_snapshot(log), await new.latest_snapshot(log)),
        ("hands", await old.hands(log, limit=500), await new.hands(log, limit=500)),
        ("hand totals", await old.hand_totals(log), await new.hand_totals(log)),
        ("ledger sums", await old.ledger_sums(log), await new.ledger_sums(log)),
    ]
    last = await old.last_seq(log)
    checks.append(("last seq", last, await new.last_seq(log)))
    for what, a, b in checks:
        if a != b:
            raise StoreError(f"the copy of {log!r} differs from the original: {what}")


async def _same_recovery(old: BaseStore, new: BaseStore, table_id: str) -> bool:
    """Recover the table from both stores (snapshot plus tail, and the whole log) and
    compare; check conservation (R-2.5). Whether a hand is in progress."""
    states = []
    for store in (old, new):
        port = StoreAdapter(store)
        for use_snapshot in (True, False):
            state = await load(port, table_id, use_snapshot=use_snapshot)
            error = state.conservation_error() or await ledger_error(port, state)
            if error is not None:
                raise StoreError(f"table {table_id!r} does not conserve chips: {error}")
            states.append(state)
    dumps = {json.dumps(to_payload(s), sort_keys=True) for s in states}
    if len(dumps) != 1:
        raise StoreError(f"table {table_id!r} does not recover identically from the copy")
    return states[0].hand is not None


def _read_only(path: str) -> sqlite3.Connection:
    return sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)


def main(argv: list[str]) -> int:
    """The command line: ``migrate-store SQLITE_FILE POSTGRES_URL``."""
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate-store",
        description="Copy a SQLite Chipfist database into an empty PostgreSQL database "
        "and verify the copy. Stop the bot first.",
    )
    parser.add_argument("sqlite_file")
    parser.add_argument("postgres_url")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(migrate_store(args.sqlite_file, args.postgres_url))
    except StoreError as exc:
        print(f"migrate-store: {exc}", file=sys.stderr)
        return 1
    copied = ", ".join(f"{n} {table}" for table, n in report.rows.items())
    print(f"copied {report.logs} logs into {describe(args.postgres_url)}: {copied}")
    print(
        f"verified: {report.open_tables} open tables recover identically "
        f"({report.hands_in_progress} with a hand in progress), chips conserved (R-2.5)"
    )
    print(f"now start the bot with CHIPFIST_DB={describe(args.postgres_url)}")
    return 0
