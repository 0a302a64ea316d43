"""Scenario tests for the betting rules and house options, one per rule id."""

from __future__ import annotations

import pytest

from bot.poker.actions import AllIn, Bet, Call, Check, Fold, Muck, RaiseBy, RaiseTo
from bot.poker.cards import stacked_deck
from bot.poker.errors import BadAmount, IllegalAction
from bot.poker.events import (
    ActionTaken,
    BoardDealt,
    ForcedBet,
    HandMucked,
    HandShown,
    PotAwarded,
    RakeTaken,
)
from bot.poker.hand import Hand
from bot.poker.rules import Limit, Rake, Rules, ante_list
from tests.said import en, raises_saying

DECK6 = stacked_deck(["", "", "", "", "", ""])


def test_r1_5_heads_up_button_posts_small_blind_and_acts_first_preflop() -> None:
    # PHH order heads-up: position 0 is the big blind, position 1 the button.
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100, 100], stacked_deck(["", ""]))
    posts = {e.player: (e.kind, e.amount) for e in h.events if isinstance(e, ForcedBet)}
    assert posts == {1: ("small_blind", 1), 0: ("big_blind", 2)}
    kinds = [e.kind for e in h.events if isinstance(e, ForcedBet)]
    assert kinds == ["small_blind", "big_blind"]  # announced in the order they are posted
    assert h.to_act == 1  # the button acts first before the flop
    h.apply(Call(1))
    h.apply(Check(0))
    assert h.to_act == 0  # and last on every later round


def test_r3_1_big_blind_ante_is_dead_money_for_the_main_pot() -> None:
    antes = ante_list(3, 2, "big_blind")
    assert antes == (0, 2, 0)
    h = Hand(Rules(blinds_or_straddles=(1, 2), antes=antes), [100] * 3, stacked_deck(["", "", ""]))
    h.apply(Fold(2))
    h.apply(Fold(0))
    assert h.stacks[1] == 100 + 1  # wins the small blind; his ante and blind come back
    assert h.total_chips() == 300


def test_r3_1_button_antes_for_everybody() -> None:
    assert ante_list(4, 1, "button") == (0, 0, 0, 4)


def test_r3_4_straddle_acts_last_with_option_and_sets_the_minimum_raise() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 2, 4)), [100] * 4, stacked_deck(["", "", "", ""]))
    assert h.to_act == 3  # left of the straddle
    legal = h.legal()
    assert legal.to_call == 4 and legal.min_to == 8
    h.apply(Call(3))
    h.apply(Call(0))
    h.apply(Call(1))
    assert h.to_act == 2  # the straddle has the option
    assert "check" in h.legal().actions and h.legal().min_to == 8


def test_r3_6_kill_blind_scales_limits_and_acts_last() -> None:
    # Fixed 2/4, a full kill of 4 posted by position 3; the limits double.
    rules = Rules(
        limit=Limit.FIXED,
        blinds_or_straddles=(1, 2, 0, 4),
        small_bet=2,
        big_bet=4,
        limit_scale=(2, 1),
    )
    h = Hand(rules, [100] * 5, stacked_deck(["", "", "", "", ""]))
    assert h.to_act == 4  # left of the kill
    assert h.legal().min_to == 8  # raise by the scaled small bet of 4
    for p in (4, 0, 1, 2):
        h.apply(Call(p))
    assert h.to_act == 3 and "check" in h.legal().actions  # the kill acts last


def test_r3_7_short_blind_others_call_full_blind() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100, 1, 100], stacked_deck(["", "", ""]))
    assert h.bets[1] == 1 and h.stacks[1] == 0
    legal = h.legal()
    assert legal.to_call == 2 and legal.min_to == 4


def test_r4_4_checking_out_option_refuses_fold_when_check_is_free() -> None:
    rules = Rules(blinds_or_straddles=(0, 0, 0), checking_out=False)
    h = Hand(rules, [100] * 3, stacked_deck(["", "", ""]), carried=10)
    with raises_saying(IllegalAction, "Check instead"):
        h.apply(Fold(0))
    h.apply(Check(0))


