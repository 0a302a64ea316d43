"""The fake Discord says no: rate limits, seeded faults, gateway RESUME, moderation.

Each test drives the real discord.py 2.7 client against ``tests/fakediscord`` with a
:class:`FakeConfig` (issue 15) and checks both sides: what the fake answered (status,
Discord error code, headers, gateway frames) and what discord.py made of it (it waits
on rate-limit headers and 429s, retries 5xx, resumes and receives missed events,
surfaces 403/404 with Discord's codes).
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import Bucket, FakeConfig, FakeDiscord
from tests.fakediscord.conditions import CALLBACK_ROUTE, Faults
from tests.fakediscord.fixtures import TOKEN, fake_discord, run_bot

__all__ = ["fake_discord"]

SEND = "POST /channels/{channel_id}/messages"


class Recorder(commands.Bot):
    """A bot that records gateway events and keeps the interactions it answered."""

    def __init__(self, *, members: bool = False, messages: bool = False) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # Chipfist's own intents (cogs/app.py)
        intents.members = members
        intents.guild_messages = messages
        intents.message_content = messages
        super().__init__(
            command_prefix="!",
            intents=intents,
            enable_debug_events=True,  # socket_event_type for every dispatch
            **FakeDiscord.client_options(),
        )
        self.events: list[str] = []
        self.heard: list[str] = []
        self.readies = 0
        self.resumes = 0
        self.interactions: list[discord.Interaction] = []
        self.errors: list[tuple[int, int]] = []
        self.tree.add_command(ping)

    async def on_socket_event_type(self, event: str) -> None:
        self.events.append(event)

    async def on_ready(self) -> None:
        self.readies += 1

    async def on_resumed(self) -> None:
        self.resumes += 1

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot:
            self.heard.append(message.content)


@app_commands.command(description="answers at once")
async def ping(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, Recorder)
    bot.interactions.append(interaction)
    try:
        await interaction.response.send_message("pong")
    except discord.HTTPException as exc:
        bot.errors.append((exc.status, exc.code))


@pytest_asyncio.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[Recorder]:
    async with run_bot(fake_discord, Recorder(), sync=True) as client:
        yield client


def text_channel(
    bot: discord.Client, fake: FakeDiscord, name: str = "poker"
) -> discord.TextChannel:
    channel = bot.get_channel(fake.channel_named(name).id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def raw(
    fake: FakeDiscord, method: str, path: str, body: dict[str, Any] | None = None
) -> tuple[int, dict[str, str], Any]:
    """One request as the bot's token, bypassing discord.py (to read raw answers)."""
    headers = {"Authorization": f"Bot {TOKEN}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.api_base + path, json=body, headers=headers) as resp,
    ):
        data = await resp.json(content_type=None) if resp.content_length != 0 else None
        return resp.status, dict(resp.headers), data


# ------------------------------------------------------------------ defaults


def test_default_config_is_off_and_realistic_preset() -> None:
    """FakeConfig() changes nothing (the existing e2e tests keep their behaviour);
    the bench's realistic preset is rate limits on, 50-300 ms latency and 3% 5xx."""
    off = FakeConfig()
    assert not off.rate_limits and off.latency is None and off.error_rate == 0
    assert off.late_interaction_rate == 0 and off.gateway_drops_per_minute == 0
    real = FakeConfig.realistic(seed=3)
    assert real.rate_limits and real.latency == (0.05, 0.3) and real.error_rate == 0.03
    assert real.seed == 3 and real.error_statuses == (500, 502, 503)
    assert real.global_limit == 50 and real.global_window == 1.0
    send = real.buckets[SEND]
    edit = real.buckets["PATCH /channels/{channel_id}/messages/{message_id}"]
    assert send == edit and (send.limit, send.window) == (5, 5.0)


async def test_default_fake_sends_no_rate_limit_headers(fake_discord: FakeDiscord) -> None:
    """With the default config no answer carries X-RateLimit-* (nothing to honour)."""
    status, headers, _ = await raw(
        fake_discord, "POST", f"/channels/{fake_discord.channel.id}/messages", {"content": "x"}
    )
    assert status == 200
    assert not [h for h in headers if h.lower().startswith("x-ratelimit")]
    assert fake_discord.global_requests == 1  # counted even with limits off (benches)


# --------------------------------------------------------------- rate limits


