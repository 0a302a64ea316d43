"""The night's record served by the table service from the real store, on both back
ends (``store_url``: a SQLite file and a PostgreSQL database): the running sums are
written with each hand's end and each ledger row (R-20.42: no log is read), a session's
ledger (R-20.40), the settle-up across a server's tables (R-20.41), a period's board
(R-20.43) and a session's story (R-20.45). Every step checks R-2.5."""

from __future__ import annotations

import pytest

from bot.table.ports import StorePort, open_store
from bot.table.record import HOUSE, Period, day_of, ledger_csv, read_ledger_csv
from bot.table.records import Records
from bot.table.settings import TableSettings
from bot.table.table import Table
from tests.harness import HOST, Harness

GUILD_A = 111 << 22
GUILD_B = 222 << 22


@pytest.fixture
async def port(store_url: str):  # type: ignore[no-untyped-def]
    store = await open_store(store_url)
    yield store
    await store.close()


async def _open(
    h: Harness, table_id: str, guild: int, players: list[str], **settings: object
) -> Table:
    out = await h.service.create(
        table_id, HOST, TableSettings.of(**settings), key=h.key(), guild=guild
    )
    assert out.ok, out.msg
    table = h.service.table(table_id)
    for p in players:
        assert (await table.sit(p, p.title(), 100, key=h.key())).ok
    return table


async def _raised_hand(h: Harness, table: Table) -> str:
    """The first to act raises to 10, everyone else checks or calls; the raiser."""
    assert (await h.deal(table)).ok
    raiser = h.to_act(table)
    assert (await h.do(table, raiser, "raise to 10")).ok
    await h.play_passively(table)
    return raiser


async def test_R_20_42_stats_kept_with_each_hand_end(port: StorePort) -> None:
    """R-20.42: after each hand, the player's hands, VPIP and PFR in the store are the
    hands played so far: the raiser raised before the flop (VPIP and PFR), the others
    called his raise (VPIP); the nets sum to minus the rake (R-2.5)."""
    h = Harness(port)
    table = await _open(h, "100", GUILD_A, ["ann", "bob", "cid"])
    records = h.service.records
    raised: dict[str, int] = {}
    for n in range(1, 4):
        raiser = await _raised_hand(h, table)
        raised[raiser] = raised.get(raiser, 0) + 1
        for player in ("ann", "bob", "cid"):
            r = await records.player(player, GUILD_A, None)
            assert (r.hands, r.flop_hands, r.vpip) == (n, n, n)
            assert r.pfr == raised.get(player, 0)
            assert r.showdowns == n  # passive play after the raise: always a showdown
    total = 0
    for player in ("ann", "bob", "cid"):
        total += (await records.player(player, GUILD_A, None)).net
    assert total == -table.state.rake_total
    # Another server's view has none of it.
    assert (await records.player("ann", GUILD_B, None)).hands == 0


async def test_R_20_60_a_bomb_pot_is_a_hand_but_no_vpip_or_pfr_chance(port: StorePort) -> None:
    """R-20.60: a bomb pot has no pre-flop betting, so it counts as a hand dealt but not
    among the flop-game hands VPIP and PFR are shares of, even when a player bets on its
    flop and the others call; the normal hand before it counts in both."""
    h = Harness(port)
    table = await _open(h, "100", GUILD_A, ["ann", "bob", "cid"], bomb_pot_every=2)
    raiser = await _raised_hand(h, table)
    assert (await h.deal(table)).ok
    hand = table.state.hand
    assert hand is not None and hand.rules.bomb_pot_ante > 0 and len(hand.board) == 3
    bettor = h.to_act(table)
    assert (await h.do(table, bettor, "bet 10")).ok
    await h.play_passively(table)
    records = h.service.records
    total = 0
    for player in ("ann", "bob", "cid"):
        r = await records.player(player, GUILD_A, None)
        assert (r.hands, r.flop_hands, r.vpip) == (2, 1, 1)
        assert r.pfr == (1 if player == raiser else 0)
        total += r.net
    assert total == -table.state.rake_total


