"""An in-process fake Discord (REST + gateway) for Chipfist's end-to-end tests.

The real discord.py client connects to it unmodified; tests drive players with
``slash``/``click``/``submit_modal``/``say`` and inspect what each user can see.

Modules: ``server`` (the :class:`FakeDiscord` API, HTTP routes and gateway),
``state`` (users, channels, messages, interactions, deliveries), ``limits``
(Discord's message/component/embed limits), ``runner`` (:func:`run_bot`, no pytest)
and ``fixtures`` (pytest glue).

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
    "Delivery",
    "FakeAttachment",
    "FakeChannel",
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
