"""A rebuy asked on Discord during the buyer's hand, end to end through the real
discord.py client and the fake Discord (R-19.66): the board's Rebuy button clicked
twice while his table's hand goes on is answered privately as queued, once; when the
hand is over the rebuy is made and he is told by DM; chips constant (R-2.5). And a
scheduled start waiting for its host, shown as such after a restart (R-19.68)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.poker.messages import msg
from bot.tournament.log import Rebought
from bot.words import render
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot
from tests.test_discord_tourney import Later, act_at, click, cog, command, create, settle
from tests.test_discord_tourney_entries import opened, press

TOO_FEW = "tournament.refuse.too_few"


@pytest_asyncio.fixture
async def t(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        cog(harness).driver.interval = 0.02
        cog(harness).driver.between = 0.0
        cog(harness).boards.gap = 0.0
        yield harness


async def test_R_19_66_a_rebuy_clicked_during_his_hand_is_queued_and_made_after_it(
    t: Harness,
) -> None:
    runner, users = await opened(t, 3, rebuys=2, rebuy_until=5, buy_in=100)
    by_id = {str(u.id): u for u in users}
    await t.fake.wait_for(lambda: runner.table(1).state.in_hand)
    await settle(t)
    rng = random.Random(4)
    # The first to act folds (3-handed: the button, no blind): his stack stays at the
    # start (300), and his table's hand goes on without him.
    who = await act_at(t, runner, 1, rng, {"fold": 1})
    assert who and runner.table(1).state.in_hand
    buyer = by_id[who]
    chips, hand = runner.st.chips, runner.table(1).state.hand_no
    answers = await press(t, buyer, "rebuy", times=2)
    assert all("queued" in a for a in answers), answers
    assert len(runner.queue.asked) == 1 and runner.queue.waiting() == runner.queue.asked
    assert runner.st.chips == chips and runner.st.rebuys == {}
    # The others play the hand out by their buttons.
    for _ in range(200):
        if runner.table(1).state.hand_no > hand or not runner.table(1).state.in_hand:
            break
        await act_at(t, runner, 1, rng, {"check_call": 1})
    await t.fake.wait_for(lambda: runner.st.rebuys.get(who) == 1)
    await t.fake.wait_for(lambda: any("rebuys" in m.content for m in t.fake.dm_messages(buyer)))
    said = [m.content for m in t.fake.dm_messages(buyer) if "rebuys" in m.content]
    assert len(said) == 1 and "Your hand is over" in said[0], said
    assert runner.queue.untold() == []
    assert sum(1 for r in await runner.journal.records() if isinstance(r, Rebought)) == 1
    await t.fake.wait_for(lambda: runner.chips_at_tables() == chips + 300)
    async with cog(t).driver.lock(runner.tournament):
        runner.check_chips()
    assert runner.st.chips == chips + 300


async def test_R_19_68_a_start_waiting_for_its_host_is_shown_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """R-19.65, R-19.68: a scheduled tournament's start time finds one player: the
    board says once that there are too few and that it waits for its host; the dealer
    restarts: `/tournament status` still says it waits for its host, the clock does not
    try again (nothing said again), and the host's `/tournament start` starts it once
    a second player has registered."""
    db = tmp_path / "chipfist.sqlite3"
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    bot = make_bot(db)
    async with run_bot(fake_discord, bot, sync=True):
        h = _tuned(Harness(fake_discord, bot))
        await create(h, alice, format="scheduled", start_in=10)
        runner = next(iter(cog(h).driver.runners.values()))
        await click(h, alice, "reg")
        bot.tables.time = Later(bot.tables.time, 11 * 60)
        latest = cog(h).boards.boards[runner.tournament].latest
        await fake_discord.wait_for(lambda: any(m.key == TOO_FEW for m in latest))
        await settle(h)
        said = await command(h, bob, "status")
        assert "waits for its host" in said, said
    bot2 = make_bot(db)
    async with run_bot(fake_discord, bot2, sync=True):
        h2 = _tuned(Harness(fake_discord, bot2))
        bot2.tables.time = Later(bot2.tables.time, 20 * 60)
        await fake_discord.wait_idle(0.2)
        runner2 = next(iter(cog(h2).driver.runners.values()))
        assert runner2.st.status == "registering"
        said = await command(h2, bob, "status")
        assert "waits for its host" in said, said
        board = cog(h2).boards.boards[runner2.tournament]
        assert not any(m.key == TOO_FEW for m in board.latest)  # not said again
        await click(h2, bob, "reg")
        assert runner2.st.status == "registering"
        await command(h2, alice, "start")
        assert runner2.st.status == "running"
        said = await command(h2, bob, "status")
        assert "waits for its host" not in said, said


def _tuned(h: Harness) -> Harness:
    cog(h).driver.interval = 0.02
    cog(h).driver.between = 0.0
    cog(h).boards.gap = 0.0
    return h


async def test_R_19_108_his_status_says_his_queued_rebuy_until_it_is_made(t: Harness) -> None:
    """``/tournament status`` for a player with a rebuy queued says so ("made when your
    hand ends"); another player's status and the public board do not; once it is
    made, his status no longer says it."""
    runner, users = await opened(t, 3, rebuys=2, rebuy_until=5, buy_in=100)
    by_id = {str(u.id): u for u in users}
    await t.fake.wait_for(lambda: runner.table(1).state.in_hand)
    await settle(t)
    rng = random.Random(4)
    who = await act_at(t, runner, 1, rng, {"fold": 1})
    assert who and runner.table(1).state.in_hand
    buyer = by_id[who]
    other = next(u for u in users if u is not buyer)
    hand = runner.table(1).state.hand_no
    await press(t, buyer, "rebuy", times=1)
    assert len(runner.queue.waiting(who)) == 1
    queued = render(msg("tourney.status.queued_rebuy"), "en")
    assert queued in await command(t, buyer, "status")
    assert queued not in await command(t, other, "status")
    assert all(
        queued not in str(e.get("description")) for m in t.fake.channel_messages() for e in m.embeds
    )
    for _ in range(200):
        if runner.table(1).state.hand_no > hand or not runner.table(1).state.in_hand:
            break
        await act_at(t, runner, 1, rng, {"check_call": 1})
    await t.fake.wait_for(lambda: runner.st.rebuys.get(who) == 1)
    assert queued not in await command(t, buyer, "status")
