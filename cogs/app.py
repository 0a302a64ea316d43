"""The Discord entry point: builds the ``commands.Bot``, loads the cogs, syncs, runs.

``python -m bot`` calls :func:`run` when a DISCORD_TOKEN is set. Intents are minimal:
guilds only (no message content): everything arrives as interactions.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.config import Config
from bot.table.ports import StorePort, open_store
from bot.table.service import TableService

log = logging.getLogger(__name__)


class ChipfistBot(commands.Bot):
    """A bot holding one table service; the presenter is the cogs' ``DiscordPresenter``."""

    def __init__(
        self,
        database: str,
        *,
        store: StorePort | None = None,
        sync: bool = True,
        clocks: bool = True,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **options)
        from cogs.presenter import DiscordPresenter

        self.database = database
        self._store = store
        self._sync = sync
        self._clocks = clocks
        self.presenter = DiscordPresenter(self)
        self.service: TableService | None = None

    async def setup_hook(self) -> None:
        from cogs.components import BUTTON_EVENT, DRAW_EVENT, CfButton, DrawSelect
        from cogs.errors import on_tree_error
        from cogs.play import on_button, on_draw, on_modal_interaction, on_stale_component

        store = self._store or await open_store(self.database)
        self.service = TableService(store, self.presenter)
        self.presenter.service = self.service
        halted = await self.service.recover()
        if halted:
            log.warning("tables halted at start: %s", halted)
        from cogs.prefs import load_notify_modes, load_table_messages

        self.presenter.ping_mode.update(await load_notify_modes(store))
        # Edit the table messages players already have rather than post new ones.
        self.presenter.table_msgs.update(await load_table_messages(store))
        # Every inbound path to the play functions, in one place: the dynamic items
        # dispatch their clicks as events (components never imports play).
        self.add_dynamic_items(CfButton, DrawSelect)
        self.add_listener(on_button, "on_" + BUTTON_EVENT)
        self.add_listener(on_draw, "on_" + DRAW_EVENT)
        self.add_listener(on_modal_interaction, "on_interaction")
        self.add_listener(on_stale_component, "on_interaction")
        self.tree.on_error = on_tree_error  # type: ignore[method-assign]  # as discord.py documents
        await self.load_extension("cogs.table_cog")
        if self._sync:
            await self.tree.sync()
        if self._clocks:
            self.service.start_clocks()

    async def close(self) -> None:
        if self.service is not None:
            await self.service.stop()
        await self.presenter.drain()
        await self.presenter.close()
        await super().close()
        if self.service is not None:
            await self.service.store.close()


def run(config: Config) -> int:
    if not config.discord_token:
        raise SystemExit("DISCORD_TOKEN is not set")
    bot = ChipfistBot(config.database)
    bot.run(config.discord_token)
    return 0
