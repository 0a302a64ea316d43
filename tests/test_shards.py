"""Shard leases and table ownership on PostgreSQL (issue 16, "Several processes").

The lease (bot/store/lease.py): acquire, renew, expire, take over, and the fence that
makes a stale owner's append fail. Ownership (bot/table/ownership.py) through two table
services on one database, each with its own store and lease connection, as two
processes would have: the second takes the shard over after the lease expires, recovers
the hand in progress from the log and finishes it; the first, waking up late, is refused
and drops the table. Chips are conserved throughout (R-2.5).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.store import StaleFence, open_store
from bot.store.lease import LeaseStore, fence_name, shard_of
from bot.table.ownership import NotOwned, Ownership, parse_shards
from bot.table.ports import NullPresenter, StoreAdapter
from bot.table.service import TableService
from bot.table.settings import TableSettings
from tests.pgcluster import Cluster

TTL = 0.6


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    return pg_cluster.new_database()


@pytest.fixture
async def leases(pg_url: str) -> AsyncIterator[LeaseStore]:
    store = await open_store(pg_url)  # migrates: the fences table
    lease = await LeaseStore.open(pg_url, ttl=TTL)
    yield lease
    await lease.close()
    await store.close()


def test_shard_formula_and_shard_lists() -> None:
    """Discord's formula (guild_id >> 22) % shard_count, and CHIPFIST_SHARDS' syntax."""
    assert shard_of(81384788765712384, 1) == 0
    assert shard_of(81384788765712384, 8) == (81384788765712384 >> 22) % 8
    assert parse_shards("0-3") == {0, 1, 2, 3}
    assert parse_shards("0,2,5-6") == {0, 2, 5, 6}
    assert parse_shards("") == frozenset()
    with pytest.raises(ValueError, match="0-3"):
        parse_shards("a")
    with pytest.raises(ValueError, match="low shard"):
        parse_shards("3-1")


async def test_lease_acquire_renew_expire_take_over(leases: LeaseStore) -> None:
    """One owner at a time; renewing keeps the generation; after expiry another takes
    the shard with a new generation and the old owner can neither renew nor re-take."""
    a = await leases.acquire(0, "a")
    assert a is not None and a.generation == 1
    assert await leases.acquire(0, "b") is None  # held
    again = await leases.acquire(0, "a")
    assert again is not None and again.generation == 1  # own unexpired lease: kept
    renewed = await leases.renew(a)
    assert renewed is not None and renewed.expires_at >= a.expires_at
    await asyncio.sleep(TTL * 1.5)
    assert await leases.renew(renewed) is None  # lapsed: not renewable
    b = await leases.acquire(0, "b")
    assert b is not None and b.generation == 2 and b.owner == "b"
    assert await leases.acquire(0, "a") is None
    assert await leases.renew(renewed) is None
    rows = await leases.leases()
    assert [(r.shard, r.owner, r.generation) for r in rows] == [(0, "b", 2)]
    # A clean stop releases: the next one need not wait for the expiry.
    await leases.release(b)
    c = await leases.acquire(0, "c")
    assert c is not None and c.generation == 3


async def test_stale_owner_append_refused(pg_url: str, leases: LeaseStore) -> None:
    """The lease's generation is the store's fence: once the shard is taken over, the
    old owner's append (with its ledger rows) is refused and nothing is written."""
    store = await open_store(pg_url)
    try:
        a = await leases.acquire(3, "a")
        assert a is not None and a.fence == (fence_name(3), 1)
        assert await store.append("t", "x", {"n": 1}, fence=a.fence) == 1
        await asyncio.sleep(TTL * 1.5)
        b = await leases.acquire(3, "b")
        assert b is not None
        with pytest.raises(StaleFence):
            await store.append("t", "x", {"n": 2}, fence=a.fence)
        assert await store.append("t", "x", {"n": 3}, fence=b.fence) == 2
        assert [e.payload["n"] for e in await store.events("t")] == [1, 3]
    finally:
        await store.close()


