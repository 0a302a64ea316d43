"""The table service's presenter for Discord (``bot.table.ports.Presenter``).

The service calls it under the table's lock, so nothing here waits on Discord: public
notices update an in-memory log and schedule one coalesced edit of the table message;
private notices (hole cards, "your turn", a declaration prompt) are queued per table
and sent in order by a worker. Clicks answer with UPDATE_MESSAGE, which is the table
edit itself, so the refresher skips a table whose message already shows the latest state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.poker.events import BoardDealt, CardsDealt, HandShown, PotAwarded
from bot.table.ports import Notice
from cards_art import (
    Fist,
    RevealView,
    render_hole_cards,
    render_reveal,
    render_showdown,
)
from cogs import ops
from cogs.art import PictureCache, showdown_art
from cogs.components import declare_buttons, guts_buttons
from cogs.embeds import table_message
from cogs.prefs import save_table_message

log = logging.getLogger(__name__)

# Notices kept for the hand summary posted when a hand ends (the showdown, the reveal).
_SUMMARY = {
    "HandShown",
    "HandMucked",
    "PotAwarded",
    "DeclarationMade",
    "DeclarationsRevealed",
    "DeclareResolved",
    "GutsCallMade",
    "GutsCallsRevealed",
    "PotSystemSettled",
    "BetReturned",
    "OpenersShown",
}
# Private events that carry cards for one player's eyes.
_CARDS = {"CardsDealt", "Drew"}

Job = Callable[[], Awaitable[None]]


class DiscordPresenter:
    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.service: Any = None
        self.table_msgs: dict[str, int] = {}
        self.pictures = PictureCache()
        self.fists: dict[str, list[tuple[int, str, int]]] = {}
        self.showdowns: dict[str, dict[str, Any]] = {}
        self.recent: dict[str, deque[str]] = {}
        self.summary: dict[str, list[str]] = {}
        self.notice_count: dict[str, int] = {}
        self.shown: dict[str, tuple[int, int]] = {}
        self.busy: dict[str, int] = {}
        self.bumped_at: dict[str, float] = {}
        self.bump_cooldown = 10.0
        self.pings: dict[str, int] = {}
        self.ping_mode: dict[str, str] = {}
        """Per player: "channel" (default, a mention deleted next turn) or "dm"."""
        self.ping_delay = 3.0
        """Seconds a player may take before being pinged (0: ping at once)."""
        self._ping_tasks: dict[str, asyncio.Task[None]] = {}
        self.moderators: set[tuple[str, str]] = set()
        self.dm_failed: set[tuple[str, str, int, str]] = set()
        self._dirty: set[str] = set()
        self._refreshers: dict[str, asyncio.Task[None]] = {}
        self._queues: dict[str, asyncio.Queue[Job]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}

    # ------------------------------------------------------------ the port

    async def public(self, table_id: str, notice: Notice) -> None:
        self.notice_count[table_id] = self.notice_count.get(table_id, 0) + 1
        self.recent.setdefault(table_id, deque(maxlen=6)).append(notice.text)
        self._note_showdown(table_id, notice)
        if notice.kind == "hand_started":
            self.summary[table_id] = []
        elif notice.kind in _SUMMARY:
            self.summary.setdefault(table_id, []).append(notice.text)
            if notice.kind == "DeclarationsRevealed":
                self.fists[table_id] = self._fists(table_id, notice)
        elif notice.kind == "hand_ended":
            # One message: every fist opened together (with their picture), then the
            # showdown.
            lines = main_pot_first(self.summary.pop(table_id, []))
            text = "\n".join([f"**{notice.text}**", *lines])[:1900]
            fists = self.fists.pop(table_id, None)
            shown = self.showdowns.pop(table_id, None)
            self._enqueue(table_id, lambda: self._post(table_id, text, fists, shown))
            self._enqueue(table_id, lambda: self._clear_ping(table_id))
        self.schedule_refresh(table_id)

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        if notice.kind == "your_turn":
            self._enqueue(table_id, lambda: self._ping(table_id, user_id, notice))
        elif notice.kind == "declare":
            self._enqueue(table_id, lambda: self._declare_prompt(table_id, user_id, notice))
        elif notice.kind == "guts":
            self._enqueue(table_id, lambda: self._guts_prompt(table_id, user_id, notice))
        else:
            self._enqueue(table_id, lambda: self._dm_private(table_id, user_id, notice))

    async def error(self, table_id: str, user_id: str, message: str) -> None:
        # The actor is answered by the interaction itself (its Outcome); nothing public.
        return None

    def is_moderator(self, table_id: str, user_id: str) -> bool:
        return (table_id, user_id) in self.moderators

    # ------------------------------------------------------------ the table message

    def state_key(self, table_id: str, turn: int) -> tuple[int, int]:
        return (turn, self.notice_count.get(table_id, 0))

    def mark_shown(self, table_id: str, turn: int, message_id: int | None = None) -> None:
        self.shown[table_id] = self.state_key(table_id, turn)
        if message_id is not None:
            self.table_msgs.setdefault(table_id, message_id)

    def schedule_refresh(self, table_id: str) -> None:
        self._dirty.add(table_id)
        task = self._refreshers.get(table_id)
        if task is None or task.done():
            self._refreshers[table_id] = asyncio.create_task(self._refresh_loop(table_id))

    async def _refresh_loop(self, table_id: str) -> None:
        await asyncio.sleep(0.02)  # coalesce a burst of notices into one edit
        while table_id in self._dirty:
            while self.busy.get(table_id, 0):
                await asyncio.sleep(0.01)  # a click is answering with the edit itself
            self._dirty.discard(table_id)
            try:
                await self.refresh(table_id)
            except Exception:
                log.exception("table %s: refresh failed", table_id)

    async def refresh(self, table_id: str, *, repost: bool = False) -> None:
        table = self.service.get(table_id) if self.service else None
        if table is None:
            return
        view = table.snapshot(None)
        key = self.state_key(table_id, view.turn)
        if not repost and self.shown.get(table_id) == key and table_id in self.table_msgs:
            return
        image, is_new = await self.pictures.get(view)
        embed, buttons = table_message(table, view, list(self.recent.get(table_id, ())), image)
        channel = self._channel(table_id)
        old = self.table_msgs.get(table_id)
        if old is not None and not repost:
            target = channel.get_partial_message(old)
            upload = image if is_new else None
            if await ops.edit(target, embed=embed, view=buttons, image=upload):
                self.shown[table_id] = key
                return
        msg = await ops.send(channel, embed=embed, view=buttons, image=image)
        if msg is not None:
            self.table_msgs[table_id] = msg.id
            self.shown[table_id] = key
            try:
                await save_table_message(self.service.store, table_id, msg.id)
            except Exception:  # the message is up; only a restart would post a second one
                log.exception("table %s: could not store the table message id", table_id)
            if old is not None and repost:
                # Retire the old message: no buttons, so nobody plays on it.
                await ops.delete(channel.get_partial_message(old))

    # ------------------------------------------------------------ the per-table queue

    def _enqueue(self, table_id: str, job: Job) -> None:
        queue = self._queues.setdefault(table_id, asyncio.Queue())
        queue.put_nowait(job)
        worker = self._workers.get(table_id)
        if worker is None or worker.done():
            self._workers[table_id] = asyncio.create_task(self._work(table_id, queue))

    async def _work(self, table_id: str, queue: asyncio.Queue[Job]) -> None:
        while not queue.empty():
            job = queue.get_nowait()
            try:
                await job()
            except Exception:
                log.exception("table %s: a delivery failed", table_id)

    async def drain(self) -> None:
        """Wait for every queued delivery and refresh (tests, shutdown)."""
        for _ in range(50):
            tasks = [
                t for t in [*self._workers.values(), *self._refreshers.values()] if not t.done()
            ]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        for task in [
            *self._workers.values(),
            *self._refreshers.values(),
            *self._ping_tasks.values(),
        ]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _post(
        self, table_id: str, text: str, fists: Any = None, shown: dict[str, Any] | None = None
    ) -> None:
        # The fists first, then the hands with the cards they play.
        reveal = await _render_reveal(fists) if fists else None
        showdown = await _render_showdown(shown, fists) if shown and shown["hands"] else None
        images = [i for i in (reveal, showdown) if i is not None]
        await ops.send(self._channel(table_id), text, image=images or None)

    def _note_showdown(self, table_id: str, notice: Notice) -> None:
        """Collect what the showdown picture needs from public events only: the board,
        the hands the rules showed, and who won which pot (never a private card)."""
        event = notice.data.get("event") if notice.data else None
        if notice.kind == "hand_started" or table_id not in self.showdowns:
            table = self.service.get(table_id) if self.service else None
            stakes = table.snapshot(None) if table is not None else None
            self.showdowns[table_id] = {
                "board": [],
                "hands": [],
                "awards": [],
                "variant": getattr(stakes, "variant_name", ""),
                "stakes": getattr(stakes, "stakes", ""),
            }
        if event is None:
            return
        table = self.service.get(table_id) if self.service else None
        info = table.state.current if table is not None else None
        if info is None:
            return
        bag = self.showdowns[table_id]
        bag["code"] = info.variant
        bag["wild"] = info.start.rules.wild
        if isinstance(event, BoardDealt):
            bag["board"].extend(event.cards)
        elif isinstance(event, HandShown):
            names = tuple(d for d in event.descriptions if d)
            bag["hands"].append(
                (info.order[event.player], info.names[event.player], list(event.cards), names)
            )
        elif isinstance(event, CardsDealt) and event.audience is None:
            # Stud: up cards dealt to a hand already shown (players all in) belong to it.
            # Only the public copy: a card dealt face down is never added (invariant 2).
            for seat, _, cards, _ in bag["hands"]:
                if seat == info.order[event.player]:
                    cards.extend(event.cards)
        elif isinstance(event, PotAwarded):
            pot = "Main pot" if event.pot_index == 0 else f"Side pot {event.pot_index}"
            half = "" if event.share == "whole" else event.share
            for w, amount in zip(event.winners, event.amounts, strict=True):
                bag["awards"].append((pot, info.order[w], info.names[w], amount, half))

    def _fists(self, table_id: str, notice: Notice) -> list[tuple[int, str, int]]:
        """(seat, name, chips) of each opened fist; read under the table's lock."""
        event = notice.data.get("event")
        table = self.service.get(table_id) if self.service else None
        info = table.state.current if table is not None else None
        if event is None or info is None:
            return []
        chips = {"low": 0, "high": 1, "both": 2}
        return [
            (info.order[pos], info.names[pos], chips[choice])
            for pos, choice in getattr(event, "choices", ())
            if choice in chips
        ]

    # ------------------------------------------------------------ private deliveries

    async def _dm_private(self, table_id: str, user_id: str, notice: Notice) -> None:
        image = None
        event = notice.data.get("event") if notice.data else None
        cards = tuple(getattr(event, "cards", ()) or getattr(event, "received", ()) or ())
        if notice.kind in _CARDS and cards:
            image = await _render_cards(cards, notice.text)
        text = f"<#{table_id}> · {notice.text}"
        if await ops.dm(self.client, int(user_id), text, image=image) is None:
            await self._dm_fallback(table_id, user_id, "your cards")

    async def _declare_prompt(self, table_id: str, user_id: str, notice: Notice) -> None:
        text = f"<#{table_id}> · {notice.text}"
        view = declare_buttons(table_id, notice.turn)
        if await ops.dm(self.client, int(user_id), text, view=view) is None:
            await self._dm_fallback(table_id, user_id, "the declaration buttons")

    def _channel(self, table_id: str) -> discord.PartialMessageable:
        """Where the table lives: its channel, or its own thread (a table setting)."""
        table = self.service.get(table_id) if self.service else None
        thread = table.settings.thread_id if table is not None else 0
        return self.client.get_partial_messageable(int(thread or table_id))

    async def _guts_prompt(self, table_id: str, user_id: str, notice: Notice) -> None:
        text = f"<#{table_id}> · {notice.text}"
        view = guts_buttons(table_id, notice.turn)
        if await ops.dm(self.client, int(user_id), text, view=view) is None:
            await self._dm_fallback(table_id, user_id, "the in/out buttons")

    def bump_wait(self, table_id: str) -> int:
        """Seconds before the table may be bumped again (0: now; the clock starts)."""
        now = time.monotonic()
        left = self.bumped_at.get(table_id, -1e9) + self.bump_cooldown - now
        if left > 0:
            return max(1, round(left))
        self.bumped_at[table_id] = now
        return 0

    async def _dm_fallback(self, table_id: str, user_id: str, what: str) -> None:
        table = self.service.get(table_id) if self.service else None
        hand_no = table.state.hand_no if table is not None else 0
        # Once per hand and kind: the cards note must not hide the later declaration one.
        if (table_id, user_id, hand_no, what) in self.dm_failed:
            return
        self.dm_failed.add((table_id, user_id, hand_no, what))
        # Never any card here: only where to look.
        await self._post(
            table_id,
            f"<@{user_id}>, I cannot DM you {what}: press **Show my cards** on the table.",
        )

    async def _ping(self, table_id: str, user_id: str, notice: Notice) -> None:
        """Edits notify nobody, so the player to act is nudged: after ``ping_delay``
        seconds, if the turn has not moved, a short mention (deleted on the next turn),
        or a DM for players who chose that. A quick player is never pinged at all."""
        await self._clear_ping(table_id)
        old = self._ping_tasks.pop(table_id, None)
        if old is not None:
            old.cancel()
        self._ping_tasks[table_id] = asyncio.create_task(
            self._ping_later(table_id, user_id, notice.turn)
        )

    async def _ping_later(self, table_id: str, user_id: str, turn: int) -> None:
        await asyncio.sleep(self.ping_delay)
        table = self.service.get(table_id) if self.service else None
        if table is None or table.state.turn != turn:
            return
        text = f"<@{user_id}>, your turn."
        by_dm = self.ping_mode.get(user_id) == "dm"
        if by_dm and await ops.dm(self.client, int(user_id), f"<#{table_id}> · {text}"):
            return
        # A channel mention (also when the DM could not be delivered: DMs closed).
        msg = await ops.send(self._channel(table_id), text)
        if msg is not None:
            self.pings[table_id] = msg.id

    async def _clear_ping(self, table_id: str) -> None:
        old = self.pings.pop(table_id, None)
        if old is not None:
            channel = self._channel(table_id)
            await ops.delete(channel.get_partial_message(old))


