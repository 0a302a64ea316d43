"""The home-game options at the terminal: a bomb pot by vote (R-20.12) and the
run-it-twice answers typed (R-20.10)."""

from __future__ import annotations

import io
from pathlib import Path

from bot.local.terminal import run


async def _script(tmp_path: Path, lines: list[str], *players: str) -> str:
    out = io.StringIO()
    inp = io.StringIO("\n".join(lines) + "\n")
    code = await run(["--db", str(tmp_path / "l.sqlite3"), *players], inp=inp, out=out)
    assert code == 0
    return out.getvalue()


async def test_r20_12_bomb_pot_by_vote_at_the_terminal(tmp_path: Path) -> None:
    lines = ["a: bomb", "b: bomb no", "b: bomb yes", "c: bomb yes", "deal"]
    text = await _script(tmp_path, lines, "a", "b", "c")
    assert "a proposes a bomb pot for the next deal" in text
    assert "b votes no to the bomb pot." in text
    assert "a vote is final" in text
    assert "The bomb pot passed: the next deal is a bomb pot (R-20.12)." in text
    assert "Bomb pot: everyone antes 2" in text, text  # the next deal (the big blind)


async def test_r20_10_run_twice_typed_at_the_terminal(tmp_path: Path) -> None:
    # Whoever acts first shoves and the other calls (the other lines are refused).
    play = ["a: all in", "b: all in", "a: call", "b: call"]
    lines = ["set run_it_twice on", "deal", *play, "a: run twice yes", "b: run twice no"]
    text = await _script(tmp_path, lines, "a", "b")
    assert "Run the rest of the board twice?" in text
    assert "1 of 2 answered" in text or "1 of 2 has answered" in text, text
    assert "Not everyone agreed" in text, text
