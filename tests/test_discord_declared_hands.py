"""Declared hands on Discord (R-9.3, R-18.2): the player asked at the showdown has Show,
State my hand and Muck under the table; a stated hand his cards do not hold is refused
privately and changes nothing; a player who does nothing has his winning hand shown by
the clock, never mucked. End to end through the real client and the fake Discord."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import bot.table.table as table_module
from bot.poker.cards import stacked_deck
from bot.poker.events import HandMucked, HandShown
from bot.poker.hand import Hand
from bot.table import log as tlog
from bot.table.clocks import ManualTime
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, LeakGuard, make_bot, players

# Position 0 (the first asked when the river is checked, R-9.1) holds aces; the other
# 7-2. The board gives neither more than the aces make.
DECK = stacked_deck(["AsAd", "7c2d"], "KhQh9s4c3d")


@pytest.fixture
def aces_first(monkeypatch: pytest.MonkeyPatch) -> None:
    def stacked(rules: Any, stacks: Any, deck: Any = None, **kw: Any) -> Hand:
        return Hand(rules, stacks, DECK, **kw)

    monkeypatch.setattr(table_module, "Hand", stacked)


async def to_showdown(h: Harness) -> tuple[FakeUser, FakeUser]:
    """Two players, declared hands, checked down to the showdown: (aces, seven-deuce)."""
    users = players(h.fake)[:2]
    await h.slash(users[0], "table create")
    await h.slash(users[0], "table settings", name="declared_hands", value="on")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "deal")
    for _ in range(20):
        if h.table().snapshot(None).phase != "betting":
            break
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    assert h.table().snapshot(None).phase == "showdown"
    info = h.table().state.current
    aces, deuce = (h.fake.users[int(u)] for u in info.users)
    assert h.to_act() == aces
    return aces, deuce


def shown_and_mucked(h: Harness) -> tuple[set[int], set[int]]:
    state = h.table().state
    events = state.recent[state.hand_no].events
    shown = {e.player for e in events if isinstance(e, HandShown)}
    mucked = {e.player for e in events if isinstance(e, HandMucked)}
    return shown, mucked


async def conserved(h: Harness) -> None:
    assert h.table().conservation_error() is None


async def test_r9_3_show_and_muck_buttons_and_a_stated_hand_refused_privately(
    h: Harness, aces_first: None
) -> None:
    """R-9.3: the player asked has Show, State my hand and Muck on the table message. A
    statement his cards do not hold is refused to him alone, nothing changes; he clicks
    Show and wins; the 7-2 clicks Muck."""
    aces, deuce = await to_showdown(h)
    ids = h.table_message().custom_ids()
    assert any(i.endswith(":show") for i in ids) and any(i.endswith(":muck") for i in ids)
    assert any(i.endswith(":state") for i in ids)
    # Not his turn: the other player's click is refused privately.
    turn = h.table().state.turn
    await h.click(deuce, "muck")
    assert "not your turn" in h.last_ephemeral(deuce).lower()
    assert h.table().state.turn == turn
    # A statement above his cards (he has no third ace): refused, privately.
    rec = await h.fake.click(aces, h.table_message(), h.button("state"))
    assert rec.modal is not None
    await h.fake.submit_modal(aces, rec, {"cards": "As Ad Ac Kh Kd"})
    await h.settle()
    assert "do not hold" in h.last_ephemeral(aces)
    assert h.table().state.turn == turn
    # Four cards: told what to type.
    rec = await h.fake.click(aces, h.table_message(), h.button("state"))
    await h.fake.submit_modal(aces, rec, {"cards": "As Ad Kh Qh"})
    await h.settle()
    assert "five cards" in h.last_ephemeral(aces)
    assert h.table().state.turn == turn
    await h.click(aces, "show")
    assert h.to_act() == deuce
    await h.click(deuce, "muck")
    await h.settle()
    assert not h.table().state.in_hand
    assert shown_and_mucked(h) == ({0}, {1})
    stacks = {s.user_id: s.stack for s in h.table().state.seats.values()}
    assert stacks[str(aces.id)] > 200 > stacks[str(deuce.id)]
    summary = [m.content for m in h.fake.channel_messages() if "is over" in m.content]
    assert summary
    await conserved(h)


async def test_r9_3_a_statement_his_cards_hold_binds(h: Harness, aces_first: None) -> None:
    """R-9.3: a statement his cards hold is taken as stated, even below what they make:
    the aces player states the board's king high (K Q 9 4 3); the 7-2 shows and his
    K Q 9 7 4 beats the statement."""
    aces, deuce = await to_showdown(h)
    rec = await h.fake.click(aces, h.table_message(), h.button("state"))
    await h.fake.submit_modal(aces, rec, {"cards": "Kh Qh 9s 4c 3d"})
    await h.settle()
    assert h.to_act() == deuce
    await h.click(deuce, "show")
    assert not h.table().state.in_hand
    assert shown_and_mucked(h) == ({0, 1}, set())
    stacks = {s.user_id: s.stack for s in h.table().state.seats.values()}
    assert stacks[str(deuce.id)] > 200 > stacks[str(aces.id)]
    await conserved(h)


async def test_r18_2_the_clock_shows_a_silent_players_winning_hand(
    h: Harness, aces_first: None
) -> None:
    """R-18.2: the aces player does nothing at the showdown; the clock shows his hand
    (it could win), never mucks it; the 7-2, silent too, is beaten by it and mucked."""
    aces, deuce = await to_showdown(h)
    clock = ManualTime(h.table().time.now())
    service = h.bot.service
    assert service is not None
    service.time = clock
    h.table().time = clock
    for _ in range(2):
        deadline = h.table().deadline()
        assert deadline is not None
        clock.set(deadline)
        assert await service.tick() == 1
        await h.settle()
    assert not h.table().state.in_hand
    assert shown_and_mucked(h) == ({0}, {1})
    stacks = {s.user_id: s.stack for s in h.table().state.seats.values()}
    assert stacks[str(aces.id)] > 200 > stacks[str(deuce.id)]
    # The clock did both (the log says so): a Show for the aces, a Muck for the 7-2.
    taken = tlog.read_rows(await h.table().store.events(h.tid), tlog.ActionTaken)
    showdown = [(type(a.action).__name__, a.timeout) for a in taken[-2:]]
    assert showdown == [("Show", True), ("Muck", True)]
    said = " ".join(
        str(e.get("description", "")) for m in h.fake.channel_messages() for e in m.embeds
    )
    assert f"{deuce.name}'s time ran out." in said
    summary = [m.content for m in h.fake.channel_messages() if "is over" in m.content][-1]
    assert f"{aces.name} shows As Ad" in summary and f"{deuce.name} mucks" in summary
    await conserved(h)


async def test_r9_3_show_muck_and_the_stated_hand_modal_survive_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path, aces_first: None
) -> None:
    """The showdown's controls carry their table and turn: a State my hand modal opened
    before the bot restarts is submitted after it, and the Muck of the same message
    still works."""
    db = tmp_path / "chipfist.sqlite3"
    guard = LeakGuard()
    bot = make_bot(db)
    guard.wrap(bot.presenter, fake_discord)
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        aces, deuce = await to_showdown(h)
        message = h.table_message()
        modal = await fake_discord.click(aces, message, h.button("state"))
        assert modal.modal is not None
    bot2 = make_bot(db)
    guard.wrap(bot2.presenter)
    async with run_bot(fake_discord, bot2):
        h2 = Harness(fake_discord, bot2)
        assert h2.table().snapshot(None).phase == "showdown"
        await fake_discord.submit_modal(aces, modal, {"cards": "As Ad Kh Qh 9s"})
        await h2.settle()
        assert h2.to_act() == deuce, h2.last_ephemeral(aces)
        await h2.click(deuce, "muck")
        assert not h2.table().state.in_hand
        assert shown_and_mucked(h2) == ({0}, {1})
        await conserved(h2)
    guard.check(fake_discord)
