"""Slash commands in every player's language (cogs/translator.py, the ``commands``
catalogue): every command, option and choice of the bot has a key in every language,
within Discord's limits; the synced payload carries the localizations; names stay as
they are; a changed translation is synced again; and the fake Discord refuses what
Discord refuses."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.app_commands import TranslationContext, locale_str
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from bot.config import Config
from bot.words import SUPPORTED, Locale
from bot.words.catalog import read_catalog
from bot.words.locales import DISCORD_CODES
from cogs import translator as tr
from cogs.app import ChipfistBot
from cogs.bot import ROUTER
from cogs.translator import CommandTranslator, Entry, entries
from tests.fakediscord import FakeDiscord
from tests.fakediscord.commands import command_errors
from tests.fakediscord.fixtures import fake_discord, run_bot

__all__ = ["fake_discord"]  # the fixture, used by name below

LITERALS = r"R-[\d.]+\d|E-\d+|omaha8|stud:fixed|action_clock|PHH|'Ah 7c'"
"""What a player types or reads as is: the same in every language."""
CODES = {code: ours for ours, codes in DISCORD_CODES.items() if ours != "en" for code in codes}
"""Discord's codes the payload must carry: de, fr, es-ES, es-419, pt-BR, ru."""


def _catalogue(locale: Locale) -> dict[str, str]:
    # A command's keys are in ``commands``, or in the domain of the feature that added
    # the option (the night's record's in ``record``): a key lives in one domain.
    return {
        str(m.id): str(m.string)
        for domain in ("commands", "record")
        for m in read_catalog(locale, domain)
        if m.id
    }


@pytest_asyncio.fixture
async def tree_entries() -> AsyncIterator[list[Entry]]:
    """Every text of the bot's commands as it builds them (the cogs loaded, no Discord)."""
    bot = ChipfistBot(":memory:", sync=False, clocks=False)
    await bot.load_extension(ROUTER)
    try:
        yield list(entries(bot.tree))
    finally:
        await bot.close()


async def test_every_command_path_has_its_key_in_every_language(
    tree_entries: list[Entry],
) -> None:
    """A new command, option or choice without its catalogue lines fails here; English
    in the catalogue is the cog's own text, and no key is left of a removed command."""
    assert len(tree_entries) > 80  # the whole tree: every cog's commands
    want = {e.key: e.english for e in tree_entries}
    assert len(want) == len(tree_entries)  # one key per text
    # discord.py's placeholder for an option nobody described: say what it is instead.
    assert [e.key for e in tree_entries if e.english == "…"] == []
    english = _catalogue("en")
    assert {k: v for k, v in english.items() if k.startswith("cmd.")} == want
    for locale in SUPPORTED:
        theirs = _catalogue(locale)
        assert set(want) <= set(theirs), (locale, set(want) - set(theirs))


@pytest.mark.parametrize("locale", SUPPORTED)
async def test_every_translation_respects_discords_limits(
    tree_entries: list[Entry], locale: Locale
) -> None:
    """Discord refuses a description or a choice name outside 1-100 characters (in any
    locale: the whole sync fails); numbers, rule ids and typed examples agree with
    English's."""
    theirs = _catalogue(locale)
    for e in tree_entries:
        text = theirs[e.key]
        assert 1 <= len(text) <= e.limit, (locale, e.key, len(text))
        assert text == text.strip(), (locale, e.key)
        assert sorted(re.findall(r"\d+", text)) == sorted(re.findall(r"\d+", e.english)), (
            locale,
            e.key,
        )
        for literal in re.findall(LITERALS, e.english):
            assert literal in text, (locale, e.key, literal)


async def test_the_same_choice_in_two_commands_has_the_same_words(
    tree_entries: list[Entry],
) -> None:
    """A choice reaches the translator without its command (discord.py gives only the
    choice): two commands offering the same choice must say it alike in every language."""
    by_choice: dict[tuple[str, str], set[str]] = {}
    for e in tree_entries:
        if ".choice." in e.key:
            by_choice.setdefault((e.english, e.key.rsplit(".", 1)[1]), set()).add(e.key)
    shared = [keys for keys in by_choice.values() if len(keys) > 1]
    assert shared  # /stats and /leaderboard share "this server" and "every server"
    for locale in SUPPORTED:
        theirs = _catalogue(locale)
        for keys in shared:
            assert len({theirs[k] for k in keys}) == 1, (locale, keys)


# ---------------------------------------------------------------- the translator


def _context(where: Where, data: Any) -> Any:  # Any: discord.py's context of each kind
    return TranslationContext(location=where, data=data)  # type: ignore[call-overload]  # any kind


