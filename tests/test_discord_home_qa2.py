"""The home game's second QA pass through the fake Discord (the real discord.py client
and cogs): the vote post's buttons once the vote is closed (R-20.77) and the end post's
buttons of an earlier table at the same channel (R-20.77)."""

from __future__ import annotations

from bot.poker.events import ActionTaken
from bot.poker.messages import msg
from bot.words import render
from cogs.ids import decode
from tests.fakediscord.state import FakeMessage, FakeUser
from tests.test_discord_e2e import CARD, h, hole_cards, players
from tests.test_discord_e2e import Harness as DiscordHarness

__all__ = ["h"]  # the end-to-end fixture, shared


async def _fold_to_one(h: DiscordHarness) -> None:
    for _ in range(3):
        if not h.table().state.in_hand:
            return
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "fold")


def _winner(h: DiscordHarness) -> FakeUser:
    state = h.table().state
    info = state.recent[state.hand_no]
    return next(
        h.fake.users[int(u)]
        for p, u in enumerate(info.users)
        if not any(
            isinstance(e, ActionTaken) and e.kind == "fold" and e.player == p for e in info.events
        )
    )


def _end_post(h: DiscordHarness, hand: int) -> FakeMessage:
    return next(m for m in reversed(h.fake.channel_messages()) if f"#{hand} is over" in m.content)


def _posts(h: DiscordHarness) -> list[FakeMessage]:
    return [m for m in h.fake.channel_messages() if m.content.startswith(("👀", "🐇"))]


async def _table_with_a_hand(
    h: DiscordHarness, users: list[FakeUser], host: FakeUser
) -> dict[int, set[str]]:
    """A table opened with the rabbit hunt on and one hand folded to one; the players'
    hole cards of it."""
    await h.slash(host, "table create")
    assert not h.table().state.closed, h.last_ephemeral(host)
    await h.slash(host, "table settings", name="rabbit_hunt", value="on")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(host, "deal")
    secrets = hole_cards(h.fake, h.bot, h.tid)
    await _fold_to_one(h)
    return secrets


async def test_r20_77_an_earlier_tables_end_post_acts_on_no_hand_of_the_next(
    h: DiscordHarness,
) -> None:
    """The table was closed and a new one opened in the channel; hand #1's end post of
    the first table, pressed after the new table's hand #1, hunted and showed the new
    hand #1. An end post's buttons carry their table: an earlier table's are refused
    privately and nothing is shown. A button an older version posted (no table in it)
    works as before on the last hand."""
    fake = h.fake
    users = players(fake)
    await _table_with_a_hand(h, users, users[0])
    old = _end_post(h, 1)
    await h.slash(users[0], "table close")
    assert h.table().state.closed
    secrets = await _table_with_a_hand(h, users, users[1])
    assert h.table().state.hand_no == 1 and h.table().state.incarnation == 2
    winner = _winner(h)
    before = len(_posts(h))
    for arg in ("rabbit", "show_all", "show_one"):
        cid = next(c for c in old.custom_ids() if c.endswith(":" + arg))
        await fake.click(winner, old, cid, stale=True)
        await h.settle()
        assert h.last_ephemeral(winner) == render(msg("home.after.stale.table"), "en")
    assert len(_posts(h)) == before, [m.content for m in _posts(h)]
    said = " ".join(m.content for m in fake.channel_messages())
    assert not set(CARD.findall(said)) & secrets[winner.id]
    # The new table's own end post: dated by its table too; it hunts.
    new = _end_post(h, 1)
    assert new.id != old.id
    rabbit = next(c for c in new.custom_ids() if c.endswith(":rabbit"))
    assert ":2.1:rabbit" in rabbit, rabbit
    await fake.click(winner, new, rabbit)
    await h.settle()
    assert _posts(h) and _posts(h)[-1].content.startswith("🐇")
    # An older version's button, no table in its id, is read as before: dated by its
    # hand alone, and acts on the last hand (on Discord it is on the post it came with).
    legacy = next(c for c in new.custom_ids() if c.endswith(":show_one"))
    legacy = legacy.replace(":2.1:", ":1:")
    bid = decode(legacy)
    assert bid is not None and (bid.turn, bid.arg, bid.session) == (1, "show_one", 0)
    shown = await h.table().show_by_choice(
        str(winner.id), "1", for_hand=bid.turn, session=bid.session
    )
    assert shown.ok, shown.msg
    await h.settle()
    post = _posts(h)[-1]
    assert post.content.startswith("👀"), post.content
    assert set(CARD.findall(post.content)) <= secrets[winner.id]
    assert h.table().conservation_error() is None
