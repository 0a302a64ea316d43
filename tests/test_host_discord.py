"""The host's tools on Discord, end to end (R-20.50, R-20.51): the real discord.py client
and cogs against the fake Discord. A player who is neither host, co-host nor moderator is
refused privately in his language and nothing changes; the host kicks the player to act
in the middle of a hand: he is folded at once and cashed out when the hand ends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.table.ports import LedgerKind
from bot.table.recovery import ledger_error
from cogs.app import ChipfistBot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot, players

SEND_ONLY = str(1 << 11)
"""Send Messages only: not a moderator (no Manage Channels)."""


@pytest_asyncio.fixture
async def h(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot: ChipfistBot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        yield Harness(fake_discord, bot)


async def test_r20_51_discord_host_kicks_the_player_to_act_in_a_hand(h: Harness) -> None:
    """R-20.51 / R-20.50 through Discord: /host kick refused to a player (privately, in
    German for a German client), then the host's kick folds the player to act at once;
    after the hand he is stood up and cashed out, and every chip is accounted (R-2.5)."""
    fake = h.fake
    users = players(fake)
    host, *others = users
    for u in others:
        u.permissions = SEND_ONLY
    await h.start_table(users)
    victim = h.to_act()
    assert victim is not None
    other = next(u for u in others if u.id != victim.id)
    other.locale = "de"
    turn = h.table().state.turn
    await h.slash(other, "host kick", member=victim)
    assert "Gastgeber" in h.last_ephemeral(other)
    assert h.table().state.turn == turn  # refused: nothing changed
    await h.slash(host, "host kick", member=victim)
    assert "removed by the host" in h.last_ephemeral(host)
    table = h.table()
    info = table.state.current
    assert info is not None
    hand = info.ensure_hand()
    assert hand.folded[info.users.index(str(victim.id))]
    # Said to the table: on its message (the table's running story).
    assert "removed by the host" in str(h.table_message().payload())
    # The hand plays out; the kicked player leaves with his chips.
    for _ in range(40):
        if not table.state.in_hand:
            break
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    assert not table.state.in_hand
    assert table.state.seat_of(str(victim.id)) is None
    store = h.bot.service.store  # type: ignore[union-attr]  # started by run_bot
    rows = [r for r in await store.ledger_rows(h.tid) if r.player_id == str(victim.id)]
    assert rows[-1].kind is LedgerKind.CASH_OUT
    assert table.conservation_error() is None
    assert await ledger_error(store, table.state) is None


async def test_r20_56_discord_a_seat_offered_by_dm_is_taken_with_its_button(h: Harness) -> None:
    """R-20.55 / R-20.56 through Discord: at a full two-seat table carol joins the waiting
    list; bob stands; carol is offered the seat by DM, in her language, with a button;
    dave may not take the kept seat; carol's click seats her (R-2.5 after)."""
    fake = h.fake
    alice, bob, carol = players(fake)
    dave = fake.user("dave")
    await h.slash(alice, "table create", seats=2)
    for u in (alice, bob):
        await h.slash(u, "sit", buy_in=200)
    await h.slash(carol, "waitlist join")
    assert "waiting list (number 1)" in h.last_ephemeral(carol)
    carol.locale = "fr"
    await h.slash(carol, "waitlist join")  # once only: refused, in French
    assert "déjà sur la liste d'attente" in h.last_ephemeral(carol)
    await h.slash(bob, "stand")
    offers = [m for m in fake.dm_messages(carol) if m.custom_ids()]
    assert offers, [m.content for m in fake.dm_messages(carol)]
    offer = offers[-1]
    assert "Une place est libre" in offer.content
    (button,) = offer.custom_ids()
    await h.slash(dave, "sit", buy_in=200)
    assert "waiting list" in h.last_ephemeral(dave)
    await fake.click(carol, offer, button)
    await h.settle()
    table = h.table()
    assert table.state.seat_of(str(carol.id)) is not None
    assert table.state.hosting.offer is None
    assert table.conservation_error() is None


async def test_r20_55_discord_an_offer_to_closed_dms_is_said_in_the_channel(h: Harness) -> None:
    """R-20.55 through Discord: the first in line whose DMs are closed is told in the
    channel, mentioned alone, to take the seat with /sit; he does."""
    fake = h.fake
    alice, bob, carol = players(fake)
    await h.slash(alice, "table create", seats=2)
    for u in (alice, bob):
        await h.slash(u, "sit", buy_in=200)
    await h.slash(carol, "waitlist join")
    fake.close_dms(carol)
    await h.slash(bob, "stand")
    told = [m for m in fake.channel_messages() if f"<@{carol.id}>" in m.content]
    assert told and "/sit" in told[-1].content
    await h.slash(carol, "sit", buy_in=200)
    assert h.table().state.seat_of(str(carol.id)) is not None
