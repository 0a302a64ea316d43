"""Which store to open: a file path means SQLite, a ``postgresql://`` URL PostgreSQL.

``CHIPFIST_DB`` names the database (:func:`database_from_env`); :func:`open_store` opens
whichever back end it names. Both offer the same methods (:class:`~bot.store.store.BaseStore`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Final
from urllib.parse import urlsplit, urlunsplit

from bot.store.store import BaseStore, Store, Synchronous

DEFAULT_DATABASE: Final = "chipfist.sqlite3"
_PG_SCHEMES: Final = ("postgresql://", "postgres://")


def is_postgres(url_or_path: str) -> bool:
    """Whether this names a PostgreSQL database (a ``postgresql://`` URL)."""
    return url_or_path.strip().lower().startswith(_PG_SCHEMES)


def database_from_env(
    environ: Mapping[str, str] | None = None, default: str = DEFAULT_DATABASE
) -> str:
    """The database the bot uses: ``CHIPFIST_DB`` (a SQLite file path or a
    ``postgresql://`` URL), else ``default``."""
    env = os.environ if environ is None else environ
    value = env.get("CHIPFIST_DB", "").strip()
    return value or default


def describe(url_or_path: str) -> str:
    """For logs and messages: the database without its password (in the URL's user part
    or a ``password=`` parameter)."""
    if not is_postgres(url_or_path):
        return url_or_path
    parts = urlsplit(url_or_path)
    if parts.password is not None:
        host = parts.netloc.rpartition("@")[2]
        parts = parts._replace(netloc=f"{parts.username}:***@{host}")
    if parts.query:
        query = [
            f"{k}=***" if k.lower() in ("password", "sslpassword") else f"{k}={v}" if sep else k
            for k, sep, v in (item.partition("=") for item in parts.query.split("&"))
        ]
        parts = parts._replace(query="&".join(query))
    return urlunsplit(parts)


async def open_store(
    url_or_path: str | os.PathLike[str],
    *,
    synchronous: Synchronous | None = None,
    max_batch: int = 2000,
) -> BaseStore:
    """Open the store ``url_or_path`` names. ``synchronous`` is SQLite's durability mode
    (PostgreSQL's is the server's ``synchronous_commit``)."""
    target = os.fspath(url_or_path)
    if is_postgres(target):
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(target, max_batch=max_batch)
    return await Store.open(target, synchronous=synchronous or "NORMAL", max_batch=max_batch)
