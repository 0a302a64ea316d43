"""End to end: the real discord.py client, the cogs, the table service and a real
SQLite file, against the fake Discord. A leak guard runs after every test."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.poker.messages import msg
from cogs.app import ChipfistBot
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.said import told

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")


def make_bot(db: Path) -> ChipfistBot:
    return ChipfistBot(str(db), clocks=False, sync=False, **FakeDiscord.client_options())


class Harness:
    def __init__(self, fake: FakeDiscord, bot: ChipfistBot) -> None:
        self.fake = fake
        self.bot = bot
        self.guard: LeakGuard | None = None
        self.db: Path | None = None

    @property
    def tid(self) -> str:
        return str(self.fake.channel.id)

    def table(self) -> Any:
        assert self.bot.service is not None
        return self.bot.service.get(self.tid)

    async def settle(self) -> None:
        await self.bot.presenter.drain()
        await self.fake.wait_idle(0.05)

    async def slash(self, user: FakeUser, command: str, **opts: Any) -> Any:
        rec = await self.fake.slash(user, command, **opts)
        await self.settle()
        return rec

    def table_message(self) -> FakeMessage:
        mid = self.bot.presenter.channel(self.tid).message_id
        return self.fake.message(mid)

    def to_act(self) -> FakeUser | None:
        view = self.table().snapshot(None)
        seat = next((s for s in view.seats if s.seat == view.to_act), None)
        return None if seat is None else self.fake.users[int(seat.user_id)]

    def button(self, kind: str) -> str:
        ids = [c for c in self.table_message().custom_ids() if c.endswith(":" + kind)]
        assert ids, self.table_message().custom_ids()
        return ids[0]

    async def click(self, user: FakeUser, kind: str) -> Any:
        rec = await self.fake.click(user, self.table_message(), self.button(kind))
        await self.settle()
        return rec

    async def fold_to_one(self) -> None:
        """Every player to act folds by his button until the hand is over (at most
        three folds: the tables these tests deal hold four or fewer)."""
        for _ in range(3):
            if not self.table().state.in_hand:
                return
            actor = self.to_act()
            assert actor is not None
            await self.click(actor, "fold")

    def last_ephemeral(self, user: FakeUser) -> str:
        eph = self.fake.ephemerals(user)
        return eph[-1].content if eph else ""

    async def start_table(self, users: list[FakeUser], **create: Any) -> None:
        await self.slash(users[0], "table create", **create)
        for u in users:
            await self.slash(u, "sit", buy_in=200)
        await self.slash(users[0], "deal")


def hole_cards(fake: FakeDiscord, bot: ChipfistBot, tid: str) -> dict[int, set[str]]:
    """Every player's private cards, read from the service (the truth)."""
    table = bot.service.get(tid)  # type: ignore[union-attr]
    out: dict[int, set[str]] = {}
    for seat in table.snapshot(None).seats:
        mine = table.snapshot(seat.user_id)
        me = next(s for s in mine.seats if s.user_id == seat.user_id)
        public = set(seat.cards)
        out[int(seat.user_id)] = {c for c in me.cards if c != "??"} - public
    return out


def assert_no_leak(fake: FakeDiscord, secrets: dict[int, set[str]], upto: int) -> None:
    """No delivery before index ``upto`` visible to someone else holds a secret card."""
    for d in fake.deliveries[:upto]:
        for owner, cards in secrets.items():
            others = [u for u in fake.users if u != owner and not fake.users[u].bot]
            if not any(_sees(d.audience, u) for u in others):
                continue
            found = set(CARD.findall(d.text())) & cards
            assert not found, f"{found} of {owner} leaked in {d!r}"


def _sees(audience: str, uid: int) -> bool:
    from tests.fakediscord import audience_includes

    return audience_includes(audience, uid)


