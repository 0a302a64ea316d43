"""Issue 15, "What the bot does": turn notifications cost little, DM channel ids are kept
(in the store), and the requests that count against Discord's global limit are
budgeted. The real discord.py client against the fake Discord, which counts requests by
kind (``requests_by_kind``: "global" or "interaction")."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.poker.messages import Cards, msg
from bot.table.ports import Notice
from cogs.channel import TableChannel
from tests.fakediscord import FakeConfig, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, make_bot, players

OPEN_DM = "POST /users/@me/channels"
FOLLOWUP = "POST /webhooks/{app_id}/{token}"
HOOK_DELETE = "DELETE /webhooks/{app_id}/{token}/messages/{message_id}"
CHANNEL_POST = "POST /channels/{channel_id}/messages"
CHANNEL_DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"


def pings(fake: FakeDiscord) -> list[FakeMessage]:
    return [m for m in fake.channel_messages() if "your turn" in m.content]


async def to_act(h: Harness) -> FakeUser:
    user = h.to_act()
    assert user is not None, "nobody to act"
    return user


# ---------------------------------------------------------------- turn notifications


async def test_issue15_ping_is_an_interaction_followup_costing_no_global_request(
    h: Harness,
) -> None:
    """Issue 15, turn notifications "folded into the interaction response of the
    previous actor": the mention is a follow-up of the previous actor's click, names
    only the player to act in ``allowed_mentions``, is removed through the same webhook
    on the next turn, and neither costs a request against the global limit."""
    h.bot.presenter.ping_delay = 0.0
    users = players(h.fake)
    await h.start_table(users)
    first = await to_act(h)
    await h.click(first, "check_call")  # answered; the next player's ping follows it
    second = await to_act(h)
    assert second is not first
    with h.fake.counting() as used:
        rec = await h.click(second, "check_call")
        await h.settle()
    third = await to_act(h)
    now = pings(h.fake)
    assert len(now) == 1 and third.mention in now[0].content, [m.content for m in now]
    ping = now[0]
    assert ping.interaction_id == rec.id, "a follow-up of the click that moved the turn"
    sent = [d for d in h.fake.deliveries if d.message_id == ping.id]
    assert sent and sent[0].route == "followup"
    assert sent[0].payload.get("allowed_mentions", {}).get("users") == [third.id]
    # The ping and the removal of the previous one: interaction webhook only.
    assert used[FOLLOWUP] == 1 and used[HOOK_DELETE] == 1, used
    assert used[CHANNEL_POST] == 0 and used[CHANNEL_DELETE] == 0, used
    assert h.bot.presenter.pings_by_followup >= 2


async def test_issue15_quick_player_is_not_pinged(h: Harness) -> None:
    """Issue 15, turn notifications "skipped when the player acted recently": a player
    who acts within ``ping_delay`` is never pinged, and one who acted at the table
    within ``ping_active`` gets ``ping_delay_active`` before a nudge, not
    ``ping_delay``."""
    presenter = h.bot.presenter
    presenter.ping_delay = 1.0
    presenter.ping_delay_active = 30.0
    users = players(h.fake)
    await h.start_table(users)
    # Everyone acts at once: nobody is pinged.
    for _ in range(3):
        await h.fake.click(await to_act(h), h.table_message(), h.button("check_call"))
        await presenter.drain()
    await h.settle()
    assert pings(h.fake) == []
    # The flop: each of them acted a moment ago, so 1 s is not enough for a nudge.
    assert h.table().state.in_hand
    await asyncio.sleep(1.5)
    await h.settle()
    assert pings(h.fake) == [], [m.content for m in pings(h.fake)]
    assert presenter.pings_sent == 0
    # A player who has not acted lately is nudged after ping_delay.
    waiting = await to_act(h)
    presenter._seen.clear()  # as if his last action was long ago
    await h.click(waiting, "check_call")
    await asyncio.sleep(1.5)
    await h.settle()
    now = pings(h.fake)
    assert len(now) == 1 and (await to_act(h)).mention in now[0].content


def test_issue15_recent_player_is_still_nudged_before_his_clock_runs_out() -> None:
    """Issue 15: the longer wait for a recently active player never passes half of the
    time his clock leaves him (a nudge that comes after the timeout is none)."""
    from cogs.presenter import DiscordPresenter

    p = DiscordPresenter(client=None)  # type: ignore[arg-type]
    p.ping_delay, p.ping_delay_active = 3.0, 15.0
    assert p.ping_wait("t", "u") == 3.0  # never acted here
    p.acted("t", "u")
    assert p.ping_wait("t", "u") == 15.0
    assert p.ping_wait("t", "u", deadline=time.time() + 10) == pytest.approx(5.0, abs=0.1)
    assert p.ping_wait("t", "u", deadline=time.time() + 2) == 3.0  # not under ping_delay


async def test_issue15_ping_after_clock_started_deal_falls_back_to_a_channel_message(
    h: Harness,
) -> None:
    """Issue 15: when no interaction of the table can carry the mention (the clock
    dealt and every token in the channel is past its 15 minutes), the ping is a channel
    message; the next turn's ping is a follow-up again and the channel one is deleted
    by REST."""
    presenter = h.bot.presenter
    presenter.ping_delay = 0.0
    presenter.ping_active = 0.0  # nudge at once even those who just played
    users = players(h.fake)
    await h.start_table(users)
    while h.table().state.in_hand:
        await h.click(await to_act(h), "fold")
    for record in h.fake.interactions.values():
        h.fake.expire_interaction(record)  # 401 / 50027 on every webhook from now
    outcome = await h.table().deal(None)  # the clock deals: no interaction of its own
    assert outcome.ok, outcome.msg
    await h.settle()
    first = await to_act(h)
    now = pings(h.fake)
    assert len(now) == 1 and first.mention in now[0].content
    assert now[0].interaction_id is None, "a plain channel message"
    fallback = now[0]
    with h.fake.counting() as used:
        rec = await h.click(first, "check_call")
    second = await to_act(h)
    now = pings(h.fake)
    assert len(now) == 1 and second.mention in now[0].content
    assert now[0].interaction_id == rec.id  # live again: the click's follow-up
    assert fallback.deleted and used[CHANNEL_DELETE] == 1, used


async def test_issue15_ping_before_any_interaction_after_restart_falls_back(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 15: after a restart the bot holds no interaction token: the first ping of
    a deal the clock starts is a channel message, not a lost one. (A guard: the old bot
    always posted one; the follow-up path must not lose this case.)"""
    db = tmp_path / "chipfist.sqlite3"
    users = players(fake_discord)
    bot = make_bot(db)
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        await h.slash(users[0], "table create")
        for u in users:
            await h.slash(u, "sit", buy_in=200)
    bot2 = make_bot(db)
    async with run_bot(fake_discord, bot2, sync=True):
        h2 = Harness(fake_discord, bot2)
        bot2.presenter.ping_delay = 0.0
        assert (await h2.table().deal(None)).ok
        await h2.settle()
        first = await to_act(h2)
        now = pings(fake_discord)
        assert len(now) == 1 and first.mention in now[0].content
        assert now[0].interaction_id is None