@pytest.mark.fakediscord(FakeConfig.strict())
async def test_route_bucket_headers_as_discord_documents(fake_discord: FakeDiscord) -> None:
    """Per-channel message bucket: Limit/Remaining/Reset/Reset-After/Bucket on every
    answer; the 6th send within 5 s is a 429 with retry_after, global=false, scope user;
    another channel has its own bucket (channel_id is the major parameter)."""
    path = f"/channels/{fake_discord.channel.id}/messages"
    seen = []
    for _ in range(5):
        status, headers, _ = await raw(fake_discord, "POST", path, {"content": "hi"})
        assert status == 200
        seen.append(headers)
    assert [h["X-RateLimit-Remaining"] for h in seen] == ["4", "3", "2", "1", "0"]
    first = seen[0]
    assert first["X-RateLimit-Limit"] == "5"
    assert first["X-RateLimit-Bucket"] == "channel-messages"
    assert 4.0 < float(first["X-RateLimit-Reset-After"]) <= 5.0
    assert abs(float(first["X-RateLimit-Reset"]) - time.time() - 5.0) < 1.0
    status, headers, body = await raw(fake_discord, "POST", path, {"content": "hi"})
    assert status == 429
    assert body["global"] is False and body["message"] == "You are being rate limited."
    assert 0 < body["retry_after"] <= 5.0
    assert headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Remaining"] == "0"
    assert int(headers["Retry-After"]) >= body["retry_after"]
    assert "Via" in headers  # discord.py treats a 429 without Via as a Cloudflare ban
    other = f"/channels/{fake_discord.channel_named('lobby').id}/messages"
    assert (await raw(fake_discord, "POST", other, {"content": "hi"}))[0] == 200
    assert fake_discord.rate_limited_by_kind == {"route": 1}
    assert fake_discord.rate_limited_by_bucket == {"channel-messages": 1}
    assert [(kind, route) for _, kind, route in fake_discord.rate_limit_log] == [("route", SEND)]
    # The edit route shares the bucket: the channel's window is still full.
    mid = fake_discord.last_message().id  # type: ignore[union-attr]
    status, _, _ = await raw(fake_discord, "PATCH", f"{path}/{mid}", {"content": "edited"})
    assert status == 429


@pytest.mark.fakediscord(FakeConfig.strict(route_default=Bucket("route", 2, 5.0)))
async def test_other_routes_have_their_own_buckets(fake_discord: FakeDiscord) -> None:
    """Routes outside the message bucket are limited per route and major parameter:
    GET channel and DELETE message on one channel do not share a bucket (deletes have
    their own, as Discord documents), and another channel has a fresh one."""
    cid = fake_discord.channel.id
    path = f"/channels/{cid}/messages"
    _, _, sent = await raw(fake_discord, "POST", path, {"content": "to delete"})
    gets = [await raw(fake_discord, "GET", f"/channels/{cid}") for _ in range(3)]
    assert [status for status, _, _ in gets] == [200, 200, 429]
    status, headers, _ = await raw(fake_discord, "DELETE", f"{path}/{sent['id']}")
    assert status == 204
    assert headers["X-RateLimit-Bucket"] != gets[0][1]["X-RateLimit-Bucket"]
    lobby = fake_discord.channel_named("lobby").id
    assert (await raw(fake_discord, "GET", f"/channels/{lobby}"))[0] == 200
    assert fake_discord.rate_limited_by_kind == {"route": 1}


@pytest.mark.fakediscord(FakeConfig.strict())
async def test_discord_py_waits_on_channel_bucket(fake_discord: FakeDiscord) -> None:
    """discord.py honours the headers: 7 sends through a 3-per-1 s channel bucket all
    succeed, spread over at least two windows, with no 429 when sent one by one."""
    fake_discord.config.channel_bucket(3, 1.0)
    async with run_bot(fake_discord, Recorder()) as client:
        channel = text_channel(client, fake_discord)
        start = time.monotonic()
        for i in range(7):
            await channel.send(f"m{i}")
        elapsed = time.monotonic() - start
    assert [m.content for m in fake_discord.channel_messages()] == [f"m{i}" for i in range(7)]
    assert elapsed >= 1.9, elapsed
    assert fake_discord.rate_limited == 0  # waited on Remaining: 0, never refused


