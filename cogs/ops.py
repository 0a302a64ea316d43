"""Every Discord call Chipfist makes goes through here.

Expected failures are handled in one place: an interaction that expired (10062) or was
already answered (40060), a DM the user closed (50007, 50278) and a message someone
deleted. Rate limits are left to discord.py, which waits and retries on its own, and to
the bot's request budget (:mod:`cogs.budget`), which every global-limited request
passes first; low-priority calls (a turn mention) run under ``budget.priority(LOW)``
and may be dropped (``budget.BudgetShort``) when the budget is short.
Each helper returns whether (or what) it delivered, so callers can fall back.
"""

from __future__ import annotations

import contextlib
import io
import logging
from typing import Any

import discord

from cards_art import RenderedImage
from cogs.prefs import DmChannels

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
DM_CLOSED = (50007, 50278)
UNKNOWN_MESSAGE = 10008


def _file(image: RenderedImage | None) -> discord.File | None:
    if image is None:
        return None
    return discord.File(io.BytesIO(image.data), image.filename, description=image.alt_text[:1000])


MAX_CONTENT = 2000
"""Discord refuses a message over 2000 characters (a long /history, a pasted echo)."""


def fit(content: str) -> str:
    """``content`` cut to what Discord accepts, keeping its end marked with an ellipsis."""
    return content if len(content) <= MAX_CONTENT else content[: MAX_CONTENT - 1] + "…"


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
) -> bool:
    """Answer a click by editing the message it was on (UPDATE_MESSAGE: one request)."""
    kwargs: dict[str, Any] = {"embed": embed, "view": view}
    if content is not None:
        kwargs["content"] = fit(content)
    file = _file(image)
    if file is not None:
        kwargs["attachments"] = [file]
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


def _message(
    content: str,
    embed: discord.Embed | None,
    image: RenderedImage | list[RenderedImage] | None,
    view: discord.ui.View | None,
) -> dict[str, Any]:
    """A new message's arguments (fresh files each time: a sent file is consumed)."""
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
    return kwargs


async def send(
    channel: discord.abc.Messageable,
    content: str = "",
    *,
    embed: discord.Embed | None = None,
    image: RenderedImage | list[RenderedImage] | None = None,
    view: discord.ui.View | None = None,
) -> discord.Message | None:
    kwargs = _message(content, embed, image, view)
    try:
        return await channel.send(**kwargs)
    except discord.Forbidden as exc:
        if exc.code in DM_CLOSED:
            return None
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
    known: DmChannels | None = None,
) -> discord.Message | None:
    """DM a user; None when their DMs are closed (the caller falls back).

    With ``known`` (the kept DM channel ids, cogs/prefs.py) the DM goes straight to the
    user's channel (one request); the channel is opened, and kept, only the first time.
    A kept channel Discord no longer knows (404) is forgotten and opened once more."""
    if known is None:
        try:
            # create_dm answers from the cache after the first time: no user lookup needed.
            channel = await client.create_dm(discord.Object(user_id))
        except discord.HTTPException:
            return None
        return await send(channel, content, image=image, view=view)
    for _ in range(2):
        channel_id = await _dm_channel(client, user_id, known)
        if channel_id is None:
            return None
        where = client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        try:
            return await where.send(**_message(content, None, image, view))
        except discord.Forbidden as exc:
            if exc.code not in DM_CLOSED:
                log.warning("no permission to DM %s: %s", user_id, exc)
            return None  # DMs closed: the channel stays right, the user said no
        except discord.NotFound:
            await known.forget(user_id)
    return None


async def _dm_channel(client: discord.Client, user_id: int, known: DmChannels) -> int | None:
    """The user's DM channel id: kept, or opened now (POST /users/@me/channels) and kept."""
    channel_id = known.ids.get(user_id)
    if channel_id is not None:
        return channel_id
    async with known.lock(user_id):
        channel_id = known.ids.get(user_id)  # opened while we waited
        if channel_id is not None:
            return channel_id
        try:
            data = await client.http.start_private_message(user_id)
        except discord.HTTPException:
            return None
        channel_id = int(data["id"])
        await known.keep(user_id, channel_id)
        return channel_id


async def followup(
    interaction: discord.Interaction[discord.Client],
    content: str,
    *,
    mention: int | None = None,
    image: RenderedImage | list[RenderedImage] | None = None,
) -> discord.WebhookMessage | None:
    """A public follow-up of an answered interaction, pinging ``mention`` (and no one
    else; nobody when None). Interaction webhooks are exempt from the global rate
    limit. None when Discord refuses it (the token expired, the channel is gone): the
    caller falls back to a channel message."""
    users = [discord.Object(mention)] if mention is not None else False
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)
    kwargs = _message(content, None, image, None)
    kwargs["content"] = kwargs["content"] or discord.utils.MISSING
    try:
        return await interaction.followup.send(wait=True, allowed_mentions=mentions, **kwargs)
    except discord.HTTPException as exc:
        log.info("follow-up of interaction %s refused: %s", interaction.id, exc)
        return None


async def edit_original(
    interaction: discord.Interaction[discord.Client],
    *,
    embed: discord.Embed,
    view: discord.ui.View | None,
    image: RenderedImage | None = None,
) -> bool:
    """Edit the message a click was answered on through the click's webhook (exempt
    from the global limit); False when the token no longer works or the message is
    gone (the caller edits it by REST)."""
    kwargs: dict[str, Any] = {"embed": embed, "view": view}
    file = _file(image)
    if file is not None:
        kwargs["attachments"] = [file]
    try:
        await interaction.edit_original_response(**kwargs)
        return True
    except discord.HTTPException as exc:
        log.info("webhook edit for interaction %s refused: %s", interaction.id, exc)
        return False


async def delete_followup(message: discord.WebhookMessage) -> bool:
    """Delete a follow-up through its interaction's webhook (exempt from the global
    limit); False when the token no longer works (the caller deletes it by REST)."""
    try:
        await message.delete()
        return True
    except discord.NotFound as exc:
        # 10008: already gone. 10015 (Unknown Webhook): the token is not known any more.
        return exc.code != 10015
    except discord.HTTPException:
        return False  # 401 / 50027 Invalid Webhook Token: 15 minutes are over


async def edit(
    message: discord.PartialMessage | discord.Message,
    *,
    embed: discord.Embed,
    view: discord.ui.View | None,
    image: RenderedImage | None = None,
) -> bool:
    """Edit a message in place; False when it is gone."""
    kwargs: dict[str, Any] = {"embed": embed, "view": view}
    file = _file(image)
    if file is not None:
        kwargs["attachments"] = [file]
    try:
        await message.edit(**kwargs)
        return True
    except discord.NotFound:
        return False
    except discord.Forbidden:
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
