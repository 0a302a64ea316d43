"""Who may act now (issue 14, "Engine"): ``Hand.actors`` and ``Hand.can_act``, and the
hand's queries that must answer in every phase (``Hand.street``)."""

from __future__ import annotations

import random
from typing import get_args

import pytest

from bot.poker import ActionName, Actor, Phase
from bot.poker.actions import (
    Action,
    AllIn,
    Bet,
    BringIn,
    Call,
    Check,
    Declare,
    Draw,
    Fold,
    GutsCall,
    RaiseTo,
    Show,
)
from bot.poker.cards import stacked_deck
from bot.poker.hand import Hand
from bot.poker.rules import Limit, Rules


def _declare_hand() -> Hand:
    """Omaha hi-lo with chip-fist declarations (R-13.2), checked down to the declaration."""
    rules = Rules(
        variant="omaha8",
        limit=Limit.POT_LIMIT,
        blinds_or_straddles=(1, 2),
        declare="simultaneous",
    )
    h = Hand(rules, [100, 100, 100])
    h.apply(Call(2))
    h.apply(Call(0))
    h.apply(Check(1))
    while h.phase == "betting":
        assert h.to_act is not None
        h.apply(Check(h.to_act))
    return h


def test_r16_2_street_is_defined_after_the_last_street() -> None:
    """R-16.2 (a variant is a schedule of streets): once the last street is over (the
    declaration, the showdown, the end) ``Hand.street`` is the last street, not an
    IndexError."""
    h = _declare_hand()
    assert h.phase == "declare"
    assert h.street_index == len(h.variant.streets)
    assert h.street.name == h.variant.streets[-1].name
    for i in range(3):
        h.apply(Declare(i, "high"))
    assert h.over
    assert h.street.name == h.variant.streets[-1].name


# ---------------------------------------------------------------- Hand.actors / can_act


def _only_in_turn(h: Hand) -> None:
    """One player to act in turn: he alone is an actor, with the hand's ``legal()``."""
    assert h.to_act is not None
    assert h.actors() == (Actor(h.to_act, "in_turn", h.legal()),)
    assert [p for p in range(h.n) if h.can_act(p)] == [h.to_act]
    assert h.actor(h.to_act) == h.actors()[0]
    assert all(h.actor(p) is None for p in range(h.n) if p != h.to_act)


def test_r6_5_in_a_betting_round_only_the_player_to_act_may_act() -> None:
    """R-6.5: one player acts at a time, in turn; an action out of turn is refused.
    ``actors()`` names him alone, with exactly the legal actions of ``legal()``."""
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100, 100, 100])
    _only_in_turn(h)
    assert h.actors()[0].legal.actions == {"fold", "call", "raise", "all_in"}
    h.apply(Call(2))
    _only_in_turn(h)


def test_r16_4_draw_each_player_in_turn_may_draw() -> None:
    """R-16.4: players draw in turn; the drawer is the one actor, his actions draw/fold."""
    deck = stacked_deck(["AsKsQsJs9h", "2c3d4h5s7c", "8c8d8h2d3c"])
    rules = Rules(variant="draw5", limit=Limit.FIXED, blinds_or_straddles=(1, 2))
    h = Hand(rules, [100] * 3, deck)
    h.apply(Call(2))
    h.apply(Call(0))
    h.apply(Check(1))
    assert h.phase == "draw"
    _only_in_turn(h)
    assert h.actors()[0].legal.actions == {"draw", "fold"}
    h.apply(Draw(0, ("9h",)))
    _only_in_turn(h)
    assert h.to_act == 1


def test_r13_2_sealed_declarations_every_player_still_to_declare_may_act() -> None:
    """R-13.2 (chip-fist): all declare at once, sealed; each undeclared player is an
    actor until he declares, then not (his choice is final)."""
    h = _declare_hand()
    assert h.to_act is None
    actors = h.actors()
    assert [(a.position, a.turn) for a in actors] == [(0, "sealed"), (1, "sealed"), (2, "sealed")]
    assert all(a.legal.actions == {"declare"} for a in actors)
    h.apply(Declare(1, "low"))
    assert [a.position for a in h.actors()] == [0, 2]
    assert not h.can_act(1) and h.can_act(0) and h.can_act(2)
    h.apply(Declare(2, "high"))
    h.apply(Declare(0, "both"))
    assert h.over and h.actors() == () and not any(h.can_act(p) for p in range(3))


def test_r13_3_declaring_in_turn_is_one_actor_at_a_time() -> None:
    """R-13.3: declarations in turn: one actor, in turn."""
    rules = Rules(
        variant="omaha8", limit=Limit.POT_LIMIT, blinds_or_straddles=(1, 2), declare="in_turn"
    )
    h = Hand(rules, [100, 100, 100])
    h.apply(Call(2))
    h.apply(Call(0))
    h.apply(Check(1))
    while h.phase == "betting":
        assert h.to_act is not None
        h.apply(Check(h.to_act))
    assert h.phase == "declare"
    _only_in_turn(h)
    assert h.actors()[0].legal.actions == {"declare"}


def test_r15_2_guts_calls_are_sealed_and_simultaneous() -> None:
    """R-15.2: every player calls in or out at once, sealed; who has called is no
    longer an actor."""
    rules = Rules(variant="guts", blinds_or_straddles=(), pot_system="guts", guts_stake=5)
    h = Hand(rules, [100, 100, 100], player_ids=("a", "b", "c"))
    assert h.phase == "guts" and h.to_act is None
    assert [(a.position, a.turn) for a in h.actors()] == [
        (0, "sealed"),
        (1, "sealed"),
        (2, "sealed"),
    ]
    assert all(a.legal.actions == {"guts"} for a in h.actors())
    h.apply(GutsCall(2, True))
    assert [a.position for a in h.actors()] == [0, 1]
    assert not h.can_act(2)


