"""An earlier table's hand of a channel can still be exported (R-20.97, R-20.98), through
the fake Discord (the real discord.py client and cogs): once a later table reaches the
same hand number, ``/export N table:1`` names the first table's hand, with the privacy
of any export (the requester's own cards, nobody else's unshown ones)."""

from __future__ import annotations

import re

from bot.poker.messages import Number, msg
from bot.words import render
from tests.fakediscord.state import FakeUser
from tests.test_discord_e2e import Harness as DiscordHarness
from tests.test_discord_e2e import h, hole_cards, players

__all__ = ["h"]  # the end-to-end fixture, shared


async def _a_table_with_hand_one(
    h: DiscordHarness, users: list[FakeUser], host: FakeUser
) -> dict[int, set[str]]:
    await h.slash(host, "table create")
    assert not h.table().state.closed, h.last_ephemeral(host)
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(host, "deal")
    secrets = hole_cards(h.fake, h.bot, h.tid)
    await h.fold_to_one()
    assert not h.table().state.in_hand
    return secrets


def _dealt(phh: str) -> set[str]:
    """Every card the export's deals show (``"d dh p3 Kc7c"``; unknown ones are ``??``)."""
    out: set[str] = set()
    for cards in re.findall(r'"d dh p\d+ ([^"]*)"', phh):
        out |= {cards[i : i + 2] for i in range(0, len(cards), 2)} - {"??"}
    return out


async def _export(h: DiscordHarness, user: FakeUser, **opts: int) -> list[tuple[str, str]]:
    mark = len(h.fake.deliveries)
    await h.slash(user, "export", **opts)
    return [(name, blob.decode()) for d in h.fake.deliveries[mark:] for name, blob in d.attachments]


async def test_R_20_98_an_earlier_tables_hand_is_exported_by_its_table(
    h: DiscordHarness,
) -> None:
    users = players(h.fake)
    first = await _a_table_with_hand_one(h, users, users[0])
    await h.slash(users[0], "table close")
    assert h.table().state.closed
    second = await _a_table_with_hand_one(h, users, users[1])  # another host (cooldown)
    assert h.table().state.incarnation == 2 and h.table().state.hand_no == 1
    me, others = users[2], [u for u in users if u != users[2]]
    # This table's hand #1, as before.
    files = await _export(h, me, hand=1)
    assert [name for name, _ in files] == ["table-2-hand-1.phh"], files
    assert second[me.id] and all(c in files[0][1] for c in second[me.id])
    # The first table's hand #1, named: its own cards, nobody else's unshown ones.
    files = await _export(h, me, hand=1, table=1)
    assert [name for name, _ in files] == ["hand-1.phh"], files
    text = files[0][1]
    dealt = _dealt(text)
    assert first[me.id] and first[me.id] <= dealt, (first[me.id], text)
    for u in others:
        assert not dealt & first[u.id], (u.name, text)
    assert "????" in text  # the others' unshown cards
    assert text != (await _export(h, me, hand=1))[0][1]
    # A table the channel has not had: refused privately, naming the hand as asked.
    files = await _export(h, me, hand=1, table=3)
    assert files == []
    label = msg("table.hand_label", hand=Number(1), session=Number(3))
    assert render(msg("table.story.no_hand", hand=label), "en") in h.last_ephemeral(me)
    assert h.table().conservation_error() is None
