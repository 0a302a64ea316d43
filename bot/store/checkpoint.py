"""WAL checkpoints off the commit path.

By default SQLite checkpoints inside whichever COMMIT pushes the WAL past 1000 pages, so
every few batches one append pays for copying the WAL back into the database file (and
its fsync): that is the p99. Here a background task on its own connection (and thread)
runs a PASSIVE checkpoint every ``interval`` seconds while there were commits; PASSIVE
never blocks the writer or the readers. The writer keeps a high automatic threshold as a
safety net in case this task falls behind under sustained load.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable

import aiosqlite

log = logging.getLogger(__name__)

WRITER_AUTOCHECKPOINT_PAGES = 20_000
"""The writer's own threshold (about 80 MB of WAL at 4 KiB pages): only hit if this task
cannot keep up."""


def daemon_connect(path: str) -> aiosqlite.Connection:
    """An aiosqlite connection (autocommit) whose worker thread does not keep the process
    alive: if the bot dies without closing the store, it must exit (and be restarted by
    its supervisor) rather than hang. Nothing is lost: every acknowledged write is already
    committed, and these connections only read or checkpoint. Uses aiosqlite's ``_thread``
    when it exists, and falls back to its normal behaviour when it does not."""
    conn = aiosqlite.connect(path, isolation_level=None)
    thread = getattr(conn, "_thread", None)
    if isinstance(thread, threading.Thread) and not thread.is_alive():
        thread.daemon = True
    return conn


class Checkpointer:
    def __init__(self, conn: aiosqlite.Connection, commits: Callable[[], int], interval: float):
        self._conn = conn
        self._commits = commits
        self._interval = interval
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def start(
        cls, path: str, commits: Callable[[], int], interval: float = 0.2
    ) -> Checkpointer:
        conn = await daemon_connect(path)
        await conn.execute("PRAGMA busy_timeout=5000")
        checkpointer = cls(conn, commits, interval)
        checkpointer._task = asyncio.get_running_loop().create_task(
            checkpointer._run(), name="store-checkpoint"
        )
        return checkpointer

    async def _run(self) -> None:
        done = self._commits()
        while True:
            await asyncio.sleep(self._interval)
            now = self._commits()
            if now == done:
                continue
            done = now
            try:
                await self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:
                # Not fatal: the writer's automatic checkpoint still bounds the WAL.
                log.exception("background WAL checkpoint failed")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._conn.close()
