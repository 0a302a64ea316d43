"""Test only: run ``python -m bot`` in its own process against a fake Discord.

``FAKEDISCORD_URL=http://127.0.0.1:PORT python -m tests.fakediscord.launch [args]`` points
discord.py at the fake (the same three addresses :meth:`FakeDiscord.patch` sets in the
test process), shortens the wait for guilds at READY, then runs ``bot.__main__.main``
unchanged: the real settings, signal handling, store and shutdown. Production code has
no setting for this; only this launcher can send the bot anywhere but Discord.
"""

from __future__ import annotations

import os
import sys

import discord
import yarl


def point_at(base: str) -> None:
    discord.http.Route.BASE = base + "/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        base.replace("http://", "ws://", 1) + "/gateway"
    )
    discord.asset.Asset.BASE = base + "/cdn"
    original = discord.Client.__init__

    def init(self: discord.Client, *args: object, **options: object) -> None:
        options.setdefault("guild_ready_timeout", 0.05)
        original(self, *args, **options)  # type: ignore[arg-type]

    discord.Client.__init__ = init  # type: ignore[method-assign]


if __name__ == "__main__":
    point_at(os.environ["FAKEDISCORD_URL"])
    from bot.__main__ import main

    sys.exit(main(sys.argv[1:]))
