"""Property tests: random rules and random legal action sequences (hypothesis).

* R-2.5 chips are conserved after every action: ``hand.total_chips()`` is constant.
* No stack ever goes negative; no bet exceeds what a player had (R-2.1 table stakes).
* R-8.1/R-4.7/R-14.1 at the end, everything put in comes out: the pots awarded, the
  uncalled bets returned and the rake add up to the chips put in plus the carried pot.
* Determinism (invariant 4): the same start and the same actions give the same events
  and the same stacks.
* The home-game options (§20) are drawn too: run it twice (R-20.1, answered at random,
  timeouts included), bomb pots (R-20.4) and the double board (R-20.5); with two boards
  each pot's first-board half is its second-board half or one chip more (R-20.2).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.poker.actions import (
    Action,
    AllIn,
    Bet,
    Call,
    Check,
    Fold,
    Muck,
    RaiseBy,
    RaiseTo,
    RunItTwice,
    RunItTwiceTimeout,
    Show,
)
from bot.poker.cards import FULL_DECK
from bot.poker.errors import IllegalAction
from bot.poker.events import (
    ActionTaken,
    BetReturned,
    ForcedBet,
    PotAwarded,
    PotsFormed,
    RunItTwiceAnswered,
    RunItTwiceDecided,
)
from bot.poker.hand import Hand
from bot.poker.rules import Limit, Rake, Rules

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def rules_and_stacks(draw: st.DrawFn) -> tuple[Rules, list[int], tuple[str, ...], int]:
    variant = draw(st.sampled_from(["holdem", "omaha", "omaha8"]))
    limit = draw(st.sampled_from(list(Limit)))
    n = draw(st.integers(2, 9))
    bb = draw(st.sampled_from([2, 4, 10]))
    blinds: tuple[int, ...] = (bb // 2, bb)
    if n >= 4 and draw(st.booleans()):
        blinds = (bb // 2, bb, 2 * bb)  # a straddle
    ante_kind = draw(st.sampled_from(["none", "all", "bb"]))
    antes: tuple[int, ...] = ()
    if ante_kind == "all":
        antes = (1,) * n
    elif ante_kind == "bb":
        antes = (0, bb)  # a big-blind ante (R-3.1 option)
    rake = Rake()
    if draw(st.booleans()):
        rake = Rake(
            percent_bp=draw(st.sampled_from([0, 500, 1000])),
            cap=draw(st.sampled_from([0, 3, 50])),
            step_chips=draw(st.sampled_from([0, 1])),
            step_per=draw(st.sampled_from([0, 10])),
            no_flop_no_drop=draw(st.booleans()),
        )
    rules = Rules(
        variant=variant,
        limit=limit,
        blinds_or_straddles=blinds,
        antes=antes,
        small_bet=bb,
        big_bet=2 * bb,
        raise_cap=draw(st.sampled_from([None, 3, 4])),
        cap_lift=draw(st.sampled_from(["any_time", "round_start", "never"])),
        min_raise_rule=draw(st.booleans()),
        check_raise=draw(st.booleans()),
        incomplete_rule=draw(st.sampled_from(["full_bet", "half_bet"])),
        half_bet_raise=draw(st.sampled_from(["on_top", "complete_first"])),
        checking_out=draw(st.booleans()),
        clamp_to_max=draw(st.booleans()),
        deal_cap=draw(st.sampled_from([0, 0, 20 * bb])),
        showdown=draw(st.sampled_from(["auto", "manual"])),
        rake=rake,
        run_it_twice=draw(st.booleans()),
        bomb_pot_ante=draw(st.sampled_from([0, 0, 0, bb, 3 * bb])),
        double_board=draw(st.sampled_from([False, False, True])),
        burn=draw(st.booleans()),
    )
    stacks = [
        draw(st.one_of(st.integers(1, 3 * bb), st.integers(3 * bb, 300 * bb))) for _ in range(n)
    ]
    deck = tuple(draw(st.permutations(FULL_DECK)))
    carried = draw(st.sampled_from([0, 0, 7]))
    return rules, stacks, deck, carried


def candidates(hand: Hand) -> list[Action]:
    """Legal actions, with amounts at the edges of the legal range."""
    if hand.phase == "run_twice":
        # the sealed answers, in any order, or the clock running out.
        pending = hand.run_twice_pending()
        answers: list[Action] = [RunItTwice(p, a) for p in pending for a in (True, False)]
        return [*answers, RunItTwiceTimeout(pending[0])]
    legal = hand.legal()
    p = legal.player
    out: list[Action] = []
    names = legal.actions
    if "show" in names:
        out.append(Show(p))
    if "muck" in names:
        out.append(Muck(p))
    if "check" in names:
        out.append(Check(p))
    if "call" in names:
        out.append(Call(p))
    if "fold" in names:
        out.append(Fold(p))
    if "all_in" in names:
        out.append(AllIn(p))
    if legal.min_to is not None and legal.max_to is not None:
        lo, hi = legal.min_to, legal.max_to
        mid = lo + (hi - lo) // 2
        for total in sorted({lo, mid, hi}):
            if total != legal.all_in_to and (total - legal.current_bet) % legal.unit:
                continue
            out.append(Bet(p, total) if legal.opening else RaiseTo(p, total))
        if not legal.opening and lo > legal.current_bet:
            out.append(RaiseBy(p, lo - legal.current_bet))
    return out


def put_in(hand: Hand) -> int:
    return sum(e.amount for e in hand.events if isinstance(e, ForcedBet)) + sum(
        e.added for e in hand.events if isinstance(e, ActionTaken)
    )


def play(
    data: st.DataObject, rules: Rules, stacks: list[int], deck: tuple[str, ...], carried: int
) -> tuple[Hand, list[Action]]:
    hand = Hand(rules, stacks, deck, carried=carried)
    total = sum(stacks) + carried
    assert hand.total_chips() == total
    actions: list[Action] = []
    steps = 0
    while not hand.over:
        steps += 1
        assert steps < 500, "the hand does not end"
        options = candidates(hand)
        assert options, f"no legal action offered in {hand.phase}"
        action = data.draw(st.sampled_from(options))
        try:
            hand.apply(action)
        except IllegalAction as exc:  # an offered action must be accepted
            raise AssertionError(f"{action} was offered but refused: {exc.msg}") from exc
        actions.append(action)
        # after every action.
        assert hand.total_chips() == total
        assert all(s >= 0 for s in hand.stacks)
        assert all(b >= 0 for b in hand.bets) and all(c >= 0 for c in hand.contrib)
        assert hand.middle >= 0 and hand.rake >= 0
        for i in range(hand.n):
            assert hand.contrib[i] <= stacks[i]
            if rules.deal_cap:
                assert hand.contrib[i] <= rules.deal_cap
    return hand, actions


@SETTINGS
@given(setup=rules_and_stacks(), data=st.data())
def test_r2_5_chips_conserved_and_stacks_never_negative(
    setup: tuple[Rules, list[int], tuple[str, ...], int], data: st.DataObject
) -> None:
    rules, stacks, deck, carried = setup
    hand, _ = play(data, rules, stacks, deck, carried)
    assert sum(hand.stacks) + hand.rake + hand.middle == sum(stacks) + carried
    # an answer travels only to its owner until the reveal, which has them all.
    answered = [e for e in hand.events if isinstance(e, RunItTwiceAnswered)]
    assert all(e.audience == e.player for e in answered)
    decided = [e for e in hand.events if isinstance(e, RunItTwiceDecided)]
    if decided:
        assert dict(decided[0].answers) == {e.player: e.agree for e in answered}
        assert decided[0].twice == hand.ran_twice


@SETTINGS
@given(setup=rules_and_stacks(), data=st.data())
def test_r8_1_pots_pay_out_what_was_put_in(
    setup: tuple[Rules, list[int], tuple[str, ...], int], data: st.DataObject
) -> None:
    """Awarded + returned + rake == put in + carried, when the hand ends normally."""
    rules, stacks, deck, carried = setup
    hand, _ = play(data, rules, stacks, deck, carried)
    awarded = sum(e.amount for e in hand.events if isinstance(e, PotAwarded))
    returned = sum(e.amount for e in hand.events if isinstance(e, BetReturned))
    if hand.middle == 0:
        assert awarded + returned + hand.rake == put_in(hand) + carried
    else:
        # Only a passed-out deal may leave chips in the middle for the next one.
        assert awarded == 0
        assert hand.middle + returned + hand.rake == put_in(hand) + carried
    halves: dict[int, list[int]] = {}
    for e in hand.events:
        if isinstance(e, PotAwarded):
            halves.setdefault(e.pot_index, [0, 0])[e.board] += e.amount
            assert e.board == 0 or hand.board2 is not None
    for first, second in halves.values():
        # each board half of the pot, the odd chip to the first.
        assert second == 0 or first - second in (0, 1)
    if hand.board2 is not None and hand.over:
        assert len(hand.dealt) == len(set(hand.dealt))  # never a card twice
    for e in hand.events:
        if isinstance(e, PotAwarded):
            assert sum(e.amounts) == e.amount
            assert all(a >= 0 for a in e.amounts)
            assert all(not hand.folded[w] for w in e.winners)
        if isinstance(e, PotsFormed):
            assert all(p.amount >= 0 for p in e.pots)
            assert sum(p.amount for p in e.pots) + hand.rake == sum(hand.contrib) + carried + (
                hand.dead
            )
    # R-12/§8: every player's net result is his winnings minus what he left in.
    won = [0] * hand.n
    for e in hand.events:
        if isinstance(e, PotAwarded):
            for w, a in zip(e.winners, e.amounts, strict=True):
                won[w] += a
    for i in range(hand.n):
        assert hand.stacks[i] == stacks[i] - hand.contrib[i] - _dead_of(hand, i) + won[i]


def _dead_of(hand: Hand, i: int) -> int:
    """Chips player ``i`` put in as dead money (antes that are not contributions)."""
    forced = sum(e.amount for e in hand.events if isinstance(e, ForcedBet) and e.player == i)
    added = sum(e.added for e in hand.events if isinstance(e, ActionTaken) and e.player == i)
    returned = sum(e.amount for e in hand.events if isinstance(e, BetReturned) and e.player == i)
    return forced + added - returned - hand.contrib[i]


@SETTINGS
@given(setup=rules_and_stacks(), data=st.data())
def test_invariant_4_same_start_same_actions_same_result(
    setup: tuple[Rules, list[int], tuple[str, ...], int], data: st.DataObject
) -> None:
    rules, stacks, deck, carried = setup
    hand, actions = play(data, rules, stacks, deck, carried)
    again = Hand(rules, stacks, deck, carried=carried)
    for action in actions:
        again.apply(action)
    assert again.over
    assert again.events == hand.events
    assert again.stacks == hand.stacks
    assert again.rake == hand.rake
    assert _plain(again.pots) == _plain(hand.pots)


def _plain(pots: Any) -> list[tuple[int, tuple[int, ...]]]:
    return [(p.amount, tuple(p.eligible)) for p in pots]


def test_r9_2_side_pot_whose_contenders_all_muck_is_still_awarded() -> None:
    """R-9.2/R-8.3 (manual showdown): the blinds are all in for 1 each and show; the two
    players of the side pot both muck. The side pot must still be paid out and the hand
    must end (it raised KeyError in ``_award_pot``). Found by hypothesis."""
    rules = Rules(blinds_or_straddles=(1, 2), small_bet=2, showdown="manual")
    hand = Hand(rules, [1, 1, 1, 3, 3], FULL_DECK)
    for action in (Fold(2), Call(3), Call(4)):
        hand.apply(action)
    while hand.legal().actions != frozenset({"show", "muck"}):
        hand.apply(Check(hand.legal().player))
    while not hand.over:
        p = hand.legal().player
        hand.apply(Show(p) if p in (0, 1) else Muck(p))
    assert hand.total_chips() == 9
    assert hand.middle == 0
    # Put in: 1 + 1 (the all-in blinds) + 2 + 2 (the callers): every chip is paid out.
    assert sum(e.amount for e in hand.events if isinstance(e, PotAwarded)) == 6
