"""The terminal's queued purchases and its re-entry offer kept in the tournament's
journal (R-19.67): a terminal stopped with a rebuy queued during the player's hand
makes it once when the hand is over after the restart, and a player out who was asked
whether he enters again is not asked again by the restarted terminal."""

from __future__ import annotations

from pathlib import Path

from bot.local.words import Words
from bot.poker.messages import Chips, Name
from bot.tournament.log import Rebought
from tests.test_local_terminal_tourney_play import _close, _en, _open


async def test_R_19_67_a_rebuy_queued_at_the_terminal_is_made_once_after_a_restart(
    tmp_path: Path,
) -> None:
    """--rebuys 1: alice types `rebuy` on her turn (noted) and the terminal is stopped
    in that hand; started again on the file it carries the tournament on, and when her
    hand is over the rebuy is made, once."""
    argv = ["--tournament", "sng", "--players", "3", "--seed", "2", "--clock", "0"]
    argv += ["--rebuys", "1", "alice"]
    first = await _open(tmp_path, argv)
    script = iter(["alice: rebuy", "quit"])

    async def typed() -> str | None:
        return next(script)

    assert not await first[0].play(typed)
    assert Words()("tourney.after_hand", name="alice") in first[2].getvalue()
    assert first[0].run.st.rebuys == {} and first[0].run.table(1).state.in_hand
    await _close(first)

    again = await _open(tmp_path, argv)
    tourney, _, out = again
    try:
        assert [a.player for a in tourney.run.queue.waiting()] == ["alice"]
        script = iter(["alice: fold", "quit"])
        assert not await tourney.play(typed)
        text = out.getvalue()
        assert _en("tournament.rebought", player=Name("alice"), amount=Chips(1500)) in text
        state = tourney.run.st
        assert state.rebuys == {"alice": 1} and state.chips == 4 * 1500
        records = await tourney.run.journal.records()
        assert sum(1 for r in records if isinstance(r, Rebought)) == 1
        assert tourney.run.queue.waiting() == []
        tourney.run.check_chips()
    finally:
        await _close(again)


async def test_R_19_67_a_re_entry_offer_is_not_asked_again_after_a_restart(
    tmp_path: Path,
) -> None:
    """--late-reg 3 --reentry 1: alice shoves until she is out and is asked whether she
    enters again; the terminal is stopped at the question. Started again it does not
    ask again: the robots play on to the end, and she can still type `rebuy`."""
    argv = ["--tournament", "sng", "--players", "3", "--seed", "4", "--clock", "0"]
    argv += ["--late-reg", "3", "--reentry", "1", "alice"]
    asked = Words()("tourney.reentry", name="alice")
    first = await _open(tmp_path, argv)

    async def shove() -> str | None:
        return "quit" if first[2].getvalue().rstrip().endswith(asked) else "alice: all in"

    assert not await first[0].play(shove)
    assert first[2].getvalue().count(asked) == 1
    assert first[0].run.st.status == "running"
    await _close(first)

    again = await _open(tmp_path, argv)
    tourney, _, out = again

    async def nothing() -> str | None:
        return "quit"

    try:
        assert await tourney.play(nothing)  # played to the end, alice not asked
        assert asked not in out.getvalue()
        state = tourney.run.st
        assert [e.player for e in state.entries].count("alice") == 1
        assert state.chips == 3 * 1500 == tourney.run.chips_at_tables()
    finally:
        await _close(again)
