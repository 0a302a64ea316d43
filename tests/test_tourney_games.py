"""Stud-only and mixed (HORSE) tournaments played by robots through the table service,
and the tournament rulings checked at real tables rather than model ones: balancing by
position in stud, the hold'em positions frozen through a rotation's stud deals, the
simultaneous-elimination order, hand-for-hand, the heads-up transition, broken tables
closed."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.local.robot import pick
from bot.poker.legal import Legal
from bot.poker.messages import Number, Rule
from bot.table.games import split_rotation
from bot.table.ports import NullPresenter, StorePort, open_store
from bot.table.service import TableService
from bot.table.settings import NEVER_SIT_OUT, TableSettings
from bot.table.state import button_frozen
from bot.table.text_actions import ActionRequest
from bot.tournament import balance
from bot.tournament.balance import Plan, TableShape
from bot.tournament.log import HandFinished, HandStarted, Out, Placed
from bot.tournament.rotation import Rotate
from bot.tournament.structure import Config, preset
from bot.tourney_run import games
from bot.tourney_run import runner as runner_module
from bot.tourney_run.robots import play, step
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id
from bot.words import render
from bot.words.locales import SUPPORTED
from tests.tourney_watch import Watch

HORSE = ("horse",)


def _config(game: tuple[str, ...], seats: int = 8, rotate: Rotate = "deal") -> Config:
    """These tests check R-19.50's rotation, one game per deal; by level and by orbit
    (R-19.55, R-19.56) are tests/test_tourney_rotate.py's."""
    stud = any(games.is_stud(v) for v, _ in games.games_of(Config(game=game)))
    return Config(
        game=game,
        buy_in=100,
        stack=1000,
        schedule=preset("turbo", 1000, unit="hands", forced="bring_in" if stud else "blinds"),
        seats=seats,
        rotate=rotate,
    )


@dataclass
class Plans:
    """Every balancing plan the runner made, with the tables as it saw them."""

    seen: list[tuple[tuple[TableShape, ...], frozenset[str], Plan]] = field(default_factory=list)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        real = balance.plan

        def plan(tables: Sequence[TableShape], **kw: Any) -> Plan:
            out = real(tables, **kw)
            self.seen.append((tuple(tables), kw.get("protected", frozenset()), out))
            return out

        monkeypatch.setattr(runner_module.balance, "plan", plan)


async def _started(
    store_url: str,
    game: tuple[str, ...],
    players: int,
    seed: int,
    seats: int = 8,
    rotate: Rotate = "deal",
) -> tuple[StorePort, Runner]:
    store = await open_store(store_url)
    service = TableService(store, NullPresenter(), seed=f"games{seed}")
    runner = Runner(service, "mixed", rng=random.Random(seed))
    await runner.create(_config(game, seats, rotate))
    for n in range(players):
        await runner.register(f"p{n}", f"Player {n}")
    assert (await runner.start()).ok
    runner.check_chips()
    return store, runner


async def _one_winner(runner: Runner, players: int) -> None:
    state = runner.st
    assert state.status == "finished" and state.winner is not None
    records = await runner.journal.records()
    placed = [r for r in records if isinstance(r, Placed)]
    assert sorted(p.entry for p in placed) == sorted(e.entry for e in state.entries)
    rows = await runner.journal.payouts()
    assert sum(prize for _, _, prize, _ in rows) == state.pool
    runner.check_chips()
    assert runner.taken_at_end == players * 1000 == state.chips  # the winner's
    for number in state.table_hands:
        tid = table_id(runner.tournament, number)
        assert await runner.service.store.ledger_rows(tid) == []


def _first_balance_move(shapes: tuple[TableShape, ...], plan: Plan) -> balance.Move | None:
    """The plan's first move when it balances (no table broken first)."""
    if plan.breaking or not plan.moves or plan.moves[0].reason != "balance":
        return None
    return plan.moves[0]


