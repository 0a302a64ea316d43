"""Every Discord call Chipfist makes goes through here.

Expected failures are handled in one place: an interaction that expired (10062) or was
already answered (40060), a DM the user closed (50007, 50278) and a message someone
deleted. Each helper returns whether (or what) it delivered, so callers can fall back.

Transient failures (issue 15): discord.py waits on 429s by itself and retries 500, 502,
504 and 524 a few times on its REST client, but raises a 503 at once and gives up after
its retries; a connection can also reset or time out. Those are :func:`transient` and
are retried here with backoff and jitter (:func:`backoff`), a bounded number of times
and logged: creates (:func:`send`, :func:`dm`) with one ``nonce`` for every attempt and
``enforce_nonce`` (discord.py sets it with a nonce), so a retried create whose first
attempt did land returns that message instead of posting a second one; deletes, which
are idempotent. :func:`edit` raises a transient failure to its caller, the table
message's refresh (``cogs.channel``), which redoes it with the latest state rather than
the old one. An interaction's answer is never retried here (the bot's webhook adapter,
``cogs.callback_retry``, retries a 5xx fast, and the 3 s window is short): a failed
answer returns False and the caller falls back. A follow-up, which takes no nonce, is
tried again only once it was looked for in the channel and not found
(:func:`followup`). A 429 never reaches a player.

Rate limits are left to discord.py, which waits and retries on its own, and to the
bot's request budget (:mod:`cogs.budget`), which every global-limited request passes
first; low-priority calls (a turn mention) run under ``budget.priority(LOW)`` and may
be dropped (``budget.BudgetShort``) when the budget is short.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord

from cards_art import RenderedImage
from cogs import discord_internals, rest_retry
from cogs.budget import BudgetShort
from cogs.prefs import DmChannels

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


def mentions(user_id: int | None = None) -> discord.AllowedMentions:
    """Whom a message may ping: ``user_id`` alone, or nobody. Every message the bot
    creates says so explicitly (the client's default is nobody too, ``cogs.bot``): a
    player's name in the text (``cogs.names``) never pings anyone."""
    users = [discord.Object(user_id)] if user_id is not None else False
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


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


def _edit_args(
    embed: discord.Embed,
    view: discord.ui.View | None,
    image: RenderedImage | None,
    clear: bool,
) -> dict[str, Any]:  # Any: discord.py's keyword arguments (below)
    """An edit's arguments: the picture as its one attachment, or with ``clear`` none
    (the text table, Attach Files lost); otherwise the attachments are left as they are."""
    # Any: discord.py's keyword arguments, each of its own type; one left out is not None
    # (MISSING), so only those given are passed.
    kwargs: dict[str, Any] = {"embed": embed, "view": view}
    file = _file(image)
    if file is not None:
        kwargs["attachments"] = [file]
    elif clear:
        kwargs["attachments"] = []
    return kwargs


def _expected(exc: discord.HTTPException, *codes: int) -> bool:
    return exc.code in codes or isinstance(exc, discord.NotFound)


ATTEMPTS = 6
"""Tries of a create or a delete on a transient failure (each 5xx raised at once by
:mod:`cogs.rest_retry`; the waits between them add up to at most about 3 s)."""
FAST_BASE = 0.2
"""Seconds of the first retry's backoff (times 0.5-1), doubling after."""

_jitter = random.Random()


def transient(exc: BaseException) -> bool:
    """A failure that says nothing about the request itself: a 5xx (a 503, which
    discord.py does not retry, or any 5xx after discord.py's own retries), a 429 that
    discord.py surfaced instead of waiting (``RateLimited`` past ``max_ratelimit_timeout``,
    or a 429 without Discord's ``Via`` header), a reset or timed-out connection."""
    if isinstance(exc, discord.DiscordServerError | discord.RateLimited):
        return True
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, aiohttp.ClientError | TimeoutError | ConnectionError)


