"""Tournaments on Discord, end to end through the real discord.py client and the fake
Discord: ``/tournament create``, registration by the announcement's buttons with its
live count, a sit-and-go starting itself when full, every table in a thread of its
own, the players playing it out by the tables' buttons, the final standings posted;
chips constant (R-2.5) and no hole card in a public message of any table."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest_asyncio

from bot.poker.messages import Msg, msg
from bot.tournament.structure import Level
from bot.tourney_run.options import Options, config, payout_table
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id as tourney_table
from bot.words import render
from cogs.ids import decode
from cogs.tournament_cog import TournamentCog
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.fakediscord.state import Delivery
from tests.test_discord_e2e import Harness, LeakGuard, make_bot

COUNT = re.compile(r"(\d+) registered")


class TableGuards:
    """A leak guard per tournament table (tests/test_discord_e2e.py's, fed only that
    table's notices and judging only the messages in that table's thread): two
    tables deal from two decks, so a card private at one may be public at the other."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.guards: dict[str, tuple[LeakGuard, SimpleNamespace]] = {}

    def _guard(self, table_id: str) -> SimpleNamespace:
        if table_id not in self.guards:

            async def nothing(*_: Any) -> None:
                return None

            shim = SimpleNamespace(public=nothing, private=nothing)
            guard = LeakGuard()
            guard.wrap(shim, self.fake)
            self.guards[table_id] = (guard, shim)
        return self.guards[table_id][1]

    def wrap(self, presenter: Any) -> None:
        public, private = presenter.public, presenter.private

        async def on_public(table_id: str, notice: Any) -> None:
            if table_id.startswith("tn:"):
                await self._guard(table_id).public(table_id, notice)
            await public(table_id, notice)

        async def on_private(table_id: str, user_id: str, notice: Any) -> None:
            if table_id.startswith("tn:"):
                await self._guard(table_id).private(table_id, user_id, notice)
            await private(table_id, user_id, notice)

        presenter.public, presenter.private = on_public, on_private

    def check(self, places: dict[str, tuple[int, int]]) -> int:
        """Every table's guard over the deliveries in its own thread; how many there
        were (so a check that saw nothing cannot pass unnoticed)."""
        seen = 0
        for table_id, (guard, _) in self.guards.items():
            thread = places[table_id][1]
            masked = []
            for d in self.fake.deliveries:
                mine = d.message_id is not None and self._channel(d.message_id) == thread
                seen += mine
                masked.append(d if mine else Delivery(d.audience, {}, [], None, ""))
            guard.check(SimpleNamespace(deliveries=masked, users=self.fake.users))  # type: ignore[arg-type]
        return seen

    def _channel(self, message_id: int) -> int | None:
        message = self.fake.messages.get(message_id)
        return None if message is None else message.channel.id


