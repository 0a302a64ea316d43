"""Hand evaluators (RULES §10): one comparable ``int`` per hand, higher is better.

High hands go through phevaluator (R-10.1–R-10.3); the lows it does not do are written
here over rank multisets: ace-to-five (R-10.4) with the eight-or-better qualifier
(R-10.5), deuce-to-seven (R-10.6) and badugi. Wild cards (R-10.7) are evaluated here
too, for high hands and ace-to-five lows. ``None`` means "does not qualify".

Values of different evaluators are not comparable with each other, only within one
evaluator (and a wild evaluator's values are comparable with its natural twin's: five of
a kind sits above every natural value). :func:`describe` turns a hand into words and
the cards it uses, for the showdown text; it is slower and off the hot path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Literal, cast

import phevaluator.evaluator as _ph_evaluator

from bot.poker.messages import Msg, Name, Number, Term, msg

try:  # The C entry points take ints directly; the public wrappers convert every card
    # through Card.to_id first, which costs 4x (measured: 0.5 M vs 2 M 7-card/s).
    import phevaluator._pheval as _native
except ImportError:  # pragma: no cover - a phevaluator without the compiled module
    _native = _ph_evaluator

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKER = "Xx"

_E5 = cast(Callable[[int, int, int, int, int], int], _native.evaluate_5cards)
_E6 = cast(Callable[[int, int, int, int, int, int], int], _native.evaluate_6cards)
_E7 = cast(Callable[[int, int, int, int, int, int, int], int], _native.evaluate_7cards)
_EO = cast(Callable[..., int] | None, getattr(_native, "evaluate_omaha_cards", None))

# phevaluator's card id: rank_index * 4 + suit_index, suits c, d, h, s.
_ID: dict[str, int] = {
    r + s: ri * 4 + si for ri, r in enumerate(RANKS) for si, s in enumerate(SUITS)
}
_RANK: dict[str, int] = {c: i >> 2 for c, i in _ID.items()}
_SUIT: dict[str, int] = {c: i & 3 for c, i in _ID.items()}
# phevaluator ranks hands 1 (royal flush) .. 7462 (7-5-4-3-2); we flip it so higher wins.
_PH_WORST = 7462
_TOP = _PH_WORST + 1
FIVE_OF_A_KIND_BASE = _TOP  # 7463 + rank index: five of a kind beats any straight flush

HandKind = Literal[
    "high",
    "short_high",
    "short_high_trips",
    "omaha_high",
    "low_a5",
    "low_a5_8",
    "omaha_low_8",
    "low_27",
    "badugi",
]
Category = Literal[
    "five_of_a_kind",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "one_pair",
    "high_card",
]


def _ph_to_value(ph: int) -> int:
    return _TOP - ph


def _category(value: int) -> Category:
    """The category of a high value (phevaluator's class boundaries)."""
    if value >= FIVE_OF_A_KIND_BASE:
        return "five_of_a_kind"
    ph = _TOP - value
    if ph <= 10:
        return "straight_flush"
    if ph <= 166:
        return "four_of_a_kind"
    if ph <= 322:
        return "full_house"
    if ph <= 1599:
        return "flush"
    if ph <= 1609:
        return "straight"
    if ph <= 2467:
        return "three_of_a_kind"
    if ph <= 3325:
        return "two_pair"
    if ph <= 6185:
        return "one_pair"
    return "high_card"


# --- Tables over five ranks, built once from phevaluator (about 7,500 calls) -----------
# _PLAIN5[sorted ranks] is the value of five unsuited cards of those ranks; _FLUSH5 the
# value of five suited ones. They let rank-multiset code (lows, wild cards) speak the
# same value language as phevaluator.


def _build_tables() -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]:
    plain: dict[tuple[int, ...], int] = {}
    flush: dict[tuple[int, ...], int] = {}
    for ranks in combinations_with_replacement(range(12, -1, -1), 5):
        if ranks[0] == ranks[4]:
            continue
        # Suits chosen so no rank repeats a suit and the five are never all one suit.
        seen: dict[int, int] = {}
        ids = []
        for r in ranks:
            s = seen.get(r, 0)
            seen[r] = s + 1
            ids.append(r * 4 + s)
        if len({i & 3 for i in ids}) == 1:
            ids[4] = ranks[4] * 4 + 1
        plain[ranks] = _ph_to_value(_E5(*ids))
        if len(set(ranks)) == 5:
            flush[ranks] = _ph_to_value(_E5(*(r * 4 for r in ranks)))
    return plain, flush


