"""Unit tests of the Discord presenter's pure parts: custom ids, the raise modal's
parsing, error wording and the operations module's handling of Discord's errors."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands
from hypothesis import given
from hypothesis import strategies as st

from bot.table.errors import TableError
from bot.table.text_actions import ActionRequest
from cogs import errors, ops
from cogs.ids import ButtonId, decode
from cogs.play import parse_raise


@given(
    kind=st.sampled_from(["act", "dec", "show", "bump"]),
    table=st.integers(min_value=0, max_value=2**64).map(str),
    turn=st.integers(min_value=0, max_value=10**9),
    arg=st.sampled_from(["", "check_call", "bet_raise", "fold", "all_in", "low", "high", "both"]),
)
def test_custom_id_round_trip(kind: Any, table: str, turn: int, arg: str) -> None:
    bid = ButtonId(kind, table, turn, arg)
    text = bid.encode()
    assert len(text) <= 100
    assert decode(text) == bid


def test_foreign_custom_ids_are_not_ours() -> None:
    assert decode("table:join") is None
    assert decode("cf:act:abc:1:fold") is None
    with pytest.raises(ValueError):
        ButtonId("act", "x:y", 1, "fold").encode()


def test_parse_raise_to_by_and_words() -> None:
    assert parse_raise("40", "", False) == ActionRequest("raise_to", 40)
    assert parse_raise("", "30", False) == ActionRequest("raise_by", 30)
    assert parse_raise("40", "", True) == ActionRequest("bet", 40)
    assert parse_raise("min", "", False) == ActionRequest("min")  # sized by the table
    assert parse_raise("pot", "", False) == ActionRequest("pot")
    assert parse_raise("½ pot", "", False) == ActionRequest("half_pot")
    assert parse_raise("all in", "", False) == ActionRequest("all_in")


def test_parse_raise_never_adjusts_an_amount() -> None:
    # Out of range goes to the engine unchanged (it refuses with the range, R-6.4).
    assert parse_raise("100000", "", False) == ActionRequest("raise_to", 100000)
    assert isinstance(parse_raise("lots", "", False), str)
    assert isinstance(parse_raise("-5", "", False), str)
    assert isinstance(parse_raise("", "", False), str)


def test_friendly_errors_never_show_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    assert errors.friendly(TableError("The table is full.")) == "The table is full."
    cooldown = app_commands.CommandOnCooldown(app_commands.Cooldown(1, 10), 7.2)
    assert "7 s" in errors.friendly(cooldown)
    try:
        raise ZeroDivisionError("boom")
    except ZeroDivisionError as exc:
        text = errors.friendly(exc)
    assert "error id" in text and "boom" not in text and "Traceback" not in text
    assert "ZeroDivisionError" in caplog.text  # logged for us, not shown to them


def _http(cls: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="x")
    return cls(response, {"code": code, "message": "x"})  # type: ignore[arg-type]


def _interaction(send_side_effect: Any = None) -> Any:
    inter = MagicMock()
    inter.id = 1
    inter.response.is_done.return_value = False
    inter.response.send_message = AsyncMock(side_effect=send_side_effect)
    inter.followup.send = AsyncMock()
    return inter


async def test_reply_unknown_interaction_is_swallowed() -> None:
    inter = _interaction(_http(discord.NotFound, 404, ops.UNKNOWN_INTERACTION))
    assert await ops.reply(inter, "hi") is False


async def test_reply_already_acknowledged_falls_back_to_followup() -> None:
    inter = _interaction(_http(discord.HTTPException, 400, ops.ALREADY_ACKNOWLEDGED))
    assert await ops.reply(inter, "hi") is True
    inter.followup.send.assert_awaited_once()
    assert inter.followup.send.await_args.kwargs["ephemeral"] is True


@pytest.mark.parametrize("code", ops.DM_CLOSED)
async def test_dm_closed_returns_none(code: int) -> None:
    channel = MagicMock()
    channel.send = AsyncMock(side_effect=_http(discord.Forbidden, 403, code))
    client = MagicMock()
    client.create_dm = AsyncMock(return_value=channel)
    assert await ops.dm(client, 5, "your cards") is None


async def test_edit_of_a_deleted_message_says_so() -> None:
    message = MagicMock()
    message.edit = AsyncMock(side_effect=_http(discord.NotFound, 404, ops.UNKNOWN_MESSAGE))
    assert await ops.edit(message, embed=discord.Embed(), view=None) is False
