"""Tournament features played through the real discord.py client against the fake
Discord as players play them: a busted player's rebuy DM clicked twice at once, or
after his time ran out, a pause while he waits, the host cancelling while he waits
(refunds), and the status asked in German and Russian while he waits (R-19.41,
R-19.42, R-19.47 to R-19.49, R-19.64, R-19.115); and at the home game a co-host's
kicks and a kicked player sitting again (R-20.51, R-20.80, R-20.81). Chips constant
throughout (R-2.5)."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest_asyncio

from bot.poker.messages import Chips, Count, Name, Rule, msg
from bot.store.records import LedgerKind
from bot.tournament.log import Waiting
from bot.tourney_run.journal import journal_id
from bot.tourney_run.runner import Runner
from bot.words import Locale, render
from cogs.tourney_entries import current_wait
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, h, make_bot, players
from tests.test_discord_tourney import (
    SEND_ONLY,
    Later,
    announcement,
    click,
    cog,
    command,
    create,
    settle,
)
from tests.test_discord_tourney_entries import act_once, opened

PUSHY = {"all_in": 4, "check_call": 3, "fold": 3}

__all__ = ["h"]  # the home game's end-to-end fixture, shared


@pytest_asyncio.fixture
async def t(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        cog(harness).driver.interval = 0.02
        cog(harness).driver.between = 0.0
        cog(harness).boards.gap = 0.0
        yield harness


def said(key: str, lang: Locale = "en", **params: Chips | Count | Name) -> str:
    return render(msg(key, **params), lang)


async def _to_a_wait(h: Harness, players: int, seed: int) -> tuple[Runner, FakeUser, FakeMessage]:
    """A scheduled event with rebuys; the players act by their buttons until one busts
    and waits (R-19.47); that player and his DM with the Rebuy and I'm out buttons."""
    runner, _ = await opened(h, players, rebuys=1, rebuy_until=10, buy_in=100)
    rng = random.Random(seed)
    cog(h).driver.between = 2.0  # a table waits a while after a hand: time to click
    for _ in range(4000):
        if runner.waits:
            break
        assert runner.st.status == "running", "the tournament ended before a wait"
        if not await act_once(h, runner, rng, PUSHY):
            await asyncio.sleep(0.02)
    assert runner.waits, "nobody busted"
    user = h.fake.users[int(runner.waits[0].entry)]
    await h.fake.wait_for(lambda: _offers(h, user))
    return runner, user, _offers(h, user)[-1]


def _offers(h: Harness, user: FakeUser) -> list[FakeMessage]:
    return [m for m in h.fake.dm_messages(user) if any("cfw:" in c for c in m.custom_ids())]


def _button(dm: FakeMessage, prefix: str) -> str:
    return next(c for c in dm.custom_ids() if c.startswith(prefix))


async def _conserved(h: Harness, runner: Runner) -> int:
    """Every chip of the tournament is at a table (a waiting player has none), R-2.5."""
    async with cog(h).driver.lock(runner.tournament):
        runner.check_chips()
        assert runner.chips_at_tables() == runner.st.chips
        return runner.st.chips


async def test_R_19_48_two_clicks_on_rebuy_at_once_buy_once(t: Harness) -> None:
    """The busted player double-clicks Rebuy (both clicks delivered together): one
    rebuy, one price in the pool, one seat; the other click is answered privately that
    the offer is over."""
    runner, user, dm = await _to_a_wait(t, 3, 11)
    entry = runner.waits[0].entry
    pool, chips = runner.st.pool, runner.st.chips
    before = len(t.fake.ephemerals(user))
    button = _button(dm, "cfw:rebuy:")
    await asyncio.gather(t.fake.click(user, dm, button), t.fake.click(user, dm, button))
    await t.fake.wait_for(lambda: len(t.fake.ephemerals(user)) >= before + 2)
    await settle(t)
    answers = sorted(m.content for m in t.fake.ephemerals(user)[before:])
    bought = said("tournament.rebought", player=Name(user.name), amount=Chips(300))
    assert [a.startswith(bought) for a in answers].count(True) == 1, answers
    assert said("entries.rebuy_stale") in answers, answers
    assert runner.st.rebuys[entry] == 1
    assert runner.st.pool == pool + 100 and runner.st.chips == chips + 300
    assert entry in runner.st.seats and entry not in runner.st.waiting
    assert await _conserved(t, runner) == 4 * 300


