"""A busted player's rebuy on Discord, end to end through the real discord.py client and
the fake Discord (R-19.47, R-19.48): the DM with Rebuy and I'm out buttons (the chips,
the price, the time left), a rebuy by it seating him again to play on by his own
buttons, a stale or double click answered privately and changing nothing, and one who
clicks I'm out placed at once; chips constant (R-2.5)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.poker.messages import Chips, Count, Number, msg
from bot.tourney_run.buying import seconds_left
from bot.tourney_run.runner import Runner
from bot.words import render
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot
from tests.test_discord_tourney import cog, create, settle
from tests.test_discord_tourney_entries import act_once, opened

PUSHY = {"all_in": 4, "check_call": 3, "fold": 3}


@pytest_asyncio.fixture
async def t(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        cog(harness).driver.interval = 0.02
        cog(harness).driver.between = 0.0
        cog(harness).boards.gap = 0.0
        yield harness


async def _until_wait(h: Harness, runner: Runner, rng: random.Random, index: int) -> None:
    """The players act by their buttons until the ``index``-th bust that may rebuy."""
    for _ in range(4000):
        if len(runner.waits) > index:
            return
        assert runner.st.status == "running", "the tournament ended before the wait"
        if not await act_once(h, runner, rng, PUSHY):
            await asyncio.sleep(0.02)
    raise AssertionError("nobody busted")


def _offers(h: Harness, user: FakeUser) -> list[FakeMessage]:
    return [m for m in h.fake.dm_messages(user) if any("cfw:" in c for c in m.custom_ids())]


async def _click(h: Harness, user: FakeUser, dm: FakeMessage, prefix: str) -> str:
    button = next(c for c in dm.custom_ids() if c.startswith(prefix))
    before = len(h.fake.ephemerals(user))
    await h.fake.click(user, dm, button)
    await h.fake.wait_for(lambda: len(h.fake.ephemerals(user)) > before)
    return h.last_ephemeral(user)


async def test_R_19_48_a_busted_player_rebuys_by_his_dm_and_another_declines(
    t: Harness,
) -> None:
    runner, _ = await opened(t, 3, rebuys=1, rebuy_until=10, buy_in=100)
    rng = random.Random(11)
    # A table shows a hand's end a while before it deals again: the time to answer
    # (a seat is drawn between hands).
    cog(t).driver.between = 2.0
    await _until_wait(t, runner, rng, 0)
    wait = runner.waits[0]
    user = t.fake.users[int(wait.entry)]
    # not out, not placed; his seat is free.
    assert wait.entry in runner.st.waiting and not runner.st.finishes
    await t.fake.wait_for(lambda: _offers(t, user))
    (dm,) = _offers(t, user)
    assert "Rebuy 300 chips for 100?" in dm.content and "seconds" in dm.content, dm.content
    said = await _click(t, user, dm, "cfw:rebuy:")
    assert "rebuys: 300 chips" in said, said
    await t.fake.wait_for(lambda: wait.entry in runner.st.seats)
    table, seat = runner.st.seats[wait.entry]
    assert runner.table(table).state.seats[seat].user_id == wait.entry
    assert runner.st.rebuys[wait.entry] == 1 and len(runner.st.entries) == 3
    # The same button again: that wait is over; answered privately, nothing bought.
    chips = runner.st.chips
    again = await _click(t, user, dm, "cfw:rebuy:")
    assert "offer is over" in again, again
    stale = await _click(t, user, dm, "cfw:out:")
    assert "offer is over" in stale, stale
    assert runner.st.chips == chips == 4 * 300 and wait.entry in runner.st.seats
    # He plays on by his own buttons at the seat he drew.
    cog(t).driver.between = 0.0
    acted = 0
    for _ in range(4000):
        if acted >= 2 or runner.waits[1:] or runner.st.status != "running":
            break
        who = await act_once(t, runner, rng, {"check_call": 6, "fold": 2})
        acted += who == wait.entry
        if not who:
            await asyncio.sleep(0.02)
    assert acted >= 2 or runner.waits[1:]
    # The next bust who may rebuy clicks I'm out: out at once and placed.
    cog(t).driver.between = 2.0
    await _until_wait(t, runner, rng, 1)
    second = runner.waits[1]
    other = t.fake.users[int(second.entry)]
    await t.fake.wait_for(lambda: _offers(t, other))
    dm = _offers(t, other)[-1]
    said = await _click(t, other, dm, "cfw:out:")
    assert "you are out" in said, said
    await settle(t)
    assert second.entry not in runner.st.waiting
    assert second.entry in {f.entry for f in runner.st.finishes}
    # A rebuy after declining: the wait is over.
    late = await _click(t, other, dm, "cfw:rebuy:")
    assert "offer is over" in late, late
    async with cog(t).driver.lock(runner.tournament):
        runner.check_chips()
        assert runner.chips_at_tables() == runner.st.chips == 4 * 300


async def test_R_19_102_the_rebuy_wait_is_a_create_option(t: Harness) -> None:
    """``/tournament create rebuy_wait``: out of bounds refused privately with what is
    allowed and nothing created; within them, the busted player's wait lasts it."""
    alice = t.fake.user("alice")
    said = await create(t, alice, format="scheduled", rebuys=1, rebuy_until=3, rebuy_wait=5)
    allowed = render(msg("entries.refuse.rebuy_wait", low=Number(10), high=Number(600)), "en")
    assert said == allowed and not cog(t).driver.runners
    runner, _ = await opened(t, 3, rebuys=1, rebuy_until=10, rebuy_wait=120)
    assert runner.st.config.entries.rebuy_wait == 120
    await _until_wait(t, runner, random.Random(11), 0)
    # His wait was just recorded: it ends the host's 120 s from now, not 60.
    assert runner.waits[0].until - runner.service.time.now() > 60


