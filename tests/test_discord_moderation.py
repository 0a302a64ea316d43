"""End to end: moderators and Discord faults mid-hand (issue 15). The real discord.py
client and the cogs against the fake Discord, which revokes permissions, deletes the
table's channel or thread, removes a member or the bot, and drops the gateway.

Every test checks chip conservation (R-2.5: stacks + pots + the ledger), that no
hidden card reached anyone but its owner through a fallback (the ``h`` fixture's leak
guard after each test, and :func:`assert_no_leak` at the points that matter), and what
the players were told.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio

from bot.config import Config
from bot.table import log as tlog
from bot.table.recovery import ledger_error, load
from bot.table.table import Table
from cards_art import RenderedImage
from cogs import ops
from cogs.app import ChipfistBot
from cogs.moderation import REMOVALS_LOG, Moderation
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.fakediscord.server import INTENT_GUILD_MEMBERS
from tests.test_discord_e2e import (
    CARD,
    Harness,
    LeakGuard,
    assert_no_leak,
    hole_cards,
    make_bot,
    players,
)


async def conserved(h: Harness) -> None:
    """R-2.5 on the live table and against the store: chips on the table equal chips
    bought less chips cashed out and raked, and the ledger agrees with the log."""
    table = h.table()
    state = table.state
    assert state.conservation_error() is None, state.conservation_error()
    assert await ledger_error(table.store, state) is None
    # And the table rebuilt from the log is the same table (invariant 4).
    again = await load(table.store, h.tid)
    assert again.conservation_error() is None
    assert {n: s.stack for n, s in again.seats.items()} == {
        n: s.stack for n, s in state.seats.items()
    }


def public_texts(fake: FakeDiscord, after: int = 0) -> list[str]:
    """What was posted in the table's channel (everyone sees it), from delivery ``after``."""
    return [
        d.payload.get("content") or ""
        for d in fake.deliveries[after:]
        if d.audience == "public" and d.route == "channel_message"
    ]


def moderation(h: Harness) -> Moderation:
    cog = h.bot.get_cog("Moderation")
    assert isinstance(cog, Moderation)
    return cog


async def act_until(h: Harness, done: Any, limit: int = 40) -> None:
    """Check/call with the table's buttons until ``done()``."""
    for _ in range(limit):
        if done():
            return
        actor = h.to_act()
        assert actor is not None, h.table().snapshot(None)
        await h.click(actor, "check_call")
    assert done()


async def last_dms_say(fake: FakeDiscord, users: list[FakeUser], words: str) -> None:
    """Wait until each user's last DM says ``words`` (DMs go out after the close)."""

    def said() -> bool:
        return all(fake.dm_messages(u) and words in fake.dm_messages(u)[-1].content for u in users)

    await fake.wait_for(said, timeout=5)


