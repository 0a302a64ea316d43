"""The one-line texts the table service posts for engine events (bot/table/notices.py)."""

from __future__ import annotations

from bot.poker.events import HandShown, PotAwarded
from bot.table.notices import describe

NAMES = {0: "alice", 1: "bob"}.__getitem__


def test_r12_4_hand_exposed_before_the_board_has_no_empty_name() -> None:
    """An all-in run-out exposes hands before the board is out: no "()" for the name."""
    text = describe(HandShown(player=0, cards=("Jc", "7d"), descriptions=("",)), NAMES)
    assert text == "alice shows Jc 7d"


def test_r9_2_shown_hand_and_pot_award_are_named() -> None:
    shown = HandShown(player=1, cards=("Ks", "Kd"), descriptions=("Three kings",))
    assert describe(shown, NAMES) == "bob shows Ks Kd (Three kings)"
    award = PotAwarded(
        pot_index=0, share="whole", amount=40, winners=(1,), amounts=(40,), hand="Three kings"
    )
    assert describe(award, NAMES) == "main pot: bob 40 with Three kings"


def test_r11_3_hi_lo_halves_are_labelled() -> None:
    low = PotAwarded(
        pot_index=1, share="low", amount=7, winners=(0,), amounts=(7,), hand="8-5-4-2-A low"
    )
    assert describe(low, NAMES) == "side pot 1 (low half): alice 7 with 8-5-4-2-A low"
