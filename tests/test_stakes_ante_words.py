"""R-19.93: a hand's head says a big-blind ante as the level says it (R-19.21)."""

from __future__ import annotations

import pytest

from bot.poker.messages import Chips, Msg, Number, msg
from bot.table.predeal.choice import stakes_line
from bot.table.settings import TableSettings
from bot.table.stakes import stakes_of, stakes_parts
from bot.tournament.structure import Config
from bot.tourney_run.games import table_settings
from bot.words import SUPPORTED, render


def _parts(settings: TableSettings) -> list[Msg]:
    return stakes_parts(stakes_of(settings, "holdem", "no_limit", False))


def test_R_19_93_a_big_blind_ante_is_said_as_one() -> None:
    s = TableSettings(small_blind=150, big_blind=300, ante=300, ante_mode="big_blind")
    assert _parts(s)[-1] == msg("deal.stakes.big_blind_ante", amount=Chips(300))
    line = render(stakes_line(s, "holdem", "no_limit"), "en")
    assert "blinds 150/300, big blind ante 300" in line, line


def test_R_19_93_an_ante_each_player_pays_is_still_an_ante() -> None:
    s = TableSettings(small_blind=150, big_blind=300, ante=25, ante_mode="each")
    assert _parts(s)[-1] == msg("table.stakes.ante", amount=Chips(25))
    s = TableSettings(small_blind=150, big_blind=300, ante=100, ante_mode="button")
    assert _parts(s)[-1] == msg("deal.stakes.button_ante", amount=Chips(100))


@pytest.mark.parametrize("locale", SUPPORTED)
def test_R_19_93_the_head_and_the_level_use_the_same_words(locale: str) -> None:
    """The words the level line uses for the big-blind ante are the hand head's."""
    s = TableSettings(small_blind=150, big_blind=300, ante=300, ante_mode="big_blind")
    head = render(_parts(s)[-1], locale)
    level = render(
        msg(
            "tournament.level",
            level=Number(4),
            small=Chips(150),
            big=Chips(300),
            ante=Chips(300),
        ),
        locale,
    )
    assert head in level, (head, level)


def test_R_19_93_a_tournament_table_of_a_blinds_game_says_big_blind_ante() -> None:
    s = table_settings(Config()).changed({"small_blind": 150, "big_blind": 300, "ante": 300})
    assert "big blind ante 300" in render(stakes_line(s, s.variant, s.limit_for(s.variant)), "en")
