"""The rulebook's worked examples E-1 to E-10 (RULES §17), exactly, through the engine."""

from __future__ import annotations

import pytest

from bot.poker.actions import AllIn, Bet, Call, Check, Fold, RaiseTo
from bot.poker.cards import stacked_deck
from bot.poker.errors import BadAmount
from bot.poker.events import PotAwarded, PotsFormed
from bot.poker.hand import Hand
from bot.poker.pots import build_pots, halve, split
from bot.poker.rules import Limit, Rules
from tests.said import raises_saying


def round_with_pot(pot: int, stacks: list[int], **rules: object) -> Hand:
    """A betting round that starts with ``pot`` already in the middle and no blinds:
    exactly the situation the examples describe."""
    n = len(stacks)
    kw: dict[str, object] = {"blinds_or_straddles": (0,) * n, "small_bet": 1}
    kw.update(rules)
    return Hand(Rules(**kw), stacks, stacked_deck(["", ""]), carried=pot)  # type: ignore[arg-type]


def pots_of(hand: Hand) -> list[tuple[int, tuple[int, ...]]]:
    formed = [e for e in hand.events if isinstance(e, PotsFormed)][-1]
    return [(p.amount, p.eligible) for p in formed.pots]


def test_e1_pot_limit_maximums() -> None:
    h = round_with_pot(50, [10_000] * 3, limit=Limit.POT_LIMIT)
    assert h.legal().max_to == 50  # A may bet at most the pot
    h.apply(Bet(0, 50))
    assert h.legal().max_to == 200  # B raises by up to 150
    h.apply(RaiseTo(1, 200))
    assert h.legal().max_to == 700  # C raises by up to 500
    h.apply(RaiseTo(2, 700))
    before = list(h.stacks)
    h.apply(Call(0))
    h.apply(Call(1))
    assert before[0] - h.stacks[0] == 650
    assert before[1] - h.stacks[1] == 500
    assert h.pot_total() == 2150


def test_e2_pot_limit_table() -> None:
    h = round_with_pot(20, [10_000] * 4, limit=Limit.POT_LIMIT)
    h.apply(Bet(0, 5))
    assert h.legal().max_to == 35
    h.apply(RaiseTo(1, 35))
    assert h.pot_total() == 60
    h.apply(Call(2))
    assert h.pot_total() == 95
    assert h.legal().max_to == 165
    h.apply(RaiseTo(3, 165))
    assert h.pot_total() == 260
    h.apply(Fold(0))
    h.apply(Call(1))
    h.apply(Call(2))
    assert h.pot_total() == 520


def test_e3_spread_limit_no_raise_below_last_bet() -> None:
    h = round_with_pot(0, [100] * 3, limit=Limit.SPREAD, small_bet=1, big_bet=4)
    h.apply(Bet(0, 3))
    legal = h.legal()
    assert legal.to_call == 3
    assert (legal.min_to, legal.max_to) == (6, 7)
    for bad in (4, 5, 8):
        with pytest.raises(BadAmount):
            h.apply(RaiseTo(1, bad))
    h.apply(RaiseTo(1, 7))
    assert h.current_bet == 7


def e4_hand() -> Hand:
    # A checks, B bets 5, C calls 5, D is all in for 6.
    h = round_with_pot(
        0,
        [100, 100, 100, 6, 100],
        limit=Limit.FIXED,
        small_bet=5,
        big_bet=10,
        incomplete_rule="half_bet",
    )
    h.apply(Check(0))
    h.apply(Bet(1, 5))
    h.apply(Call(2))
    h.apply(AllIn(3))
    return h


def test_e4_half_bet_rule_completion_and_reopening() -> None:
    h = e4_hand()
    legal = h.legal()  # E
    assert legal.to_call == 6
    assert (legal.min_to, legal.max_to) == (10, 10)  # complete to 10
    assert "complete" in legal.actions
    # E and A only call: B and C may only call 1 more or fold.
    h.apply(Call(4))
    h.apply(Call(0))
    legal_b = h.legal()
    assert legal_b.player == 1 and legal_b.to_call == 1 and legal_b.min_to is None
    h.apply(Call(1))
    assert h.legal().min_to is None


def test_e4_half_bet_rule_all_in_above_half_reopens() -> None:
    h = round_with_pot(
        0,
        [100, 100, 100, 6, 8],
        limit=Limit.FIXED,
        small_bet=5,
        big_bet=10,
        incomplete_rule="half_bet",
    )
    h.apply(Check(0))
    h.apply(Bet(1, 5))
    h.apply(Call(2))
    h.apply(AllIn(3))
    h.apply(AllIn(4))  # E all in for 8: 3 over the last full bet, more than half
    for player in (0, 1, 2):
        legal = h.legal()
        assert legal.player == player
        assert (legal.min_to, legal.max_to) == (13, 13)  # a further 5
        h.apply(Call(player))


