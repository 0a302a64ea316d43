"""The store's index of hands is keyed by the table's session and the hand (R-20.97): a
channel's tables each count their hands from 1, so an earlier table's hand N is still
found once a later table reaches N. Runs on SQLite and PostgreSQL (``store_url``), for a
new store and for one migrated from the version before."""

from __future__ import annotations

from bot.store import open_store
from bot.store.schema import LATEST
from tests.test_store import _migrate, _sql, _version

# Two tables in one log: the first deals hands 1 and 2 and closes; the second deals 1.
LOG: list[tuple[str, int | None]] = [
    ("created", None),
    ("hand_started", 1),
    ("action", 1),
    ("hand_ended", 1),
    ("rabbit", 1),
    ("hand_started", 2),
    ("hand_ended", 2),
    ("closed", None),
    ("created", None),
    ("hand_started", 1),
    ("action", 1),
    ("action", 1),
    ("hand_ended", 1),
]
"""Seqs 1..13: first table's hand 1 is 2-4, its hand 2 is 6-7; the second's hand 1 is 10-13."""


async def undo_hand_sessions(url: str) -> None:
    """Take migration 8 back (for a test that sets a database back to an older version):
    the ``tables`` without their count, the hands index keyed by hand alone, empty (the
    migration rebuilds it from the log)."""
    await _sql(url, "ALTER TABLE tables DROP COLUMN sessions")
    await _sql(url, "DROP TABLE hands")
    await _sql(
        url,
        "CREATE TABLE hands (table_id TEXT NOT NULL, hand_no INTEGER NOT NULL,"
        " start_seq INTEGER NOT NULL, end_seq INTEGER, PRIMARY KEY (table_id, hand_no))",
    )


async def _check(url: str) -> None:
    s = await open_store(url)
    try:
        first = await s.hand_record("c", 1, session=1)
        assert first is not None and first.start.seq == 2 and first.end is not None
        assert (first.end.seq, [e.seq for e in first.actions]) == (4, [3])
        second = await s.hand_record("c", 1, session=2)
        assert second is not None and second.start.seq == 10 and second.end is not None
        assert (second.end.seq, [e.seq for e in second.actions]) == (13, [11, 12])
        newest = await s.hand_record("c", 1)  # not said: the newest of that number
        assert newest is not None and newest.start.seq == 10
        assert await s.hand_record("c", 2, session=2) is None
        old_two = await s.hand_record("c", 2, session=1)
        assert old_two is not None and old_two.start.seq == 6
        # What was settled after the first table's hand 1: up to its hand 2.
        after = await s.after_hand("c", 1, ["rabbit"], session=1)
        assert [e.seq for e in after] == [5]
        assert await s.after_hand("c", 1, ["rabbit"], session=2) == []
        # A table's finished hands are its own: the newest table's unless asked.
        assert [h.start.seq for h in await s.hands("c")] == [10]
        assert [h.start.seq for h in await s.hands("c", session=1)] == [6, 2]
    finally:
        await s.close()


async def test_R_20_97_the_hands_index_keeps_every_tables_hands(store_url: str) -> None:
    s = await open_store(store_url)
    try:
        for kind, hand in LOG:
            await s.append("c", kind, {}, hand_no=hand)
    finally:
        await s.close()
    await _check(store_url)


async def test_R_20_97_a_migrated_store_keys_its_hands_by_table(store_url: str) -> None:
    assert await _migrate(store_url, target=LATEST - 1) == LATEST - 1
    rows: list[tuple[object, ...]] = [
        ("c", seq, kind, hand) for seq, (kind, hand) in enumerate(LOG, start=1)
    ]
    await _sql(
        store_url,
        "INSERT INTO events (table_id, seq, kind, hand_no, payload, created_at)"
        " VALUES (?, ?, ?, ?, '{}', 0)",
        rows,
    )
    # The index as the version before kept it: the newest hand of each number only.
    await _sql(
        store_url,
        "INSERT INTO hands (table_id, hand_no, start_seq, end_seq) VALUES (?, ?, ?, ?)",
        [("c", 1, 10, 13), ("c", 2, 6, 7)],
    )
    await _sql(
        store_url,
        "INSERT INTO tables (table_id, is_open, changed_seq) VALUES (?, ?, ?)",
        [("c", 1, 9)],
    )
    assert await _migrate(store_url) == LATEST
    assert await _version(store_url) == LATEST
    await _check(store_url)
    # The migrated store goes on counting: the next table's hand 1 is its own.
    s = await open_store(store_url)
    try:
        await s.append("c", "closed", {})
        await s.append("c", "created", {})
        seq = await s.append("c", "hand_started", {}, hand_no=1)
        third = await s.hand_record("c", 1, session=3)
        assert third is not None and third.start.seq == seq
        first = await s.hand_record("c", 1, session=1)
        assert first is not None and first.start.seq == 2
    finally:
        await s.close()
