"""Run a discord.py bot against the fake: :func:`run_bot`. No pytest here, so the
Discord benchmark (``python -m bench discord``) can use it too."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TypeVar

import discord

from .server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)

TOKEN = "fake-token"


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
