"""The tournament domain (bot/tournament), rule by rule: structures, payouts, bounties,
the chip race, the balancing planner (TDA rules 9 and 10), eliminations and places,
hand-for-hand, late entries, cancelling, the log and its invariants, and the words."""

from __future__ import annotations

import ast
import itertools
import json
import random
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.poker.messages import Chips, Count, Msg, Name, Number, Rule
from bot.tournament import balance, director, payouts
from bot.tournament.balance import TableShape, plan
from bot.tournament.chiprace import chip_race
from bot.tournament.director import Decision, State
from bot.tournament.log import (
    Created,
    HandForHandChanged,
    LevelUp,
    Moved,
    Placed,
    Record,
    from_payload,
    to_payload,
)
from bot.tournament.places import Bust, complete, rank
from bot.tournament.ports import Arriving, Leaving, TablePort, shape
from bot.tournament.structure import Break, Config, Entries, Level, Schedule, preset
from bot.words import SUPPORTED, render
from bot.words.catalog import keys
from tests.test_engine_words import _prose
from tests.test_layering import imports_of, module_files
from tests.tournament_sim import Sim

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bot" / "tournament"


# ------------------------------------------------------------------ helpers


class Director:
    """A director state with the records applied and checked after each decision."""

    def __init__(self, config: Config) -> None:
        self.state = State(config)
        self.log: list[Record] = [Created(config)]
        self.said: list[Msg] = []

    def do(self, decision: Decision) -> Decision:
        assert decision.ok, decision.refusal
        for record in decision.records:
            self.log.append(record)
            self.state = director.fold(self.state, record)
        self.said += decision.notices
        director.check(self.state)
        return decision

    def said_keys(self) -> list[str]:
        return [m.key for m in self.said]

    def seated(self, table: int) -> list[str]:
        return [e for e, (t, _) in sorted(self.state.seats.items()) if t == table]

    def hand(
        self,
        table: int,
        after: dict[str, int],
        knockers: dict[str, Sequence[str]] | None = None,
    ) -> Decision:
        """One hand at ``table``: these stacks after it (players not named keep theirs)."""
        self.do(director.hand_started(self.state, table, 0))
        stacks = [(e, after.get(e, self.state.stacks[e])) for e in self.seated(table)]
        return self.do(director.hand_finished(self.state, table, stacks, knockers))


def _started(players: int, **config: object) -> Director:
    d = Director(Config(**config))  # type: ignore[arg-type]  # keyword options of Config
    for n in range(players):
        d.do(director.register(d.state, f"p{n}", f"P{n}"))
    d.do(director.start(d.state, random.Random(players)))
    return d


def _table(table: int, occupied: Sequence[int], *, seats: int = 9, **kw: object) -> TableShape:
    players = tuple((s, f"t{table}s{s}") for s in occupied)
    return TableShape(table, seats, players, **kw)  # type: ignore[arg-type]  # options


# ------------------------------------------------------------------ structures


def test_R_19_21_presets_scale_to_the_stack_and_climb() -> None:
    """R-19.21: turbo, regular and deep start the big blind at 1/50, 1/100 and 1/200 of
    the stack; blinds climb; a big-blind ante from the fourth level; stud levels have an
    ante, a bring-in and bets."""
    for name, first in (("turbo", 200), ("regular", 100), ("deep", 50)):
        sched = preset(name, 10_000)
        levels = [i for i in sched.items if isinstance(i, Level)]
        assert levels[0].big == first and levels[0].small == first // 2
        assert all(a.big < b.big for a, b in itertools.pairwise(levels))
        assert [lv.ante for lv in levels[:3]] == [0, 0, 0]
        assert all(lv.ante == lv.big for lv in levels[3:])
    assert any(isinstance(i, Break) for i in preset("regular", 10_000).items)
    assert not any(isinstance(i, Break) for i in preset("turbo", 10_000).items)
    assert not any(isinstance(i, Break) for i in preset("deep", 10_000, unit="hands").items)
    stud = preset("regular", 10_000, forced="bring_in")
    for lv in (i for i in stud.items if isinstance(i, Level)):
        assert 0 < lv.ante <= lv.bring_in <= lv.small and lv.big == 2 * lv.small


def test_R_19_20_a_config_round_trips_through_json() -> None:
    config = Config(
        game=("horse",),
        format="sit_and_go",
        schedule=Schedule((Level(5, 10, 0, 0, 8), Break(5), Level(10, 20, 20, 0, 8)), "hands"),
        entries=Entries(late_until=3, reentries=1, rebuys=2, rebuy_until=4, addon=5000,
                        addon_price=50, bounty=20),
        payouts=(6000, 4000),
        pay_jumps=(3,),
        chip_races=((5, 25, 100),),
        max_players=6,
    )  # fmt: skip
    assert Config.from_payload(json.loads(json.dumps(config.to_payload()))) == config


