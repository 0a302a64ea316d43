"""The table service's presenter for Discord (``bot.table.ports.Presenter``).

The service calls it under the table's lock, so nothing here waits on Discord: each
notice goes to its table's :class:`~cogs.channel.TableChannel`. Public notices add a
line and the hand's notes (from the notice's ``HandFacts``: this module never reads the
table's state) and schedule one coalesced refresh of the table message; private notices
(hole cards, "your turn", a declaration prompt) are queued on the channel and sent in
order. Per table the presenter holds only the channel objects.

Turn notifications ("your turn") are what a busy bot spends most of its global rate
limit on if done naively (a mention posted, then deleted: two global requests a turn),
so they are made cheap:

- A quick player is never pinged: the nudge waits ``ping_delay`` (3 s), and for a
  player who acted at the table within ``ping_active`` (60 s) it waits ``ping_delay_active``
  (15 s, at most half his clock): he is watching, and most such turns are played
  before it is due. Whatever is left when the turn moves on costs nothing.
- The mention is sent as a follow-up of the latest interaction in the table's channel
  (usually the previous actor's click; :meth:`DiscordPresenter.saw` keeps them), with
  ``allowed_mentions`` naming only that player, and deleted on the next turn through the
  same interaction webhook. Interaction endpoints are exempt from the global limit, so
  a ping costs no global request at all. Why not one mention message edited from turn
  to turn: a mention added by an edit does not notify on Discord, so an edited ping
  would be a ping nobody hears; a new message per turn is needed, and the follow-up
  is the one new message that is free.
- Only when no interaction in the channel can take it (none yet, the newest older than
  14 of its 15 minutes, e.g. the first turn of a deal the clock started after a long
  pause, or Discord refused the follow-up) is the mention a channel message, deleted
  by REST on the next turn; both at low priority in the request budget
  (:mod:`cogs.budget`), dropped when the budget is short.
- ``/notify dm`` players get the nudge by DM (a channel mention if their DMs are
  closed). DMs go to each player's kept DM channel (:class:`cogs.prefs.DmChannels`,
  in the store): the channel is opened once per player, ever, not per DM.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping

import discord

from bot.poker.events import (
    BoardDealt,
    CardsDealt,
    DeclarationsRevealed,
    Drew,
    HandShown,
    PotAwarded,
    SecondBoardDealt,
)
from bot.poker.messages import Msg
from bot.poker.rules import community_game
from bot.poker.variants import get_variant
from bot.table.ports import Notice, NoticeKind
from bot.table.service import TableService
from bot.table.view import TableView, cards_words
from bot.words import Locale
from cards_art import (
    Fist,
    RenderedImage,
    RevealView,
    render_hole_cards,
    render_reveal,
    render_showdown,
)
from cogs import budget, ops, seat_offer
from cogs.art import ShowdownNotes, showdown_art
from cogs.channel import HandNotes, TableChannel
from cogs.components import (
    after_buttons,
    bomb_buttons,
    declare_buttons,
    guts_buttons,
    run_twice_buttons,
)
from cogs.names import escape_names, plain
from cogs.prefs import DmChannels, save_table_place
from cogs.words import Locales, notice_text, say

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
    # the agreement and the second run's cards; its awards are PotAwarded.
    "RunItTwiceDecided",
    "SecondBoardDealt",
    "SevenDeuceBounty",  # paid after the hand, said with it
}
# Private events that carry cards for one player's eyes.
_CARDS: set[NoticeKind] = {"CardsDealt", "Drew"}

LIVE_KEPT = 4
"""Interactions kept per table for follow-ups (the newest usable one is taken)."""
TOKEN_LIFETIME = 14 * 60.0
"""Seconds an interaction's webhook is used: Discord's 15 minutes, less a margin."""
FOLLOWS_UP = {
    discord.InteractionResponseType.channel_message,
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
}
"""Answers after which a follow-up is a new public message of its own."""
EDITS = {
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
}
"""Answers that make the clicked message the interaction's own (its webhook edits it)."""
REFUSED_KEPT = 1000
"""Refused interaction ids remembered before the ones no longer kept are forgotten."""
ANSWER_WINDOW = 3.0
ANSWER_WAIT_STEP = 0.05
"""A ping due while the newest click is still being answered waits for it, at most
until Discord's 3 s to answer it are over."""


