"""A busted player's rebuy wait at the terminal played as a person types it: yes typed
twice, a pause while the question stands, a rebuy typed during the hand he busts in,
and a decline followed by a re-entry under his numbered name (R-19.47 to R-19.49,
R-19.59, R-19.66, R-19.74). Every chip stays in play (R-2.5)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.poker.messages import Chips, Count, Name
from bot.table.clocks import ManualTime
from bot.words import render
from tests.test_local_terminal_tourney import _run
from tests.test_local_terminal_tourney_play import _asked, _close, _en, _open

SNG = ["--tournament", "sng", "--players", "3", "--seed", "4", "--clock", "0"]
QUESTION = _en("tournament.ask_rebuy", amount=Chips(1500), price=Chips(100), count=Count(60))


async def test_R_19_48_yes_typed_twice_rebuys_once_at_the_terminal(tmp_path: Path) -> None:
    """alice answers her rebuy question with yes, and types yes again at once (as a
    double click): one rebuy, one price in the pool, the second line answered as a line
    the table does not take, nothing else changed."""
    opened = await _open(tmp_path, [*SNG, "--rebuys", "2", "alice"], ManualTime())
    tourney, _, out = opened
    again: list[int] = []

    async def lines() -> str | None:
        if _asked(out):
            again.append(len(tourney.run.st.rebuys))
            return "alice: yes"
        if again and again[-1] >= 0:
            again.append(-1)
            rebuys = tourney.run.st.rebuys.get("alice", 0)
            assert rebuys == len([a for a in again if a >= 0]), (rebuys, again)
            return "alice: yes"
        return "alice: all in"

    try:
        assert await tourney.play(lines)
        state = tourney.run.st
        answers = [a for a in again if a >= 0]
        assert answers, out.getvalue()[-2000:]
        assert out.getvalue().count(f"alice: {QUESTION}") == len(answers)
        assert state.rebuys["alice"] == len(answers)  # each yes typed twice bought once
        rebought = _en("tournament.rebought", player=Name("alice"), amount=Chips(1500))
        assert out.getvalue().count(rebought) == len(answers)
        assert state.status == "finished"
        assert state.chips == (3 + sum(state.rebuys.values())) * 1500
        assert tourney.run.taken_at_end == state.chips
    finally:
        await _close(opened)


async def test_R_19_47_a_pause_while_the_question_stands_stops_its_time(
    tmp_path: Path,
) -> None:
    """alice is asked; the host types pause, two minutes pass (twice her 60 seconds),
    he types resume: her wait has not run out, she is asked again with her whole time
    and her yes rebuys."""
    time = ManualTime()
    opened = await _open(tmp_path, [*SNG, "--rebuys", "1", "alice"], time)
    tourney, _, out = opened
    said: list[str] = []

    async def lines() -> str | None:
        if said == ["pause"]:
            time.advance(120)
            await asyncio.sleep(0.3)  # the question looks at the clock meanwhile
            said.append("resume")
            return "resume"
        if _asked(out):
            if not said:
                said.append("pause")
                return "pause"
            said.append("yes")
            return "alice: yes"
        return "alice: all in"

    try:
        assert await tourney.play(lines)
        assert said == ["pause", "resume", "yes"], out.getvalue()[-2000:]
        state = tourney.run.st
        assert state.rebuys == {"alice": 1}  # the pause kept her wait
        assert out.getvalue().count(f"alice: {QUESTION}") == 2
        assert (
            _en("tournament.no_rebuy", player=Name("alice"))
            not in out.getvalue().split("alice: " + QUESTION)[1]
        )
        assert state.status == "finished" and tourney.run.taken_at_end == state.chips
    finally:
        await _close(opened)


async def test_R_19_66_a_rebuy_typed_in_the_hand_she_busts_in_is_made_after_it(
    tmp_path: Path,
) -> None:
    """alice types rebuy before each of her shoves: queued during the hand; the hand
    she busts in ends with her waiting and the queued rebuy buys her back in at once
    (she is not asked); the later ones, her only rebuy spent, are refused with a reason
    and buy nothing."""
    opened = await _open(tmp_path, [*SNG, "--rebuys", "1", "alice"], ManualTime())
    tourney, _, out = opened
    typed = [0]

    async def lines() -> str | None:
        if _asked(out):
            return "alice: no"
        typed[0] += 1
        return "alice: rebuy" if typed[0] % 2 else "alice: all in"

    try:
        assert await tourney.play(lines)
        state = tourney.run.st
        text = out.getvalue()
        assert state.rebuys == {"alice": 1}, text[-2000:]
        waits = _en(
            "tournament.waiting",
            player=Name("alice"),
            amount=Chips(1500),
            price=Chips(100),
            count=Count(60),
        )
        rebought = _en("tournament.rebought", player=Name("alice"), amount=Chips(1500))
        assert text.index(waits) < text.index(rebought)  # bought back from her wait
        assert f"alice: {QUESTION}" not in text  # the queued rebuy answered it
        assert text.count(rebought) == 1
        assert "! alice: " in text.split(rebought, 1)[1]  # later ones refused, told
        assert list(tourney.run.queue.waiting()) == []
        assert state.chips == (3 + sum(state.rebuys.values())) * 1500
        assert tourney.run.taken_at_end == state.chips
    finally:
        await _close(opened)


async def test_R_19_49_a_decline_then_rebuy_re_enters_as_alice_2(tmp_path: Path) -> None:
    """--rebuys 1 --reentry 1 --late-reg 3: alice busts, says no, and at once types
    rebuy: she is out, so it is her re-entry (R-19.49): a new entry "alice #2" with a
    starting stack and a new buy-in; no rebuy counted to either entry."""
    argv = [*SNG, "--rebuys", "1", "--reentry", "1", "--late-reg", "3", "alice"]
    opened = await _open(tmp_path, argv, ManualTime())
    tourney, _, out = opened
    answered = [0]

    async def lines() -> str | None:
        if _asked(out) and not answered[0]:
            answered[0] = 1
            return "alice: no"
        if answered[0] == 1:
            answered[0] = 2
            return "alice: rebuy"
        return "alice: no" if _asked(out) else "alice: all in"

    try:
        assert await tourney.play(lines)
        state = tourney.run.st
        text = out.getvalue()
        mine = [e for e in state.entries if e.player == "alice"]
        assert len(mine) == 2, text[-2000:]
        assert render(state.entry_names()[mine[1].entry], "en") == "alice #2"
        no = _en("tournament.no_rebuy", player=Name("alice"))
        assert no in text and text.index(no) < text.index("alice #2")
        assert "alice" not in state.rebuys  # she declined her rebuy
        assert len(state.finishes) == len(state.entries) == 4
        assert state.chips == (len(state.entries) + sum(state.rebuys.values())) * 1500
        assert tourney.run.taken_at_end == state.chips
    finally:
        await _close(opened)


async def test_R_19_56_horse_by_orbit_carries_a_game_across_a_level_change(
    tmp_path: Path,
) -> None:
    """--game horse --rotate orbit, four robots at a table of four seats: each game is
    dealt for four deals (a full table's orbit, even once players are out), in the
    HORSE order, and a level change in the middle of an orbit changes the stakes, not
    the game: each hand is dealt at the limits of the level in force."""
    argv = ["--tournament", "sng", "--players", "4", "--seed", "3", "--clock", "0"]
    code, text = await _run(tmp_path, [*argv, "--game", "horse", "--rotate", "orbit", "--robots"])
    assert code == 0, text[-1500:]
    limits = re.compile(r"^Level (\d+): limits (\d+)/(\d+);")
    hand = re.compile(r"^\[table 1\] Hand #(\d+): Fixed-limit (.+?), .*bets (\d+)/(\d+)")
    level: tuple[int, int, int] | None = None
    dealt: list[tuple[int, str, tuple[int, int, int]]] = []
    for line in text.splitlines():
        if m := limits.match(line):
            level = (int(m[1]), int(m[2]), int(m[3]))
        elif m := hand.match(line):
            assert level is not None and (int(m[3]), int(m[4])) == level[1:], line
            dealt.append((int(m[1]), m[2], level))
    assert [n for n, _, _ in dealt] == list(range(1, len(dealt) + 1))
    runs: list[tuple[str, list[int]]] = []
    for _, game, lvl in dealt:
        if runs and runs[-1][0] == game:
            runs[-1][1].append(lvl[0])
        else:
            runs.append((game, [lvl[0]]))
    order = [game for game, _ in runs]
    horse = order[:5]
    assert len(set(horse)) == 5 and order == [horse[i % 5] for i in range(len(order))], order
    assert all(len(levels) == 4 for _, levels in runs[:-1]), runs  # the last may end early
    assert any(len(set(levels)) > 1 for _, levels in runs), runs  # an orbit over a level