class LeakGuard:
    """Watches the service's notices, hand by hand: which cards were private to whom and
    which the table disclosed publicly. After the test, no delivery made during a hand
    that someone other than the owner can see may hold a private card of that hand the
    table never disclosed (a card of hand 1 may well be on the board of hand 2)."""

    def __init__(self) -> None:
        self.fake: FakeDiscord | None = None
        self.starts: list[int] = []  # delivery index when each hand started
        self.private: list[dict[str, set[str]]] = []
        self.disclosed: list[set[str]] = []
        self.hand_nos: list[int | None] = []  # the table's hand number of each window

    def _hand(self, hand_no: int | None = None) -> None:
        self.starts.append(len(self.fake.deliveries) if self.fake is not None else 0)
        self.hand_nos.append(hand_no)
        self.private.append({})
        # The last hand's public cards may still be on their way (queued deliveries).
        self.disclosed.append(set(self.disclosed[-1]) if self.disclosed else set())

    def wrap(self, presenter: Any, fake: FakeDiscord | None = None) -> None:
        public, private = presenter.public, presenter.private
        self.fake = fake or self.fake

        async def on_public(table_id: str, notice: Any) -> None:
            if notice.kind == "hand_started" or not self.starts:
                data = notice.data or {}
                self._hand(data.get("hand_no") if notice.kind == "hand_started" else None)
            self.disclosed[-1].update(CARD.findall(told(notice)))
            await public(table_id, notice)

        async def on_private(table_id: str, user_id: str, notice: Any) -> None:
            if not self.starts:
                self._hand()
            event = notice.data.get("event") if notice.data else None
            for c in tuple(getattr(event, "cards", ()) or ()) + tuple(
                getattr(event, "received", ()) or ()
            ):
                self.private[-1].setdefault(user_id, set()).add(c)
            await private(table_id, user_id, notice)

        presenter.public, presenter.private = on_public, on_private

    def check(self, fake: FakeDiscord) -> None:
        if not self.starts:
            return  # nothing private was ever told
        humans = [u for u in fake.users.values() if not u.bot]
        ends = [*self.starts[1:], len(fake.deliveries)]
        windows = [
            (k, d)
            for k, (a, b) in enumerate(zip(self.starts, ends, strict=True))
            for d in fake.deliveries[a:b]
        ]
        for k, d in windows:
            # A hand's export (hand-N.phh) is checked against hand N, whenever it is sent.
            for filename, _ in d.attachments:
                m = re.fullmatch(r"hand-(\d+)\.phh", filename)
                if m and int(m.group(1)) in self.hand_nos:
                    k = self.hand_nos.index(int(m.group(1)))
            found = set(CARD.findall(d.text()))
            if not found:
                continue
            for owner, cards in self.private[k].items():
                secret = (found & cards) - self.disclosed[k]
                if not secret:
                    continue
                viewers = [u.name for u in humans if str(u.id) != owner and _sees(d.audience, u.id)]
                assert not viewers, f"hand {k + 1}: {secret} of {owner} seen by {viewers}: {d!r}"


@pytest_asyncio.fixture
async def h(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    guard = LeakGuard()
    guard.wrap(bot.presenter, fake_discord)
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        harness.guard = guard
        harness.db = tmp_path / "chipfist.sqlite3"
        yield harness
    guard.check(fake_discord)


def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user(n) for n in ("alice", "bob", "carol")]


