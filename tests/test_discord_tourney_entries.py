"""Re-entry, rebuys and the add-on on Discord, end to end through the real discord.py
client and the fake Discord: a busted player re-enters by the announcement's Register
button and plays on at his drawn seat by his own buttons (R-19.90); rebuys and the
add-on by command and by the status board's buttons, refused privately with the
director's reason, a double click counted once (R-19.91); chips constant (R-2.5) and
the ledger's buy_in / top_up rows right (R-19.46)."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.poker.messages import Number, msg
from bot.table.ports import LedgerKind
from bot.tournament.log import Rebought
from bot.tourney_run.journal import journal_id
from bot.tourney_run.runner import Runner
from bot.words import render
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot
from tests.test_discord_tourney import act_at, click, cog, command, create, settle


@pytest_asyncio.fixture
async def t(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        cog(harness).driver.interval = 0.02
        cog(harness).driver.between = 0.0
        cog(harness).boards.gap = 0.0
        yield harness


async def opened(h: Harness, players: int, **options: object) -> tuple[Runner, list[FakeUser]]:
    """A scheduled tournament by alice (a moderator), ``players`` registered by the
    announcement's button, started by alice."""
    alice = h.fake.user("alice")
    said = await create(
        h, alice, format="scheduled", stack=300, structure="turbo", level_unit="hands",
        level_length=50, seats=6, **options,
    )  # fmt: skip
    assert "is open" in said, said
    (tournament,) = list(cog(h).driver.runners)
    runner = cog(h).driver.runners[tournament]
    users = [h.fake.add_user(f"p{n}") for n in range(players)]
    for user in users:
        assert "registered" in await click(h, user, "reg")
    await command(h, alice, "start")
    await h.fake.wait_for(lambda: runner.st.status == "running")
    return runner, users


async def act_once(h: Harness, runner: Runner, rng: random.Random, weights: dict[str, int]) -> str:
    """The player to act at the first table where someone can clicks one of its
    buttons (:func:`act_at`); his user id, or "" when nobody could act."""
    for number in sorted(runner.ports):
        who = await act_at(h, runner, number, rng, weights)
        if who:
            return who
    return ""


async def test_R_19_90_a_busted_player_reenters_by_the_button_and_plays_on(t: Harness) -> None:
    runner, users = await opened(t, 4, late_until=10, reentries=1)
    rng = random.Random(7)
    pushy = {"all_in": 4, "check_call": 3, "fold": 3}
    # A table shows a hand's end a while before it deals again: the time to re-enter
    # between hands (during a hand there is no seat to draw, R-19.38).
    cog(t).driver.between = 3.0
    for _ in range(3000):
        if runner.outs:
            break
        if not await act_once(t, runner, rng, pushy):
            await asyncio.sleep(0.02)
    assert runner.outs, "somebody busted"
    assert runner.st.registration_open, runner.st.status
    busted = runner.outs[0].entry
    user = t.fake.users[int(busted)]

    # he is told by DM that he is out, with a Re-enter button (the
    # announcement's Register, R-19.38), which re-enters him.
    def offer() -> list[FakeMessage]:
        return [m for m in t.fake.dm_messages(user) if any("cft:reg:" in c for c in m.custom_ids())]

    await t.fake.wait_for(offer)
    (dm,) = offer()
    first = msg("tourney.name.scheduled", number=Number(1))  # its name, not its id
    assert dm.content == render(msg("entries.out_reenter", event=first), "en"), dm.content
    before = len(t.fake.ephemerals(user))
    await t.fake.click(user, dm, dm.custom_ids()[0])
    await t.fake.wait_for(lambda: len(t.fake.ephemerals(user)) > before)
    said = t.last_ephemeral(user)
    assert "re-enters" in said, said
    again = f"{busted}#2"
    await t.fake.wait_for(lambda: again in runner.st.seats)
    table, seat = runner.st.seats[again]
    assert runner.table(table).state.seats[seat].user_id == busted
    assert runner.st.stacks[again] == 300
    # A second re-entry is refused while he is in, privately with the reason.
    assert "already" in await click(t, user, "reg")
    cog(t).driver.between = 0.0
    # He plays on by his own buttons (a re-entry's id would not be a Discord user):
    # his clicks act for his entry #2 at the seat he drew.
    hands = runner.table(table).state.hand_no
    acted_after = 0
    for _ in range(4000):
        if acted_after >= 3 or runner.st.status != "running":
            break
        who = await act_once(t, runner, rng, {"check_call": 6, "fold": 2})
        acted_after += who == busted
        if not who:
            await asyncio.sleep(0.02)
    assert acted_after >= 3
    assert runner.table(table).state.hand_no > hands
    state = runner.st
    assert len(state.entries) == 5 and sum(e.player == busted for e in state.entries) == 2
    async with cog(t).driver.lock(runner.tournament):
        runner.check_chips()
        assert runner.chips_at_tables() == 5 * 300 == state.chips
    rows = await runner.service.store.ledger_rows(journal_id(runner.tournament))
    buy_ins = Counter(r.player_id for r in rows if r.kind == LedgerKind.BUY_IN)
    assert buy_ins == Counter({str(u.id): 1 for u in users} | {busted: 2})
    assert not [r for r in rows if r.kind == LedgerKind.TOP_UP]