def test_R_19_20_a_bad_schedule_or_config_is_refused() -> None:
    with pytest.raises(ValueError):
        Level(20, 10)
    with pytest.raises(ValueError):
        Schedule((Break(5), Level(1, 2)))
    with pytest.raises(ValueError):
        Config(payouts=(5000, 4000))


def test_R_19_20_levels_by_hands_rise_for_every_table_at_once() -> None:
    """R-19.20: a level of 2 hands with two tables ends after 4 hands, counted over both
    tables, and the next level is in force for every table's next deal."""
    sched = Schedule((Level(5, 10, 0, 0, 2), Level(10, 20, 0, 0, 2)), "hands")
    d = _started(10, schedule=sched, seats=6, stack=1000)
    assert sorted({t for t, _ in d.state.seats.values()}) == [1, 2]
    for table in (1, 2, 1):
        d.hand(table, {})
        assert d.state.level == 0
    d.hand(2, {})
    assert d.state.level == 1 and isinstance(d.log[-1], LevelUp)
    assert d.said[-1] == Msg(
        "tournament.level_no_ante",
        (("level", Number(2)), ("small", Chips(10)), ("big", Chips(20))),
    )


def test_R_19_21_a_level_names_its_ante_only_when_it_has_one() -> None:
    """R-19.21: a level with a big-blind ante says it; one without says only the blinds
    (no "ante 0")."""
    sched = Schedule((Level(5, 10, 0, 0, 1), Level(10, 20, 20, 0, 1)), "hands")
    d = _started(4, schedule=sched)
    assert d.state.level_words().key == "tournament.level_no_ante"
    d.hand(1, {})
    assert d.state.level_words() == Msg(
        "tournament.level",
        (("level", Number(2)), ("small", Chips(10)), ("big", Chips(20)), ("ante", Chips(20))),
    )


def test_R_19_20_levels_and_breaks_by_the_clock() -> None:
    """R-19.20: by minutes, the clock raises the level; a break stops every deal until
    it is over."""
    sched = Schedule((Level(5, 10, 0, 0, 10), Break(5), Level(10, 20, 0, 0, 10)))
    d = _started(4, schedule=sched)
    assert director.tick(d.state, 599).records == ()
    d.do(director.tick(d.state, 600))
    assert d.state.level == 1 and d.said[-1].key == "tournament.break"
    assert not director.may_deal(d.state, 1, 4)
    assert director.tick(d.state, 600 + 299).records == ()
    d.do(director.tick(d.state, 600 + 300))
    assert d.state.level == 2 and director.may_deal(d.state, 1, 4)


def test_R_19_20_the_status_board() -> None:
    """R-19.20, R-19.22: the level, the time to the next, entries left and the average
    stack, places paid and first prize, then the bubble and the money."""
    sched = Schedule((Level(5, 10, 0, 0, 10), Level(10, 20, 0, 0, 10)))
    d = _started(4, stack=1000, schedule=sched, payouts=(6000, 4000))
    board = director.status(d.state, now=60)
    assert [m.key for m in board] == [
        "tournament.level_no_ante",
        "tournament.status.next_minutes",
        "tournament.status.players",
        "tournament.status.paid",
    ]
    assert board[1].get("count") == Count(9)
    assert board[2].named == {"count": Count(4), "entries": Number(4), "average": Chips(1000)}
    assert board[3].named == {"count": Count(2), "first": Chips(240)}
    a, b, c, _ = d.seated(1)
    d.hand(1, {a: 0, b: 2000})
    assert director.status(d.state)[-1].key == "tournament.status.bubble"
    d.hand(1, {b: 0, c: 3000})
    assert director.status(d.state)[-1].key == "tournament.status.in_money"
    for m in director.status(d.state):
        assert all(render(m, locale) for locale in SUPPORTED)


# ------------------------------------------------------------------ payouts


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**12), st.integers(1, 2000))
def test_R_19_22_prizes_sum_exactly_to_the_pool(pool: int, entrants: int) -> None:
    """R-19.22: for any pool and field, the prizes sum to the pool, never more places
    than entries, each place at least the next."""
    share = payouts.shares(entrants)
    assert sum(share) == payouts.BASIS and len(share) <= entrants
    prizes = payouts.amounts(pool, share)
    assert sum(prizes) == pool
    assert all(a >= b for a, b in itertools.pairwise(prizes))


def test_R_19_22_odd_chips_go_from_first_place_down() -> None:
    assert payouts.amounts(101, (5000, 3000, 2000)) == (51, 30, 20)
    assert payouts.amounts(505, (4000, 3000, 1900, 900, 200)) == (203, 152, 95, 45, 10)


