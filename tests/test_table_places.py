"""A table's identity apart from its Discord channel (R-19.3): a tournament's table
``tn:<tournament>:<n>`` lives in a thread the dealer opened; its recorded place routes
commands and buttons there to it, and nowhere else.

End to end: the real discord.py client, the cogs and a real SQLite file against the
fake Discord, with chip conservation (R-2.5)."""

from __future__ import annotations

from bot.table.recovery import ledger_error, load
from bot.table.settings import TableSettings
from cogs import ids
from cogs.prefs import load_table_places
from tests.fakediscord import FakeChannel, FakeDiscord
from tests.fakediscord.state import snowflake
from tests.test_discord_e2e import Harness, players

TID = "tn:cup:1"


async def _thread(fake: FakeDiscord) -> FakeChannel:
    """A public thread of the channel, as the dealer opens one for a table."""
    thread = FakeChannel(snowflake(), "cup table 1", guild_id=fake.guild_id, parent=fake.channel)
    fake.channels[thread.id] = thread
    await fake.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
    return thread


def test_r19_3_a_button_names_a_table_that_is_not_a_channel() -> None:
    """The custom id carries the table's id whatever it is; its colons do not confuse
    the turn and the argument."""
    for table in (TID, "1234567890", "tn:weekly-7:12"):
        button = ids.ButtonId("act", table, 42, "fold")
        assert ids.decode(button.encode()) == button
    assert ids.decode("cf:act:tn:cup:1:42:fo:ld") is None


async def test_r19_3_a_tables_recorded_place_is_its_place(h: Harness) -> None:
    fake = h.fake
    alice, bob, carol = players(fake)
    thread = await _thread(fake)
    service, presenter = h.bot.service, h.bot.presenter
    assert service is not None
    out = await service.create(
        TID, str(alice.id), TableSettings(), key="open-1", host_name="alice", guild=fake.guild_id
    )
    assert out.ok, out.msg
    await presenter.record_place(TID, fake.channel.id, thread.id)
    assert presenter.table_at(thread.id) == TID and presenter.channel_of(TID) == fake.channel.id
    assert await load_table_places(service.store) == {TID: (fake.channel.id, thread.id)}
    # Commands in the thread are the tournament table's; the channel has none of its own.
    for user in (alice, bob):
        await h.slash(user, "sit", channel=thread, buy_in=100)
    table = service.table(TID)
    assert {s.user_id for s in table.state.seats.values()} == {str(alice.id), str(bob.id)}
    assert service.get(h.tid) is None and service.get(str(thread.id)) is None
    await h.slash(alice, "deal", channel=thread)
    assert table.state.in_hand
    # The table message lives in the thread, and its buttons reach the table.
    message = fake.message(presenter.channel(TID).message_id or 0)
    assert message.channel.id == thread.id
    fold = next(c for c in message.custom_ids() if c.endswith(":fold"))
    assert ids.decode(fold) is not None and ids.decode(fold).table_id == TID  # type: ignore[union-attr]
    hand = table.state.hand
    info = table.state.current
    assert hand is not None and info is not None and hand.to_act is not None
    actor = fake.users[int(info.users[hand.to_act])]
    turn = table.state.turn
    await fake.click(actor, message, fold)
    await h.settle()
    assert table.state.turn > turn and not table.state.in_hand
    # Elsewhere (the channel itself) a command does not reach it.
    await h.slash(carol, "sit", channel=fake.channel, buy_in=100)
    assert table.state.seat_of(str(carol.id)) is None
    # and the table rebuilt from its log is the same.
    assert table.state.conservation_error() is None
    assert await ledger_error(service.store, table.state) is None
    again = await load(service.store, TID)
    assert {n: s.stack for n, s in again.seats.items()} == {
        n: s.stack for n, s in table.state.seats.items()
    }