async def test_R_19_115_a_cancel_while_a_player_waits_refunds_by_the_stacks(t: Harness) -> None:
    """The host cancels while a busted player waits to rebuy: the pool goes back by
    the stacks (a waiting player has none: nothing back, R-19.42), all of it, recorded
    in the ledger under the tournament; his Rebuy clicked afterwards is answered that
    the tournament is not running and buys nothing."""
    runner, user, dm = await _to_a_wait(t, 3, 11)
    entry = runner.waits[0].entry
    stacks = dict(runner.st.stacks)
    await command(t, t.fake.user("alice"), "cancel")
    assert runner.st.status == "cancelled"
    refunds = dict(runner.st.refunds)
    assert sum(refunds.values()) == runner.st.pool == 3 * 100
    assert refunds[entry] == 0 and stacks.get(entry, 0) == 0
    assert {e for e, r in refunds.items() if r} == {e for e, c in stacks.items() if c}
    rows = await runner.service.store.ledger_rows(journal_id(runner.tournament))
    back = {r.player_id: r.amount for r in rows if r.kind == LedgerKind.CASH_OUT}
    assert back == refunds, rows
    before = len(t.fake.ephemerals(user))
    await t.fake.click(user, dm, _button(dm, "cfw:rebuy:"))
    await t.fake.wait_for(lambda: len(t.fake.ephemerals(user)) > before)
    assert t.fake.ephemerals(user)[-1].content == said("tournament.refuse.not_running")
    assert runner.st.rebuys.get(entry, 0) == 0 and runner.st.pool == 300


def _ahead(runner: Runner, seconds: float) -> None:
    """The dealer's clock (tables and tournament share it) moves ``seconds`` ahead."""
    clock = runner.service.time
    real = type(clock).now
    clock.now = lambda: real(clock) + seconds  # type: ignore[method-assign]


async def test_R_19_49_rebuy_clicked_after_his_time_ran_out_buys_nothing(t: Harness) -> None:
    """Nobody clicks within the 60 seconds: the wait ends by itself and he is out; his
    Rebuy clicked then is answered privately that the offer is over; nothing bought."""
    runner, user, dm = await _to_a_wait(t, 3, 11)
    entry = runner.waits[0].entry
    _ahead(runner, 61)
    await t.fake.wait_for(lambda: entry not in runner.st.waiting)
    await settle(t)
    assert any(o.entry == entry for o in runner.outs)
    pool, chips = runner.st.pool, runner.st.chips
    before = len(t.fake.ephemerals(user))
    await t.fake.click(user, dm, _button(dm, "cfw:rebuy:"))
    await t.fake.wait_for(lambda: len(t.fake.ephemerals(user)) > before)
    assert t.fake.ephemerals(user)[-1].content == said("entries.rebuy_stale")
    assert runner.st.pool == pool and runner.st.chips == chips
    assert entry not in runner.st.rebuys and entry not in runner.st.seats


