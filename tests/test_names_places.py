"""Names and places on Discord (R-1.11, R-1.12).

R-1.12: a player's display name is shown as written and does nothing else: no ping, no
role or user pill, no link, no markdown, on one line and of bounded length
(``cogs/names.py``); only the messages meant to ping someone do, and only him
(``allowed_mentions``, as the fake Discord computes it like Discord).

R-1.11: a table lives in a server's text channel and its own thread. Every command is
guild-only in the payload synced to Discord (the fake then offers none in a DM), an
interaction without a server is refused at run time, a table an older version let open
in a DM is closed at start with its reason logged, and a thread that is not the table's
own is no way into the channel's table (``cogs/places.py``).

End to end: the real discord.py client, the cogs and a real SQLite file against the
fake Discord, with chip conservation (R-2.5) checked where chips move.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.poker.messages import Listing, Name, Player, msg
from bot.poker.messages import raw as raw_words
from bot.table.ports import HandFacts, Notice
from bot.table.settings import TableSettings
from cogs import names, places
from cogs.moderation import NOT_A_PLACE
from cogs.words import notice_text
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.fakediscord.state import links, pings, shown, snowflake, texts
from tests.test_discord_e2e import Harness, LeakGuard, make_bot, players
from tests.test_discord_moderation import conserved

HOSTILE = ("<@&123>", "@everyone", "[free](https://evil.example)", "**big** ||x|| `y`")
"""Display names that would ping a role or everyone, link, or format if shown raw."""


# ------------------------------------------------------------------ names, unit


def test_r1_12_escaped_names_render_as_written_and_do_nothing() -> None:
    """R-1.12: escaped, each hostile name shows exactly as written, with no link and no
    mention Discord would parse, even where mentions are allowed (no allowed_mentions)."""
    for raw in (*HOSTILE, "<@42>", "<@!42>", "@here", "<#99>", "<t:0:R>", "# head", "-# s"):
        text = names.display(raw)
        payload = {"content": f"{text} wins 40"}
        assert shown(payload) == f"{raw} wins 40", (raw, text)
        assert links(payload) == [], raw
        # Parsed mentions of users or roles: none (the escaped @ is still counted as
        # @everyone by the fake, which is stricter than Discord: allowed_mentions is the
        # guard for that one, see the end-to-end test).
        assert not {p for p in pings(payload) if p != "everyone"}, raw
        assert "\\" + raw[0] in text or raw[0] not in names.SPECIAL


def test_r1_12_escape_is_idempotent_and_plain_undoes_it() -> None:
    """R-1.12: escaping twice is escaping once (a name kept escaped can be escaped again
    where it is shown), and ``plain`` gives the picture the name as written."""
    for raw in (*HOSTILE, "a\\b", "x_y", "ok", "\\"):
        once = names.display(raw)
        assert names.escape(once) == once, raw
        assert names.plain(once) == names.clean(raw), raw
    # The price of idempotence: a name that already holds an escape (a backslash before
    # a special character) is taken as escaped; it shows one character less, and still
    # does nothing.
    once = names.display("back\\\\slash \\@everyone")
    assert names.escape(once) == once
    assert shown({"content": once}) == "back\\slash @everyone"


def test_r1_12_names_kept_raw_are_escaped_in_the_tables_words() -> None:
    """R-1.12: in a line the table composed, a name an older version kept raw is escaped;
    a name kept escaped and the rest of the line are left as they are."""
    old, new = "[free](https://evil.example)", names.display("**big**")
    line = f"{old} calls 2, {new} folds; `deal` to deal"
    said = names.escape_names(line, [old, new, "bob"])
    assert said == f"{names.escape(old)} calls 2, {new} folds; `deal` to deal"
    assert links({"content": said}) == []
    assert names.escape_names(said, [old, new]) == said


def test_r1_12_names_lose_invisible_characters_and_are_capped() -> None:
    """R-1.12: control, zero-width and bidirectional characters go; line breaks become
    spaces; at most 32 characters; nothing visible left gives a placeholder."""
    assert names.clean("al\u200bi\u200dce\u202e") == "alice"
    assert names.clean("two\nlines\r\tand\x00 more") == "two lines and more"
    assert names.clean("\u200b\u2060 \n") == names.FALLBACK
    long = names.clean("x" * 100)
    assert len(long) == names.MAX_NAME and long.endswith("…")
    assert len(names.plain(names.display("[" * 100), 24)) == 24


def test_fake_discord_pings_as_discord_filters_them() -> None:
    """The fake's reading of ``allowed_mentions`` (what the tests above rely on): without
    it every parsed mention pings; ``parse`` enables a kind; listed ids ping only if
    mentioned; embeds never ping; a masked or bare link is a link, an escaped one is not."""
    text = "<@1> <@!2> <@&3> @everyone"
    assert pings({"content": text}) == {"user:1", "user:2", "role:3", "everyone"}
    assert pings({"content": text, "allowed_mentions": {"parse": []}}) == set()
    assert pings({"content": text, "allowed_mentions": {"parse": [], "users": ["2", "9"]}}) == {
        "user:2"
    }
    assert pings({"content": text, "allowed_mentions": {"parse": ["roles", "everyone"]}}) == {
        "role:3",
        "everyone",
    }
    assert pings({"embeds": [{"description": text}]}) == set()
    assert links({"content": "[a](https://x.example) and https://y.example"}) == [
        "https://x.example",
        "https://y.example",
    ]
    assert links({"content": "\\[a\\](https\\://x.example)"}) == []
    assert links({"embeds": [{"fields": [{"name": "n", "value": "[b](http://z)"}]}]}) == [
        "http://z"
    ]


def test_r1_12_names_in_messages_are_escaped_when_rendered_for_discord() -> None:
    """R-1.12: a message's names (``Name`` parameters, nested ones too, and players by
    position through the namer) are escaped as the message is rendered for Discord,
    once: an escaped name is left as it is; an older record's English is not a name."""
    big = Name("**big**")
    m = msg("engine.comma", head=msg("notice.action.fold", who=big), tail=msg("legal.fold"))
    done = names.escaped(m)
    assert done.get("head") == msg("notice.action.fold", who=Name("\\*\\*big\\*\\*"))
    assert names.escaped(done) == done
    listed = msg("x", who=Listing((msg("engine.who", who=big),), "and"))
    inner = names.escaped(listed).get("who")
    assert isinstance(inner, Listing) and inner.items[0].get("who") == Name(names.escape("**big**"))
    assert names.escaped(raw_words("`deal` **now**")) == raw_words("`deal` **now**")
    assert names.escaping(lambda p: "<@&1>")(0) == "\\<\\@&1\\>"
    line = f"{names.escape('*x*')} calls, *x* folds"
    assert names.escape_names(line, ["*x*"]) == "\\*x\\* calls, \\*x\\* folds"
    assert names.escape_names(names.escape_names(line, ["*x*"]), ["*x*"]) == names.escape_names(
        line, ["*x*"]
    )
    hand = HandFacts(1, "holdem", "none", (1,), ("[a](https://b.c)",))
    fold = Notice("ActionTaken", msg("notice.action.fold", who=Player(0)), 1, hand=hand)
    said = notice_text(fold, "de")
    assert "\\[a\\]\\(https\\://b.c\\)" in said and links({"content": said}) == []