async def test_R_20_40_session_ledger_and_csv(port: StorePort) -> None:
    """R-20.40, R-20.44: a session's ledger (buy-ins, cash-outs, chips on the table,
    hands) balances with the rake (R-2.5), and its CSV reads back equal."""
    h = Harness(port)
    table = await _open(h, "100", GUILD_A, ["ann", "bob"], rake_percent_bp=1000, rake_cap=5)
    for _ in range(2):
        await _raised_hand(h, table)
    assert (await table.stand("bob", key=h.key())).ok
    ledger = await h.service.records.session_ledger(table, "100")
    by = {line.player_id: line for line in ledger.lines}
    assert by["bob"].cash_outs > 0 and by["bob"].on_table == 0
    assert by["ann"].hands == by["bob"].hands == 2
    assert sum(line.net for line in ledger.lines) + ledger.total_rake == 0
    assert ledger.total_rake == table.state.rake_total > 0
    assert read_ledger_csv(ledger_csv(ledger)) == ledger
    payments = ledger.payments()
    assert sum(p.amount for p in payments if p.payee == HOUSE) == ledger.total_rake


async def test_R_20_41_settle_up_across_a_servers_tables(port: StorePort) -> None:
    """R-20.41: the server's ledger over today covers both of its tables (not the other
    server's); once everyone has stood up its nets and the rake sum to zero and the
    payments settle them in at most players - 1 payments."""
    h = Harness(port)
    t1 = await _open(h, "100", GUILD_A, ["ann", "bob"])
    t2 = await _open(h, "200", GUILD_A, ["ann", "cid", "dan"])
    t3 = await _open(h, "300", GUILD_B, ["eve", "fay"])
    for t in (t1, t2, t3):
        await _raised_hand(h, t)
    for t, players in ((t1, ["ann", "bob"]), (t2, ["ann", "cid", "dan"])):
        for p in players:
            assert (await t.stand(p, key=h.key())).ok
    today = day_of(h.time.now())
    ledger = await h.service.records.server_ledger(GUILD_A, Period(today, today))
    assert ledger.tables == 2
    assert {line.player_id for line in ledger.lines} == {"ann", "bob", "cid", "dan"}
    assert sum(line.net for line in ledger.lines) + ledger.total_rake == 0
    assert {line.player_id: line.hands for line in ledger.lines}["ann"] == 2
    payments = ledger.payments()
    assert len(payments) <= 4 - 1
    nets = ledger.nets()
    for player, net in nets.items():
        paid = sum(p.amount for p in payments if p.payer == player)
        got = sum(p.amount for p in payments if p.payee == player)
        assert got - paid == net
    # A day with nothing: nothing.
    empty = await h.service.records.server_ledger(GUILD_A, Period(today + 1, today + 1))
    assert empty.lines == ()


async def test_R_20_43_period_boards(port: StorePort) -> None:
    """R-20.43: by hands, by net and by biggest pot, over today's hands of the server."""
    h = Harness(port)
    t1 = await _open(h, "100", GUILD_A, ["ann", "bob"])
    t2 = await _open(h, "200", GUILD_A, ["ann", "cid"])
    await _raised_hand(h, t1)
    await _raised_hand(h, t2)
    today = day_of(h.time.now())
    records = h.service.records
    by_hands = await records.board("hands", GUILD_A, Period(today, today))
    assert by_hands.rows[0].player_id == "ann"
    assert [r.hands for r in by_hands.rows] == [2, 1, 1]
    by_net = await records.board("net", GUILD_A, Period(today, today))
    nets = [r.net for r in by_net.rows]
    assert nets == sorted(nets, reverse=True)
    by_pot = await records.board("pot", GUILD_A, Period(today, today))
    pots = [r.biggest_pot for r in by_pot.rows]
    assert pots == sorted(pots, reverse=True) and pots[0] > 0
    yesterday = await records.board("net", GUILD_A, Period(today - 1, today - 1))
    assert yesterday.rows == ()