async def test_issue15_dm_ping_mode_still_goes_by_dm_through_the_kept_channel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 15 keeps ``/notify dm``: after a restart, that player's nudge still comes
    by DM, never as a mention in the channel, and through his kept DM channel (the
    cards and the nudge open none)."""
    db = tmp_path / "chipfist.sqlite3"
    users = players(fake_discord)
    alice = users[0]
    bot = make_bot(db)
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        await h.slash(alice, "notify", mode="dm")
        await h.start_table(users)
        while h.table().state.in_hand:
            await h.click(await to_act(h), "fold")
    fake_discord.reset_counts()
    bot2 = make_bot(db)
    async with run_bot(fake_discord, bot2, sync=True):
        h2 = Harness(fake_discord, bot2)
        bot2.presenter.ping_delay = 0.0
        nudges = sum("your turn" in m.content for m in fake_discord.dm_messages(alice))
        await h2.slash(users[1], "deal")
        while await to_act(h2) is not alice:
            await h2.click(await to_act(h2), "check_call")
        await h2.settle()
        dms = [m.content for m in fake_discord.dm_messages(alice)]
        assert sum("your turn" in text for text in dms) == nudges + 1, dms
        assert not any(alice.mention in m.content for m in pings(fake_discord))
        assert fake_discord.requests_by_route[OPEN_DM] == 0


# ---------------------------------------------------------------- DM channels kept


async def test_issue15_dm_channel_opened_once_per_user_across_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 15, "DM channel ids are kept (in the store), not reopened": the hole-card
    DMs open each player's DM channel once; after a restart on the same store the next
    hand's DMs go to the kept channels without opening any."""
    db = tmp_path / "chipfist.sqlite3"
    users = players(fake_discord)
    bot = make_bot(db)
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        await h.start_table(users)
        assert fake_discord.requests_by_route[OPEN_DM] == 3
        while h.table().state.in_hand:
            await h.click(await to_act(h), "fold")
    before = {u.name: len(fake_discord.dm_messages(u)) for u in users}
    fake_discord.reset_counts()
    bot2 = make_bot(db)
    async with run_bot(fake_discord, bot2, sync=True):
        h2 = Harness(fake_discord, bot2)
        await h2.slash(users[0], "deal")
        after = {u.name: len(fake_discord.dm_messages(u)) for u in users}
        assert all(after[n] > before[n] for n in after), (before, after)  # cards arrived
        assert fake_discord.requests_by_route[OPEN_DM] == 0


