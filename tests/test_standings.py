"""Standings across tables and servers, served by the table service (bot/table/standings.py)
from the real store, on both back ends (``store_url``: a SQLite file and a PostgreSQL
database). Tables are played through the service; every step checks R-2.5."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.poker.messages import Chips, Name
from bot.store.lease import Lease
from bot.table.log import HandEnded, read_event
from bot.table.ownership import NotOwned, Ownership
from bot.table.ports import StoreAdapter, StorePort, open_store
from bot.table.standings import (
    STANDINGS_LOG,
    Leaderboard,
    StandingsError,
    counted,
    leaderboard_said,
    names_from,
    signed,
    standing_said,
)
from bot.words import render
from tests.harness import HOST, Harness
from tests.said import en, raises_saying

GUILD_A = 111 << 22
GUILD_B = 222 << 22


@pytest.fixture
async def port(store_url: str):  # type: ignore[no-untyped-def]
    store = await open_store(store_url)
    yield store
    await store.close()


async def _play(
    h: Harness, table_id: str, guild: int | None, players: list[str], hands: int, **settings: object
) -> None:
    from bot.table.settings import TableSettings

    out = await h.service.create(
        table_id,
        HOST,
        TableSettings.of(**settings),
        key=h.key(),
        guild=guild,  # type: ignore[arg-type]
    )
    assert out.ok, out.msg
    table = h.service.table(table_id)
    for p in players:
        assert (await table.sit(p, p.title(), 100, key=h.key())).ok
    for _ in range(hands):
        assert (await h.deal(table)).ok
        # The first to act raises once, the rest call: pots change hands.
        user = h.to_act(table)
        assert (await h.do(table, user, "raise to 10")).ok
        await h.play_passively(table)


async def test_r14_4_stats_across_tables_and_servers(port: StorePort) -> None:
    """R-14.4: a player's hands, hands won and biggest pot, over one server's tables or
    all of them, match the tables' own stats (folded from their logs)."""
    h = Harness(port)
    await _play(h, "100", GUILD_A, ["ann", "bob"], 3)
    await _play(h, "200", GUILD_B, ["ann", "cid"], 2)
    per_table = {t: {s.user_id: s for s in await h.service.stats(t)} for t in ("100", "200")}
    everywhere = await h.service.player_standing("ann")
    t = everywhere.totals
    assert (t.tables, t.hands) == (2, 5)
    assert t.won == per_table["100"]["ann"].won + per_table["200"]["ann"].won
    assert t.hands_net == per_table["100"]["ann"].net + per_table["200"]["ann"].net
    assert t.biggest_pot >= max(
        s.biggest_win for s in per_table["100"].values() if s.user_id == "ann"
    )
    server = (await h.service.player_standing("ann", scope="server", guild=GUILD_B)).totals
    assert (server.tables, server.hands, server.hands_net) == (1, 2, per_table["200"]["ann"].net)
    # Still seated everywhere: no session is over, so no net yet.
    assert (t.bought, t.cashed, t.net) == (0, 0, 0)
    said = standing_said(everywhere, Name("Ann"))
    played, net = said.get("head"), said.get("tail")
    assert played is not None and played.key == "table.standings.played"
    assert played.get("tables") == counted("tables", 2)
    assert played.get("hands") == counted("hands", 5)
    assert net is not None and net.get("head") is not None
    assert net.get("head").get("net") == signed(0)  # type: ignore[union-attr]
    assert "2 tables, 5 hands played" in en(said) and "Net +0" in en(said)
    german = render(said, "de")
    assert "2 Tische, 5 Hände gespielt" in german and "Netto +0" in german


async def test_r2_5_closed_table_standings_sum_to_minus_the_rake(port: StorePort) -> None:
    """R-2.5, R-14.4: a closed table with a rake: every player cashed out, and their
    nets on the board plus the rake are zero; the house is on no board."""
    h = Harness(port)
    await _play(h, "100", GUILD_A, ["ann", "bob", "cid"], 4, rake_percent_bp=1000, rake_cap=5)
    table = h.service.table("100")
    rake = table.state.rake_total
    assert rake > 0
    assert (await table.close(HOST, key=h.key())).ok
    board = await h.service.leaderboard(scope="server", guild=GUILD_A, min_hands=0)
    assert {s.player_id for s in board.rows} == {"ann", "bob", "cid"}
    assert sum(s.net for s in board.rows) + rake == 0
    assert [s.net for s in board.rows] == sorted((s.net for s in board.rows), reverse=True)
    ann = (await h.service.player_standing("ann")).totals
    assert ann.net == ann.cashed - 100 and ann.bought == 100


