"""Side pots (§8) and splitting a pot among tied winners with odd chips (§11).

Pure arithmetic on contributions; integers only. The hand calls these at showdown, and
the declare and pot-system modules reuse them so every pot is split the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.poker.events import Pot


def build_pots(contrib: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """Pots by contribution level (R-8.1), main pot first.

    ``live[i]`` is False for a folded player: his chips stay in the pots (R-8.2) but he is
    eligible for none. Adjacent levels with the same eligible players are merged, so a
    pot exists only where the set of contestants changes.
    """
    levels = sorted({c for c, alive in zip(contrib, live, strict=True) if alive and c > 0})
    if len(levels) == 1:
        # Every live player put in the same: one pot of everything (the usual case).
        return [Pot(sum(contrib), tuple(i for i, c in enumerate(contrib) if live[i] and c > 0))]
    pots: list[Pot] = []
    prev = 0
    for level in levels:
        amount = 0
        for c in contrib:
            if c > prev:
                amount += min(c, level) - prev
        eligible = tuple(i for i, c in enumerate(contrib) if live[i] and c >= level)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount > 0:
            pots.append(Pot(amount, eligible))
        prev = level
    # Chips above the highest live level (only folded money can be there) join the top pot.
    dead = sum(max(0, c - prev) for c in contrib)
    if dead:
        if pots:
            pots[-1] = Pot(pots[-1].amount + dead, pots[-1].eligible)
        else:
            pots.append(Pot(dead, ()))
    return pots


def split(amount: int, winners: Sequence[int], order: Sequence[int]) -> list[int]:
    """Split ``amount`` equally among ``winners`` (R-11.1); odd chips go one each to the
    winners first in ``order`` (R-11.2: nearest the button's left, clockwise).

    Returns the amounts in the order of ``winners``.
    """
    k = len(winners)
    if k == 1:
        return [amount]
    share, odd = divmod(amount, k)
    rank = {p: i for i, p in enumerate(order)}
    by_order = sorted(winners, key=lambda p: rank.get(p, len(rank) + p))
    bonus = set(by_order[:odd])
    return [share + (1 if p in bonus else 0) for p in winners]


def halve(amount: int) -> tuple[int, int]:
    """R-11.3: the high half gets the odd chip."""
    low = amount // 2
    return amount - low, low
