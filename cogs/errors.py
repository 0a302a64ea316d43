"""The tree-level error handler: every error becomes a friendly ephemeral reply.

User errors (the table refused) show the rule's message and the legal options; a
cooldown shows the time left; anything unexpected gets an apology with an error id and
a logged traceback. No traceback ever reaches a player.
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands

from bot.poker.errors import PokerError
from bot.table.errors import TableError
from bot.words import Locale, render
from cogs import ops
from cogs.ids import decode
from cogs.words import error_text, of, say

log = logging.getLogger(__name__)


def friendly(exc: BaseException, table: str | None = None, locale: Locale = "en") -> str:
    """What to tell the player about ``exc``, in his language (and log it when it is a
    bug: the error id the player sees, the table and the traceback, in one record)."""
    if isinstance(exc, app_commands.CommandInvokeError):
        exc = exc.original
    if isinstance(exc, app_commands.CommandOnCooldown):
        return say("error.cooldown", locale, n=f"{exc.retry_after:.0f}")
    if isinstance(exc, app_commands.MissingPermissions):
        return say("error.manage_channels", locale)
    if isinstance(exc, app_commands.CheckFailure):
        return error_text(exc, locale) or say("error.not_here", locale)
    if isinstance(exc, PokerError):
        legal = getattr(exc, "legal", None)
        may = say("play.you_may", locale, may=render(legal.options(), locale)) if legal else ""
        return error_text(exc, locale) + (" " + may if may else "")
    if isinstance(exc, TableError):
        return error_text(exc, locale)
    error_id = secrets.token_hex(4)
    log.error(
        "error %s at table %s: %s",
        error_id,
        table or "-",
        type(exc).__name__,
        exc_info=(type(exc), exc, exc.__traceback__),
        extra={"error_id": error_id, "table": table or ""},
    )
    return say("error.bug", locale, error_id=error_id)


def table_of(interaction: discord.Interaction[discord.Client]) -> str | None:
    """The table an interaction is about, for the log: a button's custom_id names it;
    otherwise the channel (a thread's parent: the table's own thread is its channel's,
    ``cogs.places``; from another thread the command was refused)."""
    data: dict[str, object] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    bid = decode(custom_id) if isinstance(custom_id, str) else None
    if bid is not None:
        return bid.table_id
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return str(channel.parent_id)
    return None if interaction.channel_id is None else str(interaction.channel_id)


async def report(interaction: discord.Interaction[discord.Client], exc: BaseException) -> None:
    try:
        await ops.reply(interaction, friendly(exc, table_of(interaction), of(interaction)))
    except discord.HTTPException:
        log.warning("could not report an error to interaction %s", interaction.id)


async def on_tree_error(
    interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
) -> None:
    await report(interaction, error)