_VOTE_CLOSED = frozenset({"home.vote.then", "home.vote.lapsed", "home.vote.timed_out"})
"""The bomb-pot vote's words when it closes: a vote that settles it (passed or failed,
``home.vote.then``), the deal it lapses at (R-20.73) or its time running out (R-20.82)."""


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
        self.places: dict[str, tuple[int, int]] = {}
        """The (channel, thread) of each table not named after its channel (R-19.3;
        cogs/prefs.py, read at start)."""
        self._at_place: dict[int, str] = {}
        self.bump_cooldown = 10.0
        self.ping_mode: dict[str, str] = {}
        """Per player: "channel" (default, a mention deleted next turn) or "dm"."""
        self.ping_delay = 3.0
        """Seconds a player may take before being pinged (0: ping at once)."""
        self.ping_active = 60.0
        self.ping_delay_active = 15.0
        """A player who acted at the table within ``ping_active`` seconds is pinged only
        after ``ping_delay_active`` (see :meth:`ping_wait`)."""
        self.dms = DmChannels()
        """Each player's DM channel, kept in the store (loaded at start by the bot)."""
        self.locales = Locales()
        """Each player's language and each table's server's (cogs/words.py)."""
        """Each player's DM channel, kept in the store (loaded at start by the bot)."""
        self._seen: dict[tuple[str, str], float] = {}
        """(table, user) -> when he last acted at the table."""
        self._live: dict[str, deque[tuple[discord.Interaction[discord.Client], float]]] = {}
        """Per table, its latest interactions (for follow-ups) and when they arrived."""
        self._sending: set[str] = set()
        """Tables whose nudge is being sent (let land, then deleted; never cut off)."""
        self._refused: set[int] = set()
        """Interactions whose webhook Discord refused (never tried again)."""
        self._hook_pings: dict[str, discord.WebhookMessage] = {}
        """Per table, the turn mention sent as a follow-up (deleted through its webhook)."""
        self._vote_posts: dict[str, discord.Message] = {}
        """Per table, the open bomb-pot proposal's post, whose buttons go when the vote
        closes (R-20.77)."""
        self.pings_sent = 0
        """Turn nudges delivered (by DM, follow-up or channel message)."""
        self.pings_by_followup = 0
        self.pings_dropped = 0
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
            channel, thread = self.places.get(table_id, (0, 0))
            ch.channel_id = channel
            ch.thread_id = self.saved_threads.pop(table_id, 0) or thread
            ch.hook_for = lambda message_id: self._hook_for(table_id, message_id)
            ch.hook_refused = self._refuse
            ch.locale = lambda: self.table_locale(table_id)
            self.channels[table_id] = ch
        return ch

    def table_locale(self, table_id: str) -> Locale:
        """The language of the table's public words: its setting, else its server's."""
        table = self.service.get(table_id) if self.service is not None else None
        setting = table.settings.language if table is not None else ""
        return self.locales.table(table_id, setting)

    def user_locale(self, user_id: str) -> Locale:
        """The language of one player's DMs (his client's, as last seen)."""
        return self.locales.user(user_id)

    def thread_of(self, table_id: str) -> int:
        """The id of the table's own thread (0: it plays in its channel), without making
        a channel object (``cogs.places``: only that thread is the table's place)."""
        ch = self.channels.get(table_id)
        if ch is not None:
            return ch.thread_id
        return self.saved_threads.get(table_id, 0) or self.places.get(table_id, (0, 0))[1]

    def dm_text(self, table_id: str, said: str) -> str:
        """A DM about a table, led by a link to where it plays (R-19.85): its channel,
        or the thread of a table not named after a channel (a tournament's)."""
        place = int(table_id) if table_id.isdigit() else self.thread_of(table_id)
        place = place or self.places.get(table_id, (0, 0))[0]
        return f"<#{place}> · {said}" if place else said

    def learn_places(self, places: Mapping[str, tuple[int, int]]) -> None:
        """Tables not named after their channel and where each lives (R-19.3)."""
        for table_id, (channel, thread) in places.items():
            old = self.places.get(table_id)
            if old is not None:
                for place in old:
                    self._at_place.pop(place, None)
            self.places[table_id] = (channel, thread)
            self._at_place[thread or channel] = table_id
            ch = self.channels.get(table_id)
            if ch is not None:
                ch.channel_id, ch.thread_id = channel, thread

    async def record_place(self, table_id: str, channel: int, thread: int = 0) -> None:
        """Record where a table not named after its channel lives: its channel, and
        the thread the dealer opened for it there (0: the channel itself). Commands in
        that place are the table's (``cogs.places.table_id``, R-19.3)."""
        if table_id.isdigit():
            raise ValueError("a table named after its channel lives there")
        assert self.service is not None, "the presenter is attached to a service"
        await save_table_place(self.service.store, table_id, channel, thread)
        self.learn_places({table_id: (channel, thread)})
        if self.service.get(table_id) is not None:
            self.schedule_refresh(table_id)  # its table message, where it now lives

    def table_at(self, place_id: int) -> str | None:
        """The table whose recorded place is this channel or thread, if any."""
        return self._at_place.get(place_id)

    def channel_of(self, table_id: str) -> int:
        """The channel a table lives in (its id's, or its recorded place's); 0 if
        unknown."""
        if table_id.isdigit():
            return int(table_id)
        return self.places.get(table_id, (0, 0))[0]

    def lose(self, table_id: str) -> None:
        """The table's channel is gone (cogs/moderation.py): stop its work, keep nothing,
        and post nothing more for it until a table is created there again (unlike
        :meth:`forget`, whose table lives on in another process)."""
        self.gone.add(table_id)
        self._drop_hooks(table_id)
        ch = self.channels.pop(table_id, None)
        if ch is not None:
            for task in ch.tasks():
                task.cancel()

    def _drop_hooks(self, table_id: str) -> None:
        """Forget the table's kept interactions and follow-up ping: no webhook of a
        table no longer shown here is used again."""
        self._live.pop(table_id, None)
        self._hook_pings.pop(table_id, None)
        self._sending.discard(table_id)

    # ------------------------------------------------------------ the port

    def placed(self, table_id: str) -> bool:
        """Whether the table has a place to post in: its id is its channel's, or its
        place is recorded (R-19.3); until then nothing is posted for it."""
        return table_id.isdigit() or table_id in self.places

    async def public(self, table_id: str, notice: Notice) -> None:
        if not self.placed(table_id):
            return
        if notice.kind == "created":
            self.gone.discard(table_id)  # a new table where one was lost (a thread's)
        if table_id in self.gone:
            return
        ch = self.channel(table_id)
        if notice.kind == "created":
            self._drop_hooks(table_id)  # the last table's clicks edit its own message
            ch.new_table()
        # Names an older version kept raw are shown as written too.
        text = notice_text(notice, self.table_locale(table_id))
        said = escape_names(text, notice.hand.names if notice.hand is not None else ())
        ch.note(said)
        if notice.kind == "bomb_vote" and notice.msg and notice.msg.key == "home.vote.proposed":
            # the proposal gets its own message, with the vote's buttons.
            deal = int(notice.data.get("deal", 0))
            session = int(notice.data.get("session", 0))  # which table
            lang = self.table_locale(table_id)
            view = bomb_buttons(table_id, lang, propose=False, deal=deal, session=session)
            ch.enqueue(lambda: self._post_vote(table_id, f"💣 {said}", view))
        closes = notice.kind == "bomb_vote" and notice.msg and notice.msg.key in _VOTE_CLOSED
        if closes or notice.kind == "closed":
            ch.enqueue(lambda: self._close_vote(table_id))  # its buttons go
        if notice.kind in ("rabbit", "shown"):
            # after the hand, to the table as a message of its own.
            mark = "🐇" if notice.kind == "rabbit" else "👀"
            ch.enqueue(lambda: self._post(table_id, f"{mark} {said}"))
        if notice.kind == "hand_ended" and self._rabbit_on(table_id, notice):
            ch.hand.after.append("rabbit")  # hunted by a button on the end post
        if notice.kind == "hand_ended" and self._bomb_on(table_id):
            ch.hand.after.append("bomb")  # the next deal's bomb pot, proposed
        self._note_showdown(table_id, notice)
        if notice.kind == "hand_started":
            ch.hand.summary = []
            ch.dm_failed.clear()  # told once per hand: last hand's notes are done with
        elif notice.kind in _SUMMARY:
            ch.hand.summary.append((pot_order(notice), said))
            if notice.kind == "DeclarationsRevealed":
                ch.hand.fists = self._fists(table_id, notice)
        elif notice.kind == "hand_ended":
            if self.on_hand_ended is not None:
                self.on_hand_ended()
            # One message: every fist opened together (with their picture), then the
            # showdown.
            notes, ch.hand = ch.hand, HandNotes()
            lines = main_pot_first(notes.summary)
            text = "\n".join([f"**{said}**", *lines])[:1900]
            ended = notice.hand.hand_no if notice.hand is not None else 0
            session = notice.hand.session if notice.hand is not None else 0
            lang = self.table_locale(table_id)
            after = after_buttons(table_id, lang, notes.after, ended, session)
            ch.enqueue(lambda: self._post(table_id, text, notes.fists, notes.showdown, view=after))
            ch.enqueue(lambda: self._clear_ping(table_id))
        ch.schedule_refresh()

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        if table_id in self.gone or not self.placed(table_id):
            return
        ch = self.channel(table_id)
        if notice.kind == "your_turn":
            ch.enqueue(lambda: self._ping(table_id, user_id, notice))
        elif notice.kind == "declare":
            ch.enqueue(lambda: self._declare_prompt(table_id, user_id, notice))
        elif notice.kind == "guts":
            ch.enqueue(lambda: self._guts_prompt(table_id, user_id, notice))
        elif notice.kind == "waitlist_offer":
            ch.enqueue(lambda: self._seat_offer(table_id, user_id, notice))
        elif notice.kind == "show_choice":
            # offered on the hand's end message (no message of its own).
            if "show" not in ch.hand.after:
                ch.hand.after.append("show")
        elif notice.kind == "run_twice":
            ch.enqueue(lambda: self._run_twice_prompt(table_id, user_id, notice))
        else:
            ch.enqueue(lambda: self._dm_private(table_id, user_id, notice))

    async def error(self, table_id: str, user_id: str, message: Msg) -> None:
        # The actor is answered by the interaction itself (its Outcome); nothing public.
        return None

    def is_moderator(self, table_id: str, user_id: str) -> bool:
        """Never from here: each command carries its ``Actor`` (``cogs.play.actor``)."""
        return False

    # ------------------------------------------------------------ the table message

    def schedule_refresh(self, table_id: str) -> None:
        if self.placed(table_id):
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

    async def drain(self, table_id: str | None = None) -> None:
        """Wait for every queued delivery and refresh (tests, shutdown); of one table
        only with ``table_id``."""
        for _ in range(50):
            chosen = self.channels.values() if table_id is None else [self.channel(table_id)]
            tasks = [t for ch in chosen for t in ch.tasks() if t is not ch.ping_task]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def forget(self, table_id: str) -> None:
        """Stop showing a table (its shard went to another process): its queued
        deliveries and refreshes are dropped; the new owner shows the table."""
        self._drop_hooks(table_id)
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
        mention: int | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        # The fists first, then the hands with the cards they play.
        ch = self.channel(table_id)
        if ch.no_send:
            return  # cannot post there (cogs/moderation.py): the table message says it
        if ch.no_attach:
            fists, shown = None, None  # Attach Files lost: the words alone, nothing drawn
        lang = self.table_locale(table_id)
        reveal = await _render_reveal(fists, lang) if fists else None
        showdown = await _render_showdown(shown, fists, lang) if shown and shown.hands else None
        images = [i for i in (reveal, showdown) if i is not None]
        # A follow-up of the table's latest click when there is one: exempt from the
        # global limit (see "Turn notifications" above); else a channel message.
        interaction = await self._live_interaction(table_id)
        try:
            if interaction is not None and await ops.followup(
                interaction, text, mention=mention, image=images or None, view=view
            ):
                return
        except ops.FollowupInDoubt:
            return  # it may be up already: never posted twice (logged by ops)
        await ops.send(ch.where(), text, image=images or None, mention=mention, view=view)

    def _note_showdown(self, table_id: str, notice: Notice) -> None:
        """Collect what the showdown picture needs from public events only: the board,
        the hands the rules showed, and who won which pot (never a private card)."""
        ch = self.channel(table_id)
        event = notice.data.get("event") if notice.data else None
        if notice.kind == "hand_started" or ch.hand.showdown is None:
            table = self.service.get(table_id) if self.service else None
            view = table.snapshot(None) if table is not None else None
            ch.hand.showdown = ShowdownNotes(stakes=view.stakes_data if view is not None else None)
        info = notice.hand  # seats and names by position: the notice carries them
        if event is None or info is None:
            return
        bag = ch.hand.showdown
        bag.code = info.variant
        bag.wild = info.wild
        if isinstance(event, BoardDealt):
            bag.board.extend(event.cards)
        elif isinstance(event, HandShown):
            names = tuple(h for h in event.hands if h is not None)  # said in the picture's language
            bag.hands.append(
                (info.seats[event.player], info.names[event.player], list(event.cards), names)
            )
        elif isinstance(event, CardsDealt) and event.audience is None:
            # Stud: up cards dealt to a hand already shown (players all in) belong to it.
            # Only the public copy: a card dealt face down is never added (invariant 2).
            for seat, _, cards, _ in bag.hands:
                if seat == info.seats[event.player]:
                    cards.extend(event.cards)
        elif isinstance(event, SecondBoardDealt):
            # the picture draws both boards (or runs), each with its awards.
            bag.second.extend(event.cards)
            bag.second_why = event.why
        elif isinstance(event, PotAwarded):
            half = "" if event.share == "whole" else event.share
            awards = bag.awards2 if event.board else bag.awards
            for w, amount in zip(event.winners, event.amounts, strict=True):
                awards.append((event.pot_index, info.seats[w], info.names[w], amount, half))

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
        lang = self.user_locale(user_id)
        said = notice_text(notice, lang)
        if cards:
            # His own cards, said from the event itself in his language.
            key = "dm.drew" if isinstance(event, Drew) else "dm.cards"
            said = say(key, lang, cards=cards_words(cards))
        if notice.kind in _CARDS and cards:
            image = await _render_cards(cards, said, lang)
        text = self.dm_text(table_id, said)
        if await ops.dm(self.client, int(user_id), text, image=image, known=self.dms) is None:
            await self._dm_fallback(table_id, user_id, notice, "cards")

    async def _declare_prompt(self, table_id: str, user_id: str, notice: Notice) -> None:
        lang = self.user_locale(user_id)
        text = self.dm_text(table_id, notice_text(notice, lang))
        view = declare_buttons(table_id, notice.turn, lang, _session(notice))
        if await ops.dm(self.client, int(user_id), text, view=view, known=self.dms) is None:
            await self._dm_fallback(table_id, user_id, notice, "declare")

    async def _guts_prompt(self, table_id: str, user_id: str, notice: Notice) -> None:
        lang = self.user_locale(user_id)
        text = self.dm_text(table_id, notice_text(notice, lang))
        view = guts_buttons(table_id, notice.turn, lang, _session(notice))
        if await ops.dm(self.client, int(user_id), text, view=view, known=self.dms) is None:
            await self._dm_fallback(table_id, user_id, notice, "guts")

    async def _seat_offer(self, table_id: str, user_id: str, notice: Notice) -> None:
        """A seat offered from the waiting list (R-20.55): by DM, with its button."""
        lang = self.user_locale(user_id)
        text = self.dm_text(table_id, notice_text(notice, lang))
        view = seat_offer.offer_view(table_id, lang)
        if await ops.dm(self.client, int(user_id), text, view=view, known=self.dms) is None:
            # His DMs are closed: the channel tells him, mentioning him alone.
            said = seat_offer.offer_here(user_id, self.table_locale(table_id))
            await self._post(table_id, said, mention=int(user_id))

    async def _run_twice_prompt(self, table_id: str, user_id: str, notice: Notice) -> None:
        """R-20.1: the question by DM, its answer buttons for him alone."""
        lang = self.user_locale(user_id)
        text = self.dm_text(table_id, notice_text(notice, lang))
        view = run_twice_buttons(table_id, notice.turn, lang, _session(notice))
        if await ops.dm(self.client, int(user_id), text, view=view, known=self.dms) is None:
            await self._dm_fallback(table_id, user_id, notice, "home.dm.run_twice")

    async def _post_vote(self, table_id: str, text: str, view: discord.ui.View) -> None:
        """The proposal's post with the vote's buttons, kept until the vote closes."""
        ch = self.channel(table_id)
        if ch.no_send:
            return
        post = await ops.send(ch.where(), text, view=view)
        if post is not None:
            self._vote_posts[table_id] = post

    async def _close_vote(self, table_id: str) -> None:
        """R-20.77: the vote is closed: its post loses its buttons (one edit, the
        words kept)."""
        post = self._vote_posts.pop(table_id, None)
        if post is not None:
            await ops.drop_buttons(post)

    def _rabbit_on(self, table_id: str, notice: Notice) -> bool:
        table = self.service.get(table_id) if self.service else None
        result = notice.data.get("result") if notice.data else None
        reason = getattr(result, "reason", None)
        return table is not None and table.settings.rabbit_hunt and reason == "uncontested"

    def _bomb_on(self, table_id: str) -> bool:
        """Whether the next deal is a board game's, so a bomb pot may be proposed for
        it between the hands (the table refuses, privately, whoever may not)."""
        table = self.service.get(table_id) if self.service else None
        if table is None:
            return False
        view = table.snapshot(None)
        return view.phase not in ("closed", "halted") and community_game(get_variant(view.variant))

    async def _dm_fallback(self, table_id: str, user_id: str, notice: Notice, what: str) -> None:
        ch = self.channel(table_id)
        hand_no = notice.hand.hand_no if notice.hand is not None else 0
        # Once per hand and kind: the cards note must not hide the later declaration one.
        if (user_id, hand_no, what) in ch.dm_failed:
            return
        ch.dm_failed.add((user_id, hand_no, what))
        # Never any card here: only where to look. In the table's language: the
        # channel reads it.
        lang = self.table_locale(table_id)
        what_key = what if "." in what else "dm.what." + what  # a home prompt names its own
        said = say("dm.cannot", lang, user=f"<@{user_id}>", what=say(what_key, lang))
        await self._post(table_id, said, mention=int(user_id))

    async def _ping(self, table_id: str, user_id: str, notice: Notice) -> None:
        """Edits notify nobody, so the player to act is nudged (module docstring, "Turn
        notifications"): after a wait, if the turn has not moved, by a mention that is
        removed on the next turn, or by DM for players who chose that."""
        await self._clear_ping(table_id)
        ch = self.channel(table_id)
        ch.ping_task = asyncio.create_task(self._ping_later(table_id, user_id, notice.turn))

    def ping_wait(self, table_id: str, user_id: str, deadline: float | None = None) -> float:
        """Seconds before ``user_id`` is nudged: ``ping_delay``, or ``ping_delay_active``
        if he acted at this table within ``ping_active`` seconds (he is watching it; most
        such turns are played before the nudge is due and cost nothing), but never later
        than half the time his clock leaves him (``deadline``, epoch seconds)."""
        seen = self._seen.get((table_id, user_id))
        if seen is None or time.monotonic() - seen > self.ping_active:
            return self.ping_delay
        wait = self.ping_delay_active
        if deadline is not None:
            wait = min(wait, (deadline - time.time()) / 2)
        return max(self.ping_delay, wait)

    def _turn_is(self, table_id: str, turn: int) -> bool:
        table = self.service.get(table_id) if self.service else None
        return table is not None and table.snapshot(None).turn == turn

    async def _ping_later(self, table_id: str, user_id: str, turn: int) -> None:
        table = self.service.get(table_id) if self.service else None
        deadline = table.snapshot(None).deadline if table is not None else None
        await asyncio.sleep(self.ping_wait(table_id, user_id, deadline))
        if not self._turn_is(table_id, turn):
            return
        in_channel = say("ping.turn", self.table_locale(table_id), user=f"<@{user_id}>")
        by_dm_text = say("ping.turn", self.user_locale(user_id), user=f"<@{user_id}>")
        text = in_channel
        with budget.priority(budget.LOW):
            try:
                # Send Messages lost (cogs/moderation.py): a DM is the only way left.
                by_dm = self.ping_mode.get(user_id) == "dm" or self.channel(table_id).no_send
                if by_dm:
                    self._sending.add(table_id)
                    dm = self.dm_text(table_id, by_dm_text)
                    if await ops.dm(
                        self.client, int(user_id), dm, known=self.dms, mention=int(user_id)
                    ):
                        self.pings_sent += 1
                        return
                    self._sending.discard(table_id)
                # In the channel (also when the DM could not be delivered: DMs closed).
                interaction = await self._live_interaction(table_id)  # may wait for one
                if not self._turn_is(table_id, turn):
                    return  # played meanwhile: no nudge (and none left behind)
                self._sending.add(table_id)  # from here on it lands, then is deleted
                if interaction is not None and await self._ping_followup(
                    table_id, interaction, user_id, text
                ):
                    self.pings_sent += 1
                    return
                ch = self.channel(table_id)
                msg = await ops.send(ch.where(), text, mention=int(user_id))
                if msg is not None:
                    ch.ping_id = msg.id
                    self.pings_sent += 1
            except budget.BudgetShort:
                self.pings_dropped += 1  # the table message and the cards go first
            finally:
                self._sending.discard(table_id)

    # ------------------------------------------------------------ interactions seen

    def saw(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Every interaction passes here on arrival (cogs/router.py): one in a table's
        channel is kept (its webhook can carry the next turn's mention for free)."""
        table_id = self._table_at(interaction.channel_id)
        at = table_id or (str(interaction.channel_id) if interaction.channel_id else None)
        self.locales.saw(interaction, at)
        if table_id is None:
            return
        live = self._live.setdefault(table_id, deque(maxlen=LIVE_KEPT))
        live.append((interaction, time.monotonic()))

    def acted(self, table_id: str, user_id: str) -> None:
        """``user_id`` just acted at the table (cogs/play.py, an accepted action): he is
        watching it, so his next nudge waits longer (:meth:`ping_wait`)."""
        self._seen[(table_id, user_id)] = time.monotonic()

    def _table_at(self, channel_id: int | None) -> str | None:
        """The table playing in this channel or thread, if any."""
        if channel_id is None:
            return None
        key = str(channel_id)
        ch = self.channels.get(key)
        if ch is not None and not ch.thread_id:
            return key
        for table_id, other in self.channels.items():
            if other.thread_id == channel_id:
                return table_id
        if ch is None and self.service is not None and self.service.get(key) is not None:
            return key
        return None

    async def _live_interaction(self, table_id: str) -> discord.Interaction[discord.Client] | None:
        """The newest interaction in the table's channel whose webhook takes a public
        follow-up now: answered (waiting a moment for one being answered), not deferred
        (a deferral's first follow-up replaces its private "thinking" message) and well
        inside its token's 15 minutes."""
        live = self._live.get(table_id)
        if not live:
            return None
        newest, arrived = live[-1]
        # Only while Discord's 3 s to answer it last: one never answered is skipped.
        while not newest.response.is_done() and time.monotonic() < arrived + ANSWER_WINDOW:
            await asyncio.sleep(ANSWER_WAIT_STEP)
        now = time.monotonic()
        for interaction, seen in reversed(live):
            if now - seen > TOKEN_LIFETIME:
                break
            if interaction.response.type in FOLLOWS_UP and interaction.id not in self._refused:
                return interaction
        return None

    def _refuse(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Discord refused this interaction's webhook (its token expired, its channel is
        gone): it is never tried again."""
        self._refused.add(interaction.id)
        if len(self._refused) > REFUSED_KEPT:  # only those still kept can come up again
            kept = {i.id for live in self._live.values() for i, _ in live}
            self._refused &= kept

    def _hook_for(
        self, table_id: str, message_id: int
    ) -> discord.Interaction[discord.Client] | None:
        """The newest click on ``message_id`` answered by editing it, with its token
        well inside its 15 minutes: its webhook edits that message for free."""
        now = time.monotonic()
        for interaction, seen in reversed(self._live.get(table_id, ())):
            if now - seen > TOKEN_LIFETIME:
                return None
            msg = interaction.message
            if interaction.id in self._refused:
                continue
            if msg is not None and msg.id == message_id and interaction.response.type in EDITS:
                return interaction
        return None

    async def _ping_followup(
        self,
        table_id: str,
        interaction: discord.Interaction[discord.Client],
        user_id: str,
        text: str,
    ) -> bool:
        """The mention as a follow-up of ``interaction``, the table's latest (exempt from
        the global limit); False when Discord refused it."""
        try:
            msg = await ops.followup(interaction, text, mention=int(user_id))
        except ops.FollowupInDoubt:
            return True  # it may be up: not pinged twice (left to the turn's end)
        if msg is None:
            self._refuse(interaction)
            return False
        self._hook_pings[table_id] = msg
        self.pings_by_followup += 1
        return True

    async def _clear_ping(self, table_id: str) -> None:
        """The turn moved on: stop the pending nudge and delete the one shown. A nudge
        already on its way is let land first (cut off, Discord may have it anyway and
        nobody would delete it)."""
        ch = self.channel(table_id)
        task = ch.ping_task
        if task is not None and not task.done():
            if table_id in self._sending:
                with contextlib.suppress(Exception):
                    await task
            else:
                task.cancel()
        hooked = self._hook_pings.pop(table_id, None)
        old, ch.ping_id = ch.ping_id, None
        if hooked is not None and not await ops.delete_followup(hooked):
            old = hooked.id  # its token expired: deleted as a plain message below
        if old is not None:
            with budget.priority(budget.LOW), contextlib.suppress(budget.BudgetShort):
                await ops.delete(ch.where().get_partial_message(old))


def pot_order(notice: Notice) -> int:
    """0 for the main pot's award, N for side pot N, from the event's pot index (never
    from the words, which are in the table's language); -1 for any other line."""
    event = notice.data.get("event") if notice.data else None
    return event.pot_index if isinstance(event, PotAwarded) else -1


def main_pot_first(lines: list[tuple[int, str]]) -> list[str]:
    """The summary (each line with its :func:`pot_order`) with its award lines main pot
    first (the engine awards from the last side pot down, R-8.3, but a reader looks for
    the main pot first); every other line keeps its place."""
    slots = [i for i, (order, _) in enumerate(lines) if order >= 0]
    # Stable: the halves of one pot keep their order.
    awards = sorted((lines[i] for i in slots), key=lambda line: line[0])
    out = [text for _, text in lines]
    for i, (_, text) in zip(slots, awards, strict=True):
        out[i] = text
    return out


async def _render_cards(
    cards: tuple[str, ...], caption: str, locale: Locale = "en"
) -> RenderedImage | None:
    """The hole-card picture in the player's language (blocking Pillow work in a
    thread); None if art fails."""
    try:
        shown = tuple(c for c in cards if c != "??")
        if not shown:
            return None
        return await asyncio.to_thread(
            lambda: render_hole_cards(shown, caption=caption[:60], locale=locale)
        )
    except Exception:
        log.exception("could not render cards")
        return None


async def _render_showdown(
    shown: ShowdownNotes, fists: list[tuple[int, str, int]] | None = None, locale: Locale = "en"
) -> RenderedImage | None:
    try:
        # Reading the hands (the engine's evaluator) and drawing: both in the thread.
        return await asyncio.to_thread(
            lambda: render_showdown(showdown_art(shown, fists), locale=locale)
        )
    except Exception:
        log.exception("could not draw the showdown")
        return None


async def _render_reveal(
    fists: list[tuple[int, str, int]], locale: Locale = "en"
) -> RenderedImage | None:
    try:
        view = RevealView(tuple(Fist(seat, plain(name, 24), chips) for seat, name, chips in fists))
        return await asyncio.to_thread(lambda: render_reveal(view, locale=locale))
    except Exception:
        log.exception("could not draw the fists")
        return None


__all__ = ["DiscordPresenter"]


def _session(notice: Notice) -> int:
    """Which of the channel's tables a prompt is from (R-20.95): its hand's; 0 unknown."""
    return notice.hand.session if notice.hand is not None else 0
