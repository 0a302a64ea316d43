"""``python -m bot backup PATH`` and ``python -m bot restore BACKUP``: a consistent copy
of the live database, and a fresh database made from one. Both back ends.

A backup is always one self-contained SQLite file (0600, or the SQLite source's own mode:
it holds every deck), whichever back end it came from:

* **SQLite**: SQLite's online backup API copies the database in one step, inside one read
  transaction: the copy is the database as of one commit, even while the bot keeps
  writing (WAL lets the writer go on).
* **PostgreSQL**: one ``REPEATABLE READ READ ONLY`` transaction reads every table of the
  store (one snapshot of the database: every hand in it is whole) into a SQLite file
  migrated to the *same* schema version, table by table and column by column, as the
  live database names them. It needs no ``pg_dump`` of a matching version and the result
  restores into either back end (``pg_dump -Fc`` works too, docs/operations.md).

Either way the copy is written beside ``PATH`` first, checked (``integrity_check``) and
renamed into place; it never overwrites a file.

``restore`` writes a backup into a database that does not exist yet (a SQLite path) or
holds nothing yet (a ``postgresql://`` URL; through ``migrate-store``, which verifies that
every open table recovers identically and conserves chips, R-2.5). The backup file itself
is left as it was.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sqlite3
import stat
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.store.backends import describe, is_postgres
from bot.store.files import PRIVATE, create_private


@dataclass(frozen=True, slots=True)
class BackupResult:
    path: Path
    events: int
    tables: int
    schema: int
    size: int


class BackupError(Exception):
    pass


def backup(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> BackupResult:
    """Copy the database ``source`` (a SQLite path or a ``postgresql://`` URL) to the new
    file ``dest`` (which must not exist)."""
    if isinstance(source, str) and is_postgres(source):
        return asyncio.run(backup_postgres(source, dest))
    return backup_sqlite(source, dest)


def _target(dest: str | os.PathLike[str]) -> tuple[Path, Path]:
    out = Path(dest)
    if out.exists():
        raise BackupError(f"{out} exists; choose a new name (a backup never overwrites)")
    if not out.parent.is_dir():
        raise BackupError(f"folder {out.parent} does not exist")
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    return out, partial


def backup_sqlite(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> BackupResult:
    """Copy the SQLite database ``source`` to ``dest`` with the online backup API."""
    src = Path(source)
    if not src.is_file():
        raise BackupError(f"no database at {src}")
    out, partial = _target(dest)
    if out.resolve() == src.resolve():
        raise BackupError("the backup must be another file than the database")
    # The copy keeps the source's mode (its rollback journal, made while it is written,
    # takes the same mode from SQLite).
    create_private(partial, stat.S_IMODE(src.stat().st_mode))
    source_conn = sqlite3.connect(src, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            source_conn.execute("PRAGMA busy_timeout=30000")
            source_conn.backup(copy)  # pages=-1: all of it in one step, one snapshot
            copy.execute("PRAGMA journal_mode=DELETE")
            result = _check(copy)
        finally:
            copy.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source_conn.close()
    os.replace(partial, out)
    return BackupResult(out, *result, out.stat().st_size)


async def backup_postgres(url: str, dest: str | os.PathLike[str]) -> BackupResult:
    """Copy the PostgreSQL database ``url`` into the new SQLite file ``dest``, from one
    REPEATABLE READ snapshot."""
    import aiosqlite

    from bot.store.postgres import _require_asyncpg
    from bot.store.schema import migrate, pg_schema_version

    pg = _require_asyncpg()
    out, partial = _target(dest)
    try:
        conn = await pg.connect(url, timeout=10)
    except (TimeoutError, OSError, pg.PostgresError) as exc:
        raise BackupError(f"cannot connect to {describe(url)}: {exc}") from exc
    create_private(partial)
    try:
        async with aiosqlite.connect(partial, isolation_level=None) as copy:
            await copy.execute("PRAGMA journal_mode=DELETE")
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                version = await pg_schema_version(conn)
                await migrate(copy, target=version)
                live = await _pg_columns(conn)
                mine = await _sqlite_columns(copy)
                await copy.execute("BEGIN")
                for table in _copy_order(live, mine):
                    columns = [c for c in mine[table] if c in live[table]]
                    await _copy_table(conn, copy, table, columns)
                await copy.execute("COMMIT")
        check = sqlite3.connect(partial)
        try:
            result = _check(check)
        finally:
            check.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        await conn.close()
    os.replace(partial, out)
    return BackupResult(out, *result, out.stat().st_size)


async def _pg_columns(conn: Any) -> dict[str, list[str]]:
    rows = await conn.fetch(
        "SELECT c.table_name, c.column_name FROM information_schema.columns AS c "
        "JOIN information_schema.tables AS t "
        "  ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
        "WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' "
        "ORDER BY c.table_name, c.ordinal_position"
    )
    out: dict[str, list[str]] = {}
    for row in rows:
        out.setdefault(str(row[0]), []).append(str(row[1]))
    return out


async def _sqlite_columns(conn: Any) -> dict[str, list[str]]:
    names = [
        str(r[0])
        for r in await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    out: dict[str, list[str]] = {}
    for name in names:
        out[name] = [str(r[1]) for r in await conn.execute_fetchall(f'PRAGMA table_info("{name}")')]
    return out


def _copy_order(live: dict[str, list[str]], mine: dict[str, list[str]]) -> list[str]:
    """The store's tables both schemas have (the PostgreSQL-only shard leases are live
    state, not data; the schema version was set by migrating the copy), events first:
    the ledger refers to them."""
    common = sorted(set(live) & set(mine) - {"schema_version"})
    return sorted(common, key=lambda t: t != "events")


async def _copy_table(conn: Any, copy: Any, table: str, columns: Sequence[str]) -> None:
    quoted = ", ".join(f'"{c}"' for c in columns)
    insert = f'INSERT INTO "{table}" ({quoted}) VALUES ({", ".join("?" * len(columns))})'
    batch: list[tuple[Any, ...]] = []
    async for row in conn.cursor(f'SELECT {quoted} FROM "{table}"', prefetch=2000):
        batch.append(tuple(row))
        if len(batch) >= 2000:
            await copy.executemany(insert, batch)
            batch.clear()
    if batch:
        await copy.executemany(insert, batch)


def _check(conn: sqlite3.Connection) -> tuple[int, int, int]:
    check = conn.execute("PRAGMA integrity_check").fetchone()[0]
    if check != "ok":
        raise BackupError(f"the copy failed its integrity check: {check}")
    return _describe(conn)


def _describe(conn: sqlite3.Connection) -> tuple[int, int, int]:
    def one(sql: str) -> int:
        try:
            row = conn.execute(sql).fetchone()
        except sqlite3.Error:
            return 0
        return int(row[0]) if row and row[0] is not None else 0

    events = one("SELECT COUNT(*) FROM events")
    tables = one(
        "SELECT COUNT(DISTINCT table_id) FROM events WHERE table_id NOT LIKE '\\_%' ESCAPE '\\'"
    )
    schema = one("SELECT version FROM schema_version")
    return events, tables, schema


# ---------------------------------------------------------------------- restore


def restore(backup_file: str | os.PathLike[str], target: str) -> str:
    """Make the database ``target`` from ``backup_file``; one line saying what was done."""
    src = Path(backup_file)
    if not src.is_file():
        raise BackupError(f"no backup at {src}")
    conn = sqlite3.connect(src.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        _check(conn)
    finally:
        conn.close()
    if is_postgres(target):
        return asyncio.run(_restore_postgres(src, target))
    if Path(target).exists():
        raise BackupError(
            f"{target} exists: restore makes a new database (stop the bot, move the old "
            "file and its -wal and -shm aside, then restore)"
        )
    result = backup_sqlite(src, target)
    os.chmod(result.path, PRIVATE)  # a new live database: private, whatever the backup's mode
    return (
        f"restored {src} into {result.path}: {result.events} events, {result.tables} tables,"
        f" schema v{result.schema}"
    )


async def _restore_postgres(src: Path, url: str) -> str:
    from bot.migrate_store import migrate_store
    from bot.store.errors import StoreError

    # migrate-store brings its source's schema up to date: it works on a private copy,
    # so the backup stays exactly as it was taken.
    with tempfile.TemporaryDirectory(prefix="chipfist-restore-") as folder:
        work = Path(folder) / "backup.sqlite3"
        create_private(work)
        shutil.copyfile(src, work)
        try:
            report = await migrate_store(str(work), url)
        except StoreError as exc:
            raise BackupError(str(exc)) from exc
    return (
        f"restored {src} into {describe(url)}: {report.logs} logs; {report.open_tables} open "
        f"tables recover identically ({report.hands_in_progress} with a hand in progress), "
        "chips conserved (R-2.5)"
    )


# ---------------------------------------------------------------------- command lines


def _database(given: str | None, env_file: str) -> str | None:
    from bot.config import Config, settings_error

    try:
        return given or Config.load(dotenv=env_file).database
    except Exception as exc:
        print(f"bad configuration: {settings_error(exc)}", file=sys.stderr)
        return None


def main(argv: list[str], out: TextIO | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="A consistent copy of the live database (SQLite or PostgreSQL) into a "
        "new SQLite file.",
    )
    ap.add_argument("path", help="where to write the copy (must not exist)")
    ap.add_argument("--db", default=None, help="the database (default CHIPFIST_DB)")
    ap.add_argument("--env-file", default=".env", help="the .env file (default %(default)s)")
    args = ap.parse_args(argv)
    source = _database(args.db, args.env_file)
    if source is None:
        return 2
    try:
        result = backup(source, args.path)
    except (BackupError, sqlite3.Error, OSError) as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # asyncpg's errors, a missing asyncpg: one line, no traceback
        print(f"backup failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(
        f"backed up {describe(source)} to {result.path}: {result.events} events, "
        f"{result.tables} tables, schema v{result.schema}, {result.size} bytes, integrity ok",
        file=out or sys.stdout,
    )
    return 0


def restore_main(argv: list[str], out: TextIO | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bot restore",
        description="Make a new database from a backup. Stop the bot first; the target "
        "must not exist (SQLite) or be empty (PostgreSQL).",
    )
    ap.add_argument("backup", help="a file written by `python -m bot backup`")
    ap.add_argument("--db", default=None, help="the new database (default CHIPFIST_DB)")
    ap.add_argument("--env-file", default=".env", help="the .env file (default %(default)s)")
    args = ap.parse_args(argv)
    target = _database(args.db, args.env_file)
    if target is None:
        return 2
    try:
        line = restore(args.backup, target)
    except (BackupError, sqlite3.Error, OSError) as exc:
        print(f"restore failed: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # asyncpg's errors, a missing asyncpg: one line, no traceback
        print(f"restore failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(line, file=out or sys.stdout)
    return 0