@pytest.mark.fakediscord(FakeConfig.strict())
async def test_discord_py_concurrent_burst_honours_429(fake_discord: FakeDiscord) -> None:
    """A concurrent burst into one channel: whatever 429s discord.py draws before it
    learns the bucket, every send lands exactly once and the bucket is never exceeded."""
    fake_discord.config.channel_bucket(3, 1.0)
    async with run_bot(fake_discord, Recorder()) as client:
        channel = text_channel(client, fake_discord)
        start = time.monotonic()
        await asyncio.gather(*(channel.send(f"b{i}") for i in range(8)))
        elapsed = time.monotonic() - start
    assert sorted(m.content for m in fake_discord.channel_messages()) == sorted(
        f"b{i}" for i in range(8)
    )
    assert elapsed >= 1.9, elapsed  # 8 sends at 3 per second need three windows


async def test_global_limit_429_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    """Global limit: a 429 with global=true, X-RateLimit-Global and scope global;
    discord.py stops all requests for retry_after and then every send lands."""
    names = [f"t{i}" for i in range(10)]
    fake = FakeDiscord(channel_names=names, config=FakeConfig.strict())
    await fake.start()
    try:
        fake.patch(monkeypatch)
        async with run_bot(fake, Recorder()) as client:
            fake.configure(FakeConfig.strict(global_limit=4, global_window=1.0))
            channels = [text_channel(client, fake, n) for n in names]
            start = time.monotonic()
            await asyncio.gather(*(ch.send("hello") for ch in channels))
            elapsed = time.monotonic() - start
            assert all(len(fake.channel_messages(fake.channel_named(n))) == 1 for n in names)
            assert fake.rate_limited_by_kind["global"] >= 1
            assert elapsed >= 1.9, elapsed  # 10 requests at 4 a second
            # The raw answer, once the window is full again.
            for n in names[:4]:
                await raw(fake, "GET", f"/channels/{fake.channel_named(n).id}")
            status, headers, body = await raw(fake, "GET", f"/channels/{channels[0].id}")
    finally:
        await fake.stop()
    assert status == 429 and body["global"] is True and 0 < body["retry_after"] <= 1.0
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert "Retry-After" in headers and "X-RateLimit-Bucket" not in headers


async def test_interaction_callbacks_do_not_count_against_global(
    fake_discord: FakeDiscord, bot: Recorder
) -> None:
    """With the global window full, an interaction callback still goes through and is
    not counted; an ordinary request in the same window is refused (global)."""
    fake_discord.configure(FakeConfig.strict(global_limit=2, global_window=30.0))
    cid = fake_discord.channel.id
    for _ in range(2):
        assert (await raw(fake_discord, "GET", f"/channels/{cid}"))[0] == 200
    record = await fake_discord.slash(fake_discord.user("alice"), "ping")
    assert record.response_type == 4 and bot.errors == []
    assert (await raw(fake_discord, "GET", f"/channels/{cid}"))[0] == 429
    assert fake_discord.requests_by_route[CALLBACK_ROUTE] == 1
    assert CALLBACK_ROUTE not in fake_discord.global_requests_by_route
    assert fake_discord.rate_limited_by_kind == {"global": 1}


# -------------------------------------------------------------------- faults


def test_faults_are_seeded_and_repeatable() -> None:
    """The same seed draws the same faults in the same order; another seed does not;
    the handshake routes are never faulted."""
    config = FakeConfig(seed=11, error_rate=0.3, latency=(0.05, 0.8), late_interaction_rate=0.2)

    Draw = tuple[tuple[int, bool] | None, float, bool]

    def draws(cfg: FakeConfig) -> list[Draw]:
        faults = Faults(cfg)
        return [
            (faults.error(SEND), faults.latency(), faults.late_interaction()) for _ in range(200)
        ]

    first, again = draws(config), draws(dataclasses.replace(config))
    assert first == again
    assert first != draws(dataclasses.replace(config, seed=12))
    errors = [error for error, _, _ in first if error is not None]
    assert 30 < len(errors) < 100  # about 30% of 200
    assert {status for status, _ in errors} <= {500, 502, 503}
    assert all(0.05 <= latency <= 0.8 for _, latency, _ in first)
    assert 10 < sum(late for _, _, late in first) < 80  # about 20% of 200
    hand = Faults(FakeConfig(seed=1, error_rate=1.0))
    assert hand.error("GET /gateway/bot") is None and hand.error(SEND) is not None