def _pot_order(line: str) -> int:
    """0 for the main pot's award line, N for side pot N (the notices' own words)."""
    head = line.split(":", 1)[0].split(" (", 1)[0]
    if head == "main pot":
        return 0
    number = head.removeprefix("side pot ")
    return int(number) if number.isdigit() else -1


def main_pot_first(lines: list[str]) -> list[str]:
    """The summary with its award lines main pot first (the engine awards from the last
    side pot down, R-8.3, but a reader looks for the main pot first); every other line
    keeps its place."""
    slots = [i for i, line in enumerate(lines) if _pot_order(line) >= 0]
    awards = sorted((lines[i] for i in slots), key=_pot_order)  # stable: halves keep order
    out = list(lines)
    for i, line in zip(slots, awards, strict=True):
        out[i] = line
    return out


async def _render_cards(cards: tuple[str, ...], caption: str) -> Any | None:
    """The hole-card picture (blocking Pillow work in a thread); None if art fails."""
    try:
        shown = tuple(c for c in cards if c != "??")
        if not shown:
            return None
        return await asyncio.to_thread(render_hole_cards, shown, caption=caption[:60])
    except Exception:
        log.exception("could not render cards")
        return None


async def _render_showdown(
    shown: dict[str, Any], fists: list[tuple[int, str, int]] | None = None
) -> Any | None:
    try:
        # Reading the hands (the engine's evaluator) and drawing: both in the thread.
        return await asyncio.to_thread(lambda: render_showdown(showdown_art(shown, fists)))
    except Exception:
        log.exception("could not draw the showdown")
        return None


async def _render_reveal(fists: list[tuple[int, str, int]]) -> Any | None:
    try:
        view = RevealView(tuple(Fist(seat, name[:24], chips) for seat, name, chips in fists))
        return await asyncio.to_thread(render_reveal, view)
    except Exception:
        log.exception("could not draw the fists")
        return None


__all__ = ["DiscordPresenter"]
