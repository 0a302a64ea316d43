"""End to end through the fake Discord: ``/stats player scope``, ``/leaderboard`` and
``/privacy`` (cogs/standings_cog.py) on the real bot and a real SQLite file; the leak
guard of ``h`` checks after the test that no card reached anyone it should not."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.store import LedgerRow, Store
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot, players


async def _one_hand_then_everyone_stands(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users)
    for _ in range(10):  # everyone but the big blind folds
        if not h.table().state.in_hand:
            break
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "fold")
    assert not h.table().state.in_hand
    for u in users:
        await h.slash(u, "stand")
    assert h.table().conservation_error() is None


async def test_r14_5_leaderboard_stats_and_privacy_through_discord(h: Harness) -> None:
    """R-14.4, R-14.5: after a hand and everyone standing up, this server's board ranks
    the three by net (summing to zero: no rake), ``/stats`` shows a player's hands and
    net on this server, and a player who hides is off the global board only."""
    alice, bob, carol = players(h.fake)
    await _one_hand_then_everyone_stands(h)

    await h.slash(alice, "leaderboard", min_hands=0)
    board = h.last_ephemeral(alice)
    assert board.startswith("**Leaderboard, this server**"), board
    rows = re.findall(r"^(\d)\. <@(\d+)>: ([+-]\d+) in 1 hand$", board, re.M)
    assert [r[0] for r in rows] == ["1", "2", "3"]
    assert {int(r[1]) for r in rows} == {alice.id, bob.id, carol.id}
    nets = [int(r[2]) for r in rows]
    assert nets == sorted(nets, reverse=True) and sum(nets) == 0 and nets[0] > 0

    # The default floor of hands (10) leaves everyone off, and says so.
    await h.slash(alice, "leaderboard")
    assert "(at least 10 hands)" in h.last_ephemeral(alice)
    assert "Nobody yet" in h.last_ephemeral(alice)

    await h.slash(alice, "stats", player=bob, scope="server")
    text = h.last_ephemeral(alice)
    assert text.startswith(f"**<@{bob.id}>** on this server: 1 table, 1 hand played"), text
    bob_net = next(int(r[2]) for r in rows if int(r[1]) == bob.id)
    assert f"Net {bob_net:+,}" in text

    # Hidden from the global board, not from this server's; his results across servers
    # are his own to see.
    await h.slash(bob, "privacy", everywhere="hidden")
    assert "hidden from the global leaderboard" in h.last_ephemeral(bob)
    await h.slash(alice, "leaderboard", scope="everywhere", min_hands=0)
    assert f"<@{bob.id}>" not in h.last_ephemeral(alice)
    assert f"<@{carol.id}>" in h.last_ephemeral(alice)
    await h.slash(alice, "leaderboard", scope="server", min_hands=1)
    assert f"<@{bob.id}>" in h.last_ephemeral(alice)
    await h.slash(alice, "stats", player=bob, scope="everywhere")
    assert "keeps their results across servers private" in h.last_ephemeral(alice)
    await h.slash(bob, "stats", scope="everywhere")
    assert "Hidden from the global leaderboard" in h.last_ephemeral(bob)

    # The table's own /stats is unchanged; with a player, his line of it.
    await h.slash(carol, "stats")
    assert h.last_ephemeral(carol).count("1 hand played") == 3
    await h.slash(carol, "stats", player=alice, scope="table")
    assert h.last_ephemeral(carol).count("1 hand played") == 1


async def test_leaderboard_refusals_say_what_is_allowed(h: Harness) -> None:
    """A leaderboard asked for out of range is refused in words; no traceback."""
    alice = players(h.fake)[0]
    await h.slash(alice, "leaderboard", top=26)
    assert h.last_ephemeral(alice) == "A leaderboard shows 1 to 25 players, not 26."
    await h.slash(alice, "leaderboard", min_hands=100_001)
    assert h.last_ephemeral(alice) == "The minimum of hands is 0 to 100,000, not 100001."


async def test_an_old_tables_guild_is_filled_in_from_the_gateway_cache(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A table from before guilds were recorded (its ``created`` names none) counts in
    "every server" only; once the bot is ready it finds the table's channel in the
    gateway cache, records its guild, and the server's board counts it."""
    fake = fake_discord
    ann, bob = fake.user("alice"), fake.user("bob")
    db = tmp_path / "old.sqlite3"
    store = await Store.open(db)
    table = str(fake.channel.id)
    await store.append(table, "created", {"host": str(ann.id), "settings": {}})
    for user, cashed in ((ann, 130), (bob, 70)):
        await store.append(table, "sat", {}, ledger=[LedgerRow(str(user.id), "buy_in", 100)])
        await store.append(table, "stood", {}, ledger=[LedgerRow(str(user.id), "cash_out", cashed)])
    await store.append(table, "closed", {})
    assert await store.guild_of(table) is None
    await store.close()

    bot = make_bot(db)
    async with run_bot(fake, bot, sync=True):
        source = bot.tables._standings()
        for _ in range(100):  # on_ready's fill runs as its own task
            if await source.guild_of(table) is not None:
                break
            await asyncio.sleep(0.02)
        await fake.slash(ann, "leaderboard", min_hands=0)
        await bot.presenter.drain()
        board = fake.ephemerals(ann)[-1].content
    assert f"1. <@{ann.id}>: +30 in 0 hands" in board, board
    assert f"2. <@{bob.id}>: -30 in 0 hands" in board
    store = await Store.open(db)
    try:
        assert await store.guild_of(table) == fake.guild_id
    finally:
        await store.close()
