"""Stats of the night's record (R-20.42) checked against real hand histories
(tests/data/phh): each hand is replayed by the PHH reader through an engine hand
watched by the record's :class:`~bot.table.handstats.Tally`, and its profile folded by
the store's own row function (``bot/store/record.py``), as a hand's end is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.poker import phh
from bot.poker.hand import Hand
from bot.store.record import hand_rows, merge_days
from bot.table.handstats import Profile, Tally

DATA = Path(__file__).parent / "data" / "phh"


class _Watched(Hand):
    """An engine hand that shows each action to a tally before applying it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tally = Tally(self)

    def apply(self, action: Any) -> Any:
        self.tally.before(self, action)
        return super().apply(action)


def _replay(monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[_Watched, Profile, list[str]]:
    monkeypatch.setattr(phh, "Hand", _Watched)
    record = phh.load(DATA / name)
    hand = phh.play(record)
    assert isinstance(hand, _Watched)
    return hand, hand.tally.profile(hand), [str(p) for p in record.data["players"]]


def _rows(hand: _Watched, profile: Profile, players: list[str]) -> dict[str, tuple[int, ...]]:
    """The hand's day rows as the store's writer makes them, by player."""
    result = hand.result
    assert result is not None
    net = list(result.net)
    won = [max(0, net[i] + hand.contrib[i]) for i in range(hand.n)]
    payload = {"users": players, "net": net, "won": won, "reason": result.reason}
    days, _ = hand_rows("t", "hand_ended", payload, profile, 0)
    return {row[1]: row[3:] for row in days}


# (flop game, VPIP, PFR, at the showdown) per PHH player p1, p2, ...
HANDS = {
    # Dwan-Ivey 2009, hold'em: p3 Dwan opens to 7,000, p1 Ivey three-bets to 23,000,
    # p2 Antonius folds, Dwan calls; both go to the showdown.
    "dwan-ivey-2009.phh": (
        (True, True, True, True),
        (True, False, False, False),
        (True, True, True, True),
    ),
    # Pluribus 30/0: p3, p4 fold, p5 Bill raises to 225, everyone folds (no showdown).
    "pluribus/30/0.phh": (
        (True, False, False, False),
        (True, False, False, False),
        (True, False, False, False),
        (True, False, False, False),
        (True, True, True, False),
        (True, False, False, False),
    ),
    # Pluribus 100/9: folds to p1 MrPink (small blind), who completes (VPIP, no
    # raise); p2 MrBrown checks his big blind (not voluntary); both to the showdown.
    "pluribus/100/9.phh": (
        (True, True, False, True),
        (True, False, False, True),
        (True, False, False, False),
        (True, False, False, False),
        (True, False, False, False),
        (True, False, False, False),
    ),
    # Pluribus 100/3: p4 MrBlue raises to 225, p1 MrPink calls from the small blind,
    # p2 MrBrown calls from the big blind; MrPink's bet on the flop is no PFR.
    "pluribus/100/3.phh": (
        (True, True, False, False),
        (True, True, False, False),
        (True, False, False, False),
        (True, True, True, False),
        (True, False, False, False),
        (True, False, False, False),
    ),
    # Phua-Xuan 2019, short deck with a button blind: p1 and p2 call the blind (VPIP),
    # p3 Xuan raises, p5 Phua re-raises all in, p3 calls: p3 and p5 at the showdown.
    "phua-xuan-2019.phh": (
        (True, True, False, False),
        (True, True, False, False),
        (True, True, True, True),
        (True, False, False, False),
        (True, True, True, True),
        (True, False, False, False),
    ),
}


@pytest.mark.parametrize("name", sorted(HANDS))
def test_R_20_42_profile_of_real_hands(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """R-20.42: VPIP, PFR and the showdown, per player, of real hands as counted by hand
    (the comments above)."""
    _, profile, _ = _replay(monkeypatch, name)
    assert profile == HANDS[name]


def test_R_20_42_vpip_pfr_over_pluribus_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-20.42: over Pluribus 100/3 and 100/9 (the same six players), by hand:
    MrPink calls in both (VPIP 2 of 2 = 100%, PFR 0%); MrBrown calls in 100/3 and checks
    his option in 100/9 (VPIP 1 of 2 = 50%, PFR 0%); MrBlue raises in 100/3 and folds in
    100/9 (VPIP 50%, PFR 50%); MrPink wins 100/9 at the showdown, MrBrown loses it."""
    rows = []
    for name in ("pluribus/100/3.phh", "pluribus/100/9.phh"):
        hand, profile, players = _replay(monkeypatch, name)
        days, _ = hand_rows(
            "t",
            "hand_ended",
            {
                "users": players,
                "net": list(hand.result.net) if hand.result else [],
                "won": [
                    max(0, (hand.result.net[i] if hand.result else 0) + hand.contrib[i])
                    for i in range(hand.n)
                ],
                "reason": hand.result.reason if hand.result else None,
            },
            profile,
            20_000,
        )
        rows.extend(days)
    merged = {row[1]: row for row in merge_days(rows)}
    # (hands, flop hands, VPIP, PFR, showdowns, showdowns won)
    assert merged["MrPink"][3:9] == (2, 2, 2, 0, 1, 1)
    assert merged["MrBrown"][3:9] == (2, 2, 1, 0, 1, 0)
    assert merged["MrBlue"][3:9] == (2, 2, 1, 1, 0, 0)
    assert merged["MrWhite"][3:9] == (2, 2, 0, 0, 0, 0)
    # Won without a showdown: MrPink's flop bet in 100/3 takes it.
    assert merged["MrPink"][9] == 1
    # R-2.5: the hands' nets sum to zero (no rake in these records).
    assert sum(row[11] for row in merged.values()) == 0