async def test_R_19_115_after_a_pause_his_dm_rebuy_still_answers_his_wait(t: Harness) -> None:
    """The host pauses while a busted player waits; far more than his 60 seconds pass;
    the host resumes: he still waits (a pause stops his time, moving its end), and the
    Rebuy of the DM he was sent seats him with a starting stack."""
    runner, user, dm = await _to_a_wait(t, 3, 11)
    entry = runner.waits[0].entry
    alice = t.fake.user("alice")
    await command(t, alice, "pause")
    assert runner.st.paused
    _ahead(runner, 300)
    await asyncio.sleep(0.3)  # the driver ticks meanwhile
    await settle(t)
    assert entry in runner.st.waiting
    await command(t, alice, "pause", resume=True)
    assert not runner.st.paused and entry in runner.st.waiting
    assert runner.st.waiting[entry] != runner.waits[0]  # its end moved by the pause
    before = len(t.fake.ephemerals(user))
    await t.fake.click(user, dm, _button(dm, "cfw:rebuy:"))
    await t.fake.wait_for(lambda: len(t.fake.ephemerals(user)) > before)
    answer = t.fake.ephemerals(user)[-1].content
    bought = said("tournament.rebought", player=Name(user.name), amount=Chips(300))
    assert answer.startswith(bought), answer
    await t.fake.wait_for(lambda: entry in runner.st.seats)
    assert runner.st.rebuys[entry] == 1
    assert await _conserved(t, runner) == 4 * 300


async def test_R_19_64_status_in_german_and_russian_names_the_waiting_players(
    t: Harness,
) -> None:
    """/tournament status asked by a player whose client speaks German, then Russian,
    while players wait to rebuy: the answer is in his language (each wait said as the
    catalogue says it), with no English line and no card."""
    runner, user, _ = await _to_a_wait(t, 3, 11)
    waiting = sorted(runner.st.waiting)
    assert waiting
    for lang in ("de", "ru"):
        user.locale = lang
        text = await command(t, user, "status")
        assert text.startswith(said("tourney.state.running", lang)), text
        for entry in waiting:
            name = t.fake.users[int(entry)].name
            line = said(
                "tournament.waiting",
                lang,
                player=Name(name),
                amount=Chips(300),
                price=Chips(100),
                count=Count(60),
            )
            assert line in text, (lang, text)
        english = said(
            "tournament.waiting", player=Name("p"), amount=Chips(1), price=Chips(1), count=Count(2)
        )
        assert english.split(" ", 1)[1][:20] not in text, text
        assert not re.search(r"\b[2-9TJQKA][shdc]\b", text), text  # no card leaked


async def test_R_20_80_a_co_host_kicks_and_the_kicked_player_sits_again(
    h: Harness,
) -> None:
    """The host makes bob co-host. bob's kick of the host is refused naming who may;
    his kick of carol cashes her out naming him (R-20.81); clicked twice, the second
    finds no seat. carol sits again (a kick is no ban, R-20.51); her double /sit is
    answered, in her German then Russian client, that she has a seat; carol, not a
    manager, kicking bob is refused in Russian naming who may. No chip created or lost."""
    fake = h.fake
    host, bob, carol = players(fake)[:3]
    for u in (bob, carol):
        u.permissions = str(1 << 11)  # Send Messages only: not a moderator
    await h.slash(host, "table create")
    for u in (host, bob, carol):
        await h.slash(u, "sit", buy_in=200)
    await h.slash(host, "host cohost", member=bob)
    await h.slash(bob, "host kick", member=host)
    assert h.last_ephemeral(bob) == said("host.not_on_host")
    await h.slash(bob, "host kick", member=carol)
    kicked = said("host.kicked.cohost", who=Name(carol.name), by=Name(bob.name))
    assert h.last_ephemeral(bob) == kicked
    assert h.table().state.seat_of(str(carol.id)) is None
    await h.slash(bob, "host kick", member=carol)
    assert h.last_ephemeral(bob) == said("host.not_seated")
    await h.slash(carol, "sit", buy_in=200)
    assert h.table().state.seat_of(str(carol.id)).stack == 200
    for lang in ("de", "ru"):
        carol.locale = lang
        await h.slash(carol, "sit", buy_in=200)
        assert h.last_ephemeral(carol) == said("table.sit.has_seat", lang)
    await h.slash(carol, "host kick", member=bob)
    assert h.last_ephemeral(carol) == said("table.hosts_only", "ru")
    seats = [h.table().state.seat_of(str(u.id)) for u in (host, bob, carol)]
    assert [s.stack if s else None for s in seats] == [200, 200, 200]
    assert h.table().conservation_error() is None


