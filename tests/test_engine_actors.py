"""Who may act now (issue 14, "Engine"): ``Hand.actors`` and ``Hand.can_act``, and the
hand's queries that must answer in every phase (``Hand.street``)."""

from __future__ import annotations

from bot.poker.actions import Call, Check, Declare
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
