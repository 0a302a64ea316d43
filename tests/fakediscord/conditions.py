"""How harsh the fake Discord is: rate limits and seeded faults (off by default).

:class:`FakeConfig` is passed to :class:`~tests.fakediscord.FakeDiscord` (or set on
``fake.config``; see :meth:`FakeDiscord.configure`).  The default config is the old
fake: every request answered at once, nothing ever refused.  :meth:`FakeConfig.realistic`
is the preset ``python -m bench discord --realistic`` uses.

Rate limits follow Discord's documentation (topics/rate-limits) and what discord.py 2.7's
``http.py`` reads back:

- per-route buckets keyed by the route's bucket and its major parameter (``channel_id``,
  ``guild_id``, or the webhook id + token).  Every answer on a bucketed route carries
  ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After``
  (seconds) and ``-Bucket``; discord.py pre-emptively waits once ``Remaining`` is 0.
  Message creates and edits share one bucket per channel (5 per 5 s by default).
- a global limit per bot token (50 requests a second) that interaction endpoints do
  not count against: the callback (``POST /interactions/{id}/{token}/callback``) and
  the interaction's webhook (follow-ups, their edits and deletes).
- a refused request gets 429 with ``{"message", "retry_after", "global"}``, the
  ``Retry-After`` header and ``X-RateLimit-Scope`` (``user`` for a route bucket,
  ``global`` with ``X-RateLimit-Global: true`` for the global limit).  The ``Via``
  header is set as Discord's proxies do; without it discord.py takes a 429 for a
  Cloudflare ban and raises instead of waiting.

Faults are drawn from ``random.Random(seed)`` (one generator per kind of fault, so
turning one kind on does not shift the draws of another): the same seed and the same
order of requests give the same faults.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field

#: Routes that make up the connection handshake and command sync: never faulted, so a
#: bot always gets up (faults are about running, not about logging in).
HANDSHAKE_ROUTES = frozenset(
    {
        "GET /gateway",
        "GET /gateway/bot",
        "GET /users/@me",
        "GET /oauth2/applications/@me",
        "GET /applications/@me",
        "PUT /applications/{app_id}/commands",
        "GET /applications/{app_id}/commands",
        "PUT /applications/{app_id}/guilds/{guild_id}/commands",
        "GET /applications/{app_id}/guilds/{guild_id}/commands",
    }
)

#: Routes that do not count against the global limit (Discord: "interaction endpoints
#: are not bound to the bot's global rate limit"): the callback and the interaction's
#: webhook (follow-ups, and editing or deleting the original or a follow-up).
CALLBACK_ROUTE = "POST /interactions/{interaction_id}/{token}/callback"
WEBHOOK_ROUTES = frozenset(
    {
        "POST /webhooks/{app_id}/{token}",
        "GET /webhooks/{app_id}/{token}/messages/{message_id}",
        "PATCH /webhooks/{app_id}/{token}/messages/{message_id}",
        "DELETE /webhooks/{app_id}/{token}/messages/{message_id}",
    }
)
INTERACTION_ROUTES = frozenset({CALLBACK_ROUTE, *WEBHOOK_ROUTES})


@dataclass(frozen=True)
class Bucket:
    """A per-route rate limit: ``limit`` requests per ``window`` seconds."""

    name: str
    limit: int
    window: float


#: The bucket shared by message creates and edits in one channel.
MESSAGES = "channel-messages"


def default_buckets(channel_limit: int = 5, channel_window: float = 5.0) -> dict[str, Bucket]:
    """Route template -> bucket.  Only the per-channel message bucket is pinned down (the
    issue's 5 per 5 s); every other route gets its own bucket (named after the route, as
    Discord's opaque bucket hash is) with ``FakeConfig.route_default``'s numbers, so the
    global limit is what binds there.  Message deletes are such a separate bucket, as
    Discord's docs say."""
    messages = Bucket(MESSAGES, channel_limit, channel_window)
    return {
        "POST /channels/{channel_id}/messages": messages,
        "PATCH /channels/{channel_id}/messages/{message_id}": messages,
    }


@dataclass
class FakeConfig:
    """The knobs.  Every one is off in ``FakeConfig()``; mutate freely between steps.

    Rate limits: ``rate_limits`` switches them on; ``global_limit`` per ``global_window``
    seconds; ``buckets`` maps route templates (``"POST /channels/{channel_id}/messages"``)
    to :class:`Bucket`; other routes use ``route_default``; ``global_exempt`` lists
    routes that the global limit ignores.

    Faults: ``latency`` (lo, hi) seconds added to every REST request, uniform;
    ``error_rate`` the fraction of requests answered with one of ``error_statuses``
    (never the handshake routes); ``error_after_effect`` the fraction of those errors
    that come *after* the request took effect (the message was sent, the answer lost);
    ``late_interaction_rate`` the fraction of interactions that reach the bot after their
    3 s window (the callback answers 404 / 10062); ``gateway_drops_per_minute`` random
    gateway disconnects (the client resumes; the session replays what it missed), each
    followed by an outage of ``gateway_outage`` (lo, hi) seconds.
    """

    seed: int = 0
    rate_limits: bool = False
    global_limit: int = 50
    global_window: float = 1.0
    buckets: dict[str, Bucket] = field(default_factory=default_buckets)
    route_default: Bucket = Bucket("route", 50, 1.0)  # numbers for unlisted routes
    global_exempt: frozenset[str] = INTERACTION_ROUTES
    latency: tuple[float, float] | None = None
    error_rate: float = 0.0
    error_statuses: tuple[int, ...] = (500, 502, 503)
    error_after_effect: float = 0.0
    late_interaction_rate: float = 0.0
    gateway_drops_per_minute: float = 0.0
    gateway_outage: tuple[float, float] = (0.1, 2.0)

    @classmethod
    def realistic(cls, seed: int = 0, **overrides: object) -> FakeConfig:
        """Discord as a busy bot meets it: rate limits on, 50-300 ms latency, 3% 5xx."""
        base = cls(seed=seed, rate_limits=True, latency=(0.05, 0.3), error_rate=0.03)
        return dataclasses.replace(base, **overrides)  # type: ignore[arg-type]

    @classmethod
    def strict(cls, seed: int = 0, **overrides: object) -> FakeConfig:
        """Rate limits only: no latency, no faults (for tests of the limits alone)."""
        return dataclasses.replace(cls(seed=seed, rate_limits=True), **overrides)  # type: ignore[arg-type]

    def channel_bucket(self, limit: int, window: float) -> None:
        """Change the per-channel message create/edit bucket (tests use short windows)."""
        messages = Bucket(MESSAGES, limit, window)
        for route, bucket in list(self.buckets.items()):
            if bucket.name == MESSAGES:
                self.buckets[route] = messages


@dataclass
class _Window:
    limit: int
    window: float
    used: int = 0
    reset_at: float = 0.0  # loop time at which ``used`` returns to 0


@dataclass
class Verdict:
    """What the limiter decided for one request."""

    limited: str | None = None  # None, "global" or "route"
    retry_after: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


class RateLimiter:
    """Discord's global and per-route limits, on the event loop's clock."""

    def __init__(self, config: FakeConfig) -> None:
        self.config = config
        self._global = _Window(config.global_limit, config.global_window)
        self._routes: dict[tuple[str, str], _Window] = {}

    def bucket_for(self, route: str) -> Bucket:
        bucket = self.config.buckets.get(route)
        if bucket is not None:
            return bucket
        default = self.config.route_default
        digest = hashlib.sha1(route.encode()).hexdigest()[:12]
        return Bucket(f"{default.name}-{digest}", default.limit, default.window)

    def check(self, route: str, major: str, now: float) -> Verdict:
        """Admit or refuse one request on ``route`` (template) for ``major`` (its id)."""
        cfg = self.config
        if route not in cfg.global_exempt:
            g = self._global
            g.limit, g.window = cfg.global_limit, cfg.global_window
            if now >= g.reset_at:
                g.used, g.reset_at = 0, now + g.window
            if g.used >= g.limit:
                retry = max(g.reset_at - now, 0.001)
                headers = {
                    "Retry-After": str(math.ceil(retry)),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                }
                return Verdict("global", retry, headers)
        else:
            g = None
        bucket = self.bucket_for(route)
        if route == CALLBACK_ROUTE:
            # Callbacks are answered once per interaction: no bucket to report.
            if g is not None:
                g.used += 1
            return Verdict()
        key = (bucket.name, major)
        w = self._routes.get(key)
        if w is None:
            w = self._routes[key] = _Window(bucket.limit, bucket.window)
        w.limit, w.window = bucket.limit, bucket.window
        if now >= w.reset_at:
            w.used, w.reset_at = 0, now + w.window
        reset_after = max(w.reset_at - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(w.limit),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket.name,
        }
        if w.used >= w.limit:
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Scope"] = "user"
            headers["Retry-After"] = str(math.ceil(reset_after))
            return Verdict("route", max(reset_after, 0.001), headers)
        w.used += 1
        if g is not None:
            g.used += 1
        headers["X-RateLimit-Remaining"] = str(w.limit - w.used)
        return Verdict(None, 0.0, headers)


class Faults:
    """Seeded fault draws, one ``random.Random`` per kind of fault."""

    def __init__(self, config: FakeConfig) -> None:
        self.config = config
        seed = config.seed
        self.latency_rng = random.Random(f"{seed}:latency")
        self.error_rng = random.Random(f"{seed}:errors")
        self.late_rng = random.Random(f"{seed}:late")
        self.gateway_rng = random.Random(f"{seed}:gateway")
        #: Faults injected so far, by kind ("500", "late_interaction", "gateway_drop"...).
        self.injected: Counter[str] = Counter()
        #: Errors a test asked for (:meth:`fail_next`): route -> [status, after, left].
        self._scripted: dict[str, list[int | bool]] = {}
        #: The routes failed by :meth:`fail_next` so far, in order.
        self.scripted_failed: list[str] = []

    def fail_next(
        self, route: str, status: int, *, after_effect: bool = False, times: int = 1
    ) -> list[str]:
        """Answer the next ``times`` requests on ``route`` (a key such as
        ``"PATCH /channels/{channel_id}/messages/{message_id}"``) with ``status``;
        ``after_effect``: once each took effect (the answer lost). Besides the seeded
        draws. Returns :attr:`scripted_failed`, the routes failed so far."""
        self._scripted[route] = [status, after_effect, times]
        return self.scripted_failed

    def latency(self) -> float:
        lo_hi = self.config.latency
        if not lo_hi:
            return 0.0
        return self.latency_rng.uniform(*lo_hi)

    def error(self, route: str) -> tuple[int, bool] | None:
        """``(status, after_effect)`` if this request fails, else None."""
        script = self._scripted.get(route)
        if script is not None and script[2] > 0:
            script[2] -= 1
            self.scripted_failed.append(route)
            self.injected[str(script[0])] += 1
            return int(script[0]), bool(script[1])
        cfg = self.config
        if cfg.error_rate <= 0 or route in HANDSHAKE_ROUTES:
            return None
        if self.error_rng.random() >= cfg.error_rate:
            return None
        status = self.error_rng.choice(cfg.error_statuses)
        after = self.error_rng.random() < cfg.error_after_effect
        self.injected[str(status)] += 1
        if after:
            self.injected["after_effect"] += 1
        return status, after

    def late_interaction(self) -> bool:
        rate = self.config.late_interaction_rate
        if rate <= 0 or self.late_rng.random() >= rate:
            return False
        self.injected["late_interaction"] += 1
        return True

    def next_gateway_drop(self) -> float | None:
        """Seconds until the next random gateway drop (exponential), or None if off."""
        per_minute = self.config.gateway_drops_per_minute
        if per_minute <= 0:
            return None
        return self.gateway_rng.expovariate(per_minute / 60.0)

    def outage(self) -> float:
        return self.gateway_rng.uniform(*self.config.gateway_outage)
