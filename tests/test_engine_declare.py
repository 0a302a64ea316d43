"""Hi-lo declare through the hand (§13): the declare phase, sealed chip-fist choices,
the reveal, resolution and carry-over, and what each player may see."""

from __future__ import annotations

import pytest

from bot.poker.actions import Call, Check, Declare, DeclareTimeout
from bot.poker.cards import stacked_deck
from bot.poker.errors import IllegalAction, NotYourTurn
from bot.poker.events import (
    DeclarationCommitted,
    DeclarationCount,
    DeclarationMade,
    DeclarationsRevealed,
    DeclareResolved,
    HandEnded,
    PotAwarded,
)
from bot.poker.hand import Hand
from bot.poker.rules import Limit, Rules
from bot.words import render
from tests.said import raises_saying

# Omaha hi-lo, three players: p0 has the nut low, p1 the best high, p2 nothing.
DECK = stacked_deck(["As2dKcQh", "KsKdJc9h", "7c7d6h6s"], board="3c4h8dKh9s", hole_count=4)


def to_declare(mode: str = "simultaneous", **kw: object) -> Hand:
    rules = Rules(
        variant="omaha8",
        limit=Limit.POT_LIMIT,
        blinds_or_straddles=(1, 2),
        declare=mode,  # type: ignore[arg-type]
        **kw,  # type: ignore[arg-type]
    )
    h = Hand(rules, [100, 100, 100], DECK)
    h.apply(Call(2))
    h.apply(Call(0))
    h.apply(Check(1))
    for _ in range(3):
        for p in (0, 1, 2):
            h.apply(Check(p))
    assert h.phase == "declare"
    return h


def test_r13_2_chip_fist_sealed_until_all_commit_then_revealed_at_once() -> None:
    h = to_declare()
    assert h.to_act is None and sorted(h.declare_pending()) == [0, 1, 2]
    events = h.apply(Declare(2, "high"))
    public = [e for e in events if e.audience is None]
    assert public == [DeclarationCount(committed=1, total=3)]
    private = [e for e in events if e.audience is not None]
    assert private == [DeclarationCommitted(player=2, choice="high", audience=2)]
    with raises_saying(IllegalAction, "final"):
        h.apply(Declare(2, "low"))  # a commitment is final
    h.apply(Declare(0, "low"))
    assert not any(isinstance(e, DeclarationsRevealed) for e in h.events)
    h.apply(Declare(1, "high"))
    reveal = [e for e in h.events if isinstance(e, DeclarationsRevealed)]
    assert reveal == [DeclarationsRevealed(choices=((0, "low"), (1, "high"), (2, "high")))]
    # Pot 6: high half 3 to p1, low half 3 to p0.
    awards = {(e.share, e.winners, e.amount) for e in h.events if isinstance(e, PotAwarded)}
    assert awards == {("high", (1,), 3), ("low", (0,), 3)}
    assert h.total_chips() == 300


def test_r13_2_public_events_never_carry_a_choice_before_the_reveal() -> None:
    h = to_declare()
    mark = len(h.events)
    for p, choice in ((1, "both"), (0, "low")):
        h.apply(Declare(p, choice))  # type: ignore[arg-type]
    for e in h.events[mark:]:
        if e.audience is None:
            assert not isinstance(e, DeclarationCommitted | DeclarationMade)
            assert "both" not in repr(e) and "low" not in repr(e)


def test_r13_2_timeout_default_fold() -> None:
    h = to_declare()
    h.apply(Declare(0, "low"))
    h.apply(Declare(1, "high"))
    h.apply(DeclareTimeout(2))
    assert h.folded[2] and h.over


def test_r13_2_timeout_default_high_option() -> None:
    h = to_declare(declare_default="high")
    h.apply(Declare(0, "low"))
    h.apply(Declare(1, "high"))
    h.apply(DeclareTimeout(2))
    reveal = next(e for e in h.events if isinstance(e, DeclarationsRevealed))
    assert (2, "high") in reveal.choices


def test_r13_3_in_turn_declaration_is_public_and_ordered() -> None:
    h = to_declare("in_turn")
    # Everyone checked the river: the player who began that round declares first.
    assert h.to_act == 0
    with pytest.raises(NotYourTurn):
        h.apply(Declare(1, "high"))
    h.apply(Declare(0, "low"))
    made = [e for e in h.events if isinstance(e, DeclarationMade)]
    assert made == [DeclarationMade(player=0, choice="low")]
    assert h.to_act == 1


def test_r13_6_everyone_both_nobody_wins_pot_carries() -> None:
    h = to_declare()
    for p in (0, 1, 2):
        h.apply(Declare(p, "both"))
    end = next(e for e in h.events if isinstance(e, HandEnded))
    assert end.carried == 6 and h.middle == 6
    assert h.total_chips() == 300
    resolved = next(e for e in h.events if isinstance(e, DeclareResolved))
    assert resolved.carried == 6 and resolved.messages


def test_r13_4_resolution_steps_name_players_by_token_for_the_presenter() -> None:
    """The engine knows positions, not names: steps name players by position, which the
    presenter names (a renderer given no names leaves {pN} tokens)."""
    h = to_declare()
    for p, choice in ((0, "high"), (1, "low"), (2, "high")):
        h.apply(Declare(p, choice))  # type: ignore[arg-type]
    resolved = next(e for e in h.events if isinstance(e, DeclareResolved))
    text = " ".join(render(m, "en") for m in resolved.messages)
    assert "Seat " not in text
    assert "{p0} high" in text and "{p1} low" in text and "{p2} high" in text, text


def test_r13_2_clock_runs_out_for_every_open_fist_at_once() -> None:
    """Nobody declares in time: all are folded together and the pot carries (as R-13.6),
    rather than the last one folded winning a pot he never declared for."""
    h = to_declare()
    h.apply(DeclareTimeout(0))
    end = next(e for e in h.events if isinstance(e, HandEnded))
    assert h.over and end.reason == "nobody declared"
    assert end.carried == 6 and h.middle == 6 and h.total_chips() == 300
    assert all(h.folded)


def test_r13_2_clock_out_leaves_the_one_who_declared() -> None:
    h = to_declare()
    h.apply(Declare(2, "low"))
    h.apply(DeclareTimeout(0))  # the shared clock: 0 and 1 both time out
    assert h.over and h.folded == [True, True, False]
    assert h.stacks[2] == 104  # he collects the pot of 6 (he put in 2)