def board(h: Harness) -> FakeMessage:
    found = [m for m in h.fake.channel_messages() if any("cfe:" in c for c in m.custom_ids())]
    assert len(found) == 1, [m.custom_ids() for m in h.fake.channel_messages()]
    return h.fake.message(found[0].id)


async def press(h: Harness, user: FakeUser, kind: str, times: int = 1) -> list[str]:
    """``user`` clicks the board's ``kind`` button ``times`` times at once (a double
    click); the private answers."""
    message = board(h)
    button = next(c for c in message.custom_ids() if c.startswith(f"cfe:{kind}:"))
    before = len(h.fake.ephemerals(user))
    await asyncio.gather(*(h.fake.click(user, message, button, wait=False) for _ in range(times)))
    await h.fake.wait_for(lambda: len(h.fake.ephemerals(user)) >= before + times)
    await settle(h)
    return [m.content for m in h.fake.ephemerals(user)[before:]]


async def test_R_19_91_rebuys_and_the_addon_by_command_and_by_button(t: Harness) -> None:
    alice = t.fake.user("alice")
    runner, users = await opened(
        t, 3, rebuys=2, rebuy_until=1, addon=300, addon_price=50, buy_in=100
    )
    # a member not playing is refused privately with the director's reason.
    said = await command(t, alice, "rebuy")
    assert "not playing" in said, said
    # Paused: each table finishes its hand (played out by its buttons) and waits;
    # until two may rebuy (a split pot can leave only one at or below the start).
    rng = random.Random(3)
    for _ in range(5):
        await command(t, alice, "pause")
        for _ in range(500):
            if all(p.between_hands() for p in runner.ports.values()):
                break
            if not await act_once(t, runner, rng, {"check_call": 1, "fold": 1}):
                await asyncio.sleep(0.02)
        await settle(t)
        assert runner.st.paused and all(p.between_hands() for p in runner.ports.values())
        low = sorted((runner.st.stacks[e], e) for e in runner.st.seats)
        if low[1][0] <= 300:
            break
        await command(t, alice, "pause", resume=True)
        await t.fake.wait_for(lambda: any(not p.between_hands() for p in runner.ports.values()))
    chips = runner.st.chips
    by_id = {str(u.id): u for u in users}
    assert low[1][0] <= 300, low  # two may rebuy (the chips are 900 among three)
    first, second = by_id[low[0][1]], by_id[low[1][1]]
    # A rebuy by the board's button, clicked twice at once: bought once.
    answers = await press(t, first, "rebuy", times=2)
    assert sum("rebuys" in a for a in answers) == 1, answers
    assert sum("already counted" in a for a in answers) == 1, answers
    # The board is drawn again with the purchase: a new click is a new request, here
    # refused with the director's reason (his stack is above the starting stack now).
    await t.fake.wait_for(lambda: any(c.endswith(":1") for c in board(t).custom_ids()))
    (again,) = await press(t, first, "rebuy")
    assert "You may rebuy with 300 chips or fewer" in again, again
    # A rebuy by command.
    assert "rebuys" in await command(t, second, "rebuy")
    # The add-on: by command, then by a double click of the button.
    assert "add-on" in await command(t, first, "addon")
    answers = await press(t, second, "addon", times=2)
    assert sum("takes the add-on" in a for a in answers) == 1, answers
    assert sum("already counted" in a for a in answers) == 1, answers
    # A second add-on is refused with the reason; nothing changes.
    said = await command(t, first, "addon")
    assert "not open now, or you have taken it" in said, said
    records = [r for r in await runner.journal.records() if isinstance(r, Rebought)]
    assert sorted((r.entry, r.addon) for r in records) == sorted(
        [(low[0][1], False), (low[1][1], False), (low[0][1], True), (low[1][1], True)]
    )
    # every chip bought is at the tables, none made or lost.
    await t.fake.wait_for(lambda: runner.chips_at_tables() == chips + 4 * 300)
    runner.check_chips()
    assert runner.st.chips == chips + 4 * 300
    # the ledger holds each price once: top_up rows per rebuy and add-on.
    rows = await runner.service.store.ledger_rows(journal_id(runner.tournament))
    tops = sorted((r.player_id, r.amount) for r in rows if r.kind == LedgerKind.TOP_UP)
    prize = runner.st.config.prize_part
    assert tops == sorted(
        [(low[0][1], prize), (low[1][1], prize), (low[0][1], 50), (low[1][1], 50)]
    )
    assert sorted(r.player_id for r in rows if r.kind == LedgerKind.BUY_IN) == sorted(by_id)