async def test_translator_localizes_descriptions_and_never_names() -> None:
    @app_commands.command(name="sit", description="Take a seat")
    @app_commands.describe(buy_in="Chips to bring")
    async def sit(interaction: discord.Interaction, buy_in: int) -> None:
        raise AssertionError("never called")

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    tree.add_command(sit)
    t = CommandTranslator(tree)
    param = sit.parameters[0]
    de, ja, us = discord.Locale.german, discord.Locale.japanese, discord.Locale.american_english
    said = locale_str("Take a seat")
    assert await t.translate(said, de, _context(Where.command_description, sit)) == (
        "Am Tisch Platz nehmen"
    )
    assert await t.translate(said, discord.Locale.russian, _context(Where.command_description, sit))
    assert await t.translate(
        locale_str("Chips to bring"), de, _context(Where.parameter_description, param)
    ) == ("Mitgebrachte Chips (Buy-in)")
    # Names stay as they are; English is the command's own text; a language we do not
    # speak falls back to it (Discord shows the default).
    assert await t.translate(locale_str("sit"), de, _context(Where.command_name, sit)) is None
    named = _context(Where.parameter_name, param)
    assert await t.translate(locale_str("buy_in"), de, named) is None
    assert await t.translate(said, us, _context(Where.command_description, sit)) is None
    assert await t.translate(said, ja, _context(Where.command_description, sit)) is None
    # A choice the tree does not offer (an autocomplete suggestion) is left alone.
    game = app_commands.Choice(name="Omaha hi-lo", value="omaha8")
    assert await t.translate(locale_str(game.name), de, _context(Where.choice_name, game)) is None


async def test_translator_sends_nothing_over_discords_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A catalogue line over 100 characters would make Discord refuse the whole sync:
    the translator leaves that one text in English instead (and the test above fails)."""

    @app_commands.command(name="help", description="How to play here")
    async def help_(interaction: discord.Interaction) -> None:
        raise AssertionError("never called")

    class Long:
        def gettext(self, key: str) -> str:
            return "x" * 101

    monkeypatch.setattr(tr, "translations", lambda locale: Long())
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    tree.add_command(help_)
    t = CommandTranslator(tree)
    where = _context(Where.command_description, help_)
    assert await t.translate(locale_str("How to play here"), discord.Locale.german, where) is None


# ---------------------------------------------------------------- the synced payload


def _bot(db: Path) -> ChipfistBot:
    return ChipfistBot(str(db), clocks=False, sync=True, **FakeDiscord.client_options())


def _walk(options: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for option in options:
        yield option
        yield from _walk(option.get("options") or [])


async def test_synced_payload_carries_every_language(
    fake_discord: FakeDiscord, tmp_path: Path, tree_entries: list[Entry]
) -> None:
    """Through the real client's sync: every command, sub-command and option has
    description_localizations in de, fr, es-ES, es-419, pt-BR and ru, and every choice
    name_localizations, each the catalogue's; no name is localized."""
    bot = _bot(tmp_path / "c.sqlite3")
    async with run_bot(fake_discord, bot):
        assert bot.synced is True
    catalogues = {ours: _catalogue(ours) for ours in set(CODES.values())}
    english = {e.key: e.english for e in tree_entries}
    seen_options = seen_choices = 0
    for command in fake_discord.global_commands:
        path = f"cmd.{command['name']}"
        items = [(command, path)]
        stack = [(o, path) for o in command.get("options") or []]
        while stack:
            option, parent = stack.pop()
            if option["type"] in (1, 2):  # a sub-command (group): a path of its own
                here = f"{parent}.{option['name']}"
                items.append((option, here))
                stack += [(o, here) for o in option.get("options") or []]
                continue
            seen_options += 1
            items.append((option, f"{parent}.opt.{option['name']}"))
            for choice in option.get("choices") or []:
                seen_choices += 1
                key = f"{parent}.opt.{option['name']}.choice.{choice['value']}"
                assert choice["name"] == english[key]
                got = choice.get("name_localizations") or {}
                assert got == {code: catalogues[o][key] for code, o in CODES.items()}, key
        for item, base in items:
            key = f"{base}.description"
            assert item["description"] == english[key]
            got = item.get("description_localizations") or {}
            assert got == {code: catalogues[o][key] for code, o in CODES.items()}, key
            assert not item.get("name_localizations"), base  # names are never localized
    assert seen_options >= 30 and seen_choices >= 20
    assert any(c["name"] == "table" for c in fake_discord.global_commands)


