"""Who is dealt in, where the button goes and who posts the blinds (R-1.3 to R-1.7).

Pure functions over seat numbers. Three options for a table that shrinks (R-1.4):

* ``simplified`` (default): the button moves to the next player who will be dealt in;
  the blinds are the next two dealt-in players on its left.
* ``moving``: the button and blinds move as in ``simplified``; a player the big blind
  skipped (he was due it, the button jumped) owes it and posts it on a later deal, one
  blind per player per hand (the owing is kept by the table state).
* ``dead``: the big blind advances as in ``moving``; the small blind goes to the seat of
  the last big blind and the button to the seat of the last small blind, even when those
  seats are now empty (a dead small blind, a button on an empty seat).

Heads-up (R-1.5) in every mode: the big blind keeps moving and the other player gets the
button and posts the small blind (the engine reverses the PHH blind order itself). Growing
from heads-up, or with only two players in and others waiting (R-1.8), the big blind
moves on one player and the button is placed to fit behind it.

A waiting player (new, or back after the big blind passed him under the "wait" option) is
dealt in when the big blind reaches him (R-1.6, R-1.7); ``post`` lets him in at once for a
post. A player back before the big blind passed him is simply active (R-1.9).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DealPlan:
    button: int
    """Seat of the button (in dead-button mode possibly an empty seat)."""
    order: tuple[int, ...]
    """Dealt-in seats in PHH order: position 0 is the first seat left of the button."""
    sb_seat: int | None
    bb_seat: int | None
    posts: tuple[int, ...] = ()
    """Seats that post to enter / for missed blinds this deal."""
    dead_sb: int | None = None
    """Dead button: the seat of a dead small blind (the next button goes there)."""

    def position(self, seat: int) -> int:
        return self.order.index(seat)

    @property
    def blind_positions(self) -> tuple[int | None, int | None]:
        if self.bb_seat is None:
            return (None, None)
        if len(self.order) == 2:
            # Heads-up the engine reverses the pair itself: pass (small, big) as usual.
            return (0, 1)
        sb = self.order.index(self.sb_seat) if self.sb_seat in self.order else None
        return (sb, self.order.index(self.bb_seat))


def _after(seat: int, seats: Sequence[int]) -> list[int]:
    """``seats`` (sorted) in clockwise order starting just after ``seat``."""
    later = [s for s in seats if s > seat]
    return later + [s for s in seats if s <= seat]


def _between(a: int, b: int, seat: int) -> bool:
    """Is ``seat`` strictly inside the clockwise walk from ``a`` to ``b``?"""
    if a < b:
        return a < seat < b
    return seat > a or seat < b


def _before(seat: int, seats: Sequence[int]) -> int:
    """The nearest of ``seats`` clockwise before ``seat``."""
    earlier = [s for s in seats if s < seat]
    return earlier[-1] if earlier else seats[-1]


def plan_deal(
    *,
    rule: str,
    active: Sequence[int],
    waiting: Sequence[int],
    posting: Sequence[int] = (),
    prev_button: int | None,
    prev_sb: int | None,
    prev_bb: int | None,
    blinds: bool = True,
    first_button: int | None = None,
) -> DealPlan | None:
    """Plan the next deal, or None when fewer than two players can be dealt in.

    ``active``: seats ready to play; ``waiting``: seats waiting for the big blind;
    ``posting``: waiting seats that choose to post now (dealt in wherever they sit)."""
    active_set = set(active) | set(posting)
    candidates = sorted(active_set | set(waiting))
    if len(candidates) < 2:
        return None
    entering = set(posting) - set(active)
    if blinds and entering and len(set(active)) >= 2 and prev_bb is not None:
        # Players posting to come in do not move the button or take the
        # small blind: plan the deal without them (each may still be reached by the big
        # blind), then deal them in where they sit, except between the button and the
        # small blind, where nobody is dealt in: they wait for the button to pass.
        base = plan_deal(
            rule=rule,
            active=active,
            waiting=sorted(set(waiting) | entering),
            prev_button=prev_button,
            prev_sb=prev_sb,
            prev_bb=prev_bb,
            blinds=blinds,
            first_button=first_button,
        )
        if base is not None and len(base.order) > 2:
            first_blind = base.sb_seat if base.sb_seat is not None else base.bb_seat
            assert first_blind is not None
            extra = sorted(
                p
                for p in entering
                if p not in base.order
                and p != base.button
                and not _between(base.button, first_blind, p)
            )
            dealt = sorted({*base.order, *extra})
            order = tuple(_after(base.button, dealt))
            return DealPlan(
                base.button, order, base.sb_seat, base.bb_seat, tuple(extra), base.dead_sb
            )
    if not blinds:
        # No blinds (stud, ante games): no one waits; the button still rotates.
        dealt = sorted(candidates)
        start = prev_button if prev_button is not None else None
        button = _after(start, dealt)[0] if start is not None else _pick(dealt, first_button)
        return DealPlan(button, tuple(_after(button, dealt)), None, None, tuple(posting))
    plan = None
    if prev_bb is not None and prev_button is not None and active_set:
        if rule == "dead":
            plan = _dead(candidates, active_set, prev_sb, prev_bb, tuple(posting))
        elif prev_button == prev_sb or (len(active_set) == 2 and len(candidates) > 2):
            # growing from heads-up, or two players in with others waiting for
            # the big blind: the big blind moves on one player (never back onto a seat
            # it has passed) and the button is placed to fit, as when shrinking.
            plan = _big_blind_first(candidates, active_set, prev_bb, tuple(posting))
        else:
            plan = _simplified(candidates, active_set, prev_button, first_button, tuple(posting))
        if plan is not None and len(plan.order) == 2:
            # shrinking to (or playing) heads-up, the big blind keeps moving and
            # the button is placed to fit: the other player, who posts the small blind.
            bb = _after(prev_bb, sorted(plan.order))[0]
            other = next(s for s in plan.order if s != bb)
            plan = DealPlan(other, (bb, other), other, bb, tuple(posting))
        return plan
    return _simplified(candidates, active_set, prev_button, first_button, tuple(posting))


def _big_blind_first(
    candidates: list[int], active: set[int], prev_bb: int, posting: tuple[int, ...]
) -> DealPlan | None:
    """The big blind to the next player after the last one (a waiting player there is
    dealt in on it); the small blind and the button are the dealt-in players before it."""
    bb = _after(prev_bb, candidates)[0]
    dealt = sorted(active | {bb})
    if len(dealt) < 2:
        return None
    if len(dealt) == 2:
        other = next(s for s in dealt if s != bb)
        return DealPlan(other, (bb, other), other, bb, posting)
    sb = _before(bb, dealt)
    button = _before(sb, dealt)
    return DealPlan(button, tuple(_after(button, dealt)), sb, bb, posting)


def _dead(
    candidates: list[int],
    active: set[int],
    prev_sb: int | None,
    prev_bb: int,
    posting: tuple[int, ...],
) -> DealPlan | None:
    """Dead button: the big blind advances one player; the small blind goes to the last
    big blind's seat and the button to the last small blind's seat, empty or not."""
    bb = _after(prev_bb, candidates)[0]
    dealt = sorted(active | {bb})
    if len(dealt) < 2:
        return None
    if len(dealt) == 2:
        other = next(s for s in dealt if s != bb)
        return DealPlan(other, (bb, other), other, bb, posting)
    sb_seat = prev_bb
    button = prev_sb if prev_sb is not None else _before(sb_seat, dealt)
    if button == bb or sb_seat == bb:
        # The table changed too much for the dead-button walk: place them to fit.
        sb_seat = _before(bb, dealt)
        button = _before(sb_seat, dealt)
    order = tuple(_after(button, dealt))
    live_sb: int | None = sb_seat if sb_seat in dealt else None
    if live_sb is not None and order.index(live_sb) > order.index(bb):
        live_sb = None
    dead_sb = sb_seat if live_sb is None else None
    return DealPlan(button, order, live_sb, bb, posting, dead_sb)


def _pick(seats: Sequence[int], first_button: int | None) -> int:
    # the first button is chosen at random (secure, as the shuffle is).
    # The table draws ``first_button`` once when it is created (and logs it), so every
    # plan before the first deal agrees: the first seated player from that seat on.
    if first_button is not None:
        return _after(first_button - 1, sorted(seats))[0]
    return seats[secrets.randbelow(len(seats))]


def _simplified(
    candidates: list[int],
    active: set[int],
    prev_button: int | None,
    first_button: int | None,
    posting: tuple[int, ...],
) -> DealPlan | None:
    actives = sorted(active)
    if not actives:
        # Only waiting players: the first deal seats them all (nobody has a BB to wait for).
        actives = list(candidates)
        active = set(candidates)
    if prev_button is None:
        button = _pick(actives, first_button)
    else:
        button = _after(prev_button, actives)[0]
    ring = [s for s in _after(button, candidates) if s != button]
    # Small blind: the first active player on the button's left (a waiting player there
    # keeps waiting). Big blind: the next player, who may be a waiting one.
    sb_idx = next((k for k, s in enumerate(ring) if s in active), None)
    if sb_idx is None:
        return None
    sb = ring[sb_idx]
    rest = ring[sb_idx + 1 :]
    bb = rest[0] if rest else None
    dealt = set(active)
    if bb is not None:
        dealt.add(bb)
    dealt_sorted = sorted(dealt)
    if len(dealt_sorted) < 2:
        return None
    if len(dealt_sorted) == 2:
        # heads-up the button posts the small blind, the other the big blind.
        other = next(s for s in dealt_sorted if s != button)
        return DealPlan(button, tuple(_after(button, dealt_sorted)), button, other, posting)
    assert bb is not None
    return DealPlan(button, tuple(_after(button, dealt_sorted)), sb, bb, posting)
