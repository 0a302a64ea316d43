"""Two to win and Guts through the hand (§15): the engine takes the carried pot,
markers, legs and reserve as inputs and returns the new ones, and conserves chips."""

from __future__ import annotations

import pytest

from bot.poker.actions import Call, Check, Fold, GutsCall
from bot.poker.cards import stacked_deck
from bot.poker.errors import IllegalAction
from bot.poker.events import DeclarationCount, GutsCallCommitted, GutsCallsRevealed
from bot.poker.hand import Hand
from bot.poker.potsystems import GutsState, TwoToWinState
from bot.poker.rules import Limit, Rules
from tests.said import raises_saying

IDS = ("ann", "bob", "cat")


def test_r15_1_two_to_win_first_win_is_a_marker_second_collects() -> None:
    rules = Rules(limit=Limit.FIXED, blinds_or_straddles=(1, 2), pot_system="two_to_win")
    deck = stacked_deck(["AsAh", "2c7d", "3c8d"], "KdQs9h4c5s")
    h = Hand(rules, [100, 100, 100], deck, player_ids=IDS)
    h.apply(Call(2))
    h.apply(Call(0))
    h.apply(Check(1))
    for _ in range(3):
        for p in (0, 1, 2):
            h.apply(Check(p))
    state = h.pot_state_out
    assert isinstance(state, TwoToWinState)
    assert state.markers == frozenset({"ann"}) and state.pot == 6
    assert h.stacks == [98, 98, 98] and h.middle == 6 and h.total_chips() == 300
    # Next deal: ann wins again and collects 6 + this hand's chips.
    h2 = Hand(rules, h.stacks, deck, player_ids=IDS, pot_state=state)
    h2.apply(Fold(2))
    h2.apply(Call(0))
    h2.apply(Check(1))
    for _ in range(3):
        for p in (0, 1):
            h2.apply(Check(p))
    out = h2.pot_state_out
    assert out == TwoToWinState(0, frozenset())
    assert h2.stacks == [98 - 2 + 6 + 4, 96, 98] and h2.middle == 0
    assert sum(h2.stacks) == 300


def guts_rules(**kw: object) -> Rules:
    return Rules(variant="guts", blinds_or_straddles=(), pot_system="guts", guts_stake=50, **kw)  # type: ignore[arg-type]


def test_r15_2_guts_stake_calls_sealed_then_revealed_losers_pay_the_pot() -> None:
    deck = stacked_deck(["AsAhAdKcKd", "2c7d9h4s3d", "QsQhJcTd8s"])
    h = Hand(guts_rules(), [1000, 1000, 1000], deck, player_ids=IDS)
    assert h.phase == "guts" and h.middle == 150  # everyone staked 50 into an empty pot
    events = h.apply(GutsCall(0, True))
    assert [e for e in events if e.audience is None] == [
        DeclarationCount(committed=1, total=3, what="guts")
    ]
    assert [e for e in events if e.audience == 0] == [
        GutsCallCommitted(player=0, stay=True, audience=0)
    ]
    with pytest.raises(IllegalAction):
        h.apply(GutsCall(0, False))  # final
    h.apply(GutsCall(1, False))
    h.apply(GutsCall(2, True))
    reveal = next(e for e in h.events if isinstance(e, GutsCallsRevealed))
    assert dict(reveal.calls) == {0: True, 1: False, 2: True}
    # ann's full house wins the 150; cat stayed and lost: he pays 150 into the next pot.
    assert h.stacks == [1000 - 50 + 150, 950, 950 - 150]
    state = h.pot_state_out
    assert isinstance(state, GutsState) and state.pot == 150 and h.middle == 150
    assert h.total_chips() == 3000


