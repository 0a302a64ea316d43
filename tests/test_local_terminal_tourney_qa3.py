"""Tournament QA findings at the terminal: a player waiting to rebuy who types
something else is asked again, not told he is out; answers compared with accents and
case folded in every language (R-19.121). Chips constant throughout (R-2.5)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.local.words import Words
from bot.poker.messages import Chips, Count, Name, msg
from bot.table.clocks import ManualTime
from bot.words import Locale, render
from tests.test_local_terminal_tourney_play import _close, _open

ARGV = ["--tournament", "sng", "--players", "3", "--seed", "4", "--clock", "0", "--rebuys", "1"]


def _question(lang: Locale = "en") -> str:
    return render(
        msg("tournament.ask_rebuy", amount=Chips(1500), price=Chips(100), count=Count(60)), lang
    )


async def _answering(tmp_path: Path, lang: str, answers: list[str]) -> tuple[io.StringIO, bool]:
    """alice shoves until she busts and waits; while she waits she types ``answers``
    one by one (then quits). The output, and whether she rebought."""
    time = ManualTime()
    opened = await _open(tmp_path, [*ARGV, "--lang", lang, "alice"], time)
    tourney, _, out = opened
    script = iter(answers)

    async def lines() -> str | None:
        if tourney.run.waiting_entry("alice") is not None:
            return next(script, "quit")
        if "alice" in tourney.run.st.rebuys or "alice" in {
            f.entry for f in tourney.run.st.finishes
        }:
            return "quit"
        return "alice: all in"

    try:
        await tourney.play(lines)
        state = tourney.run.st
        tourney.run.check_chips()
        assert state.chips == (3 + sum(state.rebuys.values())) * 1500
        return out, state.rebuys.get("alice", 0) == 1
    finally:
        await _close(opened)


async def test_R_19_121_a_waiting_player_typing_else_is_asked_again(tmp_path: Path) -> None:
    """alice waits to rebuy and types an action, then an answer not understood: each
    time she is asked the question again (the seconds she has left, yes/no), never
    told she is out of the tournament; her yes then rebuys."""
    out, rebought = await _answering(tmp_path, "en", ["alice: call", "alice: yep", "alice: yes"])
    text = out.getvalue()
    assert text.count(f"! alice: {_question()}") == 2, text[-2000:]
    assert Words()("tourney.not_seated", name="alice") not in text
    assert rebought
    assert (
        render(msg("tournament.rebought", player=Name("alice"), amount=Chips(1500)), "en") in text
    )


@pytest.mark.parametrize(
    ("lang", "typed", "yes"),
    [("es", "alice: si", True), ("es", "alice: SÍ", True), ("pt_BR", "alice: nao", False)],
)
async def test_R_19_121_answers_are_taken_with_accents_and_case_folded(
    tmp_path: Path, lang: Locale, typed: str, yes: bool
) -> None:
    """Spanish ``si`` (no accent) or ``SÍ`` answers yes; Portuguese ``nao`` answers no:
    at once, with no question asked again."""
    out, rebought = await _answering(tmp_path, lang, [typed])
    assert rebought is yes
    assert f"! alice: {_question(lang)}" not in out.getvalue()
    if not yes:
        said = render(msg("tournament.no_rebuy", player=Name("alice")), lang)
        assert said in out.getvalue()


@pytest.mark.parametrize(("named", "word"), [(["alice"], "названного"), (["a", "b"], "названных")])
def test_R_19_123_the_players_refusal_counts_the_named_as_a_plural(
    named: list[str], word: str
) -> None:
    """--players below the players named is refused naming how many at least, the
    count agreeing with its noun: Russian says one ``названного``, two ``названных``
    (R-19.123)."""
    from bot.local.terminal import parse_args
    from bot.local.tourney import config_from_args
    from bot.local.words import choose

    args = parse_args(["--tournament", "sng", "--players", "1", "--lang", "ru", *named])
    said = config_from_args(args, len(named), Words(choose(args.lang)))
    assert isinstance(said, str)
    assert said.endswith(f"не меньше {len(named)} {word}"), said
