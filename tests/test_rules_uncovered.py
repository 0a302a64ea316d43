"""Rules of docs/RULES.md that no test checked before (issue 12, "Proof"): one test or
more per rule, each scenario computed by hand from the rule (and the reference page it
was distilled from); each docstring starts with the rule it checks."""

from __future__ import annotations

import random
import secrets
from typing import Any

import pytest

from bot.poker import evaluate as ev
from bot.poker.actions import AllIn, Bet, BringIn, Call, Check, Declare, Draw, Fold, RaiseTo, Show
from bot.poker.cards import CardError, stacked_deck
from bot.poker.errors import BadAmount, ConfigError, IllegalAction
from bot.poker.events import (
    BetReturned,
    BoardDealt,
    CardBurned,
    CardsDealt,
    DeclarationsRevealed,
    ForcedBet,
    HandShown,
    PotAwarded,
    PotsFormed,
)
from bot.poker.hand import Hand
from bot.poker.messages import Cards, Chips, Name, Number, Term, msg
from bot.poker.rules import Limit, Rules
from bot.poker.showdown import evaluate_hand
from bot.poker.variants import get_variant
from bot.table.errors import SettingsError
from bot.table.settings import TableSettings
from tests.harness import Harness
from tests.test_engine_examples import round_with_pot


def pots_formed(hand: Hand) -> list[tuple[int, tuple[int, ...]]]:
    formed = [e for e in hand.events if isinstance(e, PotsFormed)][-1]
    return [(p.amount, p.eligible) for p in formed.pots]


def awards(hand: Hand) -> list[tuple[int, str, tuple[int, ...], tuple[int, ...]]]:
    """(pot index, share, winners, amounts) in the order the pots were awarded."""
    return [
        (e.pot_index, e.share, e.winners, e.amounts)
        for e in hand.events
        if isinstance(e, PotAwarded)
    ]


def play_to_end(hand: Hand) -> None:
    """Check or call every remaining decision (bring in for the least, stand pat)."""
    while not hand.over:
        legal = hand.legal()
        p = legal.player
        if "bring_in" in legal.actions:
            hand.apply(BringIn(p))
        elif "draw" in legal.actions:
            hand.apply(Draw(p, ()))
        else:
            hand.apply(Check(p) if "check" in legal.actions else Call(p))


# ---------------------------------------------------------------- §1 table, seats


async def test_r1_1_one_table_per_channel_with_2_to_10_seats() -> None:
    """R-1.1: a table lives in one channel (its id); seats 2-10, refused outside."""
    h = Harness()
    table = await h.table("channel-1", seats=10)
    out = await h.service.create("channel-1", "someone", TableSettings(), key=h.key())
    assert not out.ok and out.msg == msg("table.channel_has_table")
    assert h.service.table("channel-1") is table
    # Another channel is another table.
    other = await h.table("channel-2", seats=2)
    assert other is not table and other.settings.seats == 2
    for seats in (1, 11):
        with pytest.raises(SettingsError) as refused:
            TableSettings(seats=seats)
        assert refused.value.msg.key == "settings.seats_range"
        assert refused.value.msg.get("low") == Number(2)  # a count of seats
        assert refused.value.msg.get("value") == Name(str(seats))
    # Ten players can sit at ten seats; the eleventh cannot.
    for n in range(10):
        assert (await table.sit(f"u{n}", f"u{n}", 100, key=h.key())).ok
    out = await table.sit("u10", "u10", 100, key=h.key())
    assert not out.ok and out.msg == msg("table.sit.full")


async def test_r1_1_a_variant_lowers_the_seat_maximum() -> None:
    """R-1.1: seven-card stud seats 8, five-card draw 6 (one deck); a hand of the game
    for more players is refused, and the table offers only that many seats."""
    assert get_variant("stud").max_players == 8
    assert get_variant("draw5").max_players == 6
    with pytest.raises(ConfigError) as refused:
        Hand(Rules(variant="stud", limit=Limit.FIXED, bring_in=1), [100] * 9)
    assert refused.value.msg == msg("config.players", game=msg("game.stud"), most=Number(8))
    with pytest.raises(ConfigError) as refused:
        Hand(Rules(variant="draw5"), [100] * 7)
    assert refused.value.msg == msg("config.players", game=msg("game.draw5"), most=Number(6))
    h = Harness()
    table = await h.table(seats=10, variant="stud", limit="fixed")
    for n in range(8):
        assert (await table.sit(f"u{n}", f"u{n}", 100, key=h.key())).ok
    out = await table.sit("u8", "u8", 100, key=h.key())
    assert not out.ok and out.msg == msg("table.sit.full")