_PLAIN5, _FLUSH5 = _build_tables()
_VALUE_RANKS: dict[int, tuple[int, ...]] = {v: k for k, v in _PLAIN5.items()}
_VALUE_RANKS.update({v: k for k, v in _FLUSH5.items()})
# Straight windows from the top: (high card, ranks); the last is the wheel 5-4-3-2-A.
_WINDOWS: tuple[tuple[int, tuple[int, ...]], ...] = (
    *((top, tuple(range(top, top - 5, -1))) for top in range(12, 3, -1)),
    (3, (3, 2, 1, 0, 12)),
)


# --- High hands ------------------------------------------------------------------------


def _ids(cards: Sequence[str]) -> list[int]:
    try:
        return [_ID[c] for c in cards]
    except KeyError as exc:
        raise ValueError(f"{exc.args[0]!r} is not a natural card for this evaluator") from None


def high_value(cards: Sequence[str]) -> int:
    """R-10.1–R-10.3: the best five of ``cards`` (five or more natural cards)."""
    n = len(cards)
    try:
        if n == 7:
            a, b, c, d, e, f, g = cards
            return _TOP - _E7(_ID[a], _ID[b], _ID[c], _ID[d], _ID[e], _ID[f], _ID[g])
        if n == 5:
            a, b, c, d, e = cards
            return _TOP - _E5(_ID[a], _ID[b], _ID[c], _ID[d], _ID[e])
        if n == 6:
            a, b, c, d, e, f = cards
            return _TOP - _E6(_ID[a], _ID[b], _ID[c], _ID[d], _ID[e], _ID[f])
    except KeyError as exc:
        raise ValueError(f"{exc.args[0]!r} is not a natural card for this evaluator") from None
    if n < 5:
        raise ValueError(f"a high hand needs five cards, got {n}")
    ids = _ids(cards)
    return _TOP - min(_E7(*s) for s in combinations(ids, 7))


def _omaha_split(hole: Sequence[str], board: Sequence[str]) -> None:
    if len(hole) < 2 or len(board) < 3:
        raise ValueError("Omaha needs two hole cards and three board cards (R-10.3)")


# For five and six hole cards, every pair of hole cards lies in one of three 4-card
# subsets (a covering design), so three calls of the native 4-hole evaluator suffice.
_OMAHA_COVER: dict[int, tuple[tuple[int, ...], ...]] = {
    4: ((0, 1, 2, 3),),
    5: ((0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 3, 4)),
    6: ((0, 1, 2, 3), (0, 1, 4, 5), (2, 3, 4, 5)),
}


def omaha_high_value(hole: Sequence[str], board: Sequence[str]) -> int:
    """R-10.3: the best high hand from exactly two of ``hole`` and three of ``board``."""
    _omaha_split(hole, board)
    h = _ids(hole)
    b = _ids(board)
    cover = _OMAHA_COVER.get(len(h))
    if _EO is not None and cover is not None and len(b) == 5:
        return _TOP - min(_EO(*b, *(h[i] for i in sub)) for sub in cover)
    return _TOP - min(_E5(x, y, *t) for x, y in combinations(h, 2) for t in combinations(b, 3))


# --- Ace-to-five low (R-10.4, R-10.5) --------------------------------------------------
# Low ranks: ace 1, deuce 2 … king 13. A five-card low's "badness" orders by category
# (no pair, one pair, two pair, trips, full house, quads, five of a kind), then the
# rank groups as in R-10.2 (bigger group first, higher rank first), all lower-is-better;
# the value is a constant minus the badness.

_LOW_RANK = tuple(r + 2 if r < 12 else 1 for r in range(13))  # by rank index
_PATTERN_CAT = {
    (1, 1, 1, 1, 1): 0,
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 4,
    (4, 1): 5,
    (5,): 6,
}
_B = 14
_POW: tuple[int, ...] = tuple(_B**i for i in range(6))  # typed powers (int ** int is Any to mypy)
_LOW_MAX = 7 * _B**5
_Q8 = _LOW_MAX - 9 * _B**4  # a value above this is a no-pair low, eight or better


def _a5_five(lows: Sequence[int]) -> int:
    """The A-5 value of exactly five low ranks (1..13)."""
    counts: dict[int, int] = {}
    for r in lows:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
    badness = _PATTERN_CAT[tuple(c for _, c in groups)]
    for r, _ in groups:
        badness = badness * _B + r
    badness *= _POW[5 - len(groups)]
    return _LOW_MAX - badness


