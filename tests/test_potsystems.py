"""Two to win (R-15.1) and the Guts match pot (R-15.2, R-15.3), payouts worked by hand.

Players are stable ids ("A".."G"); the odd-chip order is the seating order given.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.poker.declare import AlreadyCommitted, StillSecret
from bot.poker.errors import ConfigError, NotYourTurn
from bot.poker.potsystems import (
    DEFAULT_LEGS,
    GutsCalls,
    GutsOptions,
    GutsResult,
    GutsState,
    TwoToWinState,
    guts_stakes,
    sequential_order,
    settle_guts,
    settle_two_to_win,
)
from tests.said import en

SEVEN = list("ABCDEFG")


# ---------------------------------------------------------------- R-15.1 two to win


def test_r15_1_showdown_winner_gets_a_marker_and_the_pot_stays() -> None:
    state, pay, log = settle_two_to_win(TwoToWinState(), 30, ["B"], SEVEN)
    assert state == TwoToWinState(30, frozenset({"B"}))
    assert pay == {}
    assert log[0].key == "two.marker"
    assert "marker" in en(log[0])
    # The next hand's pot accumulates: 30 + 24 = 54, and C gets a marker too.
    state, pay, _ = settle_two_to_win(state, 24, ["C"], SEVEN)
    assert state == TwoToWinState(54, frozenset({"B", "C"}))


def test_r15_1_winner_with_a_marker_takes_the_pot_and_markers_clear() -> None:
    # B already holds a marker: 54 + 20 = 74 to B; C's marker is cleared too.
    state, pay, log = settle_two_to_win(TwoToWinState(54, frozenset({"B", "C"})), 20, ["B"], SEVEN)
    assert pay == {"B": 74}
    assert state == TwoToWinState(0, frozenset())
    assert log[-1].key == "two.markers_cleared"
    assert en(log[-1]) == "All markers are cleared."


def test_r15_1_tie_neither_has_a_marker_both_get_one() -> None:
    state, pay, _ = settle_two_to_win(TwoToWinState(10, frozenset({"G"})), 20, ["A", "D"], SEVEN)
    assert pay == {}
    assert state == TwoToWinState(30, frozenset({"A", "D", "G"}))


def test_r15_1_tie_one_has_a_marker_he_takes_the_pot() -> None:
    # A holds a marker, D does not: A takes 30 + 10 = 40; D gets nothing, markers clear.
    state, pay, _ = settle_two_to_win(TwoToWinState(30, frozenset({"A"})), 10, ["D", "A"], SEVEN)
    assert pay == {"A": 40}
    assert state.markers == frozenset() and state.pot == 0


def test_r15_1_tie_both_have_markers_they_split_odd_chip_by_order() -> None:
    # 31 between A and B: 16 to A (first clockwise from the button's left), 15 to B.
    state, pay, _ = settle_two_to_win(
        TwoToWinState(25, frozenset({"A", "B"})), 6, ["B", "A"], SEVEN
    )
    assert pay == {"A": 16, "B": 15}
    assert state == TwoToWinState(0, frozenset())


def test_r15_1_uncontested_win_counts_as_a_win() -> None:
    # Decision: everyone folding to B still gives B his marker (and later the pot).
    state, pay, log = settle_two_to_win(TwoToWinState(), 12, ["B"], SEVEN, uncontested=True)
    assert state.markers == {"B"} and pay == {}
    assert log[0].key == "two.marker_uncontested"
    assert "uncontested" in en(log[0])
    state, pay, _ = settle_two_to_win(state, 8, ["B"], SEVEN, uncontested=True)
    assert pay == {"B": 20}


def test_r15_1_rejects_a_winner_not_at_the_table() -> None:
    with pytest.raises(ValueError):
        settle_two_to_win(TwoToWinState(), 10, ["Z"], SEVEN)


# ---------------------------------------------------------------- R-15.2 match pot


def e13_opts(max_pot: int | None = None) -> GutsOptions:
    return GutsOptions(stake=50, max_pot=max_pot)


def play(state: GutsState, stayers: str, winner: str, opts: GutsOptions) -> GutsResult:
    # The winner's hand is 9, everyone else's 1.
    values = {s: (9 if s == winner else 1) for s in stayers}
    return settle_guts(state, list(stayers), values, None, SEVEN, opts)


def test_r15_2_e13_match_pot_growth() -> None:
    opts = e13_opts()
    stakes, state = guts_stakes(GutsState(), SEVEN, opts)
    assert stakes == dict.fromkeys(SEVEN, 50) and state.pot == 350
    # Deal 1: A, C, D in; C wins 350; A and D pay 350 each → pot 700.
    r = play(state, "ACD", "C", opts)
    assert r.wins == {"C": 350} and r.pays == {"A": 350, "D": 350}
    assert r.state.pot == 700
    # The pot is not empty: nobody stakes.
    assert guts_stakes(r.state, SEVEN, opts) == ({}, r.state)
    # Deal 2: A, D, E, F in; E wins 700; A, D, F pay 700 each → pot 2100.
    r = play(r.state, "ADEF", "E", opts)
    assert r.wins == {"E": 700} and r.pays == {"A": 700, "D": 700, "F": 700}
    assert r.state.pot == 2100
    # Deal 3: A, B, C, F, G in; A wins 2100; the other four pay 2100 each → pot 8400.
    r = play(r.state, "ABCFG", "A", opts)
    assert r.wins == {"A": 2100} and r.pays == dict.fromkeys("BCFG", 2100)
    assert r.state.pot == 8400 and r.state.reserve == 0


def test_r15_3_e13_maximum_pot_and_reserve() -> None:
    opts = e13_opts(max_pot=5000)
    _, state = guts_stakes(GutsState(), SEVEN, opts)
    r = play(state, "ACD", "C", opts)
    r = play(r.state, "ADEF", "E", opts)
    r = play(r.state, "ABCFG", "A", opts)
    # 8400 → pot 5000, 3400 waits in the reserve.
    assert r.state == GutsState(pot=5000, reserve=3400)
    # A lone stayer (B) takes the 5000 pot; the next pot is refilled from the reserve
    # (3400, under the cap) before anyone stakes again.
    r = play(r.state, "B", "B", opts)
    assert r.wins == {"B": 5000} and r.pays == {}
    assert r.state == GutsState(pot=0, reserve=3400)
    stakes, state = guts_stakes(r.state, SEVEN, opts)
    assert stakes == {} and state == GutsState(pot=3400, reserve=0)
    # Once pot and reserve are both empty, everyone stakes again.
    r = play(state, "G", "G", opts)
    stakes, state = guts_stakes(r.state, SEVEN, opts)
    assert stakes == dict.fromkeys(SEVEN, 50) and state.pot == 350


def test_r15_3_reference_max_pot_losers_pay_the_capped_pot() -> None:
    # The reference's fourth deal with a 50 cap: pot 50, reserve 46. F wins 50, D and E
    # pay 50 each: 100 → pot 50, reserve 46 + 50 = 96. A lone stayer then takes 50 and the
    # next pot is 50 out of the reserve (46 left).
    opts = GutsOptions(stake=1, max_pot=50)
    r = play(GutsState(pot=50, reserve=46), "DEF", "F", opts)
    assert r.wins == {"F": 50} and r.pays == {"D": 50, "E": 50}
    assert r.state == GutsState(pot=50, reserve=96)
    r = play(r.state, "A", "A", opts)
    assert guts_stakes(r.state, SEVEN, opts) == ({}, GutsState(pot=50, reserve=46))


def test_r15_2_stake_goes_in_only_when_the_pot_is_empty() -> None:
    opts = GutsOptions(stake=5)
    assert guts_stakes(GutsState(pot=1), SEVEN, opts) == ({}, GutsState(pot=1))
    stakes, state = guts_stakes(GutsState(), ["A", "B"], opts)
    assert stakes == {"A": 5, "B": 5} and state.pot == 10


def test_r15_2_nobody_stays_in_and_the_pot_carries_over() -> None:
    r = settle_guts(GutsState(pot=70), [], {}, None, SEVEN, GutsOptions(stake=10))
    assert r.wins == {} and r.pays == {}
    assert r.state == GutsState(pot=70)


def test_r15_2_one_stays_in_and_takes_the_pot() -> None:
    r = settle_guts(GutsState(pot=70), ["D"], {"D": 0}, None, SEVEN, GutsOptions(stake=10))
    assert r.wins == {"D": 70} and r.pays == {}
    assert r.state.pot == 0


def test_r15_2_tied_winners_share_and_every_other_stayer_pays() -> None:
    # Pot 71: B and E tie (9) → 36 to B (first in order), 35 to E; C pays 71 → pot 71.
    values = {"B": 9, "C": 2, "E": 9}
    r = settle_guts(GutsState(pot=71), ["B", "C", "E"], values, None, SEVEN, GutsOptions(stake=1))
    assert r.wins == {"B": 36, "E": 35} and r.pays == {"C": 71}
    assert r.state.pot == 71
    assert r.net == {"B": 36, "E": 35, "C": -71}


def test_r15_2_r2_1_a_short_loser_pays_what_he_has_and_the_log_says_so() -> None:
    """Table stakes: B owes the pot of 180 but has 80; the next pot is what was paid, and
    the log states the real amounts (it used to announce 180 each)."""
    values = {"A": 9, "B": 2, "C": 3}
    r = settle_guts(
        GutsState(pot=180),
        ["A", "B", "C"],
        values,
        None,
        SEVEN,
        GutsOptions(stake=30),
        stacks={"A": 40, "B": 80, "C": 300},
    )
    assert r.wins == {"A": 180} and r.pays == {"B": 80, "C": 180}
    assert r.state.pot == 260
    assert "B pays 80 (all he has); C pays 180." in [en(m) for m in r.log]
    assert sum(r.pays.values()) + GutsState(pot=180).total == sum(r.wins.values()) + r.state.total


# ---------------------------------------------------------------- R-15.3 options


def test_r15_3_only_the_worst_hand_pays_others_ante() -> None:
    # Pot 100, five dealt in (A-E). A wins (9); C and D tie for worst (1) and each pay
    # 100; B (a loser, but not the worst) and A, E (dealt in) ante 5: next pot 215.
    opts = GutsOptions(stake=10, only_worst_pays=True, worst_pays_ante=5)
    values = {"A": 9, "B": 5, "C": 1, "D": 1}
    r = settle_guts(GutsState(pot=100), list("ABCD"), values, None, list("ABCDE"), opts)
    assert r.wins == {"A": 100}
    assert r.pays == {"C": 100, "D": 100, "A": 5, "B": 5, "E": 5}
    assert r.state.pot == 215


def test_r15_3_ghost_hand_wins_and_everyone_in_pays() -> None:
    # Pot 100; the ghost (5) beats A (3) and B (2): both pay 100, the pot stays: 300.
    opts = GutsOptions(stake=10, ghost_hand=True)
    r = settle_guts(GutsState(pot=100), ["A", "B"], {"A": 3, "B": 2}, 5, SEVEN, opts)
    assert r.wins == {} and r.pays == {"A": 100, "B": 100}
    assert r.state.pot == 300


def test_r15_3_ghost_must_be_beaten_not_tied() -> None:
    opts = GutsOptions(stake=10, ghost_hand=True)
    r = settle_guts(GutsState(pot=100), ["A"], {"A": 5}, 5, SEVEN, opts)
    assert r.wins == {} and r.pays == {"A": 100} and r.state.pot == 200


def test_r15_3_lone_stayer_who_beats_the_ghost_takes_the_pot() -> None:
    opts = GutsOptions(stake=10, ghost_hand=True)
    r = settle_guts(GutsState(pot=100), ["A"], {"A": 6}, 5, SEVEN, opts)
    assert r.wins == {"A": 100} and r.state.pot == 0


def test_r15_3_lone_stayer_gets_a_leg_and_n_legs_collect() -> None:
    opts = GutsOptions(stake=10, legs=DEFAULT_LEGS)
    state = GutsState(pot=90)
    for n in (1, 2):
        r = settle_guts(state, ["C"], {"C": 0}, None, SEVEN, opts)
        assert r.wins == {} and r.state.legs == {"C": n} and r.state.pot == 90
        state = r.state
    r = settle_guts(state, ["C"], {"C": 0}, None, SEVEN, opts)
    assert r.wins == {"C": 90} and r.state.legs == {} and r.state.pot == 0


def test_r15_3_contested_showdown_does_not_touch_legs() -> None:
    opts = GutsOptions(stake=10, legs=3)
    state = GutsState(pot=90, legs={"C": 2})
    r = settle_guts(state, ["A", "C"], {"A": 9, "C": 1}, None, SEVEN, opts)
    assert r.wins == {"A": 90} and r.pays == {"C": 90} and r.state.legs == {"C": 2}


def test_r15_3_simultaneous_nth_legs_split_the_pot() -> None:
    # B and F both hold 2 legs, both stay in alone together and tie: each gets the third
    # leg at once and they split 91: B 46 (first in order), F 45.
    opts = GutsOptions(stake=10, legs=3)
    state = GutsState(pot=91, legs={"B": 2, "F": 2, "A": 1})
    r = settle_guts(state, ["F", "B"], {"F": 4, "B": 4}, None, SEVEN, opts)
    assert r.wins == {"B": 46, "F": 45}
    assert r.state.legs == {} and r.state.pot == 0


def test_r15_3_options_are_validated() -> None:
    with pytest.raises(ConfigError):
        GutsOptions(stake=0)
    with pytest.raises(ConfigError):
        GutsOptions(stake=1, legs=0)


# ---------------------------------------------------------------- in or out


def test_r15_2_chip_declare_is_sealed_until_all_have_called() -> None:
    calls = GutsCalls(["A", "B", "C"], "chip")
    calls.commit("B", True)
    calls.commit("A", False)
    assert calls.count() == 2 and calls.pending() == ("C",)
    with pytest.raises(StillSecret):
        calls.called()
    with pytest.raises(StillSecret):
        calls.stayers()
    with pytest.raises(AlreadyCommitted):
        calls.commit("B", False)
    calls.commit("C", True)
    assert calls.stayers() == ["B", "C"]


def test_r15_2_count_and_drop_is_simultaneous_too() -> None:
    calls = GutsCalls(["A", "B"], "count_and_drop")
    calls.commit("B", True)  # any order
    assert calls.to_call() is None
    with pytest.raises(StillSecret):
        calls.reveal()


def test_r15_2_sequential_declare_from_the_dealers_left() -> None:
    order = sequential_order(["A", "B", "C", "D"], dealer="B")
    assert order == ["C", "D", "A", "B"]
    calls = GutsCalls(order, "sequential")
    assert calls.to_call() == "C"
    with pytest.raises(NotYourTurn):
        calls.commit("A", True)
    calls.commit("C", False)
    calls.commit("D", True)
    assert calls.called() == {"C": False, "D": True}  # public as they are made
    assert calls.to_call() == "A"
    calls.commit("A", False)
    calls.commit("B", True)
    assert calls.stayers() == ["D", "B"]


# ---------------------------------------------------------------- properties


@st.composite
def guts_options(draw: st.DrawFn) -> GutsOptions:
    return GutsOptions(
        stake=draw(st.integers(1, 20)),
        max_pot=draw(st.one_of(st.none(), st.integers(1, 400))),
        only_worst_pays=draw(st.booleans()),
        worst_pays_ante=draw(st.integers(0, 5)),
        ghost_hand=draw(st.booleans()),
        legs=draw(st.one_of(st.none(), st.integers(1, 3))),
    )


@settings(max_examples=200)
@given(guts_options(), st.data())
def test_property_guts_conserves_chips_across_hands(opts: GutsOptions, data: st.DataObject) -> None:
    players = list("ABCDE")
    stacks = dict.fromkeys(players, 0)  # net chips; may go negative (players rebuy)
    state = GutsState()
    for _ in range(data.draw(st.integers(1, 12))):
        stakes, state = guts_stakes(state, players, opts)
        for p, a in stakes.items():
            stacks[p] -= a
        stayers = data.draw(st.lists(st.sampled_from(players), unique=True))
        values = {p: data.draw(st.integers(0, 3)) for p in stayers}
        ghost = data.draw(st.integers(0, 3)) if opts.ghost_hand else None
        r = settle_guts(state, stayers, values, ghost, players, opts)
        for p, a in r.net.items():
            stacks[p] += a
        state = r.state
        assert state.pot >= 0 and state.reserve >= 0
        if opts.max_pot is not None:
            assert state.pot <= opts.max_pot
        # Every chip is in a stack or in the pot/reserve.
        assert sum(stacks.values()) + state.pot + state.reserve == 0


@settings(max_examples=200)
@given(st.data())
def test_property_two_to_win_conserves_chips_across_hands(data: st.DataObject) -> None:
    players = list("ABCD")
    state = TwoToWinState()
    paid_in = paid_out = 0
    for _ in range(data.draw(st.integers(1, 15))):
        pot = data.draw(st.integers(0, 100))
        winners = data.draw(st.lists(st.sampled_from(players), unique=True, max_size=3))
        state, pay, _ = settle_two_to_win(state, pot, winners, players)
        paid_in += pot
        paid_out += sum(pay.values())
        assert paid_in == paid_out + state.pot
        if pay:
            assert state.markers == frozenset() and state.pot == 0