async def test_r1_2_clockwise_is_ascending_seat_number_wrapping() -> None:
    """R-1.2: dealing and play go by ascending seat number and wrap past the last seat."""
    h = Harness()
    table = await h.table(seats=9, big_blind=2, small_blind=1)
    # Sit out of order, in seats with gaps.
    for user, seat in (("g", 7), ("b", 2), ("i", 9), ("d", 4)):
        assert (await table.sit(user, user, 100, seat, key=h.key())).ok
    for _ in range(5):
        assert (await h.deal(table)).ok
        info = table.state.current
        assert info is not None
        seats = list(info.order)
        # PHH order = from the button's left round the table: ascending, wrapping once.
        assert info.button == seats[-1]
        start = sorted(seats).index(seats[0])
        assert seats == sorted(seats)[start:] + sorted(seats)[:start]
        assert info.sb_seat == seats[0] and info.bb_seat == seats[1]
        # Cards go one at a time in that order (the first card to the small blind).
        hand = table.state.hand
        assert hand is not None
        deal_order = [e.player for e in hand.events if isinstance(e, CardsDealt)]
        assert deal_order[:4] == [0, 1, 2, 3]
        # Play: first to act pre-flop is left of the big blind, then clockwise.
        acted: list[int] = []
        while table.state.hand is not None and len(acted) < 4:
            acted.append(seats[table.state.hand.to_act or 0])
            assert (await h.do(table, h.to_act(table), "call")).ok
        assert acted == [seats[2], seats[3], seats[0], seats[1]]
        await h.play_passively(table)


# ---------------------------------------------------------------- §3, §4 betting order


def test_r3_2_blinds_left_of_the_button_are_live_and_big_blind_has_the_option() -> None:
    """R-3.2: small blind left of the button, big blind left of that; blinds are live
    bets: everyone must call at least the big blind; the big blind may check or raise
    when the action comes back unraised."""
    h = Hand(Rules(blinds_or_straddles=(5, 10)), [200] * 4, stacked_deck([""] * 4))
    posts = [(e.player, e.kind, e.amount) for e in h.events if isinstance(e, ForcedBet)]
    assert posts == [(0, "small_blind", 5), (1, "big_blind", 10)]  # position 3 is the button
    legal = h.legal()
    assert legal.player == 2 and legal.to_call == 10
    with pytest.raises(IllegalAction):
        h.apply(Check(2))  # the big blind is a bet to call
    h.apply(Call(2))
    h.apply(Call(3))
    assert h.legal().to_call == 5  # the small blind's chips count: 5 more
    h.apply(Call(0))
    legal = h.legal()
    assert legal.player == 1 and {"check", "raise"} <= legal.actions  # the option
    h.apply(Check(1))
    assert any(isinstance(e, BoardDealt) for e in h.events)


def test_r3_3_largest_blind_is_the_minimum_bet_and_action_starts_left_of_it() -> None:
    """R-3.3: the largest blind equals the minimum bet; the opening round starts left of
    the largest blind (with a straddle: left of the straddle)."""
    h = Hand(Rules(blinds_or_straddles=(5, 10), small_bet=10), [200] * 5, stacked_deck([""] * 5))
    assert h.to_act == 2
    assert h.legal().min_to == 20  # a raise is at least the big blind more
    for p in (2, 3, 4, 0):
        h.apply(Call(p))
    h.apply(Check(1))
    legal = h.legal()  # the flop: the minimum bet is the big blind
    assert legal.player == 0 and legal.min_to == 10
    with pytest.raises(BadAmount):
        h.apply(Bet(0, 9))
    straddled = Hand(Rules(blinds_or_straddles=(5, 10, 20)), [200] * 5, stacked_deck([""] * 5))
    assert straddled.to_act == 3


def test_r4_1_turns_go_clockwise_skipping_folded_and_all_in_players() -> None:
    """R-4.1: in turn, clockwise, skipping folded and all-in players."""
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100, 100, 100, 30, 100], stacked_deck([""] * 5))
    order: list[int] = []
    for action in (Call(2), AllIn(3), Fold(4), Call(0), Call(1), Call(2)):
        order.append(h.to_act or 0)
        h.apply(action)
    assert order == [2, 3, 4, 0, 1, 2]
    # The flop: from the button's left, skipping 3 (all in) and 4 (folded).
    seen = []
    for _ in range(3):
        seen.append(h.to_act)
        h.apply(Check(h.to_act or 0))
    assert seen == [0, 1, 2]
    assert h.street.name == "turn"


