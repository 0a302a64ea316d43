"""The Discord bot: a ``commands.Bot`` holding one table service and its presenter.

``ChipfistBot`` is the type every interaction's client has
(``discord.Interaction[ChipfistBot]``). It opens the store, recovers the tables, loads
the inbound router (:mod:`cogs.router`, a discord.py extension: every click, modal and
slash command reaches the play functions through it), syncs the command tree when it
changed, runs the clocks and stops gracefully. The process entry point is
:mod:`cogs.app`.

Running as a service:

* command sync only when the command tree changed: a hash of the payload per scope
  (global, or the ``CHIPFIST_DEV_GUILD`` guild) is kept in the store's log under
  :data:`SYNC_LOG`, so a restart does not spend Discord's sync rate limit;
* SIGTERM or SIGINT: stop taking commands (an interaction arriving is told the dealer
  is restarting), let the commands in flight finish (every table's lock is taken and
  kept), deliver what is queued, close the gateway and the store, exit 0, all within
  :data:`STOP_BUDGET` seconds; hands in progress resume at the next start
  (``TableService.recover``);
* the invite URL and, per guild, the needed permissions the bot lacks are logged at
  start (:mod:`cogs.permissions`);
* the health file and systemd notifications (:mod:`bot.health`), the Prometheus metrics
  (:mod:`cogs.metrics`), each off unless configured.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import socket
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import TraceConfig
from discord.ext import commands

if TYPE_CHECKING:
    # discord.py's payload types are for the checker only (importing them at run time
    # is circular inside discord.py).
    from discord.types.interactions import Interaction as InteractionPayload

from bot import health
from bot.config import Config
from bot.store import is_postgres
from bot.store.lease import LeaseStore
from bot.table.log import CommandsSynced, LogError, read_rows
from bot.table.ownership import Ownership, is_table_log
from bot.table.ports import StoreAdapter, StorePort, open_store
from bot.table.service import TableService
from bot.table.table import Table
from bot.tourney_run import lease as tourney_lease
from cogs import callback_retry, discord_internals, ops, permissions, rest_retry
from cogs.budget import RequestBudget
from cogs.metrics import Metrics
from cogs.prefs import (
    load_notify_modes,
    load_table_messages,
    load_table_places,
    load_table_threads,
    migrate_table_threads,
)
from cogs.presenter import DiscordPresenter
from cogs.translator import CommandTranslator

log = logging.getLogger("cogs.app")  # the service's log name (operators filter on it)

SYNC_LOG = "_command_sync"
"""Reserved log id: one ``synced`` event per sync ({scope, hash}); never a table."""
SYNCED = CommandsSynced.KIND
STOP_BUDGET = 4.0
"""Seconds a graceful stop may take in all, even with Discord unreachable (the promise
is an exit within 5 s; supervisors wait longer: systemd 15 s here, Docker 10 s)."""
RESTARTING = "The dealer is restarting; try again in a few seconds. Nothing was changed."
ROUTER = "cogs.router"
"""The extension that wires every inbound path (loaded by name, as discord.py does)."""
_NO_HAND = frozenset({"waiting", "paused", "halted", "closed"})
"""A table view's phases without a hand in progress (``bot.table.view.ViewPhase``)."""
IDENTIFY_WINDOW = 5.0
"""Discord's identify rate limit: ``max_concurrency`` IDENTIFYs per this many seconds, one
per bucket ``shard_id % max_concurrency`` (``GET /gateway/bot``'s session_start_limit)."""