@pytest_asyncio.fixture
async def t(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    guards = TableGuards(fake_discord)
    guards.wrap(bot.presenter)
    async with run_bot(fake_discord, bot, sync=True):
        harness = Harness(fake_discord, bot)
        harness.guard = guards  # type: ignore[assignment]
        cog(harness).driver.interval = 0.02
        cog(harness).driver.between = 0.0
        cog(harness).boards.gap = 0.0
        yield harness


def cog(h: Harness) -> TournamentCog:
    found = h.bot.get_cog("TournamentCog")
    assert isinstance(found, TournamentCog)
    return found


def announcement(h: Harness) -> FakeMessage:
    found = [m for m in h.fake.channel_messages() if any(":reg:" in c for c in m.custom_ids())]
    assert len(found) == 1, [m.content for m in h.fake.channel_messages()]
    return h.fake.message(found[0].id)


def live_count(message: FakeMessage) -> int:
    text = " ".join(str(e.get("description", "")) for e in message.embeds)
    m = COUNT.search(text)
    assert m is not None, text
    return int(m.group(1))


async def settle(h: Harness) -> None:
    await cog(h).boards.settle()
    await h.settle()


async def register_all(h: Harness, users: list[FakeUser]) -> None:
    """Each clicks Register on the announcement; the count follows each click."""
    for n, user in enumerate(users, start=1):
        msg = announcement(h)
        reg = next(c for c in msg.custom_ids() if ":reg:" in c)
        await h.fake.click(user, msg, reg)
        await h.fake.wait_for(lambda u=user: "registered" in h.last_ephemeral(u))
        await settle(h)
        if n < len(users):
            assert live_count(announcement(h)) == n


async def act_at(
    h: Harness, runner: Runner, number: int, rng: random.Random, weights: dict[str, int]
) -> str:
    """The player to act at table ``number`` clicks one of its table message's buttons
    (by his own Discord account), chosen by ``weights``; R-2.5 after the click. His user
    id, or "" when nobody there could act."""
    table = runner.table(number)
    view = table.snapshot(None)
    seat = next((s for s in view.seats if s.seat == view.to_act), None)
    mid = h.bot.presenter.channel(table.table_id).message_id
    if seat is None or not table.state.in_hand or not mid:
        return ""
    message = h.fake.message(mid)
    turn = table.state.turn
    ids = [
        c
        for c in message.custom_ids()
        if c.startswith("cf:act:") and (b := decode(c)) is not None and b.turn == turn
    ]
    wanted = [c for c in ids if c.rsplit(":", 1)[1] in weights]
    if not wanted:
        return ""
    button = rng.choices(wanted, [weights[c.rsplit(":", 1)[1]] for c in wanted])[0]
    await h.fake.click(h.fake.users[int(seat.user_id)], message, button)
    async with cog(h).driver.lock(runner.tournament):
        runner.check_chips()  # every chip at the tables, none made or lost
    return seat.user_id


async def play_to_the_end(h: Harness, seed: int) -> int:
    """The players act by their tables' buttons (a random legal choice among those
    the table message offers) until the tournament is over; R-2.5 after every action.
    Returns the number of actions."""
    rng = random.Random(seed)
    driver = cog(h).driver
    (tournament,) = list(driver.runners)
    runner = driver.runners[tournament]
    weights = {"all_in": 1, "check_call": 6, "fold": 2}
    actions = 0
    for _ in range(4000):
        if runner.st.status == "finished":
            return actions
        acted = 0
        for number in sorted(runner.ports):
            acted += bool(await act_at(h, runner, number, rng, weights))
        actions += acted
        await settle(h)
        if not acted:
            await h.fake.wait_idle(0.02)
    raise AssertionError("the tournament did not end")


async def sit_and_go(h: Harness, players: int, seats: int, seed: int) -> None:
    fake = h.fake
    host = fake.user("alice")
    users = [fake.add_user(f"p{n}") for n in range(players)]
    await h.slash(
        host,
        "tournament create",
        format="sit_and_go",
        players=players,
        seats=seats,
        stack=300,
        structure="turbo",
        level_unit="hands",
        level_length=2,
    )
    await fake.wait_for(lambda: "is open" in h.last_ephemeral(host))
    assert live_count(announcement(h)) == 0
    await register_all(h, users)
    driver = cog(h).driver
    (tournament,) = list(driver.runners)
    runner = driver.runners[tournament]
    await fake.wait_for(lambda: runner.st.status == "running")
    # the last Register started it: registration closed, the buttons gone.
    await settle(h)
    assert not any(":unreg:" in c for c in announcement_or_none(h))
    actions = await play_to_the_end(h, seed)
    await settle(h)
    state = runner.st
    assert state.status == "finished" and state.winner is not None and actions > 0
    # every table played in its own thread under the announcement's channel
    # every table is closed at the end, so none is still the runner's).
    places = h.bot.presenter.places
    tables = -(-players // seats)
    assert sorted(places) == sorted(tourney_table(tournament, n) for n in range(1, tables + 1))
    assert {p.table.table_id for p in runner.ports.values()} <= set(places)
    for channel, thread in places.values():
        assert channel == fake.channel.id and thread and thread != channel
        assert fake.channels[thread].is_thread
    # the chips at the tables are every stack put in play, none in the ledger.
    runner.check_chips()
    assert runner.chips_at_tables() == players * 300 == state.chips
    for table_id in places:
        assert await runner.service.store.ledger_rows(table_id) == []
    # The final standings, posted once in the channel: every player, the winner first.
    posts = await standings(fake)
    assert posts[0].attachment_bytes().startswith(b"\x89PNG")  # R-19.70's picture
    text = str(posts[0].embeds[0]["description"])
    lines = text.splitlines()
    named = sorted(re.search(r"\b(p\d+)\b", line).group(1) for line in lines)  # type: ignore[union-attr]
    assert named == sorted(f"p{n}" for n in range(players)), text  # each entry once
    winner = state.names()[state.winner]
    assert text.splitlines()[0].startswith(f"1. {winner}"), text
    # No hole card of any hand in a public message of its table's thread.
    assert h.guard is not None
    seen = h.guard.check(places)  # type: ignore[attr-defined]
    assert seen > 0


async def standings(fake: FakeDiscord) -> list[FakeMessage]:
    """The final standings post, once it is there (posted after the last hand's end,
    its picture drawn in a worker thread); exactly one."""

    def posts() -> list[FakeMessage]:
        return [
            m
            for m in fake.channel_messages()
            if any("final standings" in str(e.get("title", "")) for e in m.embeds)
        ]

    await fake.wait_for(posts, timeout=10.0)
    await fake.wait_idle(0.2)
    found = posts()
    assert len(found) == 1, found
    return found


def announcement_or_none(h: Harness) -> list[str]:
    event = cog(h).boards.event(next(iter(cog(h).driver.runners)))
    title = render(msg("tourney.title", event=event), "en")
    found = [m for m in h.fake.channel_messages() if m.embeds and title in str(m.embeds)]
    return [c for m in found for c in m.custom_ids()]


async def test_r19_61_a_sit_and_go_registered_by_buttons_is_played_to_its_standings(
    t: Harness,
) -> None:
    """R-19.61, R-19.63, R-19.64, R-19.70, R-2.5: six register by the button (the count
    live), the last one starts it, they play it out in its thread by the table's
    buttons, the standings (every entry once, best first, with the picture) posted."""
    await sit_and_go(t, players=6, seats=6, seed=1)


async def test_r19_63_a_two_table_sit_and_go_is_balanced_and_broken_to_one(t: Harness) -> None:
    await sit_and_go(t, players=12, seats=6, seed=2)
    runner = next(iter(cog(t).driver.runners.values()))
    assert runner.st.broken, "one table was broken as the players fit at one"
    # the broken table was closed, and the final one once the winner
    # was known: no table of the tournament is left open.
    assert runner.ports == {}
    for number in (1, 2):
        broken = runner.service.get(tourney_table(runner.tournament, number))
        assert broken is None or broken.state.closed
    # each moved player is told by DM where his new table's thread is.
    assert runner.history, "players moved"
    places = t.bot.presenter.places
    for _, move in runner.history:
        thread = places[f"tn:{runner.tournament}:{move.to_table}"][1]
        user = t.fake.users[int(move.entry)]
        await t.fake.wait_for(
            lambda u=user, th=thread: any(
                f"<#{th}>" in m.content and "You now play at table" in m.content
                for m in t.fake.dm_messages(u)
            )
        )


SEND_ONLY = str(1 << 11)
"""A member without Manage Channels: not a moderator."""


async def create(h: Harness, user: FakeUser, **options: Any) -> str:
    """``/tournament create`` as ``user``; the private answer."""
    before = len(h.fake.ephemerals(user))
    await h.slash(user, "tournament create", **options)
    await h.fake.wait_for(lambda: len(h.fake.ephemerals(user)) > before)
    await settle(h)
    return h.last_ephemeral(user)


async def command(h: Harness, user: FakeUser, name: str, **options: Any) -> str:
    before = len(h.fake.ephemerals(user))
    await h.slash(user, f"tournament {name}", **options)
    await h.fake.wait_for(lambda: len(h.fake.ephemerals(user)) > before)
    await settle(h)
    eph = h.fake.ephemerals(user)[-1]
    return eph.content + " ".join(str(e.get("description", "")) for e in eph.embeds)


async def click(h: Harness, user: FakeUser, kind: str) -> str:
    msg = announcement(h)
    button = next(c for c in msg.custom_ids() if c.startswith(f"cft:{kind}:"))
    before = len(h.fake.ephemerals(user))
    await h.fake.click(user, msg, button)
    await h.fake.wait_for(lambda: len(h.fake.ephemerals(user)) > before)
    await settle(h)
    return h.last_ephemeral(user)


async def test_r19_60_only_a_moderator_creates_and_only_its_host_or_a_moderator_starts(
    t: Harness,
) -> None:
    fake = t.fake
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    carol.permissions = SEND_ONLY
    said = await create(t, carol, format="scheduled")
    assert "moderator" in said and "R-19.60" in said and "Nothing was changed" in said, said
    assert not cog(t).driver.runners and not any(m.custom_ids() for m in fake.channel_messages())
    assert "is open" in await create(t, alice, format="scheduled")
    (tournament,) = list(cog(t).driver.runners)
    runner = cog(t).driver.runners[tournament]
    bob.permissions = SEND_ONLY
    # anyone registers and unregisters by the buttons; the count follows.
    assert "registered" in await click(t, bob, "reg")
    assert "registered" in await click(t, carol, "reg")
    assert live_count(announcement(t)) == 2
    assert "unregistered" in await click(t, carol, "unreg")
    assert live_count(announcement(t)) == 1
    said = await command(t, bob, "start")
    assert "host or a moderator" in said and runner.st.status == "registering", said
    said = await command(t, alice, "start")
    assert runner.st.status == "registering", said  # too few: refused, nothing changed
    assert "register" in await command(t, carol, "register")
    await command(t, alice, "start")
    assert runner.st.status == "running"


async def test_r19_62_a_bad_choice_is_refused_saying_what_is_allowed(t: Harness) -> None:
    alice = t.fake.user("alice")
    said = await create(t, alice, stack=10)
    assert "100" in said and "1,000,000" in said and "Nothing was changed" in said, said
    said = await create(t, alice, payouts="30,70")
    assert "50,30,20" in said and "Nothing was changed" in said, said
    said = await create(t, alice, game="guts")
    assert "holdem" in said and "Nothing was changed" in said, said
    said = await create(t, alice, start_in=30)
    assert "scheduled" in said and "Nothing was changed" in said, said
    assert not cog(t).driver.runners
    assert not any(m.embeds for m in t.fake.channel_messages())


def test_r19_62_payouts_are_whole_percentages_highest_first_adding_to_100() -> None:
    assert payout_table("50, 30, 20") == (5000, 3000, 2000)
    assert payout_table("100%") == (10_000,)
    for bad in ("", "30,70", "50,30", "50,30,20,5", "a,b", "60.5,39.5", "100,0"):
        assert payout_table(bad) is None, bad
    made = config(Options(structure="turbo", unit="hands", length=3, format="sit_and_go"))
    assert not isinstance(made, Msg)
    assert made.max_players == 9 and made.schedule.unit == "hands"
    assert {i.length for i in made.schedule.items if isinstance(i, Level)} == {3}
    stud = config(Options(game="razz"))
    assert not isinstance(stud, Msg) and stud.schedule.forced == "bring_in"


def test_r19_53_a_full_table_of_the_game_and_horse_from_the_create_options() -> None:
    """R-19.53, R-19.50: with no seats given a table is full for the game (stud eight);
    nine seats of stud are refused saying the game's most; horse is a rotation."""
    assert not isinstance(stud := config(Options(game="stud")), Msg) and stud.seats == 8
    assert not isinstance(hold := config(Options(game="holdem")), Msg) and hold.seats == 9
    refused = config(Options(game="stud", seats=9))
    assert isinstance(refused, Msg) and refused.key == "rotation.too_many_seats"
    horse = config(Options(game="horse"))
    assert not isinstance(horse, Msg) and len(horse.game) == 5 and horse.seats == 8
    assert horse.schedule.forced == "bring_in"


async def test_r19_64_the_status_board_is_posted_kept_and_shown_privately(t: Harness) -> None:
    fake = t.fake
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    await create(t, alice, format="scheduled", stack=1000)
    said = await command(t, bob, "status")
    assert "Registration is open" in said and "0 registered" in said, said
    for user in (alice, bob, carol):
        await click(t, user, "reg")
    await command(t, alice, "start")
    runner = next(iter(cog(t).driver.runners.values()))
    await fake.wait_for(lambda: runner.table(1).state.in_hand)
    await settle(t)
    boards = [
        m for m in fake.channel_messages() if any("status" in str(e.get("title")) for e in m.embeds)
    ]
    assert len(boards) == 1
    board = " ".join(str(e.get("description")) for e in boards[0].embeds)
    assert "Level 1" in board and "3 players" in board and "average" in board, board
    said = await command(t, carol, "status")
    assert "Level 1" in said and "3 players" in said, said
    # Registration closed with the start: the Unregister button is gone.
    assert not any(c.startswith("cft:unreg:") for c in announcement_or_none(t))


class Later:
    """The service's clock, ``ahead`` seconds on."""

    def __init__(self, clock: Any, ahead: float) -> None:
        self.clock, self.ahead = clock, ahead

    def now(self) -> float:
        return float(self.clock.now()) + self.ahead


async def test_r19_65_a_scheduled_tournament_starts_by_itself_at_its_time(t: Harness) -> None:
    fake = t.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    await create(t, alice, format="scheduled", start_in=10)
    runner = next(iter(cog(t).driver.runners.values()))
    assert "<t:" in str(announcement(t).embeds)  # its start time, in each reader's zone
    await click(t, alice, "reg")
    service = t.bot.tables
    service.time = Later(service.time, 5 * 60)
    await fake.wait_idle(0.1)
    assert runner.st.status == "registering"  # not yet its time
    service.time = Later(service.time, 6 * 60)
    latest = cog(t).boards.boards[runner.tournament].latest
    await fake.wait_for(lambda: bool(latest) and latest[-1].key == "tournament.refuse.too_few")
    assert runner.st.status == "registering"  # one player: it waits for its host
    await click(t, bob, "reg")
    await command(t, alice, "start")
    assert runner.st.status == "running"


async def test_r19_63_a_tournament_resumes_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """R-19.63, R-19.61: stopped mid-tournament, the dealer starts again on the same
    file: the tournament, its tables' threads and its board are recovered, the table
    buttons work, and it is played to its standings, posted once."""
    db = tmp_path / "chipfist.sqlite3"
    users = [fake_discord.add_user(f"q{n}") for n in range(3)]
    bot = make_bot(db)
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        cog(h).driver.interval = 0.02
        cog(h).driver.between = 0.0
        cog(h).boards.gap = 0.0
        await create(h, fake_discord.user("alice"), players=3, stack=300, structure="turbo")
        await register_all(h, users)
        runner = next(iter(cog(h).driver.runners.values()))
        await fake_discord.wait_for(lambda: runner.table(1).state.in_hand)
        await settle(h)
        places = dict(bot.presenter.places)
    bot2 = make_bot(db)
    async with run_bot(fake_discord, bot2, sync=True):
        h2 = Harness(fake_discord, bot2)
        cog(h2).driver.interval = 0.02
        cog(h2).driver.between = 0.0
        cog(h2).boards.gap = 0.0
        runner2 = next(iter(cog(h2).driver.runners.values()))
        assert runner2.st.status == "running" and bot2.presenter.places == places
        await play_to_the_end(h2, 3)
        await settle(h2)
        runner2.check_chips()
        assert runner2.chips_at_tables() == 3 * 300
        await standings(fake_discord)


def _of_turn(custom_id: str, turn: int) -> bool:
    """Whether the button is dated by ``turn`` (``cf:act:<table>:<session>.<turn>:…``)."""
    bid = decode(custom_id)
    return bid is not None and bid.turn == turn


async def act_once(h: Harness, runner: Any, number: int, arg: str = "check_call") -> None:
    """The player to act at table ``number`` clicks ``arg`` on its table message."""
    table = runner.table(number)
    await h.fake.wait_for(
        lambda: (
            bool(h.bot.presenter.channel(table.table_id).message_id)
            and any(
                c.endswith(":" + arg) and _of_turn(c, table.state.turn)
                for c in h.fake.message(
                    h.bot.presenter.channel(table.table_id).message_id
                ).custom_ids()
            )
        )
    )
    view = table.snapshot(None)
    seat = next(s for s in view.seats if s.seat == view.to_act)
    message = h.fake.message(h.bot.presenter.channel(table.table_id).message_id)
    button = next(
        c for c in message.custom_ids() if c.endswith(":" + arg) and _of_turn(c, table.state.turn)
    )
    await h.fake.click(h.fake.users[int(seat.user_id)], message, button)
    await settle(h)


async def test_r19_60_pause_and_resume_by_the_host_between_hands(t: Harness) -> None:
    """R-19.60: only the host or a moderator pauses; a paused tournament's table ends
    the hand in progress and deals no other until resumed."""
    fake = t.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    await create(t, alice, format="sit_and_go", players=2, stack=1000)
    await click(t, alice, "reg")
    await click(t, bob, "reg")
    runner = next(iter(cog(t).driver.runners.values()))
    await fake.wait_for(lambda: runner.table(1).state.in_hand)
    bob.permissions = SEND_ONLY
    said = await command(t, bob, "pause")
    assert "host or a moderator" in said and not runner.st.paused, said
    await command(t, alice, "pause")
    assert runner.st.paused
    hand = runner.table(1).state.hand_no
    await act_once(t, runner, 1, "fold")  # the hand in progress ends
    await fake.wait_idle(0.2)
    assert not runner.table(1).state.in_hand and runner.table(1).state.hand_no == hand
    await command(t, alice, "pause", resume=True)
    await fake.wait_for(lambda: runner.table(1).state.hand_no == hand + 1)
    assert not runner.st.paused
    runner.check_chips()


async def test_r19_39_cancel_on_discord_refunds_by_rule_and_closes_registration(
    t: Harness,
) -> None:
    """R-19.39, R-19.60: the host cancels a running tournament: the refunds are the
    director's, registration is closed (no button left), the board says so."""
    fake = t.fake
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    await create(t, alice, format="sit_and_go", players=3, stack=1000, buy_in=50)
    for user in (alice, bob, carol):
        await click(t, user, "reg")
    runner = next(iter(cog(t).driver.runners.values()))
    await fake.wait_for(lambda: runner.table(1).state.in_hand)
    carol.permissions = SEND_ONLY
    said = await command(t, carol, "cancel")
    assert "host or a moderator" in said and runner.st.status == "running", said
    await command(t, alice, "cancel")
    assert runner.st.status == "cancelled"
    assert sum(amount for _, amount in runner.st.refunds) == 3 * 50
    await settle(t)
    assert not any(c.startswith("cft:") for c in announcement_or_none(t))
    board = " ".join(
        str(e.get("description"))
        for m in fake.channel_messages()
        for e in m.embeds
        if "status" in str(e.get("title"))
    )
    assert "Cancelled." in board, board
    said = await click_gone(t, bob, runner.tournament)
    assert "closed" in said.lower() or "over" in said.lower(), said


async def click_gone(h: Harness, user: FakeUser, tournament: str) -> str:
    """``/tournament register`` for a tournament that is over: refused privately."""
    return await command(h, user, "register", tournament=tournament)


async def test_r19_64_the_announcement_speaks_the_servers_language_and_answers_the_players(
    t: Harness,
) -> None:
    """R-19.64, R-19.61: in a German server the announcement and its buttons are German;
    each player's private answers are in his own client's language."""
    fake = t.fake
    fake.set_guild_locale("de")
    alice, bob = fake.user("alice"), fake.user("bob")
    alice.locale, bob.locale = "de", "fr"
    said = await create(t, alice, format="scheduled")
    assert "ist eröffnet" in said, said
    message = announcement(t)
    assert "Turnier" in str(message.embeds) and "Startstack" in str(message.embeds)
    labels = [c.get("label") for row in message.components for c in row.get("components", [])]
    assert labels == ["Anmelden", "Abmelden"], labels
    said = await click(t, bob, "reg")
    assert "inscrit" in said.lower() or "inscription" in said.lower(), said


async def test_r19_64_a_board_redrawn_unchanged_spends_no_request(t: Harness) -> None:
    """R-19.64: the announcement is edited when what it shows changes (the count), and
    a redraw that would show the same spends no request."""
    fake = t.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    await create(t, alice, format="scheduled")
    await click(t, bob, "reg")
    boards = cog(t).boards
    (tournament,) = list(cog(t).driver.runners)
    edit = "PATCH /channels/{channel_id}/messages/{message_id}"
    with fake.counting() as used:
        boards.repaint(tournament)
        await settle(t)
    assert used[edit] == 0, used
    with fake.counting() as used:
        await click(t, alice, "reg")
    assert used[edit] == 1, used
    assert live_count(announcement(t)) == 2


async def test_r19_61_late_registration_by_the_button_seats_a_player_while_it_runs(
    t: Harness,
) -> None:
    """R-19.61, R-19.38: with late registration the Register button stays after the
    start (Unregister goes); a late registrant gets a full stack at a drawn seat."""
    fake = t.fake
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    await create(t, alice, format="scheduled", stack=1000, late_until=3)
    await click(t, alice, "reg")
    await click(t, bob, "reg")
    await command(t, alice, "start")
    runner = next(iter(cog(t).driver.runners.values()))
    assert runner.st.status == "running"
    ids = [c.split(":")[1] for c in announcement(t).custom_ids()]
    assert ids == ["reg"], ids
    await fake.wait_for(lambda: runner.table(1).state.in_hand)
    said = await click(t, carol, "reg")  # no seat between hands while it deals
    assert "try again" in said and str(carol.id) not in runner.st.seats, said
    await command(t, alice, "pause")
    await act_once(t, runner, 1, "fold")
    said = await click(t, carol, "reg")
    assert "registered" in said and str(carol.id) in runner.st.seats, said
    assert runner.st.stacks[str(carol.id)] == 1000 and runner.st.chips == 3000
    assert live_count(announcement(t)) == 3
    await fake.wait_for(lambda: str(carol.id) in runner.ports[1].seats().values())
    await command(t, alice, "pause", resume=True)
    await fake.wait_for(lambda: runner.table(1).state.in_hand)
    async with cog(t).driver.lock(runner.tournament):
        runner.check_chips()


async def test_r19_61_the_announcement_buttons_work_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """R-19.61: the buttons carry the tournament's id: after a restart on the same file
    a click on the announcement posted before registers, and the same message's count
    is edited."""
    db = tmp_path / "chipfist.sqlite3"
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    bot = make_bot(db)
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        cog(h).boards.gap = 0.0
        await create(h, alice, format="scheduled")
        await click(h, alice, "reg")
        before = announcement(h).id
    bot2 = make_bot(db)
    async with run_bot(fake_discord, bot2, sync=True):
        h2 = Harness(fake_discord, bot2)
        cog(h2).boards.gap = 0.0
        said = await click(h2, bob, "reg")
        assert "registered" in said, said
        assert announcement(h2).id == before and live_count(announcement(h2)) == 2
        runner = next(iter(cog(h2).driver.runners.values()))
        assert sorted(e.player for e in runner.st.entries) == sorted([str(alice.id), str(bob.id)])


async def test_r19_64_the_standings_go_as_text_when_the_picture_fails(t: Harness) -> None:
    """R-19.64: the final standings are posted even if their picture cannot be drawn."""

    def broken(*_: Any) -> None:
        raise OSError("no font")

    cog(t).boards.picture = broken
    alice, bob = t.fake.user("alice"), t.fake.user("bob")
    await create(t, alice, players=2, stack=100, structure="turbo")
    await click(t, alice, "reg")
    await click(t, bob, "reg")
    await play_to_the_end(t, 5)
    posts = await standings(t.fake)
    assert not posts[0].attachments and "1. " in str(posts[0].embeds[0]["description"])
