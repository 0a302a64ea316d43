"""Durable storage for Chipfist: an append-only event log per table, with a chip ledger.

The log is the truth (invariant 4): a table's state can always be rebuilt from its events.
``Store.append`` returns only after the event is committed; writes from every table share
one group-commit writer (``writer.py``), reads use their own connection (``reader.py``),
and the schema is migrated on open (``schema.py``).
"""

from bot.store.errors import DuplicateCommand, StoreClosed, StoreError
from bot.store.records import (
    LEDGER_KINDS,
    HandRecord,
    LedgerEntry,
    LedgerKind,
    LedgerRow,
    Snapshot,
    StoredEvent,
    WriterStats,
)
from bot.store.store import Store

__all__ = [
    "LEDGER_KINDS",
    "DuplicateCommand",
    "HandRecord",
    "LedgerEntry",
    "LedgerKind",
    "LedgerRow",
    "Snapshot",
    "Store",
    "StoreClosed",
    "StoreError",
    "StoredEvent",
    "WriterStats",
]
