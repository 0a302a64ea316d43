"""One table channel on Discord: its table message and everything the bot keeps for it.

A :class:`TableChannel` owns, for one table, the table message (its id and what it
last showed), the recent lines, the hand's summary and showdown notes, the turn ping,
the DMs that failed, the table picture and an ``asyncio.Lock`` for edits. The presenter
(:mod:`cogs.presenter`) routes the service's notices to these objects and holds nothing
else per table.

The table message is built and shown by one method, :meth:`TableChannel.show`, for
both directions: an accepted click answers with it (UPDATE_MESSAGE, the edit is the
interaction's response) and a notice refreshes it (a REST edit, coalesced). Edits take
the lock. While a click is being answered (:meth:`TableChannel.answering`), a refresh
waits on the lock's condition instead of editing the same message under it, so one
click costs one edit; it is woken when the click is answered (no polling).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import discord

from bot.table.ports import StorePort
from bot.table.view import TableView
from cogs import budget, ops
from cogs.art import PictureCache, ShowdownNotes
from cogs.embeds import table_message
from cogs.prefs import save_table_message

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]

RECENT = 6
"""Lines of the table's recent events shown in the embed (and by ``/history``)."""


@dataclass
class HandNotes:
    """What the end-of-hand message needs, collected while the hand is played."""

    summary: list[str] = field(default_factory=list)
    fists: list[tuple[int, str, int]] | None = None
    """(seat, name, chips) of each opened fist (R-13.2), once they are revealed."""
    showdown: ShowdownNotes | None = None
    """The showdown picture's notes (``cogs.art.showdown_art``): public events only."""


def _no_hook(message_id: int) -> discord.Interaction[discord.Client] | None:
    return None


def _no_op(interaction: discord.Interaction[discord.Client]) -> None:
    return None


