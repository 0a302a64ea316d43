"""A REST request answered 5xx handed back at once, for the callers that retry it fast.

discord.py's REST client retries a 500, 502, 504 or 524 by itself after 1 s, then 3 s,
then 5 s (and raises a 503 at once): made for requests that can wait. The table
message cannot: a deal shown 1.3 s late because its edit waited out discord.py's first
retry was the deal-to-new-hand p99 of ``python -m bench discord --realistic`` (3 % of
requests answered 5xx). Within :func:`fail_fast`, a 5xx is raised at once as
:class:`discord.DiscordServerError`, and the caller, which retries every transient
failure anyway (``cogs.ops``: creates with one nonce, the table message's refresh with
the latest state), tries again after its own short backoff (0.1-0.2 s first).

How: an aiohttp trace (the client's ``http_trace``, beside the request budget's) whose
request-end callback raises on a 5xx when :func:`fail_fast` is on; aiohttp closes the
response, and discord.py, which retries only ``OSError`` and the statuses it reads
itself, hands the error to its caller. That holds on the interaction endpoints too,
which share the client's session: a follow-up sent within :func:`fail_fast` is tried
once (``ops.followup``, which must look for it before sending it again); elsewhere their
fast retries are ``cogs.callback_retry``'s.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from types import SimpleNamespace

import aiohttp
import discord

_fail_fast: contextvars.ContextVar[bool] = contextvars.ContextVar("rest_fail_fast", default=False)


@contextlib.contextmanager
def fail_fast() -> Iterator[None]:
    """Within: a REST request answered 5xx raises at once, without discord.py's waits."""
    token = _fail_fast.set(True)
    try:
        yield
    finally:
        _fail_fast.reset(token)


def attach(trace: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
    """Raise a 5xx at once for requests made within :func:`fail_fast` by the client
    using ``trace``; returns ``trace``."""

    async def on_end(
        session: aiohttp.ClientSession,
        ctx: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        response = params.response
        if response.status < 500 or not _fail_fast.get():
            return
        raise discord.DiscordServerError(
            response, {"code": 0, "message": f"{response.status}: {response.reason}"}
        )

    trace.on_request_end.append(on_end)
    return trace
