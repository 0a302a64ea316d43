"""Stud up-cards: who brings in (R-3.5) and who opens later rounds (R-16.3).

Only what is face up counts. For the opening of later rounds, pairs, trips and quads
count and straights and flushes do not, as card rooms rule; ties go to the first such
player clockwise from the dealer's left.

A joker showing (R-10.7) never brings in (it ranks above the ace in high games and below
it in low ones), and in the hand showing it counts as the best card it can stand for: a
wild joker joins the best group showing (or is the lowest card not showing, in razz), a
bug is an ace. Deuces, wild or not, count as deuces here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from bot.poker.cards import JOKER, RANKS, SUITS, Card

_HIGH = {r: i for i, r in enumerate(RANKS)}  # deuce 0 … ace 12
_LOW = {r: (i + 1) % 13 for i, r in enumerate(RANKS)}  # ace 0, deuce 1 … king 12


JokerShowing = Literal["wild", "bug"]


def card_key(card: Card, *, ace_low: bool) -> tuple[int, int]:
    """Rank, then suit (clubs < diamonds < hearts < spades, R-10.8). A joker is above
    every card, or below every card when aces are low: it never brings in."""
    if card == JOKER:
        return (-1 if ace_low else 13), len(SUITS)
    rank = (_LOW if ace_low else _HIGH)[card[0]]
    return rank, SUITS.index(card[1])


def _ranks(cards: Sequence[Card], low: bool, joker: JokerShowing) -> list[int]:
    table = _LOW if low else _HIGH
    ranks = [table[c[0]] for c in cards if c != JOKER]
    for _ in range(len(cards) - len(ranks)):
        if joker == "wild" and ranks and not low:
            # The best group showing gets one card bigger (a pair becomes trips).
            counts = Counter(ranks)
            ranks.append(max(counts, key=lambda r: (counts[r], r)))
        elif joker == "wild":
            ranks.append(min(r for r in range(13) if r not in ranks))
        else:
            ranks.append(0 if low else 12)  # a bug, or a lone wild joker: an ace
    return ranks


def bring_in_player(up_cards: Sequence[Sequence[Card]], *, low_game: bool) -> int:
    """R-3.5: the lowest up-card brings in (high games); the highest in low games such as
    razz, where the ace is low. Suit breaks ties."""
    keyed = [
        (card_key(cards[-1], ace_low=low_game), i) for i, cards in enumerate(up_cards) if cards
    ]
    if low_game:
        return max(keyed)[1]
    return min(keyed)[1]


def showing_key_high(cards: Sequence[Card], joker: JokerShowing = "wild") -> tuple[int, ...]:
    """Bigger is better: group sizes first (two pair beats one pair), then the ranks of
    the groups, larger groups and higher ranks first."""
    counts = Counter(_ranks(cards, False, joker))
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    return (*(n for n, _ in groups), *(r for _, r in groups))


def showing_key_low(cards: Sequence[Card], joker: JokerShowing = "wild") -> tuple[int, ...]:
    """Bigger is better for razz: fewer and smaller groups first (no pair beats a pair),
    then the lower pair, then the lower cards, highest first."""
    counts = Counter(_ranks(cards, True, joker))
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    return (*(-n for n, _ in groups), *(-r for _, r in groups))


def best_showing(
    up_cards: Sequence[Sequence[Card]],
    candidates: Sequence[int],
    *,
    low_game: bool,
    joker: JokerShowing = "wild",
) -> int:
    """The candidate with the best up-cards; ties go to the earliest position."""
    key = showing_key_low if low_game else showing_key_high
    best = candidates[0]
    best_key = key(up_cards[best], joker)
    for i in candidates[1:]:
        k = key(up_cards[i], joker)
        if k > best_key:
            best, best_key = i, k
    return best
