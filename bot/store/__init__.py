"""Durable storage for Chipfist: an append-only event log per table, with a chip ledger.

The log is the truth (invariant 4): a table's state can always be rebuilt from its events.
``Store.append`` returns only after the event is committed; writes from every table share
one group-commit writer (``writer.py``), reads use their own connection (``reader.py``),
and the schema is migrated on open (``schema.py``).

Two back ends behind the same methods (:class:`BaseStore`): SQLite (:class:`Store`, one
process, the default) and PostgreSQL (``postgres.py``, several processes sharing one
database). :func:`open_store` picks one from a file path or a ``postgresql://`` URL.
"""

from bot.store.backends import database_from_env, describe, is_postgres, open_store
from bot.store.errors import DuplicateCommand, StaleFence, StoreClosed, StoreError
from bot.store.inuse import DatabaseInUse
from bot.store.records import (
    BOUGHT,
    LEDGER_KINDS,
    HandRecord,
    HandTotal,
    LedgerEntry,
    LedgerKind,
    LedgerRow,
    PlayerTotals,
    Snapshot,
    Standing,
    StoredEvent,
    WriterStats,
)
from bot.store.store import BaseStore, Store

__all__ = [
    "BOUGHT",
    "LEDGER_KINDS",
    "BaseStore",
    "DatabaseInUse",
    "DuplicateCommand",
    "HandRecord",
    "HandTotal",
    "LedgerEntry",
    "LedgerKind",
    "LedgerRow",
    "PlayerTotals",
    "Snapshot",
    "StaleFence",
    "Standing",
    "Store",
    "StoreClosed",
    "StoreError",
    "StoredEvent",
    "WriterStats",
    "database_from_env",
    "describe",
    "is_postgres",
    "open_store",
]
