"""Invariant 2 (privacy) and invariant 4 (the log is the truth) through the service."""

from __future__ import annotations

import random

import pytest

from bot.local.robot import pick
from bot.poker.messages import Cards
from bot.table.ports import open_store
from bot.table.recovery import rebuild
from bot.table.state import state_digest
from tests.harness import Harness
from tests.said import params_in, told


async def _play_random(h: Harness, table, rng: random.Random, hands: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(hands):
        for seat in list(table.state.seats.values()):
            if seat.stack == 0:
                await table.top_up(seat.user_id, 100, key=h.key())
            if seat.state == "sitting_out":
                await table.sit_in(seat.user_id, key=h.key())
        out = await h.deal(table)
        assert out.ok, out.msg
        while (hand := table.state.hand) is not None:
            info = table.state.current
            if hand.phase == "declare" and hand.to_act is None:
                pos = hand.declare_pending()[0]
                legal = hand.declare_legal(pos)
            else:
                pos = hand.to_act
                legal = hand.legal()
            out = await h.do(table, info.users[pos], pick(legal, rng, hand.hole[pos]))
            assert out.ok, out.msg


@pytest.mark.parametrize("game", ["holdem", "shortdeck", "omaha8", "stud", "draw5"])
async def test_invariant_2_nothing_private_in_public(game: str) -> None:
    h = Harness()
    no_limit = ("holdem", "shortdeck")
    extra = {"limit": "fixed", "small_bet": 2, "big_bet": 4} if game not in no_limit else {}
    table = await h.seated(["a", "b", "c"], variant=game, **extra)
    rng = random.Random(7)
    await _play_random(h, table, rng, 1)
    # Deal one more and stop mid-hand to look at what a spectator sees.
    h.presenter.private_notices.clear()
    h.presenter.public_notices.clear()
    await h.deal(table)
    hand = table.state.hand
    info = table.state.current
    assert hand is not None and info is not None
    secret = {
        c
        for pos, cards in enumerate(hand.hole)
        for c, up in zip(cards, hand.face_up[pos], strict=True)
        if not up
    }
    spectator = table.snapshot(None)
    shown = {c for s in spectator.seats for c in s.cards}
    assert not (shown & secret)
    for _, notice in h.presenter.public_notices:
        for card in secret:
            assert card not in told(notice).split(), told(notice)
            assert not any(isinstance(p, Cards) and card in p.codes for p in params_in(notice.msg))
    # Each player sees his own cards, and only his own.
    for pos, user in enumerate(info.users):
        mine = next(s for s in table.snapshot(user).seats if s.user_id == user)
        assert tuple(mine.cards) == tuple(hand.hole[pos])
    # Private notices went to their owners only.
    for _, user, notice in h.presenter.private_notices:
        if notice.kind == "CardsDealt":
            event = notice.data["event"]
            assert event.audience is not None and info.users[event.audience] == user


async def test_invariant_4_rebuilt_state_equals_live_state() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"])
    rng = random.Random(3)
    await _play_random(h, table, rng, 5)
    await h.deal(table)
    hand = table.state.hand
    assert hand is not None
    for _ in range(3):
        if table.state.hand is None:
            break
        info = table.state.current
        h_ = table.state.hand
        await h.do(table, info.users[h_.to_act], pick(h_.legal(), rng))
    events = await h.store.events("t")
    again = rebuild("t", events)
    assert state_digest(again) == state_digest(table.state)
    assert again.conservation_error() is None


async def test_invariant_4_recovery_with_the_real_store(store_url: str) -> None:
    """Invariant 4 on both back ends (SQLite, PostgreSQL): a table stopped mid-hand is
    rebuilt from the log exactly, clock included, and plays on with its ledger (R-2.5)."""
    path = store_url
    store = await open_store(path)
    h = Harness(store=store)
    table = await h.seated(["a", "b", "c"])
    rng = random.Random(5)
    await _play_random(h, table, rng, 3)
    await h.deal(table)
    info = table.state.current
    hand = table.state.hand
    await h.do(table, info.users[hand.to_act], "call")
    before = state_digest(table.state)
    deadline = table.deadline()
    await store.close()
    store2 = await open_store(path)
    h2 = Harness(store=store2)
    h2.time.set(h.time.now())
    assert await h2.service.recover() == []
    again = h2.service.table("t")
    assert state_digest(again.state) == before
    assert again.deadline() == deadline
    h2.check(again)
    # The resumed hand is playable to the end, and the ledger matches.
    await h2.play_passively(again)
    totals = await store2.ledger_totals("t")
    assert totals["buy_in"] + totals["top_up"] == again.state.bought
    assert totals["cash_out"] == again.state.cashed
    await store2.close()


async def test_open_tables_follows_close_and_reopen(store_url: str) -> None:
    """Both back ends: only tables whose last lifecycle event is a creation recover."""
    store = await open_store(store_url)
    h = Harness(store=store)
    table = await h.seated(["a", "b"], table_id="x")
    await h.seated(["a", "b"], table_id="y")
    assert await store.open_tables() == ["x", "y"]
    assert (await table.close("host", key=h.key())).ok
    assert await store.open_tables() == ["y"]
    assert (await h.service.create("x", "host", key=h.key())).ok
    assert await store.open_tables() == ["x", "y"]
    await store.close()


async def test_snapshot_plus_tail_equals_the_whole_log() -> None:
    from bot.table.recovery import load
    from bot.table.snapshot import from_payload, to_payload

    h = Harness()
    h.service.snapshot_every = 2
    table = await h.seated(["a", "b", "c", "d"], table_id="t")
    table.snapshot_every = 2
    rng = random.Random(9)
    await _play_random(h, table, rng, 5)
    await h.deal(table)
    info = table.state.current
    hand = table.state.hand
    await h.do(table, info.users[hand.to_act], pick(hand.legal(), rng))
    snap = await h.store.latest_snapshot("t")
    assert snap is not None and snap[0] < table.state.seq
    fast = await load(h.store, "t")
    slow = await load(h.store, "t", use_snapshot=False)
    assert state_digest(fast) == state_digest(slow) == state_digest(table.state)
    assert fast.conservation_error() is None
    # A round trip of the live state, mid-hand, is exact too.
    again = from_payload("t", to_payload(table.state))
    assert again is not None
    assert state_digest(again) == state_digest(table.state)
    assert again.idem == table.state.idem
