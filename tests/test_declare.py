"""Hi-lo declaration (§13): one test per rule sentence, payouts worked out by hand.

Positions are plain ints; hand values are ``(high, low)`` with higher better and ``None``
for no qualifying value. Unless a test says otherwise the odd-chip order is 0, 1, 2, ...
(clockwise from the button's left).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.poker.declare import (
    CHOICES,
    AlreadyCommitted,
    Choice,
    Declarations,
    DeclareOptions,
    DeclareResult,
    NotDeclaring,
    StillSecret,
    in_turn_order,
    resolve_declare,
)
from bot.poker.errors import IllegalAction
from bot.poker.events import Pot
from bot.poker.messages import Msg, Rule, msg
from bot.words import render


def seats(m: Msg) -> str:
    """A resolution step in English, players named by seat (1-based)."""
    return render(m, "en", names=lambda p: f"Seat {p + 1}")


DEFAULT = DeclareOptions()
ORDER = list(range(9))
Values = dict[int, tuple[int | None, int | None]]


def resolve(
    amount: int,
    values: Values,
    decl: dict[int, Choice],
    options: DeclareOptions = DEFAULT,
    eligible: tuple[int, ...] | None = None,
) -> DeclareResult:
    pot = Pot(amount, eligible if eligible is not None else tuple(sorted(decl)))
    return resolve_declare([pot], values, decl, ORDER, options)


# ---------------------------------------------------------------- chip fists


def test_r13_2_commitment_is_final() -> None:
    d = Declarations([0, 1, 2])
    d.commit(1, "low")
    with pytest.raises(AlreadyCommitted) as err:
        d.commit(1, "high")
    assert isinstance(err.value, IllegalAction)
    assert err.value.msg == msg("refuse.chosen_final", rule=Rule("R-13.2"))
    assert d.count() == 1


def test_r13_2_fists_open_only_when_all_have_committed() -> None:
    d = Declarations([0, 1, 2])
    d.commit(2, "both")
    d.commit(0, "low")
    assert not d.complete
    with pytest.raises(StillSecret):
        d.reveal()
    d.commit(1, "high")
    assert d.complete
    assert d.reveal() == {0: "low", 1: "high", 2: "both"}


def test_r13_2_only_a_count_is_public_before_the_reveal() -> None:
    d = Declarations([3, 5])
    d.commit(5, "both")
    assert d.count() == 1
    assert d.pending() == (3,)  # dealer-side: who still has to choose, never what
    assert "both" not in repr(d) and "1 of 2" in repr(d)


def test_r13_2_refuses_strangers_and_unknown_choices() -> None:
    d = Declarations([0, 1])
    with pytest.raises(NotDeclaring):
        d.commit(4, "low")
    with pytest.raises(IllegalAction):
        d.commit(0, "pig")  # type: ignore[arg-type]
    assert d.count() == 0


def test_r13_2_clock_fold_withdraws_a_pending_player_only() -> None:
    d = Declarations([0, 1, 2])
    d.commit(0, "high")
    with pytest.raises(AlreadyCommitted):
        d.withdraw(0)
    d.withdraw(2)  # folded on the clock
    assert d.players == (0, 1)
    d.commit(1, "low")
    assert d.complete and d.reveal() == {0: "high", 1: "low"}


def test_r13_2_clock_default_high_counts_an_undeclared_player_as_high() -> None:
    # 0 declared low, 1 never declared. Default "high": 1 walks for high, 20 → 10/10.
    values: Values = {0: (1, 5), 1: (9, None)}
    r = resolve(20, values, {0: "low"}, DeclareOptions(timeout_default="high"), (0, 1))
    assert r.payouts == {1: 10, 0: 10}
    # Default "fold": 1 is out; 0 is the only declarer and takes the pot.
    r = resolve(20, values, {0: "low"}, DeclareOptions(timeout_default="fold"), (0, 1))
    assert r.payouts == {0: 20}


# ---------------------------------------------------------------- in turn


def test_r13_3_in_turn_starts_with_the_last_bettor_or_raiser() -> None:
    assert in_turn_order([0, 2, 3, 5], last_aggressor=3, round_opener=0, n=6) == [3, 5, 0, 2]


def test_r13_3_in_turn_starts_with_the_round_opener_if_all_checked() -> None:
    assert in_turn_order([0, 2, 3, 5], last_aggressor=None, round_opener=2, n=6) == [2, 3, 5, 0]


# ---------------------------------------------------------------- both


def test_r13_4_both_with_strictly_best_high_and_low_scoops() -> None:
    # 0 both (best high 9 and best low 7) vs 1 high (8) and 2 low (6): 0 takes all 90.
    r = resolve(90, {0: (9, 7), 1: (8, 1), 2: (1, 6)}, {0: "both", 1: "high", 2: "low"})
    assert r.payouts == {0: 90}
    assert r.pots[0].awards[0].share == "whole"
    assert r.shown == {0, 1, 2}


def test_r13_4_both_declarer_who_ties_for_low_is_eliminated() -> None:
    # 0 both: best high (9) but ties 1 for low (7). 0 is out of the whole pot.
    # Then: 2 is the only high declarer → high half 51 of 101; 1 low half 50.
    r = resolve(101, {0: (9, 7), 1: (2, 7), 2: (5, 1)}, {0: "both", 1: "low", 2: "high"})
    assert r.payouts == {2: 51, 1: 50}
    (elim,) = r.pots[0].eliminated
    assert elim.player == 0
    assert seats(elim.why) == "Seat 1 declared both but tied for low with Seat 2"


def test_r13_4_both_declarer_who_loses_high_is_eliminated() -> None:
    # 0 both loses high to 1 (8 > 6): out. 1 high takes the high half 50, 2 low 50.
    r = resolve(100, {0: (6, 9), 1: (8, 0), 2: (0, 5)}, {0: "both", 1: "high", 2: "low"})
    assert r.payouts == {1: 50, 2: 50}
    assert "lost high to Seat 2" in seats(r.pots[0].eliminated[0].why)


def test_r13_4_both_without_a_qualifying_low_is_eliminated() -> None:
    # 0 both has no low at all: out. 1 high alone after elimination → whole 40.
    r = resolve(40, {0: (9, None), 1: (3, None)}, {0: "both", 1: "high"})
    assert r.payouts == {1: 40}
    assert "no qualifying low" in seats(r.pots[0].eliminated[0].why)


# ---------------------------------------------------------------- halves


def test_r13_5_high_declarer_wins_high_though_eliminated_both_held_better() -> None:
    # 0 both has the best high (9) but loses low to 2 (8 > 3): out. Among "high"
    # declarers 1 (5) is best: high half 31 of 61; 2 low half 30.
    r = resolve(61, {0: (9, 3), 1: (5, 0), 2: (0, 8)}, {0: "both", 1: "high", 2: "low"})
    assert r.payouts == {1: 31, 2: 30}


def test_r13_5_if_everyone_left_declared_high_best_high_takes_all() -> None:
    # 0 both loses high to 1; left: 1 and 2 both "high". Best high 1 takes all 75.
    r = resolve(75, {0: (5, 9), 1: (8, 0), 2: (7, 0)}, {0: "both", 1: "high", 2: "high"})
    assert r.payouts == {1: 75}


def test_r13_5_if_everyone_left_declared_low_best_low_takes_all() -> None:
    r = resolve(75, {0: (5, 2), 1: (1, 4), 2: (2, 6)}, {0: "low", 1: "low", 2: "low"})
    assert r.payouts == {2: 75}


def test_r13_5_tied_halves_split_with_odd_chips_e6() -> None:
    # E-6: seats A..F = 0..5, F (5) on the button: order from the button's left is A..F.
    # B, D, F declare high and tie; C declares low. Pot 69: high 35, low 34.
    # High 35 / 3 = 11 r 2: B and D (first from the button's left) get 12, F 11.
    values: Values = {1: (50, None), 2: (10, 7), 3: (50, None), 5: (50, None)}
    decl: dict[int, Choice] = {1: "high", 2: "low", 3: "high", 5: "high"}
    r = resolve_declare([Pot(69, (1, 2, 3, 5))], values, decl, [0, 1, 2, 3, 4, 5], DEFAULT)
    assert r.payouts == {2: 34, 1: 12, 3: 12, 5: 11}
    high, low = r.pots[0].awards
    assert (high.share, high.amount, low.share, low.amount) == ("high", 35, "low", 34)


# ---------------------------------------------------------------- carry


def test_r13_6_everyone_declares_both_and_nobody_wins_so_the_pot_carries() -> None:
    # 0 best high, 1 best low: each both-declarer fails one way. All out: 80 carries.
    r = resolve(80, {0: (9, 1), 1: (1, 9)}, {0: "both", 1: "both"})
    assert r.payouts == {}
    assert r.carried == 80
    assert len(r.pots[0].eliminated) == 2


# ---------------------------------------------------------------- options


def test_r13_7_no_second_best_low_takes_the_whole_pot() -> None:
    # The reference example: 0 both beats 1 (high) but loses low to 2. Default: 1 high
    # half 50, 2 low half 50. No second best: 1 did not beat 0 for high, so nobody wins
    # the high half and it goes to the low winner: 2 takes all 100.
    values: Values = {0: (9, 3), 1: (5, 0), 2: (0, 8)}
    decl: dict[int, Choice] = {0: "both", 1: "high", 2: "low"}
    assert resolve(100, values, decl).payouts == {1: 50, 2: 50}
    r = resolve(100, values, decl, DeclareOptions(no_second_best=True))
    assert r.payouts == {2: 100}


def test_r13_7_no_second_best_carries_when_neither_half_can_be_won() -> None:
    # 0 both ties 1 for high (9) and 2 for low (8): eliminated. Neither 1 nor 2 beat him.
    values: Values = {0: (9, 8), 1: (9, 0), 2: (0, 8)}
    decl: dict[int, Choice] = {0: "both", 1: "high", 2: "low"}
    r = resolve(100, values, decl, DeclareOptions(no_second_best=True))
    assert r.payouts == {} and r.carried == 100


def test_r13_7_both_may_split_shares_a_tied_half() -> None:
    # 0 both ties 1 for high (9) and has the sole best low (7 > 2's 4). Default: 0 is out,
    # 1 high half 50, 2 low half 50. Both may split: high half 51 shared 0/1 (26/25,
    # odd chip to 0, first in order), low half 50 to 0: 0 gets 76, 1 gets 25.
    values: Values = {0: (9, 7), 1: (9, 0), 2: (0, 4)}
    decl: dict[int, Choice] = {0: "both", 1: "high", 2: "low"}
    assert resolve(101, values, decl).payouts == {1: 51, 2: 50}
    r = resolve(101, values, decl, DeclareOptions(both_may_split=True))
    assert r.payouts == {0: 76, 1: 25}


def test_r13_7_both_may_split_still_eliminates_a_beaten_both() -> None:
    # 0 both is beaten for low by 2: out even with the option. 1 high 50, 2 low 50.
    values: Values = {0: (9, 3), 1: (5, 0), 2: (0, 8)}
    decl: dict[int, Choice] = {0: "both", 1: "high", 2: "low"}
    r = resolve(100, values, decl, DeclareOptions(both_may_split=True))
    assert r.payouts == {1: 50, 2: 50}


# ---------------------------------------------------------------- walking


def test_r13_8_walker_wins_his_half_without_showing() -> None:
    # 0 and 1 declare high, 2 alone declares low: 2 walks with the low half (30 of 60).
    r = resolve(60, {0: (9, 0), 1: (5, 0), 2: (0, 1)}, {0: "high", 1: "high", 2: "low"})
    assert r.payouts == {0: 30, 2: 30}
    assert r.shown == {0, 1}
    assert r.pots[0].awards[1].walked


def test_r13_8_with_a_qualifier_the_walker_must_show() -> None:
    values: Values = {0: (9, None), 1: (5, None), 2: (0, 1)}
    decl: dict[int, Choice] = {0: "high", 1: "high", 2: "low"}
    r = resolve(60, values, decl, DeclareOptions(qualifier=True))
    assert r.payouts == {0: 30, 2: 30}
    assert r.shown == {0, 1, 2}


def test_r13_8_walker_without_a_qualifying_low_forfeits_to_the_high_winner() -> None:
    # 2 walks for low with no qualifying low: the low half goes to the high winner 0.
    values: Values = {0: (9, None), 1: (5, None), 2: (0, None)}
    decl: dict[int, Choice] = {0: "high", 1: "high", 2: "low"}
    r = resolve(60, values, decl, DeclareOptions(qualifier=True))
    assert r.payouts == {0: 60}
    assert 2 not in r.shown


def test_r13_8_all_low_without_a_qualifying_low_carries() -> None:
    r = resolve(60, {0: (9, None), 1: (5, None)}, {0: "low", 1: "low"})
    assert r.payouts == {} and r.carried == 60


# ---------------------------------------------------------------- side pots


def test_r13_9_short_all_in_declares_differently_in_the_main_pot_only() -> None:
    # 0 is all in for the main pot (30, eligible 0, 1, 2) and declares low; 1 and 2 declare
    # high and also contest the side pot (40, eligible 1, 2).
    # Main: 0 walks with low 15, 1 beats 2 for high 15. Side: only highs, 1 takes 40.
    values: Values = {0: (1, 5), 1: (10, 2), 2: (8, 9)}
    decl: dict[int, Choice] = {0: "low", 1: "high", 2: "high"}
    pots = [Pot(30, (0, 1, 2)), Pot(40, (1, 2))]
    r = resolve_declare(pots, values, decl, ORDER, DEFAULT)
    assert r.payouts == {1: 55, 0: 15}
    assert [a.share for a in r.awards_for(0)] == ["high", "low"]
    assert [a.share for a in r.awards_for(1)] == ["whole"]
    assert r.shown == {1, 2}


def test_r13_9_side_pot_both_scoops_where_the_short_low_cannot_play() -> None:
    # Main 31 (0, 1, 2): 0 low (best low 9) beats 1's both low (7): 1 out; 2 high walks
    # with 16, 0 low 15. Side 20 (1, 2): 1 both beats 2 both ways there → 1 scoops 20.
    values: Values = {0: (1, 9), 1: (8, 7), 2: (5, 3)}
    decl: dict[int, Choice] = {0: "low", 1: "both", 2: "high"}
    pots = [Pot(31, (0, 1, 2)), Pot(20, (1, 2))]
    r = resolve_declare(pots, values, decl, ORDER, DEFAULT)
    assert r.payouts == {2: 16, 0: 15, 1: 20}


def test_r8_3_single_eligible_pot_returns_without_showing() -> None:
    r = resolve_declare(
        [Pot(30, (0, 1)), Pot(10, (1,))],
        {0: (9, 0), 1: (1, 0)},
        {0: "high", 1: "high"},
        ORDER,
        DEFAULT,
    )
    assert r.payouts == {0: 30, 1: 10}


def test_steps_read_as_sentences() -> None:
    r = resolve(100, {0: (6, 9), 1: (8, 0), 2: (0, 5)}, {0: "both", 1: "high", 2: "low"})
    steps = [seats(m) for m in r.messages]
    assert steps[0] == "Main pot (100): Seat 1 both, Seat 2 high, Seat 3 low."
    assert all(s.endswith(".") for s in steps)


# ---------------------------------------------------------------- properties

choice_st: st.SearchStrategy[Choice] = st.sampled_from(CHOICES)
value_st = st.one_of(st.none(), st.integers(0, 4))


@st.composite
def declare_cases(draw: st.DrawFn) -> tuple[list[Pot], Values, dict[int, Choice]]:
    n = draw(st.integers(2, 6))
    players = list(range(n))
    values: Values = {p: (draw(value_st), draw(value_st)) for p in players}
    decl: dict[int, Choice] = {p: draw(choice_st) for p in players}
    pots = []
    for _ in range(draw(st.integers(1, 3))):
        elig = draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
        pots.append(Pot(draw(st.integers(0, 500)), tuple(sorted(elig))))
    return pots, values, decl


@settings(max_examples=400)
@given(declare_cases(), st.booleans(), st.booleans(), st.booleans())
def test_property_declare_conserves_chips(
    case: tuple[list[Pot], Values, dict[int, Choice]], nsb: bool, split: bool, qual: bool
) -> None:
    pots, values, decl = case
    options = DeclareOptions(no_second_best=nsb, both_may_split=split, qualifier=qual)
    r = resolve_declare(pots, values, decl, ORDER, options)
    assert sum(r.payouts.values()) + r.carried == sum(p.amount for p in pots)
    assert all(a >= 0 for a in r.payouts.values())
    for k, pot in enumerate(pots):
        for award in r.awards_for(k):
            assert set(award.winners) <= set(pot.eligible)  # only eligible players win


def _observe(d: Declarations) -> tuple[object, ...]:
    """Everything the public surface says: every public attribute, every zero-argument
    public method (or the message it refuses with), repr and str."""
    seen: list[object] = [repr(d), str(d)]
    for name in sorted(n for n in dir(d) if not n.startswith("_")):
        attr = getattr(d, name)
        if not callable(attr):
            seen.append((name, attr))
            continue
        try:
            seen.append((name, attr()))
        except IllegalAction as err:
            seen.append((name, "refused", err.msg))
        except TypeError:
            seen.append((name, "needs arguments"))  # commit/withdraw change state
    return tuple(seen)


@given(
    st.lists(st.sampled_from(["low", "high", "both"]), min_size=1, max_size=7),
    st.lists(st.sampled_from(["low", "high", "both"]), min_size=7, max_size=7),
    st.permutations(list(range(7))),
)
def test_property_r13_2_nothing_but_the_count_leaks_before_the_reveal(
    choices: list[Choice], others: list[Choice], commit_order: list[int]
) -> None:
    # Two tables commit the same players in the same order with different choices: every
    # public observation of the two must be identical until the last fist closes.
    players = list(range(len(choices)))
    sequence = [p for p in commit_order if p in players]
    a, b = Declarations(players), Declarations(players)
    assert _observe(a) == _observe(b)
    for p in sequence[:-1]:
        a.commit(p, choices[p])
        b.commit(p, others[p])
        assert not a.complete
        assert _observe(a) == _observe(b)
    a.commit(sequence[-1], choices[sequence[-1]])
    assert a.reveal() == dict(zip(players, choices, strict=True))


@settings(max_examples=300)
@given(declare_cases(), st.booleans(), st.booleans())
def test_property_r13_4_eliminated_players_win_nothing_from_that_pot(
    case: tuple[list[Pot], Values, dict[int, Choice]], nsb: bool, split: bool
) -> None:
    pots, values, decl = case
    options = DeclareOptions(no_second_best=nsb, both_may_split=split)
    r = resolve_declare(pots, values, decl, ORDER, options)
    for res in r.pots:
        out = {e.player for e in res.eliminated}
        assert all(decl[e] == "both" for e in out)  # only "both" can be eliminated
        assert not out & {w for a in res.awards for w in a.winners}


@settings(max_examples=300)
@given(declare_cases(), st.booleans(), st.booleans(), st.booleans())
def test_property_r13_4_strictly_best_both_ways_both_declarer_scoops(
    case: tuple[list[Pot], Values, dict[int, Choice]], nsb: bool, split: bool, qual: bool
) -> None:
    pots, values, decl = case
    options = DeclareOptions(no_second_best=nsb, both_may_split=split, qualifier=qual)
    r = resolve_declare(pots, values, decl, ORDER, options)
    for pot, res in zip(pots, r.pots, strict=True):
        players = [p for p in pot.eligible if p in decl]
        for b in players:
            hb, lb = values[b]
            if decl[b] != "both" or hb is None or lb is None or pot.amount == 0:
                continue
            rivals_h = [values[p][0] for p in players if p != b and decl[p] != "low"]
            rivals_l = [values[p][1] for p in players if p != b and decl[p] != "high"]
            if all(v is None or v < hb for v in rivals_h) and all(
                v is None or v < lb for v in rivals_l
            ):
                assert [(a.winners, a.amount) for a in res.awards] == [((b,), pot.amount)]
