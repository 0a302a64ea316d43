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
from cogs.ids import decode

log = logging.getLogger(__name__)


def friendly(exc: BaseException, table: str | None = None) -> str:
    """What to tell the player about ``exc`` (and log it when it is a bug: the error id
    the player sees, the table and the traceback, in one record)."""
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
    log.error(
        "error %s at table %s: %s",
        error_id,
        table or "-",
        type(exc).__name__,
        exc_info=(type(exc), exc, exc.__traceback__),
        extra={"error_id": error_id, "table": table or ""},
    )
    return f"Sorry, something went wrong on my side (error id `{error_id}`). Nothing was changed."


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
        await ops.reply(interaction, friendly(exc, table_of(interaction)))
    except discord.HTTPException:
        log.warning("could not report an error to interaction %s", interaction.id)


async def on_tree_error(
    interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
) -> None:
    await report(interaction, error)