def test_R_19_22_the_default_table_by_entrants() -> None:
    assert payouts.shares(4) == (10_000,)
    assert len(payouts.shares(6)) == 2 and len(payouts.shares(10)) == 3
    assert len(payouts.shares(27)) == 6 and len(payouts.shares(100)) == 15
    # Fewer entries than a custom table's places: first place takes the rest.
    assert payouts.shares(2, (5000, 3000, 2000)) == (7000, 3000)


def test_R_19_23_shared_places_split_evenly_odd_chips_by_entry_order() -> None:
    prizes = (50, 31, 20)
    out = rank([Bust("a", 100, 2), Bust("b", 100, 1)], 1, prizes)
    assert [(f.entry, f.first, f.last, f.prize) for f in out] == [
        ("b", 2, 3, 26),
        ("a", 2, 3, 25),
    ]


def test_R_19_24_a_bounty_is_split_evenly_odd_chip_to_who_won_most() -> None:
    assert payouts.bounty_split(25, ("x", "y")) == (("x", 13), ("y", 12))
    assert payouts.bounty_split(25, ("x",)) == (("x", 25),)
    assert payouts.bounty_split(25, ()) == ()


# ------------------------------------------------------------------ chip race


@pytest.mark.parametrize("seed", range(30))
def test_R_19_25_chip_race_one_chip_at_most_and_nobody_raced_out(seed: int) -> None:
    """R-19.25: whole chips kept, leftovers raced (one chip at most each, a chip for a
    rest worth half a chip), nobody raced out, the change in chips reported."""
    rng = random.Random(seed)
    stacks = [(f"p{i}", rng.choice([0, 5, 25, 75, 1025, 2050, 95])) for i in range(8)]
    result = chip_race(stacks, 100, rng)
    before = dict(stacks)
    after = dict(result.stacks)
    assert all(c % 100 == 0 for c in after.values())
    for p, c in before.items():
        kept = c // 100 * 100
        assert kept <= after[p] <= kept + 100  # at most one chip won
        assert (after[p] > 0) == (c > 0)  # nobody raced out, nobody raced in
    odd = sum(c % 100 for c in before.values())
    chips = odd // 100 + (1 if 2 * (odd % 100) >= 100 else 0)
    assert len(result.winners) == chips
    assert result.delta == sum(after.values()) - sum(before.values())


def test_R_19_25_a_scheduled_color_up_is_raced_once_and_counted() -> None:
    """R-19.25, R-19.40: the color-up the host scheduled at level 2 is due there, once;
    the chips it adds or removes are counted in the chips in play."""
    sched = Schedule((Level(5, 10, 0, 0, 10), Level(10, 20, 0, 0, 10), Level(20, 40)))
    d = _started(4, stack=1000, schedule=sched, chip_races=((2, 5, 100),))
    a, b, c, e = d.seated(1)
    d.hand(1, {a: 1040, b: 960, c: 975, e: 1025})
    assert director.color_up_due(d.state) is None
    d.do(director.level_up(d.state))
    assert director.color_up_due(d.state) == 100
    d.do(director.hand_started(d.state, 1, 0))
    assert director.color_up(d.state, 100, random.Random(1)).refusal is not None  # in a hand
    d.hand(1, {})
    d.do(director.color_up(d.state, 100, random.Random(1)))
    assert all(c % 100 == 0 for c in d.state.stacks.values())
    assert sum(d.state.stacks.values()) == d.state.chips  # check() holds it too
    assert director.color_up_due(d.state) is None and d.state.unit == 100
    assert d.said_keys()[-1] in {"tournament.race_won", "tournament.color_up"}


# ------------------------------------------------------------------ balancing


def test_R_19_26_the_player_due_the_big_blind_moves_to_the_worst_seat() -> None:
    """R-19.26 (TDA 10A): the next big blind at the largest table moves to the seat that
    pays the big blind soonest at the smallest, never the small blind's."""
    big = _table(1, range(1, 10), button=2, small_blind=3, big_blind=4)
    # Seats 2 and 4 empty; seat 2 lies between the small blind and the big blind.
    small = _table(2, (1, 3, 5, 6, 7, 8, 9), button=9, small_blind=1, big_blind=3)
    result = plan([big, small])
    assert [(m.from_table, m.from_seat, m.to_table, m.to_seat) for m in result.moves] == [
        (1, 5, 2, 4)
    ]
    assert result.notices == (
        Msg(
            "tournament.move",
            (("player", Name("t1s5")), ("table", Number(2)), ("seat", Number(4))),
        ),
    )


def test_R_19_26_the_seat_draw_is_random_and_balanced() -> None:
    draw = balance.draw_seats([f"p{i}" for i in range(20)], 9, random.Random(1))
    sizes = sorted(sum(1 for _, t, _ in draw if t == n) for n in (1, 2, 3))
    assert sizes == [6, 7, 7]
    assert len({(t, s) for _, t, s in draw}) == 20 and len({p for p, _, _ in draw}) == 20
    assert draw != balance.draw_seats([f"p{i}" for i in range(20)], 9, random.Random(2))