async def test_R_19_107_a_wait_is_offered_again_once_after_a_restart_and_out_is_told_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A player waiting to rebuy when the bot restarts gets the DM again, once, with the
    time he has left (not again on the board's next redraws); his I'm out is told by
    its private answer alone, no out DM besides."""
    db = tmp_path / "chipfist.sqlite3"
    bot = make_bot(db)
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        cog(h).boards.gap = 0.0
        cog(h).driver.interval = 0.02
        cog(h).driver.between = 2.0
        runner, _ = await opened(h, 3, rebuys=1, rebuy_until=10, rebuy_wait=600)
        await _until_wait(h, runner, random.Random(11), 0)
        wait = runner.waits[0]
        user = fake_discord.users[int(wait.entry)]
        await fake_discord.wait_for(lambda: _offers(h, user))
        assert len(_offers(h, user)) == 1
        await cog(h).driver.stop()  # no more deals: he is still waiting at the restart
    bot2 = make_bot(db)
    async with run_bot(fake_discord, bot2, sync=True):
        h2 = Harness(fake_discord, bot2)
        cog(h2).boards.gap = 0.0
        runner = cog(h2).driver.runners[runner.tournament]
        assert runner.st.waiting.get(wait.entry) == wait
        await fake_discord.wait_for(lambda: len(_offers(h2, user)) == 2)
        again = _offers(h2, user)[-1]
        left = seconds_left(wait, runner.service.time.now())
        event = cog(h2).boards.event(runner.tournament)
        cfg = runner.st.config
        asked = {
            render(
                msg(
                    "entries.rebuy_offer",
                    event=event,
                    amount=Chips(cfg.stack),
                    price=Chips(cfg.prize_part),
                    count=Count(n),
                ),
                "en",
            )
            for n in range(left, 601)
        }
        assert 0 < left <= 600 and again.content in asked, again.content  # the time left
        for _ in range(3):  # the board's redraws ask nobody again
            cog(h2).boards.repaint(runner.tournament)
            await settle(h2)
        assert len(_offers(h2, user)) == 2
        dms = len(fake_discord.dm_messages(user))
        said = await _click(h2, user, again, "cfw:out:")
        assert said == render(msg("entries.declined", event=event), "en"), said
        await fake_discord.wait_for(lambda: wait.entry not in runner.st.waiting)
        await settle(h2)
        await fake_discord.wait_idle(0.2)
        assert len(fake_discord.dm_messages(user)) == dms  # no out DM as well
        assert wait.entry in {f.entry for f in runner.st.finishes} or runner.st.out