async def _process(url: str, name: str, shards: set[int], guild: int, **kw: Any) -> TableService:
    """What one bot process holds: its own store, lease connection and service."""
    adapter = StoreAdapter(await open_store(url))
    lease = await LeaseStore.open(url, ttl=TTL)
    ownership = Ownership(lease, name, 2, shards, guild_of=lambda _t: guild, **kw)
    adapter.fencing = ownership
    return TableService(adapter, NullPresenter(), ownership=ownership)


async def _close(service: TableService) -> None:
    await service.stop()
    assert service.ownership is not None
    await service.ownership.leases.close()
    await service.store.close()


def _to_act(table: Any) -> tuple[str, str]:
    hand = table.state.hand
    user = table.state.current.users[hand.to_act]
    return user, "check" if "check" in hand.legal().actions else "call"


async def test_standby_takes_over_and_stale_owner_drops(pg_url: str) -> None:
    """R-2.5 across a take-over: owner A plays; A stops renewing (paused); after the lease
    the standby B takes the shard, recovers the hand from the log and finishes it; A's
    late action is refused (NotOwned) and A stops driving the table. No action is
    applied twice: the log has each turn once."""
    guild = 5 << 22  # shard 1 of 2
    a = await _process(pg_url, "a", {1}, guild)
    b = await _process(pg_url, "b", set(), guild, standby=True)
    try:
        await a.lease_step()
        assert a.ownership is not None and set(a.ownership.held) == {1}
        assert (await a.create("c1", "host", TableSettings())).ok
        table = a.table("c1")
        for n in ("p1", "p2", "p3"):
            assert (await table.sit(n, n, 100, key=f"sit-{n}")).ok
        assert (await table.deal("host", key="deal-1")).ok
        user, word = _to_act(table)
        assert (await table.act(user, word, key="a-1")).ok
        # B, a standby, cannot take a held shard (it takes shard 0, which nobody holds).
        await b.lease_step()
        assert b.ownership is not None and set(b.ownership.held) == {0} and not b.tables
        # A is "paused": no renewal. After the lease B takes shard 1 and its table.
        await asyncio.sleep(TTL * 1.5)
        await b.lease_step()
        assert set(b.ownership.held) == {0, 1}
        moved = b.table("c1")
        assert moved.state.hand is not None and moved.state.seq == table.state.seq
        # A wakes up and acts on its stale copy: its lease ran out by its own clock, so
        # the command is refused before it reaches the store; nothing changed.
        user, word = _to_act(table)
        out = await table.act(user, word, key="a-late")
        assert not out.ok and out.msg == NotOwned("c1").msg
        assert not a.ownership.owns("c1")
        # Had A's clock told it the lease still ran (a clock that jumped), the store's
        # fence refuses the append, and A drops the shard and its table at once.
        a.ownership.valid_until[1] = time.monotonic() + 60
        out = await table.act(user, word, key="a-later")
        assert not out.ok and out.msg == NotOwned("c1").msg
        assert "c1" not in a.tables and 1 not in a.ownership.held
        with pytest.raises(NotOwned):  # the next command is told why, not "no table"
            a.table("c1")
        # B finishes the hand; conservation holds on the recovered table.
        while moved.state.hand is not None:
            user, word = _to_act(moved)
            assert (await moved.act(user, word, key=f"b-{moved.state.turn}")).ok
            assert moved.conservation_error() is None
        events = await b.store.events("c1")
        keys = [e.idem_key for e in events if e.idem_key]
        assert len(keys) == len(set(keys)) and not {"a-late", "a-later"} & set(keys)
        assert sum(s.stack for s in moved.state.seats.values()) == 300
        # A's next step does not take the shard back while B holds it.
        await a.lease_step()
        assert not a.ownership.held
    finally:
        await _close(a)
        await _close(b)