class TableChannel:
    """Everything the Discord side keeps for one table (see the module docstring)."""

    def __init__(
        self,
        table_id: str,
        client: discord.Client,
        store: StorePort,
        load: Callable[[], TableView | None],
    ) -> None:
        self.table_id = table_id
        self.client = client
        self.store = store
        self._load = load
        """The table's spectator snapshot now (None: the table is gone)."""
        self.message_id: int | None = None
        """The table message (edited in place; re-posted by a bump)."""
        self.thread_id = 0
        """The table's own thread, when it has one (a Discord-side record, not a rule)."""
        self.shown: tuple[int, int] | None = None
        """(turn, notices) the table message last showed."""
        self.notices = 0
        self.recent: deque[str] = deque(maxlen=RECENT)
        self.hand = HandNotes()
        self.pictures = PictureCache()
        self.hook_for: Callable[[int], discord.Interaction[discord.Client] | None] = _no_hook
        """A live interaction answered on this message id, whose webhook can edit it
        (set by the presenter, which keeps the interactions)."""
        self.hook_refused: Callable[[discord.Interaction[discord.Client]], None] = _no_op
        self.ping_id: int | None = None
        self.ping_task: asyncio.Task[None] | None = None
        self.dm_failed: set[tuple[str, int, str]] = set()
        """(user, hand, what) already told in the channel that his DMs are closed."""
        self.bumped_at = -1e9
        self.lock = asyncio.Lock()
        """Held by every edit of the table message."""
        self._answered = asyncio.Condition(self.lock)
        self._answering = 0
        self._dirty = False
        self._refresher: asyncio.Task[None] | None = None
        self._queue: asyncio.Queue[Job] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ notices

    def note(self, text: str) -> None:
        """A public notice: one more line, and the message no longer shows the latest."""
        self.notices += 1
        self.recent.append(text)

    def key(self, turn: int) -> tuple[int, int]:
        return (turn, self.notices)

    # ------------------------------------------------------------ the table message

    @asynccontextmanager
    async def answering(self) -> AsyncIterator[None]:
        """While a click is acted on and answered: refreshes wait (the click's answer
        is the edit), and are woken when it is done."""
        self._answering += 1
        try:
            yield
        finally:
            self._answering -= 1
            async with self._answered:
                self._answered.notify_all()

    def where(self) -> discord.PartialMessageable:
        """Where the table lives: its channel, or its own thread."""
        return self.client.get_partial_messageable(self.thread_id or int(self.table_id))

    def schedule_refresh(self) -> None:
        """Coalesce a burst of notices into one edit of the table message."""
        self._dirty = True
        if self._refresher is None or self._refresher.done():
            self._refresher = asyncio.create_task(self._refresh_loop())

    async def _refresh_loop(self) -> None:
        await asyncio.sleep(0.02)  # a burst of notices: one edit
        while self._dirty:
            self._dirty = False
            try:
                # The budget is paid first: a click never waits behind our wait.
                async with budget.prepaid_for(self.client), self.lock:
                    # A click in flight answers with the edit itself: wait for it.
                    await self._answered.wait_for(lambda: self._answering == 0)
                    view = self._load()
                    if view is not None:
                        await self._show_locked(view, via=None, repost=False)
            except Exception:
                log.exception("table %s: refresh failed", self.table_id)

    async def show(
        self,
        view: TableView,
        *,
        via: discord.Interaction[discord.Client] | None = None,
        repost: bool = False,
    ) -> bool:
        """Show ``view`` (the spectator snapshot) on the table message; the one path for
        every change of it. ``via``: a click on the table message, answered with the
        edit (UPDATE_MESSAGE) and never drawing first (a new picture follows by a
        refresh). Otherwise a REST edit of the known message, or a new message
        (``repost``: a new one at the bottom, the old one deleted). Returns whether the
        message now shows ``view``."""
        async with self.lock:
            return await self._show_locked(view, via=via, repost=repost)

    async def _show_locked(
        self,
        view: TableView,
        *,
        via: discord.Interaction[discord.Client] | None,
        repost: bool,
    ) -> bool:
        key = self.key(view.turn)
        if via is not None:
            if via.message is None or self.message_id not in (None, via.message.id):
                return False  # not the table message: answered by the caller
            image, current = self.pictures.current(view)
            embed, buttons = table_message(view, list(self.recent), image)
            if not await ops.update(via, embed=embed, view=buttons):
                return False
            if self.message_id is None and via.message is not None:
                self.message_id = via.message.id
            if current:
                self.shown = key
            else:
                self.schedule_refresh()  # the street's new picture: uploaded right after
            return True
        if not repost and self.shown == key and self.message_id is not None:
            return True
        image, is_new = await self.pictures.get(view)
        embed, buttons = table_message(view, list(self.recent), image)
        where = self.where()
        old = self.message_id
        if old is not None and not repost:
            upload = image if is_new else None
            # Through a recent click's webhook when there is one: exempt from the
            # global limit and from the channel's message bucket (cogs/presenter.py).
            hook = self.hook_for(old)
            if hook is not None:
                if await ops.edit_original(hook, embed=embed, view=buttons, image=upload):
                    self.shown = key
                    return True
                self.hook_refused(hook)  # its token is spent: never tried again
            if await ops.edit(
                where.get_partial_message(old), embed=embed, view=buttons, image=upload
            ):
                self.shown = key
                return True
        msg = await ops.send(where, embed=embed, view=buttons, image=image)
        if msg is None:
            return False
        self.message_id = msg.id
        self.shown = key
        try:
            await save_table_message(self.store, self.table_id, msg.id)
        except Exception:  # the message is up; only a restart would post a second one
            log.exception("table %s: could not store the table message id", self.table_id)
        if old is not None and repost:
            # Retire the old message: no buttons, so nobody plays on it.
            await ops.delete(where.get_partial_message(old))
        return True

    def bump_wait(self, cooldown: float) -> int:
        """Seconds before the table may be bumped again (0: now; the clock starts)."""
        now = time.monotonic()
        left = self.bumped_at + cooldown - now
        if left > 0:
            return max(1, round(left))
        self.bumped_at = now
        return 0

    # ------------------------------------------------------------ deliveries, in order

    def enqueue(self, job: Job) -> None:
        """Deliveries (DMs, pings, the end-of-hand message) in order, off the table lock."""
        self._queue.put_nowait(job)
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._work())

    async def _work(self) -> None:
        while not self._queue.empty():
            job = self._queue.get_nowait()
            try:
                await job()
            except Exception:
                log.exception("table %s: a delivery failed", self.table_id)

    def tasks(self) -> list[asyncio.Task[None]]:
        """The channel's running background work (for drain and close)."""
        return [
            t
            for t in (self._worker, self._refresher, self.ping_task)
            if t is not None and not t.done()
        ]


__all__ = ["HandNotes", "TableChannel"]
