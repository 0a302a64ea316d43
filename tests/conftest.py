"""Shared fixtures: the in-process fake Discord (``tests/fakediscord``) and the end-to-end
harness ``h`` (a bot on a real SQLite file against it, with the per-hand leak guard)."""

from tests.fakediscord.fixtures import fake_discord
from tests.test_discord_e2e import h

__all__ = ["fake_discord", "h"]
