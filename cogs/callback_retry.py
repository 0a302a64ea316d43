"""An interaction's requests retried fast on a 5xx (issue 15).

Discord gives a bot 3 s to answer an interaction (the callback, UPDATE_MESSAGE for a
click). discord.py's webhook adapter, which sends callbacks, retries a 5xx after
1 s, then 3 s: made for webhooks, whose messages can wait, it turns one 5xx on a click
into a 1.3 s answer and two into "This interaction failed". Measured with
``python -m bench discord --realistic`` (3 % of requests answered 5xx), that schedule
set the click p99 at about 1.4 s and left 2 clicks in 3,000 unanswered.

:class:`CallbackAdapter` is discord.py's adapter with one difference: a callback
answered 5xx is tried again after 0.03 s and 0.3 s (jittered) before discord.py's own
retries take over; so is every other request on an interaction's token (an edit of
the table message through a click's webhook, a follow-up), which discord.py sends one
at a time per token (:func:`is_fast`). Other routes go through discord.py unchanged.
A retry of a callback whose first try did land is refused by Discord with 40060
(already acknowledged), which ``ops.update`` already reads as "the message's state is
unknown": the table's refresh then shows the latest state. An edit is idempotent. A
follow-up is not (Discord takes no nonce on a webhook): ``ops.followup`` sends it under
``rest_retry.fail_fast()``, so a 5xx comes back at once from its first try, and looks
for it in the channel before sending it again.

How: the request is sent through discord.py's own ``request`` with a session that
raises :class:`_ServerError` on a 5xx instead of handing it to discord.py's retry
loop; the files are rewound and the request made again. The last try uses the real
session, so discord.py's handling (and its errors) are as before. The adapter is
installed per bot by :func:`install` (discord.py reads it from a context variable).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from types import TracebackType
from typing import Any, cast

import aiohttp
import discord

from cogs.discord_internals import AsyncWebhookAdapter, Route, use_adapter

log = logging.getLogger(__name__)

FAST_DELAYS = (0.03, 0.3)
"""Seconds before each fast retry of a callback answered 5xx (times 0.5-1.5 jitter).
The first is almost at once: a 5xx is most often one request's bad luck, and the
player waits on it (0.1 s gave a click p99 of 526 ms, 0.03 s 459 ms, in
``python -m bench discord --realistic``); the second waits longer, in case it is not."""


class _ServerError(Exception):
    """A 5xx on a callback try: retried here rather than by discord.py's slow loop."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Attempt:
    """One request's context manager, raising :class:`_ServerError` on a 5xx."""

    def __init__(self, inner: Any) -> None:  # Any: aiohttp's private context manager
        self._inner = inner

    async def __aenter__(self) -> aiohttp.ClientResponse:
        response: aiohttp.ClientResponse = await self._inner.__aenter__()
        if response.status >= 500:
            await self._inner.__aexit__(None, None, None)
            raise _ServerError(response.status)
        return response

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._inner.__aexit__(exc_type, exc, tb)


class _FailFast:
    """The session discord.py's request loop sees for a callback try."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self._session = session

    def request(self, method: str, url: str, **kwargs: Any) -> _Attempt:  # Any: aiohttp's
        return _Attempt(self._session.request(method, url, **kwargs))


def is_callback(route: Route) -> bool:
    """Whether ``route`` is an interaction callback (the 3 s answer)."""
    return route.method == "POST" and route.path.endswith("/callback")


def is_fast(route: Route) -> bool:
    """Whether a 5xx on ``route`` is retried fast: every request on an interaction's
    token (the answer, the follow-ups, the edits of the table message through a click's
    webhook). discord.py retries all of them on a 5xx anyway; only its wait changes.
    That wait matters beyond the one request: discord.py sends one request per token
    at a time, so a nudge's follow-up waiting 1 s, then 3 s, held up the table's edit
    through the same click's webhook."""
    if is_callback(route):
        return True
    return route.path.startswith("/webhooks/{webhook_id}/{webhook_token}")


class CallbackAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter, with fast retries of a callback answered 5xx."""

    retries = 0
    """Callback tries redone here (all adapters; for tests and logs)."""

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # discord.py's is untyped

    async def request(
        self,
        route: Route,
        session: aiohttp.ClientSession,
        *,
        payload: dict[str, Any] | None = None,  # Any: discord.py's JSON payload
        multipart: list[dict[str, Any]] | None = None,  # Any: discord.py's form parts
        proxy: str | None = None,
        proxy_auth: aiohttp.BasicAuth | None = None,
        files: Sequence[discord.File] | None = None,
        reason: str | None = None,
        auth_token: str | None = None,
        params: dict[str, Any] | None = None,  # Any: discord.py's query parameters
    ) -> Any:  # Any: as discord.py's (the JSON answer)
        options: dict[str, Any] = {  # Any: the keyword arguments passed on as given
            "payload": payload,
            "multipart": multipart,
            "proxy": proxy,
            "proxy_auth": proxy_auth,
            "files": files,
            "reason": reason,
            "auth_token": auth_token,
        }
        if params is not None:
            options["params"] = params
        if not is_fast(route):
            return await super().request(route, session, **options)
        for delay in FAST_DELAYS:
            try:
                fast = cast(aiohttp.ClientSession, _FailFast(session))
                return await super().request(route, fast, **options)
            except _ServerError as exc:
                CallbackAdapter.retries += 1
                wait = delay * random.uniform(0.5, 1.5)
                log.info("interaction answer got %d; retry in %.2f s", exc.status, wait)
                for file in files or ():
                    file.reset()  # the failed try read it
                await asyncio.sleep(wait)
        return await super().request(route, session, **options)


def install() -> None:
    """Make the interactions of the current context (the bot's task, and every task it
    starts from now on) answer through :class:`CallbackAdapter`."""
    use_adapter(CallbackAdapter(), CallbackAdapter)
