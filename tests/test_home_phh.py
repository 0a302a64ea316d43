"""PHH export of the home-game options (docs/phh.md, docs/RULES.md §20): the second
board, the run-it-twice answers, cards shown by choice, the 7-2 bounty and the rabbit
hunt are written, and the exported hand replays to the same stacks."""

from __future__ import annotations

import tomllib
from pathlib import Path

from bot.poker.actions import AllIn, Check, Fold, RunItTwice, ShowCards
from bot.poker.cards import stacked_deck
from bot.poker.hand import Hand
from bot.poker.home import SevenDeuce, rabbit_hunt, seven_deuce
from bot.poker.phh import DEALER, export_hand, replay_file
from bot.poker.rules import Rules


def replayed(hand: Hand, text: str, tmp_path: Path) -> dict[str, object]:
    path = tmp_path / "hand.phh"
    path.write_text(text, encoding="utf-8")
    result = replay_file(path)
    assert result["ok"], result["error"]
    assert result["finishing_stacks"] == hand.stacks
    return tomllib.loads(text)


def test_r20_2_run_it_twice_exports_both_runs_and_the_answers(tmp_path: Path) -> None:
    deck = stacked_deck(["2h3h", "AsAd", "KsKd"], "2c7d9h4s5c" + "Kh8c3sJdTc")
    hand = Hand(Rules(run_it_twice=True), [100, 100, 100], deck)
    for action in (AllIn(2), Fold(0), AllIn(1), RunItTwice(2, True), RunItTwice(1, True)):
        hand.apply(action)
    assert hand.ran_twice and hand.stacks == [99, 101, 100]
    text = export_hand(hand, viewer=DEALER)
    data = replayed(hand, text, tmp_path)
    assert data["_run_it_twice"] == ["p2=yes", "p3=yes"]
    assert data["_second_board"] == "Kh8c3sJdTc"
    assert data["_second_board_kind"] == "run_twice"
    assert "d db Kh8c3s # second board" in text
    assert any(a.startswith("0:whole:1:") for a in data["_awards_by_board"])  # type: ignore[union-attr]
    # The spectator's copy has the same public fields and no hole card of the folded hand.
    public = tomllib.loads(export_hand(hand, viewer=None))
    assert public["_run_it_twice"] == data["_run_it_twice"]
    assert "2h3h" not in export_hand(hand, viewer=None)


def test_r20_5_double_board_bomb_pot_exports_and_replays(tmp_path: Path) -> None:
    boards = "Ac7d9h" + "Kc8d3s" + "2s" + "Jh" + "4d" + "Tc"
    hand = Hand(
        Rules(bomb_pot_ante=5, double_board=True),
        [50, 50, 50],
        stacked_deck(["AsAd", "KsKd", "QsQd"], boards),
    )
    while not hand.over:
        hand.apply(Check(hand.legal().player))
    data = replayed(hand, export_hand(hand, viewer=DEALER), tmp_path)
    assert data["_second_board"] == "Kc8d3sJhTc"
    assert data["_second_board_kind"] == "double_board"
    rules = data["_chipfist_rules"]
    assert isinstance(rules, str) and '"bomb_pot_ante": 5' in rules
    assert '"double_board": true' in rules


def test_r20_8_cards_shown_by_choice_export_and_replay(tmp_path: Path) -> None:
    hand = Hand(Rules(), [50, 50, 50], stacked_deck(["7h2c", "QsJd", "Ah3s"], "7d2s9cKd4h"))
    hand.apply(Fold(2))
    hand.apply(Fold(0))
    hand.apply(ShowCards(1, ("Qs",)))
    text = export_hand(hand, viewer=None)
    data = replayed(hand, text, tmp_path)
    assert data["_shown_by_choice"] == ["p2=Qs"]
    assert "Jd" not in text  # the card he kept hidden stays hidden


def test_r20_7_seven_deuce_and_rabbit_hunt_fields(tmp_path: Path) -> None:
    hand = Hand(Rules(), [50, 50, 50], stacked_deck(["Ah3s", "QsJd", "7h2c"], "7d2s9cKd4h"))
    hand.apply(AllIn(2))
    hand.apply(Fold(0))
    hand.apply(Fold(1))
    hand.apply(ShowCards(2, ("7h", "2c")))
    bounty = seven_deuce(hand, SevenDeuce(bounty=10))
    assert bounty is not None
    hunted = rabbit_hunt(hand)
    data = replayed(hand, export_hand(hand, viewer=None, after=(bounty, hunted)), tmp_path)
    assert data["_seven_deuce"] == ["p1>p3=10", "p2>p3=10"]
    assert data["_seven_deuce_bounty"] == 10
    assert data["_rabbit_hunt"] == "7d2s9cKd4h"