def test_r4_5_round_ends_only_when_everyone_has_acted_since_the_last_full_raise() -> None:
    """R-4.5: the round ends when every active player not all in has acted since the last
    full bet or raise and all have put in the same; or when one player is left."""
    h = round_with_pot(10, [100, 100, 100, 100])
    h.apply(Bet(0, 10))
    h.apply(Call(1))
    h.apply(RaiseTo(2, 30))  # a full raise: 0 and 1 must act again
    h.apply(Call(3))
    assert h.street_index == 0 and h.to_act == 0
    h.apply(Call(0))
    assert h.street_index == 0 and h.to_act == 1
    h.apply(Call(1))
    assert h.street_index == 1  # everyone matched 30 after the last raise: next street
    # An all-in for less does not keep the round open for the others.
    h2 = round_with_pot(10, [100, 100, 15])
    h2.apply(Bet(0, 20))
    h2.apply(Call(1))
    h2.apply(AllIn(2))  # 15: all in, short
    assert h2.street_index == 1 and h2.contrib[2] == 15
    # One player left: the hand ends at once, no more cards.
    h3 = round_with_pot(10, [100, 100, 100])
    h3.apply(Bet(0, 10))
    h3.apply(Fold(1))
    h3.apply(Fold(2))
    assert h3.over and not any(isinstance(e, BoardDealt) for e in h3.events)
    assert h3.stacks == [110, 100, 100]


# ---------------------------------------------------------------- §5 structures


def test_r5_2_spread_limit_any_amount_between_min_and_max_doubling_late() -> None:
    """R-5.2: spread limit: any bet or raise between the minimum and the maximum; the
    maximum may double on the later (big-bet) rounds (option)."""
    plain = Rules(limit=Limit.SPREAD, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4)
    late = Rules(
        limit=Limit.SPREAD, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4, spread_max_late=8
    )
    maxima = {}
    for name, rules in (("plain", plain), ("late", late)):
        h = Hand(rules, [100] * 3, stacked_deck(["", "", ""]))
        legal = h.legal()
        assert (legal.min_to, legal.max_to) == (4, 6)  # raise by 2 to 4
        for bad in (3, 7):
            with pytest.raises(BadAmount) as refused:
                h.apply(RaiseTo(2, bad))
            assert refused.value.msg.key == "refuse.out_of_range"
            word = Term("refuse.word_raise_to")
            allowed = msg("refuse.legal_range", word=word, low=Chips(4), high=Chips(6))
            assert refused.value.msg.get("allowed") == allowed
        h.apply(RaiseTo(2, 5))  # any amount in between
        h.apply(Call(0))
        h.apply(Call(1))
        flop = h.legal()
        assert (flop.min_to, flop.max_to) == (2, 4)
        h.apply(Bet(flop.player, 3))
        for _ in range(2):
            h.apply(Call(h.to_act or 0))
        turn = h.legal()
        assert h.street.name == "turn"
        maxima[name] = (turn.min_to, turn.max_to)
    assert maxima == {"plain": (2, 4), "late": (2, 8)}


def test_r5_4_half_pot_limit_is_half_the_pot_limit_maximum_rounded_down() -> None:
    """R-5.4: half-pot limit: pot limit's maximum halved, rounded down to the unit."""

    def maximum(limit: Limit, unit: int = 1) -> int | None:
        rules = Rules(limit=limit, blinds_or_straddles=(10, 20), small_bet=20, unit=unit)
        return Hand(rules, [1000] * 3, stacked_deck(["", "", ""])).legal().max_to

    # Position 2 faces 20: calls 20, then the pot is 10 + 20 + 20 = 50.
    assert maximum(Limit.POT_LIMIT) == 20 + 50
    assert maximum(Limit.HALF_POT) == 20 + 25
    assert maximum(Limit.HALF_POT, unit=10) == 20 + 20  # 25 rounded down to the unit
    # After the flop, a bet into a pot of 75 is at most 37.
    h = round_with_pot(75, [1000] * 2, limit=Limit.HALF_POT)
    assert h.legal().max_to == 37
    with pytest.raises(BadAmount):
        h.apply(Bet(0, 38))
    h.apply(Bet(0, 37))
    # Facing 37: call 37, then the pot is 75 + 74 = 149; half is 74: raise to 111.
    assert h.legal().max_to == 37 + 74


