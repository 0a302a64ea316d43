"""Invariant 2: no public event carries a card that is not public yet (hole cards, down
cards, draws, the deck), in every variant, over random hands."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from bot.poker.actions import (
    Action,
    AllIn,
    BringIn,
    Call,
    Check,
    Declare,
    Draw,
    Fold,
    GutsCall,
    RaiseTo,
)
from bot.poker.cards import FULL_DECK, SHORT_DECK
from bot.poker.events import BoardDealt, CardsDealt, Event, HandShown, OpenersShown
from bot.poker.hand import Hand
from bot.poker.rules import Limit, Rules
from bot.poker.variants import VARIANTS

CARDS = set(FULL_DECK)


def cards_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        if value in CARDS:
            yield value
    elif isinstance(value, tuple | list):
        for v in value:
            yield from cards_in(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name))


def random_action(hand: Hand, rng: random.Random) -> Action:
    if hand.phase == "guts":
        p = hand.to_act if hand.to_act is not None else rng.choice(hand.guts_pending())
        return GutsCall(p, rng.random() < 0.5)
    if hand.phase == "declare":
        p = hand.to_act if hand.to_act is not None else rng.choice(hand.declare_pending())
        return Declare(p, rng.choice(["low", "high", "both"]))
    legal = hand.legal()
    p = legal.player
    acts = legal.actions
    if "draw" in acts:
        k = rng.randint(0, legal.draw_max)
        return Draw(p, tuple(rng.sample(hand.hole[p], k)))
    if "bring_in" in acts:
        return BringIn(p) if rng.random() < 0.7 else RaiseTo(p, legal.min_to or 0)
    roll = rng.random()
    if legal.min_to is not None and roll < 0.25:
        return RaiseTo(p, rng.choice([legal.min_to, legal.max_to or legal.min_to]))
    if roll < 0.3 and "all_in" in acts:
        return AllIn(p)
    if "check" in acts:
        return Check(p)
    if roll < 0.85:
        return Call(p)
    return Fold(p)


def rules_for(code: str, n: int) -> Rules:
    variant = VARIANTS[code]
    if code == "guts":
        return Rules(variant=code, blinds_or_straddles=(), pot_system="guts", guts_stake=3)
    if variant.forced == "bring_in":
        return Rules(
            variant=code, limit=Limit.FIXED, antes=(1,) * n, bring_in=1, small_bet=2, big_bet=4
        )
    limit = Limit.FIXED if len(variant.streets) > 2 and code != "holdem" else Limit.NO_LIMIT
    return Rules(variant=code, limit=limit, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4)


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_invariant2_public_events_never_leak_private_cards(code: str) -> None:
    rng = random.Random(f"privacy-{code}")
    for _ in range(40):
        n = rng.randint(2, min(6, VARIANTS[code].max_players))
        stacks = [rng.choice([5, 30, 200]) for _ in range(n)]
        rules = rules_for(code, n)
        deck = list(SHORT_DECK if VARIANTS[code].deck == "short" else FULL_DECK)
        rng.shuffle(deck)
        hand = Hand(rules, stacks, tuple(deck))
        seen = 0
        while True:
            for event in hand.events[seen:]:
                check_public(hand, event)
            seen = len(hand.events)
            if hand.over:
                break
            hand.apply(random_action(hand, rng))
        assert hand.total_chips() == sum(stacks)


def check_public(hand: Hand, event: Event) -> None:
    if event.audience is not None:
        # A private event goes to its owner only and names only his cards or the board.
        owner = event.audience
        assert getattr(event, "player", owner) == owner
        return
    if isinstance(event, HandShown | OpenersShown):
        return  # the rules reveal these cards
    public: set[str] = set(hand.board)
    for i in range(hand.n):
        if hand.shown[i]:
            public.update(hand.hole[i])
        public.update(c for c, up in zip(hand.hole[i], hand.face_up[i], strict=True) if up)
    leaked = set(cards_in(event)) - public
    if isinstance(event, BoardDealt | CardsDealt):
        leaked -= set(cards_in(event)) & public
    assert not leaked, f"{type(event).__name__} leaks {sorted(leaked)}"


@pytest.mark.parametrize("code", ["omaha8", "stud8", "draw5hl"])
def test_r13_2_no_player_sees_another_declaration_before_the_reveal(code: str) -> None:
    """Property: over random declare hands, no event visible to player X carries player
    Y's declaration before the fists open together."""
    from bot.poker.events import DeclarationCommitted, DeclarationMade, DeclarationsRevealed

    rng = random.Random(f"sealed-{code}")
    played = 0
    for _ in range(60):
        n = rng.randint(2, 5)
        base = rules_for(code, n)
        rules = dataclasses.replace(base, declare="simultaneous")
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hand = Hand(rules, [200] * n, tuple(deck))
        while not hand.over:
            hand.apply(random_action(hand, rng))
        revealed_at = next(
            (k for k, e in enumerate(hand.events) if isinstance(e, DeclarationsRevealed)),
            len(hand.events),
        )
        played += revealed_at < len(hand.events)
        for viewer in range(n):
            for e in hand.events[:revealed_at]:
                if e.audience not in (None, viewer):
                    continue
                if isinstance(e, DeclarationCommitted | DeclarationMade):
                    assert e.player == viewer, f"{viewer} sees {e}"
                elif e.audience is None:
                    text = repr(e)
                    assert "'low'" not in text and "'high'" not in text and "'both'" not in text
    assert played > 5  # the property was exercised on real reveals
