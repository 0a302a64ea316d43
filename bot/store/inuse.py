"""One process per SQLite file: a lock held for as long as a store is open.

The SQLite writer caches each table's last seq (``store.py``), so a second process
writing the same file would collide on seqs; two terminal tables (or a terminal and the
bot) on one file did, with a traceback. The store takes an exclusive ``flock`` on a
file beside the database (``chipfist.sqlite3.lock``) when it opens and lets it go when
it closes; the kernel lets it go too when the process dies (``kill -9``), so a crashed
bot never leaves a stale lock. A second opener is refused at once with
:class:`DatabaseInUse`. Readers that only copy or inspect the file (``backup``,
``doctor``) do not take it. Where ``fcntl`` does not exist (Windows) nothing is locked.
"""

from __future__ import annotations

import contextlib
import os

from bot.store.errors import StoreError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]  # no flock there: nothing is locked


class DatabaseInUse(StoreError):
    """Another process has this database open."""

    def __init__(self, path: str) -> None:
        super().__init__(
            f"the database {path} is in use by another terminal table or bot; stop that "
            "one first, or use another database (--db or CHIPFIST_DB)"
        )
        self.path = path


def lock_path(path: str) -> str:
    return f"{path}.lock"


class FileLock:
    """The database's lock, held from :meth:`take` until :meth:`release`."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None

    def take(self) -> None:
        """Hold the lock, or raise :class:`DatabaseInUse` (``OSError`` if the lock file
        cannot be created, e.g. the folder does not exist)."""
        if fcntl is None or self._fd is not None:
            return
        if not self.path or self.path == ":memory:" or self.path.startswith("file:"):
            return  # no file of its own to lock
        fd = os.open(lock_path(self.path), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise DatabaseInUse(self.path) from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)  # closing the only descriptor releases the flock
