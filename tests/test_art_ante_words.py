"""The table picture says one ante for the table as the hand's head does (R-19.93,
R-20.89)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.poker.messages import Chips, Name, msg
from bot.table.stakes import StakesView
from bot.words import SUPPORTED, render
from cards_art import Stakes, Structure, render_table
from cards_art.samples import holdem_words
from cards_art.table import stakes_text
from cards_art.words import Words
from cogs.art import art_stakes

HEAD = {"big_blind": "deal.stakes.big_blind_ante", "button": "deal.stakes.button_ante"}


@pytest.mark.parametrize("locale", SUPPORTED)
@pytest.mark.parametrize("mode", ["big_blind", "button"])
def test_R_20_89_the_picture_says_a_table_ante_as_the_head_does(locale: str, mode: str) -> None:
    w = Words(locale)
    stakes = Stakes(Structure.NO_LIMIT, blinds=(100, 200), ante=300, ante_mode=mode)
    said = stakes_text(stakes, w)
    head = render(msg(HEAD[mode], amount=Chips(300)), locale)
    parts = said.split(w("art.list.comma"))
    assert parts[-1].casefold() == head.casefold(), (said, head)
    assert w("art.stakes.ante", amount=Name("300")) not in parts  # not an ante each pays


@pytest.mark.parametrize("locale", SUPPORTED)
def test_R_19_93_an_ante_each_pays_is_still_said_as_one(locale: str) -> None:
    w = Words(locale)
    each = stakes_text(Stakes(Structure.NO_LIMIT, blinds=(100, 200), ante=25), w)
    assert each.endswith(w("art.stakes.ante", amount=Name("25")))


def test_R_19_93_the_table_view_carries_who_pays_the_ante_to_the_picture() -> None:
    data = StakesView("holdem", "no_limit", blinds=(100, 200), ante=300, ante_mode="big_blind")
    _, stakes = art_stakes(data)
    assert stakes.ante == 300 and stakes.ante_mode == "big_blind"
    _, each = art_stakes(dataclasses.replace(data, ante_mode="each"))
    assert each.ante_mode == "each"


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_R_20_89_the_picture_and_its_alt_text_say_the_big_blind_ante(locale: str) -> None:
    view = dataclasses.replace(
        holdem_words("Hold'em", "Flop"),
        stakes=Stakes(Structure.NO_LIMIT, blinds=(100, 200), ante=300, ante_mode="big_blind"),
    )
    picture = render_table(view, locale=locale)
    head = render(msg("deal.stakes.big_blind_ante", amount=Chips(300)), locale)
    assert head.casefold() in picture.alt_text.casefold(), picture.alt_text
    assert picture.data.startswith(b"\x89PNG")
