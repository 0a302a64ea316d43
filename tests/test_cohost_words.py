"""R-20.86: the slash commands' texts and the permission refusal name co-hosts, who may
pause, close and change the settings of a table (R-20.80)."""

from __future__ import annotations

import pytest
from discord import app_commands

from bot.words import SUPPORTED, Locale
from cogs.errors import friendly
from cogs.translator import Entry
from tests.test_commands_i18n import _catalogue, tree_entries

__all__ = ["tree_entries"]  # the fixture, used by name below

CO_HOST = {
    "en": "co-host",
    "de": "Co-Gastgeber",
    "fr": "co-hôte",
    "es": "coanfitrión",
    "pt_BR": "coanfitrião",
    "ru": "помощник",
}
MODERATOR = {
    "en": "moderator",
    "de": "Moderator",
    "fr": "modérateur",
    "es": "moderador",
    "pt_BR": "moderador",
    "ru": "модератор",
}
CO_HOST_COMMANDS = ("cmd.table.pause", "cmd.table.close", "cmd.table.settings")


@pytest.mark.parametrize("locale", SUPPORTED)
async def test_R_20_86_the_commands_a_co_host_may_use_name_him(
    tree_entries: list[Entry], locale: Locale
) -> None:
    english = {e.key: e.english for e in tree_entries}
    theirs = _catalogue(locale)
    for command in CO_HOST_COMMANDS:
        key = f"{command}.description"
        assert "co-host" in english[key], english[key]  # the cog's own text
        assert CO_HOST[locale] in theirs[key] and MODERATOR[locale] in theirs[key], (
            locale,
            theirs[key],
        )


@pytest.mark.parametrize("locale", SUPPORTED)
def test_R_20_86_the_permission_refusal_names_who_may(locale: Locale) -> None:
    said = friendly(app_commands.MissingPermissions(["manage_channels"]), locale=locale)
    assert CO_HOST[locale] in said and MODERATOR[locale] in said, said