def test_r4_7_uncalled_bet_returned() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100] * 3, stacked_deck(["", "", ""]))
    h.apply(RaiseTo(2, 50))
    h.apply(Fold(0))
    h.apply(Fold(1))
    assert h.stacks == [99, 98, 103]


def test_r4_8_all_in_run_out_exposes_hands_before_the_board() -> None:
    deck = stacked_deck(["AsAh", "KsKh"], "2c7d9hJc3s")
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [50, 50], deck)
    h.apply(AllIn(1))
    h.apply(Call(0))
    kinds = [type(e).__name__ for e in h.events]
    first_show = kinds.index("HandShown")
    first_board = kinds.index("BoardDealt")
    assert first_show < first_board
    assert h.stacks == [100, 0]


def test_r5_6_capped_no_limit_reaching_the_cap_is_all_in() -> None:
    rules = Rules(blinds_or_straddles=(1, 2), deal_cap=20)
    h = Hand(rules, [100] * 3, stacked_deck(["", "", ""], "2c7d9hJc3s"))
    legal = h.legal()
    assert legal.max_to == 20
    h.apply(RaiseTo(2, 20))
    assert h.effective_stack(2) == 0 and h.stacks[2] == 80


def test_r5_7_raise_cap_and_heads_up_lift() -> None:
    rules = Rules(limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4)
    h = Hand(rules, [100] * 3, stacked_deck(["", "", ""]))
    h.apply(RaiseTo(2, 4))
    h.apply(RaiseTo(0, 6))
    h.apply(RaiseTo(1, 8))  # the blind, then three raises: capped
    assert h.legal().min_to is None  # three players in: no more raising
    h.apply(Call(2))
    h.apply(Fold(0))
    # Heads-up from here: on the flop the cap is lifted (default: at any time).
    for _ in range(6):
        legal = h.legal()
        assert legal.min_to is not None
        h.apply(RaiseBy(legal.player, 2) if legal.current_bet else Bet(legal.player, 2))


def test_r5_7_cap_lift_never_keeps_the_cap_heads_up() -> None:
    rules = Rules(
        limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4, cap_lift="never"
    )
    h = Hand(rules, [100] * 2, stacked_deck(["", ""]))
    h.apply(RaiseTo(1, 4))
    h.apply(RaiseTo(0, 6))
    h.apply(RaiseTo(1, 8))
    assert h.legal().min_to is None


def test_r5_8_minimum_raise_rule_off() -> None:
    rules = Rules(blinds_or_straddles=(1, 2), min_raise_rule=False)
    h = Hand(rules, [1000] * 3, stacked_deck(["", "", ""]))
    h.apply(RaiseTo(2, 100))
    assert h.legal().min_to == 102  # any raise of at least the minimum bet


def test_r5_8_minimum_raise_rule_on() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [1000] * 3, stacked_deck(["", "", ""]))
    h.apply(RaiseTo(2, 100))
    assert h.legal().min_to == 198
    with pytest.raises(BadAmount):
        h.apply(RaiseTo(0, 197))


def test_r5_9_check_raise_ban() -> None:
    rules = Rules(blinds_or_straddles=(0, 0, 0), check_raise=False)
    h = Hand(rules, [100] * 3, stacked_deck(["", "", ""]), carried=10)
    h.apply(Check(0))
    h.apply(Bet(1, 10))
    h.apply(Call(2))
    legal = h.legal()
    assert legal.player == 0 and legal.min_to is None and "call" in legal.actions


def test_r6_3_raise_by_and_raise_to_are_both_explicit() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [1000] * 3, stacked_deck(["", "", ""]))
    h.apply(RaiseBy(2, 10))  # by 10 on top of the call of 2: to 12
    assert h.bets[2] == 12
    h.apply(RaiseTo(0, 30))
    assert h.bets[0] == 30