async def test_dev_guild_sync_carries_the_languages_too(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """CHIPFIST_DEV_GUILD syncs the same commands to one server: translated alike."""
    settings = Config.load(env={"CHIPFIST_DEV_GUILD": str(fake_discord.guild_id)}, dotenv=None)
    bot = ChipfistBot(
        str(tmp_path / "g.sqlite3"),
        clocks=False,
        sync=True,
        settings=settings,
        **FakeDiscord.client_options(),
    )
    async with run_bot(fake_discord, bot):
        assert bot.synced is True
    assert not fake_discord.global_commands
    sit = next(c for c in fake_discord.guild_commands[fake_discord.guild_id] if c["name"] == "sit")
    assert set(sit["description_localizations"]) == set(CODES)
    assert sit["description_localizations"]["pt-BR"] == _catalogue("pt_BR")["cmd.sit.description"]
    buy_in = next(o for o in sit["options"] if o["name"] == "buy_in")
    assert buy_in["description_localizations"]["es-419"] == "Fichas que traes (buy-in)"


async def test_a_changed_translation_is_synced_again(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stored hash of the synced commands covers the translations: a restart with a
    new translation syncs (the players get it), a restart with none changed does not."""
    db = tmp_path / "h.sqlite3"
    async with run_bot(fake_discord, _bot(db)) as bot:
        assert bot.synced is True
    async with run_bot(fake_discord, _bot(db)) as bot:
        assert bot.synced is False  # nothing changed: no request
    original = CommandTranslator.translate

    async def reworded(
        self: CommandTranslator, string: locale_str, locale: discord.Locale, context: Any
    ) -> str | None:
        text = await original(self, string, locale, context)
        if locale is discord.Locale.german and string.message == "How to play here":
            return "So spielt man hier"
        return text

    monkeypatch.setattr(CommandTranslator, "translate", reworded)
    async with run_bot(fake_discord, _bot(db)) as bot:
        assert bot.synced is True
    help_ = next(c for c in fake_discord.global_commands if c["name"] == "help")
    assert help_["description_localizations"]["de"] == "So spielt man hier"
    assert help_["description_localizations"]["fr"] == "Comment jouer ici"
    async with run_bot(fake_discord, _bot(db)) as bot:
        assert bot.synced is False
    assert fake_discord.requests_by_route["PUT /applications/{app_id}/commands"] == 2


# ---------------------------------------------------------------- the fake, as strict


class Tiny(commands.Bot):
    def __init__(self, words: app_commands.Translator | None) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents.none(), **FakeDiscord.client_options()
        )
        self.words = words

    async def setup_hook(self) -> None:
        @app_commands.command(name="ping", description="Ping")
        @app_commands.choices(mode=[app_commands.Choice(name="loud", value="loud")])
        async def ping(interaction: discord.Interaction, mode: str) -> None:
            await interaction.response.send_message("pong")

        self.tree.add_command(ping)
        await self.tree.set_translator(self.words)


class Words(app_commands.Translator):
    def __init__(self, length: int, where: Where) -> None:
        self.length, self.where = length, where

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: Any
    ) -> str | None:
        return "ü" * self.length if context.location is self.where else None


@pytest.mark.parametrize(
    ("where", "length"),
    [
        (Where.command_description, 101),
        (Where.parameter_description, 101),
        (Where.choice_name, 101),
        (Where.command_name, 33),
    ],
)
async def test_fake_refuses_an_overlong_localization(
    fake_discord: FakeDiscord, where: Where, length: int
) -> None:
    """As Discord: 400, 50035 Invalid Form Body, and the old commands kept."""
    async with run_bot(fake_discord, Tiny(Words(length, where))) as bot:
        with pytest.raises(discord.HTTPException) as refused:
            await bot.tree.sync()
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "_localizations" in str(refused.value)
    assert fake_discord.global_commands == []


async def test_fake_keeps_localizations_within_the_limits(fake_discord: FakeDiscord) -> None:
    async with run_bot(fake_discord, Tiny(Words(100, Where.choice_name))) as bot:
        await bot.tree.sync()
    choice = fake_discord.command("ping")["options"][0]["choices"][0]
    assert set(choice["name_localizations"]) == {str(loc) for loc in discord.Locale}
    assert set(choice["name_localizations"].values()) == {"ü" * 100}


async def test_fake_refuses_a_locale_discord_does_not_have(fake_discord: FakeDiscord) -> None:
    async with run_bot(fake_discord, Tiny(None)) as bot:
        assert bot.application_id is not None
        payload = {
            "name": "ping",
            "description": "Ping",
            "type": 1,
            "description_localizations": {"de": "Ping", "xx-YY": "Ping"},
        }
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.bulk_upsert_global_commands(bot.application_id, [payload])  # type: ignore[list-item]  # a payload Discord refuses
        good = {**payload, "description_localizations": {"de": "Ping", "es-419": "Ping"}}
        await bot.http.bulk_upsert_global_commands(bot.application_id, [good])  # type: ignore[list-item]  # a hand-made payload
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "xx-YY" in str(refused.value)
    assert fake_discord.command("ping")["description_localizations"]["es-419"] == "Ping"


def test_fake_counts_the_longest_localization_in_a_commands_size() -> None:
    """Discord's 4,000 characters of a command count, of each field, only its longest
    text among the default and the localizations."""
    option = {"type": 3, "name": "o", "description": "d" * 100}

    def command(options: int, localized: int) -> dict[str, Any]:
        opts = [
            {**option, "name": f"o{i}", "description_localizations": {"de": "ä" * localized}}
            for i in range(options)
        ]
        return {"type": 1, "name": "c", "description": "c", "options": opts}

    assert command_errors([command(25, 100)]) == []  # 25 x (2 + 100) + 2
    assert command_errors([command(25, 10)]) == []
    # The same command with 40 options of 100: too many options, and too large.
    codes = {code for _, code, _ in command_errors([command(40, 100)])}
    assert codes == {"BASE_TYPE_MAX_LENGTH", "APPLICATION_COMMAND_TOO_LARGE"}
    errors = command_errors([{**command(1, 10), "name": "Big"}])
    assert [(path, code) for path, code, _ in errors] == [
        ("0.name", "APPLICATION_COMMAND_INVALID_NAME")
    ]
