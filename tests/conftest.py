"""Shared fixtures: the in-process fake Discord (``tests/fakediscord``)."""

from tests.fakediscord.fixtures import fake_discord

__all__ = ["fake_discord"]
