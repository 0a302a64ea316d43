"""A tournament's money in its server's standings on Discord (R-19.46, R-19.103): after
a sit-and-go played through the fake Discord, ``/stats`` and ``/leaderboard`` in the
server it was created in show each player's tournament result (prizes and bounties
less the buy-in); another server's show none of it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.poker.messages import Chips, Name, Rule, msg
from bot.table.standings import signed
from bot.tourney_run.results import results
from bot.words import render
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot
from tests.test_discord_tourney import cog, create, play_to_the_end, register_all, settle

BUY_IN, BOUNTY = 100, 20


@pytest_asyncio.fixture
async def t(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        cog(harness).driver.interval = 0.02
        cog(harness).driver.between = 0.0
        cog(harness).boards.gap = 0.0
        yield harness


async def _said(h: Harness, user: FakeUser, command: str, **options: object) -> str:
    before = len(h.fake.ephemerals(user))
    await h.slash(user, command, **options)
    await h.fake.wait_for(lambda: len(h.fake.ephemerals(user)) > before)
    return h.last_ephemeral(user)


def _line_of(text: str, user: FakeUser) -> str:
    found = [line for line in text.splitlines() if f"<@{user.id}>" in line]
    assert len(found) == 1, text
    return found[0]


async def test_R_19_103_a_sit_and_go_s_money_counts_in_its_server_only(t: Harness) -> None:
    fake = t.fake
    host = fake.user("alice")
    users = [fake.add_user(f"p{n}") for n in range(3)]
    said = await create(
        t, host, format="sit_and_go", players=3, seats=3, stack=300, structure="turbo",
        level_unit="hands", level_length=2, buy_in=BUY_IN, bounty=BOUNTY,
    )  # fmt: skip
    assert "is open" in said, said
    await register_all(t, users)
    (runner,) = cog(t).driver.runners.values()
    await fake.wait_for(lambda: runner.st.status == "running")
    await play_to_the_end(t, seed=3)
    await settle(t)
    assert runner.st.status == "finished"
    # Each player's result from the director's own state: prize + bounties - buy-in.
    got = {r.player: (r.prize, r.bounties) for r in results(runner.st)}
    assert set(got) == {str(u.id) for u in users}
    net = {p: prize + bounties - BUY_IN for p, (prize, bounties) in got.items()}
    assert sum(net.values()) == 0  # no fee: every chip of money paid is paid back
    assert sum(b for _, b in got.values()) == 3 * BOUNTY  # two knocked out, the winner his own

    # Here: the leaderboard ranks the three by that result, /stats says it.
    board = await _said(t, host, "leaderboard", min_hands=0)
    for user in users:
        line = _line_of(board, user)
        assert render(signed(net[str(user.id)]), "en") in line, line
    for user in users:
        stats = await _said(t, user, "stats", scope="server")
        prize, bounties = got[str(user.id)]
        want = msg(
            "table.standings.net",
            net=signed(net[str(user.id)]),
            cashed=Chips(prize + bounties),
            bought=Chips(BUY_IN),
            rule=Rule("R-14.4"),
        )
        assert render(want, "en") in stats, stats

    # Another server: none of it.
    other = await fake.add_guild("elsewhere")
    channel = fake.guild_channels(other)[0]
    await fake.wait_idle(0.1)
    before = len(fake.ephemerals(host))
    await fake.slash(host, "leaderboard", channel=channel, min_hands=0)
    await fake.wait_for(lambda: len(fake.ephemerals(host)) > before)
    board = t.last_ephemeral(host)
    assert render(msg("table.board.nobody"), "en") in board, board
    for user in users:
        before = len(fake.ephemerals(user))
        await fake.slash(user, "stats", channel=channel, scope="server")
        await fake.wait_for(lambda u=user, n=before: len(fake.ephemerals(u)) > n)
        stats = t.last_ephemeral(user)
        where = msg("table.standings.on.server")
        none = msg("table.standings.none", who=Name(f"<@{user.id}>"), where=where)
        assert render(none, "en") in stats, stats