def test_R_19_27_stud_only_events_move_by_position() -> None:
    """R-19.27: the short table's last seat to open is filled by the long table's player
    in that seat number."""
    big = _table(1, range(1, 10), kind="stud")
    small = _table(2, (1, 2, 4, 5, 7, 8, 9), kind="stud", vacated=(3, 6))
    (move,) = plan([big, small]).moves
    assert (move.from_seat, move.to_seat) == (6, 6)


def test_R_19_28_mixed_games_move_the_holdem_big_blind_with_the_button_frozen() -> None:
    """R-19.28 (TDA 10B): in a stud round the player moved is the one who would be big
    blind were it hold'em: two seats after the frozen button."""
    big = _table(1, range(1, 10), kind="mixed_stud", button=2)
    small = _table(2, (1, 2, 3, 5, 6, 7, 8), kind="mixed_stud", button=1)
    (move,) = plan([big, small]).moves
    assert move.from_seat == 4
    assert move.to_seat == 4  # after the hold'em small blind to be (seat 2): seat 4


@pytest.mark.parametrize("seed", range(20))
def test_R_19_29_tables_break_in_order_into_seats_outside_sb_and_button(seed: int) -> None:
    """R-19.29 (TDA 9, 10C): 16 players fit in two tables: the highest-numbered table
    breaks; its players draw seats, never between the small blind and the button."""
    t1 = _table(1, (1, 3, 4, 5, 6), button=9, small_blind=1, big_blind=3)
    t2 = _table(2, (1, 3, 4, 5, 6), button=9, small_blind=1, big_blind=3)
    t3 = _table(3, (1, 2, 3, 4, 5, 6))
    result = plan([t1, t2, t3], rng=random.Random(seed))
    assert result.breaking == (3,)
    assert {m.from_table for m in result.moves} == {3}
    assert all(m.to_seat != 2 and m.reason == "break" for m in result.moves)
    assert sorted(m.to_table for m in result.moves) == [1, 1, 1, 2, 2, 2]
    assert result.final_table is None
    first = plan([t1, t2, t3], rng=random.Random(seed), break_order=(1, 2, 3))
    assert first.breaking == (1,)


def test_R_19_29_the_only_free_seat_between_sb_and_button_is_taken_to_wait() -> None:
    """R-19.29: seats 2 and 8 free, 2 between the small blind (1) and the big blind (3):
    a newcomer gets 8; with 8 taken, seat 2 is all there is (he waits there)."""
    t = _table(1, (1, 3, 4, 5, 6, 7, 9), button=9, small_blind=1, big_blind=3)
    assert balance.dealable_seats(t) == [8]
    full = _table(1, (1, 3, 4, 5, 6, 7, 8, 9), button=9, small_blind=1, big_blind=3)
    assert balance.dealable_seats(full) == [2]


def test_R_19_30_a_table_three_short_waits_until_balanced() -> None:
    """R-19.30 (TDA 10D) and R-19.31: the long table is in a hand, so nobody moves yet;
    the table three short may not deal; two short deals on."""
    busy = _table(1, range(1, 10), big_blind=4, between_hands=False)
    result = plan([busy, _table(2, range(1, 7))])
    assert result.moves == () and result.halted == (2,)
    assert result.notices == (Msg("tournament.table_waits", (("table", Number(2)),)),)
    assert plan([busy, _table(2, range(1, 8))]).halted == ()


def test_R_19_31_players_move_only_between_hands_at_both_tables() -> None:
    big = _table(1, range(1, 10), big_blind=4)
    assert plan([big, _table(2, range(1, 7), between_hands=False)]).moves == ()
    assert len(plan([big, _table(2, range(1, 7))]).moves) == 1  # 9 and 6 become 8 and 7
    # The largest table is in a hand: the next largest does not give in its place.
    busy = _table(1, range(1, 10), big_blind=4, between_hands=False)
    waiting = plan([busy, _table(2, range(1, 9), big_blind=2), _table(3, range(1, 7))])
    assert waiting.moves == () and waiting.halted == (3,)


def test_R_19_32_a_player_just_moved_is_not_moved_again() -> None:
    """R-19.32: the next big blind was just moved here: the one after him goes."""
    big = _table(1, range(1, 10), big_blind=4)
    small = _table(2, range(1, 8))
    (move,) = plan([big, small], protected=frozenset({"t1s5"})).moves
    assert move.from_seat == 6
    # The director protects a moved player for as many hands as the table has seats.
    d = _started(10, seats=6)
    (entry, (table, seat)) = next(iter(d.state.seats.items()))
    other = 3 - table
    free = next(s for s in range(1, 7) if (other, s) not in set(d.state.seats.values()))
    d.do(Decision((Moved(entry, table, seat, other, free),)))
    assert entry in d.state.protected()
    for _ in range(6):
        d.hand(other, {})
    assert entry not in d.state.protected()