def ledger_kinds(rows: list[Any], kind: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in rows:
        if r.kind == kind:
            out[r.player_id] = out.get(r.player_id, 0) + r.amount
    return out


# ------------------------------------------------------------------ Attach Files


async def test_attach_files_lost_text_table_once_then_pictures_r2_5(h: Harness) -> None:
    """Attach Files removed mid-hand: the table message drops its picture and writes the
    cards out (the board in the embed), the channel is told once which permission is
    missing, the hand plays on; given back, the picture returns. R-2.5 holds and no
    hole card shows anywhere but to its owner (invariant 2)."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    secrets = hole_cards(fake, h.bot, h.tid)
    assert h.table_message().attachments  # the picture, before
    mark = len(fake.deliveries)
    await fake.revoke(fake.channel, "attach_files")
    ch = h.bot.presenter.channel(h.tid)
    await fake.wait_for(lambda: ch.no_attach)
    await h.settle()
    said = [t for t in public_texts(fake, mark) if "Attach Files" in t]
    assert len(said) == 1 and "text" in said[0], public_texts(fake, mark)
    assert not h.table_message().attachments
    # The flop: the board is written out in the embed, no picture is uploaded.
    await act_until(h, lambda: len(h.table().snapshot(None).board) >= 3)
    await h.settle()
    msg = h.table_message()
    assert not msg.attachments
    board = h.table().snapshot(None).board
    fields = {f["name"]: f["value"] for f in msg.embeds[0]["fields"]}
    assert set(CARD.findall(fields["Board"])) == set(board), fields
    assert "image" not in msg.embeds[0]
    # Said once, not on every edit.
    assert len([t for t in public_texts(fake, mark) if "Attach Files" in t]) == 1
    assert_no_leak(fake, secrets, len(fake.deliveries))  # before the showdown shows any
    await act_until(h, lambda: not h.table().state.in_hand)
    await h.settle()
    # The result was posted, in words, without the showdown picture.
    summary = [m for m in fake.channel_messages() if "is over" in m.content]
    assert summary and not summary[-1].attachments
    await conserved(h)

    await fake.grant(fake.channel, "attach_files")
    await fake.wait_for(lambda: not ch.no_attach)
    await h.settle()
    await fake.wait_for(lambda: bool(h.table_message().attachments))
    assert any("picture again" in t for t in public_texts(fake, mark))


async def test_attach_files_lost_seen_from_a_click_r2_5(h: Harness) -> None:
    """A permission change that came with no gateway event the bot saw (a role, a
    restart) is read from the next interaction's app_permissions: the table turns to
    text at once. R-2.5 holds."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    ch = h.bot.presenter.channel(h.tid)
    denied = int(fake.bot_permissions(fake.channel)) & ~(1 << 15)  # no Attach Files
    fake.app_permissions = str(denied)
    actor = h.to_act()
    assert actor is not None
    await h.click(actor, "check_call")
    assert ch.no_attach
    assert not h.table_message().attachments
    await conserved(h)


async def test_attach_files_lost_unseen_words_still_go_r2_5(h: Harness) -> None:
    """Attach Files taken away before the bot heard of it (no event yet): a post with a
    picture is refused 50013; the words go without it, and an edit of the table message
    shows the table as text rather than staying stale. R-2.5."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    bot_id = str(fake.bot_user.id)
    flag = str(1 << 15)  # Attach Files, denied on the channel with no CHANNEL_UPDATE
    fake.channel.overwrites.append({"id": bot_id, "type": 1, "allow": "0", "deny": flag})
    image = RenderedImage(b"\x89PNG fake", "showdown.png", "the showdown", 1, 1)
    where = h.bot.get_partial_messageable(fake.channel.id)
    sent = await ops.send(where, "Hand #1 is over.", image=image)
    assert sent is not None
    posted = fake.message(sent.id)
    assert posted.content == "Hand #1 is over." and not posted.attachments
    embed = discord.Embed(title="table").set_image(url="attachment://table.png")
    msg = h.table_message()
    assert msg.attachments
    ok = await ops.edit(where.get_partial_message(msg.id), embed=embed, view=None, image=image)
    assert ok
    after = fake.message(msg.id)
    assert not after.attachments and "image" not in after.embeds[0]
    await conserved(h)


# ------------------------------------------------------------------ Send Messages


async def test_send_messages_lost_holds_between_deals_and_resumes_r2_5(h: Harness) -> None:
    """Send Messages removed mid-hand: the hand is finished through the players' own
    clicks (each clicker is told why, once, ephemerally), the host is told by DM, and no
    new hand is dealt (by the clock or by /deal). Given back: the table says so and
    deals again. R-2.5 holds; no hole card leaks through the fallbacks."""
    fake = h.fake
    users = players(fake)
    alice = users[0]  # the host: she created the table
    await h.start_table(users)
    secrets = hole_cards(fake, h.bot, h.tid)
    table = h.table()
    hand_no = table.state.hand_no
    dms_before = len(fake.dm_messages(alice))
    await fake.revoke(fake.channel, "send_messages")
    ch = h.bot.presenter.channel(h.tid)
    await fake.wait_for(lambda: ch.no_send and table.hold is not None)
    await h.settle()
    host_dm = fake.dm_messages(alice)[dms_before:]
    assert host_dm and "Send Messages" in host_dm[-1].content, host_dm
    assert "by itself" in host_dm[-1].content
    assert_no_leak(fake, secrets, len(fake.deliveries))  # nothing shown yet
    clicked: set[int] = set()
    for _ in range(40):
        if not table.state.in_hand:
            break
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
        clicked.add(actor.id)
    assert not table.state.in_hand and table.state.hand_no == hand_no
    for uid in clicked:
        told = [m.content for m in fake.ephemerals(fake.users[uid]) if "on hold" in m.content]
        assert len(told) == 1, (
            fake.users[uid].name,
            told,
            [m.content for m in fake.ephemerals(fake.users[uid])],
            [fake.users[u].name for u in clicked],
        )  # once, not on every click
    # The result is on the table message (its recent lines), edited in place.
    msg = h.table_message()
    assert f"Hand #{hand_no} is over" in msg.embeds[0]["description"]
    # Held: neither the clock nor the host deals.
    assert table.due_at() is None
    rec = await h.slash(alice, "deal")
    assert "on hold" in (rec.original.content if rec.original else h.last_ephemeral(alice))
    assert table.state.hand_no == hand_no
    await conserved(h)

    mark = len(fake.deliveries)
    await fake.grant(fake.channel, "send_messages")
    await fake.wait_for(lambda: table.hold is None and not ch.no_send)
    await h.settle()
    assert any("runs again" in t for t in public_texts(fake, mark))
    await h.slash(alice, "deal")
    assert table.state.hand_no == hand_no + 1 and table.state.in_hand
    await conserved(h)


async def test_send_messages_in_threads_lost_holds_a_thread_table_r2_5(h: Harness) -> None:
    """A table in its own thread needs Send Messages in Threads (not Send Messages):
    taken away on the parent channel, the thread's table is held; given back, it runs
    again. R-2.5."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create", thread=True)
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    table = h.table()
    ch = h.bot.presenter.channel(h.tid)
    assert ch.thread_id
    await fake.revoke(fake.channel, "send_messages")  # not what a thread needs
    await asyncio.sleep(0.1)
    assert table.hold is None and not ch.no_send
    await fake.revoke(fake.channel, "send_messages_in_threads")
    await fake.wait_for(lambda: table.hold is not None)
    await last_dms_say(fake, [users[0]], "Send Messages in Threads")
    rec = await h.slash(users[0], "deal")
    assert rec.acknowledged and table.state.hand_no == 0
    await fake.grant(fake.channel, "send_messages_in_threads")
    await fake.wait_for(lambda: table.hold is None)
    await h.slash(users[0], "deal")
    assert table.state.hand_no == 1
    await conserved(h)


