"""Tournament QA findings played through the real discord.py client against the fake
Discord: a wait whose end a pause moved is still asked by DM (R-19.115). Chips
constant throughout (R-2.5)."""

from __future__ import annotations

import asyncio

from bot.poker.messages import Chips, Name
from tests.test_discord_e2e import Harness
from tests.test_discord_tourney import command, settle
from tests.test_tourney_qa2 import _ahead, _button, _conserved, _offers, _to_a_wait, said, t

__all__ = ["t"]  # the tournament's end-to-end fixture, shared


async def test_R_19_115_a_wait_moved_by_a_pause_is_still_asked_by_dm(t: Harness) -> None:
    """A busted player waits; the host pauses, time passes, the host resumes (his
    wait's end moved); the board then asks the waits left (as its first pass after a
    restart does): he is sent the DM again, and its Rebuy seats him."""
    from tests.test_discord_tourney import cog

    runner, user, _ = await _to_a_wait(t, 3, 11)
    entry = runner.waits[0].entry
    alice = t.fake.user("alice")
    await command(t, alice, "pause")
    _ahead(runner, 300)
    await asyncio.sleep(0.3)
    await command(t, alice, "pause", resume=True)
    await settle(t)
    assert entry in runner.st.waiting and runner.st.waiting[entry] != runner.waits[0]
    offers = len(_offers(t, user))
    boards = cog(t).boards
    boards._waits_told.pop(runner.tournament, None)
    await boards._ask_rebuys(runner.tournament)
    await t.fake.wait_for(lambda: len(_offers(t, user)) > offers)
    dm = _offers(t, user)[-1]
    before = len(t.fake.ephemerals(user))
    await t.fake.click(user, dm, _button(dm, "cfw:rebuy:"))
    await t.fake.wait_for(lambda: len(t.fake.ephemerals(user)) > before)
    bought = said("tournament.rebought", player=Name(user.name), amount=Chips(300))
    assert t.fake.ephemerals(user)[-1].content.startswith(bought)
    await t.fake.wait_for(lambda: entry in runner.st.seats)
    assert await _conserved(t, runner) == 4 * 300
