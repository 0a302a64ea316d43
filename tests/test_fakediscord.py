"""Tests for the in-process fake Discord (tests/fakediscord) with a tiny real bot.

A real discord.py ``commands.Bot`` logs in, syncs commands and handles
interactions against the fake; each test checks one Discord behaviour the
Chipfist e2e tests rely on (audiences, limits, timing rules, errors).
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import PUBLIC, FakeDiscord, private
from tests.fakediscord.fixtures import fake_discord, run_bot

__all__ = ["fake_discord"]  # re-exported fixture, used by name below


class JoinView(discord.ui.View):
    """A persistent view: one button that edits its own message (type 7)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="table:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content=f"joined by {interaction.user.name}")

    @discord.ui.button(label="Fold", custom_id="table:fold")
    async def fold(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # DEFERRED_UPDATE_MESSAGE (type 6)
        await interaction.edit_original_response(content=f"{interaction.user.name} folded")
        note = await interaction.followup.send(
            "your hand was 2c 7d",
            ephemeral=True,
            wait=True,
            file=discord.File(io.BytesIO(b"png"), "hand.png"),
        )
        await note.edit(content="your hand was 2c 7d (mucked)")
        gone = await interaction.followup.send("temporary", wait=True)
        await gone.delete()


class SeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"seat:(?P<n>\d+)"):
    """A DynamicItem button whose state lives in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Seat {n}", custom_id=f"seat:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeatButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you took seat {self.n}", ephemeral=True)


class BuyIn(discord.ui.Modal, title="Buy in"):
    amount: discord.ui.TextInput[BuyIn] = discord.ui.TextInput(label="Amount", custom_id="amount")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"bought in for {self.amount.value}", ephemeral=True
        )


class TinyBot(commands.Bot):
    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        intents.members = True
        super().__init__(command_prefix="!", intents=intents, **FakeDiscord.client_options())
        self.results: dict[str, Any] = {}
        commands_: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [
            table,
            config,
            *(secret, slow, dm, late, twice, bigembed, form, card, stakes, seat, pick),
        ]
        for cmd in commands_:
            self.tree.add_command(cmd)

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot:
            self.results.setdefault("heard", []).append((message.author.id, message.content))

    async def setup_hook(self) -> None:
        self.add_view(JoinView())
        self.add_dynamic_items(SeatButton)


def results(interaction: discord.Interaction) -> dict[str, Any]:
    bot = interaction.client
    assert isinstance(bot, TinyBot)
    return bot.results


table = app_commands.Group(name="table", description="tables")


@table.command(name="create", description="open a table")
async def table_create(interaction: discord.Interaction, seats: int, name: str = "main") -> None:
    view = JoinView()
    view.add_item(SeatButton(3))
    await interaction.response.send_message(f"table {name} with {seats} seats", view=view)


config = app_commands.Group(name="config", description="settings")
config_table = app_commands.Group(name="table", description="table settings", parent=config)


@config_table.command(name="limits", description="set limits")
async def config_limits(interaction: discord.Interaction, big: int, who: discord.User) -> None:
    await interaction.response.send_message(f"big={big} for {who.name}", ephemeral=True)


@app_commands.command(description="ephemeral hole cards")
async def secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(
        f"hole cards for {interaction.user.name}: AsKd", ephemeral=True
    )


@app_commands.command(description="public defer then a follow-up")
async def slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await interaction.followup.send("done thinking", ephemeral=True)
    await interaction.followup.send("second, private", ephemeral=True)


@app_commands.command(description="DM someone")
async def dm(interaction: discord.Interaction, target: discord.User) -> None:
    try:
        await target.send("psst, your cards: 7h 7c")
    except discord.Forbidden as exc:
        results(interaction)["dm_error"] = exc.code
        await interaction.response.send_message("cannot DM", ephemeral=True)
    else:
        await interaction.response.send_message("sent", ephemeral=True)


@app_commands.command(description="answers too late")
async def late(interaction: discord.Interaction) -> None:
    await asyncio.sleep(0.3)
    try:
        await interaction.response.send_message("too late")
    except discord.NotFound as exc:
        results(interaction)["late_error"] = exc.code


@app_commands.command(description="acknowledges twice")
async def twice(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("first")
    # A fresh InteractionResponse forgets the local "already responded" state,
    # so the second callback really reaches the server.
    try:
        await discord.InteractionResponse(interaction).send_message("second")
    except discord.HTTPException as exc:
        results(interaction)["twice_error"] = exc.code


@app_commands.command(description="sends an embed over the limit")
async def bigembed(interaction: discord.Interaction) -> None:
    embed = discord.Embed(title="x" * 300)
    try:
        await interaction.response.send_message(embed=embed)
    except discord.HTTPException as exc:
        results(interaction)["embed_error"] = (exc.status, exc.code)
        await interaction.response.send_message("embed rejected", ephemeral=True)


@app_commands.command(description="opens a modal")
async def form(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(BuyIn())


async def stake_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    stakes = ["1/2", "2/5", "5/10"]
    return [app_commands.Choice(name=x, value=x) for x in stakes if x.startswith(current)]


@app_commands.command(description="pick stakes")
@app_commands.autocomplete(stake=stake_choices)
async def stakes(interaction: discord.Interaction, stake: str, seats: int = 6) -> None:
    await interaction.response.send_message(f"{stake} x{seats}", ephemeral=True)


@app_commands.command(description="private thread with your cards")
async def seat(interaction: discord.Interaction) -> None:
    assert isinstance(interaction.channel, discord.TextChannel)
    thread = await interaction.channel.create_thread(name=f"seat-{interaction.user.name}")
    await thread.add_user(interaction.user)
    await thread.send("your cards: Qh Qs")
    await interaction.response.send_message(f"seated in {thread.mention}")
    results(interaction)["thread_id"] = thread.id


class PickView(discord.ui.View):
    @discord.ui.select(custom_id="pick", options=[discord.SelectOption(label=x) for x in "abc"])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"picked {','.join(select.values)}")


@app_commands.command(description="ephemeral select menu")
async def pick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pick one", view=PickView(), ephemeral=True)


@app_commands.command(description="file then replaced file")
async def card(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("card", file=discord.File(io.BytesIO(b"one"), "a.txt"))
    edited = await interaction.edit_original_response(
        attachments=[discord.File(io.BytesIO(b"two"), "b.txt")]
    )
    results(interaction)["card_bytes"] = await edited.attachments[0].read()
    results(interaction)["card_done"] = True


@pytest_asyncio.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[TinyBot]:
    async with run_bot(fake_discord, TinyBot(), sync=True) as client:
        yield client


async def test_login_ready_and_sync(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    assert bot.user is not None and bot.user.id == fake_discord.bot_user.id
    assert bot.application_id == fake_discord.application_id
    guild = bot.get_guild(fake_discord.guild_id)
    assert guild is not None and guild.get_channel(fake_discord.channel.id) is not None
    names = {c["name"] for c in fake_discord.commands}
    assert {"table", "config", "secret", "slow", "form"} <= names
    create = fake_discord.command("table")["options"][0]
    assert create["name"] == "create" and create["type"] == 1
    fetched = await bot.tree.fetch_commands()
    assert {c.name for c in fetched} == names
    assert fake_discord.requests_by_route["PUT /applications/{app_id}/commands"] == 1
    assert fake_discord.unhandled == []


async def test_slash_subcommand_public_with_view(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice = fake_discord.user("alice")
    rec = await fake_discord.slash(alice, "table create", seats=6, name="high")
    assert rec.response_type == 4
    msg = fake_discord.last_message()
    assert msg is not None and msg.content == "table high with 6 seats"
    assert msg.custom_ids() == ["table:join", "table:fold", "seat:3"]
    assert fake_discord.deliveries[-1].audience == PUBLIC


async def test_nested_group_with_user_option(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await fake_discord.slash(alice, "config table limits", big=20, who=bob)
    [eph] = fake_discord.ephemerals(alice)
    assert eph.content == "big=20 for bob"
    with pytest.raises(LookupError):
        await fake_discord.slash(alice, "config table nope")


async def test_ephemeral_is_private(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await fake_discord.slash(alice, "secret")
    assert [m.content for m in fake_discord.ephemerals(alice)] == ["hole cards for alice: AsKd"]
    assert fake_discord.ephemerals(bob) == []
    assert fake_discord.channel_messages() == []
    assert any("AsKd" in d.text() for d in fake_discord.visible_to(alice))
    assert not any("AsKd" in d.text() for d in fake_discord.visible_to(bob))
    assert fake_discord.deliveries[-1].audience == private(alice.id)


async def test_button_update_message(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await fake_discord.slash(alice, "table create", seats=2)
    msg = fake_discord.last_message()
    assert msg is not None
    with fake_discord.counting() as used:
        rec = await fake_discord.click(bob, msg, "table:join")
        await fake_discord.wait_idle(quiet=0.05)
    assert rec.response_type == 7
    assert used == {"POST /interactions/{interaction_id}/{token}/callback": 1}
    assert fake_discord.message(msg.id).content == "joined by bob"
    seat = await fake_discord.click(bob, msg, "seat:3")  # DynamicItem
    assert seat.response_type == 4
    assert [m.content for m in fake_discord.ephemerals(bob)] == ["you took seat 3"]
    with pytest.raises(LookupError):
        await fake_discord.click(bob, msg, "no-such-button")


async def test_modal_open_and_submit(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    carol = fake_discord.user("carol")
    rec = await fake_discord.slash(carol, "form")
    assert rec.response_type == 9
    modal = fake_discord.modal_for(carol)
    assert modal is not None and modal.title == "Buy in" and modal.field_ids() == ["amount"]
    sub = await fake_discord.submit_modal(carol, rec, {"amount": "500"})
    assert sub.response_type == 4
    assert fake_discord.ephemerals(carol)[-1].content == "bought in for 500"


async def test_dm_and_closed_dm(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice, bob, dave = (fake_discord.user(n) for n in ("alice", "bob", "dave"))
    await fake_discord.slash(alice, "dm", target=bob)
    assert [m.content for m in fake_discord.dm_messages(bob)] == ["psst, your cards: 7h 7c"]
    assert any("7h 7c" in d.text() for d in fake_discord.visible_to(bob))
    assert not any("7h 7c" in d.text() for d in fake_discord.visible_to(alice))

    fake_discord.close_dms(dave)
    await fake_discord.slash(alice, "dm", target=dave)
    assert bot.results["dm_error"] == 50007
    assert fake_discord.dm_messages(dave) == []
    channel = await bot.create_dm(discord.Object(dave.id))
    with pytest.raises(discord.Forbidden) as err:
        await channel.send("hello")
    assert err.value.code == 50007


async def test_429_with_via_is_retried(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake_discord.rate_limit("POST /channels/", times=1, retry_after=0.05)
    before = fake_discord.requests_by_route["POST /channels/{channel_id}/messages"]
    sent = await channel.send("after the storm")
    assert fake_discord.rate_limited == 1
    assert fake_discord.requests_by_route["POST /channels/{channel_id}/messages"] == before + 2
    assert fake_discord.message(sent.id).content == "after the storm"


async def test_late_response_is_unknown_interaction(
    fake_discord: FakeDiscord, bot: TinyBot
) -> None:
    fake_discord.response_timeout = 0.1
    rec = await fake_discord.slash(fake_discord.user("alice"), "late")
    assert rec.response_error == 10062 and not rec.acknowledged
    await fake_discord.wait_for(lambda: "late_error" in bot.results)
    assert bot.results["late_error"] == 10062
    assert fake_discord.channel_messages() == []


async def test_second_callback_is_40060(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    await fake_discord.slash(fake_discord.user("alice"), "twice")
    await fake_discord.wait_for(lambda: "twice_error" in bot.results)
    assert bot.results["twice_error"] == 40060
    assert [m.content for m in fake_discord.channel_messages()] == ["first"]


async def test_public_defer_makes_first_followup_public(
    fake_discord: FakeDiscord, bot: TinyBot
) -> None:
    alice = fake_discord.user("alice")
    rec = await fake_discord.slash(alice, "slow")
    assert rec.response_type == 5
    await fake_discord.wait_for(lambda: len(rec.followups) == 1)
    assert [m.content for m in fake_discord.channel_messages()] == ["done thinking"]
    assert rec.original is not None and not rec.original.ephemeral
    assert [m.content for m in fake_discord.ephemerals(alice)] == ["second, private"]
    audiences = [d.audience for d in fake_discord.deliveries]
    assert audiences == [PUBLIC, private(alice.id)]


async def test_embed_over_limit_is_50035(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    await fake_discord.slash(fake_discord.user("alice"), "bigembed")
    assert bot.results["embed_error"] == (400, 50035)
    assert fake_discord.ephemerals(fake_discord.user("alice"))[-1].content == "embed rejected"


async def test_too_many_buttons_rejected(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View()
    for i in range(5):
        view.add_item(discord.ui.Button(label="b" * 81, custom_id=f"b{i}"))
    with pytest.raises(discord.HTTPException) as err:
        await channel.send("x", view=view)
    assert err.value.code == 50035
    with pytest.raises(discord.HTTPException):
        await channel.send("y" * 2001)
    assert fake_discord.channel_messages() == []


async def test_attachments_and_edit_replaces_them(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    await fake_discord.slash(fake_discord.user("alice"), "card")
    await fake_discord.wait_for(lambda: bot.results.get("card_done"))
    msg = fake_discord.last_message()
    assert msg is not None
    assert [(a.filename, a.data) for a in msg.attachments] == [("b.txt", b"two")]
    files = [f for d in fake_discord.deliveries for f in d.attachments]
    assert files == [("a.txt", b"one"), ("b.txt", b"two")]
    assert bot.results["card_bytes"] == b"two"  # served from the fake's attachment URL
    assert (
        fake_discord.requests_by_route["PATCH /webhooks/{app_id}/{token}/messages/{message_id}"]
        == 1
    )


async def test_user_message_reaches_on_message(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    bob = fake_discord.user("bob")
    await fake_discord.say(bob, "call")
    await fake_discord.wait_for(lambda: bot.results.get("heard"))
    assert bot.results["heard"] == [(bob.id, "call")]


async def test_modal_is_logged_privately(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    carol = fake_discord.user("carol")
    await fake_discord.slash(carol, "form")
    assert [d.audience for d in fake_discord.deliveries] == [private(carol.id)]
    assert fake_discord.visible_to(fake_discord.user("bob")) == []


async def test_member_added_late_is_cached(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    erin = fake_discord.add_user("erin")
    guild = bot.get_guild(fake_discord.guild_id)
    assert guild is not None and guild.get_member(fake_discord.user("alice").id) is not None
    await fake_discord.say(erin, "hi")
    await fake_discord.wait_for(lambda: bot.results.get("heard"))
    assert guild.get_member(erin.id) is not None


async def test_empty_message_rejected(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as err:
        await channel.send(embeds=[])
    assert err.value.code == 50006


async def test_deferred_update_then_followups(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await fake_discord.slash(alice, "table create", seats=2)
    table_msg = fake_discord.last_message()
    assert table_msg is not None
    rec = await fake_discord.click(bob, table_msg, "table:fold")
    assert rec.response_type == 6
    await fake_discord.wait_for(lambda: len(rec.followups) == 2 and rec.followups[1].deleted)
    assert table_msg.content == "bob folded"
    [note] = fake_discord.ephemerals(bob)
    assert note.content == "your hand was 2c 7d (mucked)"
    assert note.attachment_bytes("hand.png") == b"png"
    assert [m.content for m in fake_discord.channel_messages()] == ["bob folded"]
    assert not any("2c 7d" in d.text() for d in fake_discord.visible_to(alice))
    assert any("2c 7d" in d.text() for d in fake_discord.visible_to(bob))


async def test_slash_in_dm_channel(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice = fake_discord.user("alice")
    rec = await fake_discord.slash(alice, "secret", channel=fake_discord.dm_channel(alice))
    assert rec.response_type == 4
    assert fake_discord.ephemerals(alice)[0].channel.is_dm
    assert fake_discord.deliveries[-1].audience == private(alice.id)


async def test_autocomplete_and_option_checks(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice = fake_discord.user("alice")
    choices = await fake_discord.autocomplete(alice, "stakes", "stake", options={"stake": "2"})
    assert [c["value"] for c in choices] == ["2/5"]
    with pytest.raises(TypeError):
        await fake_discord.slash(alice, "stakes", seats=6)  # required "stake" missing
    with pytest.raises(TypeError):
        await fake_discord.slash(alice, "stakes", stake="1/2", seats="six")
    await fake_discord.slash(alice, "stakes", options={"stake": "1/2", "seats": 9})
    assert fake_discord.ephemerals(alice)[-1].content == "1/2 x9"


async def test_ephemeral_not_reachable_through_channel(
    fake_discord: FakeDiscord, bot: TinyBot
) -> None:
    alice = fake_discord.user("alice")
    await fake_discord.slash(alice, "secret")
    [eph] = fake_discord.ephemerals(alice)
    channel = bot.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.NotFound) as err:
        await channel.fetch_message(eph.id)
    assert err.value.code == 10008
    assert fake_discord.request_log[-1] == "GET /channels/{channel_id}/messages/{message_id}"


async def test_wrong_token_fails_login(fake_discord: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.none(), **FakeDiscord.client_options())
    try:
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
    finally:
        await client.close()


async def test_private_thread_audience(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await fake_discord.slash(alice, "seat")
    thread = fake_discord.channels[bot.results["thread_id"]]
    assert thread.is_thread and thread.private_thread and thread.thread_members == {alice.id}
    assert [m.content for m in fake_discord.channel_messages(thread)] == ["your cards: Qh Qs"]
    assert any("Qh Qs" in d.text() for d in fake_discord.visible_to(alice))
    assert not any("Qh Qs" in d.text() for d in fake_discord.visible_to(bob))
    assert isinstance(bot.get_channel(thread.id), discord.Thread)


async def test_select_on_ephemeral_message(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await fake_discord.slash(alice, "pick")
    [menu] = fake_discord.ephemerals(alice)
    with pytest.raises(PermissionError):
        await fake_discord.click(bob, menu, "pick", values=["a"])
    rec = await fake_discord.click(alice, menu, "pick", values=["b"])
    assert rec.response_type == 7
    assert menu.content == "picked b" and menu.ephemeral
    assert fake_discord.deliveries[-1].audience == private(alice.id)
