"""The final standings picture (R-19.70): places best first, shared places as a range,
prizes and bounties, the tournament's name and day, every word from the ``results``
catalogue in the reader's language, drawn with the shipped fonts; names in scripts the
fonts lack fall back cleanly. The golden images are in tests/test_cards_art_golden.py."""

from __future__ import annotations

import dataclasses
import datetime
import string
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.poker.messages import Count, Number, msg
from bot.words import SUPPORTED, Locale, render
from bot.words.catalog import read_catalog
from cards_art import Finisher, StandingsView, fonts, render_standings, samples
from cards_art.encode import palette
from cards_art.tourney_standings import MAX_ROWS, draw_standings


@contextmanager
def _drawn() -> Iterator[list[str]]:
    seen: list[str] = []
    real = fonts.put_text
    palette()

    def spy(img: Image.Image, xy: tuple[float, float], text: str, *a: Any, **kw: Any) -> None:
        seen.append(text)
        real(img, xy, text, *a, **kw)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fonts, "put_text", spy)
        yield seen


def _say(key: str, locale: Locale, **params: Any) -> str:
    return render(msg(key, **params), locale)


COLUMNS = ("results.col.place", "results.col.name", "results.col.prize", "results.col.bounties")


@pytest.mark.parametrize("locale", SUPPORTED)
def test_r19_70_standings_speak_the_readers_language(locale: Locale) -> None:
    """Every column label is the catalogue's in ``locale``; none of English's differing
    labels is drawn; the day is written in the locale's way."""
    view = samples.standings()
    with _drawn() as drawn:
        image = render_standings(view, locale=locale)
    for key in COLUMNS:
        assert _say(key, locale) in drawn, (key, drawn)
        english = _say(key, "en")
        if english != _say(key, locale):
            assert english not in drawn, (key, drawn)
    assert view.name in drawn
    untitled = _say("results.untitled", locale)  # the title is the host's, not the fallback
    assert untitled not in drawn
    assert any("2026" in text for text in drawn)
    assert image.alt_text.startswith(view.name)
    assert "Алексей" in image.alt_text and "李小龍" in image.alt_text


def test_r19_70_places_best_first_shared_places_as_a_range() -> None:
    """Each finisher is one row: his place (a range when shared, for each sharer), his
    name, prize and bounties; a view not best first is refused."""
    view = samples.standings()
    with _drawn() as drawn:
        render_standings(view)
    shared = _say("results.place.shared", "en", first=Number(4), last=Number(5))
    assert drawn.count(shared) == 2
    for f in view.finishers:
        if f.first == f.last:
            assert _say("results.place", "en", place=Number(f.first)) in drawn
    assert "450" in drawn and "270" in drawn and "180" in drawn and "40" in drawn
    with pytest.raises(ValueError):
        dataclasses.replace(view, finishers=tuple(reversed(view.finishers)))
    with pytest.raises(ValueError):
        Finisher(3, 2, "x", 0)


def test_r19_70_a_name_the_fonts_lack_is_drawn_as_player() -> None:
    """A name in a script the shipped fonts lack (CJK) is drawn as "Player", exactly as
    an empty name is, never as boxes; the alt text keeps it as typed."""
    base = samples.standings()
    odd = dataclasses.replace(base, finishers=(Finisher(1, 1, "李小龍", 900),))
    plain = dataclasses.replace(base, finishers=(Finisher(1, 1, "", 900),))
    a, b = draw_standings(odd), draw_standings(plain)
    assert ImageChops.difference(a, b).getbbox() is None
    latin = dataclasses.replace(base, finishers=(Finisher(1, 1, "Ana", 900),))
    assert ImageChops.difference(a, draw_standings(latin)).getbbox() is not None
    assert "李小龍" in render_standings(odd).alt_text


def test_r19_70_a_long_field_draws_the_first_rows_and_counts_the_rest() -> None:
    field = tuple(Finisher(i, i, f"P{i}", 100 if i == 1 else 0) for i in range(1, 46))
    view = StandingsView("Big one", datetime.date(2026, 1, 2), 45, 100, field)
    with _drawn() as drawn:
        image = render_standings(view, locale="de")
    assert f"P{MAX_ROWS}" in drawn and f"P{MAX_ROWS + 1}" not in drawn
    assert render(msg("results.more", more=Count(45 - MAX_ROWS)), "de") in drawn
    assert image.height > 30 * MAX_ROWS


def _texts(locale: Locale) -> list[str]:
    out: list[str] = []
    for m in read_catalog(locale, "results"):
        if m.id:
            out += [str(s) for s in m.string] if isinstance(m.string, tuple) else [str(m.string)]
    return out


@pytest.mark.parametrize("locale", SUPPORTED)
def test_r19_70_shipped_fonts_draw_every_results_word(locale: Locale) -> None:
    """Every character the results catalogue writes (accents, Cyrillic, º, –, …) has a
    glyph in the shipped fonts, so cleaning keeps it."""
    chars = {
        ch
        for text in _texts(locale)
        for lit, _, _, _ in string.Formatter().parse(text)
        for ch in lit
        if not ch.isspace()
    }
    assert chars
    for ch in sorted(chars):
        assert fonts.has_glyph(ch) and fonts.clean(ch) == ch, (locale, ch)
