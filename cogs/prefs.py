"""What the Discord side must remember across restarts: player preferences (how to be
told it is your turn), each channel's table record (its table message id, and the
thread the table runs in, if any) and each player's DM channel, kept in the store.

They live in the event log under one reserved log id, :data:`PREFS_LOG`, as ``notify``
events: the same durable, append-only path as every table's events, and no extra
schema. Table ids are Discord channel ids (digits) or ``local``, so the id cannot clash,
and the log never opens a table (only ``created`` events do). The newest event for a
user wins when they are read back at start-up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from bot.table.log import (
    LogError,
    NotifyChosen,
    TableMessage,
    TablePlace,
    TableThread,
    read_rows,
)
from bot.table.ports import StorePort

log = logging.getLogger(__name__)

PREFS_LOG = "_player_prefs"
NOTIFY = NotifyChosen.KIND
NOTIFY_MODES = ("channel", "dm")


async def load_notify_modes(store: StorePort) -> dict[str, str]:
    """Every user's chosen turn notice, as of the last choice each made."""
    modes: dict[str, str] = {}
    for event in await store.events(PREFS_LOG):
        try:
            chosen = read_rows([event], NotifyChosen)
        except LogError as exc:
            # A preference is no chip: a bad row is skipped (and logged), not fatal.
            log.warning("%s", exc)
            continue
        for rec in chosen:
            if rec.mode in NOTIFY_MODES:
                modes[rec.user] = rec.mode
    return modes


async def save_notify_mode(store: StorePort, user_id: str, mode: str) -> None:
    """Record a choice durably (returns after the store committed it)."""
    if mode not in NOTIFY_MODES:
        raise ValueError(f"unknown notify mode {mode!r}")
    rec = NotifyChosen(user_id, mode)
    await store.append(PREFS_LOG, rec.kind, rec.to_payload())


# The table message of each channel, kept for the same reason: after a restart the bot
# edits the message players already have (and its buttons) instead of posting a second
# one beside it. One event per new table message (created, or re-posted to the bottom).
TABLE_MESSAGES_LOG = "_table_messages"
TABLE_MESSAGE = TableMessage.KIND


async def load_table_messages(store: StorePort) -> dict[str, int]:
    """The newest table message id per table."""
    ids: dict[str, int] = {}
    for event in await store.events(TABLE_MESSAGES_LOG):
        try:
            saved = read_rows([event], TableMessage)
        except LogError as exc:
            log.warning("%s", exc)  # the bot posts a new table message instead
            continue
        for rec in saved:
            ids[rec.table] = rec.message
    return ids


async def save_table_message(store: StorePort, table_id: str, message_id: int) -> None:
    rec = TableMessage(table_id, message_id)
    await store.append(TABLE_MESSAGES_LOG, rec.kind, rec.to_payload())


# The thread a table runs in, when it was opened with its own thread: a Discord detail,
# so it is kept here with the table message, not in the platform-free table settings.
# Tables made before this record existed hold it in their settings (``thread_id``, now
# read back into ``settings.extra``): it is read from there once, at start-up, and
# written here (:func:`migrate_table_threads`).
TABLE_THREADS_LOG = "_table_threads"
TABLE_THREAD = TableThread.KIND


async def load_table_threads(store: StorePort) -> dict[str, int]:
    """The thread of each table that has one (0: back to the channel itself)."""
    ids: dict[str, int] = {}
    for event in await store.events(TABLE_THREADS_LOG):
        try:
            saved = read_rows([event], TableThread)
        except LogError as exc:
            log.warning("%s", exc)  # the table stays in its channel
            continue
        for rec in saved:
            ids[rec.table] = rec.thread
    return {t: i for t, i in ids.items() if i}


async def save_table_thread(store: StorePort, table_id: str, thread_id: int) -> None:
    rec = TableThread(table_id, thread_id)
    await store.append(TABLE_THREADS_LOG, rec.kind, rec.to_payload())


