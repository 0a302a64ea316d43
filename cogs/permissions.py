"""The one declaration of the Discord permissions Chipfist needs, and the invite URL.

Everything else reads :data:`NEEDS`: ``/table create`` checks the bot has them in the
channel (:data:`CHANNEL`, plus :data:`THREAD` for a table in its own thread), start-up
logs per guild which ones the bot lacks, and ``python -m bot doctor`` prints the invite
URL whose permission integer is exactly these (scopes ``bot applications.commands``).

Not needed, deliberately: Manage Messages (the bot deletes only its own messages: the
turn ping and a moved table message) and Mention Everyone (pings mention one user).
Intents: guilds, and the privileged members intent only to hear that a seated member
left the server (R-16.12; the bot runs without it if Discord refuses it).
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

SCOPES = ("bot", "applications.commands")


@dataclass(frozen=True, slots=True)
class Need:
    name: str
    """The ``discord.Permissions`` flag."""
    why: str
    thread: bool = False
    """Needed only for a table in its own thread (``/table create thread:True``)."""


NEEDS: tuple[Need, ...] = (
    Need("view_channel", "see the table's channel"),
    Need("send_messages", "post the table message, turn pings and hand results"),
    Need("embed_links", "the table message is an embed"),
    Need("attach_files", "the table, card, showdown and ledger pictures"),
    Need("read_message_history", "keep editing the table message players already have"),
    Need("create_public_threads", "open a table in its own thread", thread=True),
    Need("send_messages_in_threads", "post in a table's thread", thread=True),
)

CHANNEL: tuple[str, ...] = tuple(n.name for n in NEEDS if not n.thread)
THREAD: tuple[str, ...] = tuple(n.name for n in NEEDS if n.thread)
ALL: tuple[str, ...] = CHANNEL + THREAD


def permissions(names: tuple[str, ...] = ALL) -> discord.Permissions:
    return discord.Permissions(**dict.fromkeys(names, True))


def invite_url(client_id: int | str) -> str:
    """The OAuth2 URL that adds the bot with exactly :data:`ALL` and :data:`SCOPES`."""
    return discord.utils.oauth_url(client_id, permissions=permissions(), scopes=SCOPES)


def missing(perms: discord.Permissions, names: tuple[str, ...] = ALL) -> list[str]:
    """Which of ``names`` ``perms`` lacks (flag names)."""
    return [name for name in names if not getattr(perms, name)]


def label(name: str) -> str:
    """``send_messages`` -> ``Send Messages`` (the portal's wording)."""
    return name.replace("_", " ").title()