async def test_r14_5_min_hands_scope_and_privacy(port: StorePort) -> None:
    """R-14.5: the floor of hands; a server's board counts its tables only; a player who
    chose to be hidden is off the global board, on his server's, and his results across
    servers are his own to see."""
    h = Harness(port)
    await _play(h, "100", GUILD_A, ["ann", "bob"], 3)
    await _play(h, "200", GUILD_B, ["cid", "dee"], 1)
    for t in ("100", "200"):
        assert (await h.service.table(t).close(HOST, key=h.key())).ok
    everywhere = await h.service.leaderboard(scope="everywhere", min_hands=0)
    assert {s.player_id for s in everywhere.rows} == {"ann", "bob", "cid", "dee"}
    floor = await h.service.leaderboard(scope="everywhere", min_hands=2)
    assert {s.player_id for s in floor.rows} == {"ann", "bob"}
    only_b = await h.service.leaderboard(scope="server", guild=GUILD_B, min_hands=0)
    assert {s.player_id for s in only_b.rows} == {"cid", "dee"}

    await h.service.set_hidden("cid", True)
    everywhere = await h.service.leaderboard(scope="everywhere", min_hands=0)
    assert "cid" not in {s.player_id for s in everywhere.rows}
    only_b = await h.service.leaderboard(scope="server", guild=GUILD_B, min_hands=0)
    assert "cid" in {s.player_id for s in only_b.rows}
    mine = await h.service.player_standing("cid", viewer="cid")
    assert mine.totals.hidden
    assert "table.standings.hidden" in _keys(standing_said(mine, Name("Cid")))
    with raises_saying(StandingsError, "private"):
        await h.service.player_standing("cid", viewer="ann")
    assert (
        await h.service.player_standing("cid", scope="server", guild=GUILD_B, viewer="ann")
    ).totals.hands == 1
    await h.service.set_hidden("cid", False)
    assert (await h.service.player_standing("cid", viewer="ann")).totals.hands == 1


async def test_r14_5_bad_requests_are_refused_in_words(port: StorePort) -> None:
    """R-14.5's ranges: each refusal says what is allowed; nothing is read or written."""
    h = Harness(port)
    with raises_saying(StandingsError, "1 to 25"):
        await h.service.leaderboard(scope="everywhere", top=0)
    with raises_saying(StandingsError, "0 to 100,000"):
        await h.service.leaderboard(scope="everywhere", min_hands=-1)
    with raises_saying(StandingsError, "server or everywhere"):
        await h.service.leaderboard(scope="galaxy")
    with raises_saying(StandingsError, "no server here"):
        await h.service.player_standing("ann", scope="server", guild=None)


async def test_hand_end_records_players_and_pots_not_cards(port: StorePort) -> None:
    """Privacy (invariant 2): what the store indexes from a hand end is who was dealt
    in, the chips each won or lost and the chips each was awarded; no card."""
    h = Harness(port)
    await _play(h, "100", None, ["ann", "bob"], 1)
    ends = [e for e in await port.events("100") if e.kind == HandEnded.KIND]
    rec = read_event(ends[0].kind, ends[0].payload)
    assert isinstance(rec, HandEnded)
    assert set(rec.users) == {"ann", "bob"} and sum(rec.net) == 0
    # The pot of two raises to 10 is awarded whole (to one player, or split on a tie:
    # the deal is not seeded), and each one's award less his 10 is his net.
    assert sum(rec.won) == 20
    assert [w - 10 for w in rec.won] == list(rec.net)
    assert set(ends[0].payload) == {
        "hand_no",
        "stacks",
        "net",
        "rake",
        "carried",
        "reason",
        "pot_state",
        "users",
        "won",
        "at",
    }