def _a5_best(lows: Sequence[int]) -> int:
    distinct = sorted(set(lows))
    if len(distinct) >= 5:
        return _a5_five(distinct[:5])
    return max(_a5_five(s) for s in set(combinations(sorted(lows), 5)))


# Rank-multiset key: sum of 5**rank (a rank appears at most four times in a deck).
_RW: dict[str, int] = {c: 5 ** _RANK[c] for c in _ID}
_A5_CACHE: dict[int, int] = {}


def _lows_of(key: int) -> list[int]:
    out: list[int] = []
    for r in range(13):
        out += [_LOW_RANK[r]] * (key % 5)
        key //= 5
    return out


def low_a5_value(cards: Sequence[str], *, eight_or_better: bool = False) -> int | None:
    """R-10.4: the best ace-to-five low of five or more cards; with ``eight_or_better``
    (R-10.5) ``None`` unless it is five distinct ranks eight or lower."""
    try:
        key = sum([_RW[c] for c in cards])
    except KeyError as exc:
        raise ValueError(f"{exc.args[0]!r} is not a natural card for this evaluator") from None
    v = _A5_CACHE.get(key)
    if v is None:
        if len(cards) < 5:
            raise ValueError(f"a low hand needs five cards, got {len(cards)}")
        # The table over rank multisets fills lazily; it is bounded by the number of
        # multisets (about 50,000 for up to seven cards).
        v = _A5_CACHE[key] = _a5_best(_lows_of(key))
    if eight_or_better and v <= _Q8:
        return None
    return v


def omaha_low_value(
    hole: Sequence[str], board: Sequence[str], *, eight_or_better: bool = True
) -> int | None:
    """R-10.3/R-10.4: the best A-5 low from exactly two hole cards and three board
    cards; ``None`` if none qualifies for eight-or-better."""
    _omaha_split(hole, board)
    best: int | None = None
    for x, y in combinations(hole, 2):
        for t in combinations(board, 3):
            v = low_a5_value((x, y, *t), eight_or_better=eight_or_better)
            if v is not None and (best is None or v > best):
                best = v
    return best


# --- Deuce-to-seven low (R-10.6) -------------------------------------------------------
# Exactly the high ranking turned upside down, except that A-2-3-4-5 is no straight but
# ace-high. High values are doubled to make room for it just below the lowest ace-high
# hand of its kind (A-6-4-3-2, plain or flush).

_WHEEL = (12, 3, 2, 1, 0)
_S27_PLAIN_WHEEL = 2 * _PLAIN5[(12, 4, 2, 1, 0)] - 1
_S27_FLUSH_WHEEL = 2 * _FLUSH5[(12, 4, 2, 1, 0)] - 1
_S27_MAX = 2 * _TOP


def _s27(ranks: tuple[int, ...], flush: bool) -> int:
    """Doubled high strength of five cards with the 2-7 reading of A-5-4-3-2."""
    if ranks == _WHEEL:
        return _S27_FLUSH_WHEEL if flush else _S27_PLAIN_WHEEL
    return 2 * (_FLUSH5[ranks] if flush else _PLAIN5[ranks])


def _l27_cards(cards: Sequence[str]) -> int:
    best = _S27_MAX
    for five in combinations(cards, 5):
        ranks = tuple(sorted((_RANK[c] for c in five), reverse=True))
        flush = len({c[1] for c in five}) == 1
        best = min(best, _s27(ranks, flush))
    return _S27_MAX - best


def _l27_ranks(key: int) -> int:
    ranks: list[int] = []
    for r in range(13):
        ranks += [r] * (key % 5)
        key //= 5
    subsets = set(combinations(sorted(ranks, reverse=True), 5))
    return _S27_MAX - min(_s27(s, False) for s in subsets)


# Combined key: rank part as above, plus suit counts in base 16 above 5**13.
_RANK_SPAN = 5**13
_RSW: dict[str, int] = {c: _RW[c] + _RANK_SPAN * 16 ** _SUIT[c] for c in _ID}
_L27_CACHE: dict[int, int] = {}
_L27_FLUSH_CACHE: dict[int, int] = {}
# Suit-count parts (four base-16 digits) with five or more of one suit, up to 15 cards.
_FLUSHABLE = frozenset(
    a + 16 * b + 256 * c + 4096 * d
    for a in range(16)
    for b in range(16 - a)
    for c in range(16 - a - b)
    for d in range(16 - a - b - c)
    if max(a, b, c, d) >= 5
)


