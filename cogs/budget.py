"""The bot's own budget of requests against Discord's global rate limit.

Discord allows a bot token 50 requests a second in all (interaction endpoints, the
callback and the interaction's webhook, are exempt); past that every request draws a
429 and discord.py stops *every* request until the window resets. So the bot spends
its global requests from a token bucket (:class:`RequestBudget`, 40 a second by
default, ``CHIPFIST_REQUEST_RATE``) and a burst waits here, in order of priority,
instead of reaching Discord.

Why 40 and a burst of 5, not 50: Discord counts in windows that we cannot see, and
requests reach it after a varying latency (50-300 ms is usual), so evenly spaced
requests can arrive bunched. A bucket of ``rate`` per second holding at most ``burst``
tokens lets at most ``burst + rate`` requests leave in any one second; 45 leaves room
for that jitter under 50.

Every REST request of discord.py's HTTP client passes through the bucket: the hook is
an aiohttp trace (``Client(http_trace=...)``) whose request-start callback is awaited
before the request is sent, so retries after a 5xx or a 429 pay too. Requests to the
interaction endpoints (``/interactions/...``, ``/webhooks/...``) pass untouched.

Priorities (:data:`HIGH`, :data:`NORMAL`, :data:`LOW`) are a context variable set
around a call (``with priority(LOW): ...``); the waiting request with the best
priority goes first, then the oldest. ``HIGH`` is the table message's refresh, which
pays before it takes the channel's edit lock (:meth:`RequestBudget.prepaid`: a click
answered meanwhile never waits behind a refresh waiting for the budget); ``NORMAL``
(the default) is the DMs with cards and the rest; ``LOW`` is the cosmetic work: a
channel mention for "your turn", deleting one. A ``LOW`` request that would wait more
than ``low_max_wait`` seconds is not sent at all: :class:`BudgetShort` is raised and the
caller drops it (a nudge that comes late is worth less than the table message it would
delay).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import time
from collections.abc import AsyncIterator, Callable, Iterator
from types import SimpleNamespace

import aiohttp

HIGH = 0
NORMAL = 1
LOW = 2

_priority: contextvars.ContextVar[int] = contextvars.ContextVar("budget_priority", default=NORMAL)
_prepaid: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "budget_prepaid", default=None
)

EXEMPT_PATHS = ("/interactions/", "/webhooks/")
"""Interaction endpoints: not bound to the global limit, never budgeted."""


class BudgetShort(Exception):
    """A low-priority request was dropped: the budget is spent for a while."""


@contextlib.contextmanager
def priority(level: int) -> Iterator[None]:
    """Requests made inside (in this task, and tasks it starts) have this priority."""
    token = _priority.set(level)
    try:
        yield
    finally:
        _priority.reset(token)


def current_priority() -> int:
    return _priority.get()


def prepaid_for(client: object, level: int = HIGH) -> contextlib.AbstractAsyncContextManager[None]:
    """``client.budget.prepaid(level)``, or nothing for a client without a budget."""
    budget = getattr(client, "budget", None)
    if isinstance(budget, RequestBudget):
        return budget.prepaid(level)
    return contextlib.nullcontext()


def is_exempt(path: str) -> bool:
    """Whether a request path is an interaction endpoint (exempt from the global limit)."""
    return any(part in path for part in EXEMPT_PATHS)


class RequestBudget:
    """A token bucket of ``rate`` requests a second holding at most ``burst``, with a
    priority queue of waiters (see the module docstring)."""

    def __init__(
        self,
        rate: float = 40.0,
        burst: float = 5.0,
        *,
        low_max_wait: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a request budget needs rate > 0 and burst >= 1")
        self.rate = rate
        self.burst = burst
        self.low_max_wait = low_max_wait
        self._clock = clock
        self._tokens = burst
        self._stamp = clock()
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()
        self._pump: asyncio.Task[None] | None = None
        self.granted = 0
        """Requests let through so far."""
        self.dropped = 0
        """Low-priority requests refused (:class:`BudgetShort`)."""
        self.waited = 0
        """Requests that had to wait for a token."""

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def expected_wait(self) -> float:
        """Seconds a request arriving now would wait (all waiters go first)."""
        self._refill()
        owed = len(self._waiters) + 1 - self._tokens
        return max(0.0, owed / self.rate)

    async def acquire(self, level: int | None = None) -> None:
        """Take one token, waiting behind better or older waiters; a ``LOW`` request
        that would wait longer than ``low_max_wait`` raises :class:`BudgetShort`."""
        level = current_priority() if level is None else level
        self._refill()
        if not self._waiters and self._tokens >= 1:
            self._tokens -= 1
            self.granted += 1
            return
        if level >= LOW and self.expected_wait() > self.low_max_wait:
            self.dropped += 1
            raise BudgetShort("the request budget is spent; a low-priority request is dropped")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (level, next(self._seq), future))
        self.waited += 1
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._run())
        await future

    def refund(self) -> None:
        """Give back a token taken and not spent."""
        self._refill()
        self._tokens = min(self.burst, self._tokens + 1)
        self.granted -= 1

    @contextlib.asynccontextmanager
    async def prepaid(self, level: int = HIGH) -> AsyncIterator[None]:
        """Wait for a token *before* entering (so the wait happens outside any lock the
        caller takes next); the first request inside spends it instead of waiting, and
        an unspent one is given back on leaving."""
        await self.acquire(level)
        box = [1]
        token = _prepaid.set(box)
        try:
            with priority(level):
                yield
        finally:
            _prepaid.reset(token)
            if box[0]:
                self.refund()

    async def _run(self) -> None:
        while self._waiters:
            self._refill()
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self.rate)
                continue
            _, _, future = heapq.heappop(self._waiters)
            if future.done():  # its request was cancelled while waiting
                continue
            self._tokens -= 1
            self.granted += 1
            future.set_result(None)

    def attach(self, trace: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
        """Make every request of the client using ``trace`` pay (interaction endpoints
        excepted); returns ``trace``."""

        async def on_start(
            session: aiohttp.ClientSession,
            ctx: SimpleNamespace,
            params: aiohttp.TraceRequestStartParams,
        ) -> None:
            if is_exempt(params.url.path):
                return
            box = _prepaid.get()
            if box is not None and box[0] > 0:
                box[0] -= 1  # paid for before the caller took its lock
                return
            await self.acquire()

        trace.on_request_start.append(on_start)
        return trace


__all__ = [
    "HIGH",
    "LOW",
    "NORMAL",
    "BudgetShort",
    "RequestBudget",
    "current_priority",
    "is_exempt",
    "prepaid_for",
    "priority",
]
