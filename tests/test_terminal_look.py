"""The terminal tournament's rough edges: eliminations announced lowest place first
(R-19.112), standings in columns (R-19.110), the help, prompts and refusals saying
the commands as the terminal takes them (R-19.111), robots buying again (R-19.113)."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
from pathlib import Path

import pytest

from bot.local import tourney
from bot.local.terminal import parse_args
from bot.local.words import Words, player_phrase
from bot.poker.messages import Count, Name, Number, msg
from bot.words import SUPPORTED, Locale, render
from tests.test_local_terminal_tourney import _run
from tests.test_tournament import _started


def _rows(text: str, lang: Locale = "en") -> list[str]:
    """The final standings' rows."""
    head = Words(lang)("tourney.standings", title=Words(lang)("tourney.title.sng"))
    assert head in text, text[-2000:]
    return [ln for ln in text.split(head, 1)[1].splitlines() if ln.startswith("  ")]


CARDS_IN_HELP = {
    "en": "cards",
    "de": "karten",
    "fr": "cartes",
    "es": "cartas",
    "pt_BR": "minhas cartas",
    "ru": "карты",
}


def test_R_19_112_players_out_in_one_hand_are_announced_lowest_place_first() -> None:
    """Three busted in one hand (different starting stacks, so places 4, 5, 6): told
    6th, 5th, 4th, each with his own prize line right after his; places recorded as
    R-19.34 ranks them; no chip made or lost."""
    d = _started(6, stack=1000, seats=9, payouts=(4000, 2500, 1500, 1000, 600, 400))
    a, b, c, e, *_ = d.seated(1)
    d.hand(1, {a: 1200, b: 900, c: 800, e: 1100})
    start = len(d.said)
    d.hand(1, {a: 0, b: 0, c: 0, e: 4000})
    places = {f.entry: f.first for f in d.state.finishes}
    assert places == {a: 4, b: 5, c: 6}  # more chips at the start, higher
    said = d.said[start:]
    outs = [m for m in said if m.key == "tournament.out"]
    assert [m.get("place") for m in outs] == [Number(6), Number(5), Number(4)]
    for out in outs:  # each prize follows its own player's out line
        i = said.index(out)
        assert said[i + 1].key == "tournament.prize"
        assert said[i + 1].get("player") == out.get("player")
    assert sum(d.state.stacks.values()) == d.state.chips


@pytest.mark.parametrize("lang", SUPPORTED)
def test_R_19_110_standings_columns_line_up_in_every_language(lang: str) -> None:
    words = Words(lang)  # type: ignore[arg-type]  # a supported language
    rows = [
        ("1.", words("tourney.place.who", name="Li"), "100"),
        ("10.", words("tourney.place.who", name="Alexandra"), "20"),
        ("20.–21.", words("tourney.place.who", name="李小龍"), "0"),
    ]
    lines = tourney.columns(rows)
    # The place ends and the money starts in one terminal cell column on every line.
    ends = {
        tourney.cells(ln[: ln.index(p) + len(p)]) for ln, (p, _, _) in zip(lines, rows, strict=True)
    }
    starts = {tourney.cells(ln[: ln.rindex(" ") + 1]) for ln in lines}
    assert len(ends) == 1 and len(starts) == 1, lines
    assert tourney.cells("李小龍") == 6


async def test_R_19_110_the_terminal_standings_line_up(tmp_path: Path) -> None:
    argv = ["--tournament", "sng", "--players", "10", "--robots", "--seed", "3", "--lang", "de"]
    code, text = await _run(tmp_path, argv)
    assert code == 0, text[-1500:]
    rows = _rows(text, "de")
    assert len(rows) == 10
    money = Words("de")("tourney.place.money", prize=Number(0), bounties=Number(0))
    word = money.split()[0]  # "Preisgeld"
    assert len({ln.index(word) for ln in rows}) == 1, "\n".join(rows)
    place_ends = {len(ln) - len(ln.lstrip()) + len(ln.split()[0]) for ln in rows}
    assert len(place_ends) == 1, "\n".join(rows)  # places right-aligned
    assert any(" Roboter 10: " in ln for ln in rows)  # the widest name sets the width


