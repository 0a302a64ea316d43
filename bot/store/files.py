"""Database files are private: they hold every deck.

A SQLite database is created 0600 before SQLite opens it; SQLite then gives its ``-wal``,
``-shm`` and journal files the database file's mode, so none of them is readable by
other users either, whatever the process's umask. A file that already exists keeps the
mode its operator gave it.
"""

from __future__ import annotations

import contextlib
import os

PRIVATE = 0o600


def create_private(path: str | os.PathLike[str], mode: int = PRIVATE) -> None:
    """Create ``path`` empty with ``mode`` (exactly: the umask does not widen or narrow
    it) if it does not exist. An empty file is a valid, empty SQLite database."""
    name = os.fspath(path)
    if not name or name == ":memory:" or name.startswith("file:"):
        return
    try:
        fd = os.open(name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, mode)
    except FileExistsError:
        return
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def others_can_read(path: str | os.PathLike[str]) -> bool:
    """Whether users other than the owner (group or others) may read ``path``."""
    with contextlib.suppress(OSError):
        return bool(os.stat(path).st_mode & 0o044)
    return False