async def test_R_20_45_story_of_a_session(port: StorePort) -> None:
    """R-20.45: each player's stack after each hand of the session; the last point is
    his stack now; a table reopened in the channel starts a new story."""
    h = Harness(port)
    table = await _open(h, "100", GUILD_A, ["ann", "bob", "cid"])
    for _ in range(3):
        await _raised_hand(h, table)
    story = await h.service.records.story(table, "100")
    assert len(story.hands) == 3
    now = {s.user_id: s.stack for s in table.state.seats.values()}
    for line in story.lines:
        assert line.stacks[-1] == now[line.player_id]
    assert sum(line.stacks[-1] or 0 for line in story.lines) + table.state.rake_total == 300
    assert isinstance(h.service.records, Records)


async def test_R_20_40_migration_7_sums_the_ledger_already_written(store_url: str) -> None:
    """R-20.40: a database from before the night's record (version 6): migration 7 sums
    the ledger rows already written per day, so a server's ledger covers them."""
    from bot.store import open_store as open_backend
    from tests.test_store import _sql

    store = await open_backend(store_url)
    try:
        await store.append("100", "created", {"host": "h", "guild": GUILD_A})
        await store.append(
            "100", "sat", {"at": 86_400 * 3 + 5}, ledger=[_row("ann", "buy_in", 100)]
        )
        await store.append("100", "stood", {"at": 86_400 * 4}, ledger=[_row("ann", "cash_out", 70)])
    finally:
        await store.close()
    from tests.test_store_hand_sessions import undo_hand_sessions

    for later in ("ledger_days", "player_days", "hand_stacks"):
        await _sql(store_url, f"DROP TABLE {later}")
    await undo_hand_sessions(store_url)
    await _sql(store_url, "UPDATE schema_version SET version = 6")
    store = await open_backend(store_url)
    try:
        sums, tables = await store.ledger_range(guild=GUILD_A, first=3, last=3)
        assert (sums, tables) == ({("ann", "buy_in"): 100}, 1)
        sums, _ = await store.ledger_range(guild=GUILD_A, first=3, last=4)
        assert sums == {("ann", "buy_in"): 100, ("ann", "cash_out"): 70}
    finally:
        await store.close()


def _row(player: str, kind: str, amount: int) -> object:
    from bot.store import LedgerRow

    return LedgerRow(player, kind, amount)  # type: ignore[arg-type]  # the kind's text reads as its member


async def test_R_20_45_story_and_ledger_of_a_closed_table_after_a_restart(
    port: StorePort,
) -> None:
    """R-20.45, R-20.40: after the session (the table closed, every stack cashed out),
    a new service on the same store still tells its story and its ledger; the nets and
    the rake sum to zero (R-2.5)."""
    h = Harness(port)
    table = await _open(h, "100", GUILD_A, ["ann", "bob"])
    for _ in range(2):
        await _raised_hand(h, table)
    assert (await table.close(HOST, key=h.key())).ok
    later = Harness(port)
    await later.service.recover()
    assert later.service.get("100") is None or later.service.get("100").state.closed
    story = await later.service.records.story(later.service.get("100"), "100")
    assert len(story.hands) == 2 and {line.player_id for line in story.lines} == {"ann", "bob"}
    ledger = await later.service.session_ledger("100")
    assert sum(line.net for line in ledger.lines) + ledger.total_rake == 0
    assert all(line.on_table == 0 and line.cash_outs > 0 for line in ledger.lines)


async def test_R_20_43_every_servers_board_leaves_off_hidden_players(port: StorePort) -> None:
    """R-20.43 with R-14.5: a player hidden from the global boards is on his server's
    period board, not on every server's."""
    h = Harness(port)
    table = await _open(h, "100", GUILD_A, ["ann", "bob"])
    await _raised_hand(h, table)
    await h.service.set_hidden("ann", True)
    today = day_of(h.time.now())
    server = await h.service.records.board("hands", GUILD_A, Period(today, today))
    everywhere = await h.service.records.board("hands", None, Period(today, today))
    assert {r.player_id for r in server.rows} == {"ann", "bob"}
    assert {r.player_id for r in everywhere.rows} == {"bob"}
