"""One table channel on Discord: its table message and everything the bot keeps for it.

A :class:`TableChannel` owns, for one table, the table message (its id and the version
it shows), the recent lines, the hand's summary and showdown notes, the turn ping, the
DMs that failed, the table picture and the delivery queue. The presenter
(:mod:`cogs.presenter`) routes the service's notices to these objects and holds nothing
else per table.

The table message under Discord's real limits (issue 15):

- Every state the message shows carries the table's version, ``turn.notices`` (the
  service's turn counter and the notices told so far), in the embed's footer; the
  channel keeps the version the message is known to show (:attr:`TableChannel.shown`).
- One write to the message is in flight at a time (a REST edit or a click's answer),
  and each write is built, when it goes, from the table's latest state: an older state
  can never land after a newer one, so the table never goes backwards, and whatever
  lands last is the latest.
- A click answers with the message itself (UPDATE_MESSAGE: the interaction callback,
  exempt from the rate limits). If a REST edit is in flight it waits for it, but only
  while Discord's 3 s window allows (:attr:`TableChannel.answer_within`); past that the
  click is acknowledged without a change (DEFERRED_UPDATE_MESSAGE) and the refresh shows
  the latest state once the edit in flight is done. A player never sees "This
  interaction failed" when an answer was possible.
- Notices are coalesced into one refresh (:meth:`TableChannel.schedule_refresh`): while
  a click is being answered it waits (the click's answer is the edit); before it sends
  it waits for room in the channel's message bucket (5 per 5 s, as discord.py learnt it:
  :func:`cogs.ops.bucket_wait`), outside any lock, so clicks go through meanwhile and the
  edit that finally goes shows the state of that moment. A burst of actions costs a
  few edits and never queues behind the bucket.
- A failed or doubtful write (5xx, 429 surfacing, a timeout, an answer lost) leaves the
  message's state unknown: the refresh redoes it with the latest state, after a backoff
  with jitter, up to :attr:`TableChannel.retry_limit` tries (each logged); the next
  notice re-arms it. (A refusal of the payload itself, a bug, is logged and left to
  the next notice: sending it again cannot help.)
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass, field

import discord

from bot.table.ports import StorePort
from bot.table.view import TableView
from bot.words import Locale
from cogs import budget, ops
from cogs.art import PictureCache, PictureKey, ShowdownNotes, picture_key
from cogs.embeds import table_message
from cogs.prefs import save_table_message

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]

RECENT = 6
"""Lines of the table's recent events shown in the embed (and by ``/history``)."""


@dataclass
class HandNotes:
    """What the end-of-hand message needs, collected while the hand is played."""

    summary: list[tuple[int, str]] = field(default_factory=list)
    """Each line with its pot order (``cogs.presenter.pot_order``: -1 for a line that
    awards no pot)."""
    fists: list[tuple[int, str, int]] | None = None
    """(seat, name, chips) of each opened fist (R-13.2), once they are revealed."""
    showdown: ShowdownNotes | None = None
    """The showdown picture's notes (``cogs.art.showdown_art``): public events only."""
    after: list[str] = field(default_factory=list)
    """What may be done after the hand, as buttons on its end message: ``show`` (a
    player was offered to show by choice, R-20.15), ``rabbit`` (R-20.14)."""


Version = tuple[int, int, int]
"""(turn, notices, picture): the table's turn counter, the notices told so far, and 1
when the message also carries the picture of that state (0: it follows). Compared as a
tuple: a later state is greater (the turn and the notices only grow)."""


def version_text(version: Version) -> str:
    """The version as the footer shows it: ``turn.notices``."""
    return f"{version[0]}.{version[1]}"


class _Unshown(Exception):
    """The table message could not be posted (``ops.send`` gave up): retried."""


def _no_hook(message_id: int) -> discord.Interaction[discord.Client] | None:
    return None


def _english() -> Locale:
    return "en"


def _no_op(interaction: discord.Interaction[discord.Client]) -> None:
    return None


