"""The chip race at a color-up (R-19.25).

When the smallest chip leaves play, each stack keeps its whole chips of the new
smallest value; what is left over (worth less than one new chip) is raced: the players
with leftovers draw in a random order, each wins at most one new chip, and there are as
many new chips as the leftovers make, plus one when the rest is worth at least half a
chip (Robert's Rules). Nobody is raced out: a player whose only chips were leftovers and
who wins none gets one chip. The race changes the chips in play; the result says by how
much, and the tournament records it (R-2.5 counts it as chips added or removed).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RaceResult:
    stacks: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    delta: int
    """Chips in play after the race less before it."""


def chip_race(stacks: Sequence[tuple[str, int]], new_unit: int, rng: random.Random) -> RaceResult:
    """Color up ``stacks`` (player, chips, in seat order) to multiples of ``new_unit``."""
    if new_unit <= 0:
        raise ValueError("bad chip value")
    kept = {p: (s // new_unit) * new_unit for p, s in stacks}
    odd = {p: s % new_unit for p, s in stacks if s % new_unit}
    total = sum(odd.values())
    chips = total // new_unit + (1 if 2 * (total % new_unit) >= new_unit and total else 0)
    order = sorted(odd, key=lambda _: rng.random())
    winners = tuple(order[:chips])
    for p in winners:
        kept[p] += new_unit
    for p, s in stacks:
        if s > 0 and kept[p] == 0:
            kept[p] = new_unit  # nobody is raced out
    out = tuple((p, kept[p]) for p, _ in stacks)
    delta = sum(s for _, s in out) - sum(s for _, s in stacks)
    return RaceResult(out, winners, delta)


__all__ = ["RaceResult", "chip_race"]
