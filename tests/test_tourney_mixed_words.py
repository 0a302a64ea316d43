"""A mixed event's level as its players read it (R-19.50): the limits, the stud games'
ante and bring-in, the other games' blinds, the very bets its tables deal, on the
status board and in the level-up notice, in every language."""

from __future__ import annotations

import pytest

from bot.poker.messages import Chips, Msg
from bot.poker.variants import VARIANTS
from bot.tournament import director
from bot.tournament.director import State
from bot.tournament.structure import STUD_GAMES, Config, Level, is_mixed, preset
from bot.tourney_run import games
from bot.words import render
from bot.words.locales import SUPPORTED


def _horse(level: int = 0) -> State:
    config = Config(
        game=("horse",),
        stack=1000,
        schedule=preset("regular", 1000, unit="hands", forced="bring_in"),
        seats=8,
        rotate="deal",  # R-19.50's words; a level's own game is R-19.55's
    )
    return State(config, status="running", level=level)


def _chips(m: Msg, name: str) -> int:
    value = dict(m.params)[name]
    assert isinstance(value, Chips)
    return value.n


@pytest.mark.parametrize("level", [0, 3, 8])
def test_R_19_50_a_mixed_level_says_the_limits_the_stud_ante_and_the_blinds(level: int) -> None:
    state = _horse(level)
    said = state.level_words()
    assert said.key == "tournament.level_mixed"
    assert director.status(state)[0] == said
    item = state.config.schedule.level(level)
    assert isinstance(item, Level)
    # The words are the bets the tables deal at this level, game by game.
    flop = games.game_level(item, "bring_in", "holdem", True)
    stud = games.game_level(item, "bring_in", "stud", True)
    assert (_chips(said, "blind_small"), _chips(said, "blind_big")) == (
        flop.small_blind,
        flop.big_blind,
    )
    assert flop.ante == 0
    assert (_chips(said, "ante"), _chips(said, "bring_in")) == (stud.ante, stud.bring_in)
    assert (_chips(said, "small"), _chips(said, "big")) == (stud.small_bet, stud.big_bet)
    assert (flop.small_bet, flop.big_bet) == (stud.small_bet, stud.big_bet)


def test_R_19_50_a_stud_only_or_blinds_event_keeps_its_own_level_words() -> None:
    stud = Config(
        game=("stud", "razz"), schedule=preset("turbo", 1000, forced="bring_in"), rotate="deal"
    )
    assert State(stud).level_words().key == "tournament.level_stud"
    assert State(Config()).level_words().key == "tournament.level_no_ante"


@pytest.mark.parametrize(
    "game",
    [
        ("horse",),
        ("holdem:fixed", "razz:fixed"),
        ("omaha8", "stud8"),
        ("stud", "razz", "stud8"),
        ("holdem",),
        ("holdem", "omaha"),
        ("27triple:fixed", "razz"),
        ("shortdeck_trips", "stud"),
        ("HORSE",),
        ("badugi", "holdem"),
    ],
)
def test_R_19_50_the_director_knows_a_mixed_event_as_its_tables_do(
    game: tuple[str, ...],
) -> None:
    # Games as a rotation stores them (bot.table.games.split_rotation's forms).
    config = Config(game=game, seats=6)
    assert is_mixed(game) == config.mixed == games.is_mixed(config)


def test_R_19_50_the_directors_stud_games_are_the_engines() -> None:
    assert {code for code, v in VARIANTS.items() if v.forced == "bring_in"} == STUD_GAMES


def test_R_19_50_the_mixed_status_board_renders_in_every_language() -> None:
    state = _horse(4)
    lines = [*director.status(state), state.level_words()]
    english = [render(m, "en") for m in lines]
    assert "limits" in english[0] and "bring-in" in english[0]
    assert len(SUPPORTED) == 6
    for locale in SUPPORTED:
        for m, en in zip(lines, english, strict=True):
            text = render(m, locale)
            assert text and "{" not in text, (locale, m.key, text)
            for name in ("small", "big", "ante", "bring_in", "blind_small", "blind_big"):
                if name in dict(m.params):
                    assert str(_chips(m, name)) in text.replace("\u202f", "").replace(
                        "\xa0", ""
                    ).replace(",", "").replace(".", "")
            if locale != "en":
                # The language's own words, not the English sentence.
                assert text != en, (locale, m.key)
                assert "other games" not in text and "stud games" not in text, (locale, text)