def test_R_19_33_the_final_table_is_announced() -> None:
    result = plan([_table(1, (1, 2, 3, 4)), _table(2, (1, 2, 3))], rng=random.Random(1))
    assert result.final_table == 1 and result.breaking == (2,)
    assert Msg("tournament.final_table", (("count", Count(7)), ("table", Number(1)))) in (
        result.notices
    )
    # Once there is one table, nothing more is announced.
    assert plan([_table(1, range(1, 8))]).notices == ()


tables = st.lists(
    st.tuples(
        st.sets(st.integers(1, 9), max_size=9),
        st.integers(1, 9),
        st.booleans(),
        st.booleans(),
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(tables, st.integers(0, 2**32), st.sampled_from(["blinds", "stud", "mixed_stud"]))
def test_R_19_26_balancer_property(
    spec: list[tuple[set[int], int, bool, bool]], seed: int, kind: balance.Kind
) -> None:
    """R-19.26 to R-19.32: for any tables, a plan's moves take players from their seats
    to empty seats of tables between hands, lose and duplicate nobody, pass over the
    protected while another may go, and, when every table is between hands, leave as
    few tables as hold everyone, their sizes differing by at most one; a balancing move
    in a flop or mixed game goes to the worst seat."""
    shapes = []
    for n, (occupied, bb, played, resting) in enumerate(spec, start=1):
        shapes.append(
            _table(
                n,
                sorted(occupied),
                big_blind=bb if played else None,
                small_blind=(bb - 2) % 9 + 1 if played else None,
                button=(bb - 3) % 9 + 1 if played or kind == "mixed_stud" else None,
                between_hands=resting,
                kind=kind,
            )
        )
    before = {p: (t.table, s) for t in shapes for s, p in t.players}
    rng = random.Random(seed)
    protected = frozenset(p for p in sorted(before) if rng.random() < 0.3)
    result = plan(shapes, rng=rng, protected=protected)
    seats = {t.table: dict(t.players) for t in shapes}
    idle = {t.table for t in shapes if t.between_hands}
    for m in result.moves:
        assert m.from_table in idle and m.to_table in idle
        if m.reason == "balance" and m.player in protected:
            assert set(seats[m.from_table].values()) <= protected
        assert seats[m.from_table].pop(m.from_seat) == m.player
        assert m.to_seat not in seats[m.to_table] and 1 <= m.to_seat <= 9
        if m.reason == "balance" and kind != "stud":
            dst = next(t for t in shapes if t.table == m.to_table)
            now = replace(dst, players=tuple(sorted(seats[m.to_table].items())))
            assert m.to_seat == balance.worst_seat(now)
        seats[m.to_table][m.to_seat] = m.player
    after = {p: (t, s) for t, ss in seats.items() for s, p in ss.items()}
    assert sorted(after) == sorted(before)
    players = len(before)
    if idle == set(seats) and players:
        sizes = [len(ss) for ss in seats.values() if ss]
        assert len(sizes) == -(-players // 9)
        assert max(sizes) - min(sizes) <= 1
        assert result.halted == ()


# ------------------------------------------------------------------ places


def test_R_19_34_simultaneous_eliminations_finish_by_starting_stack() -> None:
    """R-19.34: two out in one hand: the one who started it with more chips is higher."""
    d = _started(5, stack=1000, seats=9)
    a, b, c, *_ = d.seated(1)
    d.hand(1, {a: 1300, b: 700})
    d.hand(1, {a: 0, b: 0, c: 3000})
    places = {f.entry: (f.first, f.last) for f in d.state.finishes}
    assert places == {a: (4, 4), b: (5, 5)}
    assert d.said_keys().count("tournament.out") == 2


def test_R_19_34_equal_starts_share_places_and_prizes() -> None:
    """R-19.34, R-19.23: equal starts share places 4-5 and their prizes (45 + 10), the
    odd chip to the earlier entry."""
    d = _started(5, stack=1000, buy_in=101, payouts=(4000, 3000, 1900, 900, 200))
    a, b, c, *_ = d.seated(1)
    d.hand(1, {a: 0, b: 0, c: 3000})
    shared = sorted((f.prize, f.first, f.last) for f in d.state.finishes)
    assert shared == [(27, 4, 5), (28, 4, 5)]
    early = min((a, b), key=lambda e: d.state.entry(e).number)  # type: ignore[union-attr]
    assert next(f.prize for f in d.state.finishes if f.entry == early) == 28


def test_R_19_36_hand_for_hand_shares_a_synchronized_hand() -> None:
    """R-19.36: on the bubble every table deals one hand and waits for the others; two
    out at different tables in that hand are out together and share places 6-7."""
    d = _started(8, stack=1000, seats=4, payouts=(3000, 2500, 2000, 1500, 1000))
    t1, t2 = d.seated(1), d.seated(2)
    d.hand(1, {t1[0]: 0, t1[1]: 2000})  # 7 left: one more than the 6 ... not yet
    assert not d.state.hfh.on
    d.hand(2, {t2[0]: 0, t2[1]: 2000})  # 6 left: 5 paid + 1, hand-for-hand
    assert d.state.hfh.on and "tournament.hand_for_hand" in d.said_keys()
    # Table 1 plays the synchronized hand: one out, not yet placed; it may not deal again.
    x, y, z, w = t1[2], t1[1], t2[2], t2[1]
    d.do(director.hand_started(d.state, 1, 0))
    assert not director.may_balance(d.state)
    d.do(director.hand_finished(d.state, 1, [(x, 0), (y, 3000), (t1[3], 1000)]))
    assert not director.may_deal(d.state, 1, 2)
    assert x not in d.state.seats and not any(f.entry == x for f in d.state.finishes)
    # Table 2 plays it too: one out who started it with as many chips (1,000).
    d.do(director.hand_started(d.state, 2, 0))
    assert d.state.playing[2][z] == 1000
    d.do(director.hand_finished(d.state, 2, [(w, 3000), (z, 0), (t2[3], 1000)]))
    together = {f.entry: (f.first, f.last, f.prize) for f in d.state.finishes if f.first >= 5}
    assert together[x][:2] == together[z][:2] == (5, 6)
    assert together[x][2] + together[z][2] == d.state.prizes()[4]
    # Four left, the bubble gone: hand-for-hand is over.
    assert not d.state.hfh.on and "tournament.hand_for_hand_off" in d.said_keys()
    assert isinstance(d.log[-1], HandForHandChanged | Placed)


def test_R_19_36_hand_for_hand_at_a_chosen_pay_jump() -> None:
    """R-19.36: with a pay jump at 8 players, hand-for-hand starts when 9 are left."""
    d = _started(12, stack=1000, seats=4, pay_jumps=(8,))
    for table, left in ((1, 11), (2, 10), (3, 9)):
        a, b, *_ = d.seated(table)
        d.hand(table, {a: 0, b: 2000})
        assert len(d.state.seats) == left
        assert d.state.hfh.on == (left == 9)


def test_R_19_37_heads_up_is_announced_and_the_big_blind_keeps_moving() -> None:
    """R-19.37, R-1.5: down to two, heads-up is announced (citing R-1.5); the next big
    blind is the player after the last big blind."""
    d = _started(3, stack=1000)
    a, b, _ = d.seated(1)
    d.hand(1, {a: 0, b: 2000})
    heads = [m for m in d.said if m.key == "tournament.heads_up"]
    assert len(heads) == 1 and heads[0].get("rule") == Rule("R-1.5")
    two = _table(1, (3, 7), button=3, small_blind=3, big_blind=7)
    assert balance.due_big_blind(two) == [3, 7]
    fresh = _table(1, (3, 7), button=3)
    assert balance.due_big_blind(fresh)[0] == 7  # heads-up, the button is the small blind


def test_R_19_35_outs_during_late_registration_are_placed_when_it_closes() -> None:
    sched = Schedule((Level(5, 10, 0, 0, 10), Level(10, 20, 0, 0, 10)))
    d = _started(4, stack=1000, schedule=sched, entries=Entries(late_until=1))
    a, b, *_ = d.seated(1)
    d.hand(1, {a: 0, b: 2000})
    assert not d.state.finishes and len(d.state.out) == 1
    d.do(director.level_up(d.state))
    assert not d.state.registration_open
    assert [(f.entry, f.first) for f in d.state.finishes] == [(a, 4)]


# ------------------------------------------------------------------ entries


def test_R_19_38_late_registration_and_reentry_buy_full_stacks_at_a_drawn_seat() -> None:
    d = _started(4, stack=1000, entries=Entries(late_until=2, reentries=1))
    shapes = [_shape(d, 1, button=1, small_blind=2, big_blind=3)]
    late = d.do(director.register(d.state, "late", "Late", tables=shapes, rng=random.Random(3)))
    entry, (_, seat) = next((e, p) for e, p in d.state.seats.items() if e == "late")
    assert d.state.stacks[entry] == 1000 and d.state.chips == 5000
    assert seat in balance.dealable_seats(shapes[0])
    assert late.notices[0].key == "tournament.registered"
    a, b, *_ = d.seated(1)
    d.hand(1, {a: 0, b: 2000})
    back = director.register(d.state, a, "Again", tables=[_shape(d, 1)], rng=random.Random(1))
    d.do(back)
    assert f"{a}#2" in d.state.seats and back.notices[0].key == "tournament.reentered"
    assert d.state.pool == 6 * 100
    d.hand(1, {f"{a}#2": 0, b: 3000})
    again = director.register(d.state, a, "Again", tables=[_shape(d, 1)])
    assert again.refusal == Msg("tournament.refuse.no_reentry", (("count", Count(1)),))
    assert director.register(d.state, b, "B").refusal is not None  # still in


def _shape(d: Director, table: int, **kw: object) -> TableShape:
    occ = tuple(sorted((s, e) for e, (t, s) in d.state.seats.items() if t == table))
    return TableShape(table, d.state.config.seats, occ, **kw)  # type: ignore[arg-type]


def test_R_19_38_rebuys_and_the_addon() -> None:
    entries = Entries(rebuys=1, rebuy_until=1, addon=2000, addon_price=50)
    sched = Schedule((Level(5, 10, 0, 0, 10), Level(10, 20, 0, 0, 10), Level(20, 40)))
    d = _started(4, stack=1000, schedule=sched, entries=entries)
    a, b, *_ = d.seated(1)
    d.hand(1, {a: 500, b: 1500})
    assert director.rebuy(d.state, b).refusal is not None  # above the starting stack
    d.do(director.rebuy(d.state, a))
    assert d.state.stacks[a] == 1500 and d.state.chips == 5000 and d.state.pool == 500
    assert director.rebuy(d.state, a).refusal is not None  # one rebuy
    assert director.rebuy(d.state, a, addon=True).ok  # the add-on: from the last rebuy level
    d.do(director.level_up(d.state))
    d.do(director.rebuy(d.state, b, addon=True))
    assert d.state.stacks[b] == 3500 and d.state.pool == 550
    assert director.rebuy(d.state, b, addon=True).refusal is not None
    d.do(director.level_up(d.state))
    assert director.rebuy(d.state, a, addon=True).refusal is not None  # closed


def test_R_19_38_registration_refusals_say_why() -> None:
    d = Director(Config(max_players=2, min_players=2))
    d.do(director.register(d.state, "a", "A"))
    assert director.register(d.state, "a", "A").refusal == Msg("tournament.refuse.already")
    assert director.start(d.state, random.Random()).refusal is not None
    assert director.unregister(d.state, "zz").refusal == Msg("tournament.refuse.not_registered")
    d.do(director.register(d.state, "b", "B"))
    assert director.register(d.state, "c", "C").refusal is not None  # full
    d.do(director.unregister(d.state, "b"))
    assert len(d.state.entries) == 1 and d.state.pool == 100


def test_R_19_26_a_sit_and_go_starts_when_full() -> None:
    d = Director(Config(format="sit_and_go", max_players=6))
    for n in range(6):
        d.do(director.register(d.state, f"p{n}", f"P{n}", rng=random.Random(n)))
    assert d.state.status == "running" and len(d.state.seats) == 6
    assert "tournament.started" in d.said_keys()


# ------------------------------------------------------------------ cancelling


def test_R_19_39_a_cancelled_tournament_refunds_by_rule() -> None:
    """R-19.39: before the start, the whole price back; after it, prizes won stand, the
    rest of the pool by chips, each his own bounty back, fees kept."""
    before = Director(Config(buy_in=100, fee=10))
    for n in range(3):
        before.do(director.register(before.state, f"p{n}", f"P{n}"))
    before.do(director.cancel(before.state))
    assert before.state.refunds == (("p0", 110), ("p1", 110), ("p2", 110))
    d = _started(4, stack=1000, buy_in=101, fee=10, entries=Entries(bounty=21))
    a, b, c, e = d.seated(1)
    d.hand(1, {a: 0, b: 1000, c: 1500, e: 1500}, {a: [c, e]})
    paid = sum(x.amount for x in d.state.bounties)
    assert paid == 21
    d.do(director.cancel(d.state))
    refunds = dict(d.state.refunds)
    assert sum(refunds.values()) == 4 * 80 + 3 * 21 and a not in refunds
    pool = 4 * 80
    assert refunds[b] - 21 == pool * 1000 // 4000
    assert refunds[c] - 21 >= pool * 1500 // 4000
    assert d.state.status == "cancelled"
    assert director.cancel(d.state).refusal == Msg("tournament.refuse.over")


# ------------------------------------------------------------------ log, invariants


def test_R_19_40_the_log_replays_from_json_to_the_same_state() -> None:
    """R-19.40: a whole tournament's records, through JSON and back, fold to the same
    state (persisted and recovered)."""
    config = Config(stack=500, seats=6, schedule=preset("turbo", 500, unit="hands"))
    sim = Sim(State(config), random.Random(7))
    sim.apply(Decision((Created(config),)))
    for n in range(14):
        sim.apply(director.register(sim.state, f"p{n}", f"P{n}"))
    sim.apply(director.start(sim.state, sim.rng))
    sim.run()
    stored = [json.dumps(to_payload(r)) for r in sim.log]
    assert director.replay(from_payload(json.loads(s)) for s in stored) == sim.state


def test_R_19_40_the_invariants_catch_a_chip_made_or_a_place_twice() -> None:
    d = _started(3, stack=1000)
    a, b, c = d.seated(1)
    d.do(director.hand_started(d.state, 1, 0))
    bad = director.hand_finished(d.state, 1, [(a, 1001), (b, 1000), (c, 1000)])
    state = director.folded(d.state, bad.records)
    with pytest.raises(AssertionError, match="chips"):
        director.check(state)
    twice = director.folded(d.state, [Placed(a, 3, 3, 0), Placed(b, 3, 3, 0)])
    with pytest.raises(AssertionError, match="place"):
        director.check(twice)
    assert not complete(twice.finishes, 3)


# ------------------------------------------------------------------ ports


class FakeTable:
    number = 2

    def seats(self) -> dict[int, str]:
        return {1: "a", 4: "b"}

    def stacks(self) -> dict[str, int]:
        return {"a": 10, "b": 20}

    def positions(self) -> tuple[int | None, int | None, int | None]:
        return 4, 4, 1

    def kind(self) -> balance.Kind:
        return "blinds"

    def between_hands(self) -> bool:
        return True

    async def move_out(self, entry: str, key: str, why: Leaving = "moved") -> int:
        return 0

    async def move_in(
        self, entry: str, name: str, chips: int, seat: int, key: str, why: Arriving = "moved"
    ) -> None:
        return None

    async def set_level(self, level: Level, key: str) -> None:
        return None

    async def set_paused(self, paused: bool, key: str) -> None:
        return None


def test_R_19_31_the_port_gives_the_planner_its_view_of_a_table() -> None:
    port: TablePort = FakeTable()
    view = shape(port, 6, (2,))
    assert view == TableShape(2, 6, ((1, "a"), (4, "b")), 4, 4, 1, True, "blinds", (2,))


# ------------------------------------------------------------------ layering


def test_the_tournament_package_is_pure() -> None:
    """No Discord, store, table service, presenter, asyncio or I/O library: of the
    project it imports only itself and the engine's messages."""
    files = module_files()
    for module, path in files.items():
        if not module.startswith("bot.tournament"):
            continue
        found = {i for i in imports_of(module, path) if i.startswith("bot.") or "." not in i}
        project = {i for i in found if i.startswith("bot.") and i in files}
        assert project <= {m for m in files if m.startswith("bot.tournament")} | {
            "bot.poker.messages"
        }, (module, project)
        for banned in ("discord", "PIL", "aiosqlite", "sqlite3", "asyncio", "asyncpg"):
            assert not any(i == banned or i.startswith(banned + ".") for i in found), module


# ------------------------------------------------------------------ words


def test_the_tournament_package_holds_no_prose() -> None:
    """Every player-facing sentence of bot/tournament is a message key."""
    found = [
        f"{p.relative_to(ROOT)}:{line}: {text!r}"
        for p in sorted(PACKAGE.rglob("*.py"))
        for line, text in _prose(p)
    ]
    assert not found, "\n".join(found)


def test_every_tournament_key_is_in_the_catalogue() -> None:
    have = keys("en")
    used: set[str] = set()
    # The runner and the table's tournament commands say some of the domain's words.
    speakers = [*PACKAGE.rglob("*.py"), *(ROOT / "bot" / "tourney_run").rglob("*.py")]
    for path in sorted([*speakers, ROOT / "bot" / "table" / "table.py"]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            if id(node) in inside:
                continue  # the refusal's f-string: its keys are collected from refuse()
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(r"tournament\.[a-z_.]+", node.value)
            ):
                used.add(node.value)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "refuse":
                first = node.args[0]
                assert isinstance(first, ast.Constant)
                assert isinstance(first.value, str)
                used.add("tournament.refuse." + first.value)
    assert len(used) > 30
    assert sorted(used - have) == []
    domain = {k for k in have if k.startswith("tournament.")}
    assert sorted(domain - used) == []


def test_what_a_tournament_says_renders_in_every_language() -> None:
    sim = Sim(State(Config(stack=300, seats=4, entries=Entries(bounty=10))), random.Random(3))
    sim.apply(Decision((Created(sim.state.config),)))
    for n in range(9):
        sim.apply(director.register(sim.state, f"p{n}", f"P{n}"))
    sim.apply(director.start(sim.state, sim.rng))
    sim.run()
    said = {m.key: m for m in sim.notices}
    assert {"tournament.move", "tournament.winner", "tournament.bounty"} <= set(said)
    for m in said.values():
        for locale in SUPPORTED:
            text = render(m, locale)
            assert text and "{" not in text, (locale, m.key, text)