@pytest.mark.fakediscord(FakeConfig(latency=(0.2, 0.3)))
async def test_latency_delays_each_request(fake_discord: FakeDiscord) -> None:
    """Latency is added to every REST request (and wait_idle waits for those in flight)."""
    path = f"/channels/{fake_discord.channel.id}/messages"
    start = time.monotonic()
    await asyncio.gather(*(raw(fake_discord, "POST", path, {"content": "x"}) for _ in range(3)))
    assert 0.2 <= time.monotonic() - start < 1.0  # concurrent: one latency, not three


async def test_5xx_are_retried_by_discord_py(fake_discord: FakeDiscord, bot: Recorder) -> None:
    """500 and 502 on sends: discord.py retries (1 s, 3 s...) and each message lands
    exactly once, because the failed attempts never took effect."""
    fake_discord.configure(FakeConfig(seed=5, error_rate=0.5, error_statuses=(500, 502)))
    channel = text_channel(bot, fake_discord)
    for i in range(3):
        await channel.send(f"r{i}")
    injected = fake_discord.faults.injected
    assert injected["500"] + injected["502"] >= 1
    assert fake_discord.requests_by_route[SEND] == 3 + injected["500"] + injected["502"]
    assert [m.content for m in fake_discord.channel_messages()] == ["r0", "r1", "r2"]


@pytest.mark.fakediscord(FakeConfig(error_rate=1.0, error_statuses=(503,)))
async def test_503_is_not_retried_by_discord_py_http_client(
    fake_discord: FakeDiscord, bot: Recorder
) -> None:
    """Every request but the handshake fails, yet the bot logs in and syncs (login,
    gateway and command sync are never faulted).  discord.py 2.7's HTTPClient retries
    only 500/502/504/524: a 503 surfaces as DiscordServerError at once (the bot has to
    retry 503 itself)."""
    assert bot.is_ready() and fake_discord.commands
    with pytest.raises(discord.DiscordServerError) as info:
        await text_channel(bot, fake_discord).send("lost")
    assert info.value.status == 503
    assert fake_discord.requests_by_route[SEND] == 1
    assert fake_discord.channel_messages() == []


async def test_5xx_after_effect_retry_is_deduplicated_by_nonce(
    fake_discord: FakeDiscord, bot: Recorder
) -> None:
    """Issue 15: a 500 that comes after the send took effect makes discord.py retry the
    same payload. discord.py sends every message with a nonce and ``enforce_nonce``, and
    Discord (so the fake) answers a repeated create with the message the first one
    made: one message, however many tries. Without ``enforce_nonce`` a repeated nonce
    posts again (what a bot must not rely on)."""
    fake_discord.configure(FakeConfig(error_rate=1.0, error_statuses=(500,), error_after_effect=1))
    task = asyncio.create_task(text_channel(bot, fake_discord).send("once"))
    await fake_discord.wait_for(lambda: fake_discord.requests_by_route[SEND] >= 2, timeout=6)
    fake_discord.configure(FakeConfig())
    await task  # the next try is answered: the message the first one made
    assert [m.content for m in fake_discord.channel_messages()] == ["once"]
    assert fake_discord.nonce_hits >= 1
    path = f"/channels/{fake_discord.channel.id}/messages"
    for _ in range(2):
        assert (await raw(fake_discord, "POST", path, {"content": "twice", "nonce": "7"}))[0] == 200
    assert [m.content for m in fake_discord.channel_messages()][1:] == ["twice", "twice"]


async def test_late_interaction_answers_10062(fake_discord: FakeDiscord, bot: Recorder) -> None:
    """An interaction delivered after its 3 s window: the bot's immediate callback is
    refused 404 / 10062 Unknown interaction, and the fake records the refusal."""
    record = await fake_discord.slash(fake_discord.user("alice"), "ping", late=True)
    assert record.response_error == 10062 and record.response_type is None
    assert bot.errors == [(404, 10062)]
    ok = await fake_discord.slash(fake_discord.user("alice"), "ping")
    assert ok.response_type == 4


async def test_expired_token_followup_is_50027(fake_discord: FakeDiscord, bot: Recorder) -> None:
    """After 15 minutes an interaction's token is dead: follow-ups and edits answer
    401 / 50027 Invalid Webhook Token (as Discord does; 10015 is for unknown tokens)."""
    await fake_discord.slash(fake_discord.user("alice"), "ping")
    interaction = bot.interactions[-1]
    await interaction.followup.send("still in time")
    fake_discord.expire_interaction(fake_discord.interactions[interaction.id])
    with pytest.raises(discord.HTTPException) as info:
        await interaction.followup.send("too late")
    assert (info.value.status, info.value.code) == (401, 50027)
    with pytest.raises(discord.HTTPException) as edit:
        await interaction.edit_original_response(content="too late")
    assert (edit.value.status, edit.value.code) == (401, 50027)


