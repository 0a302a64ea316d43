"""The fake Discord with several guilds and gateway shards (issue 16), as Discord shards:
an IDENTIFY with ``shard: [id, count]`` gets a session carrying only the guilds with
``(guild_id >> 22) % count == id``; every guild event and interaction goes out only on
the connections of its guild's shard; ``GET /gateway/bot`` answers the configured shard
count; an interaction for a shard with no session reaches no one and fails for the
player. Clients here are discord.py's own ``AutoShardedClient`` (two of them: two
processes' worth of shards)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import shard_of

SHARDS = 4


class ShardRecorder(discord.AutoShardedClient):
    """A sharded client that answers ``/ping`` and notes which guilds' interactions it
    saw."""

    def __init__(self, shard_ids: list[int], shard_count: int = SHARDS) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            intents=intents,
            shard_ids=shard_ids,
            shard_count=shard_count,
            **FakeDiscord.client_options(),
        )
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(ping)
        self.seen: list[int | None] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # no 5 s pause between shards: the fake does not limit identifies


@app_commands.command(description="answers at once")
async def ping(interaction: discord.Interaction) -> None:
    client = interaction.client
    assert isinstance(client, ShardRecorder)
    client.seen.append(interaction.guild_id)
    await interaction.response.send_message("pong")


@contextlib.asynccontextmanager
async def sharded_fake(
    monkeypatch: pytest.MonkeyPatch, *, guilds_per_shard: int = 2
) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(shards=SHARDS, max_concurrency=2)
    await fake.start()
    fake.patch(monkeypatch)
    for shard in range(SHARDS):
        # The first guild is on shard 0; give every shard the same number.
        for n in range(guilds_per_shard - (1 if shard == 0 else 0)):
            await fake.add_guild(f"guild {shard}.{n}", shard=shard)
    try:
        yield fake
    finally:
        await fake.stop()


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, client: ShardRecorder) -> AsyncIterator[ShardRecorder]:
    from tests.fakediscord.runner import run_bot

    async with run_bot(fake, client, timeout=15) as ready:
        yield ready


def on_shard(fake: FakeDiscord, shard: int) -> list[int]:
    return sorted(g for g in fake.guilds if shard_of(g, SHARDS) == shard)


async def test_gateway_bot_answers_the_configured_shard_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """GET /gateway/bot recommends the fake's shard count and its identify concurrency,
    and every guild made for a shard is on it by Discord's formula."""
    async with sharded_fake(monkeypatch) as fake:
        async with aiohttp.ClientSession() as http:
            got = await http.get(
                fake.api_base + "/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}
            )
            body = await got.json()
        assert body["shards"] == SHARDS
        assert body["session_start_limit"]["max_concurrency"] == 2
        assert [len(on_shard(fake, s)) for s in range(SHARDS)] == [2, 2, 2, 2]


async def test_each_shard_session_carries_only_its_guilds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two processes' worth of shards (0-1 and 2-3): each client's READY/GUILD_CREATEs
    hold only the guilds of its shards, one live session per shard."""
    async with sharded_fake(monkeypatch) as fake:
        low, high = ShardRecorder([0, 1]), ShardRecorder([2, 3])
        async with running(fake, low), running(fake, high):
            low_ids, high_ids = {*on_shard(fake, 0), *on_shard(fake, 1)}, {*on_shard(fake, 2)}
            high_ids |= set(on_shard(fake, 3))
            # Under load a GUILD_CREATE may be read after READY was dispatched: wait.
            await fake.wait_for(lambda: {g.id for g in low.guilds} == low_ids, timeout=5)
            await fake.wait_for(lambda: {g.id for g in high.guilds} == high_ids, timeout=5)
            await asyncio.sleep(0.1)  # and nothing more comes
            assert {g.id for g in low.guilds} == low_ids
            assert {g.id for g in high.guilds} == high_ids
            assert sorted(s.shard for s in fake.live_sessions()) == [0, 1, 2, 3]
            for session in fake.live_sessions():
                assert session.events["GUILD_CREATE"] == 2, session


async def test_interactions_reach_only_their_guilds_shard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A /ping in a guild of shard 2 goes out on shard 2's connection only (the process
    with shards 0-1 never sees it); one in a guild of shard 1 the other way round."""
    async with sharded_fake(monkeypatch) as fake:
        low, high = ShardRecorder([0, 1]), ShardRecorder([2, 3])
        async with running(fake, low), running(fake, high):
            await low.tree.sync()
            alice = fake.user("alice")
            g2, g1 = on_shard(fake, 2)[0], on_shard(fake, 1)[0]
            r2 = await fake.slash(alice, "ping", channel=fake.guild_channels(g2)[0])
            r1 = await fake.slash(alice, "ping", channel=fake.guild_channels(g1)[0])
            assert r2.response_type == 4 and r1.response_type == 4
            assert high.seen == [g2] and low.seen == [g1]
            assert (r2.sessions, r2.delivered) == (1, True)
            by_shard = {s.shard: s.events["INTERACTION_CREATE"] for s in fake.live_sessions()}
            assert by_shard == {0: 0, 1: 1, 2: 1, 3: 0}


