"""The real bot (``python -m bot`` in its own process, against the fake Discord) with
``CHIPFIST_SHARD_COUNT`` on a PostgreSQL store: the AutoShardedBot path, the lease taken
at start, each new table's guild recorded, every append fenced, the leases released by a
clean stop. One shard here; several processes on a 4-shard fake Discord are in
tests/test_shards_processes.py.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot import health
from bot.config import Config, make_token
from cogs.bot import ShardedChipfistBot, make_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.runner import run_bot
from tests.pgcluster import Cluster
from tests.test_service_ops import BotProcess, act


async def _rows(url: str, sql: str) -> list[tuple[object, ...]]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(sql)]
    finally:
        await conn.close()


async def test_r1_1_sharded_bot_records_guild_fences_and_releases(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    """R-1.1 on a sharded bot: /table create records the table's guild, the process holds
    shard 0's lease (generation 1) and its appends pass the fence; SIGTERM exits 0 and
    releases the lease so a standby need not wait for it to expire."""
    url = pg_cluster.new_database()
    async with FakeDiscord() as fake:
        fake.token = make_token(fake.application_id)
        bot = BotProcess(
            fake,
            tmp_path,
            CHIPFIST_DB=url,
            CHIPFIST_SHARD_COUNT="1",
            CHIPFIST_SHARDS="0",
            CHIPFIST_LEASE_SECONDS="5",
        )
        try:
            await bot.start()
            alice, bob = fake.user("alice"), fake.user("bob")
            await fake.slash(alice, "table create")
            for user in (alice, bob):
                await fake.slash(user, "sit", buy_in=200)
            await fake.slash(alice, "deal")
            await act(fake)
            table = str(fake.channel.id)
            assert await _rows(url, "SELECT table_id, guild_id FROM table_guilds") == [
                (table, fake.guild_id)
            ], bot.text()
            leases = await _rows(url, "SELECT shard, generation, expires_at > 0 FROM shard_leases")
            assert leases == [(0, 1, True)], bot.text()
            fences = await _rows(url, "SELECT name, generation FROM fences")
            assert ("shard:0", 1) in fences
            code, _ = await bot.stop()
            assert code == 0, bot.text()
            assert "shards [0] of 1" in bot.text()
        finally:
            await bot.kill()
    released = await _rows(url, "SELECT shard, expires_at FROM shard_leases")
    assert released == [(0, 0.0)]
    # Created, two seats, the deal and the action: all written under the fence.
    count = await _rows(url, f"SELECT COUNT(*) FROM events WHERE table_id = '{table}'")
    assert count[0][0] == 5


def test_standby_holding_no_shard_is_healthy_while_fresh(tmp_path: Path) -> None:
    """A standby connects no gateway shard until it takes one over: its health file says
    ``standby``, which ``python -m bot health`` counts as healthy while fresh (Docker's
    HEALTHCHECK would otherwise mark every standby unhealthy), and stale is still not."""
    path = tmp_path / "health.json"
    health.write(path, health.STANDBY, tables=0)
    verdict = health.check(path, 30)
    assert verdict.ok and "standby" in verdict.line
    assert not health.check(path, 30, now=time.time() + 60).ok


async def test_sharded_bot_health_stays_connected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sharded bot (AutoShardedBot) has no single websocket (``bot.ws`` stays None):
    its health loop must judge the gateway by its shards. Before, every tick rewrote a
    connected sharded bot's health file as "disconnected", so ``python -m bot health``
    failed on every sharded process."""
    fake = FakeDiscord(shards=2)
    await fake.start()
    fake.patch(monkeypatch)
    path = tmp_path / "health.json"
    config = Config.load(
        env={
            "CHIPFIST_DB": str(tmp_path / "db.sqlite3"),
            "CHIPFIST_SHARD_COUNT": "2",
            "CHIPFIST_HEALTH_FILE": str(path),
            "CHIPFIST_HEALTH_INTERVAL": "0.05",
        },
        dotenv=None,
    )
    bot = make_bot(config, sync=False, clocks=False, **FakeDiscord.client_options())
    assert isinstance(bot, ShardedChipfistBot)
    try:
        async with run_bot(fake, bot, timeout=20):
            assert sorted(s.shard for s in fake.live_sessions()) == [0, 1]
            await asyncio.sleep(0.5)  # ten health ticks
            verdict = health.check(path, 30)
            assert verdict.ok, verdict.line
    finally:
        await fake.stop()


async def test_shards_identify_as_fast_as_discords_limit_allows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord allows ``max_concurrency`` IDENTIFYs per 5 s (one per bucket
    ``shard % max_concurrency``): with 2 buckets both shards connect together, where
    discord.py's default waited 5 s before every shard but the first (a standby taking
    two shards over lost 5 s for nothing)."""
    fake = FakeDiscord(shards=2, max_concurrency=2)
    await fake.start()
    fake.patch(monkeypatch)
    config = Config.load(
        env={"CHIPFIST_DB": str(tmp_path / "db.sqlite3"), "CHIPFIST_SHARD_COUNT": "2"},
        dotenv=None,
    )
    bot = make_bot(config, sync=False, clocks=False, **FakeDiscord.client_options())
    try:
        async with run_bot(fake, bot, timeout=20):
            first, second = sorted(s.identified_at for s in fake.live_sessions())
            assert second - first < 2.0, second - first
    finally:
        await fake.stop()
