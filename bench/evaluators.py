"""`python -m bench evaluators`: hand evaluator throughput (evaluations per second).

Hands are dealt from a seeded shuffle before timing, so only evaluation is measured;
each evaluator runs once over its hands untimed first (the low evaluators fill their
rank-multiset tables lazily, and a running dealer keeps them warm); the figure is the
best of three timed passes. ``--cold`` times one pass in a fresh process instead.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from bot.poker import evaluate as ev

Deal = list[tuple[str, ...]]
_DECK = tuple(r + s for r in ev.RANKS for s in ev.SUITS)


def _deal(rng: random.Random, n_hands: int, size: int) -> Deal:
    return [tuple(rng.sample(_DECK, size)) for _ in range(n_hands)]


def _rate(
    fn: Callable[[tuple[str, ...]], object], hands: Sequence[tuple[str, ...]], warm: bool = True
) -> float:
    if warm:
        for h in hands:
            fn(h)
    # Best of three passes, as timeit does: the slower passes measure the machine's
    # other load, not the evaluator.
    best = float("inf")
    for _ in range(3 if warm else 1):
        start = time.perf_counter()
        for h in hands:
            fn(h)
        best = min(best, time.perf_counter() - start)
    return len(hands) / best


def figures(
    n_hands: int = 200_000, seed: int = 20261123, *, warm: bool = True
) -> list[tuple[str, float, str]]:
    """(figure, value, unit) for each evaluator; `bench/engine.py` prints these too.
    ``warm=False`` times the first pass (lazily filled tables start empty in a fresh
    process)."""
    rng = random.Random(seed)
    seven = _deal(rng, n_hands, 7)
    nine = _deal(rng, max(1, n_hands // 10), 9)
    four = _deal(rng, max(1, n_hands // 4), 4)
    high = ev.high_value
    omaha = ev.omaha_high_value
    a5 = ev.low_a5_value
    l27 = ev.low_27_value
    badugi = ev.badugi_value
    return [
        ("7-card high evaluations", _rate(high, seven, warm), "per s"),
        ("omaha high evaluations", _rate(lambda h: omaha(h[:4], h[4:]), nine, warm), "per s"),
        ("7-card a5 low evaluations", _rate(a5, seven, warm), "per s"),
        ("7-card 2-7 low evaluations", _rate(l27, seven, warm), "per s"),
        ("badugi evaluations", _rate(badugi, four, warm), "per s"),
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench evaluators")
    parser.add_argument("--hands", type=int, default=200_000, help="7-card hands per figure")
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--cold", action="store_true", help="time the first pass only")
    args = parser.parse_args(argv)
    for name, value, unit in figures(args.hands, args.seed, warm=not args.cold):
        print(f"{name}: {value:.0f} {unit}")
    return 0
