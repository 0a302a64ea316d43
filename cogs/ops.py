"""Every Discord call Chipfist makes goes through here.

Expected failures are handled in one place: an interaction that expired (10062) or was
already answered (40060), a DM the user closed (50007, 50278) and a message someone
deleted. Rate limits are left to discord.py, which waits and retries on its own.
Each helper returns whether (or what) it delivered, so callers can fall back.
"""

from __future__ import annotations

import contextlib
import io
import logging
from typing import Any

import discord

from cards_art import RenderedImage

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
DM_CLOSED = (50007, 50278)
UNKNOWN_MESSAGE = 10008
MISSING_PERMISSIONS = 50013


def _file(image: RenderedImage | None) -> discord.File | None:
    if image is None:
        return None
    return discord.File(io.BytesIO(image.data), image.filename, description=image.alt_text[:1000])


MAX_CONTENT = 2000
"""Discord refuses a message over 2000 characters (a long /history, a pasted echo)."""


def fit(content: str) -> str:
    """``content`` cut to what Discord accepts, keeping its end marked with an ellipsis."""
    return content if len(content) <= MAX_CONTENT else content[: MAX_CONTENT - 1] + "…"


def _no_picture(embed: discord.Embed | None) -> discord.Embed | None:
    """``embed`` without the picture it shows from an attachment that was not sent."""
    if embed is None or not (embed.image.url or "").startswith("attachment://"):
        return embed
    return embed.copy().set_image(url=None)


def _expected(exc: discord.HTTPException, *codes: int) -> bool:
    return exc.code in codes or isinstance(exc, discord.NotFound)


async def reply(
    interaction: discord.Interaction[discord.Client],
    content: str,
    *,
    ephemeral: bool = True,
    embed: discord.Embed | None = None,
    image: RenderedImage | None = None,
    view: discord.ui.View | None = None,
) -> bool:
    """Answer an interaction (first response, or a follow-up if already answered)."""
    # Any: discord.py's keyword arguments, each of its own type; one left out is not None
    # (MISSING), so only those given are passed.
    kwargs: dict[str, Any] = {"content": fit(content), "ephemeral": ephemeral}
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    file = _file(image)
    if file is not None:
        kwargs["file"] = file
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
        return True
    except discord.HTTPException as exc:
        if exc.code == ALREADY_ACKNOWLEDGED:
            try:
                await interaction.followup.send(**kwargs)
                return True
            except discord.HTTPException:
                log.info("follow-up failed for interaction %s", interaction.id)
                return False
        if _expected(exc, UNKNOWN_INTERACTION):
            log.info("interaction %s expired before we answered", interaction.id)
            return False
        raise


async def update(
    interaction: discord.Interaction[discord.Client],
    *,
    embed: discord.Embed,
    view: discord.ui.View | None,
    image: RenderedImage | None = None,
    content: str | None = None,
    clear: bool = False,
) -> bool:
    """Answer a click by editing the message it was on (UPDATE_MESSAGE: one request).
    ``clear``: drop the message's attachments (the text table, Attach Files lost)."""
    # Any: discord.py's keyword arguments, each of its own type; one left out is not None
    # (MISSING), so only those given are passed.
    kwargs: dict[str, Any] = {"embed": embed, "view": view}
    if content is not None:
        kwargs["content"] = fit(content)
    file = _file(image)
    if file is not None:
        kwargs["attachments"] = [file]
    elif clear:
        kwargs["attachments"] = []
    try:
        await interaction.response.edit_message(**kwargs)
        return True
    except discord.HTTPException as exc:
        if _expected(exc, UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED):
            return False
        raise


async def open_modal(
    interaction: discord.Interaction[discord.Client], modal: discord.ui.Modal
) -> bool:
    try:
        await interaction.response.send_modal(modal)
        return True
    except discord.HTTPException as exc:
        if _expected(exc, UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED):
            return False
        raise


async def defer(
    interaction: discord.Interaction[discord.Client], *, ephemeral: bool = True
) -> bool:
    """Acknowledge now, answer later. Always ephemeral for private answers: a public
    defer would make the first follow-up public whatever it asks for."""
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        return True
    except discord.HTTPException as exc:
        if _expected(exc, UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED):
            return False
        raise


async def send(
    channel: discord.abc.Messageable,
    content: str = "",
    *,
    embed: discord.Embed | None = None,
    image: RenderedImage | list[RenderedImage] | None = None,
    view: discord.ui.View | None = None,
) -> discord.Message | None:
    # Any: discord.py's keyword arguments, each of its own type; one left out is not None
    # (MISSING), so only those given are passed.
    kwargs: dict[str, Any] = {"content": fit(content) or None}
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    # One picture, or several (a declaration's fists and then the showdown).
    files = [f for f in map(_file, image if isinstance(image, list) else [image]) if f]
    if len(files) == 1:
        kwargs["file"] = files[0]
    elif files:
        kwargs["files"] = files
    try:
        return await channel.send(**kwargs)
    except discord.Forbidden as exc:
        if exc.code in DM_CLOSED:
            return None
        if exc.code == MISSING_PERMISSIONS and files:
            # Attach Files taken away before the bot heard of it: the words still go
            # (once; if Send Messages is what is missing, this fails the same way).
            log.warning("no permission to upload here: sent without pictures: %s", exc)
            return await send(channel, content, embed=_no_picture(embed), view=view)
        log.warning("no permission to post: %s", exc)
        return None
    except discord.NotFound:
        return None


async def dm(
    client: discord.Client,
    user_id: int,
    content: str,
    *,
    image: RenderedImage | list[RenderedImage] | None = None,
    view: discord.ui.View | None = None,
) -> discord.Message | None:
    """DM a user; None when their DMs are closed (the caller falls back)."""
    try:
        # create_dm answers from the cache after the first time: no user lookup needed.
        channel = await client.create_dm(discord.Object(user_id))
    except discord.HTTPException:
        return None
    return await send(channel, content, image=image, view=view)


async def edit(
    message: discord.PartialMessage | discord.Message,
    *,
    embed: discord.Embed,
    view: discord.ui.View | None,
    image: RenderedImage | None = None,
    clear: bool = False,
) -> bool:
    """Edit a message in place; False when it is gone. ``clear``: drop its attachments
    (the text table, Attach Files lost)."""
    # Any: discord.py's keyword arguments, each of its own type; one left out is not None
    # (MISSING), so only those given are passed.
    kwargs: dict[str, Any] = {"embed": embed, "view": view}
    file = _file(image)
    if file is not None:
        kwargs["attachments"] = [file]
    elif clear:
        kwargs["attachments"] = []
    try:
        await message.edit(**kwargs)
        return True
    except discord.NotFound:
        return False
    except discord.Forbidden as exc:
        if exc.code == MISSING_PERMISSIONS and file is not None:
            # Attach Files taken away unseen: the table as text rather than a stale one.
            log.warning("no permission to upload here: edited without the picture: %s", exc)
            return await edit(message, embed=_no_picture(embed) or embed, view=view, clear=True)
        return False


async def delete(message: discord.PartialMessage | discord.Message | None) -> None:
    if message is None:
        return
    # Someone deleted it already, or we lost the right to: either way it is gone.
    with contextlib.suppress(discord.NotFound, discord.Forbidden):
        await message.delete()


async def create_thread(channel: discord.TextChannel, name: str) -> discord.Thread | None:
    """A public thread for a table; None (and a log line) if Discord refuses."""
    try:
        return await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
    except discord.HTTPException:
        log.warning("could not create a thread in %s", channel.id, exc_info=True)
        return None