def low_27_value(cards: Sequence[str]) -> int:
    """R-10.6: the best deuce-to-seven low of five or more cards (best: 7-5-4-3-2)."""
    if len(cards) < 5:
        raise ValueError(f"a low hand needs five cards, got {len(cards)}")
    try:
        key = sum([_RSW[c] for c in cards])
    except KeyError as exc:
        raise ValueError(f"{exc.args[0]!r} is not a natural card for this evaluator") from None
    suits, rank_key = divmod(key, _RANK_SPAN)
    if suits in _FLUSHABLE:
        # A flush is possible: only then do suits matter (about 3% of seven-card hands).
        # The answer depends on the ranks and on which ranks are in the long suit.
        long_suit = max(range(4), key=lambda i: (suits >> (4 * i)) & 0xF)
        mask = 0
        for c in cards:
            if _SUIT[c] == long_suit:
                mask |= 1 << _RANK[c]
        fkey = (rank_key << 13) | mask
        v = _L27_FLUSH_CACHE.get(fkey)
        if v is None:
            if len(_L27_FLUSH_CACHE) > 100_000:  # unlike the rank tables, not small
                _L27_FLUSH_CACHE.clear()
            v = _L27_FLUSH_CACHE[fkey] = _l27_cards(cards)
        return v
    v = _L27_CACHE.get(rank_key)
    if v is None:
        v = _L27_CACHE[rank_key] = _l27_ranks(rank_key)
    return v


# --- Badugi ----------------------------------------------------------------------------
# More cards beat fewer; among equal sizes, compare the highest card down (ace low).


def badugi_value(cards: Sequence[str]) -> int:
    """The best badugi: the largest subset (up to four) of distinct ranks and suits,
    then the lowest, comparing highest card first."""
    cs = [(_LOW_RANK[_RANK[c]], _SUIT[c]) for c in cards if c in _RANK]
    if len(cs) != len(cards) or not cs:
        raise ValueError("a badugi hand needs one or more natural cards")
    for size in range(min(4, len(cs)), 0, -1):
        best: tuple[int, ...] | None = None
        for sub in combinations(cs, size):
            if len({r for r, _ in sub}) == size and len({s for _, s in sub}) == size:
                ranks = tuple(sorted((r for r, _ in sub), reverse=True))
                if best is None or ranks < best:
                    best = ranks
        if best is not None:
            enc = 0
            for r in best:
                enc = enc * _B + r
            enc *= _POW[4 - size]
            return size * _B**4 + (_B**4 - 1 - enc)
    raise AssertionError("unreachable: a single card is a 1-card badugi")


# --- Wild cards (R-10.7) ---------------------------------------------------------------


@dataclass(frozen=True)
class WildSpec:
    """Which cards are wild. ``joker`` is ``"none"`` (no joker dealt), ``"wild"`` (any
    card) or ``"bug"`` (an ace, or any card that completes a straight or flush).

    A wild card may stand for any card except one already among the five it plays in
    (no "double-ace flush"); five of a kind is the one way a rank appears five times."""

    deuces_wild: bool = False
    joker: Literal["none", "wild", "bug"] = "none"

    @property
    def any(self) -> bool:
        return self.deuces_wild or self.joker != "none"


NO_WILD = WildSpec()


def _split_wild(cards: Iterable[str], wild: WildSpec) -> tuple[list[str], int, int]:
    """Naturals, full wild cards, bugs."""
    naturals: list[str] = []
    full = bug = 0
    for c in cards:
        if c == JOKER:
            if wild.joker == "wild":
                full += 1
            elif wild.joker == "bug":
                bug += 1
            else:
                raise ValueError("a joker was dealt but the game has no joker (R-10.7)")
        elif wild.deuces_wild and c[0] == "2":
            full += 1
        elif c in _ID:
            naturals.append(c)
        else:
            raise ValueError(f"{c!r} is not a card")
    return naturals, full, bug


