"""Real hand histories replay to the recorded finishing stacks.

The hands are in the repository (``tests/data/phh``, see its README: every WSOP and
historical file of the source and 296 Pluribus hands). ``CHIPFIST_PHH_CORPUS=PATH``
replays a larger corpus instead (the source's ``data/`` directory, e.g. all 1,767
Pluribus hands); it is named in the test session's header, and a path that is not a
corpus fails the tests rather than skipping them.

Every hold'em and Omaha hand (NT, PO, FT, FO/8) must replay through
``bot.poker.phh.replay_file`` to the file's ``finishing_stacks``. Seven Pluribus hands
record an odd chip split as two half chips; R-11.2 gives the whole chip to the tied
winner nearest the button's left (PHH position 0 is the first seat left of the button,
so: the lowest PHH index), which these tests check independently of the replayer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.poker.phh import replay_file

REPO = Path(__file__).resolve().parents[1]
IN_REPO = REPO / "tests" / "data" / "phh"
CORPUS_ENV = "CHIPFIST_PHH_CORPUS"
# The in-repository hands by variant (tests/data/phh/README.md).
IN_REPO_COUNTS = {"NT": 308, "PO": 8, "FT": 7, "FO/8": 14}


def corpus() -> Path:
    """The hands to replay: the in-repository copy, or the corpus the variable names."""
    given = os.environ.get(CORPUS_ENV, "").strip()
    return Path(given).expanduser().resolve() if given else IN_REPO


PHH = corpus()
HOLDEM_OMAHA = ("NT", "PO", "FT", "FO/8")
HALF_CHIP_HANDS = (
    "pluribus/102/0.phh",
    "pluribus/32/23.phh",
    "pluribus/41b/204.phh",
    "pluribus/60/88.phh",
    "pluribus/88/128.phh",
    "pluribus/91/43.phh",
    "pluribus/91/53.phh",
)


@cache
def _raw(path: Path) -> dict[str, Any]:
    with path.open("rb") as f:
        return tomllib.load(f)


@cache
def files_by_variant() -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for path in sorted(PHH.rglob("*.phh")):
        out.setdefault(str(_raw(path)["variant"]), []).append(path)
    return out


def test_phh_data_is_present() -> None:
    """The hands are in the repository; a corpus given by CHIPFIST_PHH_CORPUS holds at
    least as many of each variant and an identical copy of every in-repository file (a
    wrong path fails here, it is never skipped)."""
    assert PHH.is_dir(), f"{CORPUS_ENV}={PHH}: no such directory"
    counts = {v: len(files_by_variant().get(v, [])) for v in HOLDEM_OMAHA}
    if PHH == IN_REPO:
        assert counts == IN_REPO_COUNTS
        return
    short = {v: n for v, n in counts.items() if n < IN_REPO_COUNTS[v]}
    assert not short, f"{CORPUS_ENV}={PHH} has fewer hands than the repository: {short}"
    different = [
        str(path.relative_to(IN_REPO))
        for path in sorted(IN_REPO.rglob("*.phh"))
        if not (PHH / path.relative_to(IN_REPO)).is_file()
        or (PHH / path.relative_to(IN_REPO)).read_bytes() != path.read_bytes()
    ]
    assert not different, f"not as in {PHH}: {different[:20]}"


def test_phh_data_ships_with_its_licence_notice() -> None:
    """The source is MIT-licensed; its notice must accompany the copied hands."""
    for name in ("LICENSE", "README.md"):
        text = (IN_REPO / name).read_text(encoding="utf-8")
        assert "Copyright (c) 2023 University of Toronto Computer Poker Research Group" in text
        assert "The above copyright notice and this permission notice shall be included" in text


@pytest.mark.parametrize("variant", HOLDEM_OMAHA)
def test_r8_r11_holdem_omaha_hands_replay_to_finishing_stacks(variant: str) -> None:
    failures: list[str] = []
    replayed = 0
    for path in files_by_variant()[variant]:
        result = replay_file(path)
        if not result["ok"]:
            failures.append(f"{path.relative_to(PHH)}: {result['error']}")
            continue
        raw = _raw(path)
        if "finishing_stacks" not in raw:
            continue  # the historical hands record no result (README)
        replayed += 1
        if result.get("match") is not True:
            failures.append(
                f"{path.relative_to(PHH)}: ours {result['finishing_stacks']}, "
                f"expected {result.get('expected_stacks')}"
            )
        # Chips are conserved: what the table started with is what it finished with.
        assert sum(result["finishing_stacks"]) == sum(raw["starting_stacks"])
    assert not failures, "\n".join(failures[:20])
    assert replayed >= len(files_by_variant()[variant]) - 1


@pytest.mark.parametrize("name", HALF_CHIP_HANDS)
def test_r11_2_half_chip_splits_give_the_odd_chip_to_the_lowest_index(name: str) -> None:
    path = PHH / name
    raw = [float(x) for x in _raw(path)["finishing_stacks"]]
    halves = [i for i, v in enumerate(raw) if v != int(v)]
    assert len(halves) == 2, "each of these hands splits one odd pot two ways"
    first, second = halves
    result = replay_file(path)
    assert result["ok"] and result["match"] is True
    ours = result["finishing_stacks"]
    # The chip nearest the button's left: the lower PHH index gets the ceiling.
    assert ours[first] == raw[first] + 0.5
    assert ours[second] == raw[second] - 0.5
    for i, v in enumerate(raw):
        if i not in halves:
            assert ours[i] == v
    assert result["expected_stacks"] == ours
    assert sum(ours) == sum(raw)
    # The replayer's pots show the split: an odd pot won by exactly these two players.
    split = [p for p in result["pots"] if len(p["winners"]) == 2]
    assert split, result["pots"]
    assert any(p["amount"] % 2 == 1 for p in split)


def test_r11_2_no_other_file_records_half_chips() -> None:
    found = []
    for paths in files_by_variant().values():
        for path in paths:
            raw = _raw(path).get("finishing_stacks", [])
            if any(float(x) != int(float(x)) for x in raw):
                found.append(str(path.relative_to(PHH)))
    assert sorted(found) == sorted(HALF_CHIP_HANDS)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.poker", "replay", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_cli_replay_check_holdem_omaha_exits_zero() -> None:
    paths = [str(p) for v in HOLDEM_OMAHA for p in files_by_variant()[v]]
    proc = _cli(*paths, "--check")
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == len(paths)
    assert all(line["ok"] for line in lines)
    assert "Traceback" not in proc.stderr


def test_short_deck_hand_replays_to_pokerkits_final_stacks() -> None:
    """The short-deck (NS) file has no finishing_stacks; pokerkit 0.7.7 documents this very
    hand (NoLimitShortDeckHoldem's docstring) ending at these stacks: Xuan's queens make
    a king-high straight on the river, which beats Phua's set of kings."""
    path = PHH / "phua-xuan-2019.phh"
    result = replay_file(path)
    assert result["ok"] is True, result["error"]
    assert result["finishing_stacks"] == [489000, 226000, 684000, 400000, 0, 198000]
    assert result["pots"] == [{"amount": 623000, "eligible": ["p3", "p5"], "winners": ["p3"]}]


def test_cli_unsupported_variant_reports_clearly(tmp_path: Path) -> None:
    """A PHH variant we do not play: ok false, a clear error, no traceback."""
    path = tmp_path / "kuhn.phh"
    path.write_text(
        'variant = "NK"\nantes = [1, 1]\nstarting_stacks = [2, 2]\nactions = ["d dh p1 Ks"]\n'
    )
    result = replay_file(path)
    assert result["ok"] is False
    assert result["variant"] == "NK"
    assert "NK" in result["error"] and "not supported" in result["error"]
    assert "internal error" not in result["error"]
    proc = _cli(str(path), "--check")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    line = json.loads(proc.stdout.strip())
    assert line["ok"] is False and line["error"] == result["error"]
    proc = _cli(str(path))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
