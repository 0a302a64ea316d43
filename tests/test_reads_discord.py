"""The reads of a table's past through the real discord.py client and the fake Discord:
``/export``, ``/stats``, ``/ledger`` and ``/settle`` each have a per-user cooldown. A
flood past it is answered privately with the time left, reads nothing and posts
nothing; another player is not held up."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs.table_cog import READS_PER, READS_RATE
from tests.fakediscord import audience_includes
from tests.test_discord_e2e import Harness, players

READS: list[tuple[str, dict[str, Any], str]] = [
    ("export", {"hand": 1}, "session"),
    ("stats", {}, "stats"),
    ("ledger", {}, "session_ledger"),
    ("settle", {}, "session_ledger"),
]


async def _one_hand(h: Harness) -> list[Any]:
    users = players(h.fake)
    await h.start_table(users)
    while h.table().state.in_hand:
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "fold")
    assert h.table().conservation_error() is None
    return users


@pytest.mark.parametrize(("command", "options", "read"), READS)
async def test_reads_cooldown_refuses_a_flood_privately_and_reads_nothing(
    h: Harness, monkeypatch: Any, command: str, options: dict[str, Any], read: str
) -> None:
    users = await _one_hand(h)
    asker, other = users[1], users[2]
    service = h.bot.tables
    calls: list[str] = []
    real_read = getattr(service, read)
    real_history = type(h.table()).hand_history

    async def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(read)
        return await real_read(*args, **kwargs)

    async def history(self: Any, *args: Any, **kwargs: Any) -> str:
        calls.append("export")
        text: str = await real_history(self, *args, **kwargs)
        return text

    monkeypatch.setattr(service, read, counted)
    monkeypatch.setattr(type(h.table()), "hand_history", history)
    for _ in range(READS_RATE):  # a burst of normal use is served
        await h.slash(asker, command, **options)
        assert "try again" not in h.last_ephemeral(asker)
    served = len(calls)
    assert served == READS_RATE
    state = h.table().digest()
    mark = len(h.fake.deliveries)
    await h.slash(asker, command, **options)
    refusal = h.last_ephemeral(asker)
    found = re.fullmatch(r"Slow down: try again in (\d+) s\.", refusal)
    assert found, refusal
    assert 0 < int(found.group(1)) <= READS_PER
    assert len(calls) == served  # nothing read
    assert h.table().digest() == state  # nothing changed
    new = h.fake.deliveries[mark:]
    assert new and all(d.audience == f"private:{asker.id}" for d in new), new
    assert not any(d.attachments for d in new)
    assert not any(audience_includes(d.audience, other.id) for d in new)
    # The cooldown is the asker's: another player is served at once.
    await h.slash(other, command, **options)
    assert "try again" not in h.last_ephemeral(other)
    assert len(calls) == served + 1
