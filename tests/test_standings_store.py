"""The standings in the store (``bot/store/standings.py``), on both back ends: every test
taking ``store`` runs on a real SQLite file and on a real PostgreSQL database
(``tests/pgcluster.py``). A player's totals and a leaderboard are one query each, read
from the index the writer keeps from the events (guilds, hand results, privacy)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.store import BaseStore, DuplicateCommand, LedgerRow, Store, is_postgres, open_store
from bot.store.records import HOUSE
from bot.store.schema import migrate, pg_migrate

GUILD_A = 111 << 22
GUILD_B = 222 << 22


@pytest.fixture
async def store(store_url: str):  # type: ignore[no-untyped-def]
    s = await open_store(store_url)
    yield s
    await s.close()


async def _open(store: BaseStore, table: str, guild: int | None) -> None:
    payload: dict[str, Any] = {"host": "h"}
    if guild is not None:
        payload["guild"] = guild
    await store.append(table, "created", payload)


async def _hand(store: BaseStore, table: str, no: int, results: dict[str, tuple[int, int]]) -> None:
    await store.append(table, "hand_started", {"hand_no": no})
    await store.append(
        table,
        "hand_ended",
        {
            "hand_no": no,
            "users": list(results),
            "net": [n for n, _ in results.values()],
            "won": [w for _, w in results.values()],
        },
    )


async def _session(
    store: BaseStore, table: str, player: str, bought: int, cashed: int | None
) -> None:
    await store.append(table, "sat", {}, ledger=[LedgerRow(player, "buy_in", bought)])
    if cashed is not None:
        await store.append(table, "stood", {}, ledger=[LedgerRow(player, "cash_out", cashed)])


async def test_r14_4_player_totals_across_tables_and_guilds(store: BaseStore) -> None:
    """R-14.4: hands, hands won, biggest pot, tables and the net (cashed out less brought
    in) of one player, over every table or one guild's, in one query."""
    await _open(store, "t1", GUILD_A)
    await _open(store, "t2", GUILD_B)
    await _session(store, "t1", "alice", 100, 160)
    await _session(store, "t2", "alice", 200, 150)
    await _hand(store, "t1", 1, {"alice": (60, 110), "bob": (-60, 0)})
    await _hand(store, "t2", 1, {"alice": (-50, 0), "bob": (50, 100)})
    await _hand(store, "t2", 2, {"alice": (0, 20), "bob": (0, 20)})

    everywhere = await store.player_totals("alice")
    assert (everywhere.hands, everywhere.won, everywhere.hands_net) == (3, 1, 10)
    assert (everywhere.biggest_pot, everywhere.tables) == (110, 2)
    assert (everywhere.bought, everywhere.cashed, everywhere.net) == (300, 310, 10)
    assert not everywhere.hidden

    in_b = await store.player_totals("alice", guild=GUILD_B)
    assert (in_b.hands, in_b.won, in_b.biggest_pot, in_b.tables, in_b.net) == (2, 0, 20, 1, -50)
    nobody = await store.player_totals("carol")
    assert (nobody.hands, nobody.tables, nobody.net, nobody.biggest_pot) == (0, 0, 0, 0)


async def test_r14_4_chips_still_in_play_are_no_result_yet(store: BaseStore) -> None:
    """R-14.4: a session counts once it is over (the player cashed out): a player who
    just sat down with 500 has not lost them, and a top-up after his last cash-out is
    part of the session still on."""
    await _open(store, "t1", GUILD_A)
    await _session(store, "t1", "alice", 100, 130)
    await store.append("t1", "sat", {}, ledger=[LedgerRow("alice", "buy_in", 500)])
    await store.append("t1", "topped_up", {}, ledger=[LedgerRow("alice", "top_up", 50)])
    await _session(store, "t1", "bob", 300, None)
    totals = await store.player_totals("alice")
    assert (totals.bought, totals.cashed, totals.net) == (100, 130, 30)
    board = await store.leaderboard()
    assert [(s.player_id, s.net) for s in board] == [("alice", 30)]


