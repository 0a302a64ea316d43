"""What players and hosts noticed at the home game, through the fake Discord (the real
discord.py client and cogs): each test is named after the ruling (R-20.80 to R-20.89)
that holds the table to it."""

from __future__ import annotations

from bot.poker.messages import Number, Rule, msg
from bot.table.clocks import ManualTime
from bot.words import render
from tests.fakediscord.state import PUBLIC
from tests.test_discord_e2e import Harness as DiscordHarness
from tests.test_discord_e2e import h, players
from tests.test_discord_home_qa2 import _closed, _propose, left_on

__all__ = ["h"]  # the end-to-end fixture, shared


async def test_r20_82_discord_a_vote_that_runs_out_is_said_and_its_post_closed(
    h: DiscordHarness,
) -> None:
    """The vote's time ran out and nothing was said until the next deal, its Yes and No
    still under the post. When the time runs out the channel is told and the post
    loses its buttons (one edit, its words kept); no deal is needed."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    await h.slash(users[0], "table settings", name="auto_deal", value="off")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    post = await _propose(h, users[1])
    table = h.table()
    service = h.bot.service
    assert service is not None
    clock = ManualTime(table.time.now())
    service.time = clock
    table.time = clock
    ends = table.due_at()
    assert ends is not None
    clock.set(ends)
    mark = len(fake.deliveries)
    assert await service.tick() == 1
    await h.settle()
    assert table.state.bomb == {} and not table.state.in_hand
    _closed(h, post)
    seconds = Number(round(table.settings.action_clock))
    told = render(msg("home.vote.timed_out", seconds=seconds, rule=Rule("R-20.12")), "en")
    # Told in the channel (the table's message shows it among its latest notes), to all.
    head = told.split(" (")[0]
    told_all = [d for d in fake.deliveries[mark:] if head in d.text() and d.audience == PUBLIC]
    assert told_all, [d.text() for d in fake.deliveries[mark:]]
    assert table.conservation_error() is None


async def test_r20_83_discord_vote_buttons_carry_their_table_and_old_ones_are_refused(
    h: DiscordHarness,
) -> None:
    """A vote post of the channel's earlier table (its buttons not taken off: an older
    version's, or an edit that failed) voted on the next table's proposal for the same
    deal number. Vote buttons now carry their table; an earlier table's are refused, and
    an older version's (no table in them) are refused at a later table, privately,
    changing nothing."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    old = await _propose(h, users[1])
    yes = next(c for c in old.custom_ids() if c.endswith(":bomb_yes"))
    assert ":1.1:bomb_yes" in yes, yes  # table 1 of the channel, deal 1
    await h.slash(users[0], "table close")
    assert h.table().state.closed, h.last_ephemeral(users[0])
    await h.slash(users[1], "table create")  # another host (creating has a cooldown)
    assert not h.table().state.closed, h.last_ephemeral(users[1])
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    assert h.table().state.incarnation == 2
    new = await _propose(h, users[1])
    assert any(c.endswith(":2.1:bomb_yes") for c in new.custom_ids()), new.custom_ids()
    vote = dict(h.table().state.bomb["vote"])
    # The closed table's post lost its buttons; one that kept them (an edit
    # that failed) or an older version's post (no table in its ids) is pressed.
    legacy = yes.replace(":1.1:", ":1:")
    left_on(h, old, [yes, legacy])
    await fake.click(users[2], old, yes)
    await h.settle()
    assert h.last_ephemeral(users[2]) == render(msg("home.vote.stale"), "en")
    await fake.click(users[2], old, legacy)
    await h.settle()
    assert h.last_ephemeral(users[2]) == render(msg("home.vote.stale.unsaid"), "en")
    assert h.table().state.bomb["vote"] == vote, "nothing changed"
    # The new post's own Yes votes.
    await fake.click(users[2], new, next(c for c in new.custom_ids() if c.endswith(":bomb_yes")))
    await h.settle()
    assert h.table().state.bomb.get("passed") is True
    assert h.table().conservation_error() is None


async def test_r20_84_discord_a_later_tables_hand_says_its_table(h: DiscordHarness) -> None:
    """At the channel's second table hand #1 was "Hand #1" on the table message, its
    end post and its export, as the first table's hand #1 was. There each says which
    table it is; the export is this table's hand, named so."""
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "deal")
    await h.fold_to_one()
    await h.slash(users[0], "table close")
    assert h.table().state.closed, h.last_ephemeral(users[0])
    await h.slash(users[1], "table create")  # another host (creating has a cooldown)
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[1], "deal")
    assert h.table().state.incarnation == 2 and h.table().state.hand_no == 1
    label = render(msg("table.hand_label", hand=Number(1), session=Number(2)), "en")
    assert "Hand #1 (table 2)" in h.table_message().embeds[0]["footer"]["text"]
    await h.fold_to_one()
    over = render(
        msg("table.hand_over", hand=msg("table.hand_label", hand=Number(1), session=Number(2))),
        "en",
    )
    assert any(over in m.content for m in fake.channel_messages()), over
    mark = len(fake.deliveries)
    await h.slash(users[2], "export", hand=1)
    files = [(name, d) for d in fake.deliveries[mark:] for name, _ in d.attachments]
    assert [name for name, _ in files] == ["table-2-hand-1.phh"], files
    assert label in files[0][1].text()
    assert h.table().conservation_error() is None
