"""What each player did in one hand, for the night's record (R-20.42): whether the game
is a flop game, whether he put chips in voluntarily before the flop (VPIP) and raised
before the flop (PFR), and whether he was still in at the showdown.

Read from the engine as the hand is replayed (its start and its actions, as recovery
replays it), never from words: :class:`Tally` watches each action before it is applied.
The result is the store's ``Profile``: per position (flop game, VPIP, PFR, at the
showdown).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.poker.actions import Action, AllIn, Bet, Call, RaiseBy, RaiseTo, action_from_dict
from bot.poker.hand import Hand
from bot.poker.record import HandStart
from bot.poker.variants import Variant

Profile = tuple[tuple[bool, bool, bool, bool], ...]


def is_flop_game(variant: Variant) -> bool:
    """A game of hole cards and a board dealt after the first betting round (hold'em,
    short deck, Omaha and Omaha hi-lo): the games VPIP and PFR are counted in."""
    streets = variant.streets
    return (
        bool(streets)
        and streets[0].board == 0
        and any(s.board for s in streets[1:])
        and not any(s.up or s.draw for s in streets)
    )


class Tally:
    """Watches a hand's actions: call :meth:`before` with each action before it is
    applied, and :meth:`profile` when the hand is over.

    VPIP: a call of something, a bet, a raise or an all-in before the flop (a blind is
    no action; the big blind checking his option is not voluntary). PFR: a bet or a
    raise before the flop, or an all-in that goes over the bet to call. A bomb pot
    (R-20.60) offers no pre-flop choice, so it is no flop-game hand: it counts as a hand
    dealt, never in the VPIP and PFR shares' base."""

    def __init__(self, hand: Hand) -> None:
        self.flop = is_flop_game(hand.variant) and hand.rules.bomb_pot_ante <= 0
        self.vpip = [False] * hand.n
        self.pfr = [False] * hand.n

    def before(self, hand: Hand, action: Action) -> None:
        i = action.player
        preflop = self.flop and hand.street_index <= 0 and not hand.board
        if not preflop or not 0 <= i < hand.n or hand.phase != "betting":
            return
        level, bet = hand.current_bet, hand.bets[i]
        if isinstance(action, Bet | RaiseTo | RaiseBy):
            self.vpip[i] = self.pfr[i] = True
        elif isinstance(action, AllIn):
            self.vpip[i] = True
            self.pfr[i] = self.pfr[i] or bet + hand.stacks[i] > level
        elif isinstance(action, Call) and level > bet:
            self.vpip[i] = True

    def profile(self, hand: Hand) -> Profile:
        showdown = hand.result is not None and hand.result.reason == "showdown"
        return tuple(
            (self.flop, self.vpip[i], self.pfr[i], showdown and not hand.folded[i])
            for i in range(hand.n)
        )


def replay_profile(start: HandStart, actions: Iterable[Action]) -> Profile:
    """Replay a hand and read its profile (a worker thread's job: it is the engine's
    whole replay)."""
    hand = start.new_hand()
    tally = Tally(hand)
    for action in actions:
        tally.before(hand, action)
        hand.apply(action)
    return tally.profile(hand)


def profile_from_payloads(
    start: dict[str, Any], actions: Sequence[dict[str, Any]]
) -> Profile | None:
    """The profile of a hand from its log: the ``hand_started``'s ``start`` and each
    ``action``'s ``action``; None when the hand does not replay (a record this engine
    does not play the same way), which then counts without one."""
    try:
        hand_start = HandStart.from_dict(start, checked=False)
        if not hand_start.current_rules:
            return None
        return replay_profile(hand_start, [action_from_dict(a) for a in actions])
    except Exception:  # an unreadable record must never stop a hand's end
        return None
