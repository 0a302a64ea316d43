"""Tournaments on Discord played as a community plays them, end to end through the real
discord.py client and the fake Discord: a host's scheduled freezeout, people
registering and unregistering (a double click, a second unregister, a registration
after the start), strangers trying the host's commands, ``/tournament status`` from
someone not playing, a cancel in the middle of a hand and its refunds, a player who
closed his DMs; every refusal private and changing nothing, every payload within
Discord's limits (the fake answers a payload over them with 400 / 50035, as Discord
does). And the standings post of a big field within an embed's 4,096 characters."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.poker.messages import Chips, Count, Name, Number, Rule, msg
from bot.table.ports import LedgerKind
from bot.tournament import director
from bot.tournament.director import Entry
from bot.tournament.log import Created
from bot.tournament.places import Finish
from bot.tourney_run.journal import journal_id
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id as tourney_table
from bot.words import SUPPORTED, render
from cogs.tourney_board import EMBED_TEXT, standing_lines, standings_text
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot
from tests.test_discord_tourney import (
    SEND_ONLY,
    act_once,
    announcement,
    click,
    cog,
    command,
    create,
    live_count,
    play_to_the_end,
    settle,
    standings,
)
from tests.test_discord_tourney_entries import act_once as entries_act_once
from tests.test_discord_tourney_entries import opened
from tests.test_discord_tourney_rebuy_wait import PUSHY
from tests.test_tourney_run import _config


@pytest_asyncio.fixture
async def t(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        cog(harness).driver.interval = 0.02
        cog(harness).driver.between = 0.0
        cog(harness).boards.gap = 0.0
        yield harness


def en(key: str, **params: object) -> str:
    return render(msg(key, **params), "en")  # type: ignore[arg-type]


def over_limits(fake: FakeDiscord) -> list[object]:
    """Every request Discord would have refused as an invalid form (a payload over its
    limits: embed sizes, custom_id lengths, more than 25 choices...)."""
    return [r for r in fake.refused if r[1] == 400]


def announcement_any(h: Harness) -> FakeMessage:
    """The announcement, with or without its buttons (gone once registration closed)."""
    event = cog(h).boards.event(next(iter(cog(h).driver.runners)))
    title = render(msg("tourney.title", event=event), "en")
    (found,) = [m for m in h.fake.channel_messages() if title in str(m.embeds)]
    return found


def public_count(h: Harness) -> int:
    return len(h.fake.channel_messages())


async def test_R_19_61_a_scheduled_freezeout_as_a_community_registers_for_it(
    t: Harness,
) -> None:
    """A moderator opens a scheduled freezeout; bob double-clicks Register (one entry,
    both clicks answered privately); carol registers by command and unregisters by the
    button, then once more (refused: not registered); the count follows each; dave
    (no Manage Channels) tries start, pause and cancel: each refused privately
    (R-19.60), nothing changed, nothing posted; erin, not playing, sees the status
    privately; the host starts it; a registration after the start is refused (no late
    registration) and the Register button is gone."""
    fake = t.fake
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    erin, fred = fake.add_user("erin"), fake.add_user("fred")
    for user in (bob, carol, dave, erin, fred):
        user.permissions = SEND_ONLY
    said = await create(t, alice, format="scheduled", start_in=60, stack=1000, buy_in=50)
    assert "is open" in said, said
    (tournament,) = list(cog(t).driver.runners)
    runner = cog(t).driver.runners[tournament]

    # A double click: both clicks reach the bot at once; one entry, two private answers.
    message = announcement(t)
    reg = next(c for c in message.custom_ids() if c.startswith("cft:reg:"))
    assert len(reg) <= 100
    before = len(fake.ephemerals(bob))
    await asyncio.gather(fake.click(bob, message, reg), fake.click(bob, message, reg))
    await fake.wait_for(lambda: len(fake.ephemerals(bob)) >= before + 2)
    await settle(t)
    answers = sorted(m.content for m in fake.ephemerals(bob)[before:])
    assert [e.player for e in runner.st.entries] == [str(bob.id)]
    assert en("tournament.refuse.already") in answers, answers
    assert live_count(announcement(t)) == 1

    assert "registered" in await command(t, carol, "register")
    assert live_count(announcement(t)) == 2
    assert "unregistered" in await click(t, carol, "unreg")
    said = await click(t, carol, "unreg")
    assert said == en("tournament.refuse.not_registered"), said
    assert live_count(announcement(t)) == 1
    assert "registered" in await click(t, alice, "reg")

    # a stranger's host commands, each refused privately; nothing posted.
    posted = public_count(t)
    refusal = en("tourney.refuse.host", rule=Rule("R-19.60"))
    for name, options in (
        ("start", {}),
        ("pause", {}),
        ("pause", {"resume": True}),
        ("cancel", {}),
    ):
        said = await command(t, dave, name, **options)
        assert said == refusal, (name, said)
    assert runner.st.status == "registering" and not runner.st.paused
    assert public_count(t) == posted

    # status privately for anyone, playing or not.
    said = await command(t, erin, "status")
    assert en("tourney.state.registering") in said and "2 registered" in said, said
    assert public_count(t) == posted

    await command(t, alice, "start")
    assert runner.st.status == "running"
    await settle(t)
    # No late registration: the buttons are gone and a registration is refused.
    ids = [c for m in fake.channel_messages() for c in m.custom_ids()]
    assert not any(c.startswith("cft:") for c in ids), ids
    said = await command(t, fred, "register")
    assert said == en("tournament.refuse.closed"), said
    assert str(fred.id) not in {e.player for e in runner.st.entries}
    said = await command(t, carol, "unregister")
    assert said in (en("tournament.refuse.started"), en("tournament.refuse.not_registered"))
    assert len(runner.st.entries) == 2
    async with cog(t).driver.lock(runner.tournament):
        runner.check_chips()
        assert runner.chips_at_tables() == 2 * 1000 == runner.st.chips
    assert not over_limits(fake), over_limits(fake)


def _proportional(pool: int, stacks: list[tuple[str, int]]) -> dict[str, int]:
    """R-19.39: the pool shared in proportion to the chips, odd chips one each biggest
    stack first, then entry order (``stacks`` in entry order)."""
    total = sum(c for _, c in stacks)
    share = {e: pool * c // total for e, c in stacks}
    left = pool - sum(share.values())
    order = sorted(range(len(stacks)), key=lambda i: (-stacks[i][1], i))
    for i in order[:left]:
        share[stacks[i][0]] += 1
    return share


async def test_R_19_42_a_cancel_mid_hand_refunds_by_the_stacks_the_hand_began_with(
    t: Harness,
) -> None:
    """A sit-and-go of three plays a hand to its end (the stacks now differ), then the
    host cancels in the middle of the next: that hand is called off as a misdeal, the
    prize pool goes back in proportion to the stacks it began with (R-19.39, R-19.42),
    recorded in the ledger under the tournament (R-19.46); the table is closed, no chip
    left at it, no cash-out row at any table (R-19.40)."""
    fake = t.fake
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    await create(t, alice, format="sit_and_go", players=3, stack=1000, buy_in=70)
    for user in (alice, bob, carol):
        await click(t, user, "reg")
    runner = next(iter(cog(t).driver.runners.values()))
    await fake.wait_for(lambda: runner.table(1).state.in_hand)
    table = runner.table(1)
    first = table.state.hand_no
    # The first hand is played: someone bets and the rest fold, so stacks differ.
    for arg in ("all_in", "fold", "fold"):
        if table.state.hand_no != first or not table.state.in_hand:
            break
        await act_once(t, runner, 1, arg)
    await fake.wait_for(lambda: table.state.hand_no > first and table.state.in_hand)
    # The stacks the hand in progress began with: the director's, from the last end.
    began = dict(runner.st.stacks)
    assert len(set(began.values())) > 1, began
    await act_once(t, runner, 1, "check_call")  # chips in the pot when it is called off
    said = await command(t, alice, "cancel")
    assert runner.st.status == "cancelled", said
    refunds = dict(runner.st.refunds)
    assert sum(refunds.values()) == runner.st.pool == 3 * 70
    entries = [e.entry for e in runner.st.entries]
    # The stacks as the called-off hand began: what each had before it, blinds included.
    starts = [(e, began.get(e, 0)) for e in entries]
    assert sum(c for _, c in starts) == 3 * 1000
    assert refunds == _proportional(3 * 70, starts), (refunds, starts)
    rows = await runner.service.store.ledger_rows(journal_id(runner.tournament))
    back = {r.player_id: r.amount for r in rows if r.kind == LedgerKind.CASH_OUT}
    assert back == refunds, rows
    # every table closed, nobody left at it, no cash-out at a table.
    closed = runner.service.get(tourney_table(runner.tournament, 1))
    assert closed is None or (closed.state.closed and not closed.state.seats)
    assert await runner.service.store.ledger_rows(tourney_table(runner.tournament, 1)) == []
    await settle(t)
    board = " ".join(str(e.get("description")) for m in fake.channel_messages() for e in m.embeds)
    assert en("tourney.state.cancelled") in board
    assert not over_limits(fake), over_limits(fake)


async def test_R_19_63_a_player_who_closed_his_dms_plays_to_the_end(t: Harness) -> None:
    """bob closed his DMs before the start: his cards cannot go by DM, yet the
    tournament is dealt and played to its standings by the tables' buttons, with no
    hand stalled for him and no error payload; the others' DMs still arrive."""
    fake = t.fake
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    fake.close_dms(bob)
    await create(t, alice, format="sit_and_go", players=3, stack=300, structure="turbo")
    for user in (alice, bob, carol):
        await click(t, user, "reg")
    runner = next(iter(cog(t).driver.runners.values()))
    await fake.wait_for(lambda: runner.st.status == "running")
    await play_to_the_end(t, 11)
    await settle(t)
    assert runner.st.status == "finished"
    posts = await standings(fake)
    assert "1. " in str(posts[0].embeds[0]["description"])
    assert fake.dm_messages(bob) == []
    assert any(fake.dm_messages(u) for u in (alice, carol))
    assert not over_limits(fake), over_limits(fake)