async def test_r14_5_leaderboard_order_ties_min_hands_and_scope(store: BaseStore) -> None:
    """R-14.5: best net first; equal nets by more hands, then by player id; the minimum
    hands filter; a guild's board counts only its tables; the house is on no board."""
    await _open(store, "t1", GUILD_A)
    await _open(store, "t2", GUILD_B)
    for player, bought, cashed in (("ann", 100, 150), ("bea", 100, 150), ("cid", 100, 40)):
        await _session(store, "t1", player, bought, cashed)
    await _session(store, "t2", "dan", 100, 400)
    await store.append("t1", "hand_ended", {"hand_no": 9}, ledger=[LedgerRow(HOUSE, "rake", 10)])
    await _hand(store, "t1", 1, {"ann": (5, 10), "bea": (-5, 0)})
    await _hand(store, "t1", 2, {"bea": (5, 10), "cid": (-5, 0)})
    await _hand(store, "t1", 3, {"bea": (5, 10), "cid": (-5, 0)})
    await _hand(store, "t2", 1, {"dan": (300, 300)})

    board = await store.leaderboard()
    assert [(s.rank, s.player_id, s.net, s.hands) for s in board] == [
        (1, "dan", 300, 1),
        (2, "bea", 50, 3),  # ties with ann on net; more hands first
        (3, "ann", 50, 1),
        (4, "cid", -60, 2),
    ]
    assert [s.player_id for s in await store.leaderboard(min_hands=2)] == ["bea", "cid"]
    assert [s.player_id for s in await store.leaderboard(guild=GUILD_A, limit=2)] == [
        "bea",
        "ann",
    ]
    assert [s.player_id for s in await store.leaderboard(guild=GUILD_B)] == ["dan"]
    assert await store.leaderboard(guild=999 << 22) == []


async def test_r14_5_equal_net_and_hands_break_by_player_id(store: BaseStore) -> None:
    """R-14.5: the same net and the same hands: the lower player id first, every time,
    whatever order they were written in."""
    await _open(store, "t1", None)
    for player in ("zed", "amy", "kim"):
        await _session(store, "t1", player, 100, 120)
    assert [s.player_id for s in await store.leaderboard()] == ["amy", "kim", "zed"]


async def test_r2_5_closed_table_nets_and_rake_sum_to_zero(store: BaseStore) -> None:
    """R-2.5 with R-14.4: at a closed table every player cashed out, so the players'
    nets and the rake (the house's, a time charge included) sum to zero."""
    await _open(store, "t1", GUILD_A)
    await _session(store, "t1", "ann", 200, None)
    await _session(store, "t1", "bob", 200, None)
    await store.append("t1", "time_collected", {}, ledger=[LedgerRow("ann", "rake", 5)])
    await store.append("t1", "hand_ended", {"hand_no": 1}, ledger=[LedgerRow(HOUSE, "rake", 7)])
    await store.append(
        "t1",
        "closed",
        {},
        ledger=[LedgerRow("ann", "cash_out", 288), LedgerRow("bob", "cash_out", 100)],
    )
    board = await store.leaderboard()
    rake = (await store.ledger_totals("t1"))["rake"]
    assert [(s.player_id, s.net) for s in board] == [("ann", 88), ("bob", -100)]
    assert sum(s.net for s in board) + rake == 0


async def test_privacy_hides_from_the_global_board_only(store: BaseStore) -> None:
    """A player who chose to be hidden is left off the global board (and says so in his
    totals); the last choice wins; a guild's board still shows him."""
    await _open(store, "t1", GUILD_A)
    await _session(store, "t1", "ann", 100, 150)
    await _session(store, "t1", "bob", 100, 50)
    await store.append("_standings", "privacy", {"user": "ann", "hidden": True})
    assert [s.player_id for s in await store.leaderboard(hide_private=True)] == ["bob"]
    assert (await store.player_totals("ann")).hidden
    assert [s.player_id for s in await store.leaderboard(guild=GUILD_A)] == ["ann", "bob"]
    await store.append("_standings", "privacy", {"user": "ann", "hidden": False})
    assert [s.player_id for s in await store.leaderboard(hide_private=True)] == ["ann", "bob"]


async def test_guild_recorded_later_and_unguilded_tables(store: BaseStore) -> None:
    """A table opened without a guild is in no guild's board until its guild is
    recorded (a ``table_guild`` event); then it is."""
    await _open(store, "old", None)
    await _open(store, "new", GUILD_A)
    await _session(store, "old", "ann", 100, 170)
    assert await store.unguilded_tables() == ["old"]
    assert await store.leaderboard(guild=GUILD_B) == []
    assert await store.guild_of("new") == GUILD_A
    await store.append("_table_guilds", "table_guild", {"table": "old", "guild": GUILD_B})
    assert await store.unguilded_tables() == []
    assert await store.guild_of("old") == GUILD_B
    assert [s.player_id for s in await store.leaderboard(guild=GUILD_B)] == ["ann"]


async def test_malformed_results_index_nothing_and_fail_nothing(store: BaseStore) -> None:
    """A hand end without its players (an old log) or with mismatched lists adds no
    result and the append still commits; bad limits are refused in words."""
    await _open(store, "t1", None)
    await store.append("t1", "hand_ended", {"hand_no": 1, "net": [1, -1]})
    await store.append(
        "t1", "hand_ended", {"hand_no": 2, "users": ["a"], "net": [1, -1], "won": [1, 0]}
    )
    assert (await store.player_totals("a")).hands == 0
    assert await store.last_seq("t1") == 3
    with pytest.raises(ValueError, match="between 1 and 100"):
        await store.leaderboard(limit=0)
    with pytest.raises(ValueError, match="0 or more"):
        await store.leaderboard(min_hands=-1)


