"""`python -m bench engine`: rules-engine throughput, ours against pokerkit, in one run.

Workload: 6 players, no-limit hold'em, blinds 1/2, stacks 200, random legal actions
(fold, check/call, minimum raise, pot-sized raise, all in) from a seeded RNG. The hands
are first played once through our engine to record each hand's deck and actions; then
both engines replay exactly the same hands (same deck, same decisions) and are timed:

* ours: ``Hand(...)``, then at every decision ``hand.legal()`` and ``hand.apply(action)``;
* pokerkit 0.7.7: create the state, deal the same hole cards and board explicitly, and at
  every decision query the amount to call and the raise range, then apply the action.

Figures: ``ours`` and ``pokerkit`` in hands per second, their ratio, and the median and
99th percentile latency of one ``Hand.apply`` call (measured in a separate pass so the
timer does not slow the throughput figures). Also prints ``bench/evaluators.py``'s
figures when that module is present.

Options: ``--hands N`` (ours, default 5000), ``--pk-hands N`` (pokerkit, default 400),
``--seed S``, ``--no-evaluators``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.poker.actions import Action, AllIn, Bet, BringIn, Call, Check, Fold, RaiseTo
from bot.poker.cards import FULL_DECK
from bot.poker.hand import Hand
from bot.poker.rules import Limit, Rules

PLAYERS = 6
STACK = 200
RULES = Rules(blinds_or_straddles=(1, 2), small_bet=2)


@dataclass(frozen=True, slots=True)
class Recorded:
    deck: tuple[str, ...]
    actions: tuple[Action, ...]


def choose(hand: Hand, rng: random.Random) -> Action:
    legal = hand.legal()
    p = legal.player
    u = rng.random()
    can_raise = legal.min_to is not None and legal.max_to is not None
    if u < 0.40 and legal.to_call > 0:
        return Fold(p)
    if u < 0.70 or not can_raise:
        return Call(p) if legal.to_call > 0 else Check(p)
    assert legal.min_to is not None and legal.max_to is not None
    if u < 0.85:
        total = legal.min_to
    elif u < 0.96:
        pot_to = legal.current_bet + legal.pot + legal.to_call
        total = min(max(pot_to, legal.min_to), legal.max_to)
    else:
        return AllIn(p)
    return Bet(p, total) if legal.opening else RaiseTo(p, total)


def record(n_hands: int, seed: int) -> list[Recorded]:
    rng = random.Random(seed)
    out: list[Recorded] = []
    for _ in range(n_hands):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hand = Hand(RULES, [STACK] * PLAYERS, deck)
        actions: list[Action] = []
        while not hand.over:
            action = choose(hand, rng)
            hand.apply(action)
            actions.append(action)
        out.append(Recorded(tuple(deck), tuple(actions)))
    return out


def run_ours(hands: Sequence[Recorded]) -> float:
    """Seconds to replay every hand through our engine (legal() at each decision)."""
    stacks = [STACK] * PLAYERS
    start = time.perf_counter()
    for rec in hands:
        hand = Hand(RULES, stacks, rec.deck)
        for action in rec.actions:
            hand.legal()
            hand.apply(action)
    return time.perf_counter() - start


def apply_latencies(hands: Sequence[Recorded]) -> list[int]:
    """Nanoseconds per ``Hand.apply`` call (``legal()`` already computed, untimed)."""
    out: list[int] = []
    clock = time.perf_counter_ns
    stacks = [STACK] * PLAYERS
    for rec in hands:
        hand = Hand(RULES, stacks, rec.deck)
        for action in rec.actions:
            hand.legal()
            t0 = clock()
            hand.apply(action)
            out.append(clock() - t0)
    return out


def run_pokerkit(hands: Sequence[Recorded]) -> float:
    """Seconds to replay the same hands through pokerkit."""
    from pokerkit import NoLimitTexasHoldem

    # The automations the differential tests use: both engines do the same work.
    from tests.diffkit import AUTOMATIONS as automations

    n = PLAYERS
    start = time.perf_counter()
    for rec in hands:
        d = rec.deck
        state = NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (STACK,) * n, n)
        holes = [[d[i], d[n + i]] for i in range(n)]
        dealt = [0] * n
        board = list(d[2 * n : 2 * n + 5])
        burns = list(d[-3:])
        pos = 0
        actions = iter(rec.actions)
        while state.status:
            if state.can_deal_hole():
                p = state.hole_dealee_index
                assert p is not None
                state.deal_hole(holes[p][dealt[p]])
                dealt[p] += 1
            elif state.can_burn_card():
                state.burn_card(burns.pop())
            elif state.can_deal_board():
                k = state.board_dealing_count
                assert k is not None
                state.deal_board("".join(board[pos : pos + k]))
                pos += k
            elif state.actor_index is not None:
                action = next(actions, None)
                if action is None:
                    # pokerkit still offers the big blind his option with every
                    # opponent all in; we skip that no-op decision.
                    state.check_or_call()
                    continue
                # The same queries our engine answers in legal().
                state.checking_or_calling_amount  # noqa: B018
                if state.can_complete_bet_or_raise_to():
                    state.min_completion_betting_or_raising_to_amount  # noqa: B018
                    state.max_completion_betting_or_raising_to_amount  # noqa: B018
                if isinstance(action, Fold):
                    state.fold()
                elif isinstance(action, Check | Call):
                    state.check_or_call()
                elif isinstance(action, AllIn):
                    i = state.actor_index
                    total = state.bets[i] + state.stacks[i]
                    if total <= max(state.bets):
                        state.check_or_call()
                    else:
                        state.complete_bet_or_raise_to(total)
                elif isinstance(action, Bet):
                    state.complete_bet_or_raise_to(action.amount)
                else:
                    assert isinstance(action, RaiseTo)
                    state.complete_bet_or_raise_to(action.total)
            else:
                raise AssertionError("pokerkit is stuck")
    return time.perf_counter() - start


def stud_rate(n_hands: int, seed: int) -> float:
    """Seven-card stud, 6 players, fixed limit 2/4 with ante 1 and bring-in 1, the same
    random-decision policy (bring in or complete at random): hands per second, timed over
    replays of recorded hands like the hold'em figure."""
    rules = Rules(
        variant="stud", limit=Limit.FIXED, antes=(1,) * PLAYERS, bring_in=1, small_bet=2, big_bet=4
    )
    rng = random.Random(seed)
    recorded: list[Recorded] = []
    for _ in range(n_hands):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hand = Hand(rules, [STACK] * PLAYERS, deck)
        actions: list[Action] = []
        while not hand.over:
            legal = hand.legal()
            if "bring_in" in legal.actions:
                action: Action = (
                    BringIn(legal.player)
                    if rng.random() < 0.8
                    else RaiseTo(legal.player, legal.min_to or 0)
                )
            else:
                action = choose(hand, rng)
                if isinstance(action, AllIn) and legal.max_to is not None:
                    action = RaiseTo(legal.player, legal.max_to)  # limit: the full raise
            hand.apply(action)
            actions.append(action)
        recorded.append(Recorded(tuple(deck), tuple(actions)))
    start = time.perf_counter()
    for rec in recorded:
        hand = Hand(rules, [STACK] * PLAYERS, rec.deck)
        for action in rec.actions:
            hand.legal()
            hand.apply(action)
    return n_hands / (time.perf_counter() - start)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench engine")
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--pk-hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--no-evaluators", action="store_true")
    args = parser.parse_args(argv)

    hands = record(max(args.hands, args.pk_hands), args.seed)
    run_ours(hands[: min(200, len(hands))])  # warm up
    # Interleave the two engines in rounds so a busy machine slows both alike.
    rounds = 10
    ours_s = pk_s = 0.0
    ours_n = pk_n = 0
    for r in range(rounds):
        chunk = hands[r * args.hands // rounds : (r + 1) * args.hands // rounds]
        ours_s += run_ours(chunk)
        ours_n += len(chunk)
        pk_chunk = hands[r * args.pk_hands // rounds : (r + 1) * args.pk_hands // rounds]
        pk_s += run_pokerkit(pk_chunk)
        pk_n += len(pk_chunk)
    ours_rate = ours_n / ours_s
    pk_rate = pk_n / pk_s
    lat = sorted(apply_latencies(hands[: args.hands]))
    median_us = statistics.median(lat) / 1000
    p99_us = lat[min(len(lat) - 1, int(len(lat) * 0.99))] / 1000
    actions = sum(len(h.actions) for h in hands[: args.hands])
    print(f"ours: {ours_rate:.0f} hands per s")
    print(f"pokerkit: {pk_rate:.0f} hands per s")
    print(f"ratio vs pokerkit: {ours_rate / pk_rate:.1f} x")
    print(f"apply median: {median_us:.1f} us")
    print(f"apply p99: {p99_us:.1f} us")
    print(f"actions per hand: {actions / args.hands:.1f} actions")
    print(f"stud: {stud_rate(min(args.hands, 2000), args.seed):.0f} hands per s")
    if not args.no_evaluators:
        try:
            from bench.evaluators import figures
        except ImportError:
            pass
        else:
            for name, value, unit in figures():
                print(f"{name}: {value:.0f} {unit}")
    return 0