def test_r5_5_no_limit_any_amount_from_the_minimum_to_the_whole_stack() -> None:
    """R-5.5: no limit: any bet or raise from the minimum up to the whole stack."""
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [500, 500, 300], stacked_deck(["", "", ""]))
    legal = h.legal()
    assert (legal.min_to, legal.max_to) == (4, 300)
    with pytest.raises(BadAmount):
        h.apply(RaiseTo(2, 3))
    with pytest.raises(BadAmount):
        h.apply(RaiseTo(2, 301))
    h.apply(RaiseTo(2, 217))  # any amount between
    legal = h.legal()
    assert legal.player == 0 and (legal.min_to, legal.max_to) == (432, 500)
    h.apply(RaiseTo(0, 500))  # the whole stack
    assert h.stacks[0] == 0


# ---------------------------------------------------------------- §7 all in


def test_r7_1_all_in_call_contests_only_the_pots_he_is_in() -> None:
    """R-7.1: a player without the chips to call may call all in; he contests only the
    pots he has chips in. Here he has the best hand and wins the main pot only."""
    deck = stacked_deck(["2c3d", "AsAh", "KsKh"], "7c8d9hJc4s")
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [200, 30, 200], deck)
    h.apply(RaiseTo(2, 100))
    h.apply(Fold(0))
    legal = h.legal()
    assert legal.player == 1 and legal.to_call == 28 and "call" in legal.actions
    h.apply(Call(1))  # all in for 30 in all
    assert h.contrib[1] == 30
    play_to_end(h)
    # 1 is in the main pot only; 2's 70 that nobody matched is his again (R-4.7).
    assert pots_formed(h) == [(61, (1, 2))]
    assert [(e.player, e.amount) for e in h.events if isinstance(e, BetReturned)] == [(2, 70)]
    assert awards(h) == [(0, "whole", (1,), (61,))]
    assert h.stacks == [199, 61, 170]


def test_r7_4_half_bet_rule_completion_reopens_for_everyone() -> None:
    """R-7.4: half-bet rule (fixed limit 5): an all-in short of half a bet does not
    reopen; the next player may complete it to a full bet, and completing reopens the
    betting for everyone; an all-in of half or more counts as a full raise."""
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
    h.apply(AllIn(3))  # 6: one over the bet, less than half: no reopening
    legal = h.legal()
    assert legal.player == 4 and "complete" in legal.actions and legal.min_to == 10
    h.apply(RaiseTo(4, 10))  # E completes to 10
    for p in (0, 1, 2):  # everyone may raise again, by a full 5
        legal = h.legal()
        assert legal.player == p and (legal.min_to, legal.max_to) == (15, 15)
        h.apply(Call(p))
    # The same all-in for 8 (3 over, at least half of 5) counts as a full raise.
    h2 = round_with_pot(
        0, [100, 100, 8], limit=Limit.FIXED, small_bet=5, big_bet=10, incomplete_rule="half_bet"
    )
    h2.apply(Bet(0, 5))
    h2.apply(Call(1))
    h2.apply(AllIn(2))
    assert h2.legal().player == 0 and h2.legal().min_to == 13
    # Under the default full-bet rule the same all-in for 8 reopens nothing for 1.
    h3 = round_with_pot(0, [100, 100, 8], limit=Limit.FIXED, small_bet=5, big_bet=10)
    h3.apply(Bet(0, 5))
    h3.apply(Call(1))
    h3.apply(AllIn(2))
    assert h3.legal().player == 0 and h3.legal().min_to is None


def test_r7_4_player_who_acted_facing_less_than_half_may_only_call_or_fold() -> None:
    """R-7.4: a player who has acted and faces less than half a full bet: call or fold."""
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
    h.apply(Call(4))
    h.apply(Call(0))
    legal = h.legal()
    assert legal.player == 1 and legal.to_call == 1
    assert legal.actions == {"call", "fold"} and legal.min_to is None
    with pytest.raises(IllegalAction):
        h.apply(RaiseTo(1, 11))