def test_r6_4_clamp_to_max_option() -> None:
    rules = Rules(limit=Limit.POT_LIMIT, blinds_or_straddles=(1, 2), clamp_to_max=True)
    h = Hand(rules, [1000] * 3, stacked_deck(["", "", ""]))
    h.apply(RaiseTo(2, 500))
    assert h.bets[2] == 7  # pot limit: 2 + (3 + 2) = 7, stated as the maximum


def test_r6_4_above_maximum_refused_with_range() -> None:
    rules = Rules(limit=Limit.POT_LIMIT, blinds_or_straddles=(1, 2))
    h = Hand(rules, [1000] * 3, stacked_deck(["", "", ""]))
    with raises_saying(BadAmount, "4–7"):
        h.apply(RaiseTo(2, 500))


def test_r6_5_out_of_turn_refused_and_changes_nothing() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100] * 3, stacked_deck(["", "", ""]))
    before = (list(h.stacks), list(h.bets), h.to_act, len(h.events))
    with raises_saying(IllegalAction, "not your turn"):
        h.apply(Call(0))
    assert (list(h.stacks), list(h.bets), h.to_act, len(h.events)) == before


def test_r7_2_full_all_in_raise_reopens() -> None:
    h = Hand(Rules(blinds_or_straddles=(0, 0, 0)), [100, 100, 40], stacked_deck(["", "", ""]))
    h.apply(Bet(0, 10))
    h.apply(Call(1))
    h.apply(AllIn(2))  # 40: a full raise of 30
    assert h.legal().player == 0 and h.legal().min_to == 70


def play_blinds_hand_to_river(deck: tuple[str, ...]) -> Hand:
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100] * 3, deck)
    h.apply(Call(2))
    h.apply(Call(0))
    h.apply(Check(1))
    for _ in range(2):
        for p in (0, 1, 2):
            h.apply(Check(p))
    return h


def test_r9_1_showdown_starts_with_last_aggressor() -> None:
    deck = stacked_deck(["2c3d", "AsAh", "KsKh"], "7c8d9hJs4s")
    h = play_blinds_hand_to_river(deck)
    h.apply(Check(0))
    h.apply(Bet(1, 2))
    h.apply(Call(2))
    h.apply(Fold(0))
    shows = [e.player for e in h.events if isinstance(e, HandShown)]
    assert shows[0] == 1  # the last bettor shows first


def test_r9_1_all_checked_first_active_left_of_button_shows_first() -> None:
    deck = stacked_deck(["2c3d", "AsAh", "KsKh"], "7c8d9hJs4s")
    h = play_blinds_hand_to_river(deck)
    for p in (0, 1, 2):
        h.apply(Check(p))
    shows = [e.player for e in h.events if isinstance(e, HandShown)]
    assert shows[0] == 0


def test_r9_2_beaten_hand_is_mucked_automatically() -> None:
    deck = stacked_deck(["2c3d", "AsAh", "KsKh"], "7c8d9hJs4s")
    h = play_blinds_hand_to_river(deck)
    for p in (0, 1, 2):
        h.apply(Check(p))
    shown = [e.player for e in h.events if isinstance(e, HandShown)]
    mucked = [e.player for e in h.events if isinstance(e, HandMucked)]
    # The seven-high shows first (nothing shown yet); the aces beat it; the kings are
    # beaten by the aces already shown and are mucked.
    assert shown == [0, 1] and mucked == [2]


def test_r9_2_pot_award_names_the_shown_winning_hand() -> None:
    deck = stacked_deck(["2c3d", "AsAh", "KsKh"], "7c8d9hJs4s")
    h = play_blinds_hand_to_river(deck)
    for p in (0, 1, 2):
        h.apply(Check(p))
    (award,) = [e for e in h.events if isinstance(e, PotAwarded)]
    assert award.winners == (1,) and award.hand_words is not None
    assert en(award.hand_words) == "Pair of aces"