def _rank_only_high(counts: list[int]) -> int:
    """The best unsuited high hand from rank counts (index 0 deuce … 12 ace)."""
    present = [r for r in range(12, -1, -1) if counts[r]]
    for r in present:
        if counts[r] >= 5:
            return FIVE_OF_A_KIND_BASE + r
    for r in present:
        if counts[r] >= 4:
            k = next(x for x in present if x != r)
            return _PLAIN5[(r, r, r, r, k) if r > k else (k, r, r, r, r)]
    trips = [r for r in present if counts[r] >= 3]
    pairs = [r for r in present if counts[r] >= 2]
    if trips:
        t = trips[0]
        p = next((x for x in pairs if x != t), None)
        if p is not None:
            return _PLAIN5[tuple(sorted((t, t, t, p, p), reverse=True))]
    for _top, window in _WINDOWS:
        if all(counts[r] for r in window):
            return _PLAIN5[tuple(sorted(window, reverse=True))]
    if trips:
        t = trips[0]
        ks = [x for x in present if x != t][:2]
        return _PLAIN5[tuple(sorted((t, t, t, *ks), reverse=True))]
    if len(pairs) >= 2:
        a, b = pairs[:2]
        k = next(x for x in present if x not in (a, b))
        return _PLAIN5[tuple(sorted((a, a, b, b, k), reverse=True))]
    if pairs:
        p = pairs[0]
        ks = [x for x in present if x != p][:3]
        return _PLAIN5[tuple(sorted((p, p, *ks), reverse=True))]
    return _PLAIN5[tuple(present[:5])]


def _wild_high(naturals: Sequence[str], full: int, bug: int) -> int:
    """The best high five of naturals plus wild cards (all of them play: a wild card is
    never worse than the natural it replaces)."""
    if len(naturals) + full + bug < 5:
        raise ValueError("a high hand needs five cards")
    counts = [0] * 13
    by_suit: list[set[int]] = [set(), set(), set(), set()]
    for c in naturals:
        r = _RANK[c]
        counts[r] += 1
        by_suit[_SUIT[c]].add(r)
    best = 0
    # Unsuited hands: the bug is an ace; full wild cards try every rank multiset.
    for extra in combinations_with_replacement(range(13), full):
        cs = counts.copy()
        for r in extra:
            cs[r] += 1
        cs[12] += bug
        best = max(best, _rank_only_high(cs))
    n_wild = full + bug
    # Straights: the bug may fill any gap, like a full wild card.
    if bug:
        for _top, window in _WINDOWS:
            if sum(1 for r in window if not counts[r]) <= n_wild:
                best = max(best, _PLAIN5[tuple(sorted(window, reverse=True))])
                break
    # Flushes and straight flushes: every wild card (bug included) takes a missing rank.
    for suited in by_suit:
        if len(suited) + n_wild < 5:
            continue
        for _top, window in _WINDOWS:
            if sum(1 for r in window if r not in suited) <= n_wild:
                best = max(best, _FLUSH5[tuple(sorted(window, reverse=True))])
                break
        chosen: list[int] = []
        left = n_wild
        for r in range(12, -1, -1):
            if len(chosen) == 5:
                break
            if r in suited:
                chosen.append(r)
            elif left:
                chosen.append(r)
                left -= 1
        best = max(best, _FLUSH5[tuple(chosen)])
    return best


def high_value_wild(cards: Sequence[str], wild: WildSpec) -> int:
    """R-10.7: the best high five of ``cards`` with wild cards; comparable with
    :func:`high_value` (five of a kind ranks above a straight flush)."""
    naturals, full, bug = _split_wild(cards, wild)
    if not full and not bug:
        return high_value(naturals)
    return _wild_high(naturals, full, bug)


def omaha_high_value_wild(hole: Sequence[str], board: Sequence[str], wild: WildSpec) -> int:
    """R-10.3 with R-10.7: exactly two hole cards and three board cards, wild cards
    counting wherever they are."""
    _omaha_split(hole, board)
    if not any(c == JOKER or (wild.deuces_wild and c[0] == "2") for c in (*hole, *board)):
        return omaha_high_value(hole, board)
    return max(
        _wild_high(*_split_wild((*p, *t), wild))
        for p in combinations(hole, 2)
        for t in combinations(board, 3)
    )


def _wild_a5(naturals: Sequence[str], n_wild: int) -> int:
    lows = [_LOW_RANK[_RANK[c]] for c in naturals]
    distinct = set(lows)
    if len(distinct) + n_wild >= 5:
        # Each wild card takes the lowest rank still missing (never pairing).
        fill = [r for r in range(1, 14) if r not in distinct][:n_wild]
        return _a5_five(sorted(distinct | set(fill))[:5])
    # Too few ranks for a no-pair low: try every rank for each wild card.
    return max(
        _a5_best(lows + list(extra))
        for extra in combinations_with_replacement(range(1, 14), n_wild)
    )