async def test_R_19_66_a_rebuy_asked_in_the_hand_he_busts_in_answers_his_wait(
    t: Harness,
) -> None:
    """A player all in asks /tournament rebuy before his hand is over: queued. If he
    busts in that hand the queued rebuy is his wait's answer: he is seated again with a
    starting stack, told by DM that it was made, and sent no Rebuy / I'm out DM; if he
    wins it, it is refused (his stack is above the starting stack) and he is told."""
    runner, _ = await opened(t, 4, rebuys=1, rebuy_until=10, buy_in=100)
    rng = random.Random(5)
    cog(t).driver.between = 2.0
    asked: set[str] = set()
    busted: str | None = None
    for _ in range(4000):
        busted = next((w.entry for w in runner.waits if w.entry in asked), None)
        if busted is not None or runner.st.status != "running":
            break
        who = await act_once(t, runner, rng, PUSHY)
        if not who:
            await asyncio.sleep(0.02)
            continue
        for number in runner.ports:
            view = runner.table(number).snapshot(None)
            seat = next((s for s in view.seats if s.user_id == who), None)
            if view.in_hand and seat is not None and seat.stack == 0 and who not in asked:
                asked.add(who)
                answer = await command(t, t.fake.users[int(who)], "rebuy")
                assert answer == said("tourney.queue.rebuy"), answer
    assert busted is not None, "nobody who asked busted"
    user = t.fake.users[int(busted)]
    await t.fake.wait_for(lambda: busted in runner.st.seats)
    await settle(t)
    assert runner.st.rebuys[busted] == 1 and busted not in runner.st.waiting
    assert not _offers(t, user)  # no question: his queued rebuy answered it
    made = said("tournament.rebought", player=Name(user.name), amount=Chips(300))
    dms = [m.content for m in t.fake.dm_messages(user)]
    assert any(made in d for d in dms), dms
    for other in asked - {busted}:  # all in and won: refused, told
        texts = " ".join(m.content for m in t.fake.dm_messages(t.fake.users[int(other)]))
        assert (
            other in runner.st.rebuys
            or said("tournament.refuse.rebuy_stack", amount=Chips(300)) in texts
            or other in runner.st.waiting
        ), texts
    await _conserved(t, runner)


async def test_R_19_68_a_start_waiting_for_its_host_as_the_players_see_it(t: Harness) -> None:
    """A scheduled event's start time finds alice alone: it waits for its host. bob
    double-clicks Register (one entry); the status asked in German and in Russian says
    it waits for its host, in each language; carol (no Manage Channels) cannot start it;
    more registrations do not start it; alice's start does, once."""
    fake = t.fake
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    carol.permissions = SEND_ONLY
    await create(t, alice, format="scheduled", start_in=10)
    runner = next(iter(cog(t).driver.runners.values()))
    await click(t, alice, "reg")
    t.bot.tables.time = Later(t.bot.tables.time, 11 * 60)
    await fake.wait_for(lambda: cog(t).driver.waiting_for_host(runner.tournament))
    await settle(t)
    reg = next(c for c in announcement(t).custom_ids() if c.startswith("cft:reg:"))
    before = len(fake.ephemerals(bob))
    await asyncio.gather(*(fake.click(bob, announcement(t), reg) for _ in range(2)))
    await fake.wait_for(lambda: len(fake.ephemerals(bob)) >= before + 2)
    await settle(t)
    assert [e.player for e in runner.st.entries].count(str(bob.id)) == 1
    for lang in ("de", "ru"):
        bob.locale = lang
        status = await command(t, bob, "status")
        assert said("tourney.state.waiting_host", lang) in status, (lang, status)
    assert runner.st.status == "registering"
    refused = await command(t, carol, "start")
    assert refused == render(msg("tourney.refuse.host", rule=Rule("R-19.60")), "en"), refused
    assert runner.st.status == "registering"  # neither carol nor registering started it
    await command(t, alice, "start")
    await fake.wait_for(lambda: runner.st.status == "running")
    assert len(runner.st.entries) == 2
    await _conserved(t, runner)