def test_r9_2_a_winner_who_never_showed_is_not_described() -> None:
    """Manual showdown: the first two to show muck, so the last hand wins unseen, and
    nothing public says what it was (R-9.2, R-6.5)."""
    deck = stacked_deck(["2c3d", "AsAh", "KsKh"], "7c8d9hJs4s")
    rules = Rules(blinds_or_straddles=(1, 2), showdown="manual")
    h = Hand(rules, [100] * 3, deck)
    h.apply(Call(2))
    h.apply(Call(0))
    h.apply(Check(1))
    while h.phase == "betting":
        h.apply(Check(h.legal().player))
    while not h.over:
        h.apply(Muck(h.legal().player))
    (award,) = [e for e in h.events if isinstance(e, PotAwarded)]
    winner = award.winners[0]
    assert not h.shown[winner]
    assert award.hand_words is None
    assert not [e for e in h.events if isinstance(e, HandShown) and e.player == winner]


def test_r11_3_hi_lo_awards_name_each_half() -> None:
    deck = stacked_deck(["AsKd2c3c", "QsQhJdTc"], "4d5h8cKcQd")
    rules = Rules(
        variant="omaha8", limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4
    )
    h = Hand(rules, [100, 100], deck)
    while not h.over:
        legal = h.legal()
        h.apply(Call(legal.player) if legal.to_call else Check(legal.player))
    names = {
        e.share: en(e.hand_words) for e in h.events if isinstance(e, PotAwarded) if e.hand_words
    }
    assert names == {"high": "Three queens", "low": "8-5-4-2-A low"}


def test_r11_4_odd_chip_by_suit_option() -> None:
    # Two tied players split 9 (antes 4 + 4 and 1 carried in). With the highest
    # card by suit (the 3s over the 3d) takes the odd chip, though position 0 sits
    # nearer the button's left.
    deck = stacked_deck(["2c3d", "2h3s"], "AcAdKhKsQc")
    rules = Rules(blinds_or_straddles=(0, 0), antes=(4, 4), odd_chip="suit", small_bet=1)
    h = Hand(rules, [10, 10], deck, carried=1)
    h.apply(Bet(0, 1))
    h.apply(Call(1))
    while not h.over:
        h.apply(Check(h.to_act or 0))
    award = next(e for e in h.events if isinstance(e, PotAwarded))
    got = dict(zip(award.winners, award.amounts, strict=True))
    assert got == {0: 5, 1: 6}


def test_r11_2_odd_chip_nearest_button_left_by_default() -> None:
    deck = stacked_deck(["2c3d", "2h3s"], "AcAdKhKsQc")
    rules = Rules(blinds_or_straddles=(0, 0), antes=(4, 4), small_bet=1)
    h = Hand(rules, [10, 10], deck, carried=1)
    h.apply(Bet(0, 1))
    h.apply(Call(1))
    while not h.over:
        h.apply(Check(h.to_act or 0))
    award = next(e for e in h.events if isinstance(e, PotAwarded))
    assert dict(zip(award.winners, award.amounts, strict=True)) == {0: 6, 1: 5}


def test_r12_1_uncontested_winner_does_not_show() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100] * 3, stacked_deck(["", "", ""]))
    h.apply(Fold(2))
    h.apply(Fold(0))
    assert h.over and not any(isinstance(e, HandShown) for e in h.events)
    assert not any(isinstance(e, BoardDealt) for e in h.events)


def test_r14_1_rake_percent_with_cap_and_no_flop_no_drop() -> None:
    rake = Rake(percent_bp=1000, cap=3)
    deck = stacked_deck(["AsAh", "KsKh"], "2c7d9hJc3s")
    h = Hand(Rules(blinds_or_straddles=(1, 2), rake=rake), [100, 100], deck)
    h.apply(RaiseTo(1, 20))
    h.apply(Call(0))
    while not h.over:
        h.apply(Check(h.to_act or 0))
    taken = [e.amount for e in h.events if isinstance(e, RakeTaken)]
    assert taken == [3]  # 10% of 40 is 4, capped at 3
    assert h.total_chips() == 200 and h.rake == 3
    h2 = Hand(Rules(blinds_or_straddles=(1, 2), rake=rake), [100, 100], deck)
    h2.apply(RaiseTo(1, 20))
    h2.apply(Fold(0))
    assert h2.rake == 0  # no flop, no drop