def low_a5_value_wild(
    cards: Sequence[str], wild: WildSpec, *, eight_or_better: bool = False
) -> int | None:
    """R-10.4/R-10.5 with R-10.7: a wild card (joker or bug alike) becomes the lowest
    rank it can fill without pairing."""
    naturals, full, bug = _split_wild(cards, wild)
    if not full and not bug:
        return low_a5_value(naturals, eight_or_better=eight_or_better)
    if len(cards) < 5:
        raise ValueError(f"a low hand needs five cards, got {len(cards)}")
    v = _wild_a5(naturals, full + bug)
    if eight_or_better and v <= _Q8:
        return None
    return v


def omaha_low_value_wild(
    hole: Sequence[str], board: Sequence[str], wild: WildSpec, *, eight_or_better: bool = True
) -> int | None:
    """Omaha shape (R-10.3) of :func:`low_a5_value_wild`."""
    _omaha_split(hole, board)
    best: int | None = None
    for p in combinations(hole, 2):
        for t in combinations(board, 3):
            v = low_a5_value_wild((*p, *t), wild, eight_or_better=eight_or_better)
            if v is not None and (best is None or v > best):
                best = v
    return best


# --- Words -----------------------------------------------------------------------------


def _rank(family: str, rank: int) -> Term:
    """A rank (0 deuce … 12 ace) as the catalogue word a hand name needs: ``top`` (the
    card of "Ace high"), ``high`` (of "Ace-high flush"), ``pl`` (of "Pair of aces") or
    ``Pl`` (the plural that starts a name, "Kings full of sevens")."""
    return Term(f"rank.{family}.{RANKS[rank]}")


@dataclass(frozen=True)
class HandDescription:
    """A hand: its value, the cards it plays (in display order) and its name."""

    value: int | None
    used: tuple[str, ...]
    words: Msg
    """The name as a message (ranks as catalogue terms), for the reader's language."""


def _groups(ranks: Iterable[int]) -> list[tuple[int, int]]:
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))


@cache  # a pure function of at most ~7,500 values; every showdown asks for names
def high_words(value: int) -> Msg:
    """The name of a high hand as a message: its kind and its ranks ("Kings full of
    sevens", "Ace-high flush", "Five aces"… in English)."""
    cat = _category(value)
    if cat == "five_of_a_kind":
        return msg("hand.five_kind", rank=_rank("pl", value - FIVE_OF_A_KIND_BASE))
    ranks = _VALUE_RANKS[value]
    g = _groups(ranks)
    top = ranks[1] if ranks == _WHEEL_SORTED else ranks[0]
    high = _rank("high", top)
    if cat == "straight_flush":
        return msg("hand.royal_flush") if top == 12 else msg("hand.straight_flush", rank=high)
    if cat == "four_of_a_kind":
        return msg("hand.four_kind", rank=_rank("pl", g[0][0]))
    if cat == "full_house":
        return msg("hand.full_house", trips=_rank("Pl", g[0][0]), pair=_rank("pl", g[1][0]))
    if cat == "flush":
        return msg("hand.flush", rank=high)
    if cat == "straight":
        return msg("hand.straight", rank=high)
    if cat == "three_of_a_kind":
        return msg("hand.three_kind", rank=_rank("pl", g[0][0]))
    if cat == "two_pair":
        return msg("hand.two_pair", top=_rank("pl", g[0][0]), bottom=_rank("pl", g[1][0]))
    if cat == "one_pair":
        return msg("hand.pair", rank=_rank("pl", g[0][0]))
    return msg("hand.high_card", rank=_rank("top", top))


_WHEEL_SORTED = (12, 3, 2, 1, 0)


def _display_high(
    five: Sequence[str], wild: WildSpec = NO_WILD, *, ace_low_wheel: bool = True
) -> tuple[str, ...]:
    """Group order (R-10.2), a wheel with its ace last, wild cards at the end."""
    naturals, _, _ = _split_wild(five, wild)
    wilds = [c for c in five if c not in naturals]
    counts: dict[int, int] = {}
    for c in naturals:
        counts[_RANK[c]] = counts.get(_RANK[c], 0) + 1
    ranks = {_RANK[c] for c in naturals}
    wheel = 12 in ranks and ranks <= {12, 0, 1, 2, 3} and max(counts.values()) == 1
    wheel = wheel and len(naturals) == 5 and ace_low_wheel

    def key(c: str) -> tuple[int, int, int]:
        r = _RANK[c]
        return (-counts[r], -(r if not (wheel and r == 12) else -1), -_SUIT[c])

    return (*sorted(naturals, key=key), *wilds)


def _low_text(lows: Sequence[int]) -> str:
    return "-".join("A" if r == 1 else RANKS[r - 2] for r in lows)


