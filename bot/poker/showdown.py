"""Reading hands at the showdown: which evaluator a variant uses, and what a hand is.

The hand state machine asks this module for comparable values (higher is better, one per
half of a hi-lo pot; ``None`` where a hand does not qualify) and for the words shown to
players ("Kings full of sevens", "8-6-5-4-A low"). The arithmetic lives in
:mod:`bot.poker.evaluate`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.poker import evaluate as ev
from bot.poker.cards import Card
from bot.poker.messages import Msg
from bot.poker.variants import Evaluator, Variant

Scorer = Callable[[Sequence[Card], Sequence[Card]], int | None]


def _all(hole: Sequence[Card], board: Sequence[Card]) -> list[Card]:
    return [*hole, *board]


SCORERS: dict[Evaluator, Scorer] = {
    "high": lambda h, b: ev.high_value(_all(h, b)),
    "short_high": lambda h, b: ev.short_deck_value(_all(h, b)),
    "short_high_trips": lambda h, b: ev.short_deck_value(_all(h, b), trips_beat_straight=True),
    "omaha_high": lambda h, b: ev.omaha_high_value(h, b),
    "low_a5": lambda h, b: ev.low_a5_value(_all(h, b)),
    "low_a5_8": lambda h, b: ev.low_a5_value(_all(h, b), eight_or_better=True),
    "omaha_low_8": lambda h, b: ev.omaha_low_value(h, b, eight_or_better=True),
    "low_27": lambda h, b: ev.low_27_value(_all(h, b)),
    "badugi": lambda h, b: ev.badugi_value(_all(h, b)),
}


Wild = str
"""The ``Rules.wild`` setting: none, deuces, joker, joker_bug or deuces_joker."""


def _wild_spec(wild: Wild) -> ev.WildSpec:
    return ev.WildSpec(
        deuces_wild=wild in ("deuces", "deuces_joker"),
        joker="bug" if wild == "joker_bug" else "wild" if "joker" in wild else "none",
    )


def _wild_scorer(kind: Evaluator, wild: Wild) -> Scorer | None:
    """R-10.7: wild cards for high hands and ace-to-five lows, Omaha's shape included
    (the games they are dealt in). Deuce-to-seven, badugi and short deck have no
    wild-card ranking: :class:`~bot.poker.rules.Rules` refuses wild cards there."""
    spec = _wild_spec(wild)
    if kind == "high":
        return lambda h, b: ev.high_value_wild(_all(h, b), spec)
    if kind in ("low_a5", "low_a5_8"):
        eight = kind == "low_a5_8"
        return lambda h, b: ev.low_a5_value_wild(_all(h, b), spec, eight_or_better=eight)
    if kind == "omaha_high":
        return lambda h, b: ev.omaha_high_value_wild(h, b, spec)
    if kind == "omaha_low_8":
        return lambda h, b: ev.omaha_low_value_wild(h, b, spec, eight_or_better=True)
    return None


WILD_EVALUATORS = frozenset({"high", "low_a5", "low_a5_8", "omaha_high", "omaha_low_8"})
"""The evaluators with a wild-card ranking (R-10.7)."""


def evaluate_hand(
    variant: Variant, hole: Sequence[Card], board: Sequence[Card], wild: Wild = "none"
) -> tuple[int | None, ...]:
    """One value per showdown half of the variant (R-9.4: too few cards cannot win)."""
    if len(hole) + len(board) < 5 and variant.showdown != ("badugi",):
        return tuple(None for _ in variant.showdown)
    out: list[int | None] = []
    for kind in variant.showdown:
        scorer = _wild_scorer(kind, wild) if wild != "none" else None
        out.append((scorer or SCORERS[kind])(hole, board))
    return tuple(out)


def describe_hand_words(
    variant: Variant,
    hole: Sequence[Card],
    board: Sequence[Card],
    wild: Wild = "none",
    values: Sequence[int | None] | None = None,
) -> tuple[Msg | None, ...]:
    """The names of a shown hand as messages, one per half ("No low" where a low does
    not qualify; None where the cards make no hand of the kind yet).

    With the hand's ``values`` already known, high and ace-to-five names come straight
    from the values (no search for the five cards used), which keeps the showdown cheap.
    """
    out: list[Msg | None] = []
    for k, kind in enumerate(variant.showdown):
        value = values[k] if values is not None and k < len(values) else None
        if values is not None and kind in ("high", "omaha_high") and value is not None:
            out.append(ev.high_words(value))
            continue
        if values is not None and kind in ("low_a5", "low_a5_8", "omaha_low_8"):
            out.append(ev._a5_words(value) if value is not None else ev.NO_LOW)
            continue
        try:
            desc = ev.describe(kind, list(hole), list(board))
        except (ValueError, KeyError):
            out.append(None)
            continue
        out.append(desc.words if desc.value is not None else ev.NO_LOW)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class HandReading:
    """How a shown hand plays for one half of the pot: ``half`` is "high" or "low" in a
    hi-lo game and "" in a game with one winner per pot; ``used`` the cards it plays
    (own or board, display order), empty when the hand has no qualifying low or cannot
    be read; ``words`` its name as in :func:`describe_hand_words`."""

    half: Literal["", "high", "low"]
    used: tuple[Card, ...]
    words: Msg | None = None
    """The hand's name as a message (None when the hand cannot be read)."""


def read_hand(
    variant: Variant, hole: Sequence[Card], board: Sequence[Card], wild: Wild = "none"
) -> tuple[HandReading, ...]:
    """One reading per showdown half of ``variant`` with the cards each half uses
    (R-10.2 display order; R-10.5 "No low" plays no card). Only for hands the rules
    have shown: it reads exactly the cards it is given."""
    halves: tuple[Literal["", "high", "low"], ...] = (
        ("high", "low") if len(variant.showdown) == 2 else ("",)
    )
    out: list[HandReading] = []
    for half, kind in zip(halves, variant.showdown, strict=False):
        # The same wild cards the scorer uses, none for the other evaluators.
        spec = _wild_spec(wild) if _wild_scorer(kind, wild) is not None else ev.NO_WILD
        try:
            desc = ev.describe(kind, list(hole), list(board), wild=spec)
        except (ValueError, KeyError):
            out.append(HandReading(half, ()))  # too few cards: no hand to read
            continue
        if desc.value is None:
            out.append(HandReading(half, (), ev.NO_LOW))
        else:
            out.append(HandReading(half, tuple(desc.used), desc.words))
    return tuple(out)


def evaluate_stated(variant: Variant, stated: Sequence[Card]) -> int:
    """R-9.3: the high value of five stated natural cards."""
    return ev.high_value(list(stated))


_JACKS = ("Jc", "Jd", "4h", "3s", "2c")


def has_openers(cards: Sequence[Card], wild: Wild = "none") -> bool:
    """R-12.2 jacks or better: a pair of jacks or any better high hand. Wild cards
    (R-10.7) count as they do at the showdown: a joker with a jack is a pair of jacks."""
    if len(cards) < 5:
        return False
    scorer = _wild_scorer("high", wild) if wild != "none" else None
    value = scorer(cards, ()) if scorer is not None else ev.high_value(list(cards))
    return value is not None and value >= ev.high_value(list(_JACKS))


def openers_to_show(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards that prove openers: the paired ranks, or all five for a made hand
    (straight, flush and better need every card)."""
    ranks = [c[0] for c in cards]
    paired = tuple(c for c in cards if ranks.count(c[0]) >= 2)
    if paired and len(paired) < 5:
        return paired
    return tuple(cards)