async def test_guilds_filled_in_for_old_tables(port: StorePort) -> None:
    """A table created without its guild counts everywhere only, until the guild is
    filled in (from the platform's cache); a guild the cache does not know stays out."""
    h = Harness(port)
    await _play(h, "100", None, ["ann", "bob"], 1)
    await _play(h, "300", None, ["cid", "dee"], 1)
    for t in ("100", "300"):
        assert (await h.service.table(t).close(HOST, key=h.key())).ok
    assert (await h.service.leaderboard(scope="server", guild=GUILD_A, min_hands=0)).rows == ()
    filled = await h.service.fill_guilds({"100": GUILD_A}.get)
    assert filled == ["100"]
    board = await h.service.leaderboard(scope="server", guild=GUILD_A, min_hands=0)
    assert {s.player_id for s in board.rows} == {"ann", "bob"}
    assert await h.service.fill_guilds({"100": GUILD_B}.get) == []  # recorded already
    everywhere = await h.service.leaderboard(scope="everywhere", min_hands=0)
    assert {s.player_id for s in everywhere.rows} == {"ann", "bob", "cid", "dee"}


def test_board_words_name_rank_net_and_hands() -> None:
    """R-14.5 in words: the scope, the floor and one line a player."""
    from bot.store import Standing

    board = Leaderboard("server", 1, 10, (Standing(1, "a", 50, 12, 1), Standing(2, "b", -5, 1, 1)))
    said = leaderboard_said(board, names_from([("a", "Ann")]))
    head = said.get("head")
    assert head is not None and head.key == "table.board.head_floor"
    assert head.get("hands") == counted("hands", 10)
    rows = said.get("tail")
    assert rows is not None and rows.get("head") is not None
    first = rows.get("head")
    assert first is not None and first.get("who") == Name("Ann")  # type: ignore[union-attr]
    assert first.get("net") == signed(50) and signed(-5).get("amount") == Chips(5)  # type: ignore[union-attr]
    text = en(said)
    assert "Leaderboard, this server** (at least 10 hands)" in text
    assert "1. Ann: +50 in 12 hands" in text and "2. b: -5 in 1 hand" in text
    empty = leaderboard_said(Leaderboard("everywhere", None, 0, ()), names_from([]))
    assert _keys(empty) >= {"table.board.of.everywhere", "table.board.nobody"}
    assert "Nobody yet" not in render(empty, "fr")


def _keys(m: object) -> set[str]:
    """Every key said in ``m`` and its nested messages."""
    from bot.poker.messages import Msg

    if not isinstance(m, Msg):
        return set()
    out = {m.key}
    for _, value in m.params:
        out |= _keys(value)
    return out


class _Leases:
    ttl = 10.0

    async def guilds(self, table_ids: list[str]) -> dict[str, int]:
        return {}

    async def record_guild(self, table_id: str, guild_id: int) -> None:
        return None


async def test_reserved_logs_carry_no_shard_fence(tmp_path: object) -> None:
    """Several processes: a reserved log (the standings' choices, /notify, the table
    messages) is no table and belongs to no shard, so a process that does not hold
    shard 0 may still write it; a table of a shard not held is still refused."""
    store = await open_store(str(tmp_path) + "/s.sqlite3")  # type: ignore[operator]
    try:
        assert isinstance(store, StoreAdapter)
        ownership = Ownership(_Leases(), "me", 4, [1])  # type: ignore[arg-type]
        ownership.held[1] = Lease(1, "me", 1, 1e12)
        store.fencing = ownership
        await store.append(STANDINGS_LOG, "privacy", {"user": "ann", "hidden": True})
        await store.append("_player_prefs", "notify", {"user": "ann", "mode": "dm"})
        with pytest.raises(NotOwned):
            await store.append("12345", "created", {})  # no guild: shard 0, not held
    finally:
        await store.close()


async def test_a_new_tables_guild_picks_its_shard_when_the_cache_does_not_know_it() -> None:
    """The guild the creating interaction carries is the table's, even when the gateway
    cache cannot place the channel (a thread): the table is on its guild's shard, not
    FALLBACK_SHARD."""
    from bot.store.lease import shard_of

    recorded: dict[str, int] = {}

    class Leases(_Leases):
        async def record_guild(self, table_id: str, guild_id: int) -> None:
            recorded[table_id] = guild_id

    ownership = Ownership(Leases(), "me", 4, [], guild_of=lambda _t: None)  # type: ignore[arg-type]
    guild = (5 << 22) | 77
    await ownership.record("999", guild)
    assert recorded == {"999": guild}
    assert ownership.shard("999") == shard_of(guild, 4) == 1