def _display_low(five: Sequence[str], wild: WildSpec = NO_WILD) -> tuple[str, ...]:
    """Rank groups first, highest low rank first (ace last), wild cards at the end."""
    naturals, _, _ = _split_wild(five, wild)
    wilds = [c for c in five if c not in naturals]
    counts: dict[int, int] = {}
    for c in naturals:
        lr = _LOW_RANK[_RANK[c]]
        counts[lr] = counts.get(lr, 0) + 1

    def key(c: str) -> tuple[int, int]:
        lr = _LOW_RANK[_RANK[c]]
        return (-counts[lr], -lr)

    return (*sorted(naturals, key=key), *wilds)


def _best_subset(
    fives: Iterable[tuple[str, ...]], score: Callable[[tuple[str, ...]], int | None]
) -> tuple[int | None, tuple[str, ...]]:
    best: int | None = None
    used: tuple[str, ...] = ()
    for five in fives:
        v = score(five)
        if v is not None and (best is None or v > best):
            best, used = v, five
    return best, used


_CAT_PATTERN = {cat: pattern for pattern, cat in _PATTERN_CAT.items()}


def a5_ranks(value: int) -> tuple[int, ...]:
    """The five low ranks (ace 1 … king 13) of an A-5 value, in group order."""
    badness = _LOW_MAX - value
    digits: list[int] = []
    for _ in range(5):
        digits.append(badness % _B)
        badness //= _B
    digits.reverse()
    out: list[int] = []
    for count, r in zip(_CAT_PATTERN[badness], digits, strict=False):
        out += [r] * count
    return tuple(out)


@cache
def _a5_words(value: int) -> Msg:
    return msg("hand.low", cards=Name(_low_text(a5_ranks(value))))


NO_LOW: Msg = msg("hand.no_low")
"""R-10.5: the low half of a hand that has no qualifying low."""


# --- Short-deck (six-plus) high hands ---------------------------------------------------
# A 36-card deck, sixes to aces. The ranking pokerkit and PHH ("NS") use: a flush beats
# a full house (with nine ranks a flush is the rarer hand) and A-9-8-7-6 is the lowest
# straight (the ace plays low, below the six). The rest is the usual order
# a straight beats three of a kind. Many rooms (and some Triton events)
# also rank three of a kind above a straight; that ranking is the "short_high_trips"
# kind (variant ``shortdeck_trips``).

_SHORT_WHEEL = (12, 7, 6, 5, 4)  # A 9 8 7 6 as rank indices
_SHORT_ORDER: dict[Category, int] = {
    "high_card": 0,
    "one_pair": 1,
    "two_pair": 2,
    "three_of_a_kind": 3,
    "straight": 4,
    "full_house": 5,
    "flush": 6,
    "four_of_a_kind": 7,
    "straight_flush": 8,
}
# Trips over straights: the same order with those two swapped.
_SHORT_ORDER_TRIPS: dict[Category, int] = {
    **_SHORT_ORDER,
    "three_of_a_kind": _SHORT_ORDER["straight"],
    "straight": _SHORT_ORDER["three_of_a_kind"],
}
_SHORT_STEP = 10_000  # above every standard value: category first, then the usual order
_SHORT_LOW_STRAIGHTS = {
    _PLAIN5[_WHEEL]: msg("hand.straight", rank=_rank("high", 7)),
    _FLUSH5[_WHEEL]: msg("hand.straight_flush", rank=_rank("high", 7)),
}


def _short_five(ids: Sequence[int], order: Mapping[Category, int] = _SHORT_ORDER) -> int:
    value = _TOP - _E5(*ids)
    if tuple(sorted((i >> 2 for i in ids), reverse=True)) == _SHORT_WHEEL:
        # Score A-9-8-7-6 as the standard game's lowest straight (flush): the 5-4-3-2-A
        # it stands in for cannot be dealt from a short deck.
        flush = len({i & 3 for i in ids}) == 1
        value = _FLUSH5[_WHEEL] if flush else _PLAIN5[_WHEEL]
    return order[_category(value)] * _SHORT_STEP + value


def short_deck_value(cards: Sequence[str], *, trips_beat_straight: bool = False) -> int:
    """The best five of ``cards`` under short-deck ranking (five or more cards, 6 to A);
    ``trips_beat_straight`` ranks three of a kind above a straight."""
    ids = _ids(cards)
    if len(ids) < 5:
        raise ValueError(f"a high hand needs five cards, got {len(ids)}")
    if any(i >> 2 < 4 for i in ids):
        raise ValueError("a short deck has no cards below the six")
    order = _SHORT_ORDER_TRIPS if trips_beat_straight else _SHORT_ORDER
    return max(_short_five(five, order) for five in combinations(ids, 5))