@pytest.mark.parametrize(("option", "next_raise"), [("on_top", 13), ("complete_first", 15)])
def test_r7_5_sizing_the_raise_after_a_half_raise(option: str, next_raise: int) -> None:
    """R-7.5: after an all-in "half raise" (5 bet, all in for 8), the next raise is the
    limit on top of the all-in (8 + 5 = 13, default) or, as an option, completing the
    all-in raise first and then a full raise (10 + 5 = 15)."""
    h = round_with_pot(
        0,
        [100, 100, 8, 100],
        limit=Limit.FIXED,
        small_bet=5,
        big_bet=10,
        incomplete_rule="half_bet",
        half_bet_raise=option,
    )
    h.apply(Bet(0, 5))
    h.apply(Call(1))
    h.apply(AllIn(2))
    legal = h.legal()
    assert legal.player == 3 and legal.to_call == 8
    assert (legal.min_to, legal.max_to) == (next_raise, next_raise)
    assert Rules().half_bet_raise == "on_top"  # the default is (a)


def test_r7_6_forced_bet_all_in_side_pot_e10() -> None:
    """R-7.6 (see R-3.7): blinds 20/40, the big blind has only 10: he is all in on his
    blind; the others must still call 40 or raise to at least 80; main pot 20 (10 each
    from the blinds), the small blind's other 10 in the side pot (E-10)."""
    h = Hand(
        Rules(blinds_or_straddles=(20, 40), small_bet=40),
        [500, 10, 500],
        stacked_deck(["", "", ""]),
    )
    posts = [(e.player, e.amount, e.all_in) for e in h.events if isinstance(e, ForcedBet)]
    assert posts == [(0, 20, False), (1, 10, True)]
    legal = h.legal()
    assert legal.player == 2 and legal.to_call == 40 and legal.min_to == 80
    h.apply(Fold(2))
    h.apply(Fold(0))  # the small blind folds: the all-in big blind wins the main pot
    assert pots_formed(h)[0] == (20, (1,))  # main pot: 10 from each blind
    assert h.stacks == [490, 20, 500]
    assert h.total_chips() == 1010


# ---------------------------------------------------------------- §8 side pots


def test_r8_2_eligibility_by_contribution_and_folded_chips_stay_in_the_pots() -> None:
    """R-8.2 (E-7): pot 50; A bets 20, B calls all in for 5, C raises to 40, D calls all
    in for 35, A folds. A's 20 stay in the pots (main and first side pot) though he is
    eligible for none; each player is eligible for the pots up to his level."""
    h = round_with_pot(50, [100, 5, 100, 35])
    h.apply(Bet(0, 20))
    h.apply(Call(1))
    h.apply(RaiseTo(2, 40))
    h.apply(Call(3))
    h.apply(Fold(0))
    play_to_end(h)
    # C's 5 that nobody matched is his again (E-7's "5 side pot", R-4.7).
    assert [(e.player, e.amount) for e in h.events if isinstance(e, BetReturned)] == [(2, 5)]
    assert pots_formed(h) == [(70, (1, 2, 3)), (75, (2, 3))]
    assert sum(a for a, _ in pots_formed(h)) + 5 == 50 + 20 + 5 + 40 + 35
    assert all(0 not in eligible for _, eligible in pots_formed(h))
    assert h.total_chips() == 50 + 100 + 5 + 100 + 35


def test_r8_4_main_pot_only_player_shows_after_the_side_pot_is_settled() -> None:
    """R-8.4: players involved only in lower pots may wait to show until their pot is
    settled. Manual showdown: 1 is all in (main pot only); 0 bets the river, 2 calls.
    The side pot (0 and 2) is shown down first; 1 is asked last."""
    deck = stacked_deck(["2c3d", "AsAh", "KsKh"], "7c8d9hJc4s")
    h = Hand(Rules(blinds_or_straddles=(1, 2), showdown="manual"), [100, 20, 100], deck)
    h.apply(RaiseTo(2, 10))
    h.apply(Call(0))
    h.apply(AllIn(1))
    h.apply(Call(2))
    h.apply(Call(0))
    while h.street.name != "river":
        h.apply(Check(h.to_act or 0))
    h.apply(Bet(0, 10))
    h.apply(Call(2))
    asked = []
    while not h.over:
        assert h.to_act is not None
        asked.append(h.to_act)
        h.apply(Show(h.to_act))
    assert asked == [0, 2, 1]


# ---------------------------------------------------------------- §9 showdown