async def test_interaction_for_a_shard_without_session_fails_for_the_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only shards 0-1 connected: a click in a guild of shard 3 is queued on no session,
    reaches no process, and is what the player sees as "This interaction failed"
    (unanswered; Discord would time it out). The connected process sees nothing."""
    async with sharded_fake(monkeypatch) as fake:
        low = ShardRecorder([0, 1])
        async with running(fake, low):
            await low.tree.sync()
            g3 = on_shard(fake, 3)[0]
            record = await fake.slash(
                fake.user("alice"), "ping", channel=fake.guild_channels(g3)[0]
            )
            assert (record.sessions, record.delivered, record.acknowledged) == (0, False, False)
            assert fake.failed_interactions() == [record]
            assert low.seen == []
            ok = await fake.slash(fake.user("alice"), "ping")  # shard 0: answered
            assert ok.acknowledged and ok not in fake.failed_interactions()


async def test_shard_launched_at_runtime_then_closed_cleanly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A shard launched later on a running AutoShardedClient (as a standby takes one
    over) gets its guilds and its interactions; closing it with 1000 ends its session on
    the fake, after which that shard's clicks fail again. A dropped connection (4000)
    stays resumable and is resumed."""
    async with sharded_fake(monkeypatch) as fake:
        client = ShardRecorder([0])
        async with running(fake, client):
            await client.tree.sync()
            g2 = on_shard(fake, 2)[0]
            channel = fake.guild_channels(g2)[0]
            alice = fake.user("alice")
            assert (await fake.slash(alice, "ping", channel=channel)).sessions == 0
            client._connection.shard_ids = [0, 2]
            await client.launch_shard(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, 2)
            await fake.wait_for(lambda: client.get_guild(g2) is not None, timeout=5)
            assert (await fake.slash(alice, "ping", channel=channel)).acknowledged
            assert client.seen == [g2]
            await fake.drop_gateway(shard=2)
            await fake.wait_for(lambda: fake.live_sessions(2), timeout=5)
            assert len([s for s in fake.sessions if s.shard == 2]) == 1  # resumed, same one
            info = client.get_shard(2)
            assert info is not None
            await info.disconnect()
            await fake.wait_for(lambda: not fake.live_sessions(2), timeout=5)
            assert not any(s.resumable for s in fake.sessions if s.shard == 2)
            gone = await fake.slash(alice, "ping", channel=channel)
            assert gone.sessions == 0 and not gone.acknowledged
            assert client.seen == [g2]


async def test_identify_with_a_shard_outside_its_count_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """IDENTIFY with shard [4, 4] is refused with close code 4010 (Invalid shard)."""
    async with sharded_fake(monkeypatch, guilds_per_shard=1) as fake:
        async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10
            await ws.send_json({"op": 2, "d": {"token": fake.token, "shard": [4, 4]}})
            closing = await ws.receive()
            assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            assert ws.close_code == 4010
        assert fake.sessions == []