class ChipfistBot(commands.Bot):
    """A bot holding one table service; the presenter is the cogs' ``DiscordPresenter``."""

    def __init__(
        self,
        database: str,
        *,
        store: StorePort | None = None,
        sync: bool = True,
        clocks: bool = True,
        settings: Config | None = None,
        force_sync: bool = False,
        metrics: Metrics | None = None,
        # Any: discord.py's client options (proxy, http_trace...); its TypedDict of them
        # is private, and a sharded bot adds shard_ids and shard_count to the same set.
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # Privileged (switched on in the developer portal, docs/operations.md): the only
        # way to hear that a seated member left the server (R-16.12, cogs/moderation.py).
        # Refused by Discord (not switched on): the bot connects without it (connect).
        intents.members = True
        # Members are never needed in bulk: no chunking at start (one request a guild),
        # and none cached (the memory stays what it was with the guilds intent alone).
        options.setdefault("chunk_guilds_at_startup", False)
        options.setdefault("member_cache_flags", discord.MemberCacheFlags.none())
        # Nothing the bot posts pings anyone unless the message names whom (cogs.ops
        # mentions(): the turn's player); a player's name in the text never does.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # No voice here: skip discord.py's start-up warnings about voice libraries.
        discord_internals.quiet_voice_warnings()
        if metrics is not None:
            options.setdefault("http_trace", metrics.trace_config())
        self.settings = settings if settings is not None else Config.load(env={}, dotenv=None)
        """The process settings; the defaults (not the environment) when not given."""
        self.budget = RequestBudget(self.settings.request_rate)
        """Every global-limited request waits here for its turn (cogs/budget.py)."""
        trace = self.budget.attach(options.get("http_trace") or TraceConfig())
        options["http_trace"] = rest_retry.attach(trace)  # 5xx handed back fast (cogs.ops)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **options)
        self.database = database
        self._store = store
        self._sync = sync
        self._force_sync = force_sync
        self._clocks = clocks
        self.metrics = metrics
        self.presenter = DiscordPresenter(self)
        self.service: TableService | None = None
        self.draining = False
        """Set by the stop: interactions are answered with :data:`RESTARTING`."""
        self.gateway = "starting"
        self.synced: bool | None = None
        """Whether this start synced the command tree (None: sync off)."""
        self._refusals: set[asyncio.Task[None]] = set()
        self._background: list[asyncio.Task[None]] = []
        self._stopped = False
        self._notified_ready = False
        self.members_intent = True
        """Whether Discord accepted the members intent (False: refused, see connect)."""
        self._connected: set[int] = set(self.settings.shard_ids() or ())
        """Gateway shards this process connects (AutoShardedBot only): the configured
        ones, or with shard leases those held."""
        self._connecting: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ start

    @property
    def tables(self) -> TableService:
        """The table service (set up before the bot takes any interaction)."""
        assert self.service is not None, "the service starts in setup_hook"
        return self.service

    def table(self, table_id: str) -> Table | None:
        """The open table of this channel, if any."""
        return self.service.get(table_id) if self.service is not None else None

    async def setup_hook(self) -> None:
        # Interactions are answered through the fast-retrying adapter: set here, in the
        # task that then connects, so every event task started from it sees it.
        callback_retry.install()
        self._gate_interactions()
        store = self._store or await open_store(self.database)
        ownership = await self._ownership(store)
        if self.metrics is not None:
            store = self.metrics.timed_store(store)
        self.service = TableService(store, self.presenter, ownership=ownership)
        self.presenter.service = self.service
        if ownership is None:
            halted = await self.service.recover()
        else:
            # Only the tables of the shards this process holds. A standby takes nothing
            # yet: its lease loop first lets the owners starting beside it take theirs.
            halted = [] if ownership.standby else await self.service.lease_step()
            # The gateway connects only the shards held (another process may hold some
            # of ours: a standby that took them over while this one was down).
            self._connected = set(ownership.held)
            self._background.append(asyncio.create_task(self._lease_loop(), name="leases"))
        if halted:
            log.warning("tables halted at start: %s", halted)
        self.presenter.ping_mode.update(await load_notify_modes(store))
        await self.presenter.dms.load(store)  # DM channels opened by earlier runs
        await self.presenter.locales.load(store)  # the players' and servers' languages
        # Edit the table messages players already have rather than post new ones.
        self.presenter.saved_messages.update(await load_table_messages(store))
        extras = {tid: t.settings.extra for tid, t in self.service.tables.items()}
        self.presenter.saved_threads.update(await migrate_table_threads(store, extras))
        self.presenter.learn_places(await load_table_places(store))
        # Every inbound path to the play functions, in one place (cogs.router): the
        # clicks, the modal, stale buttons, the slash commands and their errors.
        await self.load_extension(ROUTER)
        # Descriptions and choices in every player's language (names stay English).
        await self.tree.set_translator(CommandTranslator(self.tree))
        if self._sync:
            self.synced = await self.sync_commands(force=self._force_sync)
        if self.metrics is not None:
            self._watch_metrics()
        if self._clocks:
            self.service.start_clocks()
        if self.settings.health_file or health.watchdog_interval() is not None:
            self._background.append(asyncio.create_task(self._health_loop(), name="health"))

    # ------------------------------------------------------------------ shards

    async def _ownership(self, store: StorePort) -> Ownership | None:
        """Leases on the shards (bot/table/ownership.py) when several processes share a
        PostgreSQL store: CHIPFIST_SHARD_COUNT set and a postgresql:// database."""
        config = self.settings
        if not config.shard_count or not is_postgres(self.database):
            return None
        leases = await LeaseStore.open(self.database, ttl=config.lease_seconds)
        owner = f"{socket.gethostname()}:{os.getpid()}"
        ownership = Ownership(
            leases,
            owner,
            config.shard_count,
            config.shard_ids() or (),
            standby=config.standby,
            guild_of=self._guild_of,
        )
        if isinstance(store, StoreAdapter):
            store.fencing = ownership
        # A tournament's tables and logs go with its journal's shard, from
        # the first recovery on.
        tourney_lease.follow(ownership)
        log.info(
            "process %s: shards %s of %d%s, lease %.1f s",
            owner,
            config.shard_ids(),
            config.shard_count,
            " (standby)" if config.standby else "",
            config.lease_seconds,
        )
        return ownership

    def _guild_of(self, table_id: str) -> int | None:
        """The guild of a table's channel (or thread), from the gateway's cache."""
        place = self.presenter.channel_of(table_id)
        channel = self.get_channel(place) if place else None
        guild = getattr(channel, "guild", None)
        return None if guild is None else int(guild.id)

    async def _lease_loop(self) -> None:
        """Renew and take leases; connect the gateway shards taken over, disconnect those
        lost (Discord routes a guild's interactions to its shard's connection)."""
        service = self.service
        assert service is not None and service.ownership is not None
        ownership = service.ownership
        ttl = ownership.leases.ttl
        if ownership.standby:
            await asyncio.sleep(ttl)  # the owners starting beside it take theirs first
        while True:
            try:
                before = set(service.tables)
                await service.lease_step()
                await self._adopt(before, set(service.tables))
                await self._follow_shards(set(ownership.held))
            except Exception:  # the database is away; the fences keep the tables safe
                log.exception("lease step failed; retrying")
            await asyncio.sleep(ttl / 3)

    async def _adopt(self, before: set[str], now: set[str]) -> None:
        """The tables of shards gained keep their table message and thread (edited, not
        posted again); those of shards lost are no longer shown from here (their queued
        updates dropped: the new owner shows them)."""
        ownership = self.tables.ownership
        assert ownership is not None
        for table_id in list(self.presenter.channels):
            if is_table_log(table_id) and not ownership.owns(table_id):
                await self.presenter.forget(table_id)
        gained = now - before - set(self.presenter.channels)
        if not gained:
            return
        store = self.tables.store
        messages = await load_table_messages(store)
        threads = await load_table_threads(store)
        self.presenter.learn_places(await load_table_places(store))
        for table_id in gained:
            if table_id in messages:
                self.presenter.saved_messages[table_id] = messages[table_id]
            if table_id in threads:
                self.presenter.saved_threads[table_id] = threads[table_id]
            # Mid-hand, the message may be a turn behind (its process died between a
            # commit and the edit): show the table as recovered, or no button would
            # match its turn. Between hands there is no turn to match: no edit.
            table = self.tables.get(table_id)
            if table is not None and table.snapshot(None).phase not in _NO_HAND:
                self.presenter.channel(table_id).schedule_refresh()

    async def _follow_shards(self, held: set[int]) -> None:
        """Disconnect the gateway shards lost at once; connect those gained in the
        background (an IDENTIFY may wait for Discord's rate limit, and the lease loop
        must keep renewing meanwhile)."""
        if not isinstance(self, commands.AutoShardedBot):
            return
        for shard in sorted(self._connected - held):
            await self._disconnect(shard)
        if not self._connected and not held and self.gateway == health.CONNECTED:
            self.gateway = health.STANDBY
            await self._write_health()
        if held - self._connected and (self._connecting is None or self._connecting.done()):
            self._connecting = asyncio.create_task(self._connect_shards(), name="shards")
            self._background.append(self._connecting)

    async def _connect_shards(self) -> None:
        assert isinstance(self, commands.AutoShardedBot)
        service = self.service
        assert service is not None and service.ownership is not None
        while missing := sorted(set(service.ownership.held) - self._connected):
            shard = missing[0]
            log.info("connecting gateway shard %d (taken over)", shard)
            self._connected.add(shard)
            await discord_internals.launch_shard(self, shard)
            log.info("gateway shard %d connected", shard)
            if shard not in service.ownership.held or shard not in self._connected:
                await self._disconnect(shard)  # lost while it connected

    async def _disconnect(self, shard: int) -> None:
        assert isinstance(self, commands.AutoShardedBot)
        log.warning("disconnecting gateway shard %d (its lease went to another)", shard)
        self._connected.discard(shard)
        discord_internals.forget_shard(self, shard)
        info = self.get_shard(shard)
        if info is not None and not info.is_closed():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(info.disconnect(), timeout=5)

    def _gateway_alive(self) -> bool:
        if self.is_closed():
            return False
        if isinstance(self, commands.AutoShardedBot):
            # No single websocket (``self.ws`` stays None): alive if any shard is.
            return any(not info.is_closed() for info in self.shards.values())
        return self.ws is not None

    def _watch_metrics(self) -> None:
        metrics = self.metrics
        service = self.service
        assert metrics is not None and service is not None
        metrics.watch_tables(service.open_count)
        self.presenter.on_hand_ended = metrics.hand_finished

    def observe_action(self, seconds: float) -> None:
        """Called by ``cogs.play.act`` with each action's latency."""
        if self.metrics is not None:
            self.metrics.observe_action(seconds)

    # ------------------------------------------------------------------ sync

    def _sync_scope(self) -> tuple[str, discord.Object | None]:
        guild = self.settings.dev_guild
        scope = f"guild:{guild}" if guild else "global"
        return f"{self.application_id}:{scope}", discord.Object(guild) if guild else None

    async def tree_hash(self, guild: discord.abc.Snowflake | None = None) -> str:
        """A hash of exactly what ``tree.sync`` would send for this scope, translations
        included (a new or changed translation is synced)."""
        commands = self.tree.get_commands(guild=guild)
        translator = self.tree.translator
        if translator is None:
            payload = [c.to_dict(self.tree) for c in commands]
        else:
            payload = [await c.get_translated_payload(self.tree, translator) for c in commands]
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the command tree if it changed since the last sync for this scope (global,
        or the dev guild instantly). Returns whether it synced."""
        assert self.service is not None
        scope, guild = self._sync_scope()
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        digest = await self.tree_hash(guild)
        store = self.service.store
        last = None
        try:
            for rec in read_rows(await store.events(SYNC_LOG), CommandsSynced):
                if rec.scope == scope:
                    last = rec.hash
        except LogError as exc:
            log.warning("%s", exc)  # unreadable: sync again (harmless)
            last = None
        if last == digest and not force:
            log.info("command tree unchanged (%s): not synced", scope)
            return False
        try:
            await self.tree.sync(guild=guild)
        except discord.HTTPException:
            log.exception("command sync failed (%s); the old commands stay", scope)
            return False
        rec = CommandsSynced(scope, digest)
        await store.append(SYNC_LOG, rec.kind, rec.to_payload())
        log.info("command tree synced (%s)", scope)
        return True

    # ------------------------------------------------------------------ gateway

    async def connect(self, *, reconnect: bool = True) -> None:
        """Connect; if Discord refuses the members intent (close 4014: not switched on
        in the developer portal), say so and connect without it rather than not at all:
        then a member who leaves the server is not noticed (R-16.12) and his clock runs
        as anyone's."""
        try:
            await super().connect(reconnect=reconnect)
        except discord.PrivilegedIntentsRequired:
            if not self.intents.members:
                raise
            log.error(
                "Discord refused the Server Members intent: switch it on in the developer "
                "portal (Bot, Privileged Gateway Intents; docs/operations.md). Running "
                "without it: members who leave a server are not noticed (R-16.12)."
            )
            self.members_intent = False
            # discord.py identifies with its state's intents; there is no public setter.
            discord_internals.drop_intents(self, discord.Intents(members=True))
            await super().connect(reconnect=reconnect)

    async def on_ready(self) -> None:
        self.gateway = health.CONNECTED
        if self.application_id is not None:
            log.info("invite URL: %s", permissions.invite_url(self.application_id))
        complete = sum(1 for guild in self.guilds if not self.report_permissions(guild))
        log.info("%d of %d guilds grant every needed permission", complete, len(self.guilds))
        if not self._notified_ready:
            self._notified_ready = health.sd_notify("READY=1\nSTATUS=gateway connected")
        await self._write_health()

    async def on_resumed(self) -> None:
        self.gateway = health.CONNECTED
        await self._write_health()

    async def on_disconnect(self) -> None:
        if not self._stopped:
            self.gateway = "disconnected"
            await self._write_health()

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.report_permissions(guild)

    def report_permissions(self, guild: discord.Guild) -> list[str]:
        """Log which needed permissions the bot's roles lack in ``guild`` (a channel's
        overwrites can still take some away: ``/table create`` checks there)."""
        me = guild.me
        if me is None:
            return []
        missing = permissions.missing(me.guild_permissions)
        if missing:
            log.warning(
                "guild %s (%s): missing permissions %s; grant them to the bot's role or "
                "re-invite with %s",
                guild.id,
                guild.name,
                ", ".join(permissions.label(m) for m in missing),
                permissions.invite_url(self.application_id or me.id),
                extra={"guild": str(guild.id)},
            )
        return missing

    # ------------------------------------------------------------------ health

    async def _write_health(self) -> None:
        path = self.settings.health_file
        if not path:
            return
        tables = 0 if self.service is None else len(self.service.tables)
        try:
            await asyncio.to_thread(health.write, path, self.gateway, tables=tables)
        except OSError:
            log.warning("cannot write the health file %s", path, exc_info=True)

    async def _health_loop(self) -> None:
        interval = self.settings.health_interval
        dog = health.watchdog_interval()
        if dog is not None:
            interval = min(interval, dog)
        while True:
            if self.gateway == health.CONNECTED and not self._gateway_alive():
                self.gateway = "disconnected"
            await self._write_health()
            if self.gateway == health.CONNECTED:
                health.sd_notify("WATCHDOG=1")
            await asyncio.sleep(interval)

    # ------------------------------------------------------------------ stop

    def _gate_interactions(self) -> None:
        """Route every INTERACTION_CREATE through :attr:`draining` (one place)."""
        parsers = discord_internals.parsers(self)
        original = parsers["INTERACTION_CREATE"]

        def gated(data: InteractionPayload) -> None:
            if not self.draining:
                original(data)
                return
            if data.get("type") == 4:  # autocomplete: nothing to tell
                return
            interaction = discord.Interaction(
                data=data, state=discord_internals.connection_state(self)
            )
            task = asyncio.create_task(self._refuse(interaction))
            self._refusals.add(task)
            task.add_done_callback(self._refusals.discard)

        parsers["INTERACTION_CREATE"] = gated

    async def _refuse(self, interaction: discord.Interaction[discord.Client]) -> None:
        with contextlib.suppress(Exception):
            await ops.reply(interaction, RESTARTING)

    async def close(self) -> None:
        """Stop gracefully (see the module docstring); idempotent."""
        if self._stopped:
            await super().close()
            return
        self._stopped = True
        self.draining = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STOP_BUDGET
        for task in self._background:
            task.cancel()
        if self.service is not None:
            # The commands in flight finish (their appends commit), a clock's too; no
            # new one starts: each table's lock is taken and kept until the process
            # ends. Only then are the clocks stopped, so none is cut off mid-command.
            locks = [t.lock for t in self.service.tables.values()]
            taking = asyncio.gather(*(lock.acquire() for lock in locks))
            try:
                await asyncio.wait_for(taking, timeout=max(0.1, deadline - loop.time() - 2.0))
            except TimeoutError:
                log.warning("stop: a table command did not finish in time")
            await self.service.stop()
        try:
            await asyncio.wait_for(
                self.presenter.drain(), timeout=max(0.1, deadline - loop.time() - 1.2)
            )
        except TimeoutError:
            log.warning("stop: undelivered table updates dropped (they show after restart)")
        if self._refusals:
            await asyncio.wait(set(self._refusals), timeout=0.3)
        await self.presenter.close()
        self.gateway = "stopped"
        await self._write_health()
        health.sd_notify("STOPPING=1")
        try:
            # Closing the gateway waits for Discord's answer; never past the budget.
            await asyncio.wait_for(super().close(), timeout=max(0.2, deadline - loop.time()))
        except TimeoutError:
            log.warning("stop: Discord did not answer the close in time")
        if self.service is not None:
            if self.service.ownership is not None:
                # Every command finished: give the shards up so others need not wait.
                with contextlib.suppress(Exception):
                    await self.service.ownership.release_all()
                with contextlib.suppress(Exception):
                    await self.service.ownership.leases.close()
            await self.service.store.close()
        if self.metrics is not None:
            self.metrics.stop()


class ShardedChipfistBot(ChipfistBot, commands.AutoShardedBot):
    """The bot on the shards ``CHIPFIST_SHARDS`` of ``CHIPFIST_SHARD_COUNT``
    (discord.py's AutoShardedBot with ``shard_ids``)."""

    def __init__(self, database: str, **options: Any) -> None:  # Any: as ChipfistBot's
        super().__init__(database, **options)
        self._identify_locks: dict[int, asyncio.Lock] = {}
        self._identified_at: dict[int, float] = {}
        self._max_concurrency: int | None = None

    async def launch_shards(self) -> None:
        if self.tables.ownership is not None:
            self.shard_ids = sorted(self._connected)
        if self.shard_ids == []:
            # A standby owns no shard yet: connect none (discord.py would take an empty
            # list as "all of them"); the lease loop connects those it takes over.
            discord_internals.set_no_shards(self, self.shard_count)
            self.gateway = health.STANDBY
            await self._write_health()
            return
        await super().launch_shards()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord's identify rate limit, and no more: one IDENTIFY per
        :data:`IDENTIFY_WINDOW` per bucket ``shard_id % max_concurrency``. discord.py's
        default sleeps 5 s before every IDENTIFY but a process's first, which would add
        5 s to a standby's take-over of a shard however long ago it last identified.
        (The limit is per bot across processes; each process spaces only its own.)"""
        if self._max_concurrency is None:
            try:
                limits = await self.fetch_session_start_limits()
                self._max_concurrency = max(1, limits.max_concurrency)
            except (discord.HTTPException, discord.GatewayNotFound):
                self._max_concurrency = 1
        bucket = (shard_id or 0) % self._max_concurrency
        lock = self._identify_locks.setdefault(bucket, asyncio.Lock())
        loop = asyncio.get_running_loop()
        async with lock:
            last = self._identified_at.get(bucket)
            if last is not None:
                await asyncio.sleep(max(0.0, last + IDENTIFY_WINDOW - loop.time()))
            self._identified_at[bucket] = loop.time()


def make_bot(config: Config, **options: Any) -> ChipfistBot:  # Any: as ChipfistBot's
    """The plain bot, or the sharded one when ``CHIPFIST_SHARD_COUNT`` is set."""
    ids = config.shard_ids()
    if ids is None:
        return ChipfistBot(config.database, settings=config, **options)
    return ShardedChipfistBot(
        config.database, settings=config, shard_ids=ids, shard_count=config.shard_count, **options
    )
