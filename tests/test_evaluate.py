"""Hand evaluators (RULES §10, E-11, E-12), cross-checked against pokerkit and brute force."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations, combinations_with_replacement

import pokerkit as pk
import pytest

from bot.poker import evaluate as ev
from bot.poker.evaluate import WildSpec
from tests.said import en

DECK = tuple(r + s for r in "23456789TJQKA" for s in "cdhs")


def cards(text: str) -> list[str]:
    t = text.replace(" ", "")
    return [t[i : i + 2] for i in range(0, len(t), 2)]


def hv(text: str) -> int:
    return ev.high_value(cards(text))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


# --- E-11, E-12 (worked examples, exactly) ----------------------------------------------


def test_e11_board_plays_split() -> None:
    board = "2c 3d 4h 5s 6c"
    assert hv("3h 4d " + board) == hv("Kd Qh " + board)
    assert en(ev.describe("high", cards("Kd Qh"), cards(board)).words) == "Six-high straight"
    board = "6c 6d 8h 6h 6s"
    assert hv("Ac Ad " + board) == hv("Ah Kc " + board)
    assert en(ev.describe("high", cards("Ac Ad"), cards(board)).words) == "Four sixes"
    board = "Ac Kd Qh Ad Kh"
    assert hv("Jc Jd " + board) == hv("Tc Td " + board)
    assert en(ev.describe("high", cards("Jc Jd"), cards(board)).words) == "Two pair, aces and kings"


def test_e11_all_spade_board() -> None:
    board = "As Ks 6s 5s 4s"
    assert hv("Qs Qh " + board) > hv("Js 9s " + board)
    assert ev.describe("high", cards("Qs Qh"), cards(board)).used == tuple(cards("As Ks Qs 6s 5s"))
    assert hv("2s 7d " + board) == hv("3s 8c " + board)
    assert en(ev.describe("high", cards("2s 7d"), cards(board)).words) == "Ace-high flush"


def test_e12_rank_comparisons() -> None:
    assert hv("4c 4d 4h 7s 7c") > hv("2c 2d 2h Ks Kc")
    assert hv("4c 4d 4h 3s 2c") > hv("2s 2d 2h As Kc")
    # 5-5-5-9-9 > 5-5-5-6-6 (one deck cannot hold both, so compare across deals).
    assert hv("5c 5d 5h 9s 9c") > hv("5c 5d 5s 6s 6c")
    assert hv("Kc Kd 2h 2s Ac") > hv("7c 7d 3h 3s Qc")
    assert hv("7c 7d 3h 3s Qc") > hv("7c 7d 2h 2s Ac")
    assert hv("Ac Kd 8h 3s 2c") > hv("Ac Kd 7h 6s 5c")
    assert hv("6c 5d 4h 3s 2c") > hv("5c 4d 3h 2s Ac")
    low = ev.low_a5_value
    assert low(cards("8c 6d 5h 4s 3c")) > low(cards("8c 7d 4h 3s 2c"))  # type: ignore[operator]


# --- – R-10.3 ----------------------------------------------------------------------


def test_r10_1_wheel_is_lowest_straight_and_no_wrap_around() -> None:
    wheel = hv("Ac 2d 3h 4s 5c")
    assert en(ev.describe("high", cards("Ac 2d 3h 4s 5c")).words) == "Five-high straight"
    assert ev.describe("high", cards("Ac 2d 3h 4s 5c")).used == tuple(cards("5c 4s 3h 2d Ac"))
    assert wheel < hv("2c 3d 4h 5s 6c")
    assert wheel > hv("Ac Ad Ah Ks Qc")  # any straight beats trips
    assert en(ev.describe("high", cards("Qc Kd Ah 2s 3c")).words) == "Ace high"
    assert hv("Qc Kd Ah 2s 3c") < hv("2c 2d 4h 5s 6c")


def test_r10_1_category_order() -> None:
    order = [
        "Ac Kd Qh Js 9c",
        "2c 2d 3h 4s 5c",
        "2c 2d 3h 3s 4c",
        "2c 2d 2h 3s 4c",
        "Ac 2d 3h 4s 5c",
        "2c 3c 4c 5c 7c",
        "2c 2d 2h 3s 3c",
        "2c 2d 2h 2s 3c",
        "Ac 2c 3c 4c 5c",
    ]
    values = [hv(h) for h in order]
    assert values == sorted(values) and len(set(values)) == len(values)


def test_r10_3_best_five_of_seven_and_more() -> None:
    eight = cards("2c 7d 9h Js Kc Ah 3d 4s")
    brute = max(ev.high_value(list(f)) for f in combinations(eight, 5))
    assert ev.high_value(eight) == brute
    with pytest.raises(ValueError):
        ev.high_value(cards("Ac Kd"))


def test_r10_3_omaha_must_use_exactly_two() -> None:
    hole, board = cards("As Kd 7c 8c"), cards("Qs Js Ts 9s 2h")
    # Hold'em would play a spade flush (As + four board spades); Omaha may not.
    assert ev.high_value(hole + board) > ev.omaha_high_value(hole, board)
    assert en(ev.describe("omaha_high", hole, board).words) == "Ace-high straight"
    # Four to a flush in the hand and none of them usable with one board spade.
    hole, board = cards("As Ks Qs Js"), cards("2s 7d 8h 9c Th")
    assert en(ev.describe("omaha_high", hole, board).words) == "Queen-high straight"
    # The board's quads play in hold'em; Omaha uses three of them.
    hole, board = cards("Ac Kd 3h 4h"), cards("9c 9d 9h 9s 2c")
    assert en(ev.describe("omaha_high", hole, board).words) == "Three nines"


def test_r10_3_omaha_five_and_six_hole_cards() -> None:
    rng = random.Random(7)
    for n_hole in (2, 3, 4, 5, 6):
        for _ in range(150):
            deal = rng.sample(DECK, n_hole + 5)
            hole, board = deal[:n_hole], deal[n_hole:]
            brute = max(
                ev.high_value([*p, *t])
                for p in combinations(hole, 2)
                for t in combinations(board, 3)
            )
            assert ev.omaha_high_value(hole, board) == brute


# --- R-10.5 (ace-to-five) ---------------------------------------------------------


def test_r10_4_a5_ordering() -> None:
    lv = ev.low_a5_value
    order = [
        "Kc Kd Kh Ks Qc",
        "Kc Kd Qh Qs Jc",
        "2c 2d 3h 4s 5c",
        "Kc Qd Jh Ts 9c",
        "8c 7d 4h 3s 2c",
        "8c 6d 5h 4s 3c",
        "6c 4d 3h 2s Ac",
        "5c 4d 3h 2s Ac",
    ]
    values = [lv(cards(h)) for h in order]
    assert values == sorted(values, key=lambda v: v or 0) and len(set(values)) == len(values)
    # Straights and flushes do not count.
    assert lv(cards("5c 4c 3c 2c Ac")) == lv(cards("5c 4d 3h 2s Ad"))
    assert en(ev.describe("low_a5", cards("5c 4c 3c 2c Ac Kd Kh")).words) == "5-4-3-2-A low"


def test_r10_4_pairs_are_bad() -> None:
    assert ev.low_a5_value(cards("Ac Ad 2h 3s 4c")) < ev.low_a5_value(cards("Kc Qd Jh Ts 9c"))  # type: ignore[operator]
    # With seven cards the pair is dodged.
    assert ev.low_a5_value(cards("Ac Ad 2h 3s 4c Kd 9h")) == ev.low_a5_value(
        cards("Ac 2d 3h 4s 9c")
    )


def test_r10_5_eight_or_better_qualifier() -> None:
    q = ev.low_a5_value
    assert q(cards("8c 7d 6h 5s 4c"), eight_or_better=True) is not None
    assert q(cards("9c 4d 3h 2s Ac"), eight_or_better=True) is None
    assert q(cards("8c 8d 3h 2s Ac Kd Kh"), eight_or_better=True) is None
    assert q(cards("8c 8d 3h 2s Ac 4d Kh"), eight_or_better=True) == q(cards("8c 3h 2s Ac 4d"))
    assert ev.describe("low_a5_8", cards("9c 4d 3h 2s Ac")).value is None
    assert en(ev.describe("low_a5_8", cards("8c 6d 5h 4s Ac")).words) == "8-6-5-4-A low"
    # Omaha: exactly two hole cards; a board with only two low cards gives no low.
    assert ev.omaha_low_value(cards("Ac 2d Kh Ks"), cards("3c 4d 9h Ts Jc")) is None
    assert ev.omaha_low_value(cards("Ac 2d Kh Ks"), cards("3c 4d 8h Ts Jc")) == q(
        cards("Ac 2d 3c 4d 8h")
    )
    # Three low hole cards do not help: only two may play.
    assert ev.omaha_low_value(cards("Ac 2d 3h Ks"), cards("7c 8d 9h Ts Jc")) is None


# --- R-10.6 (deuce-to-seven) ----------------------------------------------------------------


def test_r10_6_deuce_to_seven() -> None:
    lv = ev.low_27_value
    best = lv(cards("7c 5d 4h 3s 2c"))
    assert en(ev.describe("low_27", cards("7c 5d 4h 3s 2c")).words) == "Number one (7-5-4-3-2)"
    # A-2-3-4-5 is not a wheel: ace high, worse than any king high.
    wheel = lv(cards("Ac 2d 3h 4s 5c"))
    assert en(ev.describe("low_27", cards("Ac 2d 3h 4s 5c")).words).startswith("A-5-4-3-2")
    assert wheel < lv(cards("Kc Qd Jh Ts 8c")) and wheel > lv(cards("Ac 6d 4h 3s 2c"))
    assert wheel > lv(cards("2c 2d 3h 4s 5c"))
    # Straights and flushes count against.
    assert lv(cards("6c 5d 4h 3s 2c")) < lv(cards("Ac Kd Qh Js 9c"))
    assert lv(cards("7c 5c 4c 3c 2c")) < lv(cards("Ac Kd Qh Js 9c"))
    assert best > lv(cards("7c 6d 4h 3s 2c")) > lv(cards("8c 5d 4h 3s 2c"))
    # Best five of seven avoids the flush and the pair.
    assert lv(cards("7c 5c 4c 3c 2c 2d 6d")) == best  # 2d breaks the flush
    assert lv(cards("7c 5c 4c 3c 2c 6c Kd")) == lv(cards("Kd 5c 4c 3c 2c"))  # not the flush
    assert lv(cards("7c 5c 4c 3c 2c 8d Kh")) == lv(cards("8d 5c 4c 3c 2c"))


# --- Badugi --------------------------------------------------------------------------------


def test_badugi_ordering() -> None:
    bv = ev.badugi_value
    assert bv(cards("4c 3d 2h As")) > bv(cards("5c 3d 2h As")) > bv(cards("Kc Qd Jh Ts"))
    assert bv(cards("Kc Qd Jh Ts")) > bv(cards("3c 2d As Ac"))  # four cards beat three
    assert bv(cards("3c 2d Ah 4h")) == bv(cards("3c 2d Ah"))  # 4h duplicates a suit
    assert bv(cards("3c 2d Ah Ks")) > bv(cards("Ac Ad Ah As"))
    assert bv(cards("8c 7d 6h 5s")) < bv(cards("8c 7d 6h 4s"))
    d = ev.describe("badugi", cards("7c 4d 3h As"))
    assert en(d.words) == "4-card badugi 7-4-3-A" and d.used == tuple(cards("7c 4d 3h As"))
    assert en(ev.describe("badugi", cards("7c 7d 3c Ac")).words) == "2-card badugi 7-A"


# --- R-10.7 (wild cards) --------------------------------------------------------------------

DEUCES = WildSpec(deuces_wild=True)
JOKER = WildSpec(joker="wild")
BUG = WildSpec(joker="bug")


def test_r10_7_five_of_a_kind_beats_straight_flush() -> None:
    five = ev.high_value_wild(cards("Kc Kd Kh Ks 2c"), DEUCES)
    assert five > ev.high_value(cards("Ac Kc Qc Jc Tc"))
    assert en(ev.describe("high", cards("Kc Kd Kh Ks Xx"), wild=JOKER).words) == "Five kings"
    assert ev.high_value_wild(cards("Ac Ad Ah As Xx"), BUG) > five
    assert ev.high_value_wild(cards("2c 2d 2h 2s Xx"), WildSpec(True, "wild")) > five


def test_r10_7_deuces_wild_high() -> None:
    w = ev.high_value_wild
    assert w(cards("Ac Kc Qc Jc 2d"), DEUCES) == hv("Ac Kc Qc Jc Tc")
    assert w(cards("9c 9d 4h 4s 2c"), DEUCES) == hv("9c 9d 9h 4s 4c")
    assert w(cards("7c 8d 9h Ts 2c 3d Kh"), DEUCES) == hv("7c 8d 9h Ts Jc")
    # No "double-ace flush": the wild card becomes the king, not a second ace.
    assert w(cards("Ac 9c 7c 5c 2d"), DEUCES) == hv("Ac Kc 9c 7c 5c")
    # Naturals only: the same as high_value.
    assert w(cards("Ac Kd 7h 5s 3c"), DEUCES) == hv("Ac Kd 7h 5s 3c")


def test_r10_7_bug_is_ace_or_completes_straight_or_flush() -> None:
    w = ev.high_value_wild
    assert w(cards("Kc Kd 7h 5s Xx"), BUG) == hv("Kc Kd Ah 7s 5c")  # an ace, not a king
    assert w(cards("Ac Kd 7h 5s Xx"), BUG) == hv("Ac Ad Kh 7s 5c")  # pair of aces
    assert w(cards("9c Td Jh Qs Xx"), BUG) == hv("9c Td Jh Qs Kc")  # completes a straight
    assert w(cards("3c 4d 5h 6s Xx"), BUG) == hv("3c 4d 5h 6s 7c")
    assert w(cards("Kc 9c 7c 4c Xx"), BUG) == hv("Kc Ac 9c 7c 4c")  # completes a flush
    assert w(cards("Ac 9c 7c 4c Xx"), BUG) == hv("Ac Kc 9c 7c 4c")
    # The same cards with a full joker: three of a kind beats the bug's pair of aces.
    assert w(cards("Kc Kd 7h 5s Xx"), JOKER) == hv("Kc Kd Kh 7s 5c")


def test_r10_7_wild_omaha_shape() -> None:
    hole, board = cards("Xx 2d 7c 8c"), cards("Qs Js Ts 9s 3h")
    v = ev.omaha_high_value_wild(hole, board, WildSpec(deuces_wild=True, joker="wild"))
    assert v == hv("As Ks Qs Js Ts")  # K♠ and A♠ from two wild cards: royal flush


def test_r10_7_deuces_wild_low() -> None:
    lw = ev.low_a5_value_wild
    assert lw(cards("2c 3d 4h 5s Kc"), DEUCES) == ev.low_a5_value(cards("Ac 3d 4h 5s Kc"))
    assert lw(cards("2c 3d 4h 5s 6c"), DEUCES) == ev.low_a5_value(cards("Ac 3d 4h 5s 6c"))
    assert lw(cards("Ac 3d 4h 5s 2c 9d Kh"), DEUCES, eight_or_better=True) == ev.low_a5_value(
        cards("Ac 3d 4h 5s 2s")
    )
    assert lw(cards("Xx 3d 4h 5s Kc"), BUG) == ev.low_a5_value(cards("Ac 3d 4h 5s Kc"))
    assert lw(cards("Kc Kd Qh Qs Xx"), JOKER) == ev.low_a5_value(cards("Kc Kd Qh Qs Ac"))
    assert lw(cards("9c 8d 7h Xx Kc"), JOKER, eight_or_better=True) is None


def test_r10_7_wild_without_wild_cards_matches_naturals() -> None:
    rng = random.Random(11)
    for _ in range(300):
        h = rng.sample(DECK, 7)
        nat = [c for c in h if c[0] != "2"]
        if len(nat) < 5:
            continue
        assert ev.high_value_wild(nat, DEUCES) == ev.high_value(nat)
        assert ev._wild_high(nat, 0, 0) == ev.high_value(nat)
        assert ev.low_a5_value_wild(nat, DEUCES) == ev.low_a5_value(nat)


def test_r10_7_wild_high_against_substitution() -> None:
    """One wild card: the best over every card it could be (not repeating a card of the
    five) equals the evaluator; five of a kind is checked separately."""
    rng = random.Random(5)
    for _ in range(60):
        nat = rng.sample(DECK, 6)
        naturals = [c for c in nat if c[0] != "2"][:6]
        if len(naturals) < 4:
            continue
        hand = [*naturals, "Xx"]
        got = ev.high_value_wild(hand, WildSpec(joker="wild"))
        best = 0
        for five_nat in combinations(naturals, 4):
            for sub in DECK:
                if sub not in five_nat:
                    best = max(best, ev.high_value([*five_nat, sub]))
        ranks = [c[0] for c in naturals]
        if max(ranks.count(r) for r in ranks) == 4:
            best = max(best, ev.FIVE_OF_A_KIND_BASE)
        if len(naturals) >= 5:
            best = max(best, ev.high_value(naturals))
        assert got == best or got >= ev.FIVE_OF_A_KIND_BASE


# --- Cross-checks against pokerkit ------------------------------------------------------------


def _pairwise_agree(
    ours: Sequence[int | None], theirs: Sequence[object], n_pairs: int, rng: random.Random
) -> None:
    n = len(ours)
    for _ in range(n_pairs):
        i, j = rng.randrange(n), rng.randrange(n)
        a, b = ours[i], ours[j]
        x, y = theirs[i], theirs[j]
        if a is None or b is None or x is None or y is None:
            assert (a is None) == (x is None) and (b is None) == (y is None)
            continue
        s_ours = sign(a - b)
        s_theirs = (x > y) - (x < y)  # type: ignore[operator]
        assert s_ours == s_theirs, (i, j)


def _deals(seed: int, n: int, size: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [rng.sample(DECK, size) for _ in range(n)]


def _low_biased_deals(seed: int, n: int, size: int) -> list[list[str]]:
    """Mostly low cards, so the lows are close and qualifiers frequent."""
    rng = random.Random(seed)
    low = [c for c in DECK if c[0] in "A2345678"]
    high = [c for c in DECK if c not in low]
    out = []
    for _ in range(n):
        k = rng.randint(size - 3, size)
        out.append(rng.sample(low, k) + rng.sample(high, size - k))
    return out


def _pk(cls: object, hole: Sequence[str], board: Sequence[str] = ()) -> object:
    return cls.from_game_or_none("".join(hole), "".join(board))  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "ours", "theirs", "size", "low_bias"),
    [
        ("high", ev.high_value, pk.StandardHighHand, 7, False),
        ("high6", ev.high_value, pk.StandardHighHand, 6, False),
        ("a5", ev.low_a5_value, pk.RegularLowHand, 7, True),
        ("a5_5", ev.low_a5_value, pk.RegularLowHand, 5, True),
        (
            "a5_8",
            lambda c: ev.low_a5_value(c, eight_or_better=True),
            pk.EightOrBetterLowHand,
            7,
            True,
        ),
        ("l27", ev.low_27_value, pk.StandardLowHand, 7, True),
        ("l27_5", ev.low_27_value, pk.StandardLowHand, 5, True),
    ],
)
def test_cross_check_pokerkit(
    name: str,
    ours: Callable[[list[str]], int | None],
    theirs: object,
    size: int,
    low_bias: bool,
) -> None:
    deals = _deals(sum(map(ord, name)), 1000, size)
    if low_bias:
        deals += _low_biased_deals(3, 1000, size)
    o = [ours(d) for d in deals]
    t = [_pk(theirs, d) for d in deals]
    _pairwise_agree(o, t, 6000, random.Random(1))


def test_cross_check_pokerkit_flush_heavy_27() -> None:
    rng = random.Random(9)
    deals = []
    for _ in range(1500):
        suit = rng.choice("cdhs")
        suited = [c for c in DECK if c[1] == suit]
        k = rng.randint(4, 6)
        rest = [c for c in DECK if c[1] != suit]
        deals.append(rng.sample(suited, k) + rng.sample(rest, 7 - k))
    o: list[int | None] = [ev.low_27_value(d) for d in deals]
    t = [_pk(pk.StandardLowHand, d) for d in deals]
    _pairwise_agree(o, t, 5000, random.Random(2))


@pytest.mark.parametrize("n_hole", [4, 5, 6])
def test_cross_check_pokerkit_omaha(n_hole: int) -> None:
    n = 150  # pokerkit is slow with many hole cards
    deals = _deals(40 + n_hole, n, n_hole + 5) + _low_biased_deals(41, n, n_hole + 5)
    oh: list[int | None] = [ev.omaha_high_value(d[:n_hole], d[n_hole:]) for d in deals]
    th = [_pk(pk.OmahaHoldemHand, d[:n_hole], d[n_hole:]) for d in deals]
    _pairwise_agree(oh, th, 4000, random.Random(3))
    ol = [ev.omaha_low_value(d[:n_hole], d[n_hole:]) for d in deals]
    tl = [_pk(pk.OmahaEightOrBetterLowHand, d[:n_hole], d[n_hole:]) for d in deals]
    _pairwise_agree(ol, tl, 4000, random.Random(4))


@pytest.mark.parametrize("size", [4, 5, 6])
def test_cross_check_pokerkit_badugi(size: int) -> None:
    n = 1500 if size == 4 else 500
    deals = _deals(50 + size, n, size) + _low_biased_deals(51, n, size)
    o: list[int | None] = [ev.badugi_value(d) for d in deals]
    t = [_pk(pk.BadugiHand, d) for d in deals]
    _pairwise_agree(o, t, 6000, random.Random(5))


def test_cross_check_brute_force_lows() -> None:
    """Best of seven equals the best single five (both lows)."""
    for d in _low_biased_deals(60, 800, 7):
        assert ev.low_a5_value(d) == max(ev.low_a5_value(list(f)) or 0 for f in combinations(d, 5))
        assert ev.low_27_value(d) == max(ev.low_27_value(list(f)) for f in combinations(d, 5))


def test_describe_names() -> None:
    assert en(ev.describe("high", cards("Kc Kd Kh 7s 7c 2d 3h")).words) == "Kings full of sevens"
    assert ev.describe("high", cards("Kc Kd Kh 7s 7c 2d 3h")).used == tuple(cards("Kh Kd Kc 7s 7c"))
    assert en(ev.describe("high", cards("Ac Ad Kh Ks 7c")).words) == "Two pair, aces and kings"
    assert en(ev.describe("high", cards("Ac 9c 7c 5c 3c Kd")).words) == "Ace-high flush"
    assert en(ev.describe("high", cards("3c 4d 5h 6s 7c")).words) == "Seven-high straight"
    assert en(ev.describe("low_a5", cards("8c 6d 5h 4s Ac")).words) == "8-6-5-4-A low"
    assert ev.describe("low_a5", cards("8c 6d 5h 4s Ac")).used == tuple(cards("8c 6d 5h 4s Ac"))
    assert ev.describe("omaha_low_8", cards("Ac 2d Kh Ks"), cards("3c 4d 9h Ts Jc")).value is None


def test_r10_7_two_wild_cards_against_substitution() -> None:
    """Two full wild cards: the best over every pair of cards they could be."""
    naturals_deck = [c for c in DECK if c[0] != "2"]
    rng = random.Random(1)
    for _ in range(12):
        nat = rng.sample(naturals_deck, 5)
        best = 0
        for three in combinations(nat, 3):
            pool = [c for c in DECK if c not in three]
            for a, b in combinations(pool, 2):
                best = max(best, ev.high_value([*three, a, b]))
        ranks = [c[0] for c in nat]
        trips = [r for r in ranks if ranks.count(r) >= 3]
        if trips:
            best = ev.FIVE_OF_A_KIND_BASE + max(ev.RANKS.index(r) for r in trips)
        assert ev.high_value_wild([*nat, "2c", "Xx"], WildSpec(True, "wild")) == best


def test_r10_7_bug_against_substitution() -> None:
    """The bug: the best of it as an ace, or as any card making a straight or flush."""
    naturals_deck = [c for c in DECK if c[0] != "2"]
    rng = random.Random(3)
    for _ in range(80):
        nat = rng.sample(naturals_deck, 6)
        best = ev.high_value(nat)
        for four in combinations(nat, 4):
            for sub in DECK:
                if sub in four:
                    continue
                v = ev.high_value([*four, sub])
                kind = ev.describe("high", [*four, sub]).words.key
                if sub[0] == "A" or "straight" in kind or "flush" in kind:
                    best = max(best, v)
        if [c[0] for c in nat].count("A") == 4:
            best = ev.FIVE_OF_A_KIND_BASE + 12
        assert ev.high_value_wild([*nat, "Xx"], BUG) == best


def test_r10_7_wild_low_against_substitution() -> None:
    """Wild cards in A-5 lows: the best over every rank they could take."""
    rng = random.Random(2)
    naturals_deck = [c for c in DECK if c[0] != "2"]
    for trial in range(90):
        w = 1 + trial % 3
        n = 5 if trial % 2 else 7
        nat = rng.sample(naturals_deck[:24] if trial % 4 < 2 else naturals_deck, n - w)
        wilds = ["2c", "2d", "Xx"][:w]
        best = 0
        for extra in combinations_with_replacement("A23456789TJQK", w):
            hand = [*nat, *(r + "hsdc"[i] for i, r in enumerate(extra))]
            # Rank multisets only matter for A-5 lows; suits are placeholders.
            lows = [ev._LOW_RANK[ev.RANKS.index(c[0])] for c in hand]
            best = max(best, max(ev._a5_five(f) for f in combinations(lows, 5)))
        assert ev.low_a5_value_wild([*nat, *wilds], WildSpec(True, "wild")) == best


def test_bench_figures_shape() -> None:
    from bench.evaluators import figures

    names = [name for name, _, _ in figures(300)]
    assert names == [
        "7-card high evaluations",
        "omaha high evaluations",
        "7-card a5 low evaluations",
        "7-card 2-7 low evaluations",
        "badugi evaluations",
    ]


def test_describe_too_few_cards_raises_value_error() -> None:
    with pytest.raises(ValueError):
        ev.describe("omaha_high", cards("Ac Kd Qh Js"), ())
    with pytest.raises(ValueError):
        ev.describe("omaha_low_8", cards("Ac Kd Qh Js"), cards("2c 3d"))
    with pytest.raises(ValueError):
        ev.describe("high", cards("Ac Kd"), cards("2c 3d"))
    with pytest.raises(ValueError):
        ev.describe("high", cards("Ac Kd Xx 4h 5h"))  # a joker, but no joker in the game
