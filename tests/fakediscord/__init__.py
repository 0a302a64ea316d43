"""An in-process fake Discord (REST + gateway) for Chipfist's end-to-end tests.

The real discord.py client connects to it unmodified; tests drive players with
``slash``/``click``/``submit_modal``/``say`` and inspect what each user can see.

Modules: ``server`` (the :class:`FakeDiscord` API, HTTP routes and gateway),
``state`` (users, channels, messages, interactions, deliveries), ``limits``
(Discord's message/component/embed limits), ``conditions`` (rate limits and seeded
faults: :class:`FakeConfig`), ``runner`` (:func:`run_bot`, no pytest) and ``fixtures``
(pytest glue).

By default the fake answers every request at once and never says no.  Harsher
conditions are switched on per test with a :class:`FakeConfig` (``FakeDiscord(config=...)``,
``fake.configure(...)``, or ``@pytest.mark.fakediscord(FakeConfig(...))`` on a test that
uses the ``fake_discord`` fixture).  The knobs (all off in ``FakeConfig()``):

- ``rate_limits``: Discord's limits.  Per-route buckets (``buckets``: route template ->
  :class:`Bucket`, others ``route_default``) per major parameter, with the
  ``X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket`` headers; message
  creates and edits share one bucket per channel, 5 per 5 s
  (``config.channel_bucket(limit, window)`` to change it); a global limit of
  ``global_limit`` (50) per ``global_window`` (1 s) that interaction endpoints
  (``global_exempt``: callbacks and the interaction webhook) do not count against.
  Refusals are 429 with ``retry_after``, ``global``, ``message``, ``Retry-After``
  and ``X-RateLimit-Scope`` (plus ``X-RateLimit-Global`` for the global limit).
- ``latency=(lo, hi)``: seconds added to each REST request, uniform.
- ``error_rate``: fraction of requests answered with one of ``error_statuses``
  (500/502/503; never the login/gateway/command-sync routes); ``error_after_effect``:
  fraction of those that fail after the request took effect (the answer is lost).
  Note discord.py's HTTPClient retries 500/502/504/524 but raises on 503, while its
  webhook adapter (interaction callbacks and follow-ups) retries every 5xx.
- ``late_interaction_rate``: fraction of interactions delivered after their 3 s window
  (their callback answers 404 / 10062); ``slash(..., late=True)`` / ``click(...,
  late=True)`` does it for one.
- ``gateway_drops_per_minute`` / ``gateway_outage``: random gateway drops; the client
  RESUMEs and the fake replays every dispatch it missed (``fake.drop_gateway(outage=s)``
  does one now; ``fake.invalidate_session()`` forces a fresh IDENTIFY).
- ``seed``: every draw comes from ``random.Random`` seeded with it (one per fault kind).
- ``FakeConfig.realistic(seed)``: rate limits on, 50-300 ms latency, 3% 5xx (the bench's
  ``--realistic``); ``FakeConfig.strict(seed)``: rate limits only.

Message creates honour ``enforce_nonce``, as Discord does: a create with the nonce of
one made in that channel within ``fake.nonce_window`` (120 s) returns that message and
posts nothing (``fake.nonce_hits`` counts them; discord.py sends every message with a
nonce and ``enforce_nonce``, so its own retries after a 5xx never post twice).

Interaction tokens expire after ``fake.token_lifetime`` (15 min): follow-ups and edits
then answer 401 / 50027 Invalid Webhook Token (``fake.expire_interaction(record)`` ages
one).  Moderation, as a test triggers it: ``revoke(channel, "attach_files")`` /
``grant`` (CHANNEL_UPDATE with the bot's member overwrite; sends answer 403 / 50013),
``delete_channel(channel_or_thread)`` (CHANNEL_DELETE / THREAD_DELETE; then 404 / 10003),
``remove_member(user)`` (GUILD_MEMBER_REMOVE only with the GUILD_MEMBERS intent, as on
Discord), ``remove_bot()`` / ``readd_bot()`` (GUILD_DELETE / GUILD_CREATE; then 403 /
50001).  Counters: ``requests_by_route``, ``global_requests`` (and ``_by_route``),
``requests_by_kind`` ("global", "interaction"), ``rate_limited`` and
``rate_limited_by_kind`` ("global", "route", "injected"), ``rate_limited_by_bucket``,
``rate_limit_log`` ((loop time, kind, route) per 429),
``faults.injected`` (by status and kind); ``reset_counts()`` zeroes them all.
``watchers``: callables called with ``(message, route)`` whenever the fake applies a
payload to a message (how ``bench discord --realistic`` times what players see).

Guilds and shards: ``FakeDiscord(shards=N, max_concurrency=M)`` answers ``GET
/gateway/bot`` with N shards (and M identifies per 5 s); ``await fake.add_guild(name,
shard=k)`` adds a guild on shard k (by Discord's formula ``(guild_id >> 22) % N``) with
its channels (``fake.guild_channels(guild)``). An IDENTIFY with ``shard: [id, count]``
gets a session (:class:`~server.GatewaySession`, in ``fake.sessions``) whose READY and
GUILD_CREATEs carry only that shard's guilds; every guild event and interaction goes
only to the sessions of its guild's shard (guild-less ones to shard 0), each session
with its own sequence and RESUME buffer. A client closing with 1000/1001 ends its
session; a dropped connection leaves it resumable. An interaction for a shard with no
session reaches no one (``record.sessions == 0``): to the player it is "This
interaction failed" (``fake.failed_interactions()``, which also lists those left
unanswered past their 3 s window). ``fake.live_sessions(shard)`` lists who is connected.

Usage in a test (with ``fake_discord`` imported into the conftest)::

    from tests.fakediscord.fixtures import run_bot

    async def test_table(fake_discord):
        bot = make_bot(**FakeDiscord.client_options())
        async with run_bot(fake_discord, bot, sync=True):
            alice = fake_discord.user("alice")
            await fake_discord.slash(alice, "table create", seats=6)
            table = fake_discord.last_message()
            await fake_discord.click(alice, table, "table:join")
            for delivery in fake_discord.visible_to(alice):
                assert "bob's cards" not in delivery.text()
"""

from .conditions import Bucket, FakeConfig
from .server import FakeDiscord, FakeDiscordError
from .state import (
    EPHEMERAL,
    PUBLIC,
    Delivery,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeUser,
    audience_includes,
    members_audience,
    private,
)

__all__ = [
    "EPHEMERAL",
    "PUBLIC",
    "Bucket",
    "Delivery",
    "FakeAttachment",
    "FakeChannel",
    "FakeConfig",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeInteraction",
    "FakeMessage",
    "FakeModal",
    "FakeUser",
    "audience_includes",
    "members_audience",
    "private",
]
