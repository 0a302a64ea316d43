"""The host's tools and the waiting list on Discord (docs/RULES.md R-20.50 to R-20.56):
``/host kick|seat|adjust|sitout|cohost|end`` for the host, his co-hosts and moderators
(Manage Channels), and ``/waitlist join|leave`` for anyone at a full table. The service
judges who may (``Table.host_tool``); a refusal is answered privately in the user's
language and changes nothing. The seat offered from the waiting list reaches the player
by DM (the presenter's private notice) with a button (cogs/seat_offer.py), or he takes
it with ``/sit``."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Mapping

import discord
from discord import app_commands
from discord.ext import commands

from bot.poker.messages import msg
from bot.table.actor import Actor
from bot.table.table import Outcome, Table
from bot.words import render
from cogs import names, ops, places, play, seat_offer
from cogs.bot import ChipfistBot
from cogs.words import of, outcome_text, say

Interaction = discord.Interaction[ChipfistBot]
Member = discord.Member | discord.User


def _key(interaction: Interaction) -> str:
    return f"i{interaction.id}"


def _tid(interaction: Interaction) -> str:
    presenter = interaction.client.presenter
    return places.table_id(interaction, presenter.thread_of, presenter.table_at)


def _name(member: Member) -> str:
    return names.kept(member.display_name)


class HostCog(commands.Cog):
    """``/host …`` and ``/waitlist …``."""

    host = app_commands.Group(
        name="host", description="Host tools: kick, seats, stacks, co-hosts, end the session"
    )
    waitlist = app_commands.Group(name="waitlist", description="The waiting list of a full table")

    def __init__(self, bot: ChipfistBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        """In a server, in the table's channel or its own thread only (R-1.11)."""
        places.check(interaction, self.bot.presenter.thread_of, self.bot.presenter.table_at)
        return True

    async def _run(
        self, interaction: Interaction, command: Callable[[Table, Actor, str], Awaitable[Outcome]]
    ) -> None:
        """Find this channel's table, run the service command as this actor with the
        interaction id as its key, answer privately with the outcome."""
        t = self.bot.table(_tid(interaction))
        if t is None:
            await ops.reply(interaction, say("table.none", of(interaction)))
            return
        watch = play.Watch.start(interaction)
        # Named, so the table says who used a tool, not only his role.
        actor = dataclasses.replace(play.actor(interaction), name=_name(interaction.user))
        try:
            outcome = await command(t, actor, _key(interaction))
        finally:
            await watch.stop()
        await ops.reply(interaction, outcome_text(outcome.msg, of(interaction)))

    # ------------------------------------------------------------------ /host

    @host.command(name="kick", description="Remove a player: folded now or in turn, cashed out")
    @app_commands.describe(member="The player to remove")
    async def kick(self, interaction: Interaction, member: Member) -> None:
        user = str(member.id)
        await self._run(interaction, lambda t, a, k: t.host_tool(a, "kick", user, key=k))

    @host.command(name="seat", description="Move a player to another seat between hands")
    @app_commands.describe(member="The player to move", seat="The free seat to move him to")
    async def seat(
        self, interaction: Interaction, member: Member, seat: app_commands.Range[int, 1, 10]
    ) -> None:
        user = str(member.id)
        await self._run(interaction, lambda t, a, k: t.host_tool(a, "seat", user, to=seat, key=k))

    @host.command(
        name="adjust", description="Add chips from the bank or take some back, with a reason"
    )
    @app_commands.describe(
        member="The player whose stack changes",
        amount="Chips: positive from the bank, negative back to it",
        reason="Why (kept in the ledger and the log)",
    )
    async def adjust(
        self, interaction: Interaction, member: Member, amount: int, reason: str
    ) -> None:
        user = str(member.id)
        await self._run(
            interaction,
            lambda t, a, k: t.host_tool(a, "adjust", user, amount=amount, reason=reason, key=k),
        )

    @host.command(name="sitout", description="Sit a player out from the next hand")
    @app_commands.describe(member="The player to sit out")
    async def sitout(self, interaction: Interaction, member: Member) -> None:
        user = str(member.id)
        await self._run(interaction, lambda t, a, k: t.host_tool(a, "sitout", user, key=k))

    @host.command(name="cohost", description="Name or remove a co-host (host or moderator)")
    @app_commands.describe(member="The member", remove="True removes him as co-host")
    async def cohost(self, interaction: Interaction, member: Member, remove: bool = False) -> None:
        user, name = str(member.id), _name(member)
        tool = "uncohost" if remove else "cohost"
        await self._run(interaction, lambda t, a, k: t.host_tool(a, tool, user, name=name, key=k))

    @host.command(name="end", description="End the session: every stack cashed out, table closed")
    async def end(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda t, a, k: t.close(a, key=k))

    # ------------------------------------------------------------------ the offer's button

    @commands.Cog.listener("on_interaction")
    async def on_take(self, interaction: Interaction) -> None:
        """A click on the button of a seat offered by DM (cogs/seat_offer.py): sit with
        the table's maximum buy-in; the table says whether the seat is still his."""
        if interaction.type != discord.InteractionType.component:
            return
        data: Mapping[str, object] = dict(interaction.data or {})
        table_id = seat_offer.table_of(str(data.get("custom_id", "")))
        if table_id is None:
            return
        t = self.bot.table(table_id)
        if t is None:
            await ops.reply(interaction, render(msg("waitlist.gone"), of(interaction)))
            return
        buy_in = t.settings.buy_in_range[1]
        user = interaction.user
        outcome = await t.sit(str(user.id), _name(user), buy_in, key=_key(interaction))
        await ops.reply(interaction, outcome_text(outcome.msg, of(interaction)))

    # ------------------------------------------------------------------ /waitlist

    @waitlist.command(name="join", description="Wait for a seat at this full table")
    async def join(self, interaction: Interaction) -> None:
        name = _name(interaction.user)
        await self._run(interaction, lambda t, a, k: t.wait_list(a.user_id, name, True, key=k))

    @waitlist.command(name="leave", description="Leave the waiting list")
    async def leave(self, interaction: Interaction) -> None:
        name = _name(interaction.user)
        await self._run(interaction, lambda t, a, k: t.wait_list(a.user_id, name, False, key=k))
