"""Prizes: the payout table by number of entrants, exact amounts, shared places and
bounty splits. Whole chips of the ledger's unit only; every function returns amounts
that sum exactly to what it was given (R-2.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

BASIS: Final = 10_000
"""Shares are in basis points: 10,000 is the whole pool."""

DEFAULT_TABLE: Final[tuple[tuple[int, tuple[int, ...]], ...]] = (
    (4, (10_000,)),
    (7, (6_500, 3_500)),
    (10, (5_000, 3_000, 2_000)),
    (18, (4_000, 2_500, 1_700, 1_100, 700)),
    (27, (3_500, 2_200, 1_500, 1_100, 900, 800)),
    (36, (3_000, 2_000, 1_400, 1_000, 800, 700, 600, 500)),
    (54, (2_700, 1_800, 1_250, 950, 750, 600, 500, 450, 400, 300, 300)),
)
"""(most entrants, shares): the default payout table (R-19.22). Above 54 entrants,
:func:`_curve` pays 15 % of the field."""


def _curve(entrants: int) -> tuple[int, ...]:
    """Shares for a large field: 15 % paid, falling as 1/(place + 1) ** 1.1, each place
    at least the next; floors, the remainder to first place."""
    paid = max(12, entrants * 15 // 100)
    weights = [1 / (place + 1) ** 1.1 for place in range(1, paid + 1)]
    total = sum(weights)
    shares = [int(BASIS * w / total) for w in weights]
    shares[0] += BASIS - sum(shares)
    return tuple(shares)


def shares(entrants: int, custom: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The shares of the pool by place (first place first) for ``entrants`` entries;
    never more places than entrants."""
    if entrants <= 0:
        return ()
    if custom:
        table = custom
    else:
        table = next((s for most, s in DEFAULT_TABLE if entrants <= most), ())
        table = table or _curve(entrants)
    if len(table) > entrants:
        # Fewer entrants than places: the unpaid places' shares go to first place.
        head = list(table[:entrants])
        head[0] += BASIS - sum(head)
        table = tuple(head)
    return table


def amounts(pool: int, share: Sequence[int]) -> tuple[int, ...]:
    """The prize of each place: ``pool * share // 10,000``, then the chips left over by
    rounding down, one at a time from first place down (R-19.22). Sums to ``pool``."""
    if pool < 0:
        raise ValueError("negative pool")
    if not share:
        return ()
    out = [pool * s // BASIS for s in share]
    left = pool - sum(out)
    i = 0
    while left > 0:
        out[i % len(out)] += 1
        left -= 1
        i += 1
    return tuple(out)


def split(total: int, ways: int) -> tuple[int, ...]:
    """``total`` split in ``ways`` equal parts, the odd chips one each to the first
    parts (the caller orders the receivers by the rule that applies)."""
    if ways <= 0:
        raise ValueError("split among nobody")
    base, odd = divmod(total, ways)
    return tuple(base + (1 if i < odd else 0) for i in range(ways))


def shared(prizes: Sequence[int], first: int, last: int, ways: int) -> tuple[int, ...]:
    """Players tied for places ``first..last`` (1-based) pool those places' prizes and
    split them evenly (R-19.23); places past the paid ones add nothing."""
    pot = sum(prizes[p - 1] for p in range(first, last + 1) if p <= len(prizes))
    return split(pot, ways)


def bounty_split(bounty: int, knockers: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """A knocked-out entry's bounty, split evenly among the players who won a share of
    his last chips (R-19.24); odd chips to the first, the caller listing them by the
    chips they won from him, most first."""
    if not knockers:
        return ()
    return tuple(zip(knockers, split(bounty, len(knockers)), strict=True))


__all__ = ["BASIS", "DEFAULT_TABLE", "amounts", "bounty_split", "shared", "shares", "split"]
