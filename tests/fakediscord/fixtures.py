"""pytest fixtures and helpers to run a discord.py bot against the fake.

Import into a conftest with::

    from tests.fakediscord.fixtures import fake_discord  # noqa: F401

and start a bot with ``async with run_bot(fake, bot): ...``.  A test picks harsher
conditions with a marker (default: none)::

    @pytest.mark.fakediscord(FakeConfig.realistic(seed=7))
    async def test_x(fake_discord): ...
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import warnings
from collections.abc import AsyncIterator
from typing import TypeVar

import discord
import pytest
import pytest_asyncio

from .conditions import FakeConfig
from .server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)

TOKEN = "fake-token"


@pytest_asyncio.fixture
async def fake_discord(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[FakeDiscord]:
    """A started :class:`FakeDiscord` with discord.py pointed at it; its
    :class:`FakeConfig` comes from a ``fakediscord`` marker, if any."""
    marker = request.node.get_closest_marker("fakediscord")
    config: FakeConfig | None = None
    if marker is not None:
        given = marker.args[0] if marker.args else FakeConfig(**marker.kwargs)
        config = copy.deepcopy(given)  # a marker object is shared; tests may mutate theirs
    fake = FakeDiscord(token=TOKEN, config=config)
    await fake.start()
    fake.patch(monkeypatch)
    try:
        yield fake
    finally:
        await fake.stop()
    if fake.unhandled:
        # A route the fake lacks: the bot got a 404 it would not get from Discord.
        warnings.warn(f"fake Discord did not handle: {fake.unhandled}", stacklevel=1)


@contextlib.asynccontextmanager
async def run_bot(
    fake: FakeDiscord,
    client: ClientT,
    *,
    sync: bool = False,
    timeout: float = 5.0,
) -> AsyncIterator[ClientT]:
    """Start ``client`` against ``fake``, wait for READY, and close it afterwards.

    Build the client with ``**FakeDiscord.client_options()`` so READY is fast.
    ``sync=True`` syncs ``client.tree`` (if any) globally once ready, so
    ``fake.slash`` can find the commands.
    """
    task = asyncio.create_task(client.start(fake.token), name="fake-discord-bot")
    ready = asyncio.create_task(client.wait_until_ready())
    try:
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when="FIRST_COMPLETED")
        if task in done:
            task.result()  # surfaces the login/connect error
            raise RuntimeError("bot stopped before it was ready")
        if ready not in done:
            raise TimeoutError(f"bot not ready within {timeout}s")
        tree = getattr(client, "tree", None)
        if sync and isinstance(tree, discord.app_commands.CommandTree):
            await tree.sync()
        yield client
    finally:
        ready.cancel()
        await client.close()
        with contextlib.suppress(asyncio.CancelledError, discord.DiscordException):
            await asyncio.wait_for(task, timeout)