async def test_R_19_27_a_stud_freezeout_through_the_service(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-19.27, R-19.51, R-19.26, R-2.5: a seven-card stud freezeout on real tables,
    robots to one winner, each deal at the level's ante, bring-in and bets, tables
    balanced after every hand by position (the short table's last seat to open filled
    from that seat number at the long one), chips constant."""
    plans = Plans()
    plans.install(monkeypatch)
    store, runner = await _started(str(tmp_path / "stud.sqlite3"), ("stud",), 20, 1)
    assert sorted(runner.ports) == [1, 2, 3]
    watch = Watch(runner, seats=8)
    variants: set[str] = set()

    async def dealt(number: int) -> None:
        await watch.dealt(number)
        info = runner.table(number).state.current
        assert info is not None
        variants.add(info.variant)
        level = dict(info.level)
        assert level["bring_in"] > 0 and level["small_bet"] > 0 and level["small_blind"] == 0
        # in stud everyone dealt in antes (no big-blind ante).
        rules = info.start.rules
        assert rules.antes == (level["ante"],) * len(info.order), rules.antes
        assert rules.bring_in == level["bring_in"] and rules.small_bet == level["small_bet"]

    await play(runner, random.Random(1), watch.after, dealt)
    await _one_winner(runner, 20)
    assert variants == {"stud"}
    assert len(watch.levels) > 2 and watch.balanced_checks > 0
    checked = 0
    for shapes, protected, plan in plans.seen:
        assert all(s.kind == "stud" for s in shapes)
        move = _first_balance_move(shapes, plan)
        if move is None:
            continue
        src = next(s for s in shapes if s.table == move.from_table)
        dst = next(s for s in shapes if s.table == move.to_table)
        opened = [s for s in dst.vacated if s in dst.empty()]
        assert move.to_seat == (opened[-1] if opened else min(dst.empty()))
        taken = src.occupied()
        order = [(move.to_seat - 1 + k) % src.seats + 1 for k in range(src.seats)]
        movable = [s for s in order if s in taken and taken[s] not in protected]
        assert move.from_seat == (movable or [s for s in order if s in taken])[0]
        checked += 1
    assert checked > 0, "no table was balanced"
    await store.close()


async def test_R_19_28_a_horse_freezeout_through_the_service(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-19.28, R-19.50, R-19.51, R-2.5: a HORSE freezeout on real tables, robots to one
    winner: every table deals the rotation in turn, each game at its level (blinds of
    half the small bet in hold'em and Omaha hi-lo, ante and bring-in in the stud
    games); the button and blinds frozen through the stud deals, the next hold'em big
    blind the player after the last one; tables balanced by the hold'em big blind after
    every hand; nobody skips or pays the big blind twice through a move; chips constant."""
    plans = Plans()
    plans.install(monkeypatch)
    store, runner = await _started(str(tmp_path / "horse.sqlite3"), HORSE, 30, 2)
    rotation = games.games_of(runner.st.config)
    assert [v for v, _ in rotation] == ["holdem", "omaha8", "razz", "stud", "stud8"]
    assert all(limit == "fixed" for _, limit in rotation)
    watch = Watch(runner, seats=8)
    frozen: dict[int, tuple[int | None, int | None, int | None]] = {}
    dealt_games: dict[int, set[str]] = {}
    stud_deals = next_big_blinds = 0

    async def dealt(number: int) -> None:
        nonlocal stud_deals, next_big_blinds
        await watch.dealt(number)  # the level of each game, the big blinds by who paid
        st = runner.table(number).state
        info = st.current or st.recent[st.hand_no]
        assert (info.variant, info.limit) == rotation[(info.hand_no - 1) % len(rotation)]
        dealt_games.setdefault(number, set()).add(info.variant)
        level = dict(info.level)
        rules = info.start.rules
        if games.is_stud(info.variant):
            stud_deals += 1
            assert rules.antes == (level["ante"],) * len(info.order) and level["ante"] > 0
            assert level["small_blind"] == 0 and rules.bring_in == level["bring_in"]
            if number in frozen:  # nothing moved by a stud deal
                assert (st.prev_button, st.prev_sb, st.prev_bb) == frozen[number]
        else:
            assert not any(rules.antes) and level["big_blind"] == level["small_bet"]
            last_bb = frozen.get(number, (None, None, None))[2]
            if last_bb is not None:  # the big blind moves on from the last hold'em one
                seats = sorted(info.order)
                later = [s for s in seats if s > last_bb] + [s for s in seats if s <= last_bb]
                assert info.bb_seat == later[0], (number, info.hand_no, last_bb, info.bb_seat)
                next_big_blinds += 1
            frozen[number] = (st.prev_button, st.prev_sb, st.prev_bb)

    await play(runner, random.Random(2), watch.after, dealt)
    await _one_winner(runner, 30)
    assert stud_deals > 0 and next_big_blinds > 0 and watch.balanced_checks > 0
    assert any(len(seen) == len(rotation) for seen in dealt_games.values())
    checked = 0
    for shapes, protected, plan in plans.seen:
        move = _first_balance_move(shapes, plan)
        if move is None:
            continue
        src = next(s for s in shapes if s.table == move.from_table)
        dst = next(s for s in shapes if s.table == move.to_table)
        assert src.kind != "stud"
        due = balance.due_big_blind(src)
        movable = [s for s in due if src.occupied()[s] not in protected]
        assert move.from_seat == (movable or due)[0]
        assert move.to_seat == balance.worst_seat(dst)
        checked += 1
    assert checked > 0, "no table was balanced"
    await store.close()


async def _reboot(store: StorePort, path: str, seed: int) -> tuple[StorePort, Runner]:
    await store.close()
    store = await open_store(path)
    service = TableService(store, NullPresenter(), seed=f"games{seed}")
    await service.recover()
    runner = Runner(service, "mixed", rng=random.Random(seed))
    assert await runner.load()
    return store, runner


def _emptied(runner: Runner) -> set[int]:
    return set(runner.st.broken) - {t for t, _ in runner.st.seats.values()}


async def _closed_after_the_last_move(store: StorePort, tid: str) -> None:
    """The table's log ends with one close, after every player stood up (moved out)."""
    rows = await store.events(tid)
    kinds = [r.kind for r in rows]
    assert kinds.count("closed") == 1 and kinds[-1] == "closed", kinds[-5:]
    closed = rows[-1].seq
    stood = [r for r in rows if r.kind == "stood"]
    assert stood and all(r.seq < closed for r in stood)
    assert all(r.payload.get("transfer") for r in stood if r.payload["amount"] > 0)


async def test_R_19_52_broken_tables_are_closed_and_stay_closed(tmp_path: Path) -> None:
    """R-19.52, R-19.29: when a broken table's last player has moved out its service
    table is closed (not left open with nobody at it); a restart neither recovers nor
    reopens it, and the tournament plays on to one winner."""
    path = str(tmp_path / "closed.sqlite3")
    store, runner = await _started(path, ("holdem",), 20, 3)
    assert sorted(runner.ports) == [1, 2, 3]
    rng = random.Random(3)
    while not _emptied(runner):
        await step(runner, rng)
    (first,) = _emptied(runner)
    tid = table_id("mixed", first)
    assert first not in runner.ports
    table = runner.service.get(tid)
    assert table is not None and table.state.closed and not table.state.seats
    await _closed_after_the_last_move(store, tid)
    store, runner = await _reboot(store, path, 4)
    assert runner.service.get(tid) is None, "a restart opened the broken table again"
    assert first not in runner.ports
    await play(runner, rng)
    await _one_winner(runner, 20)
    assert _emptied(runner) == set(runner.st.broken) and len(runner.st.broken) == 2
    for n in runner.st.broken:
        await _closed_after_the_last_move(store, table_id("mixed", n))
    store, runner = await _reboot(store, path, 5)
    assert runner.ports == {}, "a restart opened a closed table again (R-19.80)"
    assert all(runner.service.get(table_id("mixed", n)) is None for n in range(1, 4))
    await store.close()


# ------------------------------------------------ eliminations, hand-for-hand, heads-up

Choose = Callable[[Legal, random.Random], ActionRequest]


def _shove(legal: Legal, rng: random.Random) -> ActionRequest:
    """Everyone all in: hands that knock several players out at once."""
    for kind in ("all_in", "call", "check"):
        if kind in legal.actions:
            return ActionRequest(kind)
    return ActionRequest("fold")


async def _play_hand(runner: Runner, number: int, choose: Choose, rng: random.Random) -> list[Out]:
    """Deal one hand at table ``number``, play it out with ``choose``, tell the runner."""
    before = len(runner.outs)
    table = runner.table(number)
    assert await runner.deal(number)
    if not table.state.in_hand:  # over at the deal: the runner has heard of it
        return runner.outs[before:]
    while table.state.in_hand:
        st = table.state
        hand, info = st.hand, st.current
        assert hand is not None and info is not None
        actor = hand.actors()[0]
        user = info.users[actor.position]
        answer = await table.act(user, choose(actor.legal, rng), key=f"a:{st.turn}", turn=st.turn)
        assert answer.ok, answer.msg
    return await runner.after_hand(number)


async def _sit_and_go(
    tmp_path: Path, players: int, seats: int, payouts: tuple[int, ...] = ()
) -> tuple[StorePort, Runner]:
    store = await open_store(str(tmp_path / "sng.sqlite3"))
    service = TableService(store, NullPresenter(), seed="elim")
    runner = Runner(service, "sng", rng=random.Random(7))
    config = Config(
        stack=1000, schedule=preset("turbo", 1000, unit="hands"), seats=seats, payouts=payouts
    )
    await runner.create(config)
    for n in range(players):
        await runner.register(f"p{n}", f"Player {n}")
    assert (await runner.start()).ok
    return store, runner


def _places(records: Sequence[object]) -> dict[str, tuple[int, int, int]]:
    return {r.entry: (r.first, r.last, r.prize) for r in records if isinstance(r, Placed)}


def _check_group(
    outs: list[Out], places: dict[str, tuple[int, int, int]], prizes: Sequence[int]
) -> None:
    """R-19.34, R-19.23: more chips at the start finishes higher, equal starts share the
    places and their prizes (split evenly, odd chips apart), the group's places
    consecutive."""
    for a in outs:
        for b in outs:
            if a.started_with > b.started_with:
                assert places[a.entry][1] < places[b.entry][0], (a, b, places)
            elif a.started_with == b.started_with:
                assert places[a.entry][:2] == places[b.entry][:2]
    held = sorted({p for o in outs for p in range(places[o.entry][0], places[o.entry][1] + 1)})
    assert held == list(range(held[0], held[0] + len(outs)))
    by_places: dict[tuple[int, int], list[int]] = {}
    for o in outs:
        first, last, prize = places[o.entry]
        by_places.setdefault((first, last), []).append(prize)
    for (first, last), won in by_places.items():
        pooled = sum(prizes[p - 1] if p <= len(prizes) else 0 for p in range(first, last + 1))
        assert sum(won) == pooled and max(won) - min(won) <= 1


async def test_R_19_34_players_out_in_one_hand_finish_by_their_starting_stacks(
    tmp_path: Path,
) -> None:
    """R-19.34, R-19.23 at real tables: hands played until stacks differ, then everyone
    all in until one hand knocks out several who started it with different stacks: the
    bigger start finishes higher; equal starts share; the prizes of shared places
    pooled and split evenly; chips constant."""
    store, runner = await _sit_and_go(tmp_path, 6, 6, payouts=(5000, 3000, 2000))
    rng = random.Random(4)
    groups: list[list[Out]] = []
    for _ in range(40):  # random play until the stacks differ, nobody out yet
        if len(set(runner.table(1).state.seats[s].stack for s in runner.table(1).state.seats)) >= 3:
            break
        outs = await _play_hand(runner, 1, lambda legal, r: pick(legal, r), rng)
        if len(outs) > 1:
            groups.append(outs)
    while runner.st.status == "running":
        outs = await _play_hand(runner, 1, _shove, rng)
        assert runner.chips_at_tables() == runner.st.chips == 6000
        if len(outs) > 1:
            groups.append(outs)
    places = _places(await runner.journal.records())
    prizes = runner.st.prizes()
    assert any(len({o.started_with for o in g}) > 1 for g in groups), "no uneven group"
    for outs in groups:
        _check_group(outs, places, prizes)
    assert sum(p for _, _, p in places.values()) == runner.st.pool
    await store.close()


async def test_R_19_36_players_out_at_two_tables_in_one_synchronized_hand_share(
    tmp_path: Path,
) -> None:
    """R-19.36, R-19.34 at real tables: on the bubble each table deals one hand and waits
    for the others; players knocked out at different tables in that round are out
    together, placed only once every table has finished it, ranked by the chips they
    started it with, equal starts sharing the places and their prizes."""
    store, runner = await _sit_and_go(tmp_path, 8, 4, payouts=(3000, 2500, 2000, 1500, 1000))
    assert sorted(runner.ports) == [1, 2]
    rng = random.Random(9)
    while not runner.st.hfh.on:
        (number, *_) = runner.ready()
        await _play_hand(runner, number, lambda legal, r: pick(legal, r), rng)
    assert len(runner.st.seats) == 6, "hand-for-hand on the bubble: five paid"
    shared: list[list[Out]] = []
    while runner.st.hfh.on:
        round_no = runner.st.hfh.round
        tables = runner.ready()
        assert len(tables) == 2, "every table deals the round's hand"
        out_at: dict[int, list[Out]] = {}
        for k, number in enumerate(tables):
            out_at[number] = await _play_hand(runner, number, _shove, rng)
            placed = {f.entry for f in runner.st.finishes}
            if k == 0:
                # The round is not over: its outs are not placed, the table may not deal.
                assert not placed & {o.entry for o in out_at[number]}
                assert number not in runner.ready()
            assert runner.chips_at_tables() == runner.st.chips == 8000
        outs = [o for n in tables for o in out_at[n]]
        assert all(o.group.startswith("hfh") for o in outs), outs
        assert len({o.group for o in outs}) <= 1
        if all(out_at[n] for n in tables):
            shared.append(outs)
        if runner.st.hfh.on:
            assert runner.st.hfh.round > round_no
    assert shared, "no synchronized hand knocked players out at both tables"
    places = _places(await runner.journal.records())
    for outs in shared:
        _check_group(outs, places, runner.st.prizes())
    await store.close()


async def test_R_19_37_the_heads_up_transition_at_a_real_table(tmp_path: Path) -> None:
    """R-19.37, R-1.5 at a real table: down to two, heads-up is announced once (citing
    R-1.5); the big blind keeps moving (the first heads-up big blind is the player after
    the last big blind, never the same player twice running), the other player has the
    button and posts the small blind; the big blind then alternates."""
    store, runner = await _sit_and_go(tmp_path, 3, 9)
    rng = random.Random(5)
    table = runner.table(1)
    last_bb: int | None = None
    while len(runner.st.seats) == 3:
        await _play_hand(runner, 1, lambda legal, r: pick(legal, r), rng)
        info = table.state.recent[table.state.hand_no]
        last_bb = info.bb_seat
    assert last_bb is not None and runner.st.status == "running"
    heads = [m for m in runner.notices if m.key == "tournament.heads_up"]
    assert len(heads) == 1 and heads[0].get("rule") == Rule("R-1.5")
    heads_up = 0
    while runner.st.status == "running" and heads_up < 6:
        left = sorted(s for s in table.state.seats)
        await _play_hand(runner, 1, lambda legal, r: pick(legal, r), rng)
        info = table.state.recent[table.state.hand_no]
        later = [s for s in left if s > last_bb] + [s for s in left if s <= last_bb]
        assert info.bb_seat == later[0] != last_bb, (left, last_bb, info.bb_seat)
        other = next(s for s in left if s != info.bb_seat)
        assert info.button == info.sb_seat == other
        last_bb = info.bb_seat
        heads_up += 1
    assert heads_up >= 2, "too few heads-up hands to see the big blind move"
    assert runner.chips_at_tables() == runner.st.chips == 3000
    await store.close()


async def test_R_19_53_a_stud_event_with_more_seats_than_stud_deals_to_is_refused(
    tmp_path: Path,
) -> None:
    """R-19.53: stud deals to eight at most: a stud or HORSE event of nine-seat tables is
    refused saying so (in every language), nothing written; eight seats are accepted."""
    store = await open_store(str(tmp_path / "seats.sqlite3"))
    service = TableService(store, NullPresenter(), seed="seats")
    for game in (("stud",), HORSE):
        runner = Runner(service, f"nine{len(game)}", rng=random.Random(1))
        decision = await runner.create(_config(game, seats=9))
        assert decision.refusal is not None and not decision.ok
        assert decision.refusal.key == "rotation.too_many_seats"
        assert decision.refusal.get("most") == Number(8)
        assert decision.refusal.get("seats") == Number(9)
        assert await runner.journal.records() == [] and runner.state is None
        for locale in SUPPORTED:
            said = render(decision.refusal, locale)
            assert "8" in said and "9" in said and "{" not in said, (locale, said)
    runner = Runner(service, "eight", rng=random.Random(1))
    assert (await runner.create(_config(HORSE, seats=8))).ok
    assert runner.st.config.seats == 8
    await store.close()


async def test_R_19_50_a_horse_event_restarted_at_random_points_resumes(store_url: str) -> None:
    """R-19.50, R-19.2, R-2.5: a HORSE freezeout whose service is dropped at random
    steps (mid-hand too) and recovered from the store (SQLite or PostgreSQL): each
    table's frozen button and blinds, its next game and that game's stakes come back as
    they were; played on to one winner, every hand heard of once, chips constant."""
    store, runner = await _started(store_url, HORSE, 20, 6)
    rng = random.Random(6)
    restarts = 0
    until = rng.randrange(20, 80)
    for n in range(200_000):
        if runner.st.status != "running":
            break
        if n == until:
            before = {
                p.table.table_id: (
                    (p.table.state.prev_button, p.table.state.prev_sb, p.table.state.prev_bb),
                    p.table.state.next_game(),
                    runner.stakes.level(p.table.table_id),
                    p.table.state.hand_no,
                    p.table.state.in_hand,
                )
                for p in runner.ports.values()
            }
            store, runner = await _reboot(store, store_url, 6 + restarts)
            restarts += 1
            for port in runner.ports.values():
                st = port.table.state
                now = (
                    (st.prev_button, st.prev_sb, st.prev_bb),
                    st.next_game(),
                    runner.stakes.level(port.table.table_id),
                    st.hand_no,
                    st.in_hand,
                )
                assert now == before[port.table.table_id], port.table.table_id
            until = n + rng.randrange(20, 80)
        await step(runner, rng)
    assert restarts >= 3
    await _one_winner(runner, 20)
    records = await runner.journal.records()
    started = Counter((r.table, r.hand) for r in records if isinstance(r, HandStarted))
    finished = Counter((r.table, r.hand) for r in records if isinstance(r, HandFinished))
    assert max(started.values()) == 1 and max(finished.values()) == 1
    assert set(started) == set(finished)
    await store.close()


def test_R_19_50_only_a_dead_button_rotations_stud_deals_freeze_the_button() -> None:
    """R-19.50: the button and blinds stay put through a stud deal of a rotation that
    also deals blinds games, under the dead button only: a cash table's button (the
    simplified rule) and a stud-only table move as before (R-1.3)."""
    horse = split_rotation("horse")
    dead = TableSettings(rotation=horse, button_rule="dead")
    assert button_frozen(dead, "stud") and button_frozen(dead, "razz")
    assert not button_frozen(dead, "holdem") and not button_frozen(dead, "omaha8")
    assert not button_frozen(TableSettings(rotation=horse), "stud")
    assert not button_frozen(TableSettings(variant="stud", button_rule="dead"), "stud")
    studs = TableSettings(rotation=("razz", "stud"), button_rule="dead")
    assert not button_frozen(studs, "razz")


def test_R_19_72_a_tournament_table_never_sits_a_player_out_for_timeouts() -> None:
    """R-19.72: at every tournament table (Discord's too) a player who lets the clock
    act for him stays dealt in: never sat out for timeouts, not the cash table's two."""
    for game in (("holdem",), ("stud",), HORSE):
        settings = games.table_settings(_config(game))
        assert settings.timeouts_to_sit_out == NEVER_SIT_OUT == 0
        assert TableSettings().timeouts_to_sit_out == 2