# ------------------------------------------------------------------- gateway


async def test_resume_replays_missed_events(fake_discord: FakeDiscord) -> None:
    """Gateway drop: discord.py RESUMEs (no new READY) and receives, once each and in
    order, the messages and the interaction dispatched while it was away; events it had
    already received are not replayed."""
    async with run_bot(fake_discord, Recorder(messages=True), sync=True) as client:
        alice = fake_discord.user("alice")
        await fake_discord.say(alice, "before")
        await fake_discord.wait_for(lambda: client.heard == ["before"])
        await fake_discord.drop_gateway(outage=0.5)
        assert not fake_discord.gateway_connected
        await fake_discord.say(alice, "during 1")
        await fake_discord.say(alice, "during 2")
        record = await fake_discord.slash(alice, "ping", wait=False)
        await fake_discord.wait_for(lambda: client.resumes == 1, timeout=5)
        await fake_discord.wait_for(lambda: record.acknowledged, timeout=3)
        await fake_discord.say(alice, "after")
        await fake_discord.wait_for(lambda: "after" in client.heard)
        assert client.heard == ["before", "during 1", "during 2", "after"]
        assert client.readies == 1 and client.events.count("READY") == 1
        assert client.events.count("INTERACTION_CREATE") == 1
        assert fake_discord.faults.injected["resumed"] == 1


async def test_click_during_long_outage_arrives_expired(fake_discord: FakeDiscord) -> None:
    """An interaction made while the gateway is down longer than 3 s reaches the bot by
    replay after RESUME, but its window has passed: the callback answers 10062."""
    async with run_bot(fake_discord, Recorder(), sync=True) as client:
        await fake_discord.drop_gateway(outage=3.3)
        record = await fake_discord.slash(fake_discord.user("alice"), "ping", wait=False)
        await fake_discord.wait_for(lambda: record.response_error is not None, timeout=8)
        assert record.response_error == 10062 and client.errors == [(404, 10062)]
        assert client.resumes == 1


async def test_reconnect_op7_resumes(fake_discord: FakeDiscord, bot: Recorder) -> None:
    """Op 7 (Reconnect): discord.py closes, RESUMEs the same session (no new READY)."""
    await fake_discord.reconnect_request()
    await fake_discord.wait_for(lambda: bot.resumes == 1, timeout=5)
    assert bot.events.count("READY") == 1
    record = await fake_discord.slash(fake_discord.user("alice"), "ping")
    assert record.response_type == 4


async def test_invalid_session_reidentifies(fake_discord: FakeDiscord, bot: Recorder) -> None:
    """Op 9 (not resumable): discord.py IDENTIFYs again (after its 5 s
    before_identify_hook pause) and gets a fresh READY and GUILD_CREATE; meanwhile no
    one can interact (the session is gone)."""
    await fake_discord.invalidate_session()
    with pytest.raises(RuntimeError):
        await fake_discord.slash(fake_discord.user("alice"), "ping")
    await fake_discord.wait_for(lambda: bot.events.count("GUILD_CREATE") == 2, 8)
    assert bot.events.count("READY") == 2
    record = await fake_discord.slash(fake_discord.user("alice"), "ping")
    assert record.response_type == 4


async def test_random_gateway_drops_resume(fake_discord: FakeDiscord) -> None:
    """Seeded random drops (gateway_drops_per_minute): each one resumes, nothing lost."""
    async with run_bot(fake_discord, Recorder(messages=True)) as client:
        fake_discord.configure(
            FakeConfig(seed=2, gateway_drops_per_minute=240.0, gateway_outage=(0.05, 0.2))
        )
        alice = fake_discord.user("alice")
        sent = []
        for i in range(60):
            sent.append(f"x{i}")
            await fake_discord.say(alice, f"x{i}")
            await asyncio.sleep(0.05)
        drops = fake_discord.faults.injected["gateway_drop"]
        resumed = fake_discord.faults.injected["resumed"]
        fake_discord.configure(FakeConfig())
        await fake_discord.wait_for(lambda: client.heard == sent, timeout=5)
        assert drops >= 2 and resumed >= 1
        assert client.readies == 1  # every drop resumed; none re-identified


