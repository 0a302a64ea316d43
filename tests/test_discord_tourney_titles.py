"""A tournament's name on Discord (R-19.105, R-19.106), end to end through the real
discord.py client and the fake Discord: the host's title on the announcement, the
status board, the tables' threads, the DMs and the final standings (whose lines give
the bounties won), inert in markdown; without one each server's tournaments are
numbered by format; never the raw id. A command in a table's thread finds that
table's tournament."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.poker.messages import Chips, Msg, Name, Number, msg
from bot.tourney_run.results import results
from bot.words import render
from cogs import names
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot
from tests.test_discord_tourney import (
    announcement,
    click,
    cog,
    command,
    create,
    play_to_the_end,
    settle,
    standings,
)

TITLE = "Friday *Cup* @everyone"
INERT = Name(names.escape(TITLE))


@pytest_asyncio.fixture
async def t(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        cog(harness).driver.interval = 0.02
        cog(harness).driver.between = 0.0
        cog(harness).boards.gap = 0.0
        yield harness


def en(m: Msg) -> str:
    return render(m, "en")


async def test_R_19_105_the_hosts_title_names_the_event_everywhere(t: Harness) -> None:
    fake = t.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    said = await create(
        t, alice, players=2, seats=2, stack=100, structure="turbo", bounty=20, title=TITLE
    )
    (runner,) = cog(t).driver.runners.values()
    tid = runner.tournament
    assert said == en(msg("tourney.created", event=INERT, id=Name(tid))), said
    title = str(announcement(t).embeds[0]["title"])
    assert title == en(msg("tourney.title", event=INERT)) and tid not in title
    await click(t, alice, "reg")
    await click(t, bob, "reg")
    await fake.wait_for(lambda: runner.st.status == "running")
    await settle(t)
    # The table's thread is named by the title as written (a thread name is no markdown).
    thread = t.bot.presenter.places[f"tn:{tid}:1"][1]
    assert fake.channels[thread].name == en(
        msg("tourney.thread", event=Name(TITLE), table=Number(1))
    )
    # /tournament status in the table's thread: that table's tournament, by its title.
    before = len(fake.ephemerals(bob))
    await fake.slash(bob, "tournament status", channel=fake.channels[thread])
    await fake.wait_for(lambda: len(fake.ephemerals(bob)) > before)
    board = fake.ephemerals(bob)[-1]
    assert board.embeds[0]["title"] == en(msg("tourney.status.title", event=INERT))
    await play_to_the_end(t, 4)
    (post,) = await standings(fake)
    embed = post.embeds[0]
    assert embed["title"] == en(msg("tourney.standings.title", event=INERT)), embed
    assert tid not in str(embed)
    # each line gives the bounties won: the winner his own and the other's.
    lines = str(embed["description"]).splitlines()
    rows = results(runner.st)
    assert len(lines) == len(rows) == 2
    for line, r in zip(lines, rows, strict=True):
        assert line.endswith(
            en(msg("tourney.standings.bounties", line=Name(""), bounties=Chips(r.bounties))).strip()
        ), line
    assert [r.bounties for r in rows] == [40, 0]
    # Its final table is closed now: a command in its thread still finds it.
    final = cog(t).driver.service.get(f"tn:{tid}:1")
    assert final is None or final.state.closed
    before = len(fake.ephemerals(bob))
    await fake.slash(bob, "tournament status", channel=fake.channels[thread])
    await fake.wait_for(lambda: len(fake.ephemerals(bob)) > before)
    board = fake.ephemerals(bob)[-1]
    assert board.embeds and board.embeds[0]["title"] == en(msg("tourney.status.title", event=INERT))
    # The loser's DM names the event by its title.
    loser = fake.users[int(rows[1].player)]
    await fake.wait_for(
        lambda: any(
            m.content == en(msg("entries.out", event=INERT)) for m in fake.dm_messages(loser)
        )
    )
    assert all(tid not in m.content for m in fake.dm_messages(loser))


async def test_R_19_105_without_a_title_each_servers_tournaments_are_numbered(
    t: Harness,
) -> None:
    fake = t.fake
    alice = fake.user("alice")
    first = await create(t, alice, players=2)
    second = await create(t, alice, format="scheduled")
    ids = list(cog(t).driver.runners)
    one = msg("tourney.name.sit_and_go", number=Number(1))
    two = msg("tourney.name.scheduled", number=Number(2))
    assert first == en(msg("tourney.created", event=one, id=Name(ids[0])))
    assert second == en(msg("tourney.created", event=two, id=Name(ids[1])))
    other = await fake.add_guild("elsewhere")
    channel = fake.guild_channels(other)[0]
    await fake.wait_idle(0.1)
    before = len(fake.ephemerals(alice))
    await fake.slash(alice, "tournament create", channel=channel, format="scheduled")
    await fake.wait_for(lambda: len(fake.ephemerals(alice)) > before)
    third = [i for i in cog(t).driver.runners if i not in ids]
    own = msg("tourney.name.scheduled", number=Number(1))  # that server's first
    assert t.last_ephemeral(alice) == en(msg("tourney.created", event=own, id=Name(third[0])))
    await command(t, alice, "status", tournament=ids[1])
    board = fake.ephemerals(alice)[-1]
    assert board.embeds[0]["title"] == en(msg("tourney.status.title", event=two))
