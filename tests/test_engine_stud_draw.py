"""Stud and draw scenarios through the engine, named by rule (R-3.5, R-16.3, R-16.4,
R-12.2, R-4.6, R-11.4)."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.poker.actions import BringIn, Call, Check, Draw, Fold, RaiseTo
from bot.poker.cards import FULL_DECK, stacked_deck
from bot.poker.errors import IllegalAction
from bot.poker.events import (
    ActionTaken,
    BoardDealt,
    CardsDealt,
    DeckReshuffled,
    Drew,
    HandEnded,
    OpenersShown,
)
from bot.poker.hand import Hand
from bot.poker.rules import Limit, Rules

STUD = dict(variant="stud", limit=Limit.FIXED, bring_in=1, small_bet=4, big_bet=8)


def stud_deck(up: list[str], players: int) -> tuple[str, ...]:
    """A stud deck whose third-street door cards are ``up`` (two down cards each first)."""
    used = {c for c in up}
    rest = [c for c in FULL_DECK if c not in used]
    down = [rest.pop(0) for _ in range(2 * players)]
    return tuple(down + up + rest)


def test_r3_5_bring_in_lowest_card_suit_breaks_tie() -> None:
    # Two deuces showing: clubs is the lowest suit, so the 2c brings in.
    deck = stud_deck(["9h", "2d", "Kc", "2c"], 4)
    h = Hand(Rules(antes=(1,) * 4, **STUD), [100] * 4, deck)  # type: ignore[arg-type]
    assert h.to_act == 3
    legal = h.legal()
    assert legal.actions >= {"bring_in", "complete"}
    assert legal.to_call == 1 and legal.min_to == 4


def test_r3_5_razz_highest_card_brings_in_ace_low() -> None:
    deck = stud_deck(["Ah", "Kd", "Ks", "5c"], 4)
    rules = Rules(antes=(1,) * 4, **{**STUD, "variant": "razz"})  # type: ignore[arg-type]
    h = Hand(rules, [100] * 4, deck)
    assert h.to_act == 2  # the king of spades: highest rank, highest suit


def test_r3_5_bring_in_then_call_then_complete() -> None:
    deck = stud_deck(["9h", "2d", "Kc", "Qs"], 4)
    h = Hand(Rules(antes=(1,) * 4, **STUD), [100] * 4, deck)  # type: ignore[arg-type]
    assert h.to_act == 1
    with pytest.raises(IllegalAction):
        h.apply(Fold(1))  # the bring-in must bring it in or complete
    h.apply(BringIn(1))
    legal = h.legal()
    assert legal.player == 2 and legal.to_call == 1
    assert "complete" in legal.actions and legal.min_to == legal.max_to == 4
    h.apply(Call(2))  # a call of the bring-in
    h.apply(RaiseTo(3, 4))  # completion to the full small bet
    kinds = [e.kind for e in h.events if isinstance(e, ActionTaken)]
    assert kinds == ["bring_in", "call", "complete"]
    # The completion reopens the betting for the caller of the bring-in.
    h.apply(Call(0))
    h.apply(Call(1))
    legal = h.legal()
    assert legal.player == 2 and legal.min_to == 8


def test_r3_5_bring_in_may_complete_at_once() -> None:
    deck = stud_deck(["9h", "2d", "Kc", "Qs"], 4)
    h = Hand(Rules(antes=(1,) * 4, **STUD), [100] * 4, deck)  # type: ignore[arg-type]
    h.apply(RaiseTo(1, 4))
    assert [e.kind for e in h.events if isinstance(e, ActionTaken)] == ["complete"]
    assert h.legal().min_to == 8


def test_r16_3_later_rounds_open_with_best_hand_showing() -> None:
    # Door cards 9h 2d Kc Qs; fourth street gives 3c 4c Kd 5h: the pair of kings opens.
    up3 = ["9h", "2d", "Kc", "Qs"]
    up4 = ["3c", "4c", "Kd", "5h"]
    used = set(up3 + up4)
    rest = [c for c in FULL_DECK if c not in used]
    down = [rest.pop(0) for _ in range(8)]
    deck = tuple(down + up3 + up4 + rest)
    h = Hand(Rules(antes=(1,) * 4, **STUD), [100] * 4, deck)  # type: ignore[arg-type]
    h.apply(BringIn(1))
    for p in (2, 3, 0, 1):
        if h.to_act == p:
            h.apply(Call(p))
    assert h.street.name == "fourth street"
    assert h.to_act == 2
    assert h.legal().min_to == 4  # fourth street: still the small bet


def test_r16_3_shared_seventh_street_card_when_deck_runs_out() -> None:
    # Eight players: 8 x 6 = 48 cards by sixth street, 4 left: seventh street is one
    # shared card in the centre.
    rules = Rules(antes=(1,) * 8, **STUD)  # type: ignore[arg-type]
    h = Hand(rules, [1000] * 8, FULL_DECK)
    while not h.over:
        legal = h.legal()
        p = legal.player
        if "bring_in" in legal.actions:
            h.apply(BringIn(p))
        elif "check" in legal.actions:
            h.apply(Check(p))
        else:
            h.apply(Call(p))
    boards = [e for e in h.events if isinstance(e, BoardDealt)]
    assert len(boards) == 1 and boards[0].street == "seventh street"
    assert all(len(cards) == 6 for cards in h.hole)
    assert h.total_chips() == 8000


def test_r16_3_public_events_hide_down_cards() -> None:
    deck = stud_deck(["9h", "2d", "Kc", "Qs"], 4)
    h = Hand(Rules(antes=(1,) * 4, **STUD), [100] * 4, deck)  # type: ignore[arg-type]
    public = [e for e in h.events if isinstance(e, CardsDealt) and e.audience is None]
    for e in public:
        for card, up in zip(e.cards, e.face_up, strict=True):
            assert (card == "??") != up
    private = [e for e in h.events if isinstance(e, CardsDealt) and e.audience is not None]
    assert all(e.audience == e.player for e in private)


DRAW = dict(variant="draw5", limit=Limit.FIXED, small_bet=2, big_bet=4)


def _three_at_the_draw() -> Hand:
    """Five-card draw, three players, everyone in for the big blind: the draw begins."""
    deck = stacked_deck(["AsKsQsJs9h", "2c3d4h5s7c", "8c8d8h2d3c"])
    h = Hand(Rules(blinds_or_straddles=(1, 2), **DRAW), [100] * 3, deck)  # type: ignore[arg-type]
    h.apply(Call(2))
    h.apply(Call(0))
    h.apply(Check(1))
    assert h.phase == "draw" and h.to_act == 0
    return h


def test_r16_4_draw_counts_public_cards_private() -> None:
    h = _three_at_the_draw()
    h.apply(Draw(0, ("9h",)))
    public = [e for e in h.events if isinstance(e, Drew) and e.audience is None]
    private = [e for e in h.events if isinstance(e, Drew) and e.audience == 0]
    assert public[-1].count == 1 and public[-1].received == () and public[-1].discarded == ()
    assert private[-1].discarded == ("9h",) and len(private[-1].received) == 1
    with pytest.raises(IllegalAction):
        h.apply(Draw(1, ("As",)))  # not his card
    h.apply(Draw(1, ()))
    h.apply(Draw(2, ("2d", "3c")))
    assert h.phase == "betting" and h.to_act == 0
    assert h.legal().min_to == 4  # after the draw: the big bet


def test_r16_4_draw_runs_out_of_deck_reshuffles_others_discards() -> None:
    # Badugi, six players, three draws of four: the deck runs short and the earlier
    # discards (never the drawer's own) are shuffled to continue.
    rules = Rules(
        variant="badugi", limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4
    )
    h = Hand(rules, [1000] * 6, FULL_DECK)
    reshuffled = False
    while not h.over:
        legal = h.legal()
        p = legal.player
        if "draw" in legal.actions:
            before = list(h.hole[p])
            h.apply(Draw(p, tuple(before)))
            after = h.hole[p]
            assert not set(before) & set(after)  # never his own discards back
        elif "check" in legal.actions:
            h.apply(Check(p))
        else:
            h.apply(Call(p))
        reshuffled = reshuffled or any(isinstance(e, DeckReshuffled) for e in h.events)
        cards = [c for hand in h.hole for c in hand]
        assert len(cards) == len(set(cards))  # no card is ever in two hands
    assert reshuffled
    assert h.total_chips() == 6000


def test_r4_6_jacks_nobody_opens_deal_thrown_in_antes_stay() -> None:
    rules = Rules(
        blinds_or_straddles=(0, 0, 0),
        antes=(1, 1, 1),
        jacks_to_open=True,
        **DRAW,  # type: ignore[arg-type]
    )
    deck = stacked_deck(["2c3d4h5s7c", "9c9d2h3s4d", "KcQd8h6s4s"])
    h = Hand(rules, [100] * 3, deck)
    for p in (0, 1, 2):
        assert "bet" not in h.legal().actions  # no openers anywhere
        h.apply(Check(p))
    assert h.over
    end = [e for e in h.events if isinstance(e, HandEnded)][-1]
    assert end.reason == "not opened" and end.carried == 3
    assert h.total_chips() == 300


def test_r12_2_opener_shows_discarded_openers() -> None:
    rules = Rules(
        blinds_or_straddles=(0, 0, 0),
        antes=(1, 1, 1),
        jacks_to_open=True,
        **DRAW,  # type: ignore[arg-type]
    )
    deck = stacked_deck(["2c3d4h5s7c", "JcJd2h3s4d", "KcQd8h6s4s"])
    h = Hand(rules, [100] * 3, deck)
    h.apply(Check(0))
    h.apply(RaiseTo(1, 2))  # opens with jacks
    h.apply(Call(2))
    h.apply(Fold(0))
    h.apply(Draw(1, ("Jc", "Jd")))  # splits his openers, drawing to something else
    h.apply(Draw(2, ()))
    assert h.to_act == 1  # the opener starts the round after the draw
    h.apply(RaiseTo(1, 4))
    h.apply(Fold(2))
    shown = [e for e in h.events if isinstance(e, OpenersShown)]
    assert shown and shown[0].player == 1
    assert Counter(c[0] for c in shown[0].cards)["J"] == 2


def test_r4_4_a_player_may_fold_in_his_turn_to_draw() -> None:
    h = _three_at_the_draw()
    assert "fold" in h.legal().actions
    h.apply(Fold(0))
    assert h.folded[0] and h.phase == "draw" and h.to_act == 1
    h.apply(Draw(1, ()))
    h.apply(Fold(2))  # the last one left wins without drawing on
    assert h.over and h.stacks[1] == 104 and h.total_chips() == 300
