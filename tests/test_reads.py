"""Reads that do not grow with a table's age: ``/export`` of a hand, ``/stats``,
``/ledger`` and ``/settle`` are served from the store's index of hands, its seating
index and its running totals (migration 6), never by reading the table's whole log.

Each answer is held to the one the code gave when it read the whole log (the reference
folds below are that code, kept here verbatim in substance), on both back ends, on a
table with many hands, on a database migrated from the version before the totals
(backfilled), and on the legacy fixture (tests/data/legacy_log.sqlite3), whose hand ends
do not name their players. Chips are conserved throughout (R-2.5)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

from bench.reads import amain as bench_reads
from bot.local.robot import pick
from bot.migrate_store import migrate_store
from bot.poker import phh
from bot.poker.hand import Hand
from bot.store import is_postgres
from bot.store.handtotals import LogFold
from bot.table import log as tlog
from bot.table.ports import LedgerKind, LoggedEvent, StoreAdapter, StorePort, open_store
from bot.table.service import TableService
from bot.table.session import PlayerStats, SessionReport, hand_stats, session_results
from bot.table.settings import TableSettings
from bot.table.state import HandInfo
from bot.table.table import Table
from tests.harness import HOST, Harness, told_story
from tests.make_legacy_log import DB as LEGACY
from tests.test_store import _sql
from tests.test_store_hand_sessions import undo_hand_sessions

# ---------------------------------------------------------------------- the full scans


def full_scan_hand(events: list[LoggedEvent], table_id: str, hand_no: int) -> HandInfo | None:
    """A hand as the whole-log reader found it."""
    names: dict[int, str] = {}
    users: dict[int, str] = {}
    found: HandInfo | None = None
    for ev in events:
        rec = tlog.read_event(ev.kind, ev.payload, table_id=table_id, seq=ev.seq)
        if isinstance(rec, tlog.Created):
            found = None
        elif isinstance(rec, tlog.Sat):
            names[rec.seat] = rec.name
            users[rec.seat] = rec.user
        elif isinstance(rec, tlog.HandStarted) and rec.hand_no == hand_no:
            order = rec.order
            found = HandInfo.started(
                rec,
                tuple(names.get(s, f"seat {s}") for s in order),
                tuple(users.get(s, "") for s in order),
            )
        elif found is not None and isinstance(rec, tlog.ActionTaken) and rec.hand_no == hand_no:
            found.actions.append(rec.action)
        elif found is not None and isinstance(rec, tlog.HandEnded) and rec.hand_no == hand_no:
            found.ended = True
            break
    return found


def full_scan_export(info: HandInfo, viewer: str | None) -> str:
    hand: Hand = info.start.new_hand()
    for action in info.actions:
        hand.apply(action)
    position = info.users.index(viewer) if viewer in info.users else None
    return phh.export_hand(hand, players=list(info.names), viewer=position)


async def full_scan_session(store: StorePort, table: Table) -> SessionReport:
    table_id = table.table_id
    opened = table.state.opened_seq  # this table's session, not an earlier table's
    rows = [r for r in await store.ledger_rows(table_id) if r.seq >= opened]
    seats = list(table.state.seats.values())
    stacks = {s.user_id: s.stack for s in seats}
    names = {
        sat.user: sat.name
        for sat in tlog.read_rows(await store.events(table_id), tlog.Sat, table_id=table_id)
    }
    names.update({s.user_id: s.name for s in seats})
    results = tuple(r for r in session_results(rows, stacks) if r.user_id != "house")
    totals = dict.fromkeys(LedgerKind, 0)
    for r in rows:
        totals[r.kind] = totals.get(r.kind, 0) + r.amount
    return SessionReport(results, names, totals if results else {})


async def full_scan_stats(store: StorePort, table_id: str) -> list[PlayerStats]:
    return hand_stats((e.kind, e.payload) for e in await store.events(table_id))


async def assert_reads_match_full_scan(service: TableService, table: Table) -> int:
    """Every read of ``table`` equals the whole log's answer; the hands compared."""
    store, table_id = service.store, table.table_id
    summed: dict[tuple[str, LedgerKind], int] = {}
    for row in await store.ledger_rows(table_id):
        if row.seq < table.state.opened_seq:
            continue
        summed[(row.player_id, row.kind)] = summed.get((row.player_id, row.kind), 0) + row.amount
    assert await store.ledger_sums(table_id) == summed
    assert await service.stats(table_id) == await full_scan_stats(store, table_id)
    report = await service.session(table_id)
    assert report == await full_scan_session(store, table)
    assert report.payments() == (await full_scan_session(store, table)).payments()
    events = await store.events(table_id)
    table.state.recent.clear()  # every hand from the store, none from memory
    compared = 0
    for hand_no in range(1, table.state.hand_no + 1):
        info = full_scan_hand(events, table_id, hand_no)
        if info is None or not info.ended:
            continue
        for viewer in (*info.users, None):
            assert await table.hand_history(hand_no, viewer) == full_scan_export(info, viewer)
        compared += 1
    return compared


