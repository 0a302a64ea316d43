"""The pictures' rough edges: the table picture says a hand as the table does at a
channel's later table (R-20.90); the standings picture's place column fits its
widest place, and its alt text shortens bounties as it does prizes (R-20.91)."""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.poker.messages import Name, Number, msg
from bot.table.handlabel import hand_label
from bot.words import Locale, render
from cards_art import fonts, render_table
from cards_art.encode import palette
from cards_art.tourney_standings import PAD, Finisher, StandingsView, render_standings
from cards_art.words import Words
from cogs.art import picture_key, to_art
from tests.test_picture_words import _table_view

SHOW = os.environ.get("CHIPFIST_SHOW_PICTURES")
"""A directory to write the pictures to, to look at them."""

Drawn = list[tuple[float, float, str, int, str]]


@contextmanager
def _placed() -> Iterator[Drawn]:
    """Every text a render puts on its picture, with where, its size and its anchor."""
    seen: Drawn = []
    real = fonts.put_text
    palette()

    def spy(
        img: Image.Image, xy: tuple[float, float], text: str, size: int, *a: Any, **kw: Any
    ) -> None:
        seen.append((xy[0], xy[1], text, size, str(kw.get("anchor", "la"))))
        real(img, xy, text, size, *a, **kw)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fonts, "put_text", spy)
        yield seen


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
async def test_R_20_90_the_table_picture_says_the_hand_with_its_table(locale: Locale) -> None:
    """At a channel's second table the corner and the alt text say "Hand #1 (table 2)"
    in the reader's language, with the label the table's words use; at its first
    table the number alone, as before."""
    first = await _table_view()
    later = replace(first, session=2)
    label = hand_label(later.session, later.hand_no)
    assert label != Number(later.hand_no)  # the table's words name the table here
    with _placed() as drawn:
        image = render_table(to_art(later), locale=locale)
    corner = render(msg("art.corner.hand", number=label), locale)
    table_words = render(label, locale)  # "1 (Tisch 2)"
    assert table_words in corner and corner in [t for _, _, t, _, _ in drawn], drawn
    assert render(msg("art.alt.hand", number=label), locale) in image.alt_text
    assert table_words in image.alt_text
    if SHOW:
        Path(SHOW, f"table_second_{locale}.png").write_bytes(image.data)
    with _placed() as drawn:
        alone = render_table(to_art(first), locale=locale)
    bare = render(msg("art.corner.hand", number=Number(first.hand_no)), locale)
    assert bare in [t for _, _, t, _, _ in drawn]
    assert table_words not in alone.alt_text
    # A later table's hand #1 is another picture than the first table's.
    assert picture_key(first) != picture_key(later)


def _field() -> StandingsView:
    rows = [Finisher(1, 1, "Zoë Ångström", 123_456_789, 50_000_000)]
    rows += [Finisher(2, 2, "Алексей", 40_000_000, 12_345_678)]
    rows += [Finisher(3, 99, f"P{i}", 0) for i in range(3)]
    rows += [Finisher(100, 112, "Bartholomew Fitzgerald-Smythe III", 0, 10)]
    return StandingsView("Sunday", datetime.date(2026, 11, 27), 112, 200_000_000, tuple(rows))


@pytest.mark.parametrize("locale", ["en", "de", "ru", "fr"])
def test_R_20_91_the_standings_place_column_fits_its_widest_place(locale: Locale) -> None:
    """ "100.–112." is drawn whole inside the row, not cut at the left edge, and every
    name starts right of every place."""
    view = _field()
    with _placed() as drawn:
        image = render_standings(view, locale=locale)
    w = Words(locale)
    places = {w("results.place.shared", first=Number(100), last=Number(112))}
    places |= {w("results.place", place=Number(1)), w("results.place", place=Number(2))}
    right_aligned = [(x, t, s) for x, _, t, s, anchor in drawn if anchor == "rm" and t in places]
    assert {t for _, t, _ in right_aligned} == places, drawn
    lefts = [x - fonts.width(t, s) for x, t, s in right_aligned]
    assert min(lefts) >= PAD, (locale, right_aligned)
    place_edge = max(x for x, _, _ in right_aligned)
    names = [x for x, _, t, _, anchor in drawn if anchor == "lm" and "Bartholomew" in t]
    assert names and min(names) > place_edge
    if SHOW:
        Path(SHOW, f"standings_wide_{locale}.png").write_bytes(image.data)


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
def test_R_20_91_the_standings_alt_text_shortens_bounties_as_prizes(locale: Locale) -> None:
    view = _field()
    alt = render_standings(view, locale=locale).alt_text
    w = Words(locale)
    for amount in (123_456_789, 50_000_000, 40_000_000, 12_345_678):
        assert w.amount(amount) in alt and w.amount(amount) != str(amount), (amount, alt)
    line = w(
        "results.alt_line",
        place=Name(w("results.place", place=Number(1))),
        name=Name("Zoë Ångström"),
        prize=Name(w.amount(123_456_789)),
        bounties=Name(w.amount(50_000_000)),
    )
    assert line in alt, alt