def _big_field(entries: int, name_length: int) -> director.State:
    """A finished tournament of ``entries`` entries with names of ``name_length``
    characters (Discord's display names go to 32): ten places paid, then places shared
    in threes."""
    state = director.replay([Created(_config(), 0.0)])
    people = tuple(
        Entry(f"e{n}", f"{n}", f"{n:03d}" + "W" * (name_length - 3), 1, 100) for n in range(entries)
    )
    finishes = []
    for n in range(entries):
        if n < 10:
            first = last = n + 1
        else:
            first = 11 + 3 * ((n - 10) // 3)
            last = min(first + 2, entries)
        finishes.append(Finish(f"e{n}", first, last, 1000 if n < 10 else 0))
    return dataclasses.replace(state, entries=people, finishes=tuple(finishes))


def test_R_19_84_the_standings_post_of_a_big_field_fits_an_embed() -> None:
    """180 entries named with 32 characters: the standings post lists them best first,
    whole lines, as far as 4,096 characters go, then how many more, in every language;
    a small field is listed whole."""
    state = _big_field(180, 32)
    for lang in SUPPORTED:
        text = standings_text(state, lang)
        lines = text.splitlines()
        assert len(text) <= EMBED_TEXT, (lang, len(text))
        shown = len(lines) - 1
        assert 60 <= shown < 180, (lang, shown)
        more = render(msg("results.more", more=Count(180 - shown)), lang)
        assert lines[-1] == more, (lang, lines[-1])
        full = [render(m, lang) for m in standing_lines(state)]
        assert lines[:-1] == full[:shown], lang  # best first, never cut inside a line
    small = _big_field(12, 32)
    text = standings_text(small, "en")
    assert text.splitlines() == [render(m, "en") for m in standing_lines(small)]


async def test_R_19_61_a_dozen_registering_at_once_are_each_counted_once(t: Harness) -> None:
    """A dozen members register by command at the same moment: twelve entries, the
    announcement's count twelve."""
    alice = t.fake.user("alice")
    await create(t, alice, format="scheduled", stack=1000)
    runner: Runner = next(iter(cog(t).driver.runners.values()))
    users: list[FakeUser] = [t.fake.add_user(f"m{n}") for n in range(12)]
    await asyncio.gather(*(command(t, u, "register") for u in users))
    await settle(t)
    assert len(runner.st.entries) == 12 == live_count(announcement(t))
    assert not over_limits(t.fake)


async def test_R_19_85_a_cards_dm_links_the_tables_thread(t: Harness) -> None:
    """A tournament table plays in a thread, its id no channel: each player's cards DM
    is led by a link to that thread (a mention Discord can open), never by the table's
    id in a channel mention."""
    fake = t.fake
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    carol.locale = "fr"
    await create(t, alice, format="sit_and_go", players=3, stack=1000)
    for user in (alice, bob, carol):
        await click(t, user, "reg")
    runner = next(iter(cog(t).driver.runners.values()))
    await fake.wait_for(lambda: runner.table(1).state.in_hand)
    thread = t.bot.presenter.places[tourney_table(runner.tournament, 1)][1]
    assert thread and fake.channels[thread].is_thread
    for user in (alice, bob, carol):
        await fake.wait_for(lambda u=user: bool(fake.dm_messages(u)))
        dms = [m.content for m in fake.dm_messages(user)]
        assert all(c.startswith(f"<#{thread}> · ") for c in dms), dms
        assert not any("<#tn:" in c for c in dms), dms


async def test_R_19_87_a_player_out_is_not_told_as_moving_to_another_table(
    t: Harness,
) -> None:
    """A sit-and-go of three played to its end: each player out stands up from his
    table with no chips; the table's thread never says he "moves to another table with
    0" (he is out, and the tournament says so). The announcement still shows the
    structure's first level, not the one the end came at (R-19.88)."""
    fake = t.fake
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    await create(
        t, alice, format="sit_and_go", players=3, stack=300, structure="turbo",
        level_unit="hands", level_length=2,
    )  # fmt: skip
    for user in (alice, bob, carol):
        await click(t, user, "reg")
    runner = next(iter(cog(t).driver.runners.values()))
    await fake.wait_for(lambda: runner.st.status == "running")
    await play_to_the_end(t, 21)
    await settle(t)
    assert runner.st.status == "finished" and len(runner.outs) == 2
    payloads = [json.dumps(d.payload, ensure_ascii=False) for d in fake.deliveries]
    for user in (alice, bob, carol):
        said = render(msg("deal.moved_out", who=Name(user.name), amount=Chips(0)), "en")
        assert not any(said in p for p in payloads), said
    # Each player out is said to leave as out; the winner leaves with every chip as
    # the tournament ends, never "to another table".
    for o in runner.outs:
        out = render(msg("deal.left_out", who=Name(runner.st.names()[o.entry])), "en")
        assert any(out in p for p in payloads), out
    winner = Name(runner.st.names()[runner.st.winner or ""])
    end = render(msg("deal.left_end", who=winner, amount=Chips(runner.st.chips)), "en")
    assert any(end in p for p in payloads), end
    moved = render(msg("deal.moved_out", who=winner, amount=Chips(runner.st.chips)), "en")
    assert not any(moved in p for p in payloads), moved
    # the announcement still shows the structure's first level at the end.
    state = runner.st
    assert state.level > 0
    words = " ".join(str(e.get("description")) for e in announcement_any(t).embeds)
    assert render(dataclasses.replace(state, level=0).level_words(), "en") in words, words
    assert render(state.level_words(), "en") not in words, words
    # What the players were told of the outs: the tournament's words, on its board.
    names = runner.st.names()
    for f in runner.st.finishes:
        who = Name(names[f.entry])
        if f.first == 1:
            continue
        first, last = Number(f.first), Number(f.last)
        out = (
            msg("tournament.out", player=who, place=first)
            if f.first == f.last
            else msg("tournament.out_shared", player=who, first=first, last=last)
        )
        assert any(render(out, "en") in p for p in payloads), render(out, "en")


async def test_R_19_89_a_moved_player_with_closed_dms_is_told_in_his_new_thread(
    t: Harness,
) -> None:
    """Twelve players at two tables, every one with his DMs closed: the tables are
    balanced and broken to one; each player moved is told in his new table's thread,
    pinged alone, where he now plays (he cannot be told by DM)."""
    fake = t.fake
    alice = fake.user("alice")
    users = [fake.add_user(f"p{n}") for n in range(12)]
    for user in users:
        fake.close_dms(user)
    await create(
        t, alice, format="sit_and_go", players=12, seats=6, stack=300, structure="turbo",
        level_unit="hands", level_length=2,
    )  # fmt: skip
    for user in users:
        await click(t, user, "reg")
    runner = next(iter(cog(t).driver.runners.values()))
    await fake.wait_for(lambda: runner.st.status == "running")
    await play_to_the_end(t, 2)
    await settle(t)
    assert runner.history, "players moved"
    places = t.bot.presenter.places
    for _, move in runner.history:
        thread = places[f"tn:{runner.tournament}:{move.to_table}"][1]
        said = render(
            msg("tourney.moved", table=Number(move.to_table), thread=Name(f"<#{thread}>")), "en"
        )
        user = fake.users[int(move.entry)]
        posts = fake.channel_messages(fake.channels[thread])
        assert any(p.content == f"<@{user.id}> {said}" for p in posts), (user.name, said)
        assert fake.dm_messages(user) == []
    assert not over_limits(fake), over_limits(fake)


def _pinged_with(h: Harness, user: FakeUser, prefix: str) -> list[FakeMessage]:
    """The channel's posts pinging ``user`` with a button whose id starts ``prefix``."""
    return [
        m
        for m in h.fake.channel_messages()
        if m.content.startswith(f"<@{user.id}> ")
        and any(c.startswith(prefix) for c in m.custom_ids())
    ]


async def test_R_19_89_a_bust_with_closed_dms_is_offered_the_reentry_in_the_channel(
    t: Harness,
) -> None:
    """Four players, every one with his DMs closed, re-entries on: the first one out
    is asked in the announcement's channel, pinged alone, with the Re-enter button, which
    enters him again."""
    runner, users = await opened(t, 4, late_until=10, reentries=1)
    for user in users:
        t.fake.close_dms(user)
    rng = random.Random(7)
    cog(t).driver.between = 3.0  # time to re-enter between hands
    for _ in range(3000):
        if runner.outs:
            break
        if not await entries_act_once(t, runner, rng, PUSHY):
            await asyncio.sleep(0.02)
    assert runner.outs and runner.st.registration_open
    busted = runner.outs[0].entry
    user = t.fake.users[int(busted)]
    await t.fake.wait_for(lambda: _pinged_with(t, user, "cft:reg:"))
    (post,) = _pinged_with(t, user, "cft:reg:")
    event = cog(t).boards.event(runner.tournament)  # its name, not its id
    assert render(msg("entries.out_reenter", event=event), "en") in post.content
    before = len(t.fake.ephemerals(user))
    await t.fake.click(user, post, next(c for c in post.custom_ids() if c.startswith("cft:reg:")))
    await t.fake.wait_for(lambda: len(t.fake.ephemerals(user)) > before)
    await t.fake.wait_for(lambda: f"{busted}#2" in runner.st.seats)
    assert not over_limits(t.fake), over_limits(t.fake)


async def test_R_19_89_a_bust_with_closed_dms_is_asked_to_rebuy_in_the_channel(
    t: Harness,
) -> None:
    """Three players with their DMs closed, a rebuy each: the first bust who may rebuy
    is asked in the announcement's channel, pinged alone, with the Rebuy and I'm out
    buttons; his Rebuy there buys him back in."""
    runner, users = await opened(t, 3, rebuys=1, rebuy_until=10, buy_in=100)
    for user in users:
        t.fake.close_dms(user)
    rng = random.Random(11)
    cog(t).driver.between = 2.0
    for _ in range(3000):
        if runner.waits:
            break
        if not await entries_act_once(t, runner, rng, PUSHY):
            await asyncio.sleep(0.02)
    assert runner.waits
    wait = runner.waits[0]
    user = t.fake.users[int(wait.entry)]
    await t.fake.wait_for(lambda: _pinged_with(t, user, "cfw:rebuy:"))
    (post,) = _pinged_with(t, user, "cfw:rebuy:")
    assert any(c.startswith("cfw:out:") for c in post.custom_ids())
    before = len(t.fake.ephemerals(user))
    await t.fake.click(user, post, next(c for c in post.custom_ids() if c.startswith("cfw:rebuy:")))
    await t.fake.wait_for(lambda: len(t.fake.ephemerals(user)) > before)
    await t.fake.wait_for(lambda: wait.entry in runner.st.seats)
    assert runner.st.rebuys.get(wait.entry) == 1
    assert not over_limits(t.fake), over_limits(t.fake)