async def test_r14_4_terminal_words_for_stats_ledger_leaderboard_privacy(tmp_path: Path) -> None:
    """R-14.4, R-14.5 at the terminal: ``stats NAME``, ``ledger``, ``leaderboard`` and
    ``privacy``; a closed table (``new``) puts everyone on the board, the nets summing to
    minus the rake; bad words are refused with what is allowed."""
    import io

    from bot.local.terminal import run

    lines = [
        "set rake_percent_bp=1000",
        "deal",
        "alice: call",
        "bob: call",
        "carol: check",
        "bob: check",
        "carol: check",
        "alice: check",
        "bob: bet 10",
        "carol: fold",
        "alice: call",
        "bob: check",
        "alice: check",
        "bob: check",
        "alice: check",
        "ledger",
        "new",
        "leaderboard 5 min 1",
        "stats alice",
        "privacy bob hidden",
        "leaderboard min 0",
        "leaderboard 99",
        "privacy bob maybe",
        "quit",
    ]
    out = io.StringIO()
    inp = io.StringIO("\n".join(lines) + "\n")
    argv = ["--db", str(tmp_path / "l.sqlite3"), "--seed", "1", "alice", "bob", "carol"]
    assert await run(argv, inp=inp, out=out) == 0
    text = out.getvalue()
    assert (
        "alice: net -12 (bought in 200, cashed out 0, adjusted 0, on the table 188; 1 hand)" in text
    )  # the session ledger
    board = text.split("Leaderboard, every table in this file (at least 1 hand):")[1]
    rows = [ln for ln in board.splitlines()[1:4]]
    nets = [int(ln.split(": ")[1].split(" ")[0]) for ln in rows]
    assert [ln.split(". ")[1].split(":")[0] for ln in rows] == ["bob", "carol", "alice"]
    assert sum(nets) == -2  # the rake: 10% of the 26 in the pot, rounded down
    # `new` opened a second table, where the players named at the start sit again.
    assert "alice at every table in this file: 2 tables, 1 hand played, 0 won." in text
    assert "Net -12 (cashed out 188 of 200 brought in" in text
    after = text.split("bob is hidden from the global leaderboard.")[1]
    assert "1. carol: -2 in 1 hand" in after and "bob:" not in after.split("!")[0]
    assert "! A leaderboard shows 1 to 25 players, not 99." in text
    assert "! privacy NAME hidden|shown" in text


async def test_an_old_open_tables_guild_is_recorded_only_where_it_stays(tmp_path: Path) -> None:
    """Several processes: an open table from before guilds were recorded is on
    FALLBACK_SHARD. Its guild is recorded (and its shard follows) only by the process
    driving it, and only when that process holds the new shard too, so no second process
    can adopt it; its next append carries the new shard's fence. A closed one is recorded
    whatever its shard (nobody drives it)."""
    from bot.store.lease import shard_of

    port = await open_store(str(tmp_path / "s.sqlite3"))
    try:
        assert isinstance(port, StoreAdapter)
        ownership = Ownership(_Leases(), "me", 4, [0, 1])  # type: ignore[arg-type]
        for shard in (0, 1):
            generation = await port.store.take_fence(f"shard:{shard}")
            ownership.held[shard] = Lease(shard, "me", generation, 1e12)
        port.fencing = ownership
        h = Harness(port)
        h.service.ownership = ownership
        await _play(h, "500", None, ["ann", "bob"], 1)  # no guild: shard 0, driven here
        await _play(h, "600", None, ["cid", "dee"], 1)
        await _play(h, "700", None, ["eve", "fay"], 1)
        assert (await h.service.table("700").close(HOST, key=h.key())).ok
        to_held = (1 << 22) | 5  # shard 1: held here
        to_other = (2 << 22) | 5  # shard 2: another process's
        closed_other = (3 << 22) | 9
        assert shard_of(to_held, 4) == 1 and shard_of(to_other, 4) == 2
        guilds = {"500": to_held, "600": to_other, "700": closed_other}
        assert await h.service.fill_guilds(guilds.get) == ["500", "700"]
        assert ownership.shard("500") == 1 and ownership.shard("600") == 0
        assert await port.guild_of("600") is None and await port.guild_of("700") == closed_other
        # The table moved within this process: it is still driven, now fenced by shard 1.
        await port.store.take_fence("shard:0")  # shard 0 taken elsewhere: 500 does not care
        assert (await h.deal(h.service.table("500"))).ok
        await h.play_passively(h.service.table("500"))
        refused = await h.service.table("600").deal(HOST, key=h.key())
        assert not refused.ok and refused.msg.key == "table.not_owned"  # shard 0's
    finally:
        await port.close()
