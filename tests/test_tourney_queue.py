"""Purchases asked for during the buyer's hand (bot/tourney_run/queue.py): queued in the
tournament's journal, made when the hand is over in the order asked, each refused
with its reason when not allowed then, once by its key, across a restart and a kill."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from bot.poker.messages import Chips, Name, msg
from bot.tournament.director import Decision
from bot.tournament.log import Rebought
from bot.tournament.structure import Config, Entries, Level, Schedule
from bot.tourney_run import queue
from bot.tourney_run.robots import act, step
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id
from tests.killing import kill_after_steps
from tests.test_tourney_control import World, crashing

ONE_REBUY = Entries(rebuys=1, rebuy_until=3)
"""One rebuy per entry through level 3; no add-on (asked for, it is refused)."""


def quick(entries: Entries = ONE_REBUY) -> Config:
    """Levels of one hand, no antes: a player who folds first keeps his stack."""
    schedule = Schedule(
        (Level(5, 10, length=1), Level(10, 20, length=1), Level(25, 50, length=1),
         Level(50, 100, length=1000)),
        unit="hands",
    )  # fmt: skip
    return Config(buy_in=100, fee=10, stack=1000, schedule=schedule, seats=9, entries=entries)


def _queued(decision: Decision, *, addon: bool = False) -> bool:
    return decision.ok and decision.notices == (queue.queued_words(addon),)


async def _first_folds(runner: Runner, number: int) -> str:
    """Deal table ``number``; the first player to act folds at once (not a blind: he
    keeps his starting stack). Returns him; the hand goes on without him."""
    assert await runner.deal(number)
    table = runner.table(number)
    st = table.state
    assert st.hand is not None and st.current is not None
    who = st.current.users[st.hand.actors()[0].position]
    answer = await table.act(who, "fold", key=f"fold:{st.turn}", turn=st.turn)
    assert answer.ok and table.state.in_hand
    return who


async def _finish(world: World, number: int) -> None:
    await world.finish_hand(number)
    assert world.runner.ports[number].between_hands()


def _rebought(records: list[object]) -> int:
    return sum(1 for r in records if isinstance(r, Rebought))


async def test_R_19_66_purchases_asked_in_his_hand_are_made_after_it_in_order_with_reasons(
    tmp_path: Path,
) -> None:
    """R-19.66, R-19.74, R-19.43, R-19.120, R-2.5: a player who folded while his table's
    hand goes on asks for a rebuy, the add-on and a second rebuy: the rebuys are
    answered as queued and nothing changes; the add-on (none in this tournament: the
    end of the hand would not change that) is refused at once. When the hand is over
    the first rebuy is made (his stack and the chips in play grow by a starting stack,
    once) and the second rebuy is refused (one per entry), in the order asked."""
    world = World(tmp_path / "q.sqlite3", quick())
    runner = await world.start(12)
    number = 1
    who = await _first_folds(runner, number)
    chips, pool = runner.st.chips, runner.st.pool
    assert _queued(await queue.ask(runner, who, key="k1"))
    addon = await queue.ask(runner, who, addon=True, key="k2")
    assert addon.refusal is not None and addon.refusal.key == "tournament.refuse.addon_closed"
    assert _queued(await queue.ask(runner, who, key="k3"))
    assert runner.st.chips == chips and runner.st.pool == pool  # nothing yet
    assert [a.key for a in runner.queue.waiting(who)] == ["k1", "k3"]
    before = runner.ports[number].stacks()[who]
    await _finish(world, number)
    assert runner.queue.waiting() == []
    told = runner.queue.untold()
    assert [o.asked.key for o in told] == ["k1", "k3"]
    name = runner.st.names()[who]
    assert told[0].made
    assert told[0].said == msg("tournament.rebought", player=Name(name), amount=Chips(1000))
    assert not told[1].made
    assert told[1].said.key == "tournament.refuse.rebuy_used"
    assert runner.ports[number].stacks()[who] == before + 1000
    assert runner.st.chips == chips + 1000 and runner.st.pool == pool + 100
    assert _rebought(await runner.journal.records()) == 1
    runner.check_chips()
    await world.store.close()


async def test_R_19_120_a_rebuy_in_a_freezeout_asked_in_his_hand_is_refused_at_once(
    tmp_path: Path,
) -> None:
    """R-19.120, R-2.5: in a freezeout (no rebuys) a player asks for a rebuy during his
    table's hand: refused at once as closed, nothing queued, nothing bought; after the
    hand nobody is told anything more."""
    world = World(tmp_path / "freeze.sqlite3", quick(Entries(rebuys=0)))
    runner = await world.start(12)
    who = await _first_folds(runner, 1)
    chips, pool = runner.st.chips, runner.st.pool
    decision = await queue.ask(runner, who, key="f1")
    assert decision.refusal is not None, decision
    assert decision.refusal.key == "tournament.refuse.rebuy_closed"
    assert runner.queue.waiting() == [] and not decision.notices
    await _finish(world, 1)
    assert runner.queue.untold() == []
    assert runner.st.chips == chips and runner.st.pool == pool
    runner.check_chips()
    await world.store.close()


async def test_R_19_66_a_double_click_or_a_repeated_command_queues_once(tmp_path: Path) -> None:
    """R-19.66, R-19.91: the same key asked three times during the hand (a double click,
    a delivery repeated) is queued once and made once; asked again once it was made it
    buys nothing more."""
    world = World(tmp_path / "twice.sqlite3", quick(Entries(rebuys=3, rebuy_until=3)))
    runner = await world.start(12)
    who = await _first_folds(runner, 1)
    chips = runner.st.chips
    for _ in range(3):
        assert _queued(await queue.ask(runner, who, key="click"))
    assert len(runner.queue.asked) == 1
    rows = await world.store.events(runner.journal.log_id)
    assert sum(1 for r in rows if r.kind == queue.QUEUED) == 1
    await _finish(world, 1)
    assert runner.st.chips == chips + 1000 and runner.st.rebuys[who] == 1
    assert await queue.ask(runner, who, key="click") == Decision()  # counted already
    assert runner.st.chips == chips + 1000 and runner.st.rebuys[who] == 1
    runner.check_chips()
    await world.store.close()


async def test_R_19_67_a_queued_rebuy_survives_a_restart_and_is_made_once(tmp_path: Path) -> None:
    """R-19.67, R-2.5: the service is dropped after the rebuy was queued and before the
    hand ended: the restarted runner still holds it (the click repeated queues nothing
    more) and makes it once when the hand ends; a further restart makes nothing."""
    world = World(tmp_path / "restart.sqlite3", quick())
    runner = await world.start(12)
    who = await _first_folds(runner, 1)
    chips = runner.st.chips
    assert _queued(await queue.ask(runner, who, key="b"))
    runner = await world.reboot()
    assert [a.key for a in runner.queue.waiting()] == ["b"]
    assert runner.table(1).state.in_hand and runner.st.chips == chips
    assert _queued(await queue.ask(runner, who, key="b"))
    await _finish(world, 1)
    assert runner.st.chips == chips + 1000 and runner.st.rebuys == {who: 1}
    [outcome] = runner.queue.untold()
    assert outcome.made and outcome.said.key == "tournament.rebought"
    runner = await world.reboot()
    assert runner.queue.waiting() == [] and runner.st.chips == chips + 1000
    assert [o.said for o in runner.queue.untold()] == [outcome.said]  # kept to be told
    await runner.queue.mark_told("b")
    runner = await world.reboot()
    assert runner.queue.untold() == []
    assert _rebought(await runner.journal.records()) == 1
    runner.check_chips()
    await world.store.close()


async def test_R_19_67_a_crash_between_the_purchase_and_its_settling_makes_it_once(
    tmp_path: Path,
) -> None:
    """R-19.67, R-19.44, R-2.5: dropped after the queued rebuy was journaled, before its
    chips reached the table and before it was marked settled: the restart adds the
    chips once and settles it as made (not bought again), and the buyer is still told."""
    world = World(tmp_path / "crash.sqlite3", quick())
    runner = await world.start(12)
    who = await _first_folds(runner, 1)
    chips = runner.st.chips
    assert _queued(await queue.ask(runner, who, key="b"))
    with crashing(world, "chips"):
        await world.finish_hand(1)
    # made (journaled) but not yet settled: no longer his to wait for.
    assert [a.key for a in runner.queue.waiting(who)] == ["b"]
    assert queue.pending(runner, who) == []
    runner = await world.reboot()
    assert runner.queue.waiting() == []
    [outcome] = runner.queue.untold()
    assert outcome.made and outcome.said == queue.queued_done(outcome.asked)
    assert runner.st.chips == chips + 1000 and runner.st.rebuys == {who: 1}
    runner.check_chips()
    events = await world.store.events(table_id("cup", 1))
    assert sum(1 for e in events if e.kind == "chips_changed") == 1
    assert _rebought(await runner.journal.records()) == 1
    await world.store.close()


async def test_R_19_66_a_purchase_asked_between_hands_is_made_at_once(tmp_path: Path) -> None:
    """R-19.43, R-19.66: asked while his table is between hands, nothing is queued: the
    rebuy is made at once (or refused with its reason at once)."""
    world = World(tmp_path / "now.sqlite3", quick())
    runner = await world.start(12)
    who = next(e for e, (t, _) in sorted(runner.st.seats.items()) if t == 1)
    made = await queue.ask(runner, who, key="now")
    assert made.ok and [m.key for m in made.notices] == ["tournament.rebought"]
    refused = await queue.ask(runner, who, addon=True, key="addon")
    assert refused.refusal is not None
    assert refused.refusal.key == "tournament.refuse.addon_closed"
    assert runner.queue.asked == [] and runner.st.rebuys == {who: 1}
    await world.store.close()


async def test_R_19_66_a_cancel_refuses_the_purchases_queued_and_those_asked_after(
    tmp_path: Path,
) -> None:
    """R-19.66, R-19.42: the tournament is called off while a rebuy is queued: it is
    not made but settled as refused (the tournament is not running), to be told to its
    buyer, and kept so across a restart; one asked afterwards is refused the same way."""
    world = World(tmp_path / "cancel.sqlite3", quick())
    runner = await world.start(12)
    who = await _first_folds(runner, 1)
    assert _queued(await queue.ask(runner, who, key="b"))
    assert (await runner.cancel("host", key="c")).ok
    [outcome] = runner.queue.untold()
    assert not outcome.made and outcome.said.key == queue.NOT_RUNNING
    later = await queue.ask(runner, who, key="later")
    assert later.refusal is not None and later.refusal.key == queue.NOT_RUNNING
    runner = await world.reboot()
    assert runner.queue.waiting() == [] and [o.asked.key for o in runner.queue.untold()] == ["b"]
    assert _rebought(await runner.journal.records()) == 0 and runner.st.rebuys == {}
    await world.store.close()


async def test_R_19_66_a_queue_message_outcome_round_trips_through_the_journal() -> None:
    """R-19.67: what the buyer is told is kept as data (key and typed parameters)."""
    said = msg(
        "tourney.queue.done",
        said=msg("tournament.refuse.rebuy_stack", amount=Chips(1500)),
    )
    assert queue.msg_of(queue.msg_data(said)) == said


# ---------------------------------------------------------------- killed


async def _check_queue(runner: Runner) -> Counter[str]:
    """Every queued purchase settled once; those settled as made are exactly the
    rebuys of the journal asked under their keys."""
    assert runner.queue.waiting() == []
    made = [k for k, o in runner.queue.settled.items() if o.made]
    assert all(f"rebuy:{k}" in runner.keys for k in made)
    refused = [k for k, o in runner.queue.settled.items() if not o.made]
    assert not any(f"rebuy:{k}" in runner.keys for k in refused)
    rows = await runner.service.store.events(runner.journal.log_id)
    kinds = Counter(r.kind for r in rows)
    assert kinds[queue.QUEUED] == len(runner.queue.asked) == len(runner.queue.settled)
    assert kinds[queue.SETTLED] == len(runner.queue.settled)
    return Counter("made" if o.made else "refused" for o in runner.queue.settled.values())


async def test_R_19_67_a_process_killed_with_purchases_queued_makes_each_once(
    tmp_path: Path,
) -> None:
    """R-19.67, R-19.66, R-2.5: a process plays while players ask for rebuys during
    their hands; it is killed with SIGKILL at random moments and restarted from the
    file, then played to the end here: every queued purchase settled once, each made
    one a rebuy under its own key, every chip change made once, chips exact."""
    path = tmp_path / "killed.sqlite3"
    rng = random.Random(5)
    kills = await kill_after_steps("tests.tourney_queue_child", [str(path)], 4, 90, rng)
    assert kills >= 3
    world = World(path, quick(), seed=77)
    runner = await world.recover()
    for _ in range(200_000):
        if world.runner.st.status != "running":
            break
        await step(world.runner, world.rng)
    runner = world.runner
    assert runner.st.status == "finished"
    settled = await _check_queue(runner)
    assert settled["made"] >= 1 and sum(settled.values()) >= 5, settled
    records = await runner.journal.records()
    assert _rebought(records) == sum(runner.st.rebuys.values()) + len(runner.st.addons)
    made: Counter[str] = Counter()
    for number in runner.st.table_hands:
        for row in await world.store.events(table_id("cup", number)):
            if row.kind == "chips_changed":
                made[row.payload["transfer"]] += 1
    assert sorted(made) == sorted(c.transfer for c in runner.changes)
    assert max(made.values()) == 1
    runner.check_chips()
    await world.store.close()


async def play_asking(world: World, rng: random.Random, tag: str) -> None:
    """A robot's step, or now and then a player at a table mid-hand asks for a rebuy
    (key unique to ``tag``)."""
    runner = world.runner
    busy = [n for n, p in sorted(runner.ports.items()) if not p.between_hands()]
    if busy and rng.random() < 0.25:
        number = rng.choice(busy)
        seated = sorted(e for e, (t, _) in runner.st.seats.items() if t == number)
        await queue.ask(runner, rng.choice(seated), key=f"q{tag}")
        return
    if busy and rng.random() < 0.3:
        number = rng.choice(busy)
        if await act(runner, number, world.rng):
            await runner.after_hand(number)
        return
    await step(runner, world.rng)