# ------------------------------------------------------------------ names, end to end


@pytest_asyncio.fixture
async def hostile(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot = make_bot(tmp_path / "names.sqlite3")
    guard = LeakGuard()
    guard.wrap(bot.presenter, fake_discord)
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        harness.guard = guard
        yield harness
    guard.check(fake_discord)


def _hostile_players(fake: FakeDiscord) -> list[FakeUser]:
    alice = fake.user("alice")  # a bystander whose id one name spells as a mention
    return [fake.add_user(n) for n in (*HOSTILE, f"<@{alice.id}>")]


async def _play_hand(h: Harness, users: list[FakeUser]) -> FakeUser:
    """Open, seat, deal and check the hand down; returns the first player to act."""
    await h.slash(users[0], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "deal")
    first = h.to_act()
    assert first is not None
    await h.fake.wait_for(lambda: any(d.pings() for d in h.fake.deliveries))
    for _ in range(80):
        if not h.table().state.in_hand:
            break
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    await h.settle()
    assert not h.table().state.in_hand
    return first


@pytest.mark.parametrize("via", ["followup", "channel"])
async def test_r1_12_hostile_names_ping_nobody_link_nothing(
    hostile: Harness, via: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-1.12: players named ``<@&123>``, ``@everyone``, ``[free](https://evil.example)``,
    ``**big** ||x|| `y``` and ``<@alice's id>`` play a hand to its end. No message the
    bot sent pings anyone but the player a turn ping is for, none holds a link to
    evil.example or a raw role or user mention, and the names are seen as written
    (escaped) on the table message and in the hand's summary. ``via="channel"``: no
    interaction can carry the posts (none kept), so the summary and the pings are
    channel messages, which carry the client's default allowed_mentions unless they name
    their own. R-2.5."""
    h = hostile
    # The client's default: a message that names nobody pings nobody.
    assert h.bot.allowed_mentions is not None and h.bot.allowed_mentions.to_dict() == {"parse": []}
    h.bot.presenter.ping_delay = 0.0
    if via == "channel":
        monkeypatch.setattr(h.bot.presenter, "saw", lambda interaction: None)
    users = _hostile_players(h.fake)
    first = await _play_hand(h, users)
    await conserved(h)
    fake = h.fake
    alice = fake.user("alice")
    turn_pings = 0
    for d in fake.deliveries:
        pinged = d.pings()
        content = str(d.payload.get("content") or "")
        if content.endswith("your turn."):
            # Exactly the player the nudge is for, and him only.
            [who] = [u for u in users if content.startswith(f"<@{u.id}>")]
            assert pinged == {f"user:{who.id}"}, d
            turn_pings += 1
        else:
            assert not pinged, d
        assert not any("evil.example" in link for link in d.links()), d
        # Rendered text (content, embeds; a picture's alt text is not markdown).
        raw = "\n".join(texts(d.payload))
        assert "<@&123>" not in raw and f"<@{alice.id}>" not in raw, d
    assert turn_pings >= 1
    # The first nudge of the hand is for the first player to act, and him alone.
    assert next(d.pings() for d in fake.deliveries if d.pings()) == {f"user:{first.id}"}
    # The messages as Discord keeps them: each says whom it notified when posted.
    nudged = set()
    for m in fake.messages.values():
        if m.content.endswith("your turn.") and not m.ephemeral:
            assert len(m.pinged) == 1 and m.content.startswith(m.mention_of_pinged()), m
            nudged |= m.pinged
        else:
            assert not m.pinged, m
    assert nudged <= {f"user:{u.id}" for u in users} and nudged
    routes = {d.route for d in fake.deliveries if "is over" in str(d.payload.get("content"))}
    assert routes == ({"channel_message"} if via == "channel" else {"followup"}), routes
    # Seen as written: every name on the table message, and the summary names them.
    table_text = shown({"embeds": h.table_message().embeds})
    for u in users:
        assert u.name in table_text, (u.name, table_text)
    summary = next(
        d for d in reversed(fake.deliveries) if "is over" in str(d.payload.get("content"))
    )
    assert any(u.name in shown(summary.payload) for u in users), summary


async def test_r1_12_names_are_kept_as_written_and_escaped_where_shown(hostile: Harness) -> None:
    """R-1.12: the table keeps the name as written (cleaned, capped), not escaped; the
    table message shows it escaped (as written, no link); the picture gets it plain."""
    h = hostile
    raw = "[free](https://evil.example)"
    users = [h.fake.add_user(raw), h.fake.add_user("b" * 60)]
    await h.slash(users[0], "table create")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    seats = {s.user_id: s.name for s in h.table().snapshot(None).seats}
    assert seats[str(users[0].id)] == names.kept(raw) == raw
    assert seats[str(users[1].id)] == "b" * 31 + "…"
    await h.bot.presenter.refresh(h.tid)
    await h.settle()
    payload = {"embeds": h.table_message().embeds}
    assert links(payload) == [] and raw in shown(payload)
    assert names.escape(raw) in "\n".join(texts(payload))
    assert h.table().state.conservation_error() is None


async def test_r1_12_a_name_kept_escaped_by_an_older_version_is_not_escaped_twice(
    hostile: Harness,
) -> None:
    """R-1.12: a seat whose name an older version kept escaped still shows as written:
    on the table message, in the public lines of a hand and in /table info, escaped
    once (a doubled escape would show its backslashes)."""
    h = hostile
    alice, bob = h.fake.user("alice"), h.fake.user("bob")
    await h.slash(alice, "table create")
    await h.slash(alice, "sit", buy_in=200)
    raw = "**big** [x](https://ev.il)"
    old = names.display(raw)  # as an older version stored it
    sat = await h.table().sit(str(bob.id), old, 200, key="older-version")
    assert sat.ok, sat.msg
    await h.slash(alice, "deal")
    for _ in range(40):
        if not h.table().state.in_hand:
            break
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    await h.settle()
    await conserved(h)
    said = [
        "\n".join(texts(d.payload)) for d in h.fake.deliveries if old in "\n".join(texts(d.payload))
    ]
    assert said, "the old name is shown somewhere"
    for text in said:
        assert "\\\\" not in text and names.escape(old) == old
        assert links({"content": text}) == []
    assert any(raw in shown(d.payload) for d in h.fake.deliveries)
    await h.slash(alice, "table info")
    info = {"content": h.last_ephemeral(alice)}
    assert raw in shown(info) and "\\\\" not in info["content"]


# ------------------------------------------------------------------ places


def _command_names(fake: FakeDiscord) -> list[str]:
    return sorted(c["name"] for c in fake.commands)


async def test_r1_11_every_command_is_guild_only_in_the_synced_payload(h: Harness) -> None:
    """R-1.11: the payload synced to Discord declares every command for servers only
    (``contexts`` [GUILD], ``integration_types`` [GUILD_INSTALL], no DM permission) and
    asks no member permission of anyone (hosts are members; the table judges host or
    moderator). The fake then offers none of them in a DM, as Discord does."""
    commands = h.fake.commands
    tree = sorted(c.name for c in h.bot.tree.get_commands())
    assert _command_names(h.fake) == tree and {"table", "sit", "leaderboard"} <= set(tree)
    for cmd in commands:
        assert cmd["contexts"] == [0], cmd
        assert cmd["integration_types"] == [0], cmd
        assert cmd["dm_permission"] is False, cmd
        assert cmd["default_member_permissions"] is None, cmd
    alice = h.fake.user("alice")
    dm = h.fake.dm_channel(alice)
    for name in ("table create", "sit", "rules", "leaderboard"):
        with pytest.raises(PermissionError):
            await h.fake.slash(alice, name, channel=dm, **({"buy_in": 10} if name == "sit" else {}))
    assert h.bot.service is not None and h.bot.service.get(str(dm.id)) is None


async def test_r1_11_a_command_from_a_dm_is_refused_and_changes_nothing(h: Harness) -> None:
    """R-1.11: a client still showing an older command list (synced before the commands
    were guild-only) sends ``/table create`` and ``/sit`` from a DM: each is refused
    privately with what to do, and no table is opened there."""
    fake = h.fake
    for cmd in fake.commands:  # as an older version synced them: every context
        cmd["contexts"] = None
        cmd["dm_permission"] = True
    alice = fake.user("alice")
    dm = fake.dm_channel(alice)
    await fake.slash(alice, "table create", channel=dm)
    await h.settle()
    assert h.last_ephemeral(alice) == places.NOT_IN_DMS
    await fake.slash(alice, "sit", channel=dm, buy_in=100)
    await h.settle()
    assert h.last_ephemeral(alice) == places.NOT_IN_DMS
    assert h.bot.service is not None and h.bot.service.get(str(dm.id)) is None
    assert not [m for m in fake.channel_messages(dm) if not m.ephemeral]


async def test_r1_11_a_table_bound_to_a_dm_is_closed_at_start_with_its_reason(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """R-1.11: a database from an older version holds a table opened in a DM, with a
    player seated. At the next start the table is closed (the player cashed out and
    told, R-2.5), the reason logged, and every other table starts and plays."""
    fake = fake_discord
    db = tmp_path / "dm.sqlite3"
    alice, bob, carol = players(fake)
    dm = fake.dm_channel(alice)
    bot = make_bot(db)
    async with run_bot(fake, bot, sync=True):
        h = Harness(fake, bot)
        assert bot.service is not None
        # What an older version did for /table create and /sit in a DM.
        made = await bot.service.create(str(dm.id), str(alice.id), TableSettings(), key="old-1")
        assert made.ok, made.msg
        dm_table = bot.service.table(str(dm.id))
        sat = await dm_table.sit(str(alice.id), "alice", 150, key="old-2")
        assert sat.ok, sat.msg
        await h.start_table([bob, carol])  # a table in the server's channel
    caplog.set_level(logging.WARNING, logger="cogs.moderation")
    bot2 = make_bot(db)
    async with run_bot(fake, bot2, sync=True):
        h2 = Harness(fake, bot2)
        table = bot2.table(str(dm.id))
        assert table is not None
        await fake.wait_for(lambda: table.state.closed, timeout=5)
        await bot2.presenter.drain()
        assert any(NOT_A_PLACE in r.getMessage() for r in caplog.records), caplog.text
        rows = await table.store.ledger_rows(str(dm.id))
        assert sum(r.amount for r in rows if r.kind == "cash_out") == 150
        assert table.state.conservation_error() is None
        await fake.wait_for(lambda: "closed" in fake.dm_messages(alice)[-1].content, timeout=5)
        # The server's table started and plays on.
        assert h2.table() is not None and h2.table().state.in_hand
        actor = h2.to_act()
        assert actor is not None
        turn = h2.table().state.turn
        await h2.click(actor, "check_call")
        assert h2.table().state.turn > turn
        await conserved(h2)


async def _side_thread(fake: FakeDiscord, member: FakeUser, private: bool = True) -> FakeChannel:
    """A thread a member started in the table's channel (not the table's own)."""
    thread = FakeChannel(
        snowflake(),
        "side talk",
        guild_id=fake.guild_id,
        parent=fake.channel,
        private_thread=private,
        thread_members={member.id},
        owner_id=member.id,
    )
    fake.channels[thread.id] = thread
    await fake.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
    return thread


async def test_r1_11_an_unrelated_thread_does_not_reach_the_channels_table(h: Harness) -> None:
    """R-1.11: from a private thread of the channel (all a member may post in), neither
    opening a table nor sitting, dealing or closing reaches the channel's table: each is
    refused privately with where to go instead, and nothing changes. Commands about no
    table (/rules) still work there."""
    fake = h.fake
    alice, bob, carol = players(fake)
    dave = fake.user("dave")
    thread = await _side_thread(fake, dave)
    await h.slash(dave, "table create", channel=thread)
    assert h.last_ephemeral(dave) == places.NOT_THIS_THREAD
    assert h.bot.service is not None
    assert h.bot.service.get(h.tid) is None and h.bot.service.get(str(thread.id)) is None
    await h.start_table([alice, bob, carol])
    before = h.table().digest()
    for name, opts in (("sit", {"buy_in": 100}), ("deal", {}), ("table close", {})):
        await h.slash(dave, name, channel=thread, **opts)
        assert h.last_ephemeral(dave) == places.NOT_THIS_THREAD, name
    assert h.table().digest() == before
    assert str(dave.id) not in {s.user_id for s in h.table().snapshot(None).seats}
    assert h.table().snapshot(None).host == str(alice.id)
    await h.slash(dave, "rules", channel=thread, rule="R-1.11")
    assert h.last_ephemeral(dave).startswith("**R-1.11**")
    await conserved(h)


async def test_r1_11_the_tables_own_thread_still_reaches_its_table(h: Harness) -> None:
    """R-1.11: the thread the dealer opened for the table is the table's place: a seat
    taken and an action made there are the channel's table's. R-2.5."""
    fake = h.fake
    alice, bob, carol = players(fake)
    await h.start_table([alice, bob], thread=True)
    thread_id = h.bot.presenter.channel(h.tid).thread_id
    assert thread_id
    thread = fake.channels[thread_id]
    await h.slash(carol, "sit", channel=thread, buy_in=100)
    assert str(carol.id) in {s.user_id for s in h.table().snapshot(None).seats}
    actor = h.to_act()
    assert actor is not None
    turn = h.table().state.turn
    await h.slash(actor, "call", channel=thread)
    assert h.table().state.turn > turn
    await conserved(h)


async def test_fake_discord_offers_a_command_only_to_members_with_its_permissions(
    h: Harness,
) -> None:
    """The fake as Discord: a command synced with ``default_member_permissions`` is not
    offered to a member without them (Administrator has them all)."""
    fake = h.fake
    fake.command("deal")["default_member_permissions"] = str(1 << 4)  # Manage Channels
    dave = fake.user("dave")
    dave.permissions = str(1 << 11)  # Send Messages only
    with pytest.raises(PermissionError):
        await fake.slash(dave, "deal")
    dave.permissions = str(1 << 3)  # Administrator
    await h.slash(dave, "deal")
    assert "table" in h.last_ephemeral(dave).lower()  # offered, and answered: no table


async def test_r1_12_a_name_kept_raw_by_an_older_version_is_escaped_where_shown(
    hostile: Harness,
) -> None:
    """R-1.12: a seat whose name an older version kept raw (not escaped) is still shown
    as written on the table message and in /table info: no link, no pill."""
    h = hostile
    alice, bob = h.fake.user("alice"), h.fake.user("bob")
    await h.slash(alice, "table create")
    await h.slash(alice, "sit", buy_in=200)
    raw = "[free](https://evil.example) <@&123>"
    sat = await h.table().sit(str(bob.id), raw, 200, key="older-version")  # as stored then
    assert sat.ok, sat.msg
    await h.bot.presenter.refresh(h.tid)
    await h.settle()
    payload = {"embeds": h.table_message().embeds}
    assert links(payload) == [] and "<@&123>" not in "\n".join(texts(payload))
    assert raw in shown(payload)
    await h.slash(alice, "table info")
    info = {"content": h.last_ephemeral(alice)}
    assert links(info) == [] and raw in shown(info)