def test_r15_2_guts_nobody_in_pot_carries_and_no_new_stake() -> None:
    deck = stacked_deck(["AsAhAdKcKd", "2c7d9h4s3d", "QsQhJcTd8s"])
    h = Hand(guts_rules(), [1000] * 3, deck, player_ids=IDS)
    for p in (0, 1, 2):
        h.apply(GutsCall(p, False))
    state = h.pot_state_out
    assert isinstance(state, GutsState) and state.pot == 150
    h2 = Hand(guts_rules(), h.stacks, deck, player_ids=IDS, pot_state=state)
    assert h2.stacks == [950] * 3 and h2.middle == 150  # the pot was not empty: no stake


def test_e13_guts_reserve_with_maximum_pot() -> None:
    # The pot is capped at 200: losers pay 150 each (300), 200 plays and 100 waits.
    deck = stacked_deck(["AsAhAdKcKd", "2c7d9h4s3d", "QsQhJcTd8s"])
    h = Hand(guts_rules(guts_max_pot=200), [1000] * 3, deck, player_ids=IDS)
    for p in (0, 1, 2):
        h.apply(GutsCall(p, True))
    state = h.pot_state_out
    assert isinstance(state, GutsState) and (state.pot, state.reserve) == (200, 100)
    assert h.middle == 300 and h.total_chips() == 3000


def test_r15_2_guts_sequential_calls_are_public_in_turn() -> None:
    deck = stacked_deck(["AsAhAdKcKd", "2c7d9h4s3d", "QsQhJcTd8s"])
    h = Hand(guts_rules(guts_mode="sequential"), [1000] * 3, deck, player_ids=IDS)
    assert h.to_act == 0  # from the dealer's left
    with pytest.raises(IllegalAction):
        h.apply(GutsCall(1, True))
    h.apply(GutsCall(0, True))
    assert h.to_act == 1


def test_r15_state_survives_the_hand_record_round_trip() -> None:
    from bot.poker.record import HandStart, replay

    deck = stacked_deck(["AsAhAdKcKd", "2c7d9h4s3d", "QsQhJcTd8s"])
    state = GutsState(pot=40, reserve=10, legs={"bob": 2})
    start = HandStart(guts_rules(guts_legs=3), (500, 500, 500), deck, 0, IDS, state)
    again = HandStart.from_dict(start.to_dict())
    assert again == start
    hand = replay(again, [GutsCall(0, False), GutsCall(1, True), GutsCall(2, False)])
    out = hand.pot_state_out
    # bob stays in alone: his third leg collects the pot of 40 and clears the legs; the
    # reserve waits to refill the next pot (E-13).
    assert isinstance(out, GutsState)
    assert (out.pot, out.reserve, dict(out.legs)) == (0, 10, {})
    assert hand.stacks == [500, 540, 500]
    assert hand.total_chips() == 1500 + 50


def test_r15_1_two_to_win_is_fixed_limit_only() -> None:

    from bot.poker.errors import ConfigError

    with raises_saying(ConfigError, "fixed limit"):
        Rules(blinds_or_straddles=(1, 2), pot_system="two_to_win")


def test_r14_1_a_carried_pot_is_not_raked_again() -> None:
    """Two to win: the pot held over from the last deal is in this deal's main pot, but
    only the chips put in this deal pay rake."""
    from bot.poker.actions import Call, Check
    from bot.poker.cards import stacked_deck
    from bot.poker.events import RakeTaken
    from bot.poker.potsystems import TwoToWinState
    from bot.poker.rules import Rake

    rules = Rules(
        limit=Limit.FIXED,
        blinds_or_straddles=(1, 2),
        pot_system="two_to_win",
        rake=Rake(percent_bp=5000, no_flop_no_drop=False),
    )
    deck = stacked_deck(["AsAh", "KsKh"], "2c7d9hJs4s")
    h = Hand(rules, [100, 100], deck, pot_state=TwoToWinState(pot=100))
    h.apply(Call(1))
    h.apply(Check(0))
    while not h.over:
        h.apply(Check(h.legal().player))
    (rake,) = [e for e in h.events if isinstance(e, RakeTaken)]
    assert rake.amount == 2  # half of the 4 put in this deal, not of the 104 in the pot
    assert h.total_chips() == 300
