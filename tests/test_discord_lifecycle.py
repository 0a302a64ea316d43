"""End to end: a channel's table over its whole life, as a community plays it week after
week. The real discord.py client and the cogs against the fake Discord, on a real SQLite
file: close and reopen in the same channel, the bot removed and added back, a restart
after both, the time charge's bounds and refusals, and a carried pot at the close. Each
test checks chip conservation (R-2.5) and that every command was answered, never with
"Already done" for something that was not done."""

from __future__ import annotations

from pathlib import Path

from bot.table import log as tlog
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot, players
from tests.test_discord_moderation import act_until, conserved, ledger_kinds


def summaries(fake: FakeDiscord) -> list[str]:
    return [m.content for m in fake.channel_messages() if "is over" in m.content]


async def play_a_hand(h: Harness, users: list[FakeUser]) -> None:
    await h.slash(users[0], "deal")
    assert h.table().state.in_hand, h.last_ephemeral(users[0])
    await act_until(h, lambda: not h.table().state.in_hand)


def no_already_done(fake: FakeDiscord, users: list[FakeUser]) -> None:
    for u in users:
        said = [m.content for m in fake.ephemerals(u)]
        assert not any("Already done" in s for s in said), said


async def test_r16_11_close_and_reopen_in_the_channel_plays_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """R-16.11 / R-1.1: week one's table plays a hand and is closed; week two's opens
    in the same channel, deals its own hand 1 and ends it (the summary is posted, the
    chips move), on a table message of its own; a restart on the same file starts it
    (not halted) and it deals again. R-2.5 all along."""
    fake = fake_discord
    db = tmp_path / "weekly.sqlite3"
    users = players(fake)
    bot = make_bot(db)
    async with run_bot(fake, bot, sync=True):
        h = Harness(fake, bot)
        await h.start_table(users)
        await act_until(h, lambda: not h.table().state.in_hand)
        first_message = h.table_message().id
        await h.slash(users[0], "table close")
        assert h.table().state.closed, h.last_ephemeral(users[0])
        await h.slash(users[1], "table create")
        assert not h.table().state.closed, h.last_ephemeral(users[1])
        for u in users:
            await h.slash(u, "sit", buy_in=200)
        await play_a_hand(h, users)
        table = h.table()
        assert table.state.hand_no == 1 and table.state.incarnation == 2
        assert len(summaries(fake)) == 2  # week one's hand 1 and week two's
        assert h.table_message().id != first_message
        await conserved(h)
        no_already_done(fake, users)
    bot2 = make_bot(db)
    async with run_bot(fake, bot2):
        h2 = Harness(fake, bot2)
        table = h2.table()
        assert table is not None and not table.state.halted and not table.state.closed
        await play_a_hand(h2, users)
        assert h2.table().state.hand_no == 2
        await conserved(h2)
        no_already_done(fake, users)


async def test_r16_11_bot_removed_and_added_back_twice_deals_to_the_end(h: Harness) -> None:
    """R-16.11: the bot removed mid-hand and added back, twice: each reopened table
    deals and finishes its hand 1 (its end is not refused as a duplicate of the first
    table's), chips conserved."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    table = h.table()
    for round_ in (2, 3):
        await fake.remove_bot()
        await fake.wait_for(lambda: table.state.closed, timeout=20)
        await h.settle()
        await fake.readd_bot()
        await fake.wait_for(lambda: not table.state.closed, timeout=20)
        await h.settle()
        assert table.state.incarnation == round_
        for u in users:
            await h.slash(u, "sit", buy_in=200)
        await play_a_hand(h, users)
        assert table.state.hand_no == 1 and not table.state.halted
        await conserved(h)
    no_already_done(fake, users)


async def test_r14_6_time_charge_bounded_and_a_refused_deal_takes_nothing(h: Harness) -> None:
    """R-14.6: a time charge of 1e9 is refused with its range; a deal the charge would
    leave with one player with chips is refused and nothing is collected; after a top-up
    the deal collects once and plays."""
    fake = h.fake
    alice, bob = players(fake)[:2]
    await h.slash(alice, "table create", small_blind=1, big_blind=2)
    await h.slash(alice, "table settings", name="min_buy_in", value="2")
    await h.slash(alice, "table settings", name="time_charge", value="1000000000")
    assert "R-14.6" in h.last_ephemeral(alice)
    assert h.table().settings.time_charge == 0
    await h.slash(alice, "table settings", name="time_charge", value="2")
    assert h.table().settings.time_charge == 2, h.last_ephemeral(alice)
    for u in (alice, bob):
        await h.slash(u, "sit", buy_in=2)
    await h.slash(alice, "deal")
    said = h.last_ephemeral(alice)
    assert "R-14.6" in said and "nothing was collected" in said
    assert not h.table().state.in_hand and h.table().state.rake_total == 0
    for u in (alice, bob):
        await h.slash(u, "topup", amount=20)
    await h.slash(alice, "deal")
    assert h.table().state.in_hand, h.last_ephemeral(alice)
    assert h.table().state.rake_total == 4
    await conserved(h)


async def test_r16_13_a_carried_guts_pot_goes_back_at_the_close(h: Harness) -> None:
    """R-16.13 / R-14.4: a Guts deal nobody plays leaves the pot carried; the host
    closes the table: the pot goes back to the three players, each leaves with what he
    brought, the nets sum to zero, and the channel's next table carries nothing."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users, variant="guts")
    table = h.table()
    hand, info = table.state.hand, table.state.current
    assert hand is not None and info is not None
    for pos in hand.guts_pending():
        out = await table.act(info.users[pos], "out", key=f"t-out-{pos}")
        assert out.ok, out.msg
    await h.settle()
    carried = table.state.carried
    assert carried > 0
    await h.slash(users[0], "table close")
    assert table.state.closed, h.last_ephemeral(users[0])
    rows = await table.store.ledger_rows(h.tid)
    assert ledger_kinds(rows, "cash_out") == {str(u.id): 200 for u in users}
    returned = tlog.read_rows(await table.store.events(h.tid), tlog.CarryReturned)
    assert [sum(a for _, a in r.shares) for r in returned] == [carried]
    assert "R-16.13" in h.last_ephemeral(users[0])
    await h.slash(users[1], "table create")
    assert h.table().state.carried == 0
    await conserved(h)