def test_e5_no_limit_full_bet_rule() -> None:
    h = round_with_pot(100, [1000, 1000, 1000, 35, 1000])
    h.apply(Check(0))
    h.apply(Bet(1, 20))
    h.apply(Call(2))
    h.apply(AllIn(3))  # raise of 15, less than a full raise
    legal_e = h.legal()
    assert legal_e.to_call == 35 and legal_e.min_to == 55
    h.apply(Call(4))
    legal_a = h.legal()  # B's full bet came after A acted: A may raise
    assert legal_a.player == 0 and legal_a.min_to == 55
    h.apply(Call(0))
    for player in (1, 2):
        legal = h.legal()
        assert legal.player == player and legal.to_call == 15 and legal.min_to is None
        with raises_saying(Exception, r"does not reopen the betting for you \(R-7.3\)"):
            h.apply(RaiseTo(player, 100))
        h.apply(Call(player))


def test_e5_a_raise_by_e_reopens_for_b_and_c() -> None:
    h = round_with_pot(100, [1000, 1000, 1000, 35, 1000])
    h.apply(Check(0))
    h.apply(Bet(1, 20))
    h.apply(Call(2))
    h.apply(AllIn(3))
    h.apply(RaiseTo(4, 55))
    h.apply(Call(0))
    assert h.legal().player == 1 and h.legal().min_to == 75


def test_e6_hi_lo_odd_chips() -> None:
    # Seats A..F are positions 0..5, F on the button. High half 35, low half 34.
    high, low = halve(69)
    assert (high, low) == (35, 34)
    order = list(range(6))
    assert split(low, [2], order) == [34]
    assert split(high, [1, 3, 5], order) == [12, 12, 11]


def test_e7_side_pots() -> None:
    # A, B, C, D with 50 in the pot; B holds the best hand, D the second best.
    deck = stacked_deck(["2c3d", "AsAh", "7c8d", "KsKh"], "Qd9s4c2h5s")
    h = Hand(
        Rules(blinds_or_straddles=(0, 0, 0, 0), small_bet=1),
        [1000, 5, 1000, 35],
        deck,
        carried=50,
    )
    h.apply(Bet(0, 20))
    h.apply(AllIn(1))
    h.apply(RaiseTo(2, 40))
    h.apply(AllIn(3))
    h.apply(Fold(0))
    assert h.over
    assert pots_of(h) == [(70, (1, 2, 3)), (75, (2, 3))]
    returned = h.starting_stacks[2] - 35  # C's unmatched 5 came back
    awards = [e for e in h.events if isinstance(e, PotAwarded)]
    assert {(a.pot_index, a.winners) for a in awards} == {(0, (1,)), (1, (3,))}
    assert h.stacks[2] == returned
    assert h.total_chips() == sum(h.starting_stacks) + 50


def test_e8_three_players_two_all_ins() -> None:
    # B best, A second, C worst.
    deck = stacked_deck(["QsQh", "AsAh", "7c2d"], "Kd9s4c3h8s")
    h = Hand(Rules(blinds_or_straddles=(0, 0, 0), small_bet=10), [1000, 10, 30], deck)
    h.apply(Bet(0, 20))
    h.apply(AllIn(1))
    h.apply(AllIn(2))
    h.apply(Call(0))
    assert pots_of(h) == [(30, (0, 1, 2)), (40, (0, 2))]
    assert h.stacks == [1000 - 30 + 40, 30, 0]


def test_e9_forced_bet_all_in() -> None:
    # Ten players, ante 1, blinds 4/8; the big blind (position 1) has 8 chips.
    stacks = [100] * 10
    stacks[1] = 8
    deck = stacked_deck(["2c3d", "KsKh", "4c5d", "AsAh"] + [""] * 6, "Kd9s7c2h8s")
    h = Hand(
        Rules(blinds_or_straddles=(4, 8), antes=(1,) * 10, small_bet=8),
        stacks,
        deck,
    )
    assert h.bets[1] == 7 and h.stacks[1] == 0  # ante 1, blind 7, all in
    h.apply(Call(2))
    h.apply(RaiseTo(3, 16))
    for p in (4, 5, 6, 7, 8, 9, 0, 2):
        h.apply(Fold(p))
    main = pots_of(h)[0]
    assert main == (35, (1, 3))
    # The big blind's trip kings win the main pot; the raiser collects the side money:
    # 10 chips beyond the main pot (2 in a side pot, 8 of his raise returned as uncalled).
    assert h.stacks[1] == 35
    assert h.stacks[3] == 100 - 17 + 10


def test_e10_short_big_blind() -> None:
    deck = stacked_deck(["", "", ""])
    h = Hand(Rules(blinds_or_straddles=(20, 40), small_bet=40), [1000, 10, 1000], deck)
    live = [True, True, True]
    # Before C acts: main pot 20 (10 each from A and B), side pot 10 (A's extra).
    assert [(p.amount, p.eligible) for p in build_pots(h.contrib, live)] == [
        (20, (0, 1)),
        (10, (0,)),
    ]
    legal = h.legal()  # C calls for 40 or raises to at least 80
    assert legal.player == 2 and legal.to_call == 40 and legal.min_to == 80
    h.apply(Call(2))
    # C's 40: 10 to the main pot, 30 to the side (until A acts, part of it is his alone).
    pots = build_pots(h.contrib, live)
    assert pots[0].amount == 30 and pots[0].eligible == (0, 1, 2)
    assert sum(p.amount for p in pots[1:]) == 20 - 10 + 30
    assert all(1 not in p.eligible for p in pots[1:])
