"""Bad input changes nothing and raises a typed error (R-6.1 to R-6.5, R-4.3, R-5, R-7.3).

Every refusal must leave the hand exactly as it was: the snapshot of stacks, bets,
contributions, the player to act and the event count is compared before and after.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.poker.actions import (
    Action,
    AllIn,
    Bet,
    Call,
    Check,
    Draw,
    Fold,
    Muck,
    RaiseBy,
    RaiseTo,
    Show,
)
from bot.poker.cards import stacked_deck
from bot.poker.errors import BadAmount, HandOver, IllegalAction, NotYourTurn
from bot.poker.hand import Hand
from bot.poker.messages import Chips, msg
from bot.poker.rules import Limit, Rules
from tests.said import said_in

Snapshot = tuple[list[int], list[int], list[int], int | None, int, bool]

NL = Rules(blinds_or_straddles=(1, 2), small_bet=2)
PL = Rules(limit=Limit.POT_LIMIT, blinds_or_straddles=(1, 2), small_bet=2)
FL = Rules(limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4)

BAD_AMOUNTS: list[Any] = [-5, 0, 2.5, 10**30, "abc", None, True, 8.0]


def snapshot(hand: Hand) -> Snapshot:
    return (
        list(hand.stacks),
        list(hand.bets),
        list(hand.contrib),
        hand.to_act,
        len(hand.events),
        hand.over,
    )


def refused(hand: Hand, action: Action, error: type[IllegalAction]) -> IllegalAction:
    """Apply ``action``; it must raise ``error`` (exactly that class or a subclass) and
    change nothing; also the legal options must be the same afterwards."""
    before = snapshot(hand)
    legal_before = None if hand.over else hand.legal()
    with pytest.raises(error) as info:
        hand.apply(action)
    assert snapshot(hand) == before
    if legal_before is not None:
        assert hand.legal() == legal_before
    assert info.value.msg.key
    return info.value


def preflop(rules: Rules = NL, stacks: tuple[int, ...] = (200, 200, 200)) -> Hand:
    """Three players: position 2 (the button) is first to act preflop."""
    return Hand(rules, list(stacks))


def flop(rules: Rules = NL) -> Hand:
    """Three players see a flop for 2 each; position 0 is first to act, nobody has bet."""
    hand = preflop(rules)
    hand.apply(Call(2))
    hand.apply(Call(0))
    hand.apply(Check(1))
    assert hand.to_act == 0 and hand.current_bet == 0
    return hand


@pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=repr)
def test_r6_4_bad_bet_amount_is_refused(amount: Any) -> None:
    hand = flop()
    refused(hand, Bet(0, amount), BadAmount)


@pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=repr)
def test_r6_4_bad_raise_to_amount_is_refused(amount: Any) -> None:
    hand = preflop()
    refused(hand, RaiseTo(2, amount), BadAmount)


@pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=repr)
def test_r6_4_bad_raise_by_amount_is_refused(amount: Any) -> None:
    hand = preflop()
    refused(hand, RaiseBy(2, amount), BadAmount)


@pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=repr)
def test_r6_4_bad_amounts_refused_in_pot_limit_and_fixed(amount: Any) -> None:
    for rules in (PL, FL):
        refused(preflop(rules), RaiseTo(2, amount), BadAmount)
        refused(flop(rules), Bet(0, amount), BadAmount)


@pytest.mark.parametrize(
    "action",
    [Fold(0), Check(0), Call(0), Bet(0, 10), RaiseTo(0, 10), RaiseBy(0, 4), AllIn(0), Fold(1)],
    ids=repr,
)
def test_r6_5_action_out_of_turn_is_refused(action: Action) -> None:
    hand = preflop()
    assert hand.to_act == 2
    refused(hand, action, NotYourTurn)


@pytest.mark.parametrize("player", [-1, 3, 99])
def test_r6_5_unknown_player_is_refused(player: int) -> None:
    refused(preflop(), Call(player), NotYourTurn)


def test_r6_2_call_then_raise_same_turn_is_not_his_turn() -> None:
    """R-6.2: a call then a raise by the same player in the same turn stays a call."""
    hand = preflop()
    hand.apply(Call(2))
    refused(hand, RaiseTo(2, 10), NotYourTurn)
    refused(hand, RaiseBy(2, 6), NotYourTurn)
    refused(hand, AllIn(2), NotYourTurn)
    assert hand.bets[2] == 2


def _finished_hand() -> Hand:
    hand = preflop()
    hand.apply(Fold(2))
    hand.apply(Fold(0))
    assert hand.over
    return hand


@pytest.mark.parametrize(
    "action",
    [
        Fold(1),
        Check(1),
        Call(1),
        Bet(1, 10),
        RaiseTo(1, 10),
        RaiseBy(1, 4),
        AllIn(1),
        Show(1),
        Muck(1),
        Fold(0),
        Call(2),
    ],
    ids=repr,
)
def test_r12_1_any_action_after_hand_over_is_refused(action: Action) -> None:
    hand = _finished_hand()
    total = hand.total_chips()
    refused(hand, action, HandOver)
    assert hand.total_chips() == total
    with pytest.raises(HandOver):
        hand.legal()


def test_r4_3_check_facing_a_bet_is_refused() -> None:
    hand = preflop()
    refused(hand, Check(2), IllegalAction)
    hand = flop()
    hand.apply(Bet(0, 10))
    err = refused(hand, Check(1), IllegalAction)
    assert err.legal is not None and err.legal.to_call == 10


def test_r4_2_bet_when_there_is_a_bet_is_refused() -> None:
    hand = flop()
    hand.apply(Bet(0, 10))
    refused(hand, Bet(1, 30), IllegalAction)
    refused(preflop(), Bet(2, 10), IllegalAction)  # the big blind is a bet


def test_r5_8_raise_one_chip_short_of_minimum_is_refused() -> None:
    hand = preflop()
    legal = hand.legal()
    assert legal.min_to == 4
    refused(hand, RaiseTo(2, 3), BadAmount)
    refused(hand, RaiseBy(2, 1), BadAmount)
    hand.apply(RaiseTo(2, 10))  # a raise of 8
    assert hand.legal().min_to == 18
    refused(hand, RaiseTo(0, 17), BadAmount)
    refused(hand, RaiseBy(0, 7), BadAmount)


def test_r5_8_bet_one_chip_short_of_minimum_is_refused() -> None:
    hand = flop()
    assert hand.legal().min_to == 2
    refused(hand, Bet(0, 1), BadAmount)


def test_r6_4_short_all_in_is_allowed_below_minimum() -> None:
    """R-6.4/R-7.2: below the minimum raise is refused except as all in."""
    hand = preflop(stacks=(200, 200, 3))
    legal = hand.legal()
    assert legal.min_to == legal.max_to == 3 == legal.all_in_to
    hand.apply(RaiseTo(2, 3))
    assert hand.stacks[2] == 0


def test_r5_3_above_pot_limit_maximum_is_refused() -> None:
    hand = preflop(PL)
    legal = hand.legal()
    # Pot 3, call 2 → pot 5; raise by at most 5: to 7.
    assert legal.max_to == 7
    err = refused(hand, RaiseTo(2, 8), BadAmount)
    assert said_in(err.msg, msg("legal.range", low=Chips(4), high=Chips(7))) or said_in(
        err.msg, msg("legal.amount", amount=Chips(7))
    )
    refused(hand, RaiseBy(2, 6), BadAmount)


def test_r5_3_above_pot_limit_maximum_first_bet() -> None:
    hand = flop(PL)
    assert hand.legal().max_to == 6  # the first bet of a round is at most the pot
    refused(hand, Bet(0, 7), BadAmount)


def test_r6_4_clamp_to_max_option() -> None:
    rules = Rules(limit=Limit.POT_LIMIT, blinds_or_straddles=(1, 2), small_bet=2, clamp_to_max=True)
    hand = preflop(rules)
    hand.apply(RaiseTo(2, 50))
    assert hand.bets[2] == 7


def test_r5_1_fixed_limit_wrong_amount_is_refused() -> None:
    hand = preflop(FL)
    assert hand.legal().min_to == hand.legal().max_to == 4
    refused(hand, RaiseTo(2, 5), BadAmount)
    refused(hand, RaiseTo(2, 6), BadAmount)


def test_r7_3_raise_not_reopened_is_refused() -> None:
    """E-5 shape: B bets 20, C calls, D all in for 35 (raise of 15 < 20); when the action
    returns to B and C they may only call or fold."""
    # Five players post-flop. Build with a preflop where everybody calls the big blind.
    rules = Rules(blinds_or_straddles=(1, 2), small_bet=2)
    stacks = [500, 500, 500, 37, 500]
    hand = Hand(rules, stacks)
    for p in (2, 3, 4, 0):
        hand.apply(Call(p))
    hand.apply(Check(1))
    # Flop: position 0 first. A=0 checks, B=1 bets 20, C=2 calls, D=3 all in for 35.
    hand.apply(Check(0))
    hand.apply(Bet(1, 20))
    hand.apply(Call(2))
    hand.apply(AllIn(3))
    assert hand.bets[3] == 35
    hand.apply(Call(4))  # E calls
    hand.apply(Call(0))  # A calls (he may raise: B's full bet came after he checked)
    assert hand.to_act == 1
    legal = hand.legal()
    assert legal.min_to is None and "raise" not in legal.actions
    refused(hand, RaiseTo(1, 100), IllegalAction)
    refused(hand, RaiseBy(1, 40), IllegalAction)
    refused(hand, AllIn(1), IllegalAction)
    refused(hand, Bet(1, 50), IllegalAction)


def test_r4_3_not_a_betting_action_is_refused() -> None:
    refused(preflop(), Draw(2, ()), IllegalAction)
    refused(preflop(), Show(2), IllegalAction)


def test_r6_4_unit_multiple_is_enforced() -> None:
    rules = Rules(blinds_or_straddles=(5, 10), small_bet=10, unit=5)
    hand = Hand(rules, [500, 500, 500])
    refused(hand, RaiseTo(2, 23), BadAmount)
    hand.apply(RaiseTo(2, 25))
    assert hand.bets[2] == 25


def test_r6_1_refusal_then_valid_action_binds() -> None:
    """After refusals the same player still acts, and his valid action binds."""
    hand = preflop()
    refused(hand, RaiseTo(2, 3), BadAmount)
    refused(hand, Bet(2, 10), IllegalAction)
    hand.apply(RaiseTo(2, 6))
    assert hand.to_act == 0 and hand.bets[2] == 6


def test_r6_4_stacked_deck_does_not_change_refusals() -> None:
    deck = stacked_deck(["AsAh", "KsKh", "QsQh"], "2c7d9hTsJc")
    hand = Hand(NL, [200, 200, 200], deck)
    refused(hand, RaiseTo(2, 10**30), BadAmount)
    refused(hand, RaiseTo(2, 201), BadAmount)  # above his whole stack
