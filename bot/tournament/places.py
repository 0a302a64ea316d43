"""Eliminations and finishing places (R-19.34, R-19.35).

A player with no chips after a hand is out. Several out in the same hand (or, during
hand-for-hand, in the same synchronized hand at any table) finish in the order of the
chips they started that hand with, more chips higher; equal starts share their places
and those places' prizes (split evenly, odd chips by entry order, R-19.23).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.tournament.payouts import shared


@dataclass(frozen=True, slots=True)
class Bust:
    """An entry out of chips: who, the chips he started the hand with, and his entry
    number (the order of registration, which orders odd chips of a shared prize)."""

    entry: str
    started_with: int
    number: int


@dataclass(frozen=True, slots=True)
class Finish:
    """An entry's result: places ``first..last`` (equal when not shared) and the prize."""

    entry: str
    first: int
    last: int
    prize: int


def rank(busts: Sequence[Bust], left: int, prizes: Sequence[int]) -> tuple[Finish, ...]:
    """Places for entries out together while ``left`` entries stay in: they take places
    ``left + 1 .. left + len(busts)``, more starting chips higher; equal starts share."""
    groups: dict[int, list[Bust]] = {}
    for b in busts:
        groups.setdefault(b.started_with, []).append(b)
    out: list[Finish] = []
    place = left + 1
    for chips in sorted(groups, reverse=True):
        group = sorted(groups[chips], key=lambda b: b.number)
        last = place + len(group) - 1
        parts = shared(prizes, place, last, len(group))
        out += [Finish(b.entry, place, last, part) for b, part in zip(group, parts, strict=True)]
        place = last + 1
    return tuple(out)


def complete(finishes: Sequence[Finish], entrants: int) -> bool:
    """Places 1..entrants are each held exactly once (a shared range counts its size)."""
    held: list[int] = []
    ranges: dict[tuple[int, int], int] = {}
    for f in finishes:
        ranges[f.first, f.last] = ranges.get((f.first, f.last), 0) + 1
    for (first, last), n in ranges.items():
        if n != last - first + 1:
            return False
        held += range(first, last + 1)
    return sorted(held) == list(range(1, entrants + 1))


__all__ = ["Bust", "Finish", "complete", "rank"]