def test_r14_1_step_rake() -> None:
    rake = Rake(step_chips=1, step_per=10, no_flop_no_drop=False)
    h = Hand(Rules(blinds_or_straddles=(1, 2), rake=rake), [100, 100], stacked_deck(["", ""]))
    h.apply(RaiseTo(1, 20))
    h.apply(Call(0))
    h.apply(Bet(0, 10))
    h.apply(Fold(1))
    assert h.rake == 4  # 40 in the pot after the uncalled 10 comes back: 4 steps


def test_fold_events_are_public_actions() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100] * 3, stacked_deck(["", "", ""]))
    h.apply(Fold(2))
    assert [e.kind for e in h.events if isinstance(e, ActionTaken)] == ["fold"]


def test_r1_6_live_blind_posted_out_of_position_is_not_a_straddle() -> None:
    # A returning player at position 3 posts a live big blind: the action still starts
    # left of the real big blind, and he has the option when it comes back to him.
    h = Hand(Rules(blinds_or_straddles=(1, 2, 0, 2)), [100] * 5, stacked_deck([""] * 5))
    kinds = {e.player: e.kind for e in h.events if isinstance(e, ForcedBet)}
    assert kinds == {0: "small_blind", 1: "big_blind", 3: "blind"}
    assert h.to_act == 2
    assert h.legal().min_to == 4  # not a straddle: the minimum raise stays a big blind
    for p in (2, 3):
        h.apply(Call(p) if h.legal().to_call else Check(p))
    assert h.to_act == 4


def test_r1_6_dead_small_blind_goes_to_the_pot_not_the_bet() -> None:
    rules = Rules(blinds_or_straddles=(1, 2, 0, 2), dead_posts=(0, 0, 0, 1))
    h = Hand(rules, [100] * 5, stacked_deck([""] * 5))
    assert h.bets[3] == 2 and h.stacks[3] == 97 and h.middle == 6


def test_r2_4_open_stakes_chips_added_during_the_betting() -> None:
    from bot.poker.actions import AddChips

    rules = Rules(limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4)
    h = Hand(rules, [10, 10, 3], stacked_deck(["", "", ""]))
    with raises_saying(IllegalAction, r"R-2\.1"):
        h.apply(AddChips(2, 50))  # not without the option
    h2 = Hand(
        Rules(
            limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4, open_stakes=True
        ),
        [10, 10, 3],
        stacked_deck(["", "", ""]),
    )
    h2.apply(AddChips(2, 50))  # even out of turn, even during the betting
    assert h2.stacks[2] == 53 and h2.legal().min_to == 4
    h2.apply(RaiseTo(2, 4))
    assert h2.total_chips() == 23  # constant: the added chips are counted apart
    with pytest.raises(BadAmount):
        h2.apply(AddChips(0, -5))
    with raises_saying(Exception, r"R-2\.4"):
        Rules(open_stakes=True)  # no-limit: not allowed


def test_r5_3_pot_sized_raise_from_the_legal_range() -> None:
    # E-1 shape: pot 50, A bets 50; a pot raise by B is to 200 (the pot-limit maximum),
    # a half-pot raise is by 75 (half of 150 after the call): to 125.
    h = Hand(
        Rules(limit=Limit.POT_LIMIT, blinds_or_straddles=(0, 0, 0)),
        [1000] * 3,
        DECK6[:52],
        carried=50,
    )
    h.apply(Bet(0, 50))
    legal = h.legal()
    assert legal.pot_raise_to("pot") == 200 == legal.max_to
    assert legal.pot_raise_to("half_pot") == 125
