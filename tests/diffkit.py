"""What the two pokerkit differential test files share: the automations both engines'
states use, the two ways a comparison stops, the betting-decision comparison (the amount
to call, whether a bet/raise is allowed and its range, with the documented departures
D-3 and D-4 of ``docs/pokerkit-differences.md``), and the random betting choices biased to
the edges of the legal range.

The game-specific parts (dealing, bring-ins, draws, who acts) stay in
``test_engine_differential.py`` and ``test_engine_differential_stud_draw.py``.
"""

from __future__ import annotations

import random
from typing import Any

from pokerkit import Automation

from bot.poker.actions import Action, AllIn, Bet, Call, Check, Fold, RaiseTo
from bot.poker.hand import Hand
from bot.poker.legal import Legal

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class Departure(Exception):
    """A documented pokerkit departure was reached: stop comparing this hand."""


class Mismatch(Exception):
    """The engines disagree in a way that stops the comparison of this hand."""

    def __init__(self, category: str, detail: str) -> None:
        super().__init__(f"{category}: {detail}")
        self.category = category
        self.detail = detail


def anyone_can_call_more(hand: Hand) -> bool:
    """Whether another live player could put in more than the current bet (R-4.8)."""
    i = hand.to_act
    return any(
        j != i and not hand.folded[j] and hand.bets[j] + hand.stacks[j] > hand.current_bet
        for j in range(hand.n)
    )


def compare_wager_decision(
    hand: Hand, pk: Any, incomplete_raises: int, problems: list[tuple[str, str]]
) -> bool:
    """Compare a betting decision (who acts is already compared): the amount to call
    (R-4.3), whether a bet/raise is allowed and its range (R-5, R-7). A disagreement
    that stops the hand raises; one that only makes raising unsafe to offer is appended
    to ``problems`` and returns False (the caller then offers no bet/raise)."""
    legal = hand.legal()
    if legal.to_call != pk.checking_or_calling_amount:
        raise Mismatch(
            "R-4.3 amount to call",
            f"ours {legal.to_call}, pokerkit {pk.checking_or_calling_amount}",
        )
    ours_can_raise = legal.min_to is not None
    theirs_can_raise = pk.can_complete_bet_or_raise_to()
    if theirs_can_raise and not ours_can_raise and not hand._raise_reopened(legal.player):
        # D-4: pokerkit reopens after a short all-in; does not.
        raise Departure("short all-in reopened in pokerkit")
    if ours_can_raise != theirs_can_raise:
        cap = hand.rules.raise_cap
        if (
            hand.rules.limited
            and cap is not None
            and incomplete_raises
            and hand.raises < cap <= hand.raises + incomplete_raises
        ):
            # D-3: pokerkit counts this round's incomplete all-in raises towards the cap
            # and is capped; we count only full raises (R-5.7 with ).
            raise Departure("incomplete all-in in a capped round")
        problems.append(
            (
                "R-4.8 raise allowed though no opponent can call more"
                if ours_can_raise and not anyone_can_call_more(hand)
                else "R-5 can bet/raise",
                f"player {legal.player}: ours {legal.min_to}..{legal.max_to}, "
                f"pokerkit can raise: {theirs_can_raise}",
            )
        )
        return False
    if ours_can_raise:
        ours = (legal.min_to, legal.max_to)
        theirs = (
            pk.min_completion_betting_or_raising_to_amount,
            pk.max_completion_betting_or_raising_to_amount,
        )
        if ours != theirs:
            problems.append(
                ("R-5 raise range", f"player {legal.player}: ours {ours}, pokerkit {theirs}")
            )
            return False
    return True


def wager_options(legal: Legal, rng: random.Random, wager: bool) -> list[Action]:
    """Random betting choices, weighted, biased to the edges of the legal range: the
    minimum (twice), the maximum, a pot-sized bet, a random amount, and all in."""
    p = legal.player
    options: list[Action] = []
    if "check" in legal.actions:
        options += [Check(p)] * 3
    if "call" in legal.actions:
        options += [Call(p)] * 3
    if "fold" in legal.actions and legal.to_call > 0:
        options += [Fold(p)] * 2
    if wager and legal.min_to is not None and legal.max_to is not None:
        lo, hi = legal.min_to, legal.max_to
        pot_to = legal.current_bet + legal.pot + legal.to_call
        targets = [lo, lo, hi, min(max(pot_to, lo), hi), rng.randint(lo, hi)]
        options += [Bet(p, t) if legal.opening else RaiseTo(p, t) for t in targets]
    if "all_in" in legal.actions and (wager or legal.all_in_to <= legal.current_bet):
        options += [AllIn(p)] * 2
    return options
