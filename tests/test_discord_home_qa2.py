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
    """Hand ``hand``'s end post (at a channel's later table "#1 (table 2) is over",
    R-20.84)."""
    ends = (f"#{hand} is over", f"#{hand} (table ")
    return next(
        m
        for m in reversed(h.fake.channel_messages())
        if any(e in m.content for e in ends) and "is over" in m.content
    )


def left_on(h: DiscordHarness, post: FakeMessage, custom_ids: list[str]) -> None:
    """Give ``post`` these buttons, as a post an older version left (or whose edit
    failed) still carries them: the router takes a click only on a button the post has."""
    buttons = [{"type": 2, "style": 2, "label": c, "custom_id": c} for c in custom_ids]
    h.fake.messages[post.id].components = [{"type": 1, "components": buttons}]


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
    await h.fold_to_one()
    return secrets


async def test_r20_77_an_earlier_tables_end_post_acts_on_no_hand_of_the_next(
    h: DiscordHarness,
) -> None:
    """The table was closed and a new one opened in the channel; hand #1's end post of
    the first table, pressed after the new table's hand #1, hunted and showed the new
    hand #1. An end post's buttons carry their table: an earlier table's are refused
    privately and nothing is shown. A button an older version posted (no table in it)
    is refused at this later table too (R-20.83)."""
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
    # An older version's button, no table in its id, could be this table's or the
    # earlier one's (both had a hand #1): refused privately, nothing shown.
    legacy = next(c for c in new.custom_ids() if c.endswith(":show_one"))
    legacy = legacy.replace(":2.1:", ":1:")
    bid = decode(legacy)
    assert bid is not None and (bid.turn, bid.arg, bid.session) == (1, "show_one", 0)
    before = len(_posts(h))
    left_on(h, new, [legacy])  # as an older version's post would carry it
    await fake.click(winner, new, legacy)
    await h.settle()
    assert h.last_ephemeral(winner) == render(msg("home.after.stale.unsaid"), "en")
    assert len(_posts(h)) == before
    assert h.table().conservation_error() is None


def _vote_post(h: DiscordHarness) -> FakeMessage:
    return next(m for m in reversed(h.fake.channel_messages()) if "💣" in m.content)


async def _propose(h: DiscordHarness, user: FakeUser) -> FakeMessage:
    await h.slash(user, "cards")
    eph = h.fake.ephemerals(user)[-1]
    await h.fake.click(user, eph, next(c for c in eph.custom_ids() if c.endswith(":bomb")))
    await h.settle()
    post = _vote_post(h)
    assert any(c.endswith(":bomb_yes") for c in post.custom_ids()), post.custom_ids()
    return post


async def _vote(h: DiscordHarness, user: FakeUser, post: FakeMessage, arg: str) -> None:
    await h.fake.click(user, post, next(c for c in post.custom_ids() if c.endswith(":" + arg)))
    await h.settle()


def _closed(h: DiscordHarness, post: FakeMessage) -> None:
    """The post lost its buttons in one edit; its words stay."""
    now = h.fake.messages[post.id]
    assert now.custom_ids() == [] and now.edits == 1, (now.custom_ids(), now.edits)
    assert now.content == post.content


async def test_r20_77_the_vote_post_loses_its_buttons_when_the_vote_closes(
    h: DiscordHarness,
) -> None:
    """The proposal's Yes and No stayed under the post after the vote passed, failed or
    lapsed. Once the vote is closed the post is edited once: its buttons go, its words
    stay."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    # Passed: 2 of 3.
    post = await _propose(h, users[1])
    await _vote(h, users[2], post, "bomb_yes")
    assert h.table().state.bomb.get("passed") is True
    _closed(h, post)
    await h.slash(users[0], "deal")  # the bomb pot spends it
    while h.table().state.in_hand:
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "fold")
    # Failed: two no of three.
    post = await _propose(h, users[1])
    await _vote(h, users[0], post, "bomb_no")
    assert fake.messages[post.id].custom_ids(), "still open: one no"
    await _vote(h, users[2], post, "bomb_no")
    assert h.table().state.bomb == {}
    _closed(h, post)
    # Lapsed: the deal comes before a majority.
    post = await _propose(h, users[2])
    await h.slash(users[0], "deal")
    assert h.table().state.in_hand
    _closed(h, post)
    assert h.table().conservation_error() is None
    while h.table().state.in_hand:
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "fold")
    # Closed with the table: its Yes would otherwise vote at the channel's next table.
    post = await _propose(h, users[1])
    await h.slash(users[0], "table close")
    assert h.table().state.closed
    _closed(h, post)


async def test_r20_76_discord_a_co_hosts_adjustment_names_him(h: DiscordHarness) -> None:
    """Through the fake Discord: the co-host's /host adjust was said as the host's. It
    names the co-host, by his name on Discord."""
    fake = h.fake
    users = players(fake)
    for u in users[1:]:
        u.permissions = str(1 << 11)  # Send Messages only: not a moderator
    await h.slash(users[0], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "host cohost", member=users[1])
    await h.slash(users[1], "host adjust", member=users[2], amount=50, reason="found chips")
    said = h.last_ephemeral(users[1])
    assert said.startswith(f"The co-host {users[1].name} added 50 from the bank"), said
    assert h.table().state.seat_of(str(users[2].id)).stack == 250
    assert h.table().conservation_error() is None
