"""Where the commands work (R-1.11): the one declaration of a table's place on Discord.

A table lives in a server's text channel, and its id is the channel's. Its own thread
(the one the bot opened for it, ``/table create thread:true``; the Discord side's
record, ``cogs/prefs.py``) is the same place: a command there is the channel's. Every
other thread (one a member started, a forum post, a private thread, the thread of an
earlier table) is not: the table commands are refused there with what to do instead,
so a member who may post only in a private thread cannot open, host or play the
channel's table from it, and no table is ever opened in a thread. Direct messages are no
place for a table at all: every command is declared guild-only to Discord
(:func:`restrict`), and an interaction that still arrives without a server (a client
showing an older command list) is refused here, nothing done.

Who may use which command is not declared to Discord (``default_member_permissions``
is left unset): the host of a table is whoever opened it, any member, and the
host-or-moderator commands (``/table pause``, ``/table close``, ``/table settings``,
``/deal`` at a table with a host) are judged by the table itself (``bot.table.actor``,
Manage Channels where the command is run). A server that wants fewer hosts restricts
``/table`` in its Integrations settings (docs/operations.md).
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands

from bot.poker.messages import Rule
from cogs.words import message

NOT_IN_DMS = (
    "Chipfist deals in a server's text channels, not in direct messages: use this "
    "command in the channel of a table (or where you want one). Nothing was changed."
)
NOT_THIS_THREAD = (
    "This thread is not a table's place (R-1.11): a table lives in a text channel, and "
    "in the thread the dealer opened for it. Use this command in the channel, or in the "
    "table's own thread. Nothing was changed."
)
ANYWHERE = frozenset({"help", "rules", "notify", "leaderboard", "privacy"})
"""Commands about no table: they work in any thread of a server (never in DMs)."""

_THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)

GUILDS_ONLY = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
INSTALLED_TO_GUILDS = app_commands.AppInstallationType(guild=True, user=False)


def restrict(tree: app_commands.CommandTree[discord.Client]) -> None:
    """Declare every command of ``tree`` guild-only, installed to servers only (Discord
    offers it nowhere else). One walk over the tree, so no command can be forgotten."""
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(command, app_commands.Command | app_commands.Group):
            command.guild_only = True
            command.allowed_contexts = GUILDS_ONLY
            command.allowed_installs = INSTALLED_TO_GUILDS


def is_thread(channel: object) -> bool:
    """Whether an interaction's channel is a thread (cached or not)."""
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in _THREADS


def _nowhere(place_id: int) -> str | None:
    return None


def table_id(
    interaction: discord.Interaction[discord.Client],
    thread_of: Callable[[str], int],
    table_at: Callable[[int], str | None] = _nowhere,
) -> str:
    """The table an interaction's place names: the table whose recorded place
    (``table_at``, R-19.3: a tournament's table in a channel or thread the dealer opened)
    it is; else its channel's id; in the table's own thread (``thread_of(channel id)``,
    0 for none) the channel's; in any other thread the thread's own id, where no table
    is (commands are refused there, :func:`check`)."""
    if interaction.channel_id is not None:
        placed = table_at(interaction.channel_id)
        if placed is not None:
            return placed
    channel = interaction.channel
    parent = getattr(channel, "parent_id", None)
    if is_thread(channel) and parent and thread_of(str(parent)) == interaction.channel_id:
        return str(parent)
    return str(interaction.channel_id)


def check(
    interaction: discord.Interaction[discord.Client],
    thread_of: Callable[[str], int],
    table_at: Callable[[int], str | None] = _nowhere,
) -> None:
    """Refuse (``CheckFailure``, answered privately by ``cogs.errors``) a command made
    outside a server, or a table command made in a thread that is not a table's own."""
    if interaction.guild_id is None:
        raise _said(app_commands.NoPrivateMessage(NOT_IN_DMS), "place.not_in_dms")
    command = interaction.command
    if isinstance(command, app_commands.Command) and (
        (command.root_parent or command).name in ANYWHERE
    ):
        return
    if is_thread(interaction.channel) and table_id(interaction, thread_of, table_at) == str(
        interaction.channel_id
    ):
        raise _said(app_commands.CheckFailure(NOT_THIS_THREAD), "place.not_this_thread")


def _said(exc: app_commands.CheckFailure, key: str) -> app_commands.CheckFailure:
    """The refusal with its message (``cogs.errors`` says it in the asker's language;
    its text is the English)."""
    exc.msg = message(key, rule=Rule("R-1.11"))  # type: ignore[attr-defined]  # read by cogs.words.error_text
    return exc


__all__ = [
    "ANYWHERE",
    "NOT_IN_DMS",
    "NOT_THIS_THREAD",
    "check",
    "is_thread",
    "restrict",
    "table_id",
]