def test_r9_3_cards_speak_the_dealer_reads_the_best_hand() -> None:
    """R-9.3 (default cards speak): the dealer reads each shown hand at its best; a
    player who holds a straight flush he did not announce is paid for it."""
    # 1 holds 7h8h: with the board's 9h Th Jh a straight flush (he also has a flush and
    # a straight); 0 holds JcJd: four jacks with the board's Jh Js, shown first.
    deck = stacked_deck(["JcJd", "7h8h"], "9hThJhJs2c")
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100, 100], deck)
    play_to_end(h)
    shown = {e.player: e.hands for e in h.events if isinstance(e, HandShown)}
    assert shown[0][0] == msg("hand.four_kind", rank=Term("rank.pl.J"))
    assert shown[1][0] == msg("hand.straight_flush", rank=Term("rank.high.J"))
    assert awards(h) == [(0, "whole", (1,), (4,))]
    assert Rules().declared_hands is False  # cards speak is the default


def test_r9_4_every_hand_has_exactly_its_cards_and_too_few_cannot_win() -> None:
    """R-9.4: a player with the wrong number of cards at showdown cannot win. The deal
    gives every player exactly the variant's cards (so no hand at a showdown has the
    wrong number), and a hand of too few cards has no value to win with."""
    rng = random.Random(94)
    games = {
        "holdem": (Rules(blinds_or_straddles=(1, 2)), 2),
        "omaha": (Rules(variant="omaha", limit=Limit.POT_LIMIT), 4),
        "stud": (Rules(variant="stud", limit=Limit.FIXED, bring_in=1, antes=(1,) * 4), 7),
        "draw5": (Rules(variant="draw5", blinds_or_straddles=(1, 2)), 5),
    }
    for name, (rules, count) in games.items():
        for _ in range(10):
            h = Hand(rules, [100] * 4, stacked_deck([""] * 4, full=tuple(_shuffled(rng))))
            play_to_end(h)
            held = [len(cards) for i, cards in enumerate(h.hole) if not h.folded[i]]
            assert held and all(n == count for n in held), (name, held)
            shown = [e for e in h.events if isinstance(e, HandShown)]
            assert all(len(e.cards) == count for e in shown), name
    # Too few cards: no value, so no share of any pot.
    holdem = get_variant("holdem")
    assert evaluate_hand(holdem, ("As",), ("Ks", "Qs", "Js")) == (None,)
    assert evaluate_hand(holdem, ("As", "Ad"), ("Ks", "Qs", "Js")) != (None,)


def _shuffled(rng: random.Random) -> list[str]:
    from bot.poker.cards import FULL_DECK

    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return deck


# ---------------------------------------------------------------- §10 rankings


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Ks Kd Kh Kc 3d", "Qs Qd Qh Qc As"),  # quads: the four first, kicker ignored
        ("Qs Qd Qh Qc Ks", "Qs Qd Qh Qc Js"),  # same quads (two decks' worth): kicker
        ("5s 5d 5h 2c 2d", "4s 4d 4h As Ad"),  # full house: the trips first
        ("5s 5d 5h 9c 9d", "5s 5d 5c 6c 6d"),  # same trips: then the pair
        ("Ks Kd 3h 3c 2d", "Qs Qd Jh Jc Ad"),  # two pair: the higher pair first
        ("Ks Kd 4h 4c 2d", "Kh Kc 3h 3d Ad"),  # then the second pair
        ("Ks Kd 4h 4c 3d", "Kh Kc 4d 4s 2s"),  # then the kicker
        ("9s 9d Ah 4c 3d", "9h 9c Kh Qc Jd"),  # one pair: then kickers in order
        ("9s 9d Ah Kc 3d", "9h 9c Ad Qc Jd"),
        ("As Jd 9h 7c 3d", "Ah Jc 9d 7s 2c"),  # high card: down to the last kicker
        ("7s 7d 7h Ac 2d", "7s 7d 7c Kc Qd"),  # trips: kickers in order
    ],
)
def test_r10_2_equal_categories_compare_groups_then_kickers(better: str, worse: str) -> None:
    """R-10.2: in equal categories the most numerous rank group first, then the next;
    equal-size groups higher first; then the kickers in order."""
    a, b = better.split(), worse.split()
    assert ev._category(ev.high_value(a)) == ev._category(ev.high_value(b))
    assert ev.high_value(a) > ev.high_value(b)