# ---------------------------------------------------------------------- a long table


async def play_long_table(h: Harness, hands: int, seed: int = 7) -> Table:
    """Robots play ``hands`` hands with a rake; a player leaves partway and another sits in
    his seat (so a seat's name changes), a busted one tops up, and the stakes change."""
    table = await h.seated(["a", "b", "c"], buy_in=200, rake_percent_bp=500, rake_cap=3)
    rng = random.Random(seed)
    while table.state.hand_no < hands or table.state.hand is not None:
        st = table.state
        if st.hand is None:
            if st.hand_no == hands // 3 and st.seat_of("c") is not None:
                seat = st.seat_of("c")
                assert seat is not None
                assert (await table.stand("c", key=h.key())).ok
                assert (await table.sit("d", "Dora", 150, seat.number, key=h.key())).ok
            if st.hand_no == hands // 2 and st.settings.big_blind == 2:
                out = await table.change_settings(HOST, {"big_blind": 4}, key=h.key())
                assert out.ok, out.msg
            for seat in list(st.seats.values()):
                if seat.stack == 0:
                    assert (await table.top_up(seat.user_id, 200, key=h.key())).ok
            out = await h.deal(table)
            assert out.ok, out.msg
            continue
        actor = st.hand.actors()[0]
        info = st.current
        assert info is not None
        out = await table.act(
            info.users[actor.position], pick(actor.legal, rng), key=h.key(), turn=st.turn
        )
        assert out.ok, out.msg
        h.check(table)  # after every step
    return table


