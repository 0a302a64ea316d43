"""A 27-player freezeout on three tables played to one winner by the director with
model tables (tests/tournament_sim.py: random chip transfers, not the engine), blinds
rising by hands. After every hand: chips constant, tables balanced, every balancing move
judged by the table's own rotation; at the end places unique and complete, prizes exact.
"""

from __future__ import annotations

import random

import pytest

from bot.tournament import director
from bot.tournament.director import State
from bot.tournament.log import Created, Out, Placed, Returned, TableBroken, Waiting
from bot.tournament.structure import Config, Entries, preset
from tests.tournament_sim import Sim

HANDS = preset("regular", 1000, unit="hands")
"""Blinds rising by hands: 10 hands a level per table, the big blind from 10."""


PAYS_TEN = (2800, 1800, 1300, 1000, 800, 700, 500, 400, 350, 350)
"""Ten places paid: the bubble (11 left) comes with two tables still playing."""


FREEZEOUT = Entries()


def _sim(seed: int, entries: Entries = FREEZEOUT, players: int = 27) -> Sim:
    config = Config(
        buy_in=100,
        fee=10,
        stack=1000,
        schedule=HANDS,
        seats=9,
        entries=entries,
        payouts=PAYS_TEN,
    )
    sim = Sim(State(config), random.Random(seed), all_in=0.1)
    sim.apply(director.Decision((Created(config),)))
    for n in range(players):
        sim.apply(director.register(sim.state, f"p{n}", f"Player {n}"))
    sim.apply(director.start(sim.state, sim.rng))
    return sim


def _finished(sim: Sim, entrants: int) -> None:
    state = sim.state
    assert state.status == "finished" and state.winner is not None
    director.check(state)  # places complete, prizes == pool, chips constant
    assert len(state.finishes) == entrants
    assert sum(f.prize for f in state.finishes) == state.pool
    assert len(sim.tables) == 1
    assert sum(1 for r in sim.log if isinstance(r, TableBroken)) == 2
    keys = [m.key for m in sim.notices]
    assert keys.count("tournament.final_table") == 1
    assert sim.hfh_seen, "the bubble was played hand-for-hand"
    assert "tournament.hand_for_hand" in keys
    assert sim.balance_moves > 0 and sim.break_moves > 0
    assert sum(sim.stacks.values()) == state.chips
    # entries out together (one hand, or one hand-for-hand round)
    # finish by the chips they started it with; equal starts share one range.
    places = {r.entry: (r.first, r.last) for r in sim.log if isinstance(r, Placed)}
    groups: dict[str, list[Out]] = {}
    for r in sim.log:
        if isinstance(r, Out):
            groups.setdefault(r.group, []).append(r)
    assert any(g.startswith("hfh") for g in groups)
    for outs in groups.values():
        for a in outs:
            for b in outs:
                if a.started_with > b.started_with:
                    assert places[a.entry][1] < places[b.entry][0]
                elif a.started_with == b.started_with:
                    assert places[a.entry] == places[b.entry]
        held = sorted({p for o in outs for p in range(places[o.entry][0], places[o.entry][1] + 1)})
        assert held == list(range(held[0], held[0] + len(outs)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_R_19_26_a_27_player_freezeout_plays_down_to_one_winner(seed: int) -> None:
    """R-19.26, R-19.29, R-19.30, R-19.31, R-19.33, R-19.34, R-19.36, R-19.40: three
    tables balanced after every hand, broken down to the final one, hand-for-hand on
    the bubble, one winner, places unique and complete, prizes exact, chips constant."""
    sim = _sim(seed)
    sim.run()
    _finished(sim, 27)
    assert sim.state.chips == 27 * 1000
    assert sim.state.pool == 27 * 100


@pytest.mark.parametrize("seed", [4, 5])
def test_R_19_38_the_freezeout_with_reentry_and_bounties(seed: int) -> None:
    """R-19.38, R-19.24, R-19.35: re-entries while late registration is open (full
    stacks at drawn seats), a bounty on every entry; places per entry, bounties and
    prizes exact."""
    sim = _sim(seed, Entries(late_until=2, reentries=2, bounty=20))
    sim.reenter = lambda _player: sim.rng.random() < 0.8
    sim.run()
    state = sim.state
    entrants = len(state.entries)
    assert entrants > 27, "somebody re-entered"
    _finished(sim, entrants)
    assert state.pool == entrants * 80
    assert sum(b.amount for b in state.bounties) == entrants * 20
    assert state.chips == entrants * 1000
    placed = [r for r in sim.log if isinstance(r, Placed)]
    assert sorted(p.entry for p in placed) == sorted(e.entry for e in state.entries)


@pytest.mark.parametrize("seed", [6, 8, 10])
def test_R_19_47_the_freezeout_with_rebuys_holds_a_busted_players_place(seed: int) -> None:
    """R-19.47 to R-19.49: rebuys through level 3; a player busted meanwhile waits,
    then rebuys (a drawn seat, the same entry), declines, or lets his time run out;
    rebuys closing end every wait. Places per entry (those whose waits end together by
    their starting chips), prizes exact, chips constant."""
    sim = _sim(seed, Entries(rebuys=2, rebuy_until=3))
    sim.answer = lambda _entry: sim.rng.choice(["rebuy", "rebuy", "decline", "wait"])
    sim.run()
    state = sim.state
    waits = [r for r in sim.log if isinstance(r, Waiting)]
    returned = [r for r in sim.log if isinstance(r, Returned)]
    assert waits and returned, "busted players waited and came back"
    assert len(state.entries) == 27 and not state.waiting
    _finished(sim, 27)
    assert state.chips == (27 + len(returned)) * 1000
    assert state.pool == (27 + len(returned)) * 100