async def test_results_rolled_back_with_their_event(store: BaseStore) -> None:
    """The results commit in the event's transaction: a refused (duplicate) hand end
    adds none."""
    await _open(store, "t1", None)
    end = {"hand_no": 1, "users": ["ann"], "net": [5], "won": [5]}
    await store.append("t1", "hand_ended", end, idem_key="end:1")
    with pytest.raises(DuplicateCommand):
        await store.append("t1", "hand_ended", end, idem_key="end:1")
    assert (await store.player_totals("ann")).hands == 1


async def test_r14_4_migration_5_folds_in_the_ledger_already_written(store_url: str) -> None:
    """R-14.4 on upgrade: a database at version 4 (no standings) gets them from its
    ledger: settled sessions count, a session still on is pending, the rake is nobody's
    loss; its old hands (no players in their payloads) add no hand."""
    rows = [
        ("t1", 1, "ann", "buy_in", 100),
        ("t1", 2, "ann", "top_up", 50),
        ("t1", 3, HOUSE, "rake", 3),
        ("t1", 4, "ann", "rake", 2),
        ("t1", 5, "ann", "cash_out", 190),
        ("t1", 6, "ann", "buy_in", 70),
        ("t1", 7, "bob", "buy_in", 100),
        ("t1", 8, "bob", "cash_out", 55),
    ]
    if is_postgres(store_url):
        import asyncpg

        conn = await asyncpg.connect(store_url)
        try:
            await pg_migrate(conn, target=4)
            await conn.executemany(
                "INSERT INTO events (table_id, seq, kind, payload, created_at)"
                " VALUES ($1, $2, 'x', '{}', 0)",
                [(r[0], r[1]) for r in rows],
            )
            await conn.executemany(
                "INSERT INTO ledger (table_id, seq, player_id, kind, amount)"
                " VALUES ($1, $2, $3, $4, $5)",
                rows,
            )
        finally:
            await conn.close()
    else:
        import aiosqlite

        conn = await aiosqlite.connect(store_url, isolation_level=None)
        await migrate(conn, target=4)
        await conn.executemany(
            "INSERT INTO events (table_id, seq, kind, payload, created_at)"
            " VALUES (?, ?, 'x', '{}', 0)",
            [(r[0], r[1]) for r in rows],
        )
        await conn.executemany(
            "INSERT INTO ledger (table_id, seq, player_id, kind, amount) VALUES (?, ?, ?, ?, ?)",
            rows,
        )
        await conn.close()
    store = await open_store(store_url)
    try:
        ann = await store.player_totals("ann")
        assert (ann.bought, ann.cashed, ann.net, ann.tables, ann.hands) == (150, 190, 40, 1, 0)
        board = await store.leaderboard()
        assert [(s.player_id, s.net) for s in board] == [("ann", 40), ("bob", -45)]
        # The session still on settles at its cash-out, on top of the folded rows.
        await store.append("t1", "stood", {}, ledger=[LedgerRow("ann", "cash_out", 10)])
        assert (await store.player_totals("ann")).net == 40 + 10 - 70
    finally:
        await store.close()


async def test_sqlite_leaderboard_on_10000_ledger_rows_is_fast(tmp_path: Any) -> None:
    """The global board over 10,000 ledger rows (1,000 players, 50 tables, 5,000 hand
    results) answers in under 50 ms on SQLite (the median of 5 runs)."""
    store = await Store.open(tmp_path / "big.sqlite3")
    try:
        await fill(store, ledger_rows=10_000)
        took = []
        for _ in range(5):
            started = time.perf_counter()
            board = await store.leaderboard(min_hands=1, limit=10, hide_private=True)
            took.append(time.perf_counter() - started)
        assert len(board) == 10
        took.sort()
        assert took[2] < 0.050, f"leaderboard took {took[2] * 1000:.1f} ms"
    finally:
        await store.close()


async def fill(
    store: BaseStore, *, ledger_rows: int, players: int = 1000, tables: int = 50
) -> None:
    """Sessions (a buy-in and a cash-out each) spread over tables and guilds, and a hand
    result per session: ``ledger_rows`` rows in all."""
    import asyncio

    for t in range(tables):
        await _open(store, f"t{t}", (t % 7) << 22)
    writes = []
    for i in range(ledger_rows // 2):
        table, player = f"t{(i // 3) % tables}", f"p{(i * 7919) % players}"
        writes.append(
            store.append(
                table,
                "stood",
                {"hand_no": i},
                ledger=[LedgerRow(player, "buy_in", 100), LedgerRow(player, "cash_out", i % 250)],
            )
        )
        writes.append(
            store.append(
                table,
                "hand_ended",
                {"hand_no": i, "users": [player], "net": [i % 250 - 100], "won": [i % 250]},
            )
        )
    await asyncio.gather(*writes)
