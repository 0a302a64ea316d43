"""The session's story picture (R-20.45, ``cards_art/story.py``): each player's stack
after each hand, its words from the ``record`` catalogue in the reader's language (every
character drawable by the shipped faces), its alt text naming first and last stacks,
and the same bytes for the same story."""

from __future__ import annotations

import pytest

from bot.words import SUPPORTED, Locale
from bot.words.catalog import read_catalog
from cards_art import StoryLine, StoryView, fonts, render_story
from tests.test_cards_art_words import _drawn_as_notdef

VIEW = StoryView(
    (1, 2, 3, 4),
    (
        StoryLine("Ann", (110, 95, 130, 160)),
        StoryLine("Bob", (None, 100, 80, 40)),  # sat down after hand 1
        StoryLine("Дмитрий", (90, 105, 90, None)),  # stood up before hand 4
    ),
)


@pytest.mark.parametrize("locale", SUPPORTED)
def test_R_20_45_story_words_are_drawable_in_every_language(locale: Locale) -> None:
    """R-20.45: every character of the story's words in each language has a glyph."""
    for m in read_catalog(locale, "record"):
        if not str(m.id).startswith("record.story."):
            continue
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for text in forms:
            for ch in str(text):
                if ch.isspace() or ch in "{}":
                    continue
                assert fonts.has_glyph(ch), (locale, m.id, ch)
                assert not _drawn_as_notdef(ch, True), (locale, m.id, ch)


@pytest.mark.parametrize("locale", SUPPORTED)
def test_R_20_45_story_picture_and_alt_text(locale: Locale) -> None:
    """R-20.45: a PNG of the theme's width, the same bytes each time, its alt text in
    the language asked for naming each player's first and last stack."""
    first = render_story(VIEW, locale=locale)
    again = render_story(VIEW, locale=locale)
    assert first.data == again.data and first.data.startswith(b"\x89PNG")
    assert first.filename == "story.png" and first.width == 900
    english = render_story(VIEW).alt_text
    assert "Ann" in first.alt_text and "160" in first.alt_text and "40" in first.alt_text
    assert (first.alt_text == english) == (locale == "en")


def test_R_20_45_story_refuses_a_line_without_a_point_per_hand() -> None:
    """R-20.45: a line has one point (or None) per hand; anything else is a caller's bug."""
    with pytest.raises(ValueError):
        StoryView((1, 2), (StoryLine("Ann", (1,)),))