async def test_issue15_no_dm_channel_reopened_past_128_players(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 15: "past 128 players every hole-card DM first reopens the DM channel
    (discord.py caches 128 of them)". With the ids kept, 140 players DMed twice open 140
    channels, not 280."""
    many = [fake_discord.add_user(f"player{i}") for i in range(140)]
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        tid = str(fake_discord.channel.id)
        fake_discord.reset_counts()
        for _ in range(2):
            for user in many:
                notice = Notice("CardsDealt", msg("notice.cards", cards=Cards(("As", "Kd"))), 1)
                await bot.presenter._dm_private(tid, str(user.id), notice)
        assert fake_discord.requests_by_route[OPEN_DM] == 140
        assert fake_discord.requests_by_route[CHANNEL_POST] == 280
        assert all(len(fake_discord.dm_messages(u)) == 2 for u in many)


async def test_issue15_stale_kept_dm_channel_is_reopened_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 15: a kept DM channel Discord no longer knows (404) is forgotten and opened
    again, once; closed DMs (50007) still answer None so the caller falls back."""
    from cogs import ops

    alice = fake_discord.user("alice")
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        known = bot.presenter.dms
        known.ids[alice.id] = 424242  # a channel that does not exist
        assert await ops.dm(bot, alice.id, "hello", known=known) is not None
        assert known.ids[alice.id] == fake_discord.dm_channel(alice).id
        assert fake_discord.requests_by_route[OPEN_DM] == 1
        fake_discord.close_dms(alice)
        assert await ops.dm(bot, alice.id, "hello again", known=known) is None
        assert known.ids[alice.id] == fake_discord.dm_channel(alice).id  # kept
        assert fake_discord.requests_by_route[OPEN_DM] == 1


# ---------------------------------------------------------------- the request budget


@pytest.mark.fakediscord(FakeConfig.strict(seed=3))
async def test_issue15_budget_keeps_a_burst_of_200_under_the_global_limit(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 15, "requests that count against the global limit are budgeted": 200
    requests fired at once wait in the bot's budget and reach the fake at no more than
    its 50 a second: zero 429s."""
    alice = fake_discord.user("alice")
    bot = make_bot(tmp_path / "chipfist.sqlite3")
    async with run_bot(fake_discord, bot, sync=True):
        fake_discord.reset_counts()
        began = time.monotonic()
        await asyncio.gather(*(bot.http.get_user(alice.id) for _ in range(200)))
        spent = time.monotonic() - began
        assert fake_discord.requests_by_route["GET /users/{user_id}"] == 200
        assert fake_discord.rate_limited == 0, fake_discord.rate_limit_log[:5]
        assert spent >= (200 - bot.budget.burst) / bot.budget.rate - 0.2
        assert bot.budget.waited >= 150


async def test_issue15_budget_serves_the_table_before_cosmetic_work() -> None:
    """Issue 15 (budget priorities): a waiting table refresh or card DM (NORMAL) goes
    before a waiting ping (LOW), and a LOW request that would wait too long is dropped
    (BudgetShort) instead of queueing behind the table."""
    from cogs.budget import LOW, NORMAL, BudgetShort, RequestBudget

    budget = RequestBudget(rate=20.0, burst=1.0, low_max_wait=0.2)
    order: list[str] = []

    async def take(name: str, level: int) -> None:
        await budget.acquire(level)
        order.append(name)

    await budget.acquire(NORMAL)  # the burst is spent
    low = asyncio.create_task(take("ping", LOW))
    await asyncio.sleep(0)
    normal = asyncio.create_task(take("table", NORMAL))
    await asyncio.gather(low, normal)
    assert order == ["table", "ping"]
    # Ten requests are waiting: a ping would wait ~0.5 s, more than 0.2 s: dropped.
    waiting = [asyncio.create_task(take(f"t{i}", NORMAL)) for i in range(10)]
    await asyncio.sleep(0)
    with pytest.raises(BudgetShort):
        await budget.acquire(LOW)
    await asyncio.gather(*waiting)
    assert budget.dropped == 1


def test_issue15_interaction_endpoints_are_exempt_from_the_budget() -> None:
    """Issue 15: interaction callbacks and the interaction webhook never wait in the
    budget (Discord does not count them against the global limit)."""
    from cogs.budget import is_exempt

    assert is_exempt("/api/v10/interactions/1/tok/callback")
    assert is_exempt("/api/v10/webhooks/1/tok/messages/2")
    assert not is_exempt("/api/v10/channels/1/messages")
    assert not is_exempt("/api/v10/users/@me/channels")


# ---------------------------------------------------------------- the same, elsewhere

HOOK_EDIT = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"
CHANNEL_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def test_issue15_street_picture_rides_on_the_clicks_answer(h: Harness) -> None:
    """Issue 15, "all requests per player action": the click that ends a street is
    answered with the new street's picture drawn in time and uploaded in the answer
    itself (UPDATE_MESSAGE, exempt): no second write follows it, neither through the
    click's webhook nor by REST. R-2.5 holds."""
    users = players(h.fake)
    await h.start_table(users)
    street = h.table().snapshot(None).street_said
    with h.fake.counting() as used:
        while h.table().snapshot(None).street_said == street:
            rec = await h.click(await to_act(h), "check_call")
        await h.settle()
    assert used[HOOK_EDIT] == 0 and used[CHANNEL_EDIT] == 0, used
    answer = [d for d in h.fake.deliveries if d.route == "callback_update"][-1]
    assert answer.message_id == h.table_message().id
    assert answer.attachments, "the answer itself uploaded the new street's picture"
    assert h.table_message().attachments, "the picture of the new street is on the message"
    assert rec.acknowledged
    assert h.table().conservation_error() is None


async def test_issue15_street_picture_goes_through_the_clicks_webhook(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15, "requests that count against the global limit are budgeted" (and
    avoided): when the new street's picture is not drawn in time for the click's answer
    (here never: ``draw_within`` 0), the click is answered at once and the picture
    follows through that click's webhook (exempt), not a REST edit; with the token
    expired it falls back to the REST edit."""
    monkeypatch.setattr(TableChannel, "draw_within", 0.0)
    users = players(h.fake)
    await h.start_table(users)
    street = h.table().snapshot(None).street_said
    with h.fake.counting() as used:
        while h.table().snapshot(None).street_said == street:
            await h.click(await to_act(h), "check_call")
        await h.settle()
    assert used[HOOK_EDIT] >= 1 and used[CHANNEL_EDIT] == 0, used
    assert h.table_message().attachments, "the picture of the new street is on the message"
    h.fake.token_lifetime = 0.0  # every interaction webhook now answers 401 / 50027
    street = h.table().snapshot(None).street_said
    with h.fake.counting() as used:
        while h.table().snapshot(None).street_said == street:
            await h.click(await to_act(h), "check_call")
        await h.settle()
    assert used[CHANNEL_EDIT] >= 1, used  # the REST edit still brings the picture
    assert h.table_message().attachments


async def test_issue15_webhook_edit_of_the_table_answered_503_is_retried_fast(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15, "a 5xx is retried with backoff": the new street's picture goes through
    the click's webhook (not drawn in time for the answer: ``draw_within`` 0); Discord
    answers that edit 503 (not applied). It is tried again within a second
    (cogs/callback_retry.py), not after discord.py's 1 s and 3 s, and the picture lands
    through the webhook, with no REST edit."""
    from cogs.callback_retry import CallbackAdapter

    monkeypatch.setattr(TableChannel, "draw_within", 0.0)

    users = players(h.fake)
    await h.start_table(users)
    await h.click(await to_act(h), "check_call")
    await h.settle()
    failed = h.fake.faults.fail_next(HOOK_EDIT, 503)  # one fault
    retried = CallbackAdapter.retries
    street = h.table().snapshot(None).street_said
    before = h.fake.requests_by_route[HOOK_EDIT]
    with h.fake.counting() as used:
        while h.table().snapshot(None).street_said == street:
            await h.click(await to_act(h), "check_call")
        began = time.monotonic()
        while h.fake.requests_by_route[HOOK_EDIT] < before + 2 and time.monotonic() - began < 6:
            await asyncio.sleep(0.02)
        took = time.monotonic() - began
        await h.settle()
    assert failed == [HOOK_EDIT]
    assert CallbackAdapter.retries - retried == 1
    assert took < 0.9, f"the webhook edit was redone {took:.2f} s later"
    assert used[CHANNEL_EDIT] == 0, used
    assert h.table_message().attachments, "the new street's picture is on the message"


async def test_issue15_hand_summary_is_a_followup_of_the_last_click(h: Harness) -> None:
    """Issue 15: the end-of-hand message is a follow-up of the click that ended the
    hand (exempt from the global limit), not a channel message."""
    users = players(h.fake)
    await h.start_table(users)
    with h.fake.counting() as used:
        while h.table().state.in_hand:
            rec = await h.click(await to_act(h), "fold")
        await h.settle()
    over = [m for m in h.fake.channel_messages() if "is over" in m.content]
    assert len(over) == 1 and over[0].interaction_id == rec.id
    assert used[CHANNEL_POST] == 0, used


async def test_issue15_ping_on_its_way_when_the_turn_moves_is_still_removed(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15, turn notifications: a ping already sent when the player acts (Discord
    has it, its answer is still on the way) is not cut off half-way, which left a
    mention nobody deletes: it lands and is removed with the next turn."""
    from cogs import ops

    real = ops.followup

    async def slow_answer(*args: object, **kwargs: object) -> object:
        msg = await real(*args, **kwargs)  # type: ignore[arg-type]
        await asyncio.sleep(0.5)  # the message exists; its answer is slow to come back
        return msg

    monkeypatch.setattr(ops, "followup", slow_answer)
    presenter = h.bot.presenter
    presenter.ping_delay = 0.0
    presenter.ping_active = 0.0
    users = players(h.fake)
    await h.start_table(users)
    await asyncio.sleep(0.2)  # the first ping is sent, its answer not back yet
    await h.fake.click(await to_act(h), h.table_message(), h.button("check_call"))
    await asyncio.sleep(1.5)  # every ping has landed
    await h.settle()
    now = pings(h.fake)
    assert len(now) == 1 and (await to_act(h)).mention in now[0].content, [m.content for m in now]
