"""pytest fixtures and helpers to run a discord.py bot against the fake.

Import into a conftest with::

    from tests.fakediscord.fixtures import fake_discord  # noqa: F401

and start a bot with ``async with run_bot(fake, bot): ...`` (``run_bot`` lives in
:mod:`tests.fakediscord.runner`, which needs no pytest; it is re-exported here).

A test picks harsher conditions with a marker (default: none)::

    @pytest.mark.fakediscord(FakeConfig.realistic(seed=7))
    async def test_x(fake_discord): ...
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from .conditions import FakeConfig
from .runner import TOKEN, run_bot
from .server import FakeDiscord

__all__ = ["TOKEN", "fake_discord", "run_bot"]


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