def backoff(attempt: int, *, base: float = 0.5, cap: float = 8.0) -> float:
    """Seconds to wait before retry ``attempt`` (0 for the first retry): exponential,
    capped, with jitter (half to all of it) so that tables failing together do not all
    retry in the same instant."""
    step = min(cap, base * 2.0**attempt)
    return step * (0.5 + _jitter.random() / 2)


T = TypeVar("T")


async def _retrying(what: str, call: Callable[[], Awaitable[T]], attempts: int = ATTEMPTS) -> T:
    """``call()`` again on a transient failure, up to ``attempts`` tries in all; the
    last failure is raised. ``call`` builds its request afresh each time (a
    ``discord.File`` is spent by a request)."""
    for attempt in range(attempts):
        try:
            with rest_retry.fail_fast():  # a 5xx comes back at once: retried here
                return await call()
        except Exception as exc:
            if not transient(exc) or attempt == attempts - 1:
                raise
            wait = backoff(attempt, base=FAST_BASE)
            log.info("%s failed (%s); retry %d in %.1f s", what, _why(exc), attempt + 1, wait)
            await asyncio.sleep(wait)
    raise AssertionError("unreachable")  # the loop returns or raises


def _why(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.code}"
    return type(exc).__name__


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
    kwargs: dict[str, Any] = {
        "content": fit(content),
        "ephemeral": ephemeral,
        "allowed_mentions": mentions(),
    }
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
        if transient(exc):
            log.warning("could not answer interaction %s: %s", interaction.id, _why(exc))
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
    """Answer a click by editing the message it was on (UPDATE_MESSAGE: one request,
    exempt from the rate limits). False when it was not answered that way: expired
    (10062), already answered (40060, e.g. by :func:`acknowledge`, or a first attempt
    that landed though its answer was a 5xx), or a 5xx after discord.py's retries; the
    message may or may not show it then, and the caller refreshes it. ``clear``: drop
    the message's attachments (the text table, Attach Files lost)."""
    kwargs = _edit_args(embed, view, image, clear)
    if content is not None:
        kwargs["content"] = fit(content)
    try:
        await interaction.response.edit_message(**kwargs)
        return True
    except discord.InteractionResponded:
        return False
    except discord.HTTPException as exc:
        if _expected(exc, UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED):
            return False
        if transient(exc):
            log.warning("could not update for interaction %s: %s", interaction.id, _why(exc))
            return False
        raise
    except (aiohttp.ClientError, TimeoutError, ConnectionError) as exc:
        log.warning("could not update for interaction %s: %s", interaction.id, _why(exc))
        return False


async def acknowledge(interaction: discord.Interaction[discord.Client]) -> bool:
    """Acknowledge an interaction before its 3 s window closes when its answer is not
    ready (issue 15): a click or a modal gets DEFERRED_UPDATE_MESSAGE (nothing changes
    on screen, and the player is never told "This interaction failed"; the table message
    is then brought up to date by its refresh), a slash command an ephemeral "thinking"
    (its answer follows as a follow-up, which :func:`reply` sends)."""
    command = interaction.type == discord.InteractionType.application_command
    try:
        await interaction.response.defer(ephemeral=True, thinking=command)
        return True
    except discord.InteractionResponded:
        return False
    except discord.HTTPException as exc:
        if _expected(exc, UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED) or transient(exc):
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


def new_nonce() -> int:
    """A message nonce (discord.py sends it with ``enforce_nonce``)."""
    return secrets.randbits(63)


