"""``python -m bot backup PATH``: a consistent copy of the live database.

SQLite's online backup API copies the database in one step, inside one read
transaction: the copy is the database as of one commit, even while the bot keeps writing
(WAL lets the writer go on; nothing is locked for long). The copy is written beside
``PATH`` first and renamed into place only after an integrity check, and it is switched
to a self-contained single file (``journal_mode=DELETE``). Restoring is copying it back
while the bot is stopped (``docs/operations.md``).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO


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
    """Copy ``source`` to ``dest`` (which must not exist) with the online backup API."""
    src, out = Path(source), Path(dest)
    if not src.is_file():
        raise BackupError(f"no database at {src}")
    if out.exists():
        raise BackupError(f"{out} exists; choose a new name (a backup never overwrites)")
    if out.resolve() == src.resolve():
        raise BackupError("the backup must be another file than the database")
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    source_conn = sqlite3.connect(src, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            source_conn.execute("PRAGMA busy_timeout=30000")
            source_conn.backup(copy)  # pages=-1: all of it in one step, one snapshot
            copy.execute("PRAGMA journal_mode=DELETE")
            check = copy.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise BackupError(f"the copy failed its integrity check: {check}")
            result = _describe(copy, out)
        finally:
            copy.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source_conn.close()
    os.replace(partial, out)
    return BackupResult(out, result[0], result[1], result[2], out.stat().st_size)


def _describe(conn: sqlite3.Connection, path: Path) -> tuple[int, int, int]:
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


def main(argv: list[str], out: TextIO | None = None) -> int:
    from bot.config import Config, settings_error

    ap = argparse.ArgumentParser(
        prog="python -m bot backup", description="A consistent copy of the live database."
    )
    ap.add_argument("path", help="where to write the copy (must not exist)")
    ap.add_argument("--db", default=None, help="the database (default CHIPFIST_DB)")
    args = ap.parse_args(argv)
    write = out or sys.stdout
    try:
        source = args.db or Config.load().database
    except Exception as exc:
        print(f"bad configuration: {settings_error(exc)}", file=sys.stderr)
        return 2
    try:
        result = backup(source, args.path)
    except (BackupError, sqlite3.Error, OSError) as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    print(
        f"backed up {source} to {result.path}: {result.events} events, {result.tables} "
        f"tables, schema v{result.schema}, {result.size} bytes, integrity ok",
        file=write,
    )
    return 0