# ---------------------------------------------------------------- moderation


async def test_revoke_send_messages_and_attach_files(
    fake_discord: FakeDiscord, bot: Recorder
) -> None:
    """A moderator removes Attach Files / Send Messages from the bot in a channel:
    CHANNEL_UPDATE carries the member overwrite (discord.py computes the loss), sends
    and uploads answer 403 / 50013, interactions report the reduced app_permissions,
    threads need Send Messages in Threads instead, View Channel lost is 50001, and
    granting them back restores sending."""
    poker = fake_discord.channel
    channel = text_channel(bot, fake_discord)
    thread = await channel.create_thread(name="hand", type=discord.ChannelType.public_thread)
    await fake_discord.revoke(poker, "attach_files")
    await fake_discord.wait_for(lambda: not channel.permissions_for(channel.guild.me).attach_files)
    assert "CHANNEL_UPDATE" in bot.events
    await channel.send("text still works")
    with pytest.raises(discord.Forbidden) as upload:
        await channel.send("card", file=discord.File(io.BytesIO(b"png"), "card.png"))
    assert upload.value.code == 50013
    with pytest.raises(discord.Forbidden) as in_thread:  # threads inherit the overwrite
        await thread.send("card", file=discord.File(io.BytesIO(b"png"), "card.png"))
    assert in_thread.value.code == 50013
    await fake_discord.slash(fake_discord.user("alice"), "ping")
    perms = bot.interactions[-1].app_permissions
    assert perms.send_messages and not perms.attach_files

    await fake_discord.revoke(poker, "send_messages")
    await fake_discord.wait_for(lambda: not channel.permissions_for(channel.guild.me).send_messages)
    with pytest.raises(discord.Forbidden) as send:
        await channel.send("silenced")
    assert (send.value.status, send.value.code) == (403, 50013)
    await thread.send("threads use Send Messages in Threads")
    await fake_discord.revoke(poker, "send_messages_in_threads")
    with pytest.raises(discord.Forbidden) as thread_send:
        await thread.send("silenced too")
    assert thread_send.value.code == 50013
    # Other channels are untouched; the bot may still edit its own messages.
    await text_channel(bot, fake_discord, "lobby").send("lobby is fine")
    own = fake_discord.channel_messages()[0]
    await channel.get_partial_message(own.id).edit(content="edited while muted")
    assert fake_discord.message(own.id).content == "edited while muted"
    await fake_discord.revoke(poker, "view_channel")
    with pytest.raises(discord.Forbidden) as hidden:
        await channel.fetch_message(own.id)
    assert hidden.value.code == 50001

    await fake_discord.grant(poker, "view_channel", "send_messages", "attach_files")
    await fake_discord.wait_for(lambda: channel.permissions_for(channel.guild.me).attach_files)
    await channel.send("back", file=discord.File(io.BytesIO(b"png"), "card.png"))
    with pytest.raises(discord.Forbidden):  # still denied: only the others were granted
        await thread.send("thread still muted")


async def test_delete_channel_and_thread(fake_discord: FakeDiscord, bot: Recorder) -> None:
    """A deleted thread: THREAD_DELETE, then 404 / 10003 on sends.  A deleted channel:
    CHANNEL_DELETE (discord.py drops it), then 404 / 10003, also for an interaction
    follow-up there."""
    channel = text_channel(bot, fake_discord)
    thread = await channel.create_thread(name="hand", type=discord.ChannelType.public_thread)
    await fake_discord.wait_for(lambda: bot.get_channel(thread.id) is not None)
    await fake_discord.delete_channel(fake_discord.channels[thread.id])
    await fake_discord.wait_for(lambda: bot.get_channel(thread.id) is None)
    assert "THREAD_DELETE" in bot.events
    with pytest.raises(discord.NotFound) as gone_thread:
        await thread.send("anyone?")
    assert gone_thread.value.code == 10003

    await fake_discord.slash(fake_discord.user("alice"), "ping")
    interaction = bot.interactions[-1]
    await fake_discord.delete_channel(fake_discord.channel)
    await fake_discord.wait_for(lambda: bot.get_channel(channel.id) is None)
    assert "CHANNEL_DELETE" in bot.events
    with pytest.raises(discord.NotFound) as gone:
        await channel.send("anyone?")
    assert gone.value.code == 10003
    with pytest.raises(discord.NotFound) as followup:
        await interaction.followup.send("late news")
    assert followup.value.code == 10003
    with pytest.raises(LookupError):
        await fake_discord.slash(fake_discord.user("alice"), "ping")


