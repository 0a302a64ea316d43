"""Standings on Discord: ``/stats`` for a player across tables (called by the ``/stats``
command of :mod:`cogs.table_cog` when a player or a scope is given), ``/leaderboard``
and ``/privacy``. The table service serves the records (bot/table/standings.py); here
they become words. Players are named by mention (``<@id>``), which each viewer's client
shows as a name, in ephemeral answers that ping nobody.

Guilds of tables made before guilds were recorded are filled in from the gateway's cache
once the bot is ready (``on_ready``): until then those tables count in "everywhere" only.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.poker.messages import Name
from bot.table.record import board_said
from bot.table.standings import (
    DEFAULT_MIN_HANDS,
    DEFAULT_TOP,
    MAX_MIN_HANDS,
    MAX_TOP,
    leaderboard_said,
    standing_said,
)
from bot.words import render
from cogs import ops, places, record
from cogs.bot import ChipfistBot
from cogs.words import of, say

log = logging.getLogger(__name__)
Interaction = discord.Interaction[ChipfistBot]

STATS_SCOPES = [
    app_commands.Choice(name="this table", value="table"),
    app_commands.Choice(name="this server", value="server"),
    app_commands.Choice(name="every server", value="everywhere"),
]
BOARD_SCOPES = STATS_SCOPES[1:]
BOARD_BY = [
    app_commands.Choice(name="net", value="net"),
    app_commands.Choice(name="hands played", value="hands"),
    app_commands.Choice(name="biggest pot", value="pot"),
]
PERIOD_DAYS = 30
"""A period's board without dates: the last 30 days (R-20.43)."""


def mention(user_id: str) -> str:
    return f"<@{user_id}>" if user_id.isdigit() else user_id


async def player_stats(
    bot: ChipfistBot,
    interaction: Interaction,
    player: discord.abc.User | None,
    scope: str,
    since: str = "",
    until: str = "",
) -> None:
    """``/stats player scope``: a player's hands and chips over this server's tables or
    every server's (R-14.4); counts and chips only. Then the night's record's figures
    (R-20.42: VPIP, PFR, showdowns) over the days asked for, or all of them."""
    who = player or interaction.user
    standing = await bot.tables.player_standing(
        str(who.id), scope=scope, guild=interaction.guild_id, viewer=str(interaction.user.id)
    )
    period = record.period_of(since, until) if since or until else None
    figures = await bot.tables.records.player(str(who.id), standing.guild, period)
    lines = [render(standing_said(standing, Name(mention(str(who.id)))), of(interaction))]
    if figures.hands or period is not None:
        lines.append(record.stats_text(figures, mention(str(who.id)), period, of(interaction)))
    await ops.reply(interaction, "\n".join(lines))


class StandingsCog(commands.Cog):
    """``/leaderboard`` and ``/privacy``."""

    def __init__(self, bot: ChipfistBot) -> None:
        self.bot = bot
        self._filled = False

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        """In a server only (R-1.11): refused privately in a DM, nothing done."""
        places.check(interaction, self.bot.presenter.thread_of, self.bot.presenter.table_at)
        return True

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Fill in the guilds of old tables the gateway's cache can place (once)."""
        if self._filled or self.bot.service is None:
            return
        self._filled = True
        try:
            done = await self.bot.tables.fill_guilds(self.bot._guild_of)
        except Exception:  # the standings are no reason to stop the bot
            log.exception("could not fill in the guilds of old tables")
            return
        if done:
            log.info("recorded the guild of %d tables from before guilds were kept", len(done))

    @app_commands.command(
        name="leaderboard", description="Top players by net chips, on this server or all"
    )
    @app_commands.describe(
        scope="This server's tables (default) or every server's",
        top=f"How many players (1-{MAX_TOP}, default {DEFAULT_TOP})",
        min_hands=f"Leave off players with fewer hands (default {DEFAULT_MIN_HANDS})",
        by="Rank by net (default), hands played or biggest pot",
        since="First day (YYYY-MM-DD, UTC; default: the last day)",
        until="Last day (YYYY-MM-DD, UTC; default: today)",
    )
    @app_commands.choices(scope=BOARD_SCOPES, by=BOARD_BY)
    async def leaderboard(
        self,
        interaction: Interaction,
        scope: str = "server",
        top: app_commands.Range[int, 1, MAX_TOP] = DEFAULT_TOP,
        min_hands: app_commands.Range[int, 0, MAX_MIN_HANDS] = DEFAULT_MIN_HANDS,
        by: str = "net",
        since: str = "",
        until: str = "",
    ) -> None:
        if by != "net" or since or until:
            # A period's board: the hands of those days; 30 days by default.
            period = record.period_of(since, until, days=PERIOD_DAYS - 1)
            guild = interaction.guild_id if scope == "server" else None
            period_board = await self.bot.tables.records.board(
                by, guild, period, top=top, min_hands=min_hands
            )
            shown = {r.player_id: mention(r.player_id) for r in period_board.rows}
            said = board_said(period_board, shown)
            await ops.reply(interaction, record.said(said, of(interaction)))
            return
        board = await self.bot.tables.leaderboard(
            scope=scope, guild=interaction.guild_id, top=top, min_hands=min_hands
        )
        await ops.reply(interaction, render(leaderboard_said(board, mention), of(interaction)))

    @app_commands.command(
        name="privacy", description="Show or hide yourself on the leaderboards of every server"
    )
    @app_commands.describe(everywhere="shown: on the global leaderboard; hidden: left off it")
    @app_commands.choices(
        everywhere=[
            app_commands.Choice(name="shown", value="shown"),
            app_commands.Choice(name="hidden", value="hidden"),
        ]
    )
    async def privacy(self, interaction: Interaction, everywhere: str) -> None:
        hidden = everywhere == "hidden"
        await self.bot.tables.set_hidden(str(interaction.user.id), hidden)
        key = "privacy.hidden" if hidden else "privacy.shown"
        await ops.reply(interaction, say(key, of(interaction)))
