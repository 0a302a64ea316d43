"""Prometheus metrics over HTTP (optional: ``pip install 'chipfist[metrics]'``).

Off unless ``CHIPFIST_METRICS_PORT`` is set. Served on ``CHIPFIST_METRICS_HOST``
(default 127.0.0.1, this machine only; 0.0.0.0 in a container scraped from outside).
What is measured:

* ``process_*`` and ``python_info`` — the process's CPU seconds, memory, open file
  descriptors and start time, and the Python version (prometheus_client's process and
  platform collectors);

* ``chipfist_open_tables`` — tables open in this process;
* ``chipfist_hands_total`` and ``chipfist_hands_per_minute`` (hands finished in the
  last 60 s);
* ``chipfist_action_seconds`` — from an action's interaction reaching the bot to its
  answer (buttons, modal and slash commands alike: ``cogs.play.act``);
* ``chipfist_discord_requests_total{method,route}`` and
  ``chipfist_discord_rate_limited_total{method,route}`` — every HTTP request discord.py
  makes (an aiohttp trace, so retries after a 429 count too), snowflakes and tokens in
  the path replaced by ``{id}`` and ``{token}``;
* ``chipfist_store_commit_seconds`` — an append until its transaction committed.
"""

from __future__ import annotations

import collections
import re
import time
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType, SimpleNamespace
from typing import Any, Protocol
from wsgiref.simple_server import WSGIServer

import aiohttp

from bot.table.ports import (
    HandTotal,
    LedgerEntry,
    LedgerKind,
    LedgerRow,
    LoggedEvent,
    StorePort,
)

_SNOWFLAKE = re.compile(r"/\d{15,21}(?=/|$)")
_TOKEN_AFTER = re.compile(r"/(interactions/\{id\}|webhooks/\{id\})/[^/]+")
_ACTION_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


# An optional dependency (the `metrics` extra): imported once here, never inside a
# function (tests/test_layering.py), and None when it is not installed.
_prometheus: ModuleType | None
try:
    import prometheus_client as _prometheus
except ImportError:
    _prometheus = None


class MetricsUnavailable(RuntimeError):
    pass


def route_of(path: str) -> str:
    """``/api/v10/channels/1234…/messages`` -> ``/channels/{id}/messages``."""
    path = re.sub(r"^/api/v\d+", "", path)
    path = _SNOWFLAKE.sub("/{id}", path)
    return _TOKEN_AFTER.sub(lambda m: f"/{m.group(1)}/{{token}}", path)