async def test_R_19_76_work_after_a_take_over_longer_than_the_lease_keeps_the_lease(
    pg_url: str,
) -> None:
    """R-19.76: what follows taking a shard (replaying its tables, adopting its
    tournaments) can outlast a short lease on a busy host. The lease is renewed
    meanwhile: the shard stays held at the generation it was taken with (not let lapse
    and taken again under a new fence), and its tables are written to at once."""
    guild = 5 << 22  # shard 1 of 2
    b = await _process(pg_url, "b", {1}, guild)
    calls: list[int] = []

    async def slow_adoption() -> None:
        calls.append(1)
        await asyncio.sleep(TTL * 2.5)

    b.lease_hooks.append(slow_adoption)
    try:
        assert b.ownership is not None
        await b.lease_step()
        assert calls == [1]
        assert b.ownership.held[1].generation == 1
        assert (await b.create("c1", "host", TableSettings())).ok
        assert b.ownership.owns("c1") and b.ownership.shard("c1") == 1
        await b.lease_step()
        assert b.ownership.held[1].generation == 1
        rows = await b.ownership.leases.leases()
        assert [(r.shard, r.owner, r.generation) for r in rows] == [(1, "b", 1)]
        fences = await open_store(pg_url)
        try:
            assert await fences.fence_generation(fence_name(1)) == 1
        finally:
            await fences.close()
    finally:
        await _close(b)


async def test_tables_of_other_shards_are_not_driven(pg_url: str) -> None:
    """A process recovers only the tables of its shards; a create for a guild of a shard
    it does not hold is refused with what to do, and nothing is written."""
    guilds = {"c0": 4 << 22, "c1": 5 << 22}
    a = await _process(pg_url, "a", {0}, 0)
    assert a.ownership is not None
    a.ownership.guild_of = guilds.get
    try:
        await a.lease_step()
        assert (await a.create("c0", "h", TableSettings())).ok
        refused = await a.create("c1", "h", TableSettings())
        assert not refused.ok and refused.msg.key == "table.not_owned"
        assert await a.store.open_tables() == ["c0"]
    finally:
        await _close(a)
    b = await _process(pg_url, "b", {1}, 0)
    try:
        await b.lease_step()
        assert b.tables == {}  # c0 is shard 0's
    finally:
        await _close(b)


async def test_reserved_logs_are_written_by_any_process_unfenced(pg_url: str) -> None:
    """The Discord side's process-wide logs (command-sync hash, preferences, table
    message ids: ids starting with "_") belong to no shard: a process holding only shard
    1 (or none, a standby) appends to them, with no fence, while a table of shard 0 is
    still refused. Before, they fell to shard 0 and a process without it failed to
    start (its command sync was refused)."""
    a = await _process(pg_url, "a", {1}, 4 << 22)  # the guild is on shard 0
    b = await _process(pg_url, "b", set(), 0, standby=True)
    try:
        await a.lease_step()
        assert a.ownership is not None and set(a.ownership.held) == {1}
        assert a.ownership.fence_for("_command_sync") is None
        assert await a.store.append("_command_sync", "synced", {"n": 1}) == 1
        assert await b.store.append("_player_prefs", "notify", {"n": 2}) == 1
        with pytest.raises(NotOwned):
            await a.store.append("123", "x", {})
        refused = await a.create("123", "h", TableSettings())
        assert not refused.ok and await a.store.open_tables() == []
    finally:
        await _close(a)
        await _close(b)


async def test_processes_append_to_one_shared_log_at_once(pg_url: str) -> None:
    """Invariant 4 with several processes: two stores (two processes' writers) append to
    the same unfenced, shared log at once (as the bot processes record their table
    messages); every append lands, seqs 1..N with no gap, none refused for a seq taken
    by the other process."""
    a, b = await open_store(pg_url), await open_store(pg_url)
    try:
        rounds = 30
        for n in range(rounds):
            await asyncio.gather(
                a.append("_table_messages", "table_message", {"n": n, "by": "a"}),
                b.append("_table_messages", "table_message", {"n": n, "by": "b"}),
            )
        events = await a.events("_table_messages")
        assert [e.seq for e in events] == list(range(1, 2 * rounds + 1))
    finally:
        await a.close()
        await b.close()


