"""The fake Discord itself: aiohttp REST API plus a WebSocket gateway on 127.0.0.1.

An unmodified discord.py client talks to it once ``Route.BASE``,
``DiscordWebSocket.DEFAULT_GATEWAY`` and ``Asset.BASE`` point here (see
:meth:`FakeDiscord.patch`).  Besides answering the bot, the fake plays the
players: tests call :meth:`FakeDiscord.slash`, :meth:`FakeDiscord.click` and
:meth:`FakeDiscord.submit_modal`, then read back what each user can see.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import discord
import yarl
from aiohttp import BodyPartReader, WSMsgType, web

from . import commands as command_limits
from . import limits
from .conditions import FakeConfig, Faults, RateLimiter
from .state import (
    EPHEMERAL,
    JSON,
    Delivery,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeUser,
    audience_includes,
    iter_components,
    pings,
    private,
    shard_of,
    snowflake,
    snowflake_on_shard,
)

if TYPE_CHECKING:
    from discord.types.interactions import InteractionCallback

T = TypeVar("T")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

API_PREFIX = "/api/v10"
ALL_PERMISSIONS = str(discord.Permissions.all().value)
_POSTS = frozenset({"channel_message", "callback", "followup", "followup_after_defer"})
"""Delivery routes that post a message (its mentions notify); the others edit one."""
#: The bot's guild permissions: everything but Administrator, which would override any
#: channel overwrite (as on Discord), so that :meth:`FakeDiscord.revoke` can bite.
BOT_PERMISSIONS = str(discord.Permissions.all().value & ~discord.Permissions.administrator.flag)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
# Python types a Discord client accepts for each option type.
_OPTION_TYPES: dict[int, type | tuple[type, ...]] = {
    3: str,
    4: int,
    5: bool,
    6: FakeUser,
    7: FakeChannel,
    10: (int, float),
}
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
INTENT_GUILD_PRESENCES = 1 << 8
INTENTS_PRIVILEGED = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT
#: Close code for a dropped gateway: not one discord.py gives up on, so it RESUMEs.
GATEWAY_CLOSE_RESUME = 4000
#: Dispatches kept for RESUME replay (Discord keeps a session's recent events).
REPLAY_LIMIT = 50_000
#: Client close codes after which Discord ends the session (no RESUME).
GATEWAY_CLOSE_ENDS_SESSION = (1000, 1001)
#: Close code for an IDENTIFY with a shard id outside its shard count.
GATEWAY_CLOSE_INVALID_SHARD = 4010
#: Events whose guild is the payload's ``id`` (elsewhere it is ``guild_id``).
_GUILD_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")


class FakeDiscordError(Exception):
    """An error response the fake sends back (status + Discord error code)."""

    def __init__(self, status: int, code: int, message: str, body: JSON | None = None) -> None:
        super().__init__(f"{status} ({code}) {message}")
        self.status = status
        self.body = body if body is not None else {"code": code, "message": message}


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py only decodes the body when Content-Type is exactly
    # "application/json"; aiohttp's json_response appends "; charset=utf-8".
    hdrs = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=hdrs)


@dataclass
class _RateLimitRule:
    match: str
    times: int
    retry_after: float


@dataclass(eq=False)
class GatewaySession:
    """One IDENTIFYed gateway session: the connection of one shard (``shard`` of
    ``shard_count``, as the client identified). Its events are numbered per session and
    kept for RESUME, as Discord does; a dropped connection leaves the session resumable,
    a client close with 1000/1001 or an Invalid Session ends it."""

    id: str
    shard: int
    shard_count: int
    intents: int
    ws: web.WebSocketResponse | None
    identified_at: float
    """Loop time of the IDENTIFY."""
    seq: int = 0
    replay: list[tuple[int, str]] = field(default_factory=list)
    ended_at: float | None = None
    """Loop time the session ended (no RESUME possible); None while resumable."""
    events: Counter[str] = field(default_factory=Counter)
    """Dispatches queued on this session, by event name."""

    @property
    def live(self) -> bool:
        """Connected now (events reach the client at once)."""
        return self.ended_at is None and self.ws is not None and not self.ws.closed

    @property
    def resumable(self) -> bool:
        return self.ended_at is None

    def carries(self, guild_id: int | None) -> bool:
        """Whether Discord routes this guild's events here (guild-less ones, like DMs,
        go to shard 0)."""
        if guild_id is None:
            return self.shard == 0
        return shard_of(guild_id, self.shard_count) == self.shard


def _guild_of_event(name: str, payload: Any) -> int | None:
    """The guild a dispatch belongs to (its shard carries it), or None (shard 0)."""
    if not isinstance(payload, dict):
        return None
    raw = payload.get("id") if name in _GUILD_EVENTS else payload.get("guild_id")
    return int(raw) if raw else None


class Patcher(Protocol):
    """What :meth:`FakeDiscord.patch` needs: ``pytest.MonkeyPatch`` is one; the Discord
    benchmark brings its own, so the fake runs without pytest."""

    def setattr(self, target: Any, name: str, value: Any) -> None: ...


class FakeDiscord:
    """An in-process Discord with one guild (more with :meth:`add_guild`, on gateway
    shards), a few channels and members.

    Typical use (see ``fixtures.py`` for the pytest wiring)::

        fake = FakeDiscord()
        await fake.start()
        fake.patch(monkeypatch)
        alice = fake.add_user("alice")
        ...
        record = await fake.slash(alice, "table create", seats=6)
        await fake.wait_for(lambda: fake.channel_messages())
    """

    def __init__(
        self,
        *,
        guild_name: str = "Chipfist Test Guild",
        channel_names: Iterable[str] = ("poker", "lobby"),
        member_names: Iterable[str] = ("alice", "bob", "carol", "dave"),
        bot_name: str = "Chipfist",
        token: str = "fake-token",
        response_timeout: float = 3.0,
        config: FakeConfig | None = None,
        shards: int = 1,
        max_concurrency: int = 1,
    ) -> None:
        if shards < 1 or max_concurrency < 1:
            raise ValueError("shards and max_concurrency are at least 1")
        self.token = token
        #: The shard count ``GET /gateway/bot`` recommends; each session gets the guilds
        #: of the shard it identified for (by its own count, as on Discord).
        self.shard_count = shards
        #: ``session_start_limit.max_concurrency`` (identifies allowed per 5 s).
        self.max_concurrency = max_concurrency
        #: Rate limits and faults (see ``conditions.py``); all off by default.
        self.config = config if config is not None else FakeConfig()
        self.limiter = RateLimiter(self.config)
        self.faults = Faults(self.config)
        #: 429s sent, by kind: "global", "route" (a per-route bucket), "injected"
        #: (:meth:`rate_limit`).
        self.rate_limited_by_kind: Counter[str] = Counter()
        #: 429s from per-route buckets, by bucket name (e.g. "channel-messages").
        self.rate_limited_by_bucket: Counter[str] = Counter()
        #: Every 429 as (loop time, kind, route), e.g. for "429s after the first 5 s".
        self.rate_limit_log: list[tuple[float, str, str]] = []
        #: Requests that count against the global limit (all but the interaction
        #: endpoints: callbacks and the interaction webhook), whether or not rate limits
        #: are on; and the same per route.
        self.global_requests = 0
        self.global_requests_by_route: Counter[str] = Counter()
        #: Every REST request by kind: "global" (counts against the global limit) or
        #: "interaction" (an interaction endpoint, exempt).
        self.requests_by_kind: Counter[str] = Counter()
        #: Whether the bot is a member of the guild (see :meth:`remove_bot`).
        self.bot_in_guild = True
        #: Every gateway session ever identified, oldest first (ended ones included).
        self.sessions: list[GatewaySession] = []
        self._gateway_down_until = 0.0
        self._chaos_task: asyncio.Task[None] | None = None
        self._in_flight = 0
        #: Seconds the bot has to give the first response to an interaction.
        self.response_timeout = response_timeout
        self.app_permissions: str | None = None
        """The bot's own permissions in interactions (decimal string); None: all."""
        self.application_id = snowflake()
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.owner = FakeUser(snowflake(), "owner")
        self.guild_id = snowflake_on_shard(0, shards)
        #: Each server's language where a test set one (``set_guild_locale``).
        self.guild_locales: dict[int, str] = {}
        self.guild_name = guild_name
        #: Every guild the bot is in; the first is ``guild_id`` (see :meth:`add_guild`).
        self.guilds: dict[int, FakeGuild] = {self.guild_id: FakeGuild(self.guild_id, guild_name)}
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.members: list[FakeUser] = [self.bot_user]
        self.channels: dict[int, FakeChannel] = {}
        self._dm_channels: dict[int, FakeChannel] = {}
        for name in channel_names:
            cid = snowflake()
            self.channels[cid] = FakeChannel(cid, name, guild_id=self.guild_id)
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._interactions_by_token: dict[str, FakeInteraction] = {}
        self.modals: list[FakeModal] = []
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        #: Every payload the bot sent, with its audience (for leak guards).
        self.deliveries: list[Delivery] = []
        #: Every request answered with an error: its route, status and error body (a
        #: payload over Discord's limits is a 400 / 50035 here, as on Discord).
        self.refused: list[tuple[str, int, JSON]] = []
        #: Total REST requests received (429s included: they cost a round trip).
        self.request_count = 0
        #: Requests per route template, e.g. ``"POST /channels/{channel_id}/messages"``.
        self.requests_by_route: Counter[str] = Counter()
        #: The same route keys in arrival order (for per-action breakdowns).
        self.request_log: list[str] = []
        #: Routes the fake does not implement (answered 404); should stay empty.
        self.unhandled: list[str] = []
        #: Called with ``(message, route)`` each time a payload is applied to a message
        #: (create, edit, interaction response or follow-up), at the moment the fake holds
        #: it: how a benchmark times what users see without asking the bot.
        self.watchers: list[Callable[[FakeMessage, str], None]] = []
        #: 429 responses sent.
        self.rate_limited = 0
        self._rate_limits: list[_RateLimitRule] = []
        self._sockets: set[web.WebSocketResponse] = set()
        self._changed = asyncio.Condition()
        self._last_request_at = 0.0
        self.identified = asyncio.Event()
        #: Gateway intents the bot identified with (filters MESSAGE_CREATE etc.).
        self.intents = 0
        #: Whether the application may use the privileged intents (members, presences,
        #: message content): switched on in the developer portal. False: an IDENTIFY
        #: asking for one is closed with 4014 Disallowed intent(s), as on Discord.
        self.privileged_intents = True
        #: Seconds an interaction token stays usable for follow-ups (Discord: 15 min).
        self.token_lifetime = 15 * 60.0
        #: A create with ``enforce_nonce`` and a nonce seen in that channel within this
        #: many seconds returns the message the first one made (Discord: "a few minutes").
        self.nonce_window = 120.0
        self._nonces: dict[tuple[int, str], tuple[float, int]] = {}
        #: Creates answered with an earlier message because of their nonce.
        self.nonce_hits = 0
        self._pending: list[tuple[str, JSON]] = []
        self._runner: web.AppRunner | None = None
        self.port = 0
        for name in member_names:
            self.add_user(name)

    # ------------------------------------------------------------------ setup

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        r = app.router
        p = API_PREFIX
        r.add_get("/gateway", self._gateway)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        r.add_get(p + "/gateway", self._get_gateway)
        r.add_get(p + "/gateway/bot", self._get_gateway)
        r.add_get(p + "/users/@me", self._get_me)
        r.add_get(p + "/oauth2/applications/@me", self._get_application)
        r.add_get(p + "/applications/@me", self._get_application)
        r.add_post(p + "/users/@me/channels", self._create_dm)
        r.add_get(p + "/users/{user_id}", self._get_user)
        cmds = p + "/applications/{app_id}/commands"
        gcmds = p + "/applications/{app_id}/guilds/{guild_id}/commands"
        r.add_put(cmds, self._put_commands)
        r.add_get(cmds, self._get_commands)
        r.add_put(gcmds, self._put_commands)
        r.add_get(gcmds, self._get_commands)
        r.add_get(p + "/guilds/{guild_id}/members/{user_id}", self._get_member)
        chan = p + "/channels/{channel_id}"
        r.add_get(chan, self._get_channel)
        r.add_patch(chan, self._edit_channel)
        r.add_delete(chan, self._delete_channel)
        r.add_post(chan + "/threads", self._create_thread)
        r.add_post(chan + "/messages/{message_id}/threads", self._create_thread)
        r.add_put(chan + "/thread-members/{user_id}", self._thread_member)
        r.add_delete(chan + "/thread-members/{user_id}", self._thread_member)
        # Cosmetic endpoints: accepted and counted, nothing to model.
        r.add_post(chan + "/typing", self._no_content)
        r.add_put(chan + "/pins/{message_id}", self._no_content)
        r.add_delete(chan + "/pins/{message_id}", self._no_content)
        r.add_put(chan + "/messages/{message_id}/reactions/{emoji}/@me", self._no_content)
        r.add_delete(chan + "/messages/{message_id}/reactions/{emoji}/@me", self._no_content)
        msgs = p + "/channels/{channel_id}/messages"
        r.add_post(msgs, self._create_message)
        r.add_get(msgs, self._history)
        r.add_get(msgs + "/{message_id}", self._get_message)
        r.add_patch(msgs + "/{message_id}", self._edit_message)
        r.add_delete(msgs + "/{message_id}", self._delete_message)
        r.add_post(p + "/interactions/{interaction_id}/{token}/callback", self._callback)
        hook = p + "/webhooks/{app_id}/{token}"
        r.add_post(hook, self._followup)
        r.add_get(hook + "/messages/{message_id}", self._webhook_get)
        r.add_patch(hook + "/messages/{message_id}", self._webhook_edit)
        r.add_delete(hook + "/messages/{message_id}", self._webhook_delete)
        r.add_route("*", "/{tail:.*}", self._unhandled)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self._start_random_drops()

    async def stop(self) -> None:
        if self._chaos_task is not None:
            self._chaos_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._chaos_task
            self._chaos_task = None
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def patch(self, monkeypatch: Patcher) -> None:
        """Point discord.py at this fake; ``monkeypatch`` restores it afterwards."""
        monkeypatch.setattr(discord.http.Route, "BASE", self.api_base)
        monkeypatch.setattr(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(self.gateway_url)
        )
        monkeypatch.setattr(discord.asset.Asset, "BASE", self.base_url + "/cdn")

    @staticmethod
    def client_options() -> dict[str, Any]:
        """Keyword arguments a test bot should be built with (fast READY)."""
        return {"guild_ready_timeout": 0.05, "chunk_guilds_at_startup": False}

    # ------------------------------------------------------------ world setup

    def add_user(self, name: str, *, member: bool = True) -> FakeUser:
        """Create a user (a guild member unless ``member=False``)."""
        user = FakeUser(snowflake(), name)
        self.users[user.id] = user
        if member:
            self.members.append(user)
            if self.identified.is_set() and self.intents & INTENT_GUILD_MEMBERS:
                # Sent ahead of the next event so the bot's member cache stays right.
                payload = {**user.member_payload(), "guild_id": str(self.guild_id)}
                self._pending.append(("GUILD_MEMBER_ADD", payload))
        return user

    async def add_guild(
        self, name: str, *, shard: int | None = None, channels: Iterable[str] = ("poker",)
    ) -> FakeGuild:
        """The bot joins another guild (on ``shard`` of :attr:`shard_count` if given),
        with text ``channels``; every user is a member. GUILD_CREATE goes to the
        sessions of its shard, as when the bot is invited."""
        if shard is not None and not 0 <= shard < self.shard_count:
            raise ValueError(f"shard {shard} of {self.shard_count} does not exist")
        gid = snowflake() if shard is None else snowflake_on_shard(shard, self.shard_count)
        guild = self.guilds[gid] = FakeGuild(gid, name)
        for channel_name in channels:
            cid = snowflake()
            self.channels[cid] = FakeChannel(cid, channel_name, guild_id=gid)
        if self.sessions:
            await self.dispatch("GUILD_CREATE", self._guild_payload(gid))
        return guild

    def guild_locale(self, guild_id: int | None) -> str:
        """The server's language (its community locale): every interaction in it
        carries it as ``guild_locale``; a DM carries none."""
        return self.guild_locales.get(guild_id or self.guild_id, "en-US")

    def set_guild_locale(self, code: str, guild_id: int | None = None) -> None:
        self.guild_locales[guild_id or self.guild_id] = code

    def guild_channels(self, guild: FakeGuild | int) -> list[FakeChannel]:
        """The guild's text channels (no threads), in creation order."""
        gid = guild if isinstance(guild, int) else guild.id
        return [
            c
            for c in self.channels.values()
            if c.guild_id == gid and not c.is_thread and not c.is_dm and not c.deleted
        ]

    def live_sessions(self, shard: int | None = None) -> list[GatewaySession]:
        """Connected gateway sessions (of ``shard`` if given)."""
        return [s for s in self.sessions if s.live and (shard is None or s.shard == shard)]

    def failed_interactions(self) -> list[FakeInteraction]:
        """Interactions a player saw fail ("This interaction failed"): unanswered, and
        either queued on no session (their shard had none) or past their 3 s window."""
        now = asyncio.get_running_loop().time()
        return [
            r
            for r in self.interactions.values()
            if not r.acknowledged
            and (r.sessions == 0 or now - r.created_at > self.response_timeout)
        ]

    def user(self, name: str) -> FakeUser:
        """Look a user up by name."""
        for user in self.users.values():
            if user.name == name:
                return user
        raise LookupError(f"no user named {name!r}")

    @property
    def channel(self) -> FakeChannel:
        """The first guild text channel (the default for interactions)."""
        return next(c for c in self.channels.values() if not c.is_dm and not c.is_thread)

    def channel_named(self, name: str) -> FakeChannel:
        for ch in self.channels.values():
            if ch.name == name and not ch.is_dm:
                return ch
        raise LookupError(f"no channel named {name!r}")

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user`` (created on demand, like Discord)."""
        ch = self._dm_channels.get(user.id)
        if ch is None:
            ch = FakeChannel(snowflake(), f"dm-{user.name}", recipient=user)
            self._dm_channels[user.id] = ch
            self.channels[ch.id] = ch
        return ch

    def close_dms(self, user: FakeUser, closed: bool = True) -> None:
        """Make DMs to ``user`` fail with 403 / 50007 (privacy settings)."""
        user.dms_closed = closed

    def rate_limit(self, match: str = "", *, times: int = 1, retry_after: float = 0.05) -> None:
        """Answer the next ``times`` requests whose ``"METHOD /path"`` contains
        ``match`` with a (non-global) 429."""
        self._rate_limits.append(_RateLimitRule(match, times, retry_after))

    @contextlib.contextmanager
    def counting(self) -> Iterator[Counter[str]]:
        """Count the requests made inside a ``with`` block, per route::

        with fake.counting() as used:
            await fake.click(alice, table, "call")
            await fake.wait_idle()
        assert sum(used.values()) <= 3
        """
        start = len(self.request_log)
        used: Counter[str] = Counter()
        try:
            yield used
        finally:
            used.update(self.request_log[start:])

    def reset_counts(self) -> None:
        self.request_count = 0
        self.requests_by_route.clear()
        self.request_log.clear()
        self.rate_limited = 0
        self.rate_limited_by_kind.clear()
        self.rate_limited_by_bucket.clear()
        self.rate_limit_log.clear()
        self.global_requests = 0
        self.global_requests_by_route.clear()
        self.requests_by_kind.clear()
        self.faults.injected.clear()

    # ------------------------------------------------- conditions and faults

    def configure(self, config: FakeConfig) -> None:
        """Switch to ``config`` (rate-limit windows and fault draws start afresh)."""
        self.config = config
        self.limiter = RateLimiter(config)
        self.faults = Faults(config)
        self._start_random_drops()

    def expire_interaction(self, record: FakeInteraction, *, age: float | None = None) -> None:
        """Age ``record`` by ``age`` seconds (default: past its 15-minute token), so
        follow-ups and edits answer 401 / 50027 Invalid Webhook Token as on Discord."""
        record.created_at -= self.token_lifetime + 1.0 if age is None else age

    @property
    def gateway_connected(self) -> bool:
        return any(s.live for s in self.sessions)

    def _sessions_of(self, shard: int | None) -> list[GatewaySession]:
        return [s for s in self.sessions if s.resumable and (shard is None or s.shard == shard)]

    async def drop_gateway(self, *, outage: float = 0.0, shard: int | None = None) -> None:
        """Drop the bot's gateway connection (close code 4000): discord.py reconnects
        and RESUMEs; the fake replays every dispatch it missed, then sends RESUMED.

        For ``outage`` seconds new connections are held before HELLO, so events that
        happen meanwhile (clicks, moderation) are missed and must come by replay."""
        self.faults.injected["gateway_drop"] += 1
        loop = asyncio.get_running_loop()
        self._gateway_down_until = max(self._gateway_down_until, loop.time() + outage)
        for session in self._sessions_of(shard):
            ws, session.ws = session.ws, None
            if ws is not None:
                self._sockets.discard(ws)
                await ws.close(code=GATEWAY_CLOSE_RESUME, message=b"fake: connection dropped")

    async def invalidate_session(self, *, shard: int | None = None) -> None:
        """Send op 9 (Invalid Session, not resumable): discord.py re-IDENTIFYs and gets a
        fresh READY + GUILD_CREATE; events of the old session are never replayed."""
        now = asyncio.get_running_loop().time()
        for session in self._sessions_of(shard):
            session.ended_at = now
            if session.ws is not None and not session.ws.closed:
                await session.ws.send_str(json.dumps({"op": 9, "d": False}))

    async def reconnect_request(self, *, shard: int | None = None) -> None:
        """Send op 7 (Reconnect), as Discord does before moving a session."""
        for session in self._sessions_of(shard):
            if session.live:
                assert session.ws is not None
                await session.ws.send_str(json.dumps({"op": 7, "d": None}))

    def _start_random_drops(self) -> None:
        running = self._chaos_task is not None and not self._chaos_task.done()
        if self._runner is not None and self.config.gateway_drops_per_minute > 0 and not running:
            self._chaos_task = asyncio.create_task(self._random_gateway_drops())

    async def _random_gateway_drops(self) -> None:
        """Drop the gateway at seeded random times while the config asks for it."""
        while True:
            wait = self.faults.next_gateway_drop()
            if wait is None:
                return
            await asyncio.sleep(wait)
            if self.gateway_connected and self.config.gateway_drops_per_minute > 0:
                await self.drop_gateway(outage=self.faults.outage())

    # --------------------------------------------------------- moderation

    def bot_denied(self, channel: FakeChannel) -> int:
        """Permission bits denied to the bot in ``channel`` (threads: their parent's)."""
        ch = channel.parent if channel.parent is not None else channel
        deny = 0
        for ow in ch.overwrites:
            if ow.get("type") == 1 and int(ow["id"]) == self.bot_user.id:
                deny |= int(ow.get("deny") or 0)
        return deny

    def bot_permissions(self, channel: FakeChannel) -> int:
        """The bot's effective permissions in ``channel`` (what interactions report)."""
        base = int(self.app_permissions or BOT_PERMISSIONS)
        if channel.is_dm:
            return base
        return base & ~self.bot_denied(channel)

    async def revoke(self, channel: FakeChannel, *permissions: str) -> None:
        """A moderator denies the bot ``permissions`` (discord.Permissions names, e.g.
        ``"attach_files"``, ``"send_messages"``) in ``channel`` with a member overwrite;
        CHANNEL_UPDATE is dispatched.  Later requests that need them answer 403 / 50013
        (50001 Missing Access for ``view_channel``): channel sends (Send Messages, or
        Send Messages in Threads in a thread) and uploads in sends or edits (Attach
        Files).  Editing its own message needs neither.  Interaction responses and
        follow-ups are not checked (they go through the interaction's webhook);
        interactions report the reduced ``app_permissions``."""
        await self._set_overwrite(channel, permissions, deny=True)

    async def grant(self, channel: FakeChannel, *permissions: str) -> None:
        """Undo :meth:`revoke` for ``permissions``; CHANNEL_UPDATE is dispatched."""
        await self._set_overwrite(channel, permissions, deny=False)

    async def _set_overwrite(
        self, channel: FakeChannel, permissions: Iterable[str], *, deny: bool
    ) -> None:
        if channel.is_thread or channel.is_dm:
            raise ValueError("permission overwrites live on guild channels (threads inherit)")
        bits = discord.Permissions(**dict.fromkeys(permissions, True)).value
        current = self.bot_denied(channel)
        new = current | bits if deny else current & ~bits
        channel.overwrites = [
            ow
            for ow in channel.overwrites
            if not (ow.get("type") == 1 and int(ow["id"]) == self.bot_user.id)
        ]
        if new:
            channel.overwrites.append(
                {"id": str(self.bot_user.id), "type": 1, "allow": "0", "deny": str(new)}
            )
        await self.dispatch("CHANNEL_UPDATE", channel.payload())

    async def delete_channel(self, channel: FakeChannel) -> None:
        """A moderator deletes ``channel`` (or a thread): CHANNEL_DELETE (THREAD_DELETE)
        is dispatched and later requests there answer 404 / 10003 Unknown Channel.
        Threads of a deleted channel go with it; Discord sends no THREAD_DELETE for
        them (clients drop a deleted channel's threads themselves)."""
        channel.deleted = True
        if channel.is_thread:
            assert channel.parent is not None
            data: JSON = {
                "id": str(channel.id),
                "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent.id),
                "type": 12 if channel.private_thread else 11,
            }
            await self.dispatch("THREAD_DELETE", data)
            return
        for other in self.channels.values():
            if other.parent is channel:
                other.deleted = True
        await self.dispatch("CHANNEL_DELETE", channel.payload())

    async def remove_member(self, user: FakeUser) -> None:
        """``user`` leaves the guild (or is kicked).  Discord sends GUILD_MEMBER_REMOVE
        only with the privileged GUILD_MEMBERS intent, and thread-member updates about
        other users likewise: a bot with the guilds intent alone is told nothing.
        Afterwards the user cannot use the bot in the guild, GET member answers 404 /
        10007, and DMs answer 403 / 50007 (no shared guild)."""
        if user not in self.members:
            raise LookupError(f"{user.name} is not a member")
        self.members.remove(user)
        threads_left = []
        for ch in self.channels.values():
            if ch.is_thread and user.id in ch.thread_members:
                ch.thread_members.discard(user.id)
                threads_left.append(ch)
        if not (self.intents & INTENT_GUILD_MEMBERS):
            return
        gid = str(self.guild_id)
        await self.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": gid, "user": user.payload()})
        for ch in threads_left:
            update = {
                "id": str(ch.id),
                "guild_id": gid,
                "member_count": len(ch.thread_members),
                "removed_member_ids": [str(user.id)],
            }
            await self.dispatch("THREAD_MEMBERS_UPDATE", update)

    async def remove_bot(self) -> None:
        """The bot is kicked from the guild: GUILD_DELETE (no ``unavailable`` field:
        removed, not an outage).  Later requests on the guild's channels and members
        answer 403 / 50001 Missing Access; no one can use the bot there."""
        self.bot_in_guild = False
        await self.dispatch("GUILD_DELETE", {"id": str(self.guild_id)})

    async def readd_bot(self) -> None:
        """The bot is invited back: GUILD_CREATE with the guild as it is now."""
        self.bot_in_guild = True
        await self.dispatch("GUILD_CREATE", self._guild_payload())

    # ------------------------------------------------------------ inspection

    def message(self, message_id: int) -> FakeMessage:
        return self.messages[message_id]

    def channel_messages(self, channel: FakeChannel | None = None) -> list[FakeMessage]:
        """Messages everyone in the channel sees, oldest first (no ephemerals)."""
        ch = channel or self.channel
        return [
            m
            for m in self.messages.values()
            if m.channel.id == ch.id and not m.deleted and not m.ephemeral and not m.loading
        ]

    def last_message(self, channel: FakeChannel | None = None) -> FakeMessage | None:
        msgs = self.channel_messages(channel)
        return msgs[-1] if msgs else None

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        """Messages in the bot's DM channel with ``user``."""
        ch = self._dm_channels.get(user.id)
        return [] if ch is None else self.channel_messages(ch)

    def ephemerals(self, user: FakeUser) -> list[FakeMessage]:
        """Ephemeral messages delivered to ``user`` (not deleted), oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.ephemeral_for == user.id and not m.deleted and not m.loading
        ]

    def modal_for(self, user: FakeUser) -> FakeModal | None:
        """The last modal the bot opened for ``user``."""
        for modal in reversed(self.modals):
            if modal.user.id == user.id:
                return modal
        return None

    def visible_to(self, user: FakeUser | int) -> list[Delivery]:
        """Every delivery ``user`` can see: public ones plus their private ones."""
        uid = user if isinstance(user, int) else user.id
        return [d for d in self.deliveries if audience_includes(d.audience, uid)]

    @property
    def commands(self) -> list[JSON]:
        """All synced commands (global first, then guild)."""
        out = list(self.global_commands)
        for cmds in self.guild_commands.values():
            out.extend(cmds)
        return out

    def command(self, name: str) -> JSON:
        """A synced top-level command by name (guild commands win)."""
        for cmd in [*self.guild_commands.get(self.guild_id, []), *self.global_commands]:
            if cmd["name"] == name:
                return cmd
        synced = sorted(c["name"] for c in self.commands)
        raise LookupError(f"command {name!r} not synced (synced: {synced})")

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 3.0) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        Re-checked after every request the bot makes and every 20 ms.
        """
        async with self._changed:
            result = predicate()
            if result:
                return result
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while True:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise TimeoutError(f"condition not met within {timeout}s")
                # Wake on every request, but also poll: predicates may depend on
                # bot-side state that changes without any REST call.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), min(remaining, 0.02))
                result = predicate()
                if result:
                    return result

    async def wait_idle(self, quiet: float = 0.1, timeout: float = 5.0) -> None:
        """Wait until the bot has made no request for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            idle_for = loop.time() - self._last_request_at
            if idle_for >= quiet and not self._in_flight:
                return
            await asyncio.sleep(max(quiet - idle_for, 0.01))
        raise TimeoutError(f"bot still busy after {timeout}s")

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # --------------------------------------------------------- player actions

    async def slash(
        self,
        user: FakeUser,
        command: str,
        *,
        channel: FakeChannel | None = None,
        options: Mapping[str, Any] | None = None,
        wait: bool = True,
        timeout: float | None = None,
        late: bool = False,
        **kwargs: Any,
    ) -> FakeInteraction:
        """Invoke ``/command`` (``"table create"`` for sub-commands) as ``user``.

        Options come as keyword arguments, or in ``options`` for names that are
        not Python identifiers or clash with this method's own parameters.
        Values may be plain values, :class:`FakeUser` (user options) or
        :class:`FakeChannel` (channel options); like the Discord client, missing
        required options, unknown options and wrong types are refused here.
        With ``wait`` this returns once the bot acknowledged the interaction
        (or was refused for it).  ``late=True``: the interaction reaches the bot after
        its 3 s window, so its callback answers 404 / 10062 Unknown interaction.
        """
        data = self._command_data(command, {**(options or {}), **kwargs}, focused=None)
        return await self._interact(
            user,
            channel or self.channel,
            2,
            data,
            name=command,
            wait=wait,
            timeout=timeout,
            late=late,
        )

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        focused: str,
        *,
        channel: FakeChannel | None = None,
        options: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> list[JSON]:
        """Type into option ``focused`` of ``/command``; returns the offered choices."""
        merged = {**(options or {}), **kwargs}
        merged.setdefault(focused, "")
        data = self._command_data(command, merged, focused=focused)
        record = await self._interact(
            user, channel or self.channel, 4, data, name=command, wait=True, timeout=timeout
        )
        return list(record.choices or [])

    def _command_data(
        self, command: str, values: Mapping[str, Any], *, focused: str | None
    ) -> JSON:
        parts = command.split()
        top = self.command(parts[0])
        node = top
        for part in parts[1:]:
            sub = [o for o in node.get("options", []) if o["name"] == part and o["type"] in (1, 2)]
            if not sub:
                raise LookupError(f"/{command}: no sub-command {part!r}")
            node = sub[0]
        if any(o["type"] in (1, 2) for o in node.get("options", [])):
            raise LookupError(f"/{command} is a group; name a sub-command")
        resolved: JSON = {}
        leaf_options: list[JSON] = []
        defs = {o["name"]: o for o in node.get("options", [])}
        missing = [n for n, o in defs.items() if o.get("required") and n not in values]
        if missing and focused is None:
            raise TypeError(f"/{command}: missing required options {missing}")
        for name, value in values.items():
            if name not in defs:
                raise LookupError(f"/{command} has no option {name!r} (has {sorted(defs)})")
            otype = defs[name]["type"]
            if name == focused:
                leaf_options.append({"name": name, "type": otype, "value": value, "focused": True})
                continue
            expected = _OPTION_TYPES.get(otype)
            if expected is not None and (
                not isinstance(value, expected) or (otype != 5 and isinstance(value, bool))
            ):
                raise TypeError(f"/{command} option {name!r}: {value!r} is not option type {otype}")
            choices = defs[name].get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise ValueError(f"/{command} option {name!r}: {value!r} not among the choices")
            if isinstance(value, FakeUser):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                member = dict(value.member_payload(permissions=ALL_PERMISSIONS))
                del member["user"]
                resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            elif isinstance(value, FakeChannel):
                chan = dict(value.payload())
                chan["permissions"] = ALL_PERMISSIONS
                resolved.setdefault("channels", {})[str(value.id)] = chan
                value = str(value.id)
            leaf_options.append({"name": name, "type": otype, "value": value})
        opts = leaf_options
        for depth in range(len(parts) - 1, 0, -1):
            otype = 1 if depth == len(parts) - 1 else 2
            opts = [{"name": parts[depth], "type": otype, "options": opts}]
        data: JSON = {"id": top["id"], "name": top["name"], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if top.get("guild_id"):
            data["guild_id"] = top["guild_id"]
        return data

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        *,
        values: list[str] | None = None,
        wait: bool = True,
        timeout: float | None = None,
        stale: bool = False,
        late: bool = False,
    ) -> FakeInteraction:
        """Press the button (or pick ``values`` in the select) ``custom_id`` on ``message``.

        ``stale=True`` presses a button the message no longer has, as a client still
        showing an older version of the message can (Discord forwards such clicks).
        ``late=True``: the click reaches the bot after its 3 s window (10062)."""
        msg = message if isinstance(message, FakeMessage) else self.messages[message]
        msg = self.messages.get(msg.id, msg)
        if msg.deleted:
            raise LookupError(f"message {msg.id} was deleted")
        if msg.ephemeral_for is not None and msg.ephemeral_for != user.id:
            raise PermissionError(f"{user.name} cannot see ephemeral message {msg.id}")
        comps = [c for c in iter_components(msg.components) if c.get("custom_id") == custom_id]
        if not comps and stale:
            comps = [{"type": 2, "custom_id": custom_id}]
        if not comps:
            raise LookupError(f"no component {custom_id!r} on message {msg.id}: {msg.custom_ids()}")
        comp = comps[0]
        if comp.get("disabled"):
            raise PermissionError(f"component {custom_id!r} is disabled")
        data: JSON = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] != 2:
            data["values"] = list(values or [])
        elif values is not None:
            raise TypeError("values only make sense for select menus")
        return await self._interact(
            user,
            msg.channel,
            3,
            data,
            message=msg,
            custom_id=custom_id,
            wait=wait,
            timeout=timeout,
            late=late,
        )

    async def submit_modal(
        self,
        user: FakeUser,
        modal: FakeModal | FakeInteraction | None,
        values: dict[str, str],
        *,
        wait: bool = True,
        timeout: float | None = None,
    ) -> FakeInteraction:
        """Submit ``modal`` (or the one opened by an interaction, or the user's last)."""
        if isinstance(modal, FakeInteraction):
            if modal.modal is None:
                raise LookupError(f"interaction {modal.id} opened no modal")
            modal = modal.modal
        if modal is None:
            modal = self.modal_for(user)
            if modal is None:
                raise LookupError(f"no modal open for {user.name}")
        unknown = set(values) - set(modal.field_ids())
        if unknown:
            raise LookupError(f"modal has no fields {sorted(unknown)} (has {modal.field_ids()})")

        def answer(comp: JSON) -> JSON:
            if comp.get("type") == 4:
                out: JSON = {"type": 4, "custom_id": comp["custom_id"]}
                out["value"] = values.get(comp["custom_id"], comp.get("value") or "")
                return out
            if comp.get("type") == 1:
                return {"type": 1, "components": [answer(c) for c in comp.get("components", [])]}
            if comp.get("type") == 18:
                return {"type": 18, "id": comp.get("id", 0), "component": answer(comp["component"])}
            if comp.get("type") == 10:
                return {"type": 10, "id": comp.get("id", 0), "content": comp.get("content", "")}
            return {k: v for k, v in comp.items() if k in ("type", "id", "custom_id")} | {
                "values": []
            }

        data: JSON = {
            "custom_id": modal.custom_id,
            "components": [answer(c) for c in modal.components],
        }
        origin = modal.interaction
        return await self._interact(
            user,
            origin.channel,
            5,
            data,
            message=origin.message,
            custom_id=modal.custom_id,
            wait=wait,
            timeout=timeout,
        )

    async def say(
        self, user: FakeUser, content: str, channel: FakeChannel | None = None
    ) -> FakeMessage:
        """``user`` types ``content`` in a channel (dispatches MESSAGE_CREATE)."""
        ch = channel or self.channel
        msg = FakeMessage(snowflake(), ch, user, content=content, audience=ch.audience)
        self.messages[msg.id] = msg
        await self._dispatch_message_create(msg)
        return msg

    async def _interact(
        self,
        user: FakeUser,
        channel: FakeChannel,
        itype: int,
        data: JSON,
        *,
        name: str = "",
        custom_id: str = "",
        message: FakeMessage | None = None,
        wait: bool,
        timeout: float | None,
        late: bool = False,
    ) -> FakeInteraction:
        if not any(s.resumable for s in self.sessions):
            # No session on any shard: a test bug (or the test's point), said loudly.
            # One shard without a session among others is a failed click instead.
            raise RuntimeError("no bot is connected to the gateway")
        if channel.deleted:
            raise LookupError(f"channel {channel.name} was deleted")
        if not channel.is_dm and (not self.bot_in_guild or user not in self.members):
            # Discord offers no bot commands or components where the bot or user isn't.
            raise PermissionError(f"{user.name} cannot use the bot in {channel.name}")
        if itype in (2, 4):
            self._offered(user, channel, data)
        loop = asyncio.get_running_loop()
        created = loop.time()
        if late or self.faults.late_interaction():
            # Delivered after its window: Discord already gave up on it.
            created -= self.response_timeout + 0.5
        record = FakeInteraction(
            id=snowflake(),
            token="itok-" + secrets.token_hex(12),
            type=itype,
            user=user,
            channel=channel,
            created_at=created,
            name=name,
            custom_id=custom_id,
            message=message,
        )
        self.interactions[record.id] = record
        self._interactions_by_token[record.token] = record
        payload: JSON = {
            "id": str(record.id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": record.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": {**channel.payload(), "permissions": ALL_PERMISSIONS},
            "app_permissions": str(self.bot_permissions(channel)),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if channel.is_dm:
            payload["user"] = user.payload()
            payload["context"] = 1  # BOT_DM
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        else:
            gid = str(channel.guild_id)
            payload["guild_id"] = gid
            glocale = self.guild_locale(channel.guild_id)
            payload["guild"] = {"id": gid, "locale": glocale, "features": []}
            payload["guild_locale"] = glocale
            payload["member"] = user.member_payload(permissions=user.permissions or ALL_PERMISSIONS)
            payload["context"] = 0  # GUILD
            payload["authorizing_integration_owners"] = {"0": gid}
        if message is not None:
            payload["message"] = message.payload()
        # Only the connection(s) of the guild's shard see it; with none, no process
        # does, and the player sees "This interaction failed" (nothing to wait for).
        record.sessions, sent = await self._dispatch_counted("INTERACTION_CREATE", payload)
        record.delivered = sent > 0
        if wait and record.sessions:
            limit = timeout if timeout is not None else self.response_timeout + 2.0
            await self.wait_for(
                lambda: record.acknowledged or record.response_error is not None, limit
            )
        return record

    def _offered(self, user: FakeUser, channel: FakeChannel, data: JSON) -> None:
        """Discord offers a command only where its synced payload allows it: a guild
        command only in its guild, a global one in a DM only if its ``contexts`` include
        BOT_DM (1; no ``contexts``: every context, unless ``dm_permission`` is false);
        and only to a member holding its ``default_member_permissions`` (or
        Administrator). Anywhere else the client shows no such command: a test asking
        for one is refused here (PermissionError), and the bot never hears of it."""
        cmd = next((c for c in self.commands if c["id"] == data.get("id")), None)
        if cmd is None:
            return
        name = cmd["name"]
        if channel.is_dm:
            contexts = cmd.get("contexts")
            if cmd.get("guild_id") or (
                1 not in contexts if contexts is not None else cmd.get("dm_permission") is False
            ):
                raise PermissionError(f"/{name} is not offered in direct messages")
            return
        needed = cmd.get("default_member_permissions")
        if needed is not None and user.permissions is not None:
            have = int(user.permissions)
            if not have & discord.Permissions.administrator.flag and int(needed) & ~have:
                raise PermissionError(f"/{name} needs permissions {needed} that {user.name} lacks")

    # ---------------------------------------------------------------- gateway

    async def dispatch(self, event: str, data: Any) -> int:
        """Send a DISPATCH event to the gateway sessions of its guild's shard (a
        guild-less event, like a DM's, to shard 0's), as Discord routes them. Returns on
        how many live connections it went out.

        Every dispatch is numbered per session and kept, as Discord keeps a session's
        events: one sent while a session is disconnected is delivered when it RESUMEs."""
        return (await self._dispatch_counted(event, data))[1]

    async def _dispatch_counted(self, event: str, data: Any) -> tuple[int, int]:
        """(sessions queued on, live connections sent on) for ``event``."""
        pending, self._pending = self._pending, []
        counts = (0, 0)
        for name, payload in [*pending, (event, data)]:
            guild = _guild_of_event(name, payload)
            targets = [s for s in self.sessions if s.resumable and s.carries(guild)]
            sent = 0
            for session in targets:
                sent += await self._send(session, name, payload)
            counts = (len(targets), sent)
        return counts

    async def _send(self, session: GatewaySession, name: str, payload: Any) -> int:
        """Queue one dispatch on ``session`` (kept for RESUME) and send it if connected;
        returns 1 if it went out."""
        session.seq += 1
        session.events[name] += 1
        frame = json.dumps({"op": 0, "t": name, "s": session.seq, "d": payload})
        session.replay.append((session.seq, frame))
        if len(session.replay) > REPLAY_LIMIT:
            del session.replay[: len(session.replay) - REPLAY_LIMIT]
        ws = session.ws
        if ws is None or ws.closed:
            return 0
        with contextlib.suppress(ConnectionResetError):
            await ws.send_str(frame)
        return 1

    def _guild_payload(self, guild_id: int | None = None) -> JSON:
        gid = self.guild_id if guild_id is None else guild_id
        text_channels = [
            c
            for c in self.channels.values()
            if c.guild_id == gid and not c.is_thread and not c.deleted
        ]
        threads = [
            c.payload()
            for c in self.channels.values()
            if c.is_thread and not c.deleted and c.guild_id == gid
        ]
        return {
            "id": str(gid),
            "name": self.guilds[gid].name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "roles": [
                {
                    "id": str(gid),
                    "name": "@everyone",
                    "permissions": BOT_PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": len(self.members),
            "members": [m.member_payload() for m in self.members],
            "channels": [c.payload(i) for i, c in enumerate(text_channels)],
            "threads": threads,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "afk_timeout": 300,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "preferred_locale": self.guild_locale(gid),
        }

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        loop = asyncio.get_running_loop()
        outage = self._gateway_down_until - loop.time()
        if outage > 0:
            # The gateway is "down": hold the connection silent until it is back.
            await asyncio.sleep(outage)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        session: GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == 1:  # heartbeat
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:  # identify
                    session = await self._identify(ws, d or {})
                    if session is None:
                        break
                elif op == 6:  # resume: replay what the session missed, then RESUMED
                    session = await self._resume(ws, d or {})
                elif op == 8 and session is not None:  # request guild members
                    chunk = {
                        "guild_id": str(d.get("guild_id") or self.guild_id),
                        "members": [m.member_payload() for m in self.members],
                        "chunk_index": 0,
                        "chunk_count": 1,
                        "nonce": d.get("nonce"),
                    }
                    await self._send(session, "GUILD_MEMBERS_CHUNK", chunk)
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if ws.close_code in GATEWAY_CLOSE_ENDS_SESSION:
                    session.ended_at = loop.time()  # a clean close: Discord ends it
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: JSON) -> GatewaySession | None:
        """IDENTIFY: a new session for the shard asked for (``[0, 1]`` if none), whose
        READY and GUILD_CREATEs carry only that shard's guilds."""
        if d.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard_id, count = (int(x) for x in (d.get("shard") or [0, 1]))
        if count < 1 or not 0 <= shard_id < count:
            await ws.close(code=GATEWAY_CLOSE_INVALID_SHARD, message=b"Invalid shard.")
            return None
        wanted = int(d.get("intents", 0))
        if wanted & INTENTS_PRIVILEGED and not self.privileged_intents:
            # As Discord: a privileged intent not switched on in the portal.
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        self.intents = wanted
        session = GatewaySession(
            id=secrets.token_hex(16),
            shard=shard_id,
            shard_count=count,
            intents=self.intents,
            ws=ws,
            identified_at=asyncio.get_running_loop().time(),
        )
        self.sessions.append(session)
        self._sockets.add(ws)
        mine = [
            g
            for g in self.guilds
            if session.carries(g) and (g != self.guild_id or self.bot_in_guild)
        ]
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "flags": 0},
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "shard": [shard_id, count],
            "application": {"id": str(self.application_id), "flags": 0},
        }
        await self._send(session, "READY", ready)
        for gid in mine:
            await self._send(session, "GUILD_CREATE", self._guild_payload(gid))
        self.identified.set()
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: JSON) -> GatewaySession | None:
        """RESUME as Discord answers it: a known session gets every dispatch after the
        client's ``seq`` in order, then RESUMED; anything else gets op 9 (Invalid
        Session, not resumable), after which discord.py IDENTIFYs afresh."""
        session = next(
            (s for s in self.sessions if s.id == d.get("session_id") and s.resumable), None
        )
        if d.get("token") != self.token or session is None:
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        seq = int(d.get("seq") or 0)
        if session.replay and seq < session.replay[0][0] - 1:
            await ws.send_str(json.dumps({"op": 9, "d": False}))  # too far behind
            return None
        old, session.ws = session.ws, None
        if old is not None and old is not ws:
            self._sockets.discard(old)
            await old.close(code=GATEWAY_CLOSE_RESUME, message=b"fake: resumed elsewhere")
        sent = seq
        while True:
            # Loop until caught up: events dispatched while replaying are sent too.
            missed = [(s, frame) for s, frame in session.replay if s > sent]
            if not missed:
                break
            for s, frame in missed:
                await ws.send_str(frame)
                sent = s
        session.ws = ws
        self._sockets.add(ws)
        self.faults.injected["resumed"] += 1
        await self._send(session, "RESUMED", {})
        return session

    async def _dispatch_message_create(self, msg: FakeMessage) -> None:
        """MESSAGE_CREATE, filtered by the bot's intents as Discord does."""
        if msg.ephemeral:
            return
        needed = INTENT_DIRECT_MESSAGES if msg.channel.is_dm else INTENT_GUILD_MESSAGES
        if not self.intents & needed:
            return
        data = msg.payload()
        if msg.channel.guild_id is not None and not msg.author.bot:
            data["member"] = {"roles": [], "joined_at": "2024-01-01T00:00:00+00:00"}
        own = msg.author.id == self.bot_user.id
        mentioned = self.bot_user.mention in msg.content
        if not (self.intents & INTENT_MESSAGE_CONTENT or own or mentioned or msg.channel.is_dm):
            # Without the privileged intent Discord blanks the content fields.
            data.update(content="", embeds=[], attachments=[], components=[])
        await self.dispatch("MESSAGE_CREATE", data)

    # ------------------------------------------------------------ REST plumbing

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway" or request.path.startswith("/attachments/"):
            return await handler(request)
        loop = asyncio.get_running_loop()
        self._last_request_at = loop.time()
        self._in_flight += 1
        try:
            return await self._admit(request, handler)
        finally:
            self._in_flight -= 1
            self._last_request_at = loop.time()

    async def _admit(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Count, rate-limit, fault and finally handle one REST request."""
        loop = asyncio.get_running_loop()
        resource = request.match_info.route.resource
        template = resource.canonical if resource is not None else request.path
        key = f"{request.method} {template.removeprefix(API_PREFIX)}"
        self.request_count += 1
        self.requests_by_route[key] += 1
        self.request_log.append(key)
        actual = f"{request.method} {request.path.removeprefix(API_PREFIX)}"
        config = self.config
        if key not in config.global_exempt:
            self.global_requests += 1
            self.global_requests_by_route[key] += 1
            self.requests_by_kind["global"] += 1
        else:
            self.requests_by_kind["interaction"] += 1
        for rule in self._rate_limits:
            if rule.times > 0 and rule.match in actual:
                rule.times -= 1
                self.rate_limited += 1
                self.rate_limited_by_kind["injected"] += 1
                self.rate_limit_log.append((loop.time(), "injected", key))
                await request.read()
                return self._too_many_requests(rule.retry_after)
        delay = self.faults.latency()
        if delay > 0:
            await asyncio.sleep(delay)
        limit_headers: dict[str, str] = {}
        if config.rate_limits:
            verdict = self.limiter.check(key, self._major(request), loop.time())
            if verdict.limited is not None:
                self.rate_limited += 1
                self.rate_limited_by_kind[verdict.limited] += 1
                self.rate_limit_log.append((loop.time(), verdict.limited, key))
                if verdict.limited == "route":
                    self.rate_limited_by_bucket[verdict.headers["X-RateLimit-Bucket"]] += 1
                await request.read()
                self._last_request_at = loop.time()
                return self._too_many_requests(
                    verdict.retry_after, verdict.headers, is_global=verdict.limited == "global"
                )
            limit_headers = verdict.headers
        fault = self.faults.error(key)
        if fault is not None and not fault[1]:
            await request.read()
            self._last_request_at = loop.time()
            return self._server_error(fault[0], limit_headers)
        try:
            if request.headers.get("Authorization") not in (f"Bot {self.token}", None):
                raise FakeDiscordError(401, 0, "401: Unauthorized")
            response = await handler(request)
        except FakeDiscordError as exc:
            self.refused.append((key, exc.status, exc.body))
            response = json_response(exc.body, status=exc.status)
        if fault is not None:
            # The request took effect; only its answer is lost.
            response = self._server_error(fault[0], limit_headers)
        response.headers.update(limit_headers)
        self._last_request_at = loop.time()
        await self._notify()
        return response

    @staticmethod
    def _major(request: web.Request) -> str:
        """The request's major parameter, as Discord scopes per-route limits."""
        info = request.match_info
        for name in ("channel_id", "guild_id"):
            if name in info:
                return f"{name}={info[name]}"
        if "token" in info:
            return f"webhook={info.get('app_id') or info.get('interaction_id')}/{info['token']}"
        return ""

    @staticmethod
    def _server_error(status: int, headers: dict[str, str]) -> web.Response:
        reason = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
        text = reason.get(status, "Server Error")
        body = {"message": f"{status}: {text}", "code": 0}
        return json_response(body, status=status, headers=headers)

    @staticmethod
    def _too_many_requests(
        retry_after: float, headers: dict[str, str] | None = None, *, is_global: bool = False
    ) -> web.Response:
        if headers is None:
            headers = {
                "Retry-After": str(max(1, round(retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(retry_after),
                "X-RateLimit-Bucket": "fakebucket",
                "X-RateLimit-Scope": "user",
            }
        # Without Via discord.py assumes a Cloudflare ban and raises.
        headers = {"Via": "1.1 google", **headers}
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": is_global,
        }
        return json_response(body, status=429, headers=headers)

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[JSON, dict[int, tuple[str, bytes]]]:
        """The JSON payload and uploaded files (by ``files[N]`` index)."""
        files: dict[int, tuple[str, bytes]] = {}
        if request.content_type.startswith("multipart/"):
            payload: JSON = {}
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                elif part.name and part.name.startswith("files["):
                    index = int(part.name[len("files[") : -1])
                    files[index] = (part.filename or f"file{index}", bytes(await part.read()))
            return payload, files
        raw = await request.read()
        if not raw:
            return {}, files
        if request.content_type != "application/json":
            raise FakeDiscordError(400, 50109, "The request body contains invalid JSON.")
        body = json.loads(raw)
        return (body if isinstance(body, dict) else {"_list": body}), files

    def _channel(self, request: web.Request) -> FakeChannel:
        ch = self.channels.get(int(request.match_info["channel_id"]))
        if ch is None or ch.deleted:
            raise FakeDiscordError(404, 10003, "Unknown Channel")
        if not ch.is_dm and (
            not self.bot_in_guild or self.bot_denied(ch) & discord.Permissions.view_channel.flag
        ):
            raise FakeDiscordError(403, 50001, "Missing Access")
        return ch

    def _require(self, ch: FakeChannel, *, send: bool, files: bool) -> None:
        """403 / 50013 when the bot lacks what a send (or an upload) needs in ``ch``."""
        if ch.is_dm:
            return
        denied = self.bot_denied(ch)
        send_flag = (
            discord.Permissions.send_messages_in_threads.flag
            if ch.is_thread
            else discord.Permissions.send_messages.flag
        )
        if (send and denied & send_flag) or (
            files and denied & discord.Permissions.attach_files.flag
        ):
            raise FakeDiscordError(403, 50013, "Missing Permissions")

    def _message_in(self, ch: FakeChannel, request: web.Request) -> FakeMessage:
        msg = self.messages.get(int(request.match_info["message_id"]))
        # Ephemeral messages only exist for their interaction's webhook.
        if msg is None or msg.deleted or msg.ephemeral or msg.loading or msg.channel.id != ch.id:
            raise FakeDiscordError(404, 10008, "Unknown Message")
        return msg

    @staticmethod
    def _validate_new(data: JSON, files: dict[int, tuple[str, bytes]]) -> None:
        """Creation needs something to show, besides passing the limits."""
        FakeDiscord._validate(data)
        shown = ("content", "embeds", "components", "poll", "sticker_ids")
        if not files and not any(data.get(key) for key in shown):
            raise FakeDiscordError(400, 50006, "Cannot send an empty message")

    @staticmethod
    def _validate(data: JSON) -> None:
        allowed = data.get("allowed_mentions") or {}
        for kind in ("users", "roles"):
            if kind in (allowed.get("parse") or ()) and allowed.get(kind):
                # Discord: a type both parsed and listed is mutually exclusive.
                raise FakeDiscordError(
                    400, 50035, f"Invalid Form Body: allowed_mentions parse {kind} and {kind}"
                )
        errors = limits.message_errors(data)
        if errors:
            raise FakeDiscordError(
                400, 50035, "Invalid Form Body", limits.invalid_form_body(errors)
            )

    def _apply(
        self, msg: FakeMessage, data: JSON, files: dict[int, tuple[str, bytes]]
    ) -> list[tuple[str, bytes]]:
        """Apply a create/edit payload to ``msg``; returns the newly uploaded files."""
        if "content" in data:
            msg.content = (data["content"] or "").strip()  # Discord trims a message's text
        if "embeds" in data:
            msg.embeds = list(data["embeds"] or [])
        if "components" in data:
            msg.components = list(data["components"] or [])
        if data.get("flags") is not None:
            # The ephemeral bit is fixed at creation; other flags follow the payload.
            msg.flags = (int(data["flags"]) & ~EPHEMERAL) | (msg.flags & EPHEMERAL)
        new: list[tuple[str, bytes]] = []
        if "attachments" in data or files:
            kept: list[FakeAttachment] = []
            existing = {str(a.id): a for a in msg.attachments}
            wanted = data.get("attachments")
            used: set[int] = set()
            if wanted is None:
                kept = list(msg.attachments)
                wanted = [{"id": i} for i in sorted(files)]
            for entry in wanted:
                key = str(entry.get("id"))
                if key in existing:
                    kept.append(existing[key])
                elif key.isdigit() and int(key) in files:
                    used.add(int(key))
                    filename = entry.get("filename") or files[int(key)][0]
                    made = self._attachment_for(msg, filename, files[int(key)][1])
                    made.description = str(entry.get("description") or "")
                    kept.append(made)
                    new.append((filename, files[int(key)][1]))
            for index in sorted(set(files) - used):  # files sent without metadata
                filename, blob = files[index]
                kept.append(self._attachment_for(msg, filename, blob))
                new.append((filename, blob))
            msg.attachments = kept
        return new

    def _attachment_for(self, msg: FakeMessage, filename: str, blob: bytes) -> FakeAttachment:
        aid = snowflake()
        url = f"{self.base_url}/attachments/{msg.channel.id}/{aid}/{filename}"
        return FakeAttachment(aid, filename, blob, url)

    def _record(
        self, msg: FakeMessage, payload: JSON, files: list[tuple[str, bytes]], route: str
    ) -> None:
        if "allowed_mentions" in payload:
            msg.allowed_mentions = payload["allowed_mentions"]
        if route in _POSTS:
            msg.pinged = pings(payload)  # as Discord: the mentions of a new message only
        self.deliveries.append(Delivery(msg.audience, payload, files, msg.id, route))
        for watch in self.watchers:
            watch(msg, route)

    def _new_message(self, channel: FakeChannel, *, ephemeral_for: FakeUser | None) -> FakeMessage:
        msg = FakeMessage(snowflake(), channel, self.bot_user, audience=channel.audience)
        if ephemeral_for is not None:
            msg.ephemeral_for = ephemeral_for.id
            msg.flags |= EPHEMERAL
            msg.audience = private(ephemeral_for.id)
        return msg

    # ---------------------------------------------------------------- routes

    async def _unhandled(self, request: web.Request) -> web.StreamResponse:
        self.unhandled.append(f"{request.method} {request.path}")
        raise FakeDiscordError(404, 0, f"fake discord: {request.method} {request.path} unhandled")

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["attachment_id"])
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(body=att.data)
        return web.Response(status=404)

    async def _get_gateway(self, request: web.Request) -> web.StreamResponse:
        limit = {
            "total": 1000,
            "remaining": 1000,
            "reset_after": 0,
            "max_concurrency": self.max_concurrency,
        }
        return json_response(
            {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}
        )

    async def _get_me(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise FakeDiscordError(401, 0, "401: Unauthorized")
        return json_response({**self.bot_user.payload(), "verified": True, "flags": 0})

    async def _get_application(self, request: web.Request) -> web.StreamResponse:
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "fake",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "summary": "",
                "rpc_origins": [],
                "bot": self.bot_user.payload(),
            }
        )

    async def _get_user(self, request: web.Request) -> web.StreamResponse:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise FakeDiscordError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _get_member(self, request: web.Request) -> web.StreamResponse:
        if not self.bot_in_guild:
            raise FakeDiscordError(403, 50001, "Missing Access")
        uid = int(request.match_info["user_id"])
        for member in self.members:
            if member.id == uid:
                return json_response(member.member_payload())
        raise FakeDiscordError(404, 10007, "Unknown Member")

    async def _create_dm(self, request: web.Request) -> web.StreamResponse:
        body, _ = await self._read_body(request)
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise FakeDiscordError(400, 50035, "Invalid Form Body")
        return json_response(self.dm_channel(user).payload())

    async def _put_commands(self, request: web.Request) -> web.StreamResponse:
        if int(request.match_info["app_id"]) != self.application_id:
            raise FakeDiscordError(403, 50001, "Missing Access")
        body, _ = await self._read_body(request)
        guild_id = request.match_info.get("guild_id")
        errors = command_limits.command_errors(body.get("_list", []))
        if errors:  # as Discord: the whole overwrite refused, the old commands kept
            raise FakeDiscordError(
                400, 50035, "Invalid Form Body", command_limits.invalid_form_body(errors)
            )
        old = self.guild_commands.get(int(guild_id), []) if guild_id else self.global_commands
        old_ids = {c["name"]: c["id"] for c in old}
        synced: list[JSON] = []
        for cmd in body.get("_list", []):
            # Re-syncing keeps ids stable, as Discord does for unchanged names.
            full: JSON = {
                "id": old_ids.get(cmd["name"], str(snowflake())),
                "application_id": str(self.application_id),
                "version": str(snowflake()),
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                # Discord's defaults: every context, installed to guilds.
                "contexts": None,
                "integration_types": [0],
                **cmd,
            }
            if guild_id:
                full["guild_id"] = guild_id
            synced.append(full)
        if guild_id:
            self.guild_commands[int(guild_id)] = synced
        else:
            self.global_commands = synced
        return json_response(synced)

    async def _get_commands(self, request: web.Request) -> web.StreamResponse:
        guild_id = request.match_info.get("guild_id")
        cmds = self.guild_commands.get(int(guild_id), []) if guild_id else self.global_commands
        return json_response(cmds)

    async def _get_channel(self, request: web.Request) -> web.StreamResponse:
        return json_response(self._channel(request).payload())

    async def _no_content(self, request: web.Request) -> web.StreamResponse:
        self._channel(request)
        return web.Response(status=204)

    async def _edit_channel(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        body, _ = await self._read_body(request)
        ch.name = body.get("name", ch.name)
        ch.archived = bool(body.get("archived", ch.archived))
        ch.locked = bool(body.get("locked", ch.locked))
        await self.dispatch("THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE", ch.payload())
        return json_response(ch.payload())

    async def _delete_channel(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        ch.deleted = True
        await self.dispatch("THREAD_DELETE" if ch.is_thread else "CHANNEL_DELETE", ch.payload())
        return json_response(ch.payload())

    async def _create_thread(self, request: web.Request) -> web.StreamResponse:
        parent = self._channel(request)
        body, _ = await self._read_body(request)
        if parent.is_dm or parent.is_thread:
            raise FakeDiscordError(400, 50024, "Cannot execute action on this channel type")
        if "message_id" in request.match_info:
            # A thread started from a message reuses the message's id, as on Discord.
            tid = self._message_in(parent, request).id
            private_thread = False
        else:
            tid = snowflake()
            private_thread = int(body.get("type", 12)) == 12
        if tid in self.channels:
            raise FakeDiscordError(
                400, 160004, "A thread has already been created for this message"
            )
        thread = FakeChannel(
            tid,
            str(body.get("name", "thread")),
            guild_id=parent.guild_id,
            parent=parent,
            private_thread=private_thread,
            owner_id=self.bot_user.id,
        )
        self.channels[tid] = thread
        await self.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return json_response(thread.payload())

    async def _thread_member(self, request: web.Request) -> web.StreamResponse:
        thread = self._channel(request)
        user = self.users.get(int(request.match_info["user_id"]))
        if not thread.is_thread or user is None:
            raise FakeDiscordError(404, 10003, "Unknown Channel")
        if request.method == "PUT" and user not in self.members:
            raise FakeDiscordError(404, 10007, "Unknown Member")
        if request.method == "PUT":
            thread.thread_members.add(user.id)
        else:
            thread.thread_members.discard(user.id)
        return web.Response(status=204)

    async def _create_message(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        data, files = await self._read_body(request)
        if ch.recipient is not None and (
            ch.recipient.dms_closed or ch.recipient not in self.members or not self.bot_in_guild
        ):
            # Closed DMs, or no guild shared with the bot any more.
            raise FakeDiscordError(403, 50007, "Cannot send messages to this user")
        self._require(ch, send=True, files=bool(files))
        if ch.locked:
            raise FakeDiscordError(400, 50083, "Thread is archived")
        now = asyncio.get_running_loop().time()
        nonce = data.get("nonce")
        seen = self._nonces.get((ch.id, str(nonce))) if nonce is not None else None
        if data.get("enforce_nonce") and seen is not None and now - seen[0] < self.nonce_window:
            # Discord: the message the same nonce made is returned; none is created.
            self.nonce_hits += 1
            return json_response(self.messages[seen[1]].payload())
        ch.archived = False  # sending into an unlocked archived thread reopens it
        self._validate_new(data, files)
        msg = self._new_message(ch, ephemeral_for=None)
        new = self._apply(msg, data, files)
        self.messages[msg.id] = msg
        if nonce is not None:
            self._nonces[(ch.id, str(nonce))] = (now, msg.id)
        self._record(msg, data, new, "channel_message")
        await self._dispatch_message_create(msg)
        return json_response(msg.payload())

    async def _history(self, request: web.Request) -> web.StreamResponse:
        """GET a channel's messages as Discord answers it: ``limit`` 1-100 (50 when
        left out), newest first; ``before`` the newest ones older than an id, ``after``
        the oldest ones newer than an id (still sent newest first); nothing at all
        without Read Message History."""
        ch = self._channel(request)
        try:
            limit = int(request.query.get("limit", "50"))
            before = int(request.query["before"]) if "before" in request.query else None
            after = int(request.query["after"]) if "after" in request.query else None
        except ValueError:
            raise FakeDiscordError(400, 50035, "Invalid Form Body") from None
        if not 1 <= limit <= 100:
            raise FakeDiscordError(400, 50035, "Invalid Form Body: limit is 1 to 100")
        if not ch.is_dm and self.bot_denied(ch) & discord.Permissions.read_message_history.flag:
            return json_response([])
        msgs = self.channel_messages(ch)  # oldest first
        if before is not None:
            msgs = [m for m in msgs if m.id < before]
        # ``after``: the oldest ones past it; else the newest ones.
        msgs = [m for m in msgs if m.id > after][:limit] if after is not None else msgs[-limit:]
        return json_response([m.payload() for m in reversed(msgs)])

    async def _get_message(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        return json_response(self._message_in(ch, request).payload())

    async def _edit_message(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        msg = self._message_in(ch, request)
        data, files = await self._read_body(request)
        if msg.author.id != self.bot_user.id:
            raise FakeDiscordError(403, 50005, "Cannot edit a message authored by another user")
        # Editing one's own message needs no Send Messages; uploading needs Attach Files.
        self._require(ch, send=False, files=bool(files))
        self._validate(data)
        new = self._apply(msg, data, files)
        msg.edits += 1
        self._record(msg, data, new, "channel_edit")
        return json_response(msg.payload())

    async def _delete_message(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        self._message_in(ch, request).deleted = True
        return web.Response(status=204)

    # ----------------------------------------------------- interaction routes

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        record = self.interactions.get(int(request.match_info["interaction_id"]))
        body, files = await self._read_body(request)
        if record is None or record.token != request.match_info["token"]:
            raise FakeDiscordError(404, 10062, "Unknown interaction")
        if self._gone(record.channel):
            raise FakeDiscordError(404, 10003, "Unknown Channel")
        if record.acknowledged:
            raise FakeDiscordError(400, 40060, "Interaction has already been acknowledged.")
        if asyncio.get_running_loop().time() - record.created_at > self.response_timeout:
            record.response_error = 10062
            raise FakeDiscordError(404, 10062, "Unknown interaction")
        rtype = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        ephemeral = bool(flags & EPHEMERAL)
        resource: JSON = {"type": rtype}
        if rtype == 4:
            self._validate_new(data, files)
            msg = self._new_message(
                record.channel, ephemeral_for=record.user if ephemeral else None
            )
            msg.interaction_id = record.id
            msg.webhook_id = self.application_id
            new = self._apply(msg, data, files)
            self.messages[msg.id] = msg
            record.original = msg
            self._record(msg, data, new, "callback")
            await self._dispatch_message_create(msg)
            resource["message"] = msg.payload()
        elif rtype == 5:
            msg = self._new_message(
                record.channel, ephemeral_for=record.user if ephemeral else None
            )
            msg.interaction_id = record.id
            msg.webhook_id = self.application_id
            msg.loading = True
            msg.flags |= 1 << 7  # LOADING
            self.messages[msg.id] = msg
            record.original = msg
            record.ephemeral_defer = ephemeral
            resource["message"] = msg.payload()
        elif rtype in (6, 7):
            if record.message is None:
                raise FakeDiscordError(400, 40043, "This interaction has no message to update")
            record.original = record.message
            if rtype == 7:
                self._validate(data)
                msg = record.message
                new = self._apply(msg, data, files)
                msg.edits += 1
                self._record(msg, data, new, "callback_update")
                resource["message"] = msg.payload()
        elif rtype == 9:
            if record.type == 5:
                raise FakeDiscordError(400, 50035, "Invalid Form Body: a modal cannot open a modal")
            comps = data.get("components") or []
            errors = limits.message_errors({"components": comps})
            if len(data.get("title") or "") > 45 or not comps:
                errors.append("data.title: must be 1-45 in length; components required")
            if errors:
                raise FakeDiscordError(
                    400, 50035, "Invalid Form Body", limits.invalid_form_body(errors)
                )
            modal = FakeModal(record, data["custom_id"], data.get("title", ""), comps)
            record.modal = modal
            self.modals.append(modal)
            # A modal's title/labels/defaults are shown to the user: log it for leak guards.
            self.deliveries.append(Delivery(private(record.user.id), data, [], None, "modal"))
        elif rtype == 8:
            if record.type != 4:
                raise FakeDiscordError(400, 50035, "Invalid Form Body: not an autocomplete")
            record.choices = list(data.get("choices") or [])
            if len(record.choices) > 25:
                raise FakeDiscordError(400, 50035, "Invalid Form Body: more than 25 choices")
        elif rtype != 1:
            raise FakeDiscordError(400, 50035, f"Invalid Form Body: bad callback type {rtype}")
        record.response_type = rtype
        record.responded_at = asyncio.get_running_loop().time()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        interaction: JSON = {"id": str(record.id), "type": record.type}
        if record.original is not None and rtype in (4, 5, 7):
            interaction["response_message_id"] = str(record.original.id)
            interaction["response_message_loading"] = rtype == 5
            interaction["response_message_ephemeral"] = record.original.ephemeral
        answer = cast("InteractionCallback", {"interaction": interaction, "resource": resource})
        return json_response(answer)

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        record = self._interactions_by_token.get(request.match_info["token"])
        if record is None or int(request.match_info["app_id"]) != self.application_id:
            raise FakeDiscordError(404, 10015, "Unknown Webhook")
        if asyncio.get_running_loop().time() - record.created_at > self.token_lifetime:
            raise FakeDiscordError(401, 50027, "Invalid Webhook Token")
        if self._gone(record.channel):
            raise FakeDiscordError(404, 10003, "Unknown Channel")
        return record

    def _gone(self, channel: FakeChannel) -> bool:
        return channel.deleted or (channel.parent is not None and channel.parent.deleted)

    def _webhook_message(self, record: FakeInteraction, request: web.Request) -> FakeMessage:
        mid = request.match_info["message_id"]
        if mid == "@original":
            if record.original is None or record.original.deleted:
                raise FakeDiscordError(404, 10008, "Unknown Message")
            return record.original
        msg = self.messages.get(int(mid))
        ours = record.original is not None and msg is record.original
        if msg is None or msg.deleted or not (ours or msg in record.followups):
            raise FakeDiscordError(404, 10008, "Unknown Message")
        return msg

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        record = self._webhook_interaction(request)
        data, files = await self._read_body(request)
        if not record.acknowledged:
            # A follow-up before any callback: Discord doesn't know the webhook yet.
            raise FakeDiscordError(404, 10015, "Unknown Webhook")
        self._validate_new(data, files)
        original = record.original
        if record.response_type == 5 and original is not None and original.loading:
            # The first follow-up after a defer replaces the "thinking" message and
            # inherits the defer's visibility: its own ephemeral flag is ignored.
            msg = original
            msg.loading = False
            msg.flags &= ~(1 << 7)
            route = "followup_after_defer"
        else:
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            msg = self._new_message(
                record.channel, ephemeral_for=record.user if ephemeral else None
            )
            msg.interaction_id = record.id
            msg.webhook_id = self.application_id
            self.messages[msg.id] = msg
            record.followups.append(msg)
            route = "followup"
        new = self._apply(msg, data, files)
        self._record(msg, data, new, route)
        await self._dispatch_message_create(msg)
        if request.query.get("wait") in ("true", "1", "True"):
            return json_response(msg.payload())
        return web.Response(status=204)

    async def _webhook_get(self, request: web.Request) -> web.StreamResponse:
        record = self._webhook_interaction(request)
        return json_response(self._webhook_message(record, request).payload())

    async def _webhook_edit(self, request: web.Request) -> web.StreamResponse:
        record = self._webhook_interaction(request)
        data, files = await self._read_body(request)
        msg = self._webhook_message(record, request)
        self._validate(data)
        new = self._apply(msg, data, files)
        if msg.loading:
            # Editing the deferred "thinking" message turns it into the response.
            msg.loading = False
            msg.flags &= ~(1 << 7)
            await self._dispatch_message_create(msg)
        else:
            msg.edits += 1
        self._record(msg, data, new, "webhook_edit")
        return json_response(msg.payload())

    async def _webhook_delete(self, request: web.Request) -> web.StreamResponse:
        record = self._webhook_interaction(request)
        self._webhook_message(record, request).deleted = True
        return web.Response(status=204)
