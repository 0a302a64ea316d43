"""Robots playing a tournament through the service: random legal actions
(:func:`bot.local.robot.pick`) at the tables, hands interleaved across tables, the
director hearing of every hand; a robot busted while a rebuy is sold to it rebuys or
declines at once by a seeded draw (R-19.48). For the proof tests and the benchmark."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Collection

from bot.local.robot import pick
from bot.tournament.log import Out
from bot.tourney_run.runner import Runner

AfterHand = Callable[[int, list[Out]], Awaitable[None]]
Dealt = Callable[[int], Awaitable[None]]


async def _nothing(_table: int, _outs: list[Out]) -> None:
    return None


async def _dealt(_table: int) -> None:
    return None


class Stuck(AssertionError):
    """No table may deal and none is playing."""


async def act(runner: Runner, number: int, rng: random.Random) -> bool:
    """One robot action at ``number``; True when it ended the hand."""
    table = runner.table(number)
    st = table.state
    hand, info = st.hand, st.current
    assert hand is not None and info is not None
    actor = hand.actors()[0]
    user = info.users[actor.position]
    answer = await table.act(user, pick(actor.legal, rng), key=f"a:{st.turn}", turn=st.turn)
    assert answer.ok, answer.msg
    return not table.state.in_hand


async def answer_waits(
    runner: Runner, rng: random.Random, rebuy_rate: float = 0.5, *, skip: Collection[str] = ()
) -> None:
    """Every robot waiting to rebuy answers now (R-19.48): it rebuys with chance
    ``rebuy_rate`` (a seat drawn for it), else, or when the rebuy is refused, declines.
    ``skip``: players who answer for themselves (people)."""
    for entry in sorted(runner.st.waiting):
        found = runner.st.entry(entry)
        assert found is not None
        if found.player in skip:
            continue
        key = f"robot:{runner.count}:{entry}"
        if rng.random() < rebuy_rate:
            bought = await runner.rebuy(found.player, key=key)
            if bought.ok and entry not in runner.st.waiting:
                continue
        declined = await runner.decline(found.player, key=key)
        assert declined.ok, declined.refusal


async def step(
    runner: Runner,
    rng: random.Random,
    after: AfterHand = _nothing,
    dealt: Dealt = _dealt,
    rebuy_rate: float = 0.5,
) -> None:
    """One step of the whole tournament: an action at a table mid-hand, or a deal."""
    await runner.tick()
    if runner.st.waiting:
        await answer_waits(runner, rng, rebuy_rate)
    before = len(runner.outs)
    playing = [n for n, p in sorted(runner.ports.items()) if not p.between_hands()]
    ready = runner.ready()
    if playing and (not ready or rng.random() < 0.5):
        number = rng.choice(playing)
        if await act(runner, number, rng):
            outs = await runner.after_hand(number)
            await after(number, outs)
        return
    if not ready:
        raise Stuck(f"no table may deal: {runner.st.tables()}, halted {runner.halted}")
    number = rng.choice(ready)
    hands = runner.table(number).state.hand_no
    assert await runner.deal(number)
    if runner.table(number).state.hand_no == hands:
        raise Stuck(f"table {number} would not deal")
    await dealt(number)
    if not runner.table(number).state.in_hand:  # over at the deal
        await after(number, runner.outs[before:])


async def play(
    runner: Runner,
    rng: random.Random,
    after: AfterHand = _nothing,
    dealt: Dealt = _dealt,
    limit: int = 2_000_000,
    rebuy_rate: float = 0.5,
) -> None:
    """Until the tournament is over."""
    for _ in range(limit):
        if runner.st.status != "running":
            return
        await step(runner, rng, after, dealt, rebuy_rate)
    raise AssertionError("the tournament did not end")
