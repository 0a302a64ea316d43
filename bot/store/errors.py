"""Exceptions raised by the store.

They are deliberately few: the table service needs to tell "this command was already
applied" (answer the player as before) from "the store is broken" (halt the table).
"""

from __future__ import annotations


class StoreError(Exception):
    """The store could not do what was asked; nothing was written for this call."""


class StoreClosed(StoreError):
    """The store was closed (or its writer stopped) before this call could be served."""


class DuplicateCommand(StoreError):
    """This idempotency key is already in the log for this table; nothing was written.

    ``existing_seq`` is the seq of the event that used the key first, so the caller can
    answer the repeated command exactly as it answered the original one.
    """

    def __init__(self, table_id: str, idem_key: str, existing_seq: int) -> None:
        super().__init__(
            f"idempotency key {idem_key!r} already used at seq {existing_seq} of {table_id!r}"
        )
        self.table_id = table_id
        self.idem_key = idem_key
        self.existing_seq = existing_seq


class StaleFence(StoreError):
    """The append carried a fencing token that is no longer current: someone else took
    the fence over (a newer owner of this table). Nothing was written; the caller has lost
    ownership and must stop driving the table."""

    def __init__(self, table_id: str, fence: str, generation: int, current: int) -> None:
        super().__init__(
            f"fence {fence!r} is at generation {current}, not {generation}: "
            f"write to {table_id!r} refused (another owner took over)"
        )
        self.table_id = table_id
        self.fence = fence
        self.generation = generation
        self.current = current