async def test_member_removed_guilds_intent_gets_no_event(
    fake_discord: FakeDiscord, bot: Recorder
) -> None:
    """With the guilds intent only (Chipfist's), a member leaving sends no event at
    all, as on Discord; then the member cannot use the bot there, DMs to them answer
    403 / 50007 and fetching them 404 / 10007."""
    bob = fake_discord.user("bob")
    user = await bot.fetch_user(bob.id)
    await fake_discord.remove_member(bob)
    await fake_discord.say(fake_discord.user("alice"), "marker")  # any later event
    await asyncio.sleep(0.1)
    assert "GUILD_MEMBER_REMOVE" not in bot.events
    with pytest.raises(PermissionError):
        await fake_discord.slash(bob, "ping")
    with pytest.raises(discord.Forbidden) as dm:
        await user.send("your cards")
    assert dm.value.code == 50007
    guild = bot.get_guild(fake_discord.guild_id)
    assert guild is not None
    with pytest.raises(discord.NotFound) as member:
        await guild.fetch_member(bob.id)
    assert member.value.code == 10007


async def test_member_removed_with_members_intent(fake_discord: FakeDiscord) -> None:
    """With the GUILD_MEMBERS intent the bot gets GUILD_MEMBER_REMOVE."""
    async with run_bot(fake_discord, Recorder(members=True)) as client:
        removed: list[int] = []

        async def on_remove(payload: discord.RawMemberRemoveEvent) -> None:
            removed.append(payload.user.id)

        client.add_listener(on_remove, "on_raw_member_remove")
        await fake_discord.remove_member(fake_discord.user("carol"))
        await fake_discord.wait_for(lambda: removed == [fake_discord.user("carol").id])
        assert "GUILD_MEMBER_REMOVE" in client.events


async def test_bot_removed_from_guild(fake_discord: FakeDiscord, bot: Recorder) -> None:
    """The bot is kicked: GUILD_DELETE (discord.py forgets the guild), then 403 / 50001
    Missing Access on its channels; invited back, GUILD_CREATE restores it."""
    channel = text_channel(bot, fake_discord)
    removed: list[int] = []

    async def on_remove(guild: discord.Guild) -> None:
        removed.append(guild.id)

    bot.add_listener(on_remove, "on_guild_remove")
    await fake_discord.remove_bot()
    await fake_discord.wait_for(lambda: removed == [fake_discord.guild_id])
    assert bot.get_guild(fake_discord.guild_id) is None
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("hello?")
    assert info.value.code == 50001
    with pytest.raises(PermissionError):
        await fake_discord.slash(fake_discord.user("alice"), "ping")
    await fake_discord.readd_bot()
    await fake_discord.wait_for(lambda: bot.get_guild(fake_discord.guild_id) is not None)
    await text_channel(bot, fake_discord).send("back")


async def test_channel_history_as_discord_answers_it(
    fake_discord: FakeDiscord, bot: Recorder
) -> None:
    """GET a channel's messages (what ``ops.followup`` reads after a follow-up answered
    5xx): newest first, ``after`` gives the oldest ones newer than an id, ``before``
    the newest older ones, ``limit`` outside 1-100 is 400 / 50035, and without Read
    Message History the answer is empty."""
    channel = text_channel(bot, fake_discord)
    sent = [await channel.send(f"m{i}") for i in range(5)]
    newest = [m.content async for m in channel.history(limit=3)]
    assert newest == ["m4", "m3", "m2"]
    after = [m.content async for m in channel.history(limit=2, after=sent[1])]
    assert after == ["m2", "m3"]  # discord.py puts ``after`` oldest first
    answer = await bot.http.logs_from(channel.id, 2, after=sent[1].id)
    assert [m["content"] for m in answer] == ["m3", "m2"]  # Discord sends newest first
    before = [m.content async for m in channel.history(limit=2, before=sent[3])]
    assert before == ["m2", "m1"]
    with pytest.raises(discord.HTTPException) as bad:
        await bot.http.logs_from(channel.id, 101)
    assert (bad.value.status, bad.value.code) == (400, 50035)
    await fake_discord.revoke(fake_discord.channel, "read_message_history")
    assert [m async for m in channel.history(limit=5)] == []
