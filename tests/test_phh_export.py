"""PHH export round trip: every exported hand replays to the same finishing stacks
through the same replayer as recorded hands (docs/phh.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.poker.cards import FULL_DECK, SHORT_DECK
from bot.poker.hand import Hand
from bot.poker.phh import DEALER, export_hand, replay_file
from tests.test_engine_privacy import random_action, rules_for

GAMES = [
    "holdem",
    "shortdeck",
    "shortdeck_trips",
    "omaha8",
    "stud",
    "razz",
    "27triple",
    "badugi",
    "draw5",
]


@pytest.mark.parametrize("code", GAMES)
def test_phh_export_replays_to_the_same_stacks(code: str, tmp_path: Path) -> None:
    rng = random.Random(f"export-{code}")
    for k in range(15):
        n = rng.randint(2, 5)
        stacks = [rng.choice([10, 60, 300]) for _ in range(n)]
        deck = list(SHORT_DECK if code.startswith("shortdeck") else FULL_DECK)
        rng.shuffle(deck)
        hand = Hand(rules_for(code, n), stacks, tuple(deck))
        while not hand.over:
            hand.apply(random_action(hand, rng))
        path = tmp_path / f"{code}-{k}.phh"
        path.write_text(
            export_hand(hand, [f"player{i}" for i in range(n)], viewer=DEALER), encoding="utf-8"
        )
        result = replay_file(path)
        assert result["ok"], result["error"]
        assert result["finishing_stacks"] == hand.stacks
        assert result["match"] is True


def test_phh_replay_cli_reports_json_per_hand(tmp_path: Path) -> None:
    rng = random.Random(7)
    hand = Hand(rules_for("holdem", 3), [100, 100, 100], FULL_DECK)
    while not hand.over:
        hand.apply(random_action(hand, rng))
    (tmp_path / "one.phh").write_text(export_hand(hand, viewer=DEALER), encoding="utf-8")
    (tmp_path / "bad.phh").write_text('variant = "ZZ"\nstarting_stacks = [1, 2]\nactions = []\n')
    out = subprocess.run(
        [sys.executable, "-m", "bot.poker", "replay", str(tmp_path), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert {Path(r["path"]).name: r["ok"] for r in lines} == {"one.phh": True, "bad.phh": False}
    bad = next(r for r in lines if not r["ok"])
    assert "not supported" in bad["error"] and "Traceback" not in out.stderr
    assert out.returncode == 1


@pytest.mark.parametrize("system", ["declare", "two_to_win", "guts"])
def test_phh_export_replays_home_game_systems(system: str, tmp_path: Path) -> None:
    """§13 and §15 hands export their declarations, calls, carried pot, markers, legs and
    reserve in underscore fields (docs/phh.md) and replay to the same stacks and state."""
    from bot.poker.rules import Limit, Rules

    rng = random.Random(f"systems-{system}")
    ids = ("ann", "bob", "cat", "dan")
    if system == "declare":
        rules = Rules(
            variant="omaha8",
            limit=Limit.POT_LIMIT,
            blinds_or_straddles=(1, 2),
            declare="simultaneous",
        )
    elif system == "two_to_win":
        rules = Rules(limit=Limit.FIXED, blinds_or_straddles=(1, 2), pot_system="two_to_win")
    else:
        rules = Rules(
            variant="guts", blinds_or_straddles=(), pot_system="guts", guts_stake=5, guts_max_pot=60
        )
    stacks = [400] * 4
    state = None
    carried = 0
    for k in range(12):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hand = Hand(rules, stacks, tuple(deck), carried=carried, player_ids=ids, pot_state=state)
        while not hand.over:
            hand.apply(random_action(hand, rng))
        path = tmp_path / f"{system}-{k}.phh"
        path.write_text(export_hand(hand, list(ids), viewer=DEALER), encoding="utf-8")
        result = replay_file(path)
        assert result["ok"], result["error"]
        assert result["finishing_stacks"] == hand.stacks and result["match"] is True
        state = hand.pot_state_out
        carried = hand.middle if state is None else 0
        stacks = list(hand.stacks)
        # Chips are conserved across hands, carried pots and reserves included.
        assert sum(stacks) + hand.middle == 1600
        if min(stacks) == 0:
            break


@pytest.mark.parametrize("code", ["stud", "stud8", "razz"])
def test_R_16_3_eight_handed_stud_with_a_shared_last_card_exports_and_replays(
    code: str, tmp_path: Path
) -> None:
    """R-16.3: eight players to seventh street leave four cards for eight: the last card
    is one shared card on the board. Every copy of the export (the dealer's, a player's,
    a spectator's) replays to the same stacks with ``python -m bot.poker replay --check``."""
    from bot.poker.__main__ import main as replay_main
    from bot.poker.actions import BringIn, Call, Check
    from bot.poker.events import BoardDealt
    from bot.poker.rules import Limit, Rules

    for seed in range(3):
        deck = list(FULL_DECK)
        random.Random(f"shared-{code}-{seed}").shuffle(deck)
        rules = Rules(
            variant=code, limit=Limit.FIXED, small_bet=2, big_bet=4, bring_in=1, antes=(1,) * 8
        )
        hand = Hand(rules, [100 + 7 * i for i in range(8)], tuple(deck))
        while not hand.over:
            legal = hand.legal()
            acts = legal.actions
            p = legal.player
            hand.apply(
                BringIn(p) if "bring_in" in acts else Check(p) if "check" in acts else Call(p)
            )
        shared = [e for e in hand.events if isinstance(e, BoardDealt)]
        assert len(shared) == 1 and shared[0].street == "seventh street"
        assert sum(hand.stacks) == sum(100 + 7 * i for i in range(8))
        paths = []
        for viewer in (DEALER, None, 0, 5):
            path = tmp_path / f"{code}-{seed}-{viewer}.phh"
            path.write_text(export_hand(hand, viewer=viewer))
            result = replay_file(path)
            assert result["ok"] and result["match"], result
            assert result["finishing_stacks"] == list(hand.stacks)
            paths.append(str(path))
        assert replay_main(["replay", *paths, "--check"]) == 0