async def test_holdem_hand_to_showdown_with_buttons(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    secrets = hole_cards(fake, h.bot, h.tid)
    assert all(len(c) == 2 for c in secrets.values())
    # Hole cards went by DM, with an image.
    for u in users:
        dms = fake.dm_messages(u)
        assert dms and dms[0].attachments, u.name
    # Check/call everyone down to showdown with buttons.
    for _ in range(40):
        view = h.table().snapshot(None)
        if view.phase not in ("betting",):
            break
        actor = h.to_act()
        assert actor is not None
        mark = len(fake.deliveries)
        assert_no_leak(fake, secrets, mark)
        await h.click(actor, "check_call")
    await h.settle()
    assert h.table().state.hand_no == 1
    assert not h.table().state.in_hand
    summary = [m for m in fake.channel_messages() if "is over" in m.content]
    assert summary
    # The showdown is drawn: the shown hands, the board and who won.
    assert summary[-1].attachments
    assert any("showdown" in str(a) for a in summary[-1].attachments)


async def test_out_of_turn_and_double_click_and_non_player(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    actor = h.to_act()
    assert actor is not None
    other = next(u for u in users if u.id != actor.id)
    turn = h.table().state.turn
    await h.click(other, "fold")
    assert "not your turn" in h.last_ephemeral(other).lower()
    assert h.table().state.turn == turn
    dave = fake.user("dave")
    await h.click(dave, "fold")
    assert "/sit" in h.last_ephemeral(dave)
    # A double click: two presses of the same button before the table moves on. The
    # first applies; the second names a turn that has passed and changes nothing.
    msg = h.table_message()
    button = h.button("check_call")
    first = await fake.click(actor, msg, button, wait=False)
    second = await fake.click(actor, msg, button, wait=False)
    await fake.wait_for(lambda: first.acknowledged and second.acknowledged)
    await h.settle()
    assert h.table().state.turn == turn + 1
    assert "turn" in h.last_ephemeral(actor).lower()


async def test_raise_modal_out_of_range_then_valid(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    actor = h.to_act()
    assert actor is not None
    rec = await fake.click(actor, h.table_message(), h.button("bet_raise"))
    assert rec.modal is not None
    legal = h.table().snapshot(str(actor.id)).legal
    turn = h.table().state.turn
    await fake.submit_modal(actor, rec, {"to": str(legal.max_to + 1000)})
    await h.settle()
    assert h.table().state.turn == turn
    assert str(legal.min_to) in h.last_ephemeral(actor)
    rec = await fake.click(actor, h.table_message(), h.button("bet_raise"))
    await fake.submit_modal(actor, rec, {"to": str(legal.min_to)})
    await h.settle()
    assert h.table().state.turn > turn


async def test_dms_closed_fallback_and_show_my_cards(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    fake.close_dms(users[1])
    await h.start_table(users)
    note = [m.content for m in fake.channel_messages() if "Show my cards" in m.content]
    assert note and users[1].mention in note[0]
    await fake.click(users[1], h.table_message(), h.button("cards"))
    await h.settle()
    secrets = hole_cards(fake, h.bot, h.tid)
    text = h.last_ephemeral(users[1])
    assert set(CARD.findall(text)) == secrets[users[1].id]
    assert_no_leak(fake, secrets, len(fake.deliveries))


async def play_out(h: Harness, choice: dict[int, str] | None = None) -> None:
    """Play the current hand to its end: call/check with buttons, stand pat with /draw,
    declare from the DM buttons."""
    fake = h.fake
    for _ in range(80):
        table = h.table()
        if not table.state.in_hand:
            return
        view = table.snapshot(None)
        if view.phase == "betting":
            actor = h.to_act()
            assert actor is not None
            await h.click(actor, "check_call")
        elif view.phase == "draw":
            actor = h.to_act()
            assert actor is not None
            await h.slash(actor, "draw")
        elif view.phase == "declare":
            hand = table.state.hand
            info = table.state.current
            pending = [info.users[p] for p in hand.declare_pending()]
            uid = int(pending[0])
            user = fake.users[uid]
            word = (choice or {}).get(uid, "high")
            dm = next(m for m in reversed(fake.dm_messages(user)) if m.custom_ids())
            button = next(c for c in dm.custom_ids() if c.endswith(":" + word))
            await fake.click(user, dm, button)
            await h.settle()
        else:
            await h.settle()
    raise AssertionError("the hand did not end")


async def test_stud_hand(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users, variant="stud", structure="fixed", small_bet=2, big_bet=4, ante=1)
    assert h.table().state.in_hand
    await play_out(h)
    assert h.table().state.hand_no == 1 and not h.table().state.in_hand


async def test_short_deck_hand_deals_sixes_to_aces_and_names_the_winner(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users, variant="shortdeck")
    secrets = hole_cards(h.fake, h.bot, h.tid)
    dealt = {c for cards in secrets.values() for c in cards}
    assert len(dealt) == 6 and all(c[0] not in "2345" for c in dealt)
    await play_out(h)
    assert not h.table().state.in_hand
    assert "Short-deck hold'em" in str(h.table_message().embeds[0])
    said = " ".join(m.content for m in h.fake.channel_messages())
    assert re.search(r"main pot: .+ with ", said), said


async def test_draw_hand(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(users, variant="draw5")
    while h.table().snapshot(None).phase == "betting":
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    assert h.table().snapshot(None).phase == "draw"
    # The first drawer discards two cards from the private menu under "Show my cards".
    drawer = h.to_act()
    assert drawer is not None
    before = set(
        CARD.findall(
            " ".join(
                next(
                    s.cards
                    for s in h.table().snapshot(str(drawer.id)).seats
                    if s.user_id == str(drawer.id)
                )
            )
        )
    )
    await h.click(drawer, "cards")
    menu = fake.ephemerals(drawer)[-1]
    select = next(c for c in menu.custom_ids() if c.startswith("cf:draw:"))
    discard = sorted(before)[:2]
    await fake.click(drawer, menu, select, values=discard)
    await h.settle()
    after = next(
        s.cards for s in h.table().snapshot(str(drawer.id)).seats if s.user_id == str(drawer.id)
    )
    assert not set(discard) & set(after)
    assert fake.dm_messages(drawer)[-1].attachments  # the new cards, by DM
    await play_out(h)
    assert not h.table().state.in_hand
    # The draw's new cards (none when standing pat) and the deal went privately.
    assert all(h.fake.dm_messages(u) for u in users)


async def test_chip_fist_declare_hand(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(
        users, variant="omaha8", structure="fixed", small_bet=2, big_bet=4, declare="simultaneous"
    )
    # Bet to the declaration.
    while h.table().state.in_hand and h.table().snapshot(None).phase == "betting":
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    assert h.table().state.in_hand  # check/call never ends a hand before the declaration
    assert h.table().snapshot(None).phase == "declare"
    mark = len(fake.deliveries)
    words = {users[0].id: "high", users[1].id: "low", users[2].id: "both"}
    # Declare all but the last; nothing public may say who chose what.
    for u in users[:2]:
        dm = next(m for m in reversed(fake.dm_messages(u)) if m.custom_ids())
        await fake.click(u, dm, next(c for c in dm.custom_ids() if c.endswith(":" + words[u.id])))
        await h.settle()
        assert "final" in fake.dm_messages(u)[-1].content or "final" in h.last_ephemeral(u)
    for d in fake.deliveries[mark:]:
        if d.audience == "public":
            text = d.text().lower()
            assert not re.search(r"\b(low|high|both)\b", text), d
    table_text = h.table_message().embeds[0]
    assert "2 of 3 fists closed" in str(table_text)
    await play_out(h, words)
    reveal = [m for m in fake.channel_messages() if "is over" in m.content][-1]
    summary = reveal.content.lower()
    assert re.search(r"\bboth\b", summary) and re.search(r"\blow\b", summary)
    assert reveal.attachments  # the open fists, drawn
    # then: the fists first, then the shown hands with the cards they play.
    files = [a.filename for a in reveal.attachments]
    assert files == ["declarations.png", "showdown.png"], files


async def test_restart_mid_hand_buttons_still_work(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "chipfist.sqlite3"
    guard = LeakGuard()
    bot = make_bot(db)
    guard.wrap(bot.presenter, fake_discord)
    users = players(fake_discord)
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        await h.start_table(users)
        await h.click(h.to_act(), "check_call")  # type: ignore[arg-type]
        message = h.table_message()
        turn = h.table().state.turn
        # A raise modal is open when the bot goes down.
        raiser = h.to_act()
        assert raiser is not None
        modal = await fake_discord.click(raiser, message, h.button("bet_raise"))
        min_to = h.table().snapshot(str(raiser.id)).legal.min_to
    bot2 = make_bot(db)
    guard.wrap(bot2.presenter)
    async with run_bot(fake_discord, bot2):
        h2 = Harness(fake_discord, bot2)
        assert h2.table().state.turn == turn and h2.table().state.in_hand
        await fake_discord.submit_modal(raiser, modal, {"to": str(min_to)})
        await h2.settle()
        turn += 1
        assert h2.table().state.turn == turn, h2.last_ephemeral(raiser)
        message = fake_discord.message(message.id)
        actor = h2.to_act()
        assert actor is not None
        button = next(c for c in message.custom_ids() if c.endswith(":check_call"))
        await fake_discord.click(actor, message, button)
        await h2.settle()
        assert h2.table().state.turn == turn + 1
        assert bot2.presenter.channel(h2.tid).message_id == message.id
        await play_out(h2)
        assert not h2.table().state.in_hand
    guard.check(fake_discord)


async def test_rate_limit_is_survived(h: Harness) -> None:
    """Issue 15 ("a 429 never surfaces to a player"): 429s on the table message's edits
    and on the hole-card DMs of the next deal are waited out; the hands play on and every
    player gets his cards. R-2.5 holds."""
    users = players(h.fake)
    await h.start_table(users)
    await play_out(h)
    h.fake.rate_limit("PATCH", times=2, retry_after=0.05)
    h.fake.rate_limit("POST /channels", times=2, retry_after=0.05)
    await h.slash(users[0], "deal")
    await play_out(h)
    assert h.fake.rate_limited >= 2
    assert not h.table().state.in_hand
    for user in users:
        assert len([m for m in h.fake.dm_messages(user) if m.attachments]) == 2
    assert h.table().conservation_error() is None


async def test_holdem_split_pot(h: Harness, monkeypatch: Any) -> None:
    """A stacked deck: the board is a broadway straight nobody can beat or improve, so
    the pot is split three ways (R-11.1)."""
    import bot.table.table as table_module
    from bot.poker.hand import Hand

    top = ["2d", "3h", "4d", "5h", "6d", "7h", "As", "Kd", "Qh", "Jc", "Tc"]
    ranks, suits = "23456789TJQKA", "cdhs"
    rest = [r + s for r in ranks for s in suits if r + s not in top]

    def stacked(rules: Any, stacks: Any, deck: Any = None, **kw: Any) -> Hand:
        return Hand(rules, stacks, [*top, *rest], **kw)

    monkeypatch.setattr(table_module, "Hand", stacked)
    users = players(h.fake)
    await h.start_table(users)
    await play_out(h)
    state = h.table().state
    assert not state.in_hand
    stacks = sorted(s.stack for s in state.seats.values())
    assert stacks == [200, 200, 200]  # everyone called 2 and got 2 back
    summary = [m.content for m in h.fake.channel_messages() if "is over" in m.content][-1]
    assert "main pot:" in summary and summary.count(" 2") >= 3, summary


async def test_turn_ping_is_replaced_on_the_next_turn(h: Harness) -> None:
    h.bot.presenter.ping_delay = 0.0
    users = players(h.fake)
    await h.start_table(users)
    await h.settle()
    first = h.to_act()
    assert first is not None
    pings = [m for m in h.fake.channel_messages() if "your turn" in m.content]
    assert len(pings) == 1 and first.mention in pings[0].content
    await h.click(first, "check_call")
    second = h.to_act()
    assert second is not None
    pings = [m for m in h.fake.channel_messages() if "your turn" in m.content]
    assert len(pings) == 1 and second.mention in pings[0].content  # the old one is gone


async def test_slash_actions_pot_and_errors(h: Harness, monkeypatch: Any) -> None:
    fake = h.fake
    users = players(fake)
    await h.slash(users[0], "call")
    assert "create" in h.last_ephemeral(users[0])
    await h.start_table(users)
    actor = h.to_act()
    assert actor is not None
    await h.slash(actor, "pot")
    assert "To call" in h.last_ephemeral(actor) and "You may" in h.last_ephemeral(actor)
    dave = fake.user("dave")
    await h.slash(dave, "call")
    assert "/sit" in h.last_ephemeral(dave)
    # A bug: the player gets an apology with an error id, never a traceback.
    table = h.table()

    async def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(table, "act", boom)
    await h.slash(actor, "call")
    text = h.last_ephemeral(actor)
    assert "error id" in text and "secret internals" not in text
    choices = await fake.autocomplete(users[0], "table create", "variant", variant="stud")
    assert any(c["value"] == "stud" for c in choices)


async def test_only_host_or_moderator_manages(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users)
    # carol has no Manage Channels permission and is not the host: refused, nothing done.
    users[2].permissions = str(1 << 11)  # SEND_MESSAGES only
    await h.slash(users[2], "table pause")
    assert not h.table().state.paused
    answer = h.last_ephemeral(users[2]).lower()
    assert "host" in answer or "moderator" in answer, answer
    # bob has Manage Channels (all permissions): a moderator may pause.
    await h.slash(users[1], "table pause")
    assert h.table().state.paused


def test_leak_guard_catches_a_leak() -> None:
    from tests.fakediscord import Delivery

    guard = LeakGuard()
    fake = FakeDiscord(member_names=())
    guard.fake = fake
    fake.users[1] = FakeUser(1, "owner")
    fake.users[2] = FakeUser(2, "other")
    guard._hand()  # hand 1: a card of the owner's leaks publicly
    guard.private[0]["1"] = {"Ah", "Kd"}
    fake.deliveries.append(Delivery("public", {"content": "owner holds Ah"}, []))
    with pytest.raises(AssertionError):
        guard.check(fake)
    guard.disclosed[0].add("Ah")  # once the table disclosed it, it is no leak
    guard.check(fake)
    guard._hand()  # hand 2: the same card on a public line is no leak of hand 1's secret
    fake.deliveries.append(Delivery("public", {"content": "the board: Kd"}, []))
    guard.check(fake)


async def test_bump_and_table_show_repost_at_the_bottom(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    old = h.table_message()
    await fake.say(users[0], "chatter that scrolls the table away")
    await h.click(users[0], "bump")
    new = h.table_message()
    assert new.id != old.id and fake.message(old.id).deleted
    assert fake.last_message() is not None and fake.last_message().id == new.id
    await h.slash(users[1], "table show")
    assert h.table_message().id != new.id and fake.message(new.id).deleted
    # The re-posted message still plays.
    actor = h.to_act()
    assert actor is not None
    turn = h.table().state.turn
    await h.click(actor, "check_call")
    assert h.table().state.turn == turn + 1


async def test_declare_fallback_when_dms_are_closed(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    fake.close_dms(users[2])
    await h.start_table(
        users, variant="omaha8", structure="fixed", small_bet=2, big_bet=4, declare="simultaneous"
    )
    while h.table().snapshot(None).phase == "betting":
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    assert h.table().snapshot(None).phase == "declare"
    await h.click(users[2], "cards")
    eph = fake.ephemerals(users[2])[-1]
    button = next(c for c in eph.custom_ids() if c.endswith(":both"))
    await fake.click(users[2], eph, button)
    await h.settle()
    assert "final" in h.last_ephemeral(users[2])
    await play_out(h, {users[0].id: "high", users[1].id: "low"})
    summary = [m.content for m in fake.channel_messages() if "is over" in m.content][-1]
    assert "both" in summary.lower()


async def test_declare_in_turn_uses_table_buttons(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(
        users, variant="omaha8", structure="fixed", small_bet=2, big_bet=4, declare="in_turn"
    )
    while h.table().snapshot(None).phase == "betting":
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    assert h.table().snapshot(None).phase == "declare"
    for _ in range(3):
        if h.table().snapshot(None).phase != "declare":
            break
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "high")
    await h.settle()
    assert not h.table().state.in_hand


async def test_guts_in_or_out_by_sealed_dm_buttons(h: Harness) -> None:
    """R-15.2: Guts calls use the chip-fist components: a DM with In/Out, sealed until
    everyone has called; the table shows only the count; the calls open together."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users, variant="guts", structure="no_limit")
    assert h.table().snapshot(None).phase == "guts"
    mark = len(fake.deliveries)
    calls = {users[0].id: "in", users[1].id: "out", users[2].id: "in"}
    for u in users[:2]:
        dm = next(m for m in reversed(fake.dm_messages(u)) if m.custom_ids())
        await fake.click(u, dm, next(c for c in dm.custom_ids() if c.endswith(":" + calls[u.id])))
        await h.settle()
    for d in fake.deliveries[mark:]:
        if d.audience == "public":
            assert not re.search(r"\b(alice|bob)\W{0,3}(is )?(in|out)\b", d.text().lower()), d
    assert "2 of 3 fists closed" in str(h.table_message().embeds[0])
    u = users[2]
    dm = next(m for m in reversed(fake.dm_messages(u)) if m.custom_ids())
    await fake.click(u, dm, next(c for c in dm.custom_ids() if c.endswith(":in")))
    await h.settle()
    assert not h.table().state.in_hand
    said = " ".join(m.content for m in fake.channel_messages()).lower()
    assert "calls:" in said and "out" in said
    assert h.table().conservation_error() is None


async def test_ledger_chart_settle_and_stats_after_a_hand(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    # Everyone but the big blind folds: a hand with a winner and losers.
    for _ in range(10):
        if not h.table().state.in_hand:
            break
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "fold")
    assert not h.table().state.in_hand
    await h.slash(users[1], "ledger")
    eph = fake.ephemerals(users[1])[-1]
    assert eph.attachments and "+" in eph.content  # the chart and the numbers
    await h.slash(users[1], "settle")
    assert " pays " in h.last_ephemeral(users[1])
    await h.slash(users[1], "stats")
    assert "1 hand played" in h.last_ephemeral(users[1])  # not "1 hands" (issue 12)
    await h.slash(users[1], "rules", rule="R-6.2")
    assert h.last_ephemeral(users[1]).startswith("**R-6.2** String raise")


async def test_table_in_its_own_thread(h: Harness) -> None:
    fake = h.fake
    users = players(fake)
    await h.start_table(users, thread=True)
    thread_id = h.bot.presenter.channel(h.tid).thread_id  # the Discord side's record
    assert thread_id
    mid = h.bot.presenter.channel(h.tid).message_id
    table_msg = fake.message(mid)
    assert table_msg is not None and table_msg.channel.id == thread_id  # posted in the thread
    # Buttons on the thread's table message still drive the hand.
    actor = h.to_act()
    assert actor is not None
    await h.click(actor, "fold")
    assert h.table().state.turn > 1


async def test_stale_button_from_an_older_message_changes_nothing(h: Harness) -> None:
    """A client still showing an older table message clicks a button of a turn that has
    passed: it is recognised as stale (R-6.1) and changes nothing."""
    fake = h.fake
    users = players(fake)
    await h.start_table(users)
    old_id = h.button("check_call")
    first = h.to_act()
    assert first is not None
    await h.click(first, "check_call")
    second = h.to_act()
    assert second is not None and second != first
    turn_before = h.table().state.turn
    await fake.click(second, h.table_message(), old_id, stale=True)
    await h.settle()
    assert h.table().state.turn == turn_before  # nothing applied
    answer = h.last_ephemeral(second).lower()
    assert "turn" in answer or "stale" in answer or "already" in answer, answer


async def test_table_create_says_which_bot_permissions_are_missing(h: Harness) -> None:
    users = players(h.fake)
    h.fake.app_permissions = str(1 << 10)  # VIEW_CHANNEL only: cannot send or attach
    await h.slash(users[0], "table create")
    answer = h.last_ephemeral(users[0]).lower()
    assert "missing" in answer and "send" in answer, answer
    assert h.bot.service.get(h.tid) is None  # no table was created


async def test_table_thread_survives_a_restart(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The table's own thread is the Discord side's record (cogs/prefs.py), not a table
    setting: after a restart on the same file the table still plays in its thread."""
    db = tmp_path / "chipfist.sqlite3"
    users = players(fake_discord)
    bot = make_bot(db)
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        await h.start_table(users, thread=True)
        thread_id = bot.presenter.channel(h.tid).thread_id
        assert thread_id and "thread_id" not in h.table().settings.to_dict()
    bot2 = make_bot(db)
    async with run_bot(fake_discord, bot2, sync=True):
        h2 = Harness(fake_discord, bot2)
        assert bot2.presenter.channel(h2.tid).thread_id == thread_id
        actor = h2.to_act()
        assert actor is not None
        await h2.click(actor, "fold")
        table_msg = fake_discord.message(bot2.presenter.channel(h2.tid).message_id or 0)
        assert table_msg.channel.id == thread_id  # still edited in the thread


async def test_notify_choice_survives_a_restart(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """/notify dm is stored: after a restart on the same file the turn nudge still goes
    by DM, and a later /notify channel takes over again."""
    db = tmp_path / "chipfist.sqlite3"
    users = players(fake_discord)
    alice = users[0]
    bot = make_bot(db)
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        await h.slash(alice, "notify", mode="dm")
        assert "by DM" in h.last_ephemeral(alice)
        await h.slash(users[1], "notify", mode="dm")
        await h.slash(users[1], "notify", mode="channel")
    bot2 = make_bot(db)
    async with run_bot(fake_discord, bot2, sync=True):
        h2 = Harness(fake_discord, bot2)
        assert bot2.presenter.ping_mode == {str(alice.id): "dm", str(users[1].id): "channel"}
        bot2.presenter.ping_delay = 0.0
        await h2.start_table(users)
        await h2.settle()
        first = h2.to_act()
        assert first is not None
        while first is not alice:  # play on until it is alice's turn
            await h2.click(first, "check_call")
            first = h2.to_act()
            assert first is not None
        await h2.settle()
        dms = [m.content for m in fake_discord.dm_messages(alice)]
        assert any("your turn" in text for text in dms), dms
        pings = [m.content for m in fake_discord.channel_messages() if "your turn" in m.content]
        assert not any(alice.mention in p for p in pings), pings


async def test_r13_1_table_create_with_declare_for_a_game_that_is_not_high_low_is_refused(
    h: Harness,
) -> None:
    """`/table create variant:stud declare:simultaneous` made a plain stud table that
    never declared: refused in words, naming the games declare is for; no table."""
    users = players(h.fake)
    await h.slash(users[0], "table create", variant="stud", declare="simultaneous")
    reply = h.last_ephemeral(users[0])
    assert "declare is played in high-low games (R-13.1)" in reply, reply
    assert h.bot.service.get(h.tid) is None
    await h.slash(users[1], "table create", variant="stud8", declare="simultaneous")
    table = h.table()
    assert table is not None, h.last_ephemeral(users[1])
    assert table.settings.declare == "simultaneous" and table.settings.variant == "stud8"


async def test_r16_2_table_settings_turns_a_rotation_off_and_a_game_ends_it(h: Harness) -> None:
    """`/table settings rotation none` turns HORSE off (it was refused), and a game named
    under a rotation is the game dealt (it said so and dealt the rotation's)."""
    users = players(h.fake)
    await h.slash(users[0], "table create")
    await h.slash(users[0], "table settings", name="rotation", value="horse")
    assert len(h.table().settings.rotation) == 5, h.last_ephemeral(users[0])
    await h.slash(users[0], "table settings", name="rotation", value="none")
    assert h.table().settings.rotation == (), h.last_ephemeral(users[0])
    await h.slash(users[0], "table settings", name="rotation", value="horse")
    await h.slash(users[0], "table settings", name="game", value="plo")
    settings = h.table().settings
    assert settings.rotation == () and settings.games() == (("omaha", "pot_limit"),)
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[0], "deal")
    assert h.table().snapshot(None).title_said == msg("game.omaha"), h.table().snapshot(None)