async def test_paused_writer_holding_the_fence_does_not_block_take_over(
    pg_url: str, leases: LeaseStore
) -> None:
    """A process paused in the middle of a write holds the shard's fence row: the take-over
    does not wait forever (lock_timeout: the step gives up and retries) and the server
    ends the idle transaction (postgres.WRITER_SETTINGS), after which the shard moves."""
    import asyncpg

    from bot.store.postgres import WRITER_SETTINGS

    a = await leases.acquire(0, "a")
    assert a is not None
    await asyncio.sleep(TTL * 1.5)  # a's lease lapsed, but a is "inside a batch":
    paused = await asyncpg.connect(pg_url, server_settings=WRITER_SETTINGS)
    tx = paused.transaction()
    await tx.start()
    await paused.execute("SELECT generation FROM fences WHERE name = $1 FOR UPDATE", "shard:0")
    started = time.monotonic()
    assert await leases.acquire(0, "b") is None  # gave up after lock_timeout
    assert time.monotonic() - started < 2
    taken = None
    while taken is None and time.monotonic() - started < 10:
        await asyncio.sleep(0.5)
        taken = await leases.acquire(0, "b")
    assert taken is not None and taken.generation == 2
    with pytest.raises((asyncpg.PostgresError, asyncpg.InterfaceError, ConnectionError)):
        await paused.execute("SELECT 1")  # the paused process's transaction was ended
    await paused.close()


async def test_create_during_take_over_does_not_shadow_the_logged_table(pg_url: str) -> None:
    """R-1.1 across a take-over: a create for a channel whose table another process made
    is answered "already has a table" from the log, even before the new owner recovered
    the shard's tables, and never replaces it with a blank table (which would refuse the
    host: "Only the host or a moderator")."""
    guild = 4 << 22
    a = await _process(pg_url, "a", {0}, guild)
    b = await _process(pg_url, "b", {0}, guild)
    try:
        await a.lease_step()
        assert (await a.create("c1", "host", TableSettings(), key="create-c1")).ok
        assert (await a.table("c1").sit("p1", "p1", 100, key="sit-1")).ok
        await asyncio.sleep(TTL * 1.5)
        assert b.ownership is not None
        await b.ownership.step()  # the lease is b's; its tables not recovered yet
        out = await b.create("c1", "host", TableSettings(), key="create-c1")
        assert not out.ok and out.msg.key == "table.channel_has_table"
        table = b.table("c1")
        assert table.state.host == "host" and table.state.seat_of("p1") is not None
        assert (await table.sit("p2", "p2", 100, key="sit-2")).ok
        await b.recover()  # the late recovery keeps the table already driven
        assert b.table("c1") is table
    finally:
        await _close(a)
        await _close(b)


async def test_lease_connection_takes_concurrent_calls(leases: LeaseStore) -> None:
    """Tables created together while the lease loop renews: one connection, calls in
    turn (asyncpg refuses two operations at once on one connection)."""
    a = await leases.acquire(0, "a")
    assert a is not None
    await asyncio.gather(
        *(leases.record_guild(f"c{i}", i << 22) for i in range(20)),
        leases.renew(a),
        leases.acquire(1, "a"),
    )
    assert len(await leases.guilds([f"c{i}" for i in range(20)])) == 20


def test_shard_settings_are_checked_with_what_is_allowed() -> None:
    """CHIPFIST_SHARDS / CHIPFIST_SHARD_COUNT: a bad list or a shard past the count is
    refused with what is allowed; unset count means the plain bot."""
    from pydantic import ValidationError

    from bot.config import Config, settings_error

    assert Config.load(env={}, dotenv=None).shard_ids() is None
    config = Config.load(env={"CHIPFIST_SHARD_COUNT": "8", "CHIPFIST_SHARDS": "0-3"}, dotenv=None)
    assert config.shard_ids() == [0, 1, 2, 3]
    every = Config.load(env={"CHIPFIST_SHARD_COUNT": "4"}, dotenv=None)
    assert every.shard_ids() == [0, 1, 2, 3]
    standby = Config.load(env={"CHIPFIST_SHARD_COUNT": "4", "CHIPFIST_STANDBY": "1"}, dotenv=None)
    assert standby.shard_ids() == []
    with pytest.raises(ValidationError) as bad:
        Config.load(env={"CHIPFIST_SHARDS": "zero"}, dotenv=None)
    assert "CHIPFIST_SHARDS" in settings_error(bad.value) and "0-3" in str(bad.value)
    past = Config.load(env={"CHIPFIST_SHARD_COUNT": "2", "CHIPFIST_SHARDS": "0-3"}, dotenv=None)
    with pytest.raises(ValueError, match="ids go from 0 to 1"):
        past.shard_ids()
