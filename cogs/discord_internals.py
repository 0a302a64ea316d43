"""Every private part of discord.py the bot touches, in one place, checked at start.

discord.py has no public way to do these few things, so the bot reaches into its
internals here and nowhere else:

* the webhook adapter interactions are answered through
  (``discord.webhook.async_.AsyncWebhookAdapter.request`` and the ``async_context``
  context variable): fast retries of a 5xx (``cogs/callback_retry.py``);
* the REST client's learnt rate-limit buckets (``HTTPClient._buckets``,
  ``_bucket_hashes``, ``Route.key``, ``Route.major_parameters``; a bucket's ``limit``,
  ``remaining``, ``expires``): the table message waits for room before it sends
  (``cogs/ops.py``);
* the connection state's gateway parsers (``ConnectionState.parsers``): every
  ``INTERACTION_CREATE`` goes through the stop's gate (``cogs/bot.py``);
* the connection state's intents (``ConnectionState._intents``): dropping the members
  intent when Discord refuses it;
* ``AutoShardedClient.launch_shard(gateway, shard_id)`` with
  ``DiscordWebSocket.DEFAULT_GATEWAY``, and ``ConnectionState.shard_ids``: connecting
  one more gateway shard taken over from another process;
* ``VoiceClient.warn_nacl`` / ``warn_dave``: silencing voice warnings the bot has no
  use for;
* ``Command`` / ``Group`` / ``ContextMenu.get_translated_payload(tree, translator)``
  (undocumented: what ``CommandTree.sync`` sends, translations included): the hash of
  the synced commands (``cogs/bot.py``), so a changed translation is synced.

:func:`problems` checks that each exists with the shape the code relies on (names,
parameters) in the installed discord.py; the bot refuses to start with one line per
change (``cogs/app.py``), and ``tests/test_discord_internals.py`` fails the same way,
so a discord.py upgrade that moves one of them is caught by CI, not by players. The
versions it was checked on: ``pyproject.toml``'s range and ``constraints.txt``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, MutableMapping
from typing import Any

import discord
import discord.gateway
import discord.http
from discord import state as connection
from discord.webhook import async_ as webhook_async

AsyncWebhookAdapter = webhook_async.AsyncWebhookAdapter
"""The base of ``cogs.callback_retry.CallbackAdapter``."""

Route = discord.http.Route


def use_adapter(adapter: Any, kind: type) -> None:  # Any: an AsyncWebhookAdapter
    """Make the current context's interactions go through ``adapter`` (unless one of
    ``kind`` already does): discord.py reads the adapter from a context variable."""
    if not isinstance(webhook_async.async_context.get(), kind):
        webhook_async.async_context.set(adapter)


def rate_limit_bucket(http: Any, route: discord.http.Route) -> Any:  # Any: private types
    """discord.py's learnt bucket for ``route`` (with ``limit``, ``remaining`` and
    ``expires``), or None if it has not seen one."""
    known = http._bucket_hashes.get(route.key)
    key = f"{known or route.key}:{route.major_parameters}"
    return http._buckets.get(key)


# Any: a gateway payload, as discord.py types its parsers.
def parsers(client: discord.Client) -> MutableMapping[str, Callable[[Any], None]]:
    """The gateway event parsers of ``client`` (event name -> parser of its payload)."""
    result: MutableMapping[str, Callable[[Any], None]] = client._connection.parsers  # Any: ditto
    return result


def drop_intents(client: discord.Client, intents: discord.Intents) -> None:
    """Identify from now on without ``intents`` (there is no public setter)."""
    state = client._connection
    state._intents = discord.Intents(value=state.intents.value & ~intents.value)


def connection_state(client: discord.Client) -> connection.ConnectionState[Any]:  # Any: its client
    return client._connection


async def launch_shard(client: discord.AutoShardedClient, shard: int) -> None:
    """Connect one more gateway shard of a running sharded client."""
    state = client._connection
    state.shard_ids = sorted({*(state.shard_ids or []), shard})
    await client.launch_shard(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, shard)


def forget_shard(client: discord.AutoShardedClient, shard: int) -> None:
    state = client._connection
    state.shard_ids = [s for s in (state.shard_ids or []) if s != shard]


def set_no_shards(client: discord.AutoShardedClient, count: int | None) -> None:
    """A sharded client that connects no shard yet (a standby)."""
    client._connection.shard_count = count
    client._connection.shard_ids = []


def quiet_voice_warnings() -> None:
    """The bot has no voice: no warning about voice libraries at start."""
    for name in ("warn_nacl", "warn_dave"):
        if hasattr(discord.VoiceClient, name):
            setattr(discord.VoiceClient, name, False)


# ---------------------------------------------------------------------- the check


def _params(function: Any) -> list[str]:  # Any: any callable inspect can read
    return [p for p in inspect.signature(function).parameters if p != "self"]


def _attributes_set_in(cls: type, names: tuple[str, ...]) -> list[str]:
    """Those of ``names`` that ``cls.__init__`` never assigns (``self.NAME =``)."""
    try:
        source = inspect.getsource(vars(cls)["__init__"])
    except (OSError, TypeError, KeyError):
        return list(names)
    return [n for n in names if f"self.{n} =" not in source and f"self.{n}:" not in source]


REQUEST_PARAMS = [
    "route",
    "session",
    "payload",
    "multipart",
    "proxy",
    "proxy_auth",
    "files",
    "reason",
    "auth_token",
    "params",
]


def problems() -> list[str]:
    """What in the installed discord.py differs from what this module relies on (empty
    when nothing does)."""
    out: list[str] = []

    def need(ok: bool, what: str) -> None:
        if not ok:
            out.append(f"discord.py {discord.__version__}: {what}")

    adapter = getattr(webhook_async, "AsyncWebhookAdapter", None)
    need(adapter is not None, "discord.webhook.async_.AsyncWebhookAdapter is gone")
    if adapter is not None:
        need(
            _params(adapter.request) == REQUEST_PARAMS,
            f"AsyncWebhookAdapter.request takes {_params(adapter.request)}, not {REQUEST_PARAMS}",
        )
    context = getattr(webhook_async, "async_context", None)
    need(
        context is not None and hasattr(context, "get") and hasattr(context, "set"),
        "discord.webhook.async_.async_context (a ContextVar) is gone",
    )
    need(
        isinstance(context.get(), adapter) if context is not None and adapter else False,
        "async_context no longer holds an AsyncWebhookAdapter",
    )
    route = Route(
        "PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=0
    )
    for name in ("key", "major_parameters", "method", "path"):
        need(hasattr(route, name), f"Route.{name} is gone")
    missing = _attributes_set_in(discord.http.HTTPClient, ("_buckets", "_bucket_hashes"))
    need(not missing, f"HTTPClient no longer keeps {missing}")
    missing = _attributes_set_in(discord.http.Ratelimit, ("limit", "remaining", "expires"))
    need(not missing, f"Ratelimit no longer keeps {missing}")
    state_cls = connection.ConnectionState
    missing = _attributes_set_in(state_cls, ("_intents", "parsers", "shard_count"))
    need(not missing, f"ConnectionState no longer keeps {missing}")
    need(
        isinstance(getattr(state_cls, "intents", None), property),
        "ConnectionState.intents is not a property",
    )
    need(
        callable(getattr(state_cls, "parse_interaction_create", None)),
        "ConnectionState has no parse_interaction_create (the INTERACTION_CREATE parser)",
    )
    shard_state = getattr(connection, "AutoShardedConnectionState", None)
    need(
        shard_state is not None and not _attributes_set_in(shard_state, ("shard_ids",)),
        "AutoShardedConnectionState no longer keeps shard_ids",
    )
    launch = getattr(discord.AutoShardedClient, "launch_shard", None)
    need(
        launch is not None and _params(launch)[:2] == ["gateway", "shard_id"],
        "AutoShardedClient.launch_shard(gateway, shard_id) is gone or changed",
    )
    need(
        bool(getattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", None)),
        "DiscordWebSocket.DEFAULT_GATEWAY is gone",
    )
    app = discord.app_commands
    for kind in (app.Command, app.Group, app.ContextMenu):
        payload = getattr(kind, "get_translated_payload", None)
        need(
            payload is not None and _params(payload)[:2] == ["tree", "translator"],
            f"{kind.__name__}.get_translated_payload(tree, translator) is gone or changed",
        )
    need(
        getattr(getattr(discord.ui, "view", None), "BaseView", None) is not None,
        "discord.ui.view.BaseView is missing (discord.py 2.6 or newer is needed)",
    )
    return out
