"""The private parts of discord.py the bot relies on (cogs/discord_internals.py) are
there, with the shape the code expects, in the installed discord.py; the check is real
(it names a changed one) and the bot refuses to start when it fails."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord
import discord.http
import discord.state
import pytest
from discord.webhook import async_ as webhook_async

from bot.config import Config, make_token
from cogs import app, discord_internals

ROOT = Path(__file__).resolve().parents[1]


def test_discord_internals_every_patched_part_is_there_as_expected() -> None:
    """Fails loudly, naming each, when a discord.py upgrade moved one of them."""
    assert discord_internals.problems() == []


def test_discord_internals_check_names_a_changed_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    async def request(self: Any, route: Any, session: Any, *, payload: Any = None) -> Any:
        return None

    monkeypatch.setattr(webhook_async.AsyncWebhookAdapter, "request", request)
    found = discord_internals.problems()
    assert len(found) == 1 and "AsyncWebhookAdapter.request takes" in found[0], found


@pytest.mark.parametrize(
    ("owner", "name", "expected"),
    [
        (discord.AutoShardedClient, "launch_shard", "launch_shard"),
        (discord.state.ConnectionState, "parse_interaction_create", "INTERACTION_CREATE"),
        (discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", "DEFAULT_GATEWAY"),
        (webhook_async, "async_context", "async_context"),
        (discord.app_commands.Group, "get_translated_payload", "Group.get_translated_payload"),
    ],
)
def test_discord_internals_check_names_a_missing_part(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, expected: str
) -> None:
    monkeypatch.delattr(owner, name)
    found = discord_internals.problems()
    assert found and any(expected in line for line in found), found


def test_discord_internals_check_sees_private_attributes_renamed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rate-limit buckets and the intents are read as attributes discord.py's
    constructors set: a constructor that no longer sets them is reported."""
    original = discord.http.HTTPClient.__init__

    def renamed(self: Any, *args: Any, **kwargs: Any) -> None:  # sets _buckets no more
        original(self, *args, **kwargs)

    monkeypatch.setattr(discord.http.HTTPClient, "__init__", renamed)
    found = discord_internals.problems()
    assert any("HTTPClient no longer keeps" in line for line in found), found


async def test_discord_internals_a_changed_part_stops_the_start(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(discord_internals, "problems", lambda: ["discord.py 9.9: X is gone"])
    config = Config.load(env={"DISCORD_TOKEN": make_token(123456789012345678)}, dotenv=None)
    with caplog.at_level(logging.ERROR):
        assert await app.serve(config) == 2
    assert "refusing to start: discord.py 9.9: X is gone" in caplog.text


def test_dependencies_range_and_constraints_agree() -> None:
    """pyproject's discord.py range is the tested one, constraints.txt pins versions
    inside every declared range, and what the code imports directly is declared."""
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = [Requirement(r) for r in project["dependencies"]]
    extras = [Requirement(r) for group in project["optional-dependencies"].values() for r in group]
    names = {r.name.lower().replace("_", "-") for r in deps}
    for direct in ("discord-py", "aiohttp", "python-dotenv", "pydantic", "pydantic-settings"):
        assert direct in {n.replace(".", "-") for n in names}, direct
    discord_req = next(r for r in deps if r.name.lower() == "discord.py")
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt pins exact versions: {line}"
            pins[name.strip().lower().replace("_", "-").replace(".", "-")] = version.strip()
    for req in [*deps, *extras]:
        key = req.name.lower().replace("_", "-").replace(".", "-")
        if key in pins:
            assert req.specifier.contains(pins[key], prereleases=True), (req, pins[key])
    assert discord_req.specifier.contains(discord.__version__), discord.__version__
    assert pins["discord-py"] == discord.__version__ or discord_req.specifier.contains(
        pins["discord-py"]
    )
    dev = {r.name.lower(): r for r in extras}
    for tool in ("ruff", "mypy"):
        assert str(dev[tool].specifier).startswith("=="), dev[tool]
    assert dev["pytest-asyncio"].specifier.contains("0.24") and not dev[
        "pytest-asyncio"
    ].specifier.contains("0.23.8")
