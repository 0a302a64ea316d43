"""Short-deck (six-plus) hold'em: the 36-card deck, its ranking, and whole hands.

The rulebook has no short-deck section; the game follows pokerkit 0.7.7 and the PHH "NS"
variant (docs/rules-notes.md): sixes to aces, a flush beats a full house, A-9-8-7-6 is
the lowest straight, a straight still beats three of a kind. Betting is the hold'em core
(R-3 to R-8), with an optional button blind as in the Triton hand in tests/data/phh.
"""

from __future__ import annotations

import random

import pytest

from bot.poker.actions import AllIn, Call, Check, Fold
from bot.poker.cards import SHORT_DECK, stacked_deck
from bot.poker.errors import ConfigError
from bot.poker.evaluate import describe, short_deck_value, short_deck_words
from bot.poker.events import ForcedBet, PotAwarded
from bot.poker.hand import Hand
from bot.poker.rules import Rules
from tests.said import en, raises_saying

SHORT = Rules(variant="shortdeck", blinds_or_straddles=(1, 2), small_bet=2)


def _cards(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def test_short_deck_holds_36_cards_six_to_ace() -> None:
    assert len(SHORT_DECK) == 36 and len(set(SHORT_DECK)) == 36
    assert {c[0] for c in SHORT_DECK} == set("6789TJQKA")


def test_r10_short_deck_ranking_follows_pokerkit_examples() -> None:
    """pokerkit's ShortDeckHoldemHand docstring order: high card < trips < A-9-8-7-6
    straight < full house < flush."""
    hands = ["6c7d8h9sJc", "7c7d7hTsQc", "As6c7h8h9h", "AsAhKcKhKd", "6s7s8sTsQs"]
    values = [short_deck_value(_cards(h)) for h in hands]
    assert values == sorted(values) and len(set(values)) == 5


def test_r10_flush_beats_full_house_and_straight_beats_trips() -> None:
    flush = short_deck_value(_cards("6s7s8sTsQs"))
    boat = short_deck_value(_cards("AsAhAcKhKd"))
    straight = short_deck_value(_cards("6c7d8h9sTc"))
    trips = short_deck_value(_cards("AcAdAhKsQc"))
    assert flush > boat > straight > trips


def test_r10_ace_plays_low_only_below_the_six() -> None:
    low = short_deck_value(_cards("As6c7h8h9h"))
    six_to_ten = short_deck_value(_cards("6c7d8h9sTc"))
    ace_high = short_deck_value(_cards("AsKcQhJhTd"))
    assert low < six_to_ten < ace_high
    assert en(short_deck_words(low)) == "Nine-high straight"
    assert en(short_deck_words(short_deck_value(_cards("As6s7s8s9s")))) == (
        "Nine-high straight flush"
    )
    # A-9-8-7-6 suited is the lowest straight flush, still above four of a kind.
    assert short_deck_value(_cards("As6s7s8s9s")) > short_deck_value(_cards("AsAcAhAdKs"))


def test_r10_describe_names_the_hand_and_the_cards_used() -> None:
    d = describe("short_high", ["Ah", "6d"], ["9h", "7c", "8c", "Kh", "Ts"])
    assert en(d.words) == "Ten-high straight"
    assert set(d.used) == {"Ts", "9h", "8c", "7c", "6d"}
    low = describe("short_high", ["Ah", "6d"], ["9h", "7c", "8c", "Kh", "Qs"])
    assert en(low.words) == "Nine-high straight"
    assert low.used[-1] == "Ah"  # the ace shown last, where it plays


def test_r10_trips_beat_straights_option_swaps_only_those_two() -> None:
    """Variant shortdeck_trips: three of a kind above a straight; the rest unchanged."""
    straight = _cards("6c7d8h9sTc")
    trips = _cards("AcAdAhKsQc")
    boat = _cards("AsAhAcKhKd")
    flush = _cards("6s7s8sTsQs")
    two_pair = _cards("AcAdKhKsQc")

    def value(cards: list[str]) -> int:
        return short_deck_value(cards, trips_beat_straight=True)

    assert value(two_pair) < value(straight) < value(trips) < value(boat) < value(flush)
    assert en(describe("short_high_trips", trips).words) == "Three aces"


def test_r10_trips_variant_awards_the_set_over_the_straight() -> None:
    """The Triton hand's board with the trips ranking: Phua's set of kings beats
    Xuan's king-high straight (under the PHH ranking the straight wins)."""
    deck = stacked_deck(["QhQd", "KhKs"], "9h6cKcJhTs", full=SHORT_DECK)
    results = {}
    for code in ("shortdeck", "shortdeck_trips"):
        h = Hand(Rules(variant=code, blinds_or_straddles=(1, 2), small_bet=2), [100, 100], deck)
        while not h.over:
            legal = h.legal()
            h.apply(AllIn(legal.player) if legal.max_to is not None else Call(legal.player))
        results[code] = [e.winners for e in h.events if isinstance(e, PotAwarded)]
    assert results == {"shortdeck": [(0,)], "shortdeck_trips": [(1,)]}


def test_evaluator_refuses_cards_not_in_a_short_deck() -> None:
    with pytest.raises(ValueError, match="short deck"):
        short_deck_value(_cards("2c6d7h8s9c"))


def test_differential_against_pokerkit_short_deck_hands() -> None:
    """2,000 random heads-up showdowns from the short deck: the same winner (or tie) as
    pokerkit 0.7.7's ShortDeckHoldemHand."""
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random(20261123)
    for _ in range(2000):
        c = rng.sample(SHORT_DECK, 9)
        board = c[4:]
        a = pokerkit.ShortDeckHoldemHand.from_game("".join(c[:2]), "".join(board))
        b = pokerkit.ShortDeckHoldemHand.from_game("".join(c[2:4]), "".join(board))
        theirs = (a > b) - (a < b)
        va, vb = short_deck_value(c[:2] + board), short_deck_value(c[2:4] + board)
        assert (va > vb) - (va < vb) == theirs, c


def test_hand_deals_from_the_short_deck_only() -> None:
    h = Hand(SHORT, [100] * 6)
    assert len(h.deck) == 36 and set(h.deck) == set(SHORT_DECK)
    assert all(c[0] not in "2345" for cards in h.hole for c in cards)


def test_explicit_deck_with_a_deuce_is_refused() -> None:
    with raises_saying(ConfigError, "sixes to aces"):
        Hand(SHORT, [100] * 2, stacked_deck(["2c3c", "AsKs"]))


def test_wild_cards_are_refused_for_short_deck() -> None:
    with raises_saying(ConfigError, "without wild cards"):
        Rules(variant="shortdeck", wild="deuces")


def test_r11_flush_takes_the_pot_from_a_full_house() -> None:
    """All in preflop; the board gives p1 a full house and p2 a flush: the flush wins
    (R-2.5: every chip accounted for)."""
    deck = stacked_deck(["KhKd", "AsQs"], "KsTs6s7c7d", full=SHORT_DECK)
    h = Hand(SHORT, [100, 100], deck)
    total = h.total_chips()
    while not h.over:
        legal = h.legal()
        h.apply(AllIn(legal.player) if legal.max_to is not None else Call(legal.player))
    awards = [e for e in h.events if isinstance(e, PotAwarded)]
    assert [a.winners for a in awards] == [(1,)]
    assert h.stacks == [0, 200]
    assert h.total_chips() == total


def test_r3_button_blind_is_a_blind_and_action_starts_left_of_the_button() -> None:
    """Triton style: antes from everyone and one blind from the button (PHH position 5)."""
    rules = Rules(
        variant="shortdeck",
        antes=(10,) * 6,
        blinds_or_straddles=(0, 0, 0, 0, 0, 10),
        small_bet=10,
    )
    h = Hand(rules, [1000] * 6)
    kinds = [e.kind for e in h.events if isinstance(e, ForcedBet) and e.player == 5]
    assert kinds == ["ante", "blind"]
    assert h.to_act == 0
    assert h.legal().to_call == 10
    for p in range(5):
        h.apply(Fold(p) if p < 4 else Call(p))
    assert h.to_act == 5 and "check" in h.legal().actions  # the blind's option
    h.apply(Check(5))
    assert h.street.name == "flop"
    assert h.total_chips() == 6000