def test_r10_8_suits_break_the_stud_bring_in_tie_and_nothing_else() -> None:
    """R-10.8: suits rank spades > hearts > diamonds > clubs only for the stud bring-in
    (and the first dealer, and R-11.4's odd chip); hands that differ only in suit tie."""
    # Three deuces showing: the club brings in (lowest suit), whatever the seat order.
    for ups, clubs in ((("2s", "2c", "2h"), 1), (("2d", "2h", "2c"), 2), (("2c", "2s", "2d"), 0)):
        holes = [f"{_filler(i)}{up}" for i, up in enumerate(ups)]
        rules = Rules(variant="stud", limit=Limit.FIXED, bring_in=1, antes=(1, 1, 1))
        h = Hand(rules, [100] * 3, stacked_deck(holes, hole_count=3))
        assert h.bring_in_player == clubs, ups
    # Hold'em: two flushes equal in rank, different suits on the holes... the board's
    # flush is played by both: a split, suits do not decide.
    deck = stacked_deck(["Ac2d", "Ad2c"], "Ks9h7s5d3c")
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100, 100], deck)
    play_to_end(h)
    assert awards(h) == [(0, "whole", (0, 1), (2, 2))]
    # An odd chip goes by position (R-11.2), not suit, unless R-11.4's option is on.
    assert Rules().odd_chip == "button"


def _filler(i: int) -> str:
    return ("AhKh", "AdKd", "AcKc")[i]


# ---------------------------------------------------------------- §11, §12 pots


def test_r11_5_hi_lo_cards_speak_one_player_scoops_with_different_cards() -> None:
    """R-11.5: the high half to the best high hand, the low half to the best qualifying
    low; one player may use different cards for each and win both (a scoop)."""
    # Omaha hi-lo: 0 holds As 2d Kh Kc; board 3c 4h 8d Kd 9s. High: three kings (Kh Kc
    # with the board's Kd 9s 8d); low: 8-4-3-2-A (As 2d with 3c 4h 8d). 1 holds queens
    # and jacks: a pair of queens, no low. 1 bets the river so both hands are shown.
    deck = stacked_deck(["As2dKhKc", "QsQdJcJh"], "3c4h8dKd9s", hole_count=4)
    rules = Rules(variant="omaha8", limit=Limit.POT_LIMIT, blinds_or_straddles=(1, 2))
    h = Hand(rules, [100, 100], deck)
    h.apply(Call(1))
    h.apply(Check(0))
    while h.street.name != "river":
        h.apply(Check(h.to_act or 0))
    h.apply(Check(0))
    h.apply(Bet(1, 2))
    h.apply(Call(0))
    shown = {e.player: e.hands for e in h.events if isinstance(e, HandShown)}
    assert shown == {
        0: (
            msg("hand.three_kind", rank=Term("rank.pl.K")),
            msg("hand.low", cards=Name("8-4-3-2-A")),
        ),
        1: (msg("hand.pair", rank=Term("rank.pl.Q")), msg("hand.no_low")),
    }
    assert awards(h) == [(0, "high", (0,), (4,)), (0, "low", (0,), (4,))]
    assert h.stacks == [104, 96]


def test_r12_3_side_pots_are_settled_per_section_8_e8() -> None:
    """R-12.3 (E-8): A opens 20, B calls all in for 10, C re-raises all in to 30, A calls
    10 more. Main pot 30 (A, B, C), side pot 40 (A, C); the side pot is settled first
    (R-8.3) though the awards are told main pot first (R-12.6); B has the best hand and
    wins the main pot, A the side pot."""
    deck = stacked_deck(["KsKh", "AsAh", "2c3d"], "7c8d9hJc4s")
    h = Hand(Rules(blinds_or_straddles=(0, 0, 0), small_bet=1), [100, 10, 30], deck)
    h.apply(Bet(0, 20))
    h.apply(Call(1))
    h.apply(AllIn(2))
    h.apply(Call(0))
    play_to_end(h)
    assert pots_formed(h) == [(30, (0, 1, 2)), (40, (0, 2))]
    # Settled side pot first, announced main pot first: no amount changes.
    assert awards(h) == [(0, "whole", (1,), (30,)), (1, "whole", (0,), (40,))]
    assert h.stacks == [100 - 30 + 40, 30, 0]


# ---------------------------------------------------------------- §13, §16