async def test_send_messages_lost_host_unreachable_tells_seated_managers_r2_5(h: Harness) -> None:
    """The host's DMs are closed: the seated players who may manage the channel are
    told of the hold instead (here bob and carol: the fake's members all have Manage
    Channels). R-2.5."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    fake.close_dms(users[0])
    await fake.revoke(fake.channel, "send_messages")
    await last_dms_say(fake, users[1:], "on hold")
    assert not any("on hold" in m.content for m in fake.dm_messages(users[0]))
    await conserved(h)


async def test_send_back_without_attach_files_says_which_is_missing_r2_5(h: Harness) -> None:
    """Both taken, Send Messages alone given back: the table runs again and the channel
    is told, once, that Attach Files is still missing (the table stays text). R-2.5."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    ch = h.bot.presenter.channel(h.tid)
    await fake.revoke(fake.channel, "attach_files", "send_messages")
    await fake.wait_for(lambda: ch.no_send)
    mark = len(fake.deliveries)
    await fake.grant(fake.channel, "send_messages")
    await fake.wait_for(lambda: not ch.no_send)
    await h.settle()
    said = public_texts(fake, mark)
    assert any("runs again" in t for t in said)
    assert len([t for t in said if "missing **Attach Files**" in t]) == 1, said
    assert ch.no_attach and not h.table_message().attachments
    await conserved(h)


