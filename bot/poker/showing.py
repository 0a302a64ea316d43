"""Stud up-cards: who brings in (R-3.5) and who opens later rounds (R-16.3).

Only what is face up counts. For the opening of later rounds, pairs, trips and quads
count and straights and flushes do not, as card rooms rule; ties go to the first such
player clockwise from the dealer's left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.poker.cards import RANKS, SUITS, Card

_HIGH = {r: i for i, r in enumerate(RANKS)}  # deuce 0 … ace 12
_LOW = {r: (i + 1) % 13 for i, r in enumerate(RANKS)}  # ace 0, deuce 1 … king 12


def card_key(card: Card, *, ace_low: bool) -> tuple[int, int]:
    """Rank, then suit (clubs < diamonds < hearts < spades, R-10.8)."""
    rank = (_LOW if ace_low else _HIGH)[card[0]]
    return rank, SUITS.index(card[1])


def bring_in_player(up_cards: Sequence[Sequence[Card]], *, low_game: bool) -> int:
    """R-3.5: the lowest up-card brings in (high games); the highest in low games such as
    razz, where the ace is low. Suit breaks ties."""
    keyed = [
        (card_key(cards[-1], ace_low=low_game), i) for i, cards in enumerate(up_cards) if cards
    ]
    if low_game:
        return max(keyed)[1]
    return min(keyed)[1]


def showing_key_high(cards: Sequence[Card]) -> tuple[int, ...]:
    """Bigger is better: group sizes first (two pair beats one pair), then the ranks of
    the groups, larger groups and higher ranks first."""
    counts = Counter(_HIGH[c[0]] for c in cards)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    return (*(n for n, _ in groups), *(r for _, r in groups))


def showing_key_low(cards: Sequence[Card]) -> tuple[int, ...]:
    """Bigger is better for razz: fewer and smaller groups first (no pair beats a pair),
    then the lower pair, then the lower cards, highest first."""
    counts = Counter(_LOW[c[0]] for c in cards)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    return (*(-n for n, _ in groups), *(-r for _, r in groups))


def best_showing(
    up_cards: Sequence[Sequence[Card]], candidates: Sequence[int], *, low_game: bool
) -> int:
    """The candidate with the best up-cards; ties go to the earliest position."""
    key = showing_key_low if low_game else showing_key_high
    best = candidates[0]
    best_key = key(up_cards[best])
    for i in candidates[1:]:
        k = key(up_cards[i])
        if k > best_key:
            best, best_key = i, k
    return best
