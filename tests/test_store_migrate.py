"""``python -m bot migrate-store SQLITE_FILE POSTGRES_URL``: a live single-process database
(tables mid-hand, a closed table, snapshots, the ledger, player preferences) copied into
PostgreSQL; conservation (R-2.5) and identical recovery verified; a non-empty target
refused."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.local.robot import pick
from bot.migrate_store import migrate_store
from bot.store import StoreError, open_store
from bot.table.ports import open_store as open_port
from bot.table.state import state_digest
from cogs.prefs import load_notify_modes, save_notify_mode
from tests.harness import Harness

ROOT = Path(__file__).resolve().parents[1]


async def _live_database(path: str) -> dict[str, str]:
    """A SQLite database as a running bot leaves it; the digest of each open table."""
    store = await open_port(path)
    h = Harness(store=store)
    h.service.snapshot_every = 3
    rng = random.Random(11)
    digests = {}
    for table_id in ("t1", "t2", "t3"):
        table = await h.seated(["a", "b", "c"], table_id=table_id)
        table.snapshot_every = 3
        for _ in range(3):
            await h.deal(table)
            await h.play_passively(table)
        await h.deal(table)  # left mid-hand
        hand = table.state.hand
        assert hand is not None
        info = table.state.current
        assert info is not None
        await h.do(table, info.users[hand.to_act], pick(hand.legal(), rng))
        digests[table_id] = state_digest(table.state)
    gone = await h.seated(["a", "b"], table_id="gone")
    assert (await gone.close("host", key=h.key())).ok
    await save_notify_mode(store, "a", "dm")
    await store.close()
    return digests


async def test_r2_5_migrate_store_copies_and_recovers_identically(
    tmp_path: Path, pg_cluster: Any
) -> None:
    """The copy recovers every open table exactly where it was, hands in progress
    included, with the ledger agreeing (R-2.5); closed tables stay closed; prefs kept."""
    path = str(tmp_path / "live.sqlite3")
    digests = await _live_database(path)
    url = pg_cluster.new_database()
    report = await migrate_store(path, url)
    assert report.open_tables == 3 and report.hands_in_progress == 3
    assert report.rows["events"] > 0 and report.rows["ledger"] > 0 and report.rows["snapshots"]
    store = await open_port(url)
    try:
        h = Harness(store=store)
        assert await h.service.recover() == []
        for table_id, digest in digests.items():
            table = h.service.table(table_id)
            assert state_digest(table.state) == digest
            h.check(table)
            await h.play_passively(table)  # and it plays on, on PostgreSQL
        assert sorted(await store.open_tables()) == ["t1", "t2", "t3"]
        assert await load_notify_modes(store) == {"a": "dm"}
    finally:
        await store.close()


async def test_migrate_store_refuses_a_non_empty_target(tmp_path: Path, pg_cluster: Any) -> None:
    path = str(tmp_path / "live.sqlite3")
    await _live_database(path)
    url = pg_cluster.new_database()
    target = await open_store(url)
    await target.append("other", "created", {})
    await target.close()
    with pytest.raises(StoreError, match="not empty"):
        await migrate_store(path, url)
    target = await open_store(url)
    try:
        assert await target.open_tables() == ["other"]  # nothing was written
        assert await target.events("t1") == []
    finally:
        await target.close()
    with pytest.raises(StoreError, match="no SQLite database"):
        await migrate_store(str(tmp_path / "missing.sqlite3"), pg_cluster.new_database())


def test_migrate_store_command_line(tmp_path: Path, pg_cluster: Any) -> None:
    """The command a user runs: a clear summary on success, a clear refusal (exit 1, no
    traceback) on a second run into the now non-empty database."""
    import asyncio

    path = str(tmp_path / "live.sqlite3")
    asyncio.run(_live_database(path))
    url = pg_cluster.new_database()
    cmd = [sys.executable, "-m", "bot", "migrate-store", path, url]
    env = {**os.environ, "DISCORD_TOKEN": ""}
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "3 open tables recover identically (3 with a hand in progress)" in done.stdout
    again = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 1
    assert "not empty" in again.stderr and "Traceback" not in again.stderr


async def test_r2_5_verification_catches_a_bad_copy(tmp_path: Path, pg_cluster: Any) -> None:
    """The check after the copy is real: a copy whose ledger lost chips, or whose hand in
    progress lost an action, is reported, not passed."""
    import asyncpg

    from bot.migrate_store import verify_copy

    path = str(tmp_path / "live.sqlite3")
    await _live_database(path)
    url = pg_cluster.new_database()
    report = await migrate_store(path, url)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "UPDATE ledger SET amount = amount - 1"
            " WHERE id = (SELECT MIN(id) FROM ledger WHERE table_id = 't2')"
        )
        with pytest.raises(StoreError, match="'t2'"):
            await verify_copy(path, url, report.rows)
        await conn.execute(
            "UPDATE ledger SET amount = amount + 1"
            " WHERE id = (SELECT MIN(id) FROM ledger WHERE table_id = 't2')"
        )
        await verify_copy(path, url, report.rows)  # repaired: passes again
        await conn.execute(
            "DELETE FROM events WHERE table_id = 't3' AND seq = (SELECT MAX(seq) FROM events"
            " WHERE table_id = 't3')"
        )
        with pytest.raises(StoreError, match="'t3'"):
            await verify_copy(path, url, report.rows)
    finally:
        await conn.close()
