"""The Discord entry point: ``python -m bot`` calls :func:`run` when a DISCORD_TOKEN is
set. It builds the bot (:class:`cogs.bot.ChipfistBot`, which wires the cogs), runs it
until SIGTERM or SIGINT and stops gracefully. Intents are minimal: guilds, and members
only to hear that a seated player left the server (R-16.12; without it if Discord
refuses it); no message content: everything arrives as interactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time

import discord

from bot.config import Config
from bot.store import DatabaseInUse, is_postgres
from cogs import discord_internals
from cogs.bot import RESTARTING, SYNC_LOG, SYNCED, ChipfistBot, make_bot
from cogs.metrics import Metrics

log = logging.getLogger(__name__)

__all__ = ["RESTARTING", "SYNCED", "SYNC_LOG", "ChipfistBot", "run", "serve"]


def _metrics(config: Config) -> Metrics | None:
    if not config.metrics_port:
        return None
    metrics = Metrics(config.metrics_port, host=config.metrics_host)
    port = metrics.start()
    log.info("metrics on http://%s:%s/metrics", config.metrics_host, port)
    return metrics


async def serve(config: Config, *, force_sync: bool = False) -> int:
    """Run the bot until SIGTERM/SIGINT (exit 0) or a fatal error (non-zero)."""
    assert config.discord_token
    changed = discord_internals.problems()
    if changed:
        # The bot patches a few of discord.py's private parts (cogs/discord_internals.py):
        # with one of them moved, it would fail later, in front of players.
        for line in changed:
            log.error("refusing to start: %s", line)
        log.error("install a discord.py version this bot supports (pyproject.toml)")
        return 2
    try:
        metrics = _metrics(config)
    except Exception as exc:  # the package is missing, or the port is taken
        log.error("cannot serve metrics on port %s: %s", config.metrics_port, exc)
        return 2
    folder = os.path.dirname(config.database) or "."
    if not is_postgres(config.database) and not os.path.isdir(folder):
        log.error(
            "refusing to start: CHIPFIST_DB %s: the folder %s does not exist",
            config.database,
            folder,
        )
        return 2
    if config.shard_count and not is_postgres(config.database) and config.standby:
        log.error("CHIPFIST_STANDBY needs a postgresql:// CHIPFIST_DB (shared with the owners)")
        return 2
    try:
        bot = make_bot(config, force_sync=force_sync, metrics=metrics)
    except ValueError as exc:
        log.error("%s", exc)
        return 2
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        # Not on Windows' default loop: there Ctrl-C still ends the process.
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(config.discord_token), name="discord")
    stopper = asyncio.create_task(stop.wait(), name="signals")
    await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if stop.is_set():
        started = time.monotonic()
        log.info("stop requested: finishing the commands in flight")
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(runner, timeout=0.5)
        log.info("stopped cleanly in %.1f s", time.monotonic() - started)
        return 0
    stopper.cancel()
    failure = runner.exception()
    await bot.close()
    if isinstance(failure, discord.LoginFailure):
        log.error("Discord refused the token (DISCORD_TOKEN): %s", failure)
        return 3
    if isinstance(failure, discord.PrivilegedIntentsRequired):
        log.error("%s", failure)
        return 3
    if isinstance(failure, DatabaseInUse):
        log.error("refusing to start: %s", failure)  # one line: no traceback to read
        return 2
    if failure is not None:
        log.error("the bot stopped: %s", failure, exc_info=failure)
        return 1
    return 0


def run(config: Config, *, force_sync: bool = False) -> int:
    if not config.discord_token:
        raise SystemExit("DISCORD_TOKEN is not set")
    return asyncio.run(serve(config, force_sync=force_sync))
