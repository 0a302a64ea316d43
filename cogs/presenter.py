"""The table service's presenter for Discord (``bot.table.ports.Presenter``).

The service calls it under the table's lock, so nothing here waits on Discord: each
notice goes to its table's :class:`~cogs.channel.TableChannel`. Public notices add a
line and the hand's notes (from the notice's ``HandFacts``: this module never reads the
table's state) and schedule one coalesced refresh of the table message; private notices
(hole cards, "your turn", a declaration prompt) are queued on the channel and sent in
order. Per table the presenter holds only the channel objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import discord

from bot.poker.events import (
    BoardDealt,
    CardsDealt,
    DeclarationsRevealed,
    Drew,
    HandShown,
    PotAwarded,
)
from bot.table.ports import Notice, NoticeKind
from bot.table.service import TableService
from bot.table.view import TableView
from cards_art import (
    Fist,
    RenderedImage,
    RevealView,
    render_hole_cards,
    render_reveal,
    render_showdown,
)
from cogs import ops
from cogs.art import ShowdownNotes, showdown_art
from cogs.channel import HandNotes, TableChannel
from cogs.components import declare_buttons, guts_buttons

log = logging.getLogger(__name__)

# Notices kept for the hand summary posted when a hand ends (the showdown, the reveal).
_SUMMARY: set[NoticeKind] = {
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
_CARDS: set[NoticeKind] = {"CardsDealt", "Drew"}


class DiscordPresenter:
    """Routes the service's notices to the table channels (:class:`TableChannel`); per
    table it holds nothing but them. Per player: how he wants to be pinged."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.service: TableService | None = None
        self.channels: dict[str, TableChannel] = {}
        self.saved_messages: dict[str, int] = {}
        """Table message ids stored by an earlier run (read at start, used once)."""
        self.saved_threads: dict[str, int] = {}
        """Each table's own thread, as recorded (cogs/prefs.py; read at start, used once)."""
        self.bump_cooldown = 10.0
        self.ping_mode: dict[str, str] = {}
        """Per player: "channel" (default, a mention deleted next turn) or "dm"."""
        self.ping_delay = 3.0
        """Seconds a player may take before being pinged (0: ping at once)."""
        self.on_hand_ended: Callable[[], None] | None = None
        """Called once per finished hand (the metrics' hand counter)."""
        self.gone: set[str] = set()
        """Tables whose channel is gone (deleted, the bot removed): told nothing more."""

    def channel(self, table_id: str) -> TableChannel:
        """The table's channel object (made on first use)."""
        ch = self.channels.get(table_id)
        if ch is None:
            assert self.service is not None, "the presenter is attached to a service"
            service = self.service

            def load() -> TableView | None:
                table = service.get(table_id)
                return table.snapshot(None) if table is not None else None

            ch = TableChannel(table_id, self.client, service.store, load)
            ch.message_id = self.saved_messages.pop(table_id, None)
            ch.thread_id = self.saved_threads.pop(table_id, 0)
            self.channels[table_id] = ch
        return ch

    def lose(self, table_id: str) -> None:
        """The table's channel is gone (cogs/moderation.py): stop its work, keep nothing,
        and post nothing more for it until a table is created there again (unlike
        :meth:`forget`, whose table lives on in another process)."""
        self.gone.add(table_id)
        ch = self.channels.pop(table_id, None)
        if ch is not None:
            for task in ch.tasks():
                task.cancel()

    # ------------------------------------------------------------ the port

    async def public(self, table_id: str, notice: Notice) -> None:
        if notice.kind == "created":
            self.gone.discard(table_id)  # a new table where one was lost (a thread's)
        if table_id in self.gone:
            return
        ch = self.channel(table_id)
        ch.note(notice.text)
        self._note_showdown(table_id, notice)
        if notice.kind == "hand_started":
            ch.hand.summary = []
            ch.dm_failed.clear()  # told once per hand: last hand's notes are done with
        elif notice.kind in _SUMMARY:
            ch.hand.summary.append(notice.text)
            if notice.kind == "DeclarationsRevealed":
                ch.hand.fists = self._fists(table_id, notice)
        elif notice.kind == "hand_ended":
            if self.on_hand_ended is not None:
                self.on_hand_ended()
            # One message: every fist opened together (with their picture), then the
            # showdown.
            notes, ch.hand = ch.hand, HandNotes()
            lines = main_pot_first(notes.summary)
            text = "\n".join([f"**{notice.text}**", *lines])[:1900]
            ch.enqueue(lambda: self._post(table_id, text, notes.fists, notes.showdown))
            ch.enqueue(lambda: self._clear_ping(table_id))
        ch.schedule_refresh()

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        if table_id in self.gone:
            return
        ch = self.channel(table_id)
        if notice.kind == "your_turn":
            ch.enqueue(lambda: self._ping(table_id, user_id, notice))
        elif notice.kind == "declare":
            ch.enqueue(lambda: self._declare_prompt(table_id, user_id, notice))
        elif notice.kind == "guts":
            ch.enqueue(lambda: self._guts_prompt(table_id, user_id, notice))
        else:
            ch.enqueue(lambda: self._dm_private(table_id, user_id, notice))

    async def error(self, table_id: str, user_id: str, message: str) -> None:
        # The actor is answered by the interaction itself (its Outcome); nothing public.
        return None

    def is_moderator(self, table_id: str, user_id: str) -> bool:
        """Never from here: each command carries its ``Actor`` (``cogs.play.actor``)."""
        return False

    # ------------------------------------------------------------ the table message

    def schedule_refresh(self, table_id: str) -> None:
        self.channel(table_id).schedule_refresh()

    async def refresh(self, table_id: str, *, repost: bool = False) -> None:
        """Show the table's latest state on its message (``repost``: a new message at
        the bottom, the old one deleted)."""
        table = self.service.get(table_id) if self.service else None
        if table is None:
            return
        await self.channel(table_id).show(table.snapshot(None), repost=repost)

    def bump_wait(self, table_id: str) -> int:
        """Seconds before the table may be bumped again (0: now; the clock starts)."""
        return self.channel(table_id).bump_wait(self.bump_cooldown)

    async def drain(self) -> None:
        """Wait for every queued delivery and refresh (tests, shutdown)."""
        for _ in range(50):
            tasks = [
                t for ch in self.channels.values() for t in ch.tasks() if t is not ch.ping_task
            ]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def forget(self, table_id: str) -> None:
        """Stop showing a table (its shard went to another process): its queued
        deliveries and refreshes are dropped; the new owner shows the table."""
        ch = self.channels.pop(table_id, None)
        if ch is None:
            return
        for task in ch.tasks():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def close(self) -> None:
        for ch in self.channels.values():
            for task in ch.tasks():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _post(
        self,
        table_id: str,
        text: str,
        fists: list[tuple[int, str, int]] | None = None,
        shown: ShowdownNotes | None = None,
    ) -> None:
        # The fists first, then the hands with the cards they play.
        ch = self.channel(table_id)
        if ch.no_send:
            return  # cannot post there (cogs/moderation.py): the table message says it
        if ch.no_attach:
            fists, shown = None, None  # Attach Files lost: the words alone, nothing drawn
        reveal = await _render_reveal(fists) if fists else None
        showdown = await _render_showdown(shown, fists) if shown and shown.hands else None
        images = [i for i in (reveal, showdown) if i is not None]
        await ops.send(ch.where(), text, image=images or None)

    def _note_showdown(self, table_id: str, notice: Notice) -> None:
        """Collect what the showdown picture needs from public events only: the board,
        the hands the rules showed, and who won which pot (never a private card)."""
        ch = self.channel(table_id)
        event = notice.data.get("event") if notice.data else None
        if notice.kind == "hand_started" or ch.hand.showdown is None:
            table = self.service.get(table_id) if self.service else None
            view = table.snapshot(None) if table is not None else None
            ch.hand.showdown = ShowdownNotes(
                variant=view.variant_name if view is not None else "",
                stakes=view.stakes if view is not None else "",
            )
        info = notice.hand  # seats and names by position: the notice carries them
        if event is None or info is None:
            return
        bag = ch.hand.showdown
        bag.code = info.variant
        bag.wild = info.wild
        if isinstance(event, BoardDealt):
            bag.board.extend(event.cards)
        elif isinstance(event, HandShown):
            names = tuple(d for d in event.descriptions if d)
            bag.hands.append(
                (info.seats[event.player], info.names[event.player], list(event.cards), names)
            )
        elif isinstance(event, CardsDealt) and event.audience is None:
            # Stud: up cards dealt to a hand already shown (players all in) belong to it.
            # Only the public copy: a card dealt face down is never added (invariant 2).
            for seat, _, cards, _ in bag.hands:
                if seat == info.seats[event.player]:
                    cards.extend(event.cards)
        elif isinstance(event, PotAwarded):
            pot = "Main pot" if event.pot_index == 0 else f"Side pot {event.pot_index}"
            half = "" if event.share == "whole" else event.share
            for w, amount in zip(event.winners, event.amounts, strict=True):
                bag.awards.append((pot, info.seats[w], info.names[w], amount, half))

    def _fists(self, table_id: str, notice: Notice) -> list[tuple[int, str, int]]:
        """(seat, name, chips) of each opened fist, from the notice alone."""
        event = notice.data.get("event")
        info = notice.hand
        if not isinstance(event, DeclarationsRevealed) or info is None:
            return []
        chips = {"low": 0, "high": 1, "both": 2}
        return [
            (info.seats[pos], info.names[pos], chips[choice])
            for pos, choice in event.choices
            if choice in chips
        ]

    # ------------------------------------------------------------ private deliveries

    async def _dm_private(self, table_id: str, user_id: str, notice: Notice) -> None:
        image = None
        event = notice.data.get("event") if notice.data else None
        cards: tuple[str, ...] = ()
        if isinstance(event, CardsDealt):
            cards = tuple(event.cards)
        elif isinstance(event, Drew):
            cards = tuple(event.received)
        if notice.kind in _CARDS and cards:
            image = await _render_cards(cards, notice.text)
        text = f"<#{table_id}> · {notice.text}"
        if await ops.dm(self.client, int(user_id), text, image=image) is None:
            await self._dm_fallback(table_id, user_id, notice, "your cards")

    async def _declare_prompt(self, table_id: str, user_id: str, notice: Notice) -> None:
        text = f"<#{table_id}> · {notice.text}"
        view = declare_buttons(table_id, notice.turn)
        if await ops.dm(self.client, int(user_id), text, view=view) is None:
            await self._dm_fallback(table_id, user_id, notice, "the declaration buttons")

    async def _guts_prompt(self, table_id: str, user_id: str, notice: Notice) -> None:
        text = f"<#{table_id}> · {notice.text}"
        view = guts_buttons(table_id, notice.turn)
        if await ops.dm(self.client, int(user_id), text, view=view) is None:
            await self._dm_fallback(table_id, user_id, notice, "the in/out buttons")

    async def _dm_fallback(self, table_id: str, user_id: str, notice: Notice, what: str) -> None:
        ch = self.channel(table_id)
        hand_no = notice.hand.hand_no if notice.hand is not None else 0
        # Once per hand and kind: the cards note must not hide the later declaration one.
        if (user_id, hand_no, what) in ch.dm_failed:
            return
        ch.dm_failed.add((user_id, hand_no, what))
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
        ch = self.channel(table_id)
        if ch.ping_task is not None:
            ch.ping_task.cancel()
        ch.ping_task = asyncio.create_task(self._ping_later(table_id, user_id, notice.turn))

    async def _ping_later(self, table_id: str, user_id: str, turn: int) -> None:
        await asyncio.sleep(self.ping_delay)
        table = self.service.get(table_id) if self.service else None
        if table is None or table.snapshot(None).turn != turn:
            return
        text = f"<@{user_id}>, your turn."
        # Send Messages lost (cogs/moderation.py): a DM is the only way left to nudge.
        by_dm = self.ping_mode.get(user_id) == "dm" or self.channel(table_id).no_send
        if by_dm and await ops.dm(self.client, int(user_id), f"<#{table_id}> · {text}"):
            return
        # A channel mention (also when the DM could not be delivered: DMs closed).
        ch = self.channel(table_id)
        msg = await ops.send(ch.where(), text)
        if msg is not None:
            ch.ping_id = msg.id

    async def _clear_ping(self, table_id: str) -> None:
        ch = self.channel(table_id)
        old, ch.ping_id = ch.ping_id, None
        if old is not None:
            await ops.delete(ch.where().get_partial_message(old))


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


async def _render_cards(cards: tuple[str, ...], caption: str) -> RenderedImage | None:
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
    shown: ShowdownNotes, fists: list[tuple[int, str, int]] | None = None
) -> RenderedImage | None:
    try:
        # Reading the hands (the engine's evaluator) and drawing: both in the thread.
        return await asyncio.to_thread(lambda: render_showdown(showdown_art(shown, fists)))
    except Exception:
        log.exception("could not draw the showdown")
        return None


async def _render_reveal(fists: list[tuple[int, str, int]]) -> RenderedImage | None:
    try:
        view = RevealView(tuple(Fist(seat, name[:24], chips) for seat, name, chips in fists))
        return await asyncio.to_thread(render_reveal, view)
    except Exception:
        log.exception("could not draw the fists")
        return None


__all__ = ["DiscordPresenter"]