def _message(
    content: str,
    embed: discord.Embed | None,
    image: RenderedImage | list[RenderedImage] | None,
    view: discord.ui.View | None,
    mention: int | None = None,
) -> dict[str, Any]:  # Any: discord.py's keyword arguments (below)
    """A new message's arguments (fresh files each time: a sent file is consumed); it
    pings ``mention`` alone, or nobody."""
    # Any: discord.py's keyword arguments, each of its own type; one left out is not None
    # (MISSING), so only those given are passed.
    kwargs: dict[str, Any] = {
        "content": fit(content) or None,
        "allowed_mentions": mentions(mention),
    }
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
    nonce: int | None = None,
    mention: int | None = None,
) -> discord.Message | None:
    """Post a message that pings ``mention`` alone (nobody when None); None when
    Discord refuses it for good (no permission, the
    channel or the DM is gone, or still failing after :data:`ATTEMPTS` tries). Every
    try carries the same nonce with ``enforce_nonce``: Discord answers a repeated create
    with the message the first one made, so a retry never posts twice. A caller that
    tries again later passes its own ``nonce`` (the same for the same message)."""
    if nonce is None:
        nonce = new_nonce()
    images = image if isinstance(image, list) else [image]

    async def attempt() -> discord.Message:
        # The files are made again for each try (a request spends them).
        kwargs = _message(content, embed, image, view, mention)
        return await channel.send(nonce=nonce, **kwargs)

    try:
        return await _retrying("send", attempt)
    except discord.Forbidden as exc:
        if exc.code in DM_CLOSED:
            return None
        if exc.code == MISSING_PERMISSIONS and any(i is not None for i in images):
            # Attach Files taken away before the bot heard of it: the words still go
            # (once; if Send Messages is what is missing, this fails the same way).
            log.warning("no permission to upload here: sent without pictures: %s", exc)
            return await send(
                channel, content, embed=_no_picture(embed), view=view, nonce=nonce, mention=mention
            )
        log.warning("no permission to post: %s", exc)
        return None
    except discord.NotFound:
        return None
    except Exception as exc:
        if not transient(exc):
            raise
        log.warning("could not post after %d tries: %s", ATTEMPTS, _why(exc))
        return None