async def test_send_messages_lost_pings_by_dm_r2_5(h: Harness) -> None:
    """With Send Messages lost, the turn nudge (normally a mention in the channel)
    goes by DM: the only way left to tell the player to act. R-2.5 holds."""
    fake = h.fake
    h.bot.presenter.ping_delay = 0.0
    users = players(fake)
    await h.start_table(users)
    await fake.revoke(fake.channel, "send_messages")
    ch = h.bot.presenter.channel(h.tid)
    await fake.wait_for(lambda: ch.no_send)
    actor = h.to_act()
    assert actor is not None
    await h.click(actor, "check_call")
    nxt = h.to_act()
    assert nxt is not None
    await fake.wait_for(lambda: any("your turn" in m.content for m in fake.dm_messages(nxt)))
    await conserved(h)


# ------------------------------------------------------------------ deletions


async def test_r16_11_channel_deleted_mid_hand_cancels_and_cashes_out(h: Harness) -> None:
    """R-16.11: the table's channel deleted mid-hand: the hand is cancelled (each
    player gets back what he put in: his stack at the deal), the table is closed with
    every stack cashed out in the ledger, each player is told by DM (no card in it).
    R-2.5: nothing is lost."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    table = h.table()
    info = table.state.current
    assert info is not None
    dealt = {info.users[p]: s for p, s in enumerate(info.start.stacks)}
    actor = h.to_act()
    assert actor is not None
    await h.click(actor, "check_call")  # chips in the pot beyond the blinds
    assert table.snapshot(None).pot_total > 0
    secrets = hole_cards(fake, h.bot, h.tid)
    mark = len(fake.deliveries)
    await fake.delete_channel(fake.channel)
    await fake.wait_for(lambda: table.state.closed, timeout=5)
    await last_dms_say(fake, users, "closed")
    await h.settle()
    state = table.state
    assert not state.seats and not state.in_hand
    ended = tlog.read_rows(await table.store.events(h.tid), tlog.HandEnded)[-1]
    assert ended.reason == "cancelled" and ended.rake == 0
    rows = await table.store.ledger_rows(h.tid)
    assert ledger_kinds(rows, "cash_out") == dealt  # every chip back where it was
    assert state.bought == state.cashed == sum(dealt.values())
    closed = tlog.read_rows(await table.store.events(h.tid), tlog.Closed)[-1]
    assert closed.by == "discord:channel-deleted"
    for u in users:
        dm = fake.dm_messages(u)[-1].content
        assert "#poker" in dm and "closed" in dm and "deleted" in dm, dm
        assert "cancelled" in dm and f"{dealt[str(u.id)]} chips" in dm, dm
        assert "R-16.11" in dm
    # Nothing was tried in the deleted channel after the DMs (the table is forgotten).
    assert h.tid not in h.bot.presenter.channels
    assert_no_leak(fake, secrets, len(fake.deliveries))
    assert not [d for d in fake.deliveries[mark:] if CARD.findall(d.text())]
    await conserved(h)
    # A second event for the same loss changes nothing.
    assert await moderation(h).abandon(h.tid, "again", "x", "#poker") is None


async def test_r16_11_table_thread_deleted_mid_hand(h: Harness) -> None:
    """R-16.11: a table playing in its own thread: the thread deleted mid-hand closes
    the table the same way (hand cancelled, every stack cashed out, players told).
    R-2.5 holds."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create", thread=True)
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "deal")
    ch = h.bot.presenter.channel(h.tid)
    assert ch.thread_id
    table = h.table()
    assert table.state.in_hand
    await fake.delete_channel(fake.channels[ch.thread_id])
    await fake.wait_for(lambda: table.state.closed, timeout=5)
    await last_dms_say(fake, users, "thread was deleted")
    await h.settle()
    rows = await table.store.ledger_rows(h.tid)
    assert ledger_kinds(rows, "cash_out") == {str(u.id): 200 for u in users}
    await conserved(h)
    # The channel is still there: a new table opens in it and shows there (bob opens
    # it: alice's /table create is on its cooldown).
    await h.slash(users[1], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    assert not table.state.closed and len(table.state.seats) == 3
    assert h.table_message().channel.id == fake.channel.id
    await conserved(h)


async def test_r16_11_channel_deleted_while_the_bot_was_away(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """R-16.11: the channel deleted while the bot was not running (no CHANNEL_DELETE
    ever reaches it): at the next start the table's unknown channel is asked for once,
    Discord answers 10003, and the table is closed the same way (hand cancelled, every
    stack cashed out, players told by DM). R-2.5."""
    fake = fake_discord
    db = tmp_path / "away.sqlite3"
    users = players(fake)
    bot = make_bot(db)
    async with run_bot(fake, bot, sync=True):
        h = Harness(fake, bot)
        await h.start_table(users)
        tid = h.tid
        assert h.table().state.in_hand
    await fake.delete_channel(fake.channel)
    bot2 = make_bot(db)
    async with run_bot(fake, bot2):
        h2 = Harness(fake, bot2)
        table = bot2.table(tid)
        assert table is not None
        await fake.wait_for(lambda: table.state.closed, timeout=5)
        await bot2.presenter.drain()
        rows = await table.store.ledger_rows(tid)
        assert ledger_kinds(rows, "cash_out") == {str(u.id): 200 for u in users}
        await last_dms_say(fake, users, "deleted")
        assert table.state.conservation_error() is None
        assert await ledger_error(table.store, table.state) is None
        assert h2.fake is fake


# ------------------------------------------------------------------ members


async def test_r16_12_member_removed_mid_hand_is_away_then_cashed_out(h: Harness) -> None:
    """R-16.12: the player to act leaves the server mid-hand: the bot hears it (it asked
    for the members intent), the clock acts for him at once (check, else fold), the hand
    plays on, and when it ends he is stood up and cashed out in the ledger. R-2.5."""
    fake = h.fake
    assert fake.intents & INTENT_GUILD_MEMBERS  # asked for: else no event at all
    users = players(fake)
    await h.start_table(users)
    table = h.table()
    gone = h.to_act()
    assert gone is not None
    turn = table.state.turn
    await fake.remove_member(gone)
    await fake.wait_for(lambda: str(gone.id) in table.away)
    seat = table.state.seat_of(str(gone.id))
    assert seat is not None and seat.leaving
    # His clock is due now: the service's clock loop acts for him.
    assert h.bot.service is not None
    assert (table.due_at() or 1e18) <= table.time.now()
    await h.bot.service.tick()
    await h.settle()
    assert table.state.turn == turn + 1
    assert any("time ran out" in line for line in h.bot.presenter.channel(h.tid).recent)
    said = [line for line in h.bot.presenter.channel(h.tid).recent if "left the server" in line]
    assert said and "R-16.12" in said[0]
    for _ in range(60):
        if not table.state.in_hand:
            break
        actor = h.to_act()
        assert actor is not None
        if actor.id == gone.id:
            await h.bot.service.tick()
            await h.settle()
        else:
            await h.click(actor, "check_call")
    assert not table.state.in_hand
    assert table.state.seat_of(str(gone.id)) is None  # stood up at the end of the hand
    rows = await table.store.ledger_rows(h.tid)
    cashed = ledger_kinds(rows, "cash_out")
    assert str(gone.id) in cashed
    assert str(gone.id) not in table.away
    await conserved(h)


async def test_r16_12_member_removed_between_deals_is_cashed_out_at_once(h: Harness) -> None:
    """R-16.12: a seated player who leaves between deals is stood up and cashed out at
    once, and the next deal goes on without him. R-2.5."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    table = h.table()
    carol = users[2]
    await fake.remove_member(carol)
    await fake.wait_for(lambda: table.state.seat_of(str(carol.id)) is None)
    rows = await table.store.ledger_rows(h.tid)
    assert ledger_kinds(rows, "cash_out") == {str(carol.id): 200}
    await h.slash(users[0], "deal")
    info = table.state.current
    assert info is not None and str(carol.id) not in info.users
    await conserved(h)


# ------------------------------------------------------------------ the bot removed


async def test_r16_11_bot_removed_closes_keeps_and_reopens(h: Harness) -> None:
    """R-16.11: the bot removed from the server mid-hand (GUILD_DELETE, not an outage):
    the hand is cancelled and the table closed with every stack cashed out; the removal
    is kept; invited back within CHIPFIST_GUILD_KEEP_HOURS, the table reopens with its
    settings and host, seats empty. R-2.5 all along."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users, small_blind=5, big_blind=10)
    table = h.table()
    settings = table.state.settings
    await fake.remove_bot()
    await fake.wait_for(lambda: table.state.closed, timeout=5)
    await h.settle()
    rows = await table.store.ledger_rows(h.tid)
    assert ledger_kinds(rows, "cash_out") == {str(u.id): 200 for u in users}
    await conserved(h)
    removals = await table.store.events(REMOVALS_LOG)
    assert removals and removals[-1].payload["tables"] == [h.tid]
    await fake.readd_bot()
    await fake.wait_for(lambda: not table.state.closed, timeout=5)
    await h.settle()
    assert table.state.settings == settings and table.state.host == str(users[0].id)
    assert not table.state.seats and table.state.hand_no == 0
    assert any("I am back" in m.content for m in fake.channel_messages())
    await h.slash(users[1], "sit", buy_in=200)
    assert table.state.seat_of(str(users[1].id)) is not None, h.last_ephemeral(users[1])
    await conserved(h)


async def test_r16_11_bot_removed_then_restarted_reopens_on_readd(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """R-16.11: removed, then the bot restarts (the closed table is not loaded), then
    it is added back within the keep time: the table is read from its log and reopens
    with its settings and host. R-2.5 on the reopened table."""
    fake = fake_discord
    db = tmp_path / "readd.sqlite3"
    users = players(fake)
    bot = make_bot(db)

    async def removed(table: Table, kinds: list[str]) -> None:
        """Remove the bot and wait for what a restart needs of it: the removal logged
        (closed alone is too early: the removal is logged after the close, and a restart
        before it would leave nothing for the re-add to reopen)."""
        await fake.remove_bot()
        await fake.wait_for(lambda: table.state.closed, timeout=5)
        await logged(table, kinds)

    async with run_bot(fake, bot, sync=True):
        h = Harness(fake, bot)
        await h.start_table(users, small_blind=5, big_blind=10)
        tid = h.tid
        settings = h.table().state.settings
        await removed(h.table(), ["guild_removed"])
        await h.settle()
    bot2 = make_bot(db)
    async with run_bot(fake, bot2):
        assert bot2.table(tid) is None  # closed: not recovered
        await fake.readd_bot()

        def reopened() -> bool:
            # Loaded is not reopened: the closed table is read from its log first.
            table = bot2.table(tid)
            return table is not None and not table.state.closed

        await fake.wait_for(reopened, timeout=5)
        table = bot2.table(tid)
        assert table is not None and not table.state.closed
        # The re-add is logged last, after the reopened tables are told.
        await logged(table, ["guild_removed", "guild_readded"])
        assert table.state.settings == settings and table.state.host == str(users[0].id)
        h2 = Harness(fake, bot2)
        await h2.slash(users[1], "sit", buy_in=200)
        assert table.state.seat_of(str(users[1].id)) is not None
        await conserved(h2)
        # Removed again later: the second removal is kept as the first was.
        await removed(table, ["guild_removed", "guild_readded", "guild_removed"])
        await fake.wait_idle()


async def logged(table: Table, kinds: list[str]) -> None:
    """The removals log holds exactly ``kinds``, once the bot has written them (each
    read is a store round trip; bounded so a missing record fails, not hangs)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 5
    found: list[str] = []
    while loop.time() < deadline:
        found = [e.kind for e in await table.store.events(REMOVALS_LOG)]
        if len(found) >= len(kinds):
            break
        await asyncio.sleep(0.02)
    assert found == kinds


async def test_r16_11_bot_removed_past_the_keep_time_does_not_reopen(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-16.11: added back after the keep time, the tables stay closed (their history
    stays in the log). R-2.5."""
    fake = h.fake
    monkeypatch.setattr(
        h.bot, "settings", Config.load(env={"CHIPFIST_GUILD_KEEP_HOURS": "0"}, dotenv=None)
    )
    users = players(fake)
    await h.start_table(users)
    table = h.table()
    await fake.remove_bot()
    await fake.wait_for(lambda: table.state.closed, timeout=5)
    await asyncio.sleep(0.05)
    await fake.readd_bot()
    await fake.wait_for(lambda: h.bot.get_guild(fake.guild_id) is not None)
    await h.settle()
    assert table.state.closed
    await conserved(h)


async def test_r16_11_guild_outage_closes_nothing(h: Harness) -> None:
    """R-16.11: a server that is only unavailable (GUILD_DELETE with unavailable, a
    Discord outage) closes nothing; the hand goes on when it is back. R-2.5."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    table = h.table()
    gid = str(fake.guild_id)
    await fake.dispatch("GUILD_DELETE", {"id": gid, "unavailable": True})
    guild = h.bot.get_guild(fake.guild_id)
    assert guild is not None
    await fake.wait_for(lambda: guild.unavailable)
    await asyncio.sleep(0.1)
    assert not table.state.closed and table.state.in_hand
    await fake.readd_bot()  # GUILD_CREATE: available again
    await asyncio.sleep(0.1)
    actor = h.to_act()
    assert actor is not None
    await h.click(actor, "check_call")
    assert not table.state.closed and table.state.in_hand
    await conserved(h)


# ------------------------------------------------------------------ the gateway


@pytest_asyncio.fixture
async def clocked(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    """The bot with its clock loop running (the ``h`` fixture's is off)."""
    bot = ChipfistBot(str(tmp_path / "c.sqlite3"), sync=False, **FakeDiscord.client_options())
    guard = LeakGuard()
    guard.wrap(bot.presenter, fake_discord)
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        harness.guard = guard
        yield harness
    guard.check(fake_discord)


def _actions(h: Harness) -> int:
    info = h.table().state.current
    return 0 if info is None else len(info.actions)


async def test_gateway_drop_click_during_outage_applies_once_r6_1(clocked: Harness) -> None:
    """A click made while the gateway is down (under 3 s) reaches the bot by RESUME's
    replay and is applied exactly once (R-6.1: one action per turn); nothing is
    duplicated by the resume. R-2.5."""
    h = clocked
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    actor = h.to_act()
    assert actor is not None
    before, turn = _actions(h), h.table().state.turn
    msg, button = h.table_message(), h.button("check_call")
    await fake.drop_gateway(outage=0.8)
    rec = await fake.click(actor, msg, button, wait=False)
    await fake.wait_for(lambda: rec.acknowledged or rec.response_error is not None, timeout=6)
    await h.settle()
    assert rec.response_type == 7  # UPDATE_MESSAGE: the click's own answer
    assert _actions(h) == before + 1 and h.table().state.turn == turn + 1
    assert fake.faults.injected["resumed"] >= 1
    # The same click again (a client retrying) is refused as stale: still one action.
    again = await fake.click(actor, msg, button, stale=True)
    await h.settle()
    assert _actions(h) == before + 1
    assert again.acknowledged
    await conserved(h)


async def test_gateway_drop_click_arrives_late_still_applies_once_r6_1(h: Harness) -> None:
    """A click made during an outage longer than Discord's 3 s window, its turn still
    open: the bot gets it by replay and applies it once (R-6.1: the player's declaration
    binds), but Discord refuses the late answer (10062: his client says the click
    failed). The table message shows the action anyway (a REST refresh), and pressing
    the same button again is answered as stale: nothing is applied twice. R-2.5."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    table = h.table()
    actor = h.to_act()
    assert actor is not None
    before, turn = _actions(h), table.state.turn
    msg, button = h.table_message(), h.button("check_call")
    await fake.drop_gateway(outage=3.4)
    rec = await fake.click(actor, msg, button, wait=False)
    await fake.wait_for(lambda: rec.response_error is not None, timeout=8)
    assert rec.response_error == 10062
    await h.settle()
    assert _actions(h) == before + 1 and table.state.turn == turn + 1
    footer = h.table_message().embeds[0]["footer"]["text"]
    assert f"turn {table.state.turn}" in footer  # the table shows it all the same
    again = await fake.click(actor, h.table_message(), button, stale=True)
    await h.settle()
    assert again.acknowledged and "earlier turn" in h.last_ephemeral(actor)
    assert _actions(h) == before + 1
    await conserved(h)


async def test_gateway_drop_long_outage_clock_runs_server_side_r6_1(clocked: Harness) -> None:
    """The gateway down longer than the action clock: the clock still acts server side
    and the table message is edited by REST meanwhile. A click made during the outage
    arrives after its 3 s window: Discord refuses its answer (10062: the player sees the
    click fail and must click again, as on Discord), and the click, being for a turn the
    clock already took, changes nothing (R-6.1: one action per turn). R-2.5."""
    h = clocked
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    await h.slash(users[0], "table settings", name="action_clock", value="1")
    await h.slash(users[0], "table settings", name="time_bank", value="0")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "deal")
    table = h.table()
    actor = h.to_act()
    assert actor is not None
    turn = table.state.turn
    msg, button = h.table_message(), h.button("check_call")
    await fake.drop_gateway(outage=3.5)
    rec = await fake.click(actor, msg, button, wait=False)
    # Server side, with no gateway: the clock acts and the table message follows.
    await fake.wait_for(lambda: table.state.turn > turn, timeout=3)
    await fake.wait_for(
        lambda: f"turn {table.state.turn}" in h.table_message().embeds[0]["footer"]["text"],
        timeout=3,
    )
    assert not fake.gateway_connected  # all of it during the outage
    await fake.wait_for(lambda: rec.response_error is not None, timeout=8)
    assert rec.response_error == 10062
    await fake.wait_for(lambda: fake.gateway_connected, timeout=3)
    await h.settle()
    taken = tlog.read_rows(await table.store.events(h.tid), tlog.ActionTaken)
    assert taken and all(a.timeout for a in taken), taken  # the late click applied nothing
    assert taken[0].seat == table.state.seat_of(str(actor.id)).number  # type: ignore[union-attr]
    # Back: the bot answers again.
    info = await h.slash(users[0], "table info")
    assert info.acknowledged and info.response_error is None
    await conserved(h)


async def test_r16_12_members_intent_refused_connects_without_it(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """R-16.12 needs the privileged members intent. Not switched on in the developer
    portal, Discord closes the gateway (4014): the bot says so in its log and connects
    without it (the tables still play; a member who leaves is not noticed), instead of
    not starting at all."""
    fake = fake_discord
    fake.privileged_intents = False
    bot = ChipfistBot(str(tmp_path / "n.sqlite3"), clocks=False, **FakeDiscord.client_options())
    async with run_bot(fake, bot, sync=True):
        assert not bot.members_intent
        assert not fake.intents & INTENT_GUILD_MEMBERS
        alice = fake.user("alice")
        rec = await fake.slash(alice, "table create")
        assert rec.acknowledged and bot.table(str(fake.channel.id)) is not None
    assert any("Server Members intent" in r.getMessage() for r in caplog.records)
