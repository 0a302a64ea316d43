"""What moderators (and Discord) do to a table's place, and how the table copes.

A cog the inbound router adds at start (:mod:`cogs.router`), listening to the gateway
events a moderator's action causes:

* **Attach Files lost** in the table's channel: the table message falls back to text
  (the embed already writes every public card; no attachment), and the channel is told
  once which permission is missing. Given back: pictures again.
* **Send Messages lost**: the table is held between deals (``Table.hold``: no new
  deal; a hand in progress plays on, its clicks answered by the interaction itself,
  which needs no permission, with one ephemeral word to each clicker); the host is told
  by DM. Given back: the hold is lifted at once and the table deals again by itself.
  The permissions are read from the gateway's cache on CHANNEL_UPDATE, a role change,
  at READY and from every interaction's ``app_permissions`` in the table's channel, so
  a change is seen whichever way it came.
* **Channel or thread deleted** / **bot removed from the server** (GUILD_DELETE, not
  an outage): the hand is cancelled and the table closed with every stack cashed out
  (R-16.11, ``Table.abandon``); the players are told by DM. The tables of a server the
  bot was removed from reopen (same settings and host, empty seats) if it is added back
  within ``CHIPFIST_GUILD_KEEP_HOURS``; the log keeps their history in any case.
* **A seated member removed from the server** (GUILD_MEMBER_REMOVE, which needs the
  privileged members intent): away (R-16.12, ``Table.member_gone``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass

import discord
from discord.ext import commands

from bot.poker.messages import Msg, Rule
from bot.table.handlabel import hand_label
from bot.table.table import Abandoned, Table
from bot.words import Locale, render
from cogs import ops
from cogs.bot import ChipfistBot
from cogs.channel import TableChannel
from cogs.names import escape
from cogs.words import message, of, say

log = logging.getLogger(__name__)

REMOVALS_LOG = "_guild_removals"
"""Reserved log id: one ``guild_removed`` row per removal ({guild, tables, at})."""
REMOVED = "guild_removed"
READDED = "guild_readded"
CLOSED_BY_REMOVAL = "discord:guild-removed"
CLOSED_BY_DELETE = "discord:channel-deleted"
CLOSED_BY_PLACE = "discord:not-a-server-channel"
NOT_A_PLACE = "closed.why.dm"
"""Why a table found bound to a DM at start (a database of an older version, which let
commands work in DMs) is closed: its players are cashed out and told (the ``discord``
catalogue's words, like every ``closed.why.*`` reason: each player reads it in his
language)."""


Place = discord.abc.GuildChannel | discord.Thread
"""Where a table lives: its channel, or its own thread."""


@dataclass(frozen=True, slots=True)
class Rights:
    """What the bot may do where a table lives (None of a field: unknown)."""

    send: bool
    attach: bool

    def missing(self, thread: bool) -> list[str]:
        out = []
        if not self.send:
            out.append("Send Messages in Threads" if thread else "Send Messages")
        if not self.attach:
            out.append("Attach Files")
        return out


def rights_from(perms: discord.Permissions, thread: bool) -> Rights:
    """Rights from Discord's permissions. Without sending there is no uploading either
    (Discord's implicit denial, which discord.py's ``permissions_for`` applies too): read
    the same way from the gateway's cache and from an interaction's raw bits."""
    send = perms.view_channel and (
        perms.send_messages_in_threads if thread else perms.send_messages
    )
    return Rights(send=bool(send), attach=bool(send and perms.attach_files))


def hold_text(where: str, locale: Locale) -> str:
    return say("hold.ephemeral", locale, where=where)


@dataclass(frozen=True, slots=True)
class Removal:
    """The bot's removal from a guild, as logged under ``REMOVALS_LOG``: the tables it
    closed, reopened if the bot is added back within ``guild_keep_hours`` of ``at``."""

    seq: int
    tables: tuple[str, ...]
    at: float

    @classmethod
    def read(cls, seq: int, payload: Mapping[str, object]) -> Removal:
        """The logged record; a missing or odd field reads as none (nothing reopens)."""
        tables = payload.get("tables")
        at = payload.get("at")
        return cls(
            seq,
            tuple(str(t) for t in tables) if isinstance(tables, list) else (),
            float(at) if isinstance(at, int | float) else 0.0,
        )


class Moderation(commands.Cog):
    """The listeners (see the module docstring)."""

    def __init__(self, bot: ChipfistBot) -> None:
        self.bot = bot
        self.told: dict[str, set[str]] = {}
        """Per table on hold: the players already told by an ephemeral word."""
        self._removals: dict[str, Removal] | None = None

    # ------------------------------------------------------------ helpers

    def _tables(self) -> dict[str, Table]:
        service = self.bot.service
        return {} if service is None else service.tables

    def _open(self, table_id: str) -> Table | None:
        table = self.bot.table(table_id)
        return table if table is not None and not _closed(table) else None

    def _lang(self, table_id: str) -> Locale:
        """The table's language (its public lines)."""
        return self.bot.presenter.table_locale(table_id)

    def _user_lang(self, user_id: str) -> Locale:
        """One player's language (his DMs)."""
        return self.bot.presenter.user_locale(user_id)

    def _where(self, table_id: str) -> tuple[TableChannel, Place | None, bool]:
        """The table's channel object, where it lives (its thread or its channel, from
        the gateway's cache: None if unknown) and whether that is a thread."""
        ch = self.bot.presenter.channel(table_id)
        place = self.bot.get_channel(ch.place())
        if isinstance(place, discord.Thread):
            return ch, place, True
        if isinstance(place, discord.abc.GuildChannel):
            return ch, place, False
        return ch, None, bool(ch.thread_id)

    def current_rights(self, table_id: str) -> Rights | None:
        """The bot's rights where the table lives, from the gateway's cache."""
        _, place, thread = self._where(table_id)
        if place is None:
            return None
        me = place.guild.me
        if me is None:
            return None
        return rights_from(place.permissions_for(me), thread)

    async def check_all(self, guild: discord.Guild | None = None) -> None:
        for table_id in list(self._tables()):
            if self._open(table_id) is None:
                continue
            _, place, _ = self._where(table_id)
            if place is None or (guild is not None and place.guild.id != guild.id):
                continue
            rights = self.current_rights(table_id)
            if rights is not None:
                await self.apply_rights(table_id, rights)

    async def apply_rights(self, table_id: str, rights: Rights) -> None:
        """Follow a change of what the bot may do where the table lives."""
        table = self._open(table_id)
        if table is None:
            return
        ch, _, thread = self._where(table_id)
        where = f"<#{ch.thread_id or table_id}>"
        lost_attach = not rights.attach and not ch.no_attach
        back_attach = rights.attach and ch.no_attach
        lost_send = not rights.send and not ch.no_send
        back_send = rights.send and ch.no_send
        ch.no_attach = not rights.attach
        ch.no_send = not rights.send
        if lost_send:
            table.hold = message("hold.ephemeral", where=where)  # said in the actor's language
            self.told[table_id] = set()
            log.warning("table %s: Send Messages lost; held between deals", table_id)
            await self._tell_host(table, where, rights, thread)
        if back_send:
            table.hold = None
            self.told.pop(table_id, None)
            log.info("table %s: Send Messages back; the table runs again", table_id)
            if self.bot.service is not None:
                self.bot.service.wake()
            await ops.send(ch.where(), say("hold.lifted", self._lang(table_id)))
        if lost_attach:
            log.warning("table %s: Attach Files lost; the table shows as text", table_id)
        if rights.send and not rights.attach and (lost_attach or back_send):
            # Said once, when it can be said: now, or when sending comes back without it.
            await ops.send(ch.where(), say("attach.lost", self._lang(table_id)))
        if back_attach:
            # Upload the picture afresh on the next refresh: the text table dropped it.
            ch.pictures.forget(table_id)
            if rights.send and not back_send:  # one line when both come back
                await ops.send(ch.where(), say("attach.back", self._lang(table_id)))
        if lost_attach or back_attach or back_send:
            ch.shown = None
            ch.schedule_refresh()

    async def _tell_host(self, table: Table, where: str, rights: Rights, thread: bool) -> None:
        host = table.snapshot(None).host
        # The cause only: without sending, Discord denies uploading too (implicitly).
        missing = f"**{rights.missing(thread)[0]}**"

        def text(user: str) -> str:
            return say("hold.host", self._user_lang(user), where=where, missing=missing)

        if host.isdigit() and await ops.dm(self.bot, int(host), text(host)) is not None:
            return
        # The host cannot be told (DMs closed, or gone): the seated players who may manage
        # the channel (Manage Channels there) are, as the ones who can fix it.
        told = [u for u in await self._managers(table) if await ops.dm(self.bot, int(u), text(u))]
        log.warning(
            "table %s: could not DM the host %s about the hold; told %s",
            table.table_id,
            host,
            told or "nobody",
        )

    async def _managers(self, table: Table) -> list[str]:
        """Seated players with Manage Channels where the table lives (a REST look-up per
        player the cache lacks: a table seats ten at most)."""
        _, place, _ = self._where(table.table_id)
        if place is None:
            return []
        out = []
        for seat in table.snapshot(None).seats:
            if not seat.user_id.isdigit():
                continue
            member = place.guild.get_member(int(seat.user_id))
            if member is None:
                try:
                    member = await place.guild.fetch_member(int(seat.user_id))
                except discord.HTTPException:
                    continue
            if place.permissions_for(member).manage_channels:
                out.append(seat.user_id)
        return out

    async def ephemeral_word(self, interaction: discord.Interaction[ChipfistBot]) -> None:
        """Once per player while a table is on hold: why nothing is posted (his own
        click's ephemeral follow-up: the only way left to reach the channel's players)."""
        table_id = _table_of(interaction, self.bot)
        if table_id is None or table_id not in self.told:
            return
        user = str(interaction.user.id)
        if user in self.told[table_id] or not interaction.response.is_done():
            return
        table = self._open(table_id)
        if table is None or table.hold is None:
            return
        self.told[table_id].add(user)
        ch, _, _ = self._where(table_id)
        await ops.reply(interaction, hold_text(f"<#{ch.thread_id or table_id}>", of(interaction)))

    # ------------------------------------------------------------ closing

    async def abandon(
        self, table_id: str, reason: str, by: str, place: str | Msg, *, tell: bool = True
    ) -> Abandoned | None:
        """Close a table that lost its place (R-16.11); ``reason`` is a ``closed.why.*``
        key, ``place`` where it was (a channel mention, or a message of the catalogue).
        ``tell``: DM its players and host now (else the caller does, :meth:`tell`)."""
        table = self._open(table_id)
        if table is None:
            return None
        self.bot.presenter.lose(table_id)
        done = await table.abandon(reason, by=by)
        if done is None:
            # Already closed (a second event for the same loss), or halted (R-2.5: no
            # chip moves until an operator looks).
            log.warning(
                "table %s: %s; not closed here (closed already, or halted)", table_id, reason
            )
            return None
        log.warning(
            "table %s closed: %s; hand cancelled: %s; cashed out: %s",
            table_id,
            reason,
            done.cancelled,
            {user: chips for user, _, chips in done.cashed},
        )
        self.told.pop(table_id, None)
        if tell:
            await self.tell(table, done, place)
        return done

    async def tell(self, table: Table, done: Abandoned, place: str | Msg) -> None:
        """DM each player cashed out, and the host, that the table closed and why."""
        for user, _, chips in done.cashed:
            await self._dm(user, closed_text(done, place, chips, self._user_lang(user)))
        host = table.snapshot(None).host
        if host and host not in {u for u, _, _ in done.cashed}:
            await self._dm(host, closed_text(done, place, None, self._user_lang(host)))

    async def _dm(self, user: str, text: str) -> None:
        if user.isdigit() and await ops.dm(self.bot, int(user), text) is None:
            log.info("could not DM %s that the table closed", user)

    # ------------------------------------------------------------ listeners

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.check_all()
        await self.check_gone()

    async def check_gone(self) -> list[str]:
        """At READY: a table whose channel the gateway does not know was perhaps deleted
        while the bot was away (no CHANNEL_DELETE reaches a bot that is not connected).
        Asked by REST, once per such table: 10003 Unknown Channel closes it (R-16.11);
        anything else (403: hidden from the bot, or the bot removed) closes nothing. A table
        whose channel is a direct message (cached or asked for: DMs are rarely in the
        gateway's cache) is closed the same way, its reason logged (R-1.11: a table lives
        in a server)."""
        closed = []
        for table_id, table in list(self._tables().items()):
            if _closed(table) or not table_id.isdigit():
                continue
            channel = self.bot.get_channel(int(table_id))
            if channel is None:
                try:
                    channel = await self.bot.fetch_channel(int(table_id))
                except discord.NotFound:
                    reason = "closed.why.channel"
                    if await self.abandon(table_id, reason, CLOSED_BY_DELETE, f"<#{table_id}>"):
                        closed.append(table_id)
                    continue
                except discord.HTTPException as exc:
                    log.warning(
                        "table %s: its channel cannot be read (%s); left open", table_id, exc
                    )
                    continue
            if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
                place = message("closed.place.dm")
                if await self.abandon(table_id, NOT_A_PLACE, CLOSED_BY_PLACE, place):
                    closed.append(table_id)
        return closed

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        for table_id in list(self._tables()):
            if self._open(table_id) is None:
                continue
            _, place, _ = self._where(table_id)
            if place is None:
                continue
            parent = getattr(place, "parent_id", None)
            if after.id in (place.id, parent):
                rights = self.current_rights(table_id)
                if rights is not None:
                    await self.apply_rights(table_id, rights)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self.check_all(after.guild)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """A role given to or taken from the bot itself (members intent)."""
        if self.bot.user is not None and after.id == self.bot.user.id:
            await self.check_all(after.guild)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[ChipfistBot]) -> None:
        """Every interaction carries the bot's permissions where it was made: a change
        that came without an event we see (a role, a restart) is caught here."""
        table_id = _table_of(interaction, self.bot)
        if table_id is None or interaction.guild_id is None:
            return
        ch = self.bot.presenter.channel(table_id)
        if interaction.channel_id != ch.place():
            return  # the permissions of another place than the table's
        thread = bool(ch.thread_id)
        await self.apply_rights(table_id, rights_from(interaction.app_permissions, thread))

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        table_id = str(channel.id)
        if self._open(table_id) is not None:
            await self.abandon(
                table_id,
                "closed.why.channel",
                CLOSED_BY_DELETE,
                f"#{escape(channel.name)} ({escape(channel.guild.name)})",
            )

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        for table_id in list(self._tables()):
            ch = self.bot.presenter.channels.get(table_id)
            if ch is not None and ch.thread_id == payload.thread_id:
                await self.abandon(
                    table_id,
                    "closed.why.thread",
                    CLOSED_BY_DELETE,
                    message("closed.place.thread", channel=f"<#{table_id}>"),
                )

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """R-16.12: a member left the server (or was removed): away where he sits."""
        user = str(payload.user.id)
        guild = self.bot.get_guild(payload.guild_id)
        for table_id, table in list(self._tables().items()):
            if _closed(table) or not self.bot.tables.is_seated(table_id, user):
                continue
            _, place, _ = self._where(table_id)
            if place is None or (guild is not None and place.guild.id != guild.id):
                continue
            said = await table.member_gone(user)
            told = "nothing to do" if said is None else render(said, "en")  # an operator's log
            log.info("table %s: member %s left the server: %s", table_id, user, told)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from ``guild`` (discord.py says ``on_guild_unavailable``
        for an outage, which closes nothing)."""
        ids = {c.id for c in guild.channels}
        closed: list[tuple[str, Table, Abandoned, str]] = []
        for table_id in list(self._tables()):
            channel_id = self.bot.presenter.channel_of(table_id)
            if channel_id in ids and (table := self._open(table_id)) is not None:
                name = guild.get_channel(channel_id)
                place = f"#{escape(getattr(name, 'name', table_id))} ({escape(guild.name)})"
                reason = "closed.why.removed"
                done = await self.abandon(table_id, reason, CLOSED_BY_REMOVAL, place, tell=False)
                if done is not None:
                    closed.append((table_id, table, done, place))
        if closed and self.bot.service is not None:
            # Logged before anyone is told: the DMs take a while (each may be retried),
            # and a shutdown among them must not lose what a re-add reopens.
            at = time.time()
            tables = [table_id for table_id, _, _, _ in closed]
            payload = {"guild": str(guild.id), "tables": tables, "at": at}
            pending = await self._pending_removals()
            seq = await self.bot.service.store.append(REMOVALS_LOG, REMOVED, payload)
            pending[str(guild.id)] = Removal(seq, tuple(tables), at)
        for _, table, done, place in closed:
            await self.tell(table, done, place)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.reopen(guild)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.reopen(guild)  # Discord sends a re-added guild as "available" too

    async def reopen(self, guild: discord.Guild) -> list[str]:
        """The bot was added back: the tables closed by its removal reopen with their
        settings and host, if the removal is within ``guild_keep_hours``."""
        service = self.bot.service
        if service is None:
            return []
        pending = await self._pending_removals()
        removal = pending.pop(str(guild.id), None)
        if removal is None:
            return []
        seq = removal.seq
        keep = self.bot.settings.guild_keep_hours * 3600
        reopened: list[str] = []
        if time.time() - removal.at <= keep:
            for table_id in removal.tables:
                self.bot.presenter.gone.discard(table_id)
                outcome = await service.reopen(table_id, key=f"readd:{guild.id}:{seq}")
                if outcome.ok:
                    reopened.append(table_id)
                    await ops.send(
                        self.bot.presenter.channel(table_id).where(),
                        say("readded", self._lang(table_id)),
                    )
        else:
            log.info("guild %s re-added after the keep time: no table reopened", guild.id)
        await service.store.append(REMOVALS_LOG, READDED, {"guild": str(guild.id)})
        return reopened

    async def _pending_removals(self) -> dict[str, Removal]:
        """Per guild the bot was removed from and not yet added back: its removal.
        Read from the log once, then kept up to date here (a server coming back from an
        outage asks for it too: no read per guild)."""
        if self._removals is None:
            assert self.bot.service is not None
            pending: dict[str, Removal] = {}
            for ev in await self.bot.service.store.events(REMOVALS_LOG):
                guild = str(ev.payload.get("guild"))
                if ev.kind == READDED:
                    pending.pop(guild, None)
                else:
                    pending[guild] = Removal.read(ev.seq, ev.payload)
            self._removals = pending
        return self._removals


def _closed(table: Table) -> bool:
    """Whether the table is closed, read as any presenter reads a table (its view)."""
    return table.snapshot(None).phase == "closed"


def closed_text(done: Abandoned, place: str | Msg, chips: int | None, locale: Locale = "en") -> str:
    """The DM each player (and the host) gets when a table is closed under R-16.11, in
    his language (a ``closed.why.*`` reason in it too)."""
    why: str | Msg = done.reason
    if done.reason.startswith("closed.why."):
        why = message(done.reason, rule=Rule("R-1.11"))  # the rule a DM's table broke
    lines = [say("closed.head", locale, place=place, reason=why)]
    if done.cancelled is not None:
        hand = hand_label(done.session, done.cancelled)
        lines.append(say("closed.cancelled", locale, hand=hand, rule=Rule("R-16.11")))
    if chips is not None:
        lines.append(say("closed.cashed", locale, chips=chips))
    else:
        lines.append(say("closed.all_cashed", locale))
    return "\n".join(lines)


def _table_of(interaction: discord.Interaction[ChipfistBot], bot: ChipfistBot) -> str | None:
    """The table an interaction in a guild is about (a table's recorded place, R-19.3;
    else its channel's, or its thread's)."""
    if interaction.channel_id is not None:
        placed = bot.presenter.table_at(interaction.channel_id)
        if placed is not None:
            return placed if bot.table(placed) is not None else None
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        candidate = str(channel.parent_id)
    elif interaction.channel_id is not None:
        candidate = str(interaction.channel_id)
    else:
        return None
    return candidate if bot.table(candidate) is not None else None


__all__ = ["Moderation", "Rights", "closed_text", "rights_from"]