def test_R_19_111_the_tournament_help_names_itself_as_typed() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parse_args(["--tournament", "sng", "--help"])
    assert out.getvalue().startswith("usage: python -m bot --tournament sng "), out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parse_args(["--local", "--help"])
    assert out.getvalue().startswith("usage: python -m bot --local "), out.getvalue()


@pytest.mark.parametrize("lang", SUPPORTED)
def test_R_19_111_prompts_name_commands_in_the_terminal_s_words(lang: str) -> None:
    """The turn prompt's `cards` and the top-up example are words the terminal takes
    in its language, the same word its tournament help teaches."""
    words = Words(lang)  # type: ignore[arg-type]  # a supported language
    prompt = words("prompt.turn", name="alice", clock="")
    (typed,) = re.findall(r"`alice: ([^`]+)`", prompt)
    assert player_phrase(typed) == "cards" and typed == CARDS_IN_HELP[lang], prompt
    assert f"`alice: {typed}`" in words("tourney.help"), lang
    (top_up,) = re.findall(r"`alice: ([^`]+)`", words("top_up.usage", name="alice"))
    assert player_phrase(top_up).startswith("top up "), top_up
    (again,) = re.findall(r"`alice: ([^`]+)`", words("tourney.reentry", name="alice"))
    assert tourney.ENTRY_WORDS[player_phrase(again)] == "rebuy"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_R_19_111_players_refusal_with_nobody_named(lang: str) -> None:
    words = Words(lang)  # type: ignore[arg-type]  # a supported language
    args = parse_args(["--tournament", "sng", "--players", "11", "--robots"])
    said = tourney.config_from_args(args, 0, words)
    assert isinstance(said, str) and "2" in said and "10" in said
    assert " 0 " not in said, said
    named = tourney.config_from_args(argparse.Namespace(**{**vars(args), "entrants": 1}), 2, words)
    assert isinstance(named, str) and "2" in named.replace("2 ", "", 1), named


async def test_R_19_113_robots_re_enter_by_a_seeded_draw(tmp_path: Path) -> None:
    """`--robots` with `--reentry`: robots out while registration is open re-enter (a
    seeded draw), so the field has more entries than players; every entry is placed
    once and the prizes are the whole pool (R-2.5); the same seed plays the same."""
    argv = ["--tournament", "sng", "--players", "4", "--robots", "--seed", "1"]
    argv += ["--late-reg", "4", "--reentry", "2"]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    code, text = await _run(tmp_path / "a", argv)
    assert code == 0, text[-1500:]
    shape = render(msg("tournament.reentered", player=Name("X"), count=Count(5)), "en")
    assert shape == "X re-enters (5 entries)."  # what is looked for is the line's shape
    reentries = [
        ln for ln in text.splitlines() if re.fullmatch(r".+ re-enters \(\d+ entries\)\.", ln)
    ]
    assert reentries, text[:3000]
    rows = _rows(text)
    assert len(rows) == 4 + len(reentries)
    prizes = [int(re.findall(r"prize ([\d,]+)", row)[0].replace(",", "")) for row in rows]
    assert sum(prizes) == 100 * len(rows)  # the pool, every chip of it
    _, same = await _run(tmp_path / "b", argv)
    assert same == text


async def test_R_19_113_robots_answer_their_rebuy_wait(tmp_path: Path) -> None:
    argv = ["--tournament", "sng", "--players", "4", "--robots", "--seed", "1"]
    argv += ["--late-reg", "3", "--reentry", "2", "--rebuys", "2"]
    code, text = await _run(tmp_path, argv)
    assert code == 0, text[-1500:]
    waits = [ln for ln in text.splitlines() if " may rebuy " in ln]
    answers = [ln for ln in text.splitlines() if " rebuys: " in ln or " is out in place " in ln]
    assert waits and answers, text[:3000]
    assert len(_rows(text)) >= 4