async def migrate_table_threads(
    store: StorePort, settings_extra: Mapping[str, Mapping[str, object]]
) -> dict[str, int]:
    """Every table's thread: the records, plus (recorded now, once) the ``thread_id``
    an older version kept in a table's settings, given as each table's
    ``settings.extra``."""
    threads = await load_table_threads(store)
    for table_id, extra in settings_extra.items():
        legacy = extra.get("thread_id")
        if table_id not in threads and type(legacy) is int and legacy > 0:
            await save_table_thread(store, table_id, legacy)
            threads[table_id] = legacy
    return threads


# Where a table not named after its channel lives (a tournament's tables, R-19.3): the
# channel and the thread the dealer opened for it. A table named after its channel needs
# no record: its id is its channel's.
TABLE_PLACES_LOG = "_table_places"


async def load_table_places(store: StorePort) -> dict[str, tuple[int, int]]:
    """The (channel, thread) of each table with a recorded place, as last recorded."""
    places: dict[str, tuple[int, int]] = {}
    for event in await store.events(TABLE_PLACES_LOG):
        try:
            saved = read_rows([event], TablePlace)
        except LogError as exc:
            log.warning("%s", exc)  # the table has no place: commands find none
            continue
        for rec in saved:
            places[rec.table] = (rec.channel, rec.thread)
    return places


async def save_table_place(store: StorePort, table_id: str, channel: int, thread: int) -> None:
    rec = TablePlace(table_id, channel, thread)
    await store.append(TABLE_PLACES_LOG, rec.kind, rec.to_payload())


# Each user's DM channel, opened once (POST /users/@me/channels) and kept: discord.py
# caches only 128 DM channels, so past 128 players every DM would open one again first.
# A DM goes to the kept channel id directly (cogs/ops.py ``dm``).
DM_CHANNELS_LOG = "_dm_channels"
DM_CHANNEL = "dm_channel"


async def load_dm_channels(store: StorePort) -> dict[int, int]:
    """The DM channel of each user, as last recorded."""
    ids: dict[int, int] = {}
    for event in await store.events(DM_CHANNELS_LOG):
        user, channel = event.payload.get("user"), event.payload.get("channel")
        if event.kind == DM_CHANNEL and isinstance(user, str) and user.isdigit():
            if isinstance(channel, int) and channel > 0:
                ids[int(user)] = channel
            elif channel is None:
                ids.pop(int(user), None)  # forgotten: the channel was gone
    return ids


async def save_dm_channel(store: StorePort, user_id: int, channel_id: int | None) -> None:
    """Record a user's DM channel (None: forget it; the next DM opens a new one)."""
    await store.append(DM_CHANNELS_LOG, DM_CHANNEL, {"user": str(user_id), "channel": channel_id})


class DmChannels:
    """The kept DM channel ids (see above): loaded at start, recorded when one is
    opened. ``store`` None keeps them in memory only."""

    def __init__(self, store: StorePort | None = None) -> None:
        self.store = store
        self.ids: dict[int, int] = {}
        self.opened = 0
        """DM channels opened by this process (each one request)."""
        self._locks: dict[int, asyncio.Lock] = {}

    async def load(self, store: StorePort) -> None:
        self.store = store
        self.ids.update(await load_dm_channels(store))

    def lock(self, user_id: int) -> asyncio.Lock:
        """Held while a user's channel is opened: two DMs at once open it once."""
        return self._locks.setdefault(user_id, asyncio.Lock())

    async def keep(self, user_id: int, channel_id: int) -> None:
        self.ids[user_id] = channel_id
        self.opened += 1
        await self._save(user_id, channel_id)

    async def forget(self, user_id: int) -> None:
        if self.ids.pop(user_id, None) is not None:
            await self._save(user_id, None)

    async def _save(self, user_id: int, channel_id: int | None) -> None:
        if self.store is None:
            return
        try:
            await save_dm_channel(self.store, user_id, channel_id)
        except Exception:  # only the next restart would open it once more
            log.exception("could not store the DM channel of %s", user_id)