class Metrics:
    """The process's metrics and the loopback HTTP server that serves them."""

    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        if _prometheus is None:
            raise MetricsUnavailable(
                "CHIPFIST_METRICS_PORT is set but prometheus-client is not installed: "
                "pip install 'chipfist[metrics]' (or unset CHIPFIST_METRICS_PORT)"
            )
        prom = _prometheus
        self._prom = prom
        self.port = port
        self.host = host
        self.registry = prom.CollectorRegistry()
        r = self.registry
        prom.ProcessCollector(registry=r)
        prom.PlatformCollector(registry=r)
        self.open_tables = prom.Gauge("chipfist_open_tables", "Tables open", registry=r)
        self.hands = prom.Counter("chipfist_hands", "Hands finished", registry=r)
        self.hands_per_minute = prom.Gauge(
            "chipfist_hands_per_minute", "Hands finished in the last 60 s", registry=r
        )
        self._hand_times: collections.deque[float] = collections.deque()
        self.hands_per_minute.set_function(self._last_minute)
        self.action_seconds = prom.Histogram(
            "chipfist_action_seconds",
            "Time from an action's interaction to its answer",
            buckets=_ACTION_BUCKETS,
            registry=r,
        )
        self.requests = prom.Counter(
            "chipfist_discord_requests",
            "HTTP requests to Discord, by route",
            ["method", "route"],
            registry=r,
        )
        self.rate_limited = prom.Counter(
            "chipfist_discord_rate_limited",
            "HTTP 429 answers from Discord, by route",
            ["method", "route"],
            registry=r,
        )
        self.commit_seconds = prom.Histogram(
            "chipfist_store_commit_seconds",
            "Store append until committed",
            buckets=_COMMIT_BUCKETS,
            registry=r,
        )
        self._server: WSGIServer | None = None

    # ------------------------------------------------------------------ server

    def start(self) -> int:
        """Serve /metrics on host:port (port 0: any free port); the port."""
        server, _thread = self._prom.start_http_server(
            self.port, addr=self.host, registry=self.registry
        )
        self._server = server
        self.port = int(server.server_address[1])
        return self.port

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    # ------------------------------------------------------------------ inputs

    def watch_tables(self, count: Callable[[], int]) -> None:
        self.open_tables.set_function(count)

    def hand_finished(self, now: float | None = None) -> None:
        self.hands.inc()
        self._hand_times.append(time.monotonic() if now is None else now)

    def _last_minute(self) -> float:
        cutoff = time.monotonic() - 60.0
        while self._hand_times and self._hand_times[0] < cutoff:
            self._hand_times.popleft()
        return float(len(self._hand_times))

    def observe_action(self, seconds: float) -> None:
        self.action_seconds.observe(seconds)

    def trace_config(self) -> aiohttp.TraceConfig:
        """An aiohttp trace for discord.py's HTTP client (``Client(http_trace=...)``)."""
        trace = aiohttp.TraceConfig()

        async def on_end(
            session: aiohttp.ClientSession,
            ctx: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            route = route_of(params.url.path)
            self.requests.labels(params.method, route).inc()
            if params.response.status == 429:
                self.rate_limited.labels(params.method, route).inc()

        trace.on_request_end.append(on_end)
        return trace

    def timed_store(self, store: StorePort) -> StorePort:
        return TimedStore(store, self.commit_seconds)


class _Observer(Protocol):
    """What the store needs of a histogram (prometheus-client's ``Histogram``)."""

    def observe(self, amount: float) -> None: ...


class TimedStore:
    """A store whose appends are timed (until committed); every other call of the
    :class:`StorePort` passes through unchanged."""

    def __init__(self, inner: StorePort, histogram: _Observer) -> None:
        self._inner = inner
        self._histogram = histogram

    async def append(
        self,
        table_id: str,
        kind: str,
        payload: Mapping[str, Any],  # Any: a JSON object, as the port takes it
        *,
        idem_key: str | None = None,
        ledger: Sequence[LedgerRow] = (),
    ) -> int:
        started = time.perf_counter()
        seq = await self._inner.append(table_id, kind, payload, idem_key=idem_key, ledger=ledger)
        self._histogram.observe(time.perf_counter() - started)
        return seq

    async def events(self, table_id: str, after_seq: int = 0) -> list[LoggedEvent]:
        return await self._inner.events(table_id, after_seq)

    async def open_tables(self) -> list[str]:
        return await self._inner.open_tables()

    async def ledger_totals(self, table_id: str) -> dict[LedgerKind, int]:
        return await self._inner.ledger_totals(table_id)

    async def ledger_rows(self, table_id: str) -> list[LedgerEntry]:
        return await self._inner.ledger_rows(table_id)

    async def ledger_sums(self, table_id: str) -> dict[tuple[str, LedgerKind], int]:
        return await self._inner.ledger_sums(table_id)

    async def hand_totals(self, table_id: str) -> list[HandTotal]:
        return await self._inner.hand_totals(table_id)

    async def hand_events(
        self, table_id: str, hand_no: int, *, session: int | None = None
    ) -> list[LoggedEvent]:
        return await self._inner.hand_events(table_id, hand_no, session=session)

    async def seating(self, table_id: str, *, before_seq: int | None = None) -> list[LoggedEvent]:
        return await self._inner.seating(table_id, before_seq=before_seq)

    async def after_hand(
        self, table_id: str, hand_no: int, kinds: Sequence[str], *, session: int | None = None
    ) -> list[LoggedEvent]:
        return await self._inner.after_hand(table_id, hand_no, kinds, session=session)

    async def save_snapshot(
        self,
        table_id: str,
        seq: int,
        payload: Mapping[str, Any],  # Any: a JSON object, as the port takes it
    ) -> None:
        await self._inner.save_snapshot(table_id, seq, payload)

    async def latest_snapshot(
        self, table_id: str
    ) -> tuple[int, Mapping[str, Any]] | None:  # Any: a JSON object, as the port gives it
        return await self._inner.latest_snapshot(table_id)

    async def close(self) -> None:
        await self._inner.close()
