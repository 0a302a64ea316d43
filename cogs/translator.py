"""Slash commands in every player's language: discord.py's ``app_commands.Translator``
reading the ``commands`` catalogue (bot/words/locales/<lang>/LC_MESSAGES/commands.po).

Discord keeps, for each command, option and choice, one text per client locale
(``description_localizations``, ``name_localizations``) and shows each user the one of
his client's language, in a server or in a DM alike (a DM has no server locale, and the
command list does not need one). ``CommandTree.sync`` asks the translator for each of
them; this one answers for Discord's codes of our languages (``DISCORD_CODES``: de, fr,
es-ES, es-419, pt-BR, ru) and leaves English to the command's own text.

The catalogue keys come from the command path, so no cog has to name them:

* ``cmd.table.description``, ``cmd.table.create.description``: a group, a command;
* ``cmd.table.create.opt.variant.description``: an option;
* ``cmd.table.create.opt.declare.choice.simultaneous``: a choice, by its value.

Command and option NAMES are never translated: Discord's clients have trouble with
localized names (discord-api-docs #5462, #5105, #5001: commands that cannot be typed or
found, options shown under the wrong name), and the help and the replies say ``/sit``
to everybody. A choice carries no link to its command, so choices are found by their
name and value in the tree (two commands offering the same choice get the same words;
``tests/test_commands_i18n.py`` holds the catalogue to that).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import TranslationContextTypes, locale_str

from bot.words import Locale, translations
from bot.words.locales import DEFAULT, DISCORD_CODES

log = logging.getLogger(__name__)

MAX_DESCRIPTION: Final = 100
"""Discord's limit on a command's or an option's description, in every locale."""
MAX_CHOICE_NAME: Final = 100
"""Discord's limit on a choice's name, in every locale."""

OURS: Final[dict[str, Locale]] = {
    code: ours for ours, codes in DISCORD_CODES.items() if ours != DEFAULT for code in codes
}
"""Discord's locale codes we translate into, and our language for each."""

# Any: a command of any cog, with any callback.
AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group
Tree = app_commands.CommandTree[Any]  # Any: the tree of any client


@dataclass(frozen=True)
class Entry:
    """One text of the synced commands: its catalogue key, its English and its limit."""

    key: str
    english: str
    limit: int


def _path(command: AnyCommand) -> str:
    return "cmd." + command.qualified_name.replace(" ", ".")


def description_key(command: AnyCommand) -> str:
    return f"{_path(command)}.description"


def option_key(command: AnyCommand, option: str) -> str:
    return f"{_path(command)}.opt.{option}.description"


def choice_key(command: AnyCommand, option: str, value: object) -> str:
    return f"{_path(command)}.opt.{option}.choice.{value}"


def entries(tree: Tree) -> Iterator[Entry]:
    """Every text the tree syncs that a language can translate (its global commands),
    with its key: what ``commands.po`` must hold."""
    for command in tree.walk_commands():
        yield Entry(description_key(command), command.description, MAX_DESCRIPTION)
        if isinstance(command, app_commands.Group):
            continue
        for param in command.parameters:
            yield Entry(option_key(command, param.name), param.description, MAX_DESCRIPTION)
            for choice in param.choices:
                key = choice_key(command, param.name, choice.value)
                yield Entry(key, choice.name, MAX_CHOICE_NAME)


class CommandTranslator(app_commands.Translator):
    """The descriptions and choice names of ``tree``'s commands from the catalogue."""

    def __init__(self, tree: Tree) -> None:
        self._tree = tree
        self._choices: dict[tuple[str, object], str] = {}
        self._indexed: tuple[int, ...] | None = None

    def _choice_key(self, choice: app_commands.Choice[Any]) -> str | None:  # Any: its value
        """The key of a choice the tree offers (None for one it does not: an
        autocomplete suggestion). Indexed again when the tree's commands change."""
        seen = tuple(id(c) for c in self._tree.get_commands())
        if seen != self._indexed:
            self._choices = {}
            for command in self._tree.walk_commands():
                if isinstance(command, app_commands.Command):
                    for param in command.parameters:
                        for c in param.choices:
                            key = choice_key(command, param.name, c.value)
                            self._choices.setdefault((c.name, c.value), key)
            self._indexed = seen
        return self._choices.get((choice.name, choice.value))

    def key(self, context: TranslationContextTypes) -> str | None:
        """The catalogue key of the text ``context`` is about (None: names, and texts
        not of the tree, stay as they are)."""
        data = context.data
        match context.location:
            case Where.command_description | Where.group_description:
                if isinstance(data, (app_commands.Command, app_commands.Group)):
                    return description_key(data)
            case Where.parameter_description:
                if isinstance(data, app_commands.Parameter):
                    return option_key(data.command, data.name)
            case Where.choice_name:
                if isinstance(data, app_commands.Choice):
                    return self._choice_key(data)
        return None  # command, group and option names are never localized (see above)

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        ours = OURS.get(locale.value)
        if ours is None:
            return None  # English, or a language we do not speak: the command's own text
        key = self.key(context)
        if key is None:
            return None
        text = str(translations(ours).gettext(key))
        if text == key:
            return None  # not in the catalogue (the catalogue test allows none)
        if not 1 <= len(text) <= MAX_DESCRIPTION:
            # Discord would refuse the whole sync; the catalogue test prevents it.
            log.warning("%s in %s is %d characters: not sent", key, ours, len(text))
            return None
        return text


__all__ = [
    "MAX_CHOICE_NAME",
    "MAX_DESCRIPTION",
    "OURS",
    "CommandTranslator",
    "Entry",
    "choice_key",
    "description_key",
    "entries",
    "option_key",
]