def test_r8_4_waiting_player_may_show_before_his_turn() -> None:
    """R-8.4: a player only in the main pot *may* wait: while the side pot's player is
    asked, he is an actor who is ``waiting`` and may show at once (as real hand
    histories record it); the side pot's player is still asked next."""
    deck = stacked_deck(["2c3d", "AsAh", "KsKh"], "7c8d9hJc4s")
    h = Hand(Rules(blinds_or_straddles=(1, 2), showdown="manual"), [100, 20, 100], deck)
    h.apply(RaiseTo(2, 10))
    h.apply(Call(0))
    h.apply(AllIn(1))
    h.apply(Call(2))
    h.apply(Call(0))
    while h.street.name != "river":
        h.apply(Check(h.to_act or 0))
    h.apply(Bet(0, 10))
    h.apply(Call(2))
    h.apply(Show(0))
    assert [(a.position, a.turn) for a in h.actors()] == [(2, "in_turn"), (1, "waiting")]
    assert all(a.legal.actions == {"show", "muck"} for a in h.actors())
    assert h.can_act(1) and h.can_act(2) and not h.can_act(0)
    h.apply(Show(1))  # early, by right
    _only_in_turn(h)
    assert h.to_act == 2
    h.apply(Show(2))
    assert h.over and h.actors() == ()


def test_r6_6_actions_and_phases_are_the_exported_literal_names() -> None:
    """R-6.6: the legal actions offered are named by ``ActionName`` and the phases by
    ``Phase`` (exported from ``bot.poker``), whatever the game: random hands of every
    family, every actor's legal actions checked at every step."""
    names = set(get_args(ActionName))
    phases = set(get_args(Phase))
    games = [
        Rules(blinds_or_straddles=(1, 2)),
        Rules(variant="draw5", limit=Limit.FIXED, blinds_or_straddles=(1, 2)),
        Rules(variant="stud", limit=Limit.FIXED, bring_in=1, antes=(1, 1, 1)),
        Rules(
            variant="omaha8",
            limit=Limit.POT_LIMIT,
            blinds_or_straddles=(1, 2),
            declare="simultaneous",
        ),
        Rules(variant="guts", blinds_or_straddles=(), pot_system="guts", guts_stake=5),
    ]
    rng = random.Random(14)
    for rules in games:
        for _ in range(15):
            h = Hand(rules, [60, 60, 60], player_ids=("a", "b", "c"))
            while True:
                assert h.phase in phases
                actors = h.actors()
                if h.over:
                    assert actors == ()
                    break
                assert actors, h.phase
                for a in actors:
                    assert a.legal.actions <= names and a.legal.player == a.position
                    assert h.can_act(a.position)
                a = rng.choice(actors)
                h.apply(_random_action(a, rng, h))
            assert h.total_chips() == 180


def _random_action(a: Actor, rng: random.Random, h: Hand) -> Action:
    acts = a.legal.actions
    p = a.position
    if "declare" in acts:
        return Declare(p, rng.choice(("low", "high", "both")))
    if "guts" in acts:
        return GutsCall(p, rng.random() < 0.6)
    if "draw" in acts:
        return Draw(p, tuple(h.hole[p][: rng.randint(0, a.legal.draw_max)]))
    if "show" in acts:
        return Show(p)
    if "bring_in" in acts:
        return BringIn(p)
    if "check" in acts and rng.random() < 0.7:
        return Check(p)
    if "call" in acts and rng.random() < 0.8:
        return Call(p)
    if a.legal.min_to is not None and rng.random() < 0.5:
        return RaiseTo(p, a.legal.min_to) if not a.legal.opening else Bet(p, a.legal.min_to)
    return Fold(p) if "fold" in acts else Check(p)


async def test_r13_2_the_table_view_says_how_players_act_now() -> None:
    """R-13.2 at the table: the view carries the engine's answer (``acting``): one seat
    in turn while betting, every undeclared player at once (sealed) during a chip-fist
    declaration, nobody between hands; no presenter needs the phase to know."""
    from tests.harness import Harness

    h = Harness()
    table = await h.seated(
        ["a", "b", "c"], variant="omaha8", limit="pot_limit", declare="simultaneous"
    )
    assert table.snapshot().acting is None
    await h.deal(table)
    view = table.snapshot()
    assert view.acting == "in_turn" and view.to_act is not None
    while (hand := table.state.hand) is not None and hand.to_act is not None:
        word = "check" if "check" in hand.legal().actions else "call"
        assert (await h.do(table, h.to_act(table), word)).ok
    view = table.snapshot()
    assert view.acting == "sealed" and view.to_act is None and view.declare_pending == 3
    assert (await h.do(table, "b", "declare high")).ok
    assert table.snapshot().declare_pending == 2
    mine = table.snapshot("a")
    assert mine.legal is not None and mine.legal.actions == {"declare"}


def test_r13_2_legal_during_sealed_declarations_does_not_say_the_hand_is_over() -> None:
    """R-13.2: while everyone declares at once, ``legal()`` (the player in turn) has no
    answer, and says so, not "the hand is over"; ``actors()`` answers for each."""
    from bot.poker.errors import HandOver, NotYourTurn

    h = _declare_hand()
    with pytest.raises(NotYourTurn) as refused:
        h.legal()
    assert not isinstance(refused.value, HandOver)
    assert refused.value.msg.key == "refuse.all_at_once"
    assert len(h.actors()) == 3
