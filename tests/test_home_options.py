"""Home-game options in the engine (docs/RULES.md §20): run it twice, bomb pots and the
double board, the 7-2 bounty, the rabbit hunt and showing by choice. Every scenario
asserts that no chip is created or lost (R-2.5)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.poker.actions import (
    AllIn,
    Bet,
    Call,
    Check,
    Fold,
    RaiseTo,
    RunItTwice,
    RunItTwiceTimeout,
    ShowCards,
)
from bot.poker.cards import FULL_DECK, stacked_deck
from bot.poker.errors import ConfigError, IllegalAction, NotYourTurn, OptionRefused
from bot.poker.events import (
    BombPotStarted,
    CardsShownByChoice,
    ForcedBet,
    PotAwarded,
    PotsFormed,
    RunItTwiceAnswered,
    RunItTwiceCount,
    RunItTwiceDecided,
    RunItTwiceOffered,
    SecondBoardDealt,
    StreetStarted,
)
from bot.poker.hand import Hand
from bot.poker.home import SevenDeuce, is_seven_deuce, rabbit_hunt, said, seven_deuce
from bot.poker.messages import Msg
from bot.poker.pots import halve
from bot.poker.redact import redact
from bot.poker.rules import Rules
from bot.words import render


def conserved(hand: Hand, stacks: list[int], carried: int = 0) -> None:
    """R-2.5: every chip is in a stack, the middle or the rake."""
    assert hand.total_chips() == sum(stacks) + carried
    assert all(s >= 0 for s in hand.stacks)
    if hand.over:
        assert hand.middle == 0
        assert sum(hand.stacks) + hand.rake == sum(stacks) + carried


def awards(hand: Hand) -> list[PotAwarded]:
    return [e for e in hand.events if isinstance(e, PotAwarded)]


def by_board(hand: Hand, board: int) -> dict[int, int]:
    won: dict[int, int] = {}
    for e in awards(hand):
        if e.board == board:
            for w, a in zip(e.winners, e.amounts, strict=True):
                won[w] = won.get(w, 0) + a
    return won


# ---------------------------------------------------------------- run it twice


def three_way_all_in(rules: Rules, stacks: list[int], deck: tuple[str, ...]) -> Hand:
    """The button and the big blind are all in pre-flop; the small blind folds."""
    hand = Hand(rules, stacks, deck)
    hand.apply(AllIn(2))
    hand.apply(Fold(0))
    hand.apply(AllIn(1) if stacks[1] <= stacks[2] else Call(1))
    return hand


RIT_DECK = stacked_deck(["2h3h", "AsAd", "KsKd"], "2c7d9h4s5c" + "Kh8c3sJdTc")
"""Run one: aces hold (2c 7d 9h 4s 5c); run two: the kings make a set (Kh 8c 3s Jd Tc)."""


def test_r20_1_run_it_twice_each_run_wins_half_odd_chip_to_the_first() -> None:
    rules = Rules(run_it_twice=True)
    stacks = [100, 100, 100]
    hand = three_way_all_in(rules, stacks, RIT_DECK)
    assert hand.phase == "run_twice"
    assert hand.to_act is None
    assert {a.position for a in hand.actors()} == {1, 2}
    assert all(a.turn == "sealed" and "run_twice" in a.legal.actions for a in hand.actors())
    assert any(isinstance(e, RunItTwiceOffered) and e.players == (1, 2) for e in hand.events)
    assert hand.board == []  # nothing is dealt before the answers are in
    conserved(hand, stacks)
    hand.apply(RunItTwice(1, True))
    hand.apply(RunItTwice(2, True))
    assert hand.over and hand.ran_twice
    # The pot is 100 + 100 + the folded small blind's 1 = 201: 101 to run one, 100 to two.
    assert by_board(hand, 0) == {1: 101}
    assert by_board(hand, 1) == {2: 100}
    assert hand.board == list(RIT_DECK[6:11])
    assert hand.board2 == list(RIT_DECK[11:16])
    conserved(hand, stacks)


def test_r20_2_the_second_run_never_deals_a_card_already_dealt() -> None:
    rules = Rules(run_it_twice=True, burn=True)
    deck = tuple(random.Random(7).sample(FULL_DECK, 52))
    stacks = [100, 100, 100]
    hand = three_way_all_in(rules, stacks, deck)
    hand.apply(RunItTwice(2, True))
    hand.apply(RunItTwice(1, True))
    assert hand.board2 is not None
    second = [c for e in hand.events if isinstance(e, SecondBoardDealt) for c in e.cards]
    assert len(second) == 5 and len(hand.board) == 5
    # Both runs start from the same (empty) board and come from the one deck, in order,
    # each street after its burn: 6 hole cards, then run one (3 burns), then run two.
    assert hand.board == [deck[7], deck[8], deck[9], deck[11], deck[13]]
    assert second == [deck[15], deck[16], deck[17], deck[19], deck[21]]
    assert not set(second) & set(hand.board)
    assert len(hand.dealt) == len(set(hand.dealt))
    conserved(hand, stacks)


def test_r20_1_answers_are_private_until_all_are_in() -> None:
    hand = three_way_all_in(Rules(run_it_twice=True), [100, 100, 100], RIT_DECK)
    first = hand.apply(RunItTwice(2, False))
    public = [e for e in first if e.audience is None]
    assert [type(e) for e in public] == [RunItTwiceCount]
    private = [e for e in first if isinstance(e, RunItTwiceAnswered)]
    assert private == [RunItTwiceAnswered(player=2, agree=False, audience=2)]
    # Nobody else's copy of the hand so far holds the answer.
    for viewer in (None, 0, 1):
        assert not any(isinstance(e, RunItTwiceAnswered) for e in redact(hand.events, viewer))
    with pytest.raises(IllegalAction) as info:
        hand.apply(RunItTwice(2, True))
    assert info.value.msg.key == "home.refuse.run_twice_final"
    last = hand.apply(RunItTwice(1, True))
    decided = [e for e in last if isinstance(e, RunItTwiceDecided)]
    assert decided == [RunItTwiceDecided(answers=((1, True), (2, False)), twice=False)]
    # One "no" is enough: the board runs once.
    assert hand.over and not hand.ran_twice and hand.board2 is None
    assert not any(isinstance(e, SecondBoardDealt) for e in hand.events)
    assert {e.board for e in awards(hand)} == {0}
    conserved(hand, [100, 100, 100])


def test_r20_1_no_answer_means_once() -> None:
    hand = three_way_all_in(Rules(run_it_twice=True), [100, 100, 100], RIT_DECK)
    hand.apply(RunItTwice(1, True))
    hand.apply(RunItTwiceTimeout(1))
    decided = next(e for e in hand.events if isinstance(e, RunItTwiceDecided))
    assert decided.answers == ((1, True), (2, False)) and not decided.twice
    assert hand.over and len(hand.board) == 5 and hand.board2 is None
    conserved(hand, [100, 100, 100])


def test_r20_1_refusals_change_nothing() -> None:
    hand = three_way_all_in(Rules(run_it_twice=True), [100, 100, 100], RIT_DECK)
    before = (list(hand.events), list(hand.stacks), hand.phase)
    with pytest.raises(NotYourTurn) as none:
        hand.apply(RunItTwice(0, True))  # folded: not asked
    assert none.value.msg.key == "home.refuse.run_twice_none"
    with pytest.raises(IllegalAction) as wrong:
        hand.apply(Check(1))
    assert wrong.value.msg.key == "home.refuse.run_twice_time"
    assert (hand.events, hand.stacks, hand.phase) == before
    conserved(hand, [100, 100, 100])


def test_r20_1_not_offered_when_off_or_after_the_river() -> None:
    off = three_way_all_in(Rules(), [100, 100, 100], RIT_DECK)
    assert off.over and not any(isinstance(e, RunItTwiceOffered) for e in off.events)
    # All in on the river: no card is left to come, so nothing to run twice.
    hand = Hand(Rules(run_it_twice=True), [100, 100], RIT_DECK)
    hand.apply(Call(1))
    hand.apply(Check(0))
    for _ in range(3):
        hand.apply(Check(0))
        hand.apply(Check(1))
        if len(hand.board) == 5:
            break
    hand.apply(AllIn(0))
    hand.apply(Call(1))
    assert hand.over
    assert not any(isinstance(e, RunItTwiceOffered) for e in hand.events)
    conserved(hand, [100, 100])
    conserved(off, [100, 100, 100])


def test_r20_1_a_player_who_matched_with_chips_behind_is_asked_too() -> None:
    # The big blind covers the button's all-in and keeps chips: the two are asked.
    hand = three_way_all_in(Rules(run_it_twice=True), [100, 300, 100], RIT_DECK)
    assert hand.phase == "run_twice"
    assert set(hand.run_twice_pending()) == {1, 2}
    assert hand.stacks[1] == 200
    conserved(hand, [100, 300, 100])


def test_r20_3_run_it_twice_side_pots_and_hi_lo_each_run_split_on_its_own() -> None:
    """Omaha hi-lo, three players all in for different amounts (a main pot and a side
    pot). Each run's half of each pot is split high/low exactly as the same pot would be
    split with that run as the only board (checked against hands dealt once)."""
    rules = Rules(variant="omaha8", run_it_twice=True, small_bet=2)
    stacks = [41, 60, 60]
    holes = ["As2s9c9d", "Ah3hKcKd", "QsQhJcTd"]
    run1, run2 = "4c5d8hKsJh", "7c6d3c2d8s"
    deck = stacked_deck(holes, run1 + run2)
    hand = Hand(rules, stacks, deck)
    hand.apply(AllIn(2))
    hand.apply(AllIn(0))
    hand.apply(Call(1))
    assert hand.phase == "run_twice"
    hand.apply(RunItTwice(0, True))
    hand.apply(RunItTwice(1, True))
    hand.apply(RunItTwice(2, True))
    assert hand.over
    conserved(hand, stacks)
    pots = next(e for e in hand.events if isinstance(e, PotsFormed)).pots
    assert len(pots) == 2  # the short stack's main pot and the side pot
    for run, board in enumerate((run1, run2)):
        once = Hand(
            dataclasses.replace(rules, run_it_twice=False), stacks, stacked_deck(holes, board)
        )
        once.apply(AllIn(2))
        once.apply(AllIn(0))
        once.apply(Call(1))
        assert once.over
        for k, pot in enumerate(pots):
            half = pot.amount - pot.amount // 2 if run == 0 else pot.amount // 2
            mine = [e for e in awards(hand) if e.pot_index == k and e.board == run]
            theirs = [e for e in awards(once) if e.pot_index == k]
            assert sum(e.amount for e in mine) == half
            assert [(e.share, e.winners) for e in mine] == [(e.share, e.winners) for e in theirs]
            if any(e.share == "low" for e in mine):
                high, low = halve(half)  # on this run's half
                assert [e.amount for e in mine] == [high, low]
    assert {e.board for e in awards(hand)} == {0, 1}


# ---------------------------------------------------------------- bomb pots


def test_r20_4_bomb_pot_everyone_antes_and_betting_starts_on_the_flop() -> None:
    rules = Rules(bomb_pot_ante=5, blinds_or_straddles=(1, 2), antes=(1, 1, 1))
    stacks = [100, 3, 100]
    hand = Hand(rules, stacks, stacked_deck(["AsAd", "KsKd", "QsQd"], "2c7d9h4s5c"))
    forced = [e for e in hand.events if isinstance(e, ForcedBet)]
    # One ante from everyone, no blind, no table ante: the short stack is all in for 3.
    assert [(e.player, e.kind, e.amount, e.all_in) for e in forced] == [
        (0, "ante", 5, False),
        (1, "ante", 3, True),
        (2, "ante", 5, False),
    ]
    assert any(isinstance(e, BombPotStarted) and e.ante == 5 for e in hand.events)
    streets = [e.street for e in hand.events if isinstance(e, StreetStarted)]
    assert streets == ["preflop", "flop"]
    assert hand.street.name == "flop" and len(hand.board) == 3
    assert hand.to_act == 0  # first active player left of the button
    assert hand.legal().opening
    hand.apply(Bet(0, 10))
    hand.apply(Fold(2))
    assert hand.over
    # The short stack contests the 3 x 3 = 9 he matched; the side pot (2 + 2, the folded
    # player's chips stay in it) is the aces' alone; the unmatched 10 goes back.
    pots = next(e for e in hand.events if isinstance(e, PotsFormed)).pots
    assert [(p.amount, p.eligible) for p in pots] == [(9, (0, 1)), (4, (0,))]
    assert hand.stacks == [108, 0, 95]
    conserved(hand, stacks)


def test_r20_4_bomb_pot_checked_down_pays_the_antes_to_the_best_hand() -> None:
    rules = Rules(bomb_pot_ante=4)
    stacks = [50, 50, 50, 50]
    hand = Hand(rules, stacks, stacked_deck(["AsAd", "KsKd", "QsQd", "JsJd"], "2c7d9h4s5c"))
    assert not any(
        e.kind in ("small_blind", "big_blind") for e in hand.events if isinstance(e, ForcedBet)
    )
    while not hand.over:
        hand.apply(Check(hand.legal().player))
    assert by_board(hand, 0) == {0: 16}
    assert hand.stacks == [62, 46, 46, 46]
    conserved(hand, stacks)


def test_r20_5_double_board_each_board_wins_half_odd_chip_to_the_first() -> None:
    rules = Rules(bomb_pot_ante=5, double_board=True)
    stacks = [50, 50, 50]
    # Deal order: flop one, flop two, turn one, turn two, river one, river two.
    boards = "Ac7d9h" + "Kc8d3s" + "2s" + "Jh" + "4d" + "Tc"
    hand = Hand(rules, stacks, stacked_deck(["AsAd", "KsKd", "QsQd"], boards))
    assert any(isinstance(e, BombPotStarted) and e.double_board for e in hand.events)
    while not hand.over:
        hand.apply(Check(hand.legal().player))
    assert hand.board == ["Ac", "7d", "9h", "2s", "4d"]
    assert hand.board2 == ["Kc", "8d", "3s", "Jh", "Tc"]
    assert [e.why for e in hand.events if isinstance(e, SecondBoardDealt)] == ["double_board"] * 3
    # The pot is 15: board one (aces, a set) 8, board two (kings, a set) 7.
    assert by_board(hand, 0) == {0: 8}
    assert by_board(hand, 1) == {1: 7}
    assert hand.stacks == [53, 52, 45]
    assert len(hand.dealt) == len(set(hand.dealt))
    conserved(hand, stacks)
    # The second board's award names the hand as read on the second board.
    second = next(e for e in awards(hand) if e.board == 1)
    assert second.hand_words is not None


def test_r20_5_double_board_hi_lo_splits_each_board_on_its_own() -> None:
    rules = Rules(variant="omaha8", bomb_pot_ante=7, double_board=True, small_bet=2)
    stacks = [40, 40]
    holes = ["As2s9c9d", "KhKcQdJd"]
    boards = "3c4d8h" + "KsJhTd" + "5c" + "9s" + "Qh" + "2h"
    hand = Hand(rules, stacks, stacked_deck(holes, boards))
    while not hand.over:
        hand.apply(Check(hand.legal().player))
    # Pot 14: board one 7 (a wheel for the high and the low: both halves to p0, 4 + 3),
    # board two 7 (kings full for p1; no low there: whole).
    first = [(e.share, e.winners, e.amount) for e in awards(hand) if e.board == 0]
    second = [(e.share, e.winners, e.amount) for e in awards(hand) if e.board == 1]
    assert first == [("high", (0,), 4), ("low", (0,), 3)]
    assert second == [("whole", (1,), 7)]
    conserved(hand, stacks)


def test_r20_4_bomb_pot_options_refused_outside_community_games() -> None:
    for option in ({"bomb_pot_ante": 5}, {"double_board": True}, {"run_it_twice": True}):
        with pytest.raises(ConfigError) as info:
            Rules(variant="stud", bring_in=1, **option)  # type: ignore[arg-type]  # test kwargs
        assert info.value.msg.key == "home.config.board_games"
    with pytest.raises(ConfigError):
        Rules(bomb_pot_ante=-1)


# ---------------------------------------------------------------- the 7-2 game


def seven_deuce_hand(p0: str = "7h2c") -> Hand:
    """p0 (7-2, 20 chips) and the button (30) are all in; the big blind (100) calls.
    p0 wins the main pot with two pair; the button beats the big blind for the side pot."""
    deck = stacked_deck([p0, "QsJd", "Ah3s"], "7d2s9cKd4h")
    hand = Hand(Rules(), [20, 100, 30], deck)
    hand.apply(AllIn(2))
    hand.apply(AllIn(0))
    hand.apply(Call(1))
    assert hand.over
    return hand


def test_r20_7_seven_deuce_an_all_in_payer_pays_what_he_has_left() -> None:
    hand = seven_deuce_hand()
    assert hand.stacks == [60, 70, 20]  # main 60 to p0, side 20 to the button
    bounty = seven_deuce(hand, SevenDeuce(bounty=25))
    assert bounty is not None
    assert bounty.winners == (0,)
    paid = {(p.payer, p.winner): p.amount for p in bounty.payments}
    # The big blind pays the whole bounty; the all-in button has 20 left and pays that.
    assert paid == {(1, 0): 25, (2, 0): 20}
    assert bounty.stacks == (105, 45, 0)
    assert sum(bounty.stacks) == sum(hand.stacks) == 150
    assert hand.stacks == [60, 70, 20]  # the hand itself is not changed


def test_r20_6_suited_seven_deuce_counts_only_when_set() -> None:
    hand = seven_deuce_hand("7h2h")
    assert seven_deuce(hand, SevenDeuce(bounty=5)) is None
    paid = seven_deuce(hand, SevenDeuce(bounty=5, suited=True))
    assert paid is not None and sum(p.amount for p in paid.payments) == 10
    assert is_seven_deuce(("2c", "7d"), suited=False)
    assert not is_seven_deuce(("7c", "7d"), suited=True)


def test_r20_6_seven_deuce_must_be_shown_an_uncontested_winner_shows_by_choice() -> None:
    deck = stacked_deck(["Ah3s", "QsJd", "7h2c"], "7d2s9cKd4h")
    hand = Hand(Rules(), [50, 50, 50], deck)
    hand.apply(RaiseTo(2, 6))
    hand.apply(Fold(0))
    hand.apply(Fold(1))
    assert hand.over and hand.result is not None and hand.result.reason == "uncontested"
    assert seven_deuce(hand, SevenDeuce(bounty=10)) is None  # not shown: no bounty
    hand.apply(ShowCards(2, ("7h",)))
    assert seven_deuce(hand, SevenDeuce(bounty=10)) is None  # one card is not 7-2 shown
    hand.apply(ShowCards(2, ("7h", "2c")))
    bounty = seven_deuce(hand, SevenDeuce(bounty=10))
    assert bounty is not None
    assert bounty.stacks == (39, 38, 73)
    assert sum(bounty.stacks) == 150


def test_r20_6_seven_deuce_refused_before_the_hand_is_over() -> None:
    hand = Hand(Rules(), [50, 50], stacked_deck(["7h2c", "AsAd"], ""))
    with pytest.raises(OptionRefused) as info:
        seven_deuce(hand, SevenDeuce(bounty=5))
    assert info.value.msg.key == "home.refuse.not_over"


# ---------------------------------------------------------------- rabbit hunt


def test_r20_9_rabbit_hunt_shows_the_next_board_cards_never_a_dealt_one() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        burn = rng.random() < 0.5
        n = rng.randint(2, 6)
        rules = Rules(burn=burn, double_board=rng.random() < 0.3)
        deck = tuple(rng.sample(FULL_DECK, 52))
        hand = Hand(rules, [100] * n, deck)
        while not hand.over:
            legal = hand.legal()
            if "check" in legal.actions and rng.random() < 0.6:
                hand.apply(Check(legal.player))
            else:
                hand.apply(Fold(legal.player))
        if hand.result is None or hand.result.reason != "uncontested":
            continue
        if len(hand.board) == 5:
            with pytest.raises(OptionRefused):
                rabbit_hunt(hand)
            continue
        hunted = rabbit_hunt(hand)
        assert not hunted.played
        assert not set(hunted.cards) & set(hand.dealt)
        assert not set(hunted.second) & set(hand.dealt)
        assert len(hunted.cards) == 5 - len(hand.board)
        # As the deal would have dealt them: after a burn each street when burning.
        pos = hand.deck_pos + (1 if burn else 0)
        assert hunted.cards[0] == deck[pos]
        conserved(hand, [100] * n)


def test_r20_9_rabbit_hunt_with_burns_follows_the_deal() -> None:
    deck = tuple(random.Random(3).sample(FULL_DECK, 52))
    hand = Hand(Rules(burn=True), [50, 50], deck)
    hand.apply(Fold(1))  # heads-up the button (position 1) acts first pre-flop
    hunted = rabbit_hunt(hand)
    # 4 hole cards dealt; flop after a burn (5-7), turn after a burn (9), river (11).
    assert hunted.cards == (deck[5], deck[6], deck[7], deck[9], deck[11])
    assert hunted.streets == ("flop", "turn", "river")
    conserved(hand, [50, 50])


def test_r20_9_no_rabbit_hunt_after_a_showdown() -> None:
    hand = three_way_all_in(Rules(), [100, 100, 100], RIT_DECK)
    with pytest.raises(OptionRefused) as info:
        rabbit_hunt(hand)
    assert info.value.msg.key == "home.refuse.rabbit_showdown"


# ---------------------------------------------------------------- showing by choice


def test_r20_8_show_by_choice_winner_one_card_loser_instead_of_muck() -> None:
    deck = stacked_deck(["AsAd", "KsKd", "2c3d"], "Qh8c4sJdTc")
    hand = Hand(Rules(), [50, 50, 50], deck)
    hand.apply(Call(2))
    hand.apply(Call(0))
    hand.apply(Check(1))
    while not hand.over:
        hand.apply(Check(hand.legal().player))
    mucked = [i for i in range(3) if hand.mucked[i]]
    assert mucked, "a beaten hand was mucked"
    loser = mucked[0]
    events = hand.apply(ShowCards(loser, tuple(hand.hole[loser])))
    assert events == [CardsShownByChoice(player=loser, cards=tuple(hand.hole[loser]), won=False)]
    assert events[0].audience is None
    conserved(hand, [50, 50, 50])
    # The winner of a contested pot showed already; a folded hand may not show.
    folded = Hand(Rules(), [50, 50, 50], deck)
    folded.apply(Fold(2))
    folded.apply(Fold(0))
    before = list(folded.events)
    with pytest.raises(IllegalAction) as who:
        folded.apply(ShowCards(0, ("As",)))
    assert who.value.msg.key == "home.refuse.show_who"
    with pytest.raises(IllegalAction) as which:
        folded.apply(ShowCards(1, ("As",)))  # not his card
    assert which.value.msg.key == "home.refuse.show_cards"
    assert folded.events == before
    shown = folded.apply(ShowCards(1, ("Ks",)))  # one card of two
    assert shown == [CardsShownByChoice(player=1, cards=("Ks",), won=True)]
    with pytest.raises(IllegalAction):
        folded.apply(ShowCards(1, ("Ks",)))  # already shown
    folded.apply(ShowCards(1, ("Ks", "Kd")))
    assert folded.shown_by_choice[1] == ("Ks", "Kd")
    conserved(folded, [50, 50, 50])  # showing changes no award


# ---------------------------------------------------------------- words


def test_r20_every_home_event_speaks_in_every_language() -> None:
    hand = three_way_all_in(Rules(run_it_twice=True), [100, 100, 100], RIT_DECK)
    hand.apply(RunItTwice(1, True))
    hand.apply(RunItTwice(2, True))
    bomb = Hand(Rules(bomb_pot_ante=5, double_board=True), [50, 50], FULL_DECK)
    bomb.apply(Bet(0, 4))
    bomb.apply(Fold(1))
    bomb.apply(ShowCards(0, tuple(bomb.hole[0][:1])))
    seven = seven_deuce(seven_deuce_hand(), SevenDeuce(bounty=25))
    assert seven is not None
    events = [*hand.events, *bomb.events, seven, rabbit_hunt(bomb)]
    messages = [m for e in events if (m := said(e)) is not None]
    messages += [m for e in hand.events if (m := said(e, ran_twice=True)) is not None]
    keys = {m.key for m in messages}
    assert {
        "home.rit.offered",
        "home.rit.count",
        "home.rit.you_agree",
        "home.rit.twice",
        "home.board2.run",
        "home.board2.board",
        "home.bomb.double",
        "home.show.shows",
        "home.seven_deuce.won",
        "home.rabbit.two",
        "home.award.second",
        "home.award.second_run",
    } <= keys
    for locale in ("en", "de", "fr", "es", "pt_BR", "ru"):
        for m in messages:
            text = render(m, locale, names=lambda p: f"P{p}")
            assert "home." not in text and "{" not in text, (locale, m.key, text)


def test_r20_answers_count_message_never_says_who_said_what() -> None:
    m = said(RunItTwiceCount(answered=1, total=2))
    assert isinstance(m, Msg)
    assert render(m, "en") == "1 of 2 has answered."


def test_r20_1_the_answer_is_a_legal_option_in_words() -> None:
    hand = three_way_all_in(Rules(run_it_twice=True), [100, 100, 100], RIT_DECK)
    actor = hand.actor(1)
    assert actor is not None and actor.turn == "sealed"
    assert hand.can_act(1) and hand.can_act(2) and not hand.can_act(0)
    for locale in ("en", "de", "fr", "es", "pt_BR", "ru"):
        text = render(actor.legal.options(), locale)
        assert text and "home." not in text
    assert render(actor.legal.options(), "en") == "answer yes or no to running it twice"


def test_r20_1_new_actions_survive_the_event_log() -> None:
    """R-20.1, R-20.8: the answers and the shows after the hand are stored as actions,
    and a hand replayed from its start and its actions ends the same (invariant 4)."""
    from bot.poker.actions import action_from_dict, action_to_dict

    actions = [
        RunItTwice(1, True),
        RunItTwice(2, False),
        RunItTwiceTimeout(0),
        ShowCards(1, ("Ks", "Kd")),
    ]
    for action in actions:
        assert action_from_dict(action_to_dict(action)) == action
    played = three_way_all_in(Rules(run_it_twice=True), [100, 100, 100], RIT_DECK)
    log = [AllIn(2), Fold(0), AllIn(1), RunItTwice(2, True), RunItTwice(1, True)]
    again = Hand(Rules(run_it_twice=True), [100, 100, 100], RIT_DECK)
    for action in log:
        again.apply(action_from_dict(action_to_dict(action)))
    played.apply(RunItTwice(2, True))
    played.apply(RunItTwice(1, True))
    assert again.events == played.events and again.stacks == played.stacks


def test_r20_3_not_offered_on_a_double_board_or_when_the_deck_is_short() -> None:
    both = three_way_all_in(Rules(run_it_twice=True, double_board=True), [100] * 3, RIT_DECK)
    assert both.over and not any(isinstance(e, RunItTwiceOffered) for e in both.events)
    conserved(both, [100] * 3)
    # Ten Omaha hands use 40 cards: two runs of flop, turn and river with burns need 16
    # of the 12 left, so the flop is dealt once; two runs of the turn and river (8 with
    # their burns) fit, and are offered then. Without burns two whole runs (10) fit.
    for burn, board_when_asked in ((True, 3), (False, 0)):
        rules = Rules(variant="omaha", run_it_twice=True, burn=burn)
        hand = Hand(rules, [50] * 10, tuple(random.Random(5).sample(FULL_DECK, 52)))
        while hand.phase == "betting" and hand.to_act is not None:
            legal = hand.legal()
            hand.apply(AllIn(legal.player) if "all_in" in legal.actions else Call(legal.player))
        assert hand.phase == "run_twice"
        assert len(hand.board) == board_when_asked
        for p in hand.run_twice_pending():
            hand.apply(RunItTwice(p, True))
        assert hand.over and hand.board2 is not None
        assert hand.board2[:board_when_asked] == hand.board[:board_when_asked]
        assert len(hand.dealt) == len(set(hand.dealt)) <= 52
        conserved(hand, [50] * 10)


def test_r20_6_two_seven_deuce_winners_collect_from_the_others_not_each_other() -> None:
    """R-20.6, R-20.7: two players chop with 7-2; the third pays each of them, and when
    he cannot pay both in full he splits what he has between them (R-11.2)."""
    deck = stacked_deck(["7h2c", "7d2s", "AhKh"], "7c2h9sJd4c")
    hand = Hand(Rules(), [50, 50, 50], deck)
    hand.apply(Call(2))
    hand.apply(Call(0))
    hand.apply(Check(1))
    while not hand.over:
        hand.apply(Check(hand.legal().player))
    assert hand.stacks == [51, 51, 48]
    full = seven_deuce(hand, SevenDeuce(bounty=10))
    assert full is not None and full.winners == (0, 1)
    assert [(p.payer, p.winner, p.amount) for p in full.payments] == [(2, 0, 10), (2, 1, 10)]
    assert full.stacks == (61, 61, 28)
    short = seven_deuce(hand, SevenDeuce(bounty=30))
    assert short is not None
    assert short.stacks == (75, 75, 0)
    assert sum(short.stacks) == sum(full.stacks) == sum(hand.stacks) == 150