async def test_R_19_49_a_player_who_declines_re_enters_by_the_dm_as_his_number_2(
    t: Harness,
) -> None:
    """Rebuys and re-entries both on: the busted player clicks I'm out (out at once),
    then Rebuy on the same DM (refused: the offer is over); he is told he is out with a
    Re-enter button; his click enters him again as a second entry (a new buy-in, a
    starting stack, named with #2) seated at a table; clicked again it buys nothing."""
    runner, _ = await opened(t, 3, rebuys=1, rebuy_until=10, late_until=10, reentries=1)
    rng = random.Random(11)
    cog(t).driver.between = 2.0
    for _ in range(4000):
        if runner.waits:
            break
        if not await act_once(t, runner, rng, PUSHY):
            await asyncio.sleep(0.02)
    entry = runner.waits[0].entry
    user = t.fake.users[int(entry)]
    await t.fake.wait_for(lambda: _offers(t, user))
    dm = _offers(t, user)[-1]
    before = len(t.fake.ephemerals(user))
    await t.fake.click(user, dm, _button(dm, "cfw:out:"))
    await t.fake.wait_for(lambda: len(t.fake.ephemerals(user)) > before)
    await settle(t)
    assert entry not in runner.st.waiting and any(o.entry == entry for o in runner.outs)
    before = len(t.fake.ephemerals(user))
    await t.fake.click(user, dm, _button(dm, "cfw:rebuy:"))
    await t.fake.wait_for(lambda: len(t.fake.ephemerals(user)) > before)
    assert t.fake.ephemerals(user)[-1].content == said("entries.rebuy_stale")

    def reenter() -> FakeMessage | None:
        """Where he is told he is out with a Re-enter button: a DM or the answer."""
        told = [*t.fake.dm_messages(user), *t.fake.ephemerals(user)]
        return next((m for m in told if any(":reg:" in c for c in m.custom_ids())), None)

    out = await t.fake.wait_for(reenter)
    pool = runner.st.pool
    button = next(c for c in out.custom_ids() if ":reg:" in c)
    for _ in range(2):
        before = len(t.fake.ephemerals(user))
        await t.fake.click(user, out, button)
        await t.fake.wait_for(lambda n=before: len(t.fake.ephemerals(user)) > n)
        await settle(t)
    mine = [e for e in runner.st.entries if e.player == str(user.id)]
    assert len(mine) == 2 and runner.st.pool == pool + 100
    assert render(runner.st.entry_names()[mine[1].entry], "en") == f"{user.name} #2"
    assert mine[1].entry in runner.st.seats and entry not in runner.st.rebuys
    await _conserved(t, runner)


def test_R_19_115_a_dm_answers_its_own_wait_only_even_after_a_pause() -> None:
    """The DM's buttons carry the wait's place among the tournament's waits. A second
    bust of the same entry at the same seat with the same chips begins a wait like the
    first but for its deadline: the first DM's buttons do not answer it; the second's
    do, also once a pause moved its deadline; past the waits, or once he no longer
    waits, none does."""
    first = Waiting("e1", table=1, seat=2, started_with=300, until=100.0)
    second = replace(first, until=500.0)
    runner = SimpleNamespace(waits=[first, second], st=SimpleNamespace(waiting={"e1": second}))
    assert current_wait(runner, 0) is None  # type: ignore[arg-type]
    assert current_wait(runner, 1) == second  # type: ignore[arg-type]
    runner.st.waiting = {"e1": replace(second, until=560.0)}  # paused for a minute
    assert current_wait(runner, 1) == second  # type: ignore[arg-type]
    assert current_wait(runner, 2) is None  # type: ignore[arg-type]
    runner.st.waiting = {}
    assert current_wait(runner, 1) is None  # type: ignore[arg-type]