async def dm(
    client: discord.Client,
    user_id: int,
    content: str,
    *,
    image: RenderedImage | list[RenderedImage] | None = None,
    view: discord.ui.View | None = None,
    known: DmChannels | None = None,
    mention: int | None = None,
) -> discord.Message | None:
    """DM a user (pinging ``mention`` alone, or nobody); None when their DMs are closed
    (the caller falls back).

    With ``known`` (the kept DM channel ids, cogs/prefs.py) the DM goes straight to the
    user's channel (one request); the channel is opened, and kept, only the first time.
    A kept channel Discord no longer knows (404) is forgotten and opened once more."""
    if known is None:
        try:
            # create_dm answers from the cache after the first time: no user lookup needed.
            # Opening a DM channel is idempotent: a transient failure is simply retried.
            channel = await _retrying(
                "open a DM", lambda: client.create_dm(discord.Object(user_id))
            )
        except discord.HTTPException:
            return None
        except Exception as exc:
            if not transient(exc):
                raise
            return None
        return await send(channel, content, image=image, view=view, mention=mention)
    # One nonce for every try (enforce_nonce): a DM whose first try landed is not sent
    # twice.
    nonce = new_nonce()
    for _ in range(2):
        channel_id = await _dm_channel(client, user_id, known)
        if channel_id is None:
            return None
        where = client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

        async def attempt(where: discord.PartialMessageable = where) -> discord.Message:
            return await where.send(nonce=nonce, **_message(content, None, image, view, mention))

        try:
            return await _retrying("DM", attempt)
        except discord.Forbidden as exc:
            if exc.code not in DM_CLOSED:
                log.warning("no permission to DM %s: %s", user_id, exc)
            return None  # DMs closed: the channel stays right, the user said no
        except discord.NotFound:
            await known.forget(user_id)
        except Exception as exc:
            if not transient(exc):
                raise
            log.warning("could not DM %s after %d tries: %s", user_id, ATTEMPTS, _why(exc))
            return None
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
            # Idempotent: a transient failure is simply retried.
            data = await _retrying("open a DM", lambda: client.http.start_private_message(user_id))
        except discord.HTTPException:
            return None
        except Exception as exc:
            if not transient(exc):
                raise
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
    view: discord.ui.View | None = None,
) -> discord.WebhookMessage | None:
    """A public follow-up of an answered interaction, pinging ``mention`` (and no one
    else; nobody when None). Interaction webhooks are exempt from the global rate
    limit. None when Discord refuses it (the token expired, the channel is gone) or it
    was surely not posted: the caller falls back to a channel message.

    Posted at most once: Discord takes no nonce on a webhook, so a try answered 5xx
    (sent within ``rest_retry.fail_fast()``, so the 5xx comes back at once) is looked
    for in the channel
    (:func:`_landed`) before the next try; while the channel cannot be read it is
    looked for again, not sent again. Raises ``FollowupInDoubt`` when it may have been
    posted and that could not be told: the caller posts it nowhere else."""
    # Before now by more than clocks drift apart (this machine's and Discord's): what
    # is looked for is this message's text, which names its hand, or a nudge whose
    # predecessor was deleted with its turn; an older copy cannot be mistaken for it.
    since = discord.Object(discord.utils.time_snowflake(discord.utils.utcnow()) - (10_000 << 22))
    doubt: discord.DiscordServerError | None = None
    unknown = False  # the last look could not read the channel
    for attempt in range(len(FOLLOWUP_DELAYS) + 1):
        if not unknown:
            # Fresh files (a sent one is read); it pings ``mention`` alone, or nobody.
            kwargs = _message(content, None, image, view, mention)
            kwargs["content"] = kwargs["content"] or discord.utils.MISSING
            try:
                with rest_retry.fail_fast():  # tried once: a 5xx may have posted it
                    return await interaction.followup.send(wait=True, **kwargs)
            except discord.DiscordServerError as exc:
                doubt = exc
            except discord.HTTPException as exc:
                log.info("follow-up of interaction %s refused: %s", interaction.id, exc)
                return None
        found, known = await _landed(interaction, fit(content), since)
        if found is not None:
            log.info("follow-up of interaction %s answered 5xx had landed", interaction.id)
            return found
        unknown = not known
        if attempt < len(FOLLOWUP_DELAYS):
            await asyncio.sleep(FOLLOWUP_DELAYS[attempt] * random.uniform(0.5, 1.5))
    if unknown and doubt is not None:
        log.warning("follow-up of interaction %s: posted or not, unknown", interaction.id)
        raise FollowupInDoubt(doubt.status) from doubt
    log.warning("follow-up of interaction %s: not posted after 5xx answers", interaction.id)
    return None


class FollowupInDoubt(discord.DiscordException):
    """A follow-up answered 5xx that may or may not have been posted, and the channel
    could not be read to tell (:func:`followup`): post it nowhere else."""

    def __init__(self, status: int) -> None:
        super().__init__(f"follow-up answered {status}: posted or not, unknown")
        self.status = status


FOLLOWUP_DELAYS = (0.1, 0.3)
"""Seconds before each new try (or look) of a follow-up answered 5xx."""


async def _landed(
    interaction: discord.Interaction[discord.Client],
    content: str,
    since: discord.Object,
) -> tuple[discord.WebhookMessage | None, bool]:
    """(the follow-up with ``content`` posted in the interaction's channel since
    ``since`` by this application, whether the channel could be read). One read of the
    channel's latest messages: a global request, on this rare path."""
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        return None, False
    if not interaction.app_permissions.read_message_history:
        return None, False  # Discord would answer an empty list: "not there" unproven
    try:
        async for msg in channel.history(limit=20, after=since):
            # Discord trims a message's text: compare it trimmed.
            if msg.webhook_id == interaction.application_id and msg.content == content.strip():
                return await interaction.followup.fetch_message(msg.id), True
    except Exception as exc:
        if not (transient(exc) or isinstance(exc, (discord.HTTPException, BudgetShort))):
            raise
        log.info("follow-up of interaction %s: channel not read: %s", interaction.id, exc)
        return None, False
    return None, True