class TableChannel:
    """Everything the Discord side keeps for one table (see the module docstring)."""

    answer_within = 2.0
    """Seconds after a click was made by which it is answered, or acknowledged if a
    write of the table message is still in flight (Discord's window is 3 s)."""
    draw_within = 0.25
    """Seconds a click's answer waits for the new street's picture to be drawn (about
    12 ms of work; more on a busy machine), so that the answer carries it: else the
    answer goes without it and a second write (an edit through the click's webhook)
    uploads it right after."""
    retry_limit = 8
    """Tries of one refresh before it gives up (logged; the next notice re-arms it)."""
    coalesce = 0.02
    """Seconds a refresh waits first, so that a burst of notices makes one edit."""

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
        self.channel_id = 0
        """The channel of a table not named after its channel (its recorded place,
        R-19.3); 0: the table's id is its channel's."""
        self.shown: Version | None = None
        """The version the table message is known to show (None: unknown, after a
        write that failed or whose answer was lost; the refresh then rewrites it)."""
        self.notices = 0
        self.recent: deque[str] = deque(maxlen=RECENT)
        self.hand = HandNotes()
        self.locale: Callable[[], Locale] = _english
        """The table's language now (set by the presenter: the setting, else the
        server's): its message and its picture are in it."""
        self.pictures = PictureCache()
        self.pictures.locale = lambda: self.locale()
        self.hook_for: Callable[[int], discord.Interaction[discord.Client] | None] = _no_hook
        """A live interaction answered on this message id, whose webhook can edit it
        (set by the presenter, which keeps the interactions)."""
        self.hook_refused: Callable[[discord.Interaction[discord.Client]], None] = _no_op
        self.ping_id: int | None = None
        self.ping_task: asyncio.Task[None] | None = None
        self.dm_failed: set[tuple[str, int, str]] = set()
        """(user, hand, what) already told in the channel that his DMs are closed."""
        self.bumped_at = -1e9
        self.no_attach = False
        """The bot lacks Attach Files here: the table is shown as text (cogs/moderation.py)."""
        self.no_send = False
        """The bot lacks Send Messages here: nothing is posted (cogs/moderation.py)."""
        self.retries = 0
        """Writes of the table message redone after a failure (for tests and logs)."""
        self.deferred = 0
        """Clicks acknowledged without the table (a write was in flight too long)."""
        self._picture: PictureKey | None = None
        """``picture_key`` of the picture the message carries (as far as we know)."""
        self._answering = 0
        self._quiet = asyncio.Event()
        """Set while no click is being acted on and answered."""
        self._quiet.set()
        self._writing = False
        self._written = asyncio.Event()
        """Set while no write of the table message is in flight."""
        self._written.set()
        self._repost = False
        self._post_nonce: int | None = None
        """The nonce of the table message being posted, kept until it is up."""
        self._refresher: asyncio.Task[None] | None = None
        self._queue: asyncio.Queue[Job] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ notices

    def new_table(self) -> None:
        """A new table opened in this channel: it gets a message of its own (the last
        table's stays as it was left, closed) and nothing the last one showed or told.
        Its turns start again, so a version shown for the last table says nothing."""
        self.message_id = None
        self.shown = None
        self._picture = None
        self._repost = False
        self.recent.clear()
        self.hand = HandNotes()
        self.dm_failed.clear()

    def note(self, text: str) -> None:
        """A public notice: one more line, and the message no longer shows the latest."""
        self.notices += 1
        self.recent.append(text)

    def key(self, turn: int, picture: bool = True) -> Version:
        """The version of the table at ``turn`` with the notices told so far."""
        return (turn, self.notices, int(picture))

    def _latest(self) -> tuple[TableView, list[str], Version] | None:
        """The table's state now: its view, the recent lines and its version, read
        together (no await between them), so the version names exactly this state."""
        view = self._load()
        if view is None:
            return None
        return view, list(self.recent), self.key(view.turn)

    def _current(self, version: Version) -> bool:
        return (
            not self._repost
            and self.message_id is not None
            and self.shown is not None
            and self.shown >= version
        )

    # ------------------------------------------------------------ one write at a time

    async def _enter(self, timeout: float | None = None) -> bool:
        """Become the one write of the table message in flight; False if another was
        still in flight after ``timeout`` seconds. (An event, not a lock: a waiter
        that gives up holds nothing.)"""
        loop = asyncio.get_running_loop()
        end = None if timeout is None else loop.time() + timeout
        while self._writing:
            if end is None:
                await self._written.wait()
                continue
            left = end - loop.time()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self._written.wait(), left)
            except TimeoutError:
                return False
        self._writing = True
        self._written.clear()
        return True

    def _leave(self) -> None:
        self._writing = False
        self._written.set()

    # ------------------------------------------------------------ the table message

    @asynccontextmanager
    async def answering(self) -> AsyncIterator[None]:
        """While a click is acted on and answered: refreshes wait (the click's answer
        is the edit), and are woken when it is done (no polling)."""
        self._answering += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._answering -= 1
            if self._answering == 0:
                self._quiet.set()

    def place(self) -> int:
        """The id of where the table lives: its own thread, else its channel."""
        return self.thread_id or self.channel_id or int(self.table_id)

    def where(self) -> discord.PartialMessageable:
        """Where the table lives: its channel, or its own thread."""
        return self.client.get_partial_messageable(self.place())

    def schedule_refresh(self) -> None:
        """Bring the table message up to the latest state, coalesced (one refresh task
        per table; a running one always ends on the latest state)."""
        if self._refresher is None or self._refresher.done():
            self._refresher = asyncio.create_task(self._refresh_loop())

    async def _refresh_loop(self) -> None:
        await asyncio.sleep(self.coalesce)  # a burst of notices: one edit
        failures = 0
        delay = 0.0
        while True:
            if delay > 0:  # a backoff, or the channel's bucket (outside the message)
                await asyncio.sleep(delay)
                delay = 0.0
            # A click in flight answers with the edit itself: wait for it.
            await self._quiet.wait()
            latest = self._latest()
            if latest is None or self._current(latest[2]):
                return
            # Draw the picture before taking the message (a click may answer meanwhile).
            if not self.no_attach:
                await self.pictures.get(latest[0])
            # The global budget is paid before the message is taken: a click never
            # waits behind our wait (cogs/budget.py); unspent, it is given back. An edit
            # through a click's webhook is exempt: it pays nothing, so it waits for nothing.
            pay = budget.prepaid_for(self.client) if self._hook() is None else nullcontext()
            async with pay:
                await self._enter()
                try:
                    if self._answering:
                        continue  # a click came in: it shows the state; check again after it
                    # Room in the channel's bucket, checked right before sending; else wait
                    # holding nothing: clicks pass meanwhile, and the edit that goes after
                    # the wait shows the state of then. An edit through a click's webhook
                    # (see _write) is outside the channel's bucket: no wait for it.
                    if self._hook() is None:
                        delay = ops.bucket_wait(self.client, self.place())
                        if delay > 0:
                            continue
                    latest = self._latest()  # the state now, not the one that woke us
                    if latest is None or self._current(latest[2]):
                        return
                    try:
                        await self._write(*latest)
                        failures = 0
                    except Exception as exc:
                        self.shown = None  # it may have landed or not: rewrite it
                        if not (ops.transient(exc) or isinstance(exc, _Unshown)):
                            # A refusal of this payload (a bug): trying it again cannot help;
                            # the next notice tries the next state.
                            log.exception("table %s: refresh failed", self.table_id)
                            return
                        failures += 1
                        if failures >= self.retry_limit:
                            log.warning(
                                "table %s: the table message is stale after %d tries (%s);"
                                " the next notice tries again",
                                self.table_id,
                                failures,
                                _why(exc),
                            )
                            return
                        delay = ops.backoff(failures - 1, base=ops.FAST_BASE)
                        self.retries += 1
                        log.info(
                            "table %s: refresh failed (%s), retry %d in %.1f s",
                            self.table_id,
                            _why(exc),
                            failures,
                            delay,
                        )
                finally:
                    self._leave()

    def _hook(self) -> discord.Interaction[discord.Client] | None:
        """The click whose webhook the next edit of the table message would go through."""
        if self.message_id is None or self._repost:
            return None
        return self.hook_for(self.message_id)

    async def _write(self, view: TableView, recent: list[str], version: Version) -> None:
        """One REST write of the table message showing ``view`` (under :meth:`_enter`):
        an edit of the known message, or a new message (a bump's repost, or the old one
        gone), the old one then deleted. Raises when it did not show it."""
        # Attach Files lost: the text table, and the message's old picture dropped.
        image = None if self.no_attach else self.pictures.current(view)[0]
        pic = None if self.no_attach else picture_key(view)
        drawn = image is not None
        full = (version[0], version[1], 1)
        embed, buttons = table_message(
            view, recent, image, version_text(full), locale=self.locale()
        )
        where = self.where()
        old = self.message_id
        repost = self._repost
        if old is not None and not repost:
            upload = image if drawn and self._picture != pic else None
            # Through a recent click's webhook when there is one: exempt from the
            # global limit and from the channel's message bucket (cogs/presenter.py).
            hook = self.hook_for(old)
            if hook is not None:
                if await ops.edit_original(
                    hook, embed=embed, view=buttons, image=upload, clear=self.no_attach
                ):
                    self.shown = full
                    self._picture = pic
                    return
                self.hook_refused(hook)  # its token is spent: never tried again
            if await ops.edit(
                where.get_partial_message(old),
                embed=embed,
                view=buttons,
                image=upload,
                clear=self.no_attach,
            ):
                self.shown = full
                self._picture = pic
                return
        # One nonce for this post until it is up: a try that landed though its answer
        # was lost is returned by the next one, never posted twice.
        if self._post_nonce is None:
            self._post_nonce = ops.new_nonce()
        msg = await ops.send(where, embed=embed, view=buttons, image=image, nonce=self._post_nonce)
        if msg is None:
            raise _Unshown("the table message could not be posted")
        self._post_nonce = None
        self.message_id = msg.id
        self.shown = full
        self._picture = pic
        self._repost = False
        try:
            await save_table_message(self.store, self.table_id, msg.id)
        except Exception:  # the message is up; only a restart would post a second one
            log.exception("table %s: could not store the table message id", self.table_id)
        if old is not None and old != msg.id:
            # Retire the old message: no buttons, so nobody plays on it.
            await ops.delete(where.get_partial_message(old))

    async def answer(self, via: discord.Interaction[discord.Client]) -> bool:
        """Answer a click on the table message with the table's latest state
        (UPDATE_MESSAGE). Waits for a REST edit in flight while Discord's window allows,
        else acknowledges the click (the refresh shows the state after that edit).
        Returns whether the player was answered; False also when the click was not on
        the table message (the caller answers it)."""
        if via.message is None or self.message_id not in (None, via.message.id):
            return False
        await self._draw_for(via)
        if not await self._enter(window_left(via, self.answer_within)):
            self.deferred += 1
            answered = await ops.acknowledge(via)
            self.schedule_refresh()  # runs once the click is done
            return answered
        try:
            if self.message_id not in (None, via.message.id):
                return False  # re-posted meanwhile: the click was on the old message
            latest = self._latest()
            if latest is None:
                return False
            view, recent, version = latest
            image, current = self.pictures.current(view)
            pic: PictureKey | None = picture_key(view)
            if self.no_attach:
                image, current, pic = None, True, None  # the text table: no picture
            # The street's new picture, drawn in time (_draw_for): this answer uploads it.
            upload = image if current and self._picture != pic else None
            version = (version[0], version[1], int(current))
            embed, buttons = table_message(
                view, recent, image, version_text(version), locale=self.locale()
            )
            if not await ops.update(
                via, embed=embed, view=buttons, image=upload, clear=self.no_attach
            ):
                # Expired, or an answer that failed (perhaps after it landed): the
                # message's state is unknown; the refresh shows the latest.
                self.shown = None
                self.schedule_refresh()
                return False
            if self.message_id is None:
                self.message_id = via.message.id
            self.shown = version
            if current:
                self._picture = pic
            else:
                self.schedule_refresh()  # the picture was not drawn in time: it follows
            return True
        finally:
            self._leave()

    async def _draw_for(self, via: discord.Interaction[discord.Client]) -> None:
        """Draw the table's new picture (a new street, a fold) before a click's answer,
        for at most :attr:`draw_within` seconds, so that the answer carries it. The
        drawing goes on if the click stops waiting; the refresh then uploads it."""
        if self.no_attach:
            return
        latest = self._latest()
        if latest is None or self.pictures.current(latest[0])[1]:
            return
        within = min(self.draw_within, window_left(via, self.answer_within))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.pictures.get(latest[0]), within)

    async def show(
        self,
        view: TableView | None = None,
        *,
        via: discord.Interaction[discord.Client] | None = None,
        repost: bool = False,
    ) -> bool:
        """Show the table's latest state on its message; the one path for every change
        of it. ``via``: a click on the table message, answered with it (:meth:`answer`).
        Otherwise the refresh, awaited (``repost``: a new message at the bottom, the old
        one deleted). ``view`` is not what is shown: the latest state always is (it was
        read by the caller, and may be older by the time the message can be written).
        Returns whether the message now shows the latest state."""
        if via is not None:
            return await self.answer(via)
        if repost:
            self._repost = True
        self.schedule_refresh()
        task = self._refresher
        if task is not None:
            await asyncio.shield(task)
        latest = self._latest()
        return latest is not None and self._current(latest[2])

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


def window_left(interaction: discord.Interaction[discord.Client], within: float) -> float:
    """Seconds left of ``within`` since the interaction was made (its id's time, on
    Discord's clock), never more than all of it (a clock behind Discord's)."""
    made = discord.utils.snowflake_time(interaction.id)
    age = (dt.datetime.now(dt.UTC) - made).total_seconds()
    return min(within, max(0.0, within - age))


def _why(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.code}"
    return f"{type(exc).__name__}: {exc}"


__all__ = ["HandNotes", "TableChannel", "Version", "version_text", "window_left"]
