"""The Discord presenter's pictures get the table's words as data: the stakes as
``cards_art.Stakes`` (never the English stakes sentence), the game and the street as
messages, pot-system marks as ``art.tag.*`` messages; the picture says them in the
table's language."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from bot.poker.messages import Msg, Number, msg
from bot.table.view import StakesView, TableView
from bot.words import SUPPORTED, Locale, render
from cards_art import Stakes, Structure, render_showdown, render_table
from cogs.art import ShowdownNotes, art_stakes, showdown_art, to_art
from tests.harness import Harness
from tests.said import en as english_of
from tests.test_cards_art_words import _drawn_words, _english_fragments

SHOW = os.environ.get("CHIPFIST_SHOW_PICTURES")
"""A directory to write the pictures to, to look at them."""


async def _table_view() -> TableView:
    h = Harness()
    table = await h.seated(["ann", "bob", "cy"], buy_in=500, small_blind=5, big_blind=10, ante=1)
    await h.deal(table)
    return table.snapshot(None)


async def test_a_german_table_picture_takes_its_stakes_as_data() -> None:
    art = to_art(await _table_view())
    assert art.stakes == Stakes(Structure.NO_LIMIT, blinds=(5, 10), ante=1)
    assert art.variant == msg("game.holdem")
    assert isinstance(art.street, Msg)  # the street as a message, not English text
    with _drawn_words() as drawn:
        image = render_table(art, locale="de")
    if SHOW:
        Path(SHOW, "table_de_from_view.png").write_bytes(image.data)
    assert "No-Limit, Blinds 5/10, Ante 1" in " ".join(drawn), drawn  # two lines
    assert not any("blinds" in t or "No-limit" in t for t in drawn), drawn
    assert "Blinds 5/10" in image.alt_text and "blinds" not in image.alt_text
    with _drawn_words() as drawn:
        russian = render_table(art, locale="ru")
    if SHOW:
        Path(SHOW, "table_ru_from_view.png").write_bytes(russian.data)
    assert not any("blinds" in t.lower() for t in drawn), drawn


def test_stakes_data_maps_field_by_field_and_guts_has_no_structure() -> None:
    fixed = StakesView("stud8", "fixed", True, bets=(2, 4), bring_in=1, ante=1)
    title, stakes = art_stakes(fixed)
    assert title == msg("art.game.declare", game=msg("game.stud8"))
    assert stakes == Stakes(Structure.FIXED, bets=(2, 4), bring_in=1, ante=1)
    guts = StakesView("guts", None, stake=5, max_pot=40)
    assert art_stakes(guts)[1] == Stakes(None, stake=5, max_pot=40)
    # A showdown noted without a view: no title, and no stakes sentence read back.
    assert art_stakes(None) == ("", Stakes())


def test_the_showdown_picture_takes_its_stakes_as_data() -> None:
    notes = ShowdownNotes()
    notes.stakes = StakesView("holdem", "pot_limit", blinds=(1, 2))
    shown = showdown_art(notes)
    assert shown.stakes == Stakes(Structure.POT_LIMIT, blinds=(1, 2))
    assert shown.variant == msg("game.holdem")


async def test_R_15_3_guts_legs_and_markers_are_tags_as_messages() -> None:
    h = Harness()
    table = await h.seated(["ann", "bob"], variant="guts", guts_legs=3)
    view = table.snapshot(None)
    seat = view.seats[0]
    marked = replace(view, seats=(replace(seat, legs=2, marker=True), *view.seats[1:]))
    art = to_art(marked)
    tags = next(s.tags for s in art.seats if s.seat == seat.seat)
    assert tags == (Msg("art.tag.marker"), msg("art.tag.legs_of", legs=Number(2), need=Number(3)))


def test_showdown_hand_names_are_messages_said_in_the_pictures_language() -> None:
    """The showdown picture's hand names are the engine's messages (``hand.*``), drawn in
    the table's language, never its English description."""
    notes = ShowdownNotes(code="holdem")
    notes.stakes = StakesView("holdem", "no_limit", blinds=(1, 2))
    notes.board = ["Kc", "7h", "Ks", "2h", "9h"]
    notes.hands = [(1, "ann", ["Kh", "Kd"], ()), (2, "bob", ["Ah", "3h"], ())]
    notes.awards = [(0, 1, "ann", 40, "")]
    view = showdown_art(notes)
    said = [r.name for h in view.hands for r in h.readings]
    assert said and all(isinstance(n, Msg) and n.key.startswith("hand.") for n in said), said
    with _drawn_words() as drawn:
        image = render_showdown(view, locale="de")
    if SHOW:
        Path(SHOW, "showdown_de_from_notes.png").write_bytes(image.data)
    text = " ".join(drawn)
    for name in said:
        assert isinstance(name, Msg)
        assert render(name, "de") in text, (render(name, "de"), drawn)
        assert render(name, "en") not in text


async def test_a_russian_table_picture_draws_cyrillic_and_accents_and_falls_back_cleanly() -> None:
    """Names come to the picture as written: Cyrillic and accents are drawn; a name in a
    script the fonts lack (CJK) or of emoji alone is drawn as its seat, in the picture's
    language, never as tofu boxes; the alt text keeps every name as typed."""
    h = Harness()
    typed = ["Ёжик", "Zoë Ünal", "李小龍", "🔥🔥", "**big**"]
    table = await h.seated(typed, buy_in=500, small_blind=5, big_blind=10)
    await h.deal(table)
    view = table.snapshot(None)
    art = to_art(view)
    assert {s.name for s in art.seats if not s.empty} == set(typed)  # as written
    seat_of = {s.name: s.seat for s in view.seats}
    with _drawn_words() as drawn:
        image = render_table(art, locale="ru")
    if SHOW:
        Path(SHOW, "table_ru_names.png").write_bytes(image.data)
    assert {"Ёжик", "Zoë Ünal", "**big**"} <= set(drawn), drawn
    assert f"Место {seat_of['李小龍']}" in drawn and f"Место {seat_of['🔥🔥']}" in drawn
    assert not any("李" in t or "🔥" in t for t in drawn)
    assert "李小龍" in image.alt_text and "Ёжик" in image.alt_text


@pytest.mark.parametrize("locale", [loc for loc in SUPPORTED if loc != "en"])
async def test_a_played_hand_s_pictures_show_no_english(locale: Locale) -> None:
    """A hand played at the table (a fold, an all in, a showdown), drawn through the
    presenter's path in ``locale``: no English word of the art, engine or table
    catalogues is drawn or in the alt text, nor the English game, street or hand names."""
    h = Harness()
    table = await h.seated(["ann", "bob", "cy"], buy_in=500, small_blind=5, big_blind=10)
    await h.deal(table)
    await h.do(table, h.to_act(table), "fold")
    await h.do(table, h.to_act(table), "all in")
    view = table.snapshot(None)
    art = to_art(view)
    english = {
        *_english_fragments(locale),
        *(
            english_of(m)
            for m in (art.variant, art.street)
            if isinstance(m, Msg) and render(m, locale) != english_of(m)  # "Preflop" is shared
        ),
    }
    with _drawn_words() as drawn:
        image = render_table(art, locale=locale)
    folded = next(s for s in art.seats if s.folded)
    assert folded and any(s.all_in for s in art.seats)
    for fragment in english:
        assert not any(fragment in t for t in drawn), (locale, fragment, drawn)
        assert fragment not in image.alt_text, (locale, fragment, image.alt_text)