def short_deck_words(value: int) -> Msg:
    """A short-deck hand's name as a message: "Nine-high straight" for A-9-8-7-6,
    otherwise the usual names."""
    standard = value % _SHORT_STEP
    return _SHORT_LOW_STRAIGHTS.get(standard) or high_words(standard)


def _display_short(five: Sequence[str]) -> tuple[str, ...]:
    if tuple(sorted((_RANK[c] for c in five), reverse=True)) == _SHORT_WHEEL:
        return tuple(sorted(five, key=lambda c: (_RANK[c] + 1) % 13, reverse=True))  # ace last
    return _display_high(five)


def describe(
    kind: HandKind, cards: Sequence[str], board: Sequence[str] = (), *, wild: WildSpec = NO_WILD
) -> HandDescription:
    """The value, name and used cards of a hand. ``cards`` are the hole cards for the
    Omaha kinds and may be all the cards otherwise (``board`` is added to them).
    ``ValueError`` if the cards cannot make a hand of that kind (too few cards, a joker
    in a game without one)."""
    allc = tuple(cards) + tuple(board)
    if kind in ("omaha_high", "omaha_low_8"):
        _omaha_split(cards, board)  # ValueError before the board has three cards
        fives: list[tuple[str, ...]] = [
            (*p, *t) for p in combinations(cards, 2) for t in combinations(board, 3)
        ]
    elif kind == "badugi":
        fives = []
    else:
        if len(allc) < 5:
            raise ValueError("a hand needs five cards")
        fives = list(combinations(allc, 5))
    if kind in ("short_high", "short_high_trips"):
        trips = kind == "short_high_trips"

        def score_short(f: tuple[str, ...]) -> int:
            return short_deck_value(f, trips_beat_straight=trips)

        value, used = _best_subset(fives, score_short)
        assert value is not None
        words = short_deck_words(value)
        return HandDescription(value, _display_short(used), words)
    if kind in ("high", "omaha_high"):

        def score_high(f: tuple[str, ...]) -> int:
            return high_value_wild(f, wild) if wild.any else high_value(f)

        value, used = _best_subset(fives, score_high)
        assert value is not None
        return HandDescription(value, _display_high(used, wild), high_words(value))
    if kind in ("low_a5", "low_a5_8", "omaha_low_8"):
        eight = kind != "low_a5"

        def score_low(f: tuple[str, ...]) -> int | None:
            if wild.any:
                return low_a5_value_wild(f, wild, eight_or_better=eight)
            return low_a5_value(f, eight_or_better=eight)

        lv, used = _best_subset(fives, score_low)
        if lv is None:
            return HandDescription(None, (), NO_LOW)
        return HandDescription(lv, _display_low(used, wild), _a5_words(lv))
    if kind == "low_27":
        lv, used = _best_subset(fives, low_27_value)
        assert lv is not None and used
        ranks = tuple(sorted((_RANK[c] for c in used), reverse=True))
        flush = len({c[1] for c in used}) == 1
        if ranks == _WHEEL and not flush:
            words = msg("hand.low_27_wheel")
        elif ranks == _WHEEL:
            words = msg("hand.flush", rank=_rank("high", 12))
        else:
            hv = (_FLUSH5 if flush else _PLAIN5)[ranks]
            words = high_words(hv)
            if _category(hv) == "high_card":
                text = "-".join(RANKS[r] for r in ranks)
                number_one = ranks == (5, 3, 2, 1, 0)
                words = msg("hand.number_one") if number_one else msg("hand.low", cards=Name(text))
        order = sorted(used, key=lambda c: -_RANK[c])
        return HandDescription(lv, _display_high(order, ace_low_wheel=False), words)
    if kind == "badugi":
        bv = badugi_value(allc)
        size = bv // _B**4
        best: tuple[str, ...] = ()
        for sub in combinations(allc, size):
            if (
                len({c[0] for c in sub}) == size
                and len({c[1] for c in sub}) == size
                and badugi_value(sub) == bv
            ):
                best = tuple(sorted(sub, key=lambda c: -_LOW_RANK[_RANK[c]]))
                break
        text = _low_text([_LOW_RANK[_RANK[c]] for c in best])
        words = msg("hand.badugi", size=Number(size), cards=Name(text))
        return HandDescription(bv, best, words)
    raise ValueError(f"unknown hand kind {kind!r}")