async def edit_original(
    interaction: discord.Interaction[discord.Client],
    *,
    embed: discord.Embed,
    view: discord.ui.View | None,
    image: RenderedImage | None = None,
    clear: bool = False,
) -> bool:
    """Edit the message a click was answered on through the click's webhook (exempt
    from the global limit); False when the token no longer works or the message is
    gone (the caller edits it by REST). ``clear``: drop its attachments (the text
    table, Attach Files lost)."""
    kwargs = _edit_args(embed, view, image, clear)
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
    clear: bool = False,
) -> bool:
    """Edit a message in place; False when it is gone (or no longer ours to edit). A
    transient failure is raised (:func:`transient`): the caller redoes the edit with
    the latest state, not this one (``cogs.channel``). ``clear``: drop its attachments
    (the text table, Attach Files lost)."""
    kwargs = _edit_args(embed, view, image, clear)
    try:
        with rest_retry.fail_fast():  # the caller redoes it at once with the latest state
            await message.edit(**kwargs)
        return True
    except discord.NotFound:
        return False
    except discord.Forbidden as exc:
        if exc.code == MISSING_PERMISSIONS and image is not None:
            # Attach Files taken away unseen: the table as text rather than a stale one.
            log.warning("no permission to upload here: edited without the picture: %s", exc)
            return await edit(message, embed=_no_picture(embed) or embed, view=view, clear=True)
        return False


async def drop_buttons(message: discord.Message) -> bool:
    """Edit a message's buttons away, its words kept (a closed vote's post, R-20.77);
    False when it is gone or no longer ours to edit. Transient failures are retried."""

    async def attempt() -> discord.Message:
        return await message.edit(view=None)

    try:
        await _retrying("drop buttons", attempt)
        return True
    except (discord.NotFound, discord.Forbidden):
        return False
    except Exception as exc:
        if not transient(exc):
            raise
        log.warning("could not drop a message's buttons: %s", _why(exc))
        return False


async def delete(message: discord.PartialMessage | discord.Message | None) -> None:
    if message is None:
        return
    # Someone deleted it already, or we lost the right to: either way it is gone. A
    # delete is idempotent, so a transient failure is retried; a last one is logged.
    try:
        await _retrying("delete", message.delete)
    except (discord.NotFound, discord.Forbidden):
        return
    except Exception as exc:
        if not transient(exc):
            raise
        log.warning("could not delete message %s: %s", message.id, _why(exc))


async def create_thread(channel: discord.TextChannel, name: str) -> discord.Thread | None:
    """A public thread for a table; None (and a log line) if Discord refuses."""
    try:
        return await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
    except discord.HTTPException:
        log.warning("could not create a thread in %s", channel.id, exc_info=True)
        return None


def bucket_wait(client: discord.Client, channel_id: int) -> float:
    """Seconds until the channel's message bucket (creates and edits share it: 5 per
    5 s on Discord) has room for a request that returns at once (one slot more than the
    last), as discord.py learnt it from the ``X-RateLimit-*`` headers; 0 when it has
    room or discord.py knows nothing of it yet. The table
    message's refresh waits this long *before* it sends, instead of inside discord.py:
    a request waiting on the bucket is in flight, and a click would queue behind it.
    Read from discord.py's rate-limit state (``HTTPClient._buckets``, a private part:
    anything unexpected reads as 0, which only means discord.py does the waiting)."""
    try:
        route = discord_internals.Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=channel_id,
            message_id=0,
        )
        bucket = discord_internals.rate_limit_bucket(client.http, route)
        # The last slot is left to others: discord.py holds the request that takes it
        # until the window resets (its pre-emptive sleep), so it would stay in flight.
        spare = 1 if bucket is not None and bucket.limit > 1 else 0
        if bucket is None or bucket.remaining > spare or bucket.expires is None:
            return 0.0
        left = float(bucket.expires) - asyncio.get_running_loop().time()
        return max(0.0, left + 0.05)  # a little past the reset: the clocks differ
    except Exception:  # discord.py's private state changed shape: let it wait itself
        return 0.0