async def test_reads_equal_the_full_scan_on_a_long_table(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        h = Harness(store=store)
        table = await play_long_table(h, 45)
        compared = await assert_reads_match_full_scan(h.service, table)
        assert compared == 45
        stats = await h.service.stats(table.table_id)
        assert {s.user_id for s in stats} == {"a", "b", "c", "d"}
        assert sum(s.net for s in stats) + (await store.ledger_totals("t"))["rake"] == 0
        # After a restart (a fresh service from the same store), the same answers.
        again = TableService(store, h.presenter, h.time)
        assert await again.recover() == []
        assert await assert_reads_match_full_scan(again, again.table("t")) == 45
    finally:
        await store.close()


async def test_reads_never_read_the_whole_log(tmp_path: Path, monkeypatch: Any) -> None:
    """``/export`` of an old hand (and the terminal's story of it), ``/stats``,
    ``/ledger`` and ``/settle`` read indexed rows and running totals: never the table's
    log from its start, nor its every ledger row, so they cost the same at any age."""
    store = await open_store(str(tmp_path / "reads.sqlite3"))
    try:
        h = Harness(store=store)
        table = await play_long_table(h, 12, seed=5)
        table.state.recent.clear()
        whole: list[str] = []

        async def events(table_id: str, after_seq: int = 0) -> list[LoggedEvent]:
            whole.append(f"events({table_id}, after {after_seq})")
            return []

        async def ledger_rows(table_id: str) -> list[Any]:
            whole.append(f"ledger_rows({table_id})")
            return []

        monkeypatch.setattr(store, "events", events)
        monkeypatch.setattr(store, "ledger_rows", ledger_rows)
        assert "p1" in await table.hand_history(1, "a")
        assert (await told_story(table, 2)).startswith("Hand #2")
        assert await h.service.stats("t")
        report = await h.service.session("t")
        assert report.results and report.totals["buy_in"] > 0
        assert whole == []
    finally:
        await store.close()


async def test_r14_4_reads_of_a_reopened_channel(store_url: str) -> None:
    """R-14.4 and R-16.11: a channel's table closed and a new one opened there. /ledger
    and /settle are the new table's session (the sums start again at its ``created``),
    /stats counts the channel's every hand as the whole log does, and an export of a
    number both tables dealt is the new table's hand, the one the table itself shows."""
    store = await open_store(store_url)
    try:
        h = Harness(store=store)
        first = await play_long_table(h, 9, seed=4)
        assert (await first.close(HOST, key=h.key())).ok
        out = await h.service.create("t", HOST, TableSettings.of(), key=h.key())
        assert out.ok, out.msg
        table = h.service.table("t")
        for name in ("erin", "frank"):
            assert (await table.sit(name, name.title(), 100, key=h.key())).ok
        shown: dict[int, str] = {}
        for _ in range(3):
            assert (await h.deal(table)).ok
            await h.play_passively(table)
            hand_no = table.state.hand_no
            shown[hand_no] = await table.hand_history(hand_no, "erin")  # from memory
        h.check(table)
        report = await h.service.session("t")
        assert {r.user_id for r in report.results} == {"erin", "frank"}
        assert report == await full_scan_session(store, table)
        assert await h.service.stats("t") == await full_scan_stats(store, "t")
        assert len(await h.service.stats("t")) == 6  # both tables' players
        table.state.recent.clear()
        for hand_no, text in shown.items():
            assert await table.hand_history(hand_no, "erin") == text  # from the store
        again = TableService(store, h.presenter, h.time)
        assert await again.recover() == []
        assert await again.session("t") == report
    finally:
        await store.close()


async def test_reads_memory_store_keeps_the_same_totals() -> None:
    """The unit tests' in-memory store answers the new reads as the real store does."""
    h = Harness()
    table = await play_long_table(h, 25, seed=3)
    assert await assert_reads_match_full_scan(h.service, table) == 25


async def test_reads_migration_backfills_the_totals_of_an_old_database(store_url: str) -> None:
    """A database at the version before the totals: migration 6 folds the logs already
    written into the same hand totals and ledger sums the writer keeps, and builds the
    seating index."""
    store = await open_store(store_url)
    h = Harness(store=store)
    await play_long_table(h, 30, seed=11)
    assert isinstance(store, StoreAdapter)
    kept = await store.hand_totals("t")
    sums = await store.ledger_sums("t")
    assert sums[("house", LedgerKind.RAKE)] > 0  # the rake is summed too
    await store.close()
    # Back to version 5, as a database written by the code before the totals (and
    # before the night's record, migration 7, and the hands by table, migration 8,
    # which run again after 6).
    for later in ("ledger_days", "player_days", "hand_stacks"):
        await _sql(store_url, f"DROP TABLE {later}")
    await undo_hand_sessions(store_url)
    await _sql(store_url, "DROP TABLE hand_totals")
    await _sql(store_url, "DROP TABLE ledger_sums")
    await _sql(store_url, "DROP INDEX events_seating")
    await _sql(store_url, "UPDATE schema_version SET version = 5")
    store = await open_store(store_url)
    try:
        assert await store.hand_totals("t") == kept
        assert await store.ledger_sums("t") == sums
        service = TableService(store, h.presenter, h.time)
        assert await service.recover() == []
        assert await assert_reads_match_full_scan(service, service.table("t")) == 30
        if not is_postgres(store_url):
            plan = await _sql(
                store_url,
                "EXPLAIN QUERY PLAN SELECT seq FROM events WHERE table_id = 't'"
                " AND kind IN ('created', 'sat', 'settings') AND seq < 99 ORDER BY seq",
            )
            assert any("events_seating" in str(row[-1]) for row in plan), plan
    finally:
        await store.close()


async def test_reads_legacy_log_equal_the_full_scan(tmp_path: Path) -> None:
    """The fixture written before the records (and before hand ends named their
    players): after its migrations every read equals the whole log's answer."""
    path = tmp_path / "legacy.sqlite3"
    shutil.copy(LEGACY, path)
    store = await open_store(str(path))
    try:
        h = Harness(store=store)
        assert await h.service.recover() == []
        compared = 0
        for table_id in ("t1", "t2"):
            table = h.service.table(table_id)
            h.check(table)
            assert await h.service.stats(table_id)  # the backfill found its hands
            compared += await assert_reads_match_full_scan(h.service, table)
        assert compared == 8
        # The hand in progress plays out; its end is counted by the writer as before.
        table = h.service.table("t1")
        await h.play_passively(table)
        await h.deal(table)
        await h.play_passively(table)
        assert await assert_reads_match_full_scan(h.service, table) == 7
    finally:
        await store.close()


async def test_reads_bench_runs_small(tmp_path: Path) -> None:
    """``python -m bench reads`` at a small size: it builds the table, times every read
    and prints the figures by name."""

    class Args:
        hands = 12
        calls = 3
        db = str(tmp_path / "reads.sqlite3")

    figures = await bench_reads(Args())  # type: ignore[arg-type]  # argparse's namespace
    assert figures["hands"] == "12 hands"
    for read in ("export hand 1", "stats", "ledger", "settle"):
        for figure in ("p50", "p99", "stall max"):
            value, unit = figures[f"{read} {figure}"].split()
            assert unit == "ms" and float(value) >= 0
    assert figures["event loop stall max"].endswith(" ms")
    again = await bench_reads(Args())  # the kept file is reused, not built again
    assert again["build"] == "0.0 s"


async def test_reads_migrate_store_keeps_the_hand_totals(tmp_path: Path, pg_cluster: Any) -> None:
    """``migrate-store`` copies the running totals with the logs: /stats on PostgreSQL
    after the move is what it was on SQLite, and the whole log's answer."""
    path = str(tmp_path / "live.sqlite3")
    store = await open_store(path)
    h = Harness(store=store)
    await play_long_table(h, 15, seed=9)
    before = await h.service.stats("t")
    await store.close()
    url = pg_cluster.new_database()
    report = await migrate_store(path, url)
    assert report.rows["hand_totals"] == len(before) == 4  # a, b, c and d
    store = await open_store(url)
    try:
        service = TableService(store, h.presenter, h.time)
        assert await service.recover() == []
        assert await service.stats("t") == before
        assert await assert_reads_match_full_scan(service, service.table("t")) == 15
    finally:
        await store.close()


async def test_reads_backfill_fold_is_the_same_in_any_chunks() -> None:
    """The migration streams the old rows in chunks: a fold fed one row at a time gives
    the totals of one fed all at once, for two tables' logs one after the other, and
    those are the whole-log /stats."""
    h = Harness()
    await play_long_table(h, 12, seed=2)
    other = await h.seated(["x", "y"], table_id="u")
    for _ in range(3):
        await h.deal(other)
        await h.play_passively(other)
    rows = [
        (e.table_id, e.seq, e.kind, json.dumps(e.payload))
        for table_id in ("t", "u")
        for e in await h.store.events(table_id)
        if e.kind in ("sat", "hand_started", "hand_ended")
    ]
    whole, piecemeal = LogFold(), LogFold()
    whole.feed(rows)
    for row in rows:
        piecemeal.feed([row])
    assert whole.rows() == piecemeal.rows()
    for table_id in ("t", "u"):
        expected = await full_scan_stats(h.store, table_id)
        got = {r[1]: r[2:] for r in whole.rows() if r[0] == table_id}
        assert got == {s.user_id: (s.hands, s.won, s.net, s.biggest_win) for s in expected}
