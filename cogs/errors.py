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
from cogs import ops

log = logging.getLogger(__name__)


def friendly(exc: BaseException) -> str:
    """What to tell the player about ``exc`` (and log it when it is a bug)."""
    if isinstance(exc, app_commands.CommandInvokeError):
        exc = exc.original
    if isinstance(exc, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {exc.retry_after:.0f} s."
    if isinstance(exc, app_commands.MissingPermissions):
        return "You need Manage Channels (or to be the host) for that."
    if isinstance(exc, app_commands.CheckFailure):
        return str(exc) or "You cannot use that here."
    if isinstance(exc, PokerError):
        legal = getattr(exc, "legal", None)
        more = f" You may: {legal.describe()}." if legal is not None else ""
        return exc.message + more
    if isinstance(exc, TableError):
        return exc.message
    error_id = secrets.token_hex(4)
    log.error("error %s", error_id, exc_info=(type(exc), exc, exc.__traceback__))
    return f"Sorry, something went wrong on my side (error id `{error_id}`). Nothing was changed."


async def report(interaction: discord.Interaction, exc: BaseException) -> None:
    try:
        await ops.reply(interaction, friendly(exc))
    except discord.HTTPException:
        log.warning("could not report an error to interaction %s", interaction.id)


async def on_tree_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    await report(interaction, error)