def test_r13_1_every_active_player_declares_after_the_last_round_before_showdown() -> None:
    """R-13.1: in a declare game, after the final betting round and before the
    showdown, every active player (all-in ones too, not the folded) declares low, high or
    both."""
    deck = stacked_deck(
        ["As2dKcQh", "KsKdJc9h", "7c7d6h6s", "8c8h9d9c"], "3c4h8dKh9s", hole_count=4
    )
    rules = Rules(
        variant="omaha8", limit=Limit.POT_LIMIT, blinds_or_straddles=(1, 2), declare="simultaneous"
    )
    h = Hand(rules, [100, 100, 6, 100], deck)
    h.apply(AllIn(2))
    h.apply(Fold(3))
    h.apply(Call(0))
    h.apply(Call(1))
    while h.phase == "betting":
        assert not any(isinstance(e, HandShown) for e in h.events)
        h.apply(Check(h.to_act or 0))
    assert h.phase == "declare"
    assert len(h.board) == 5 and h.street_index >= 3  # after the final (river) round
    assert sorted(h.declare_pending()) == [0, 1, 2]  # not 3, who folded
    assert not any(isinstance(e, HandShown) for e in h.events)  # before the showdown
    for p in (0, 1, 2):
        with pytest.raises(IllegalAction):
            h.apply(Declare(p, "middle"))  # type: ignore[arg-type]
    h.apply(Declare(0, "both"))
    h.apply(Declare(1, "high"))
    h.apply(Declare(2, "low"))
    revealed = [e for e in h.events if isinstance(e, DeclarationsRevealed)]
    assert revealed and dict(revealed[0].choices) == {0: "both", 1: "high", 2: "low"}
    first_show = next(i for i, e in enumerate(h.events) if isinstance(e, HandShown))
    assert first_show > h.events.index(revealed[0])


def test_r16_1_secure_shuffle_recorded_order_and_burns_in_formal_mode(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-16.1: a cryptographically secure shuffle; the deck order is fixed when the hand
    starts and recorded (the same deck replays the same hand); with the burn option one
    card is burned before each later dealing step."""
    import bot.poker.cards as cards

    used: list[str] = []

    class Watched(secrets.SystemRandom):
        def shuffle(self, x: Any) -> None:
            used.append("SystemRandom.shuffle")
            super().shuffle(x)

    monkeypatch.setattr(cards.secrets, "SystemRandom", Watched)
    first = Hand(Rules(blinds_or_straddles=(1, 2)), [100, 100, 100])
    assert used == ["SystemRandom.shuffle"]  # the operating system's generator
    assert len(set(first.deck)) == 52
    again = Hand(Rules(blinds_or_straddles=(1, 2)), [100, 100, 100], first.deck)
    for h in (first, again):
        play_to_end(h)
    assert first.hole == again.hole and first.board == again.board
    burned = Hand(Rules(blinds_or_straddles=(1, 2), burn=True), [100, 100, 100], first.deck)
    play_to_end(burned)
    kinds = [type(e).__name__ for e in burned.events if isinstance(e, (CardBurned, BoardDealt))]
    assert kinds == ["CardBurned", "BoardDealt"] * 3
    # Each burn is the card before the street: flop after one burn, turn after another.
    d = list(first.deck)
    assert burned.board == [d[7], d[8], d[9], d[11], d[13]]
    assert first.board == [d[6], d[7], d[8], d[9], d[10]]


def test_r16_5_no_misdeal_can_occur_a_bad_deck_is_refused_before_any_deal() -> None:
    """R-16.5: a misdeal (too many or too few cards, a hand dealt to an empty seat or a
    player missed, an exposed card, a bad deck) found before significant action is
    redealt by the same dealer. The dealer here cannot misdeal: a deck with a card twice
    or a card that does not exist is refused before anything is dealt, every player gets
    exactly his cards, face down where the game says so, and only players dealt in."""
    with pytest.raises(CardError) as refused:
        Hand(Rules(), [100, 100], ["As", "As", "2c", "3c"])
    assert refused.value.msg == msg("card.deck_twice", card=Cards(("As",)))
    with pytest.raises(CardError) as refused:
        Hand(Rules(), [100, 100], ["Zz", "2c", "3c", "4c"])
    assert refused.value.msg == msg("card.deck_not_a_card", card=Name("'Zz'"))
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100] * 6)
    dealt = [e for e in h.events if isinstance(e, CardsDealt) and e.audience is not None]
    per_player: dict[int, int] = {}
    for e in dealt:
        assert e.audience == e.player  # each card only to its owner
        assert not any(e.face_up)
        per_player[e.player] = per_player.get(e.player, 0) + len(e.cards)
    assert per_player == {p: 2 for p in range(6)}
    every = [c for cards in h.hole for c in cards]
    assert len(every) == len(set(every)) == 12
    assert h.board == []  # nothing exposed before the flop
