"""Chipfist's pictures: table, hole cards, showdown, chip-fist reveal, session chart,
the session's story and a tournament's final standings.

Turns the plain view-models of :mod:`cards_art.model` into PNG images with alt text, in
the reader's language (every entry point takes ``locale=``; the words are the ``art``
catalogue's, :mod:`cards_art.words`). No discord, table or engine imports: only the
message type and the catalogue (:mod:`bot.words`). Every render function is a pure function of its
input (same bytes for the same view on the same Pillow) and thread-safe: sprites,
fonts and the palette are built once under locks, and each call uses its own canvas
and ImageDraw, so the table service may call these from worker threads.

Golden images (``tests/golden/*.png``) are regenerated, from the repository root, with::

    python -m tests.golden_make
"""

from __future__ import annotations

from PIL import Image

from cards_art import encode as _encode
from cards_art.encode import RenderedImage
from cards_art.model import (
    NO_WILD,
    ONLY_POT,
    RESERVE,
    Award,
    DeckStyle,
    Declaration,
    Fist,
    LedgerLine,
    LedgerView,
    Pot,
    PotKind,
    PotView,
    Reading,
    RevealView,
    SeatView,
    Second,
    ShowdownView,
    ShownHand,
    Stakes,
    StoryLine,
    StoryView,
    Structure,
    StudCard,
    TableView,
    Wild,
)
from cards_art.panels import render_hole_cards, render_ledger, render_reveal, render_showdown
from cards_art.story import render_story
from cards_art.table import render_table
from cards_art.tourney_standings import Finisher, StandingsView, render_standings
from cards_art.words import Text


def _reference_pictures() -> list[Image.Image]:
    """Pictures holding every colour the renderers use; the shared palette is
    computed from them once (see :mod:`cards_art.encode`)."""
    from cards_art import panels, samples, table

    return [
        table.draw_table(samples.holdem(9)),
        table.draw_table(samples.stud7()),
        table.draw_table(samples.draw5()),
        panels.draw_showdown(samples.showdown_split()),
        panels.draw_reveal(samples.reveal()),
        panels.draw_ledger(samples.ledger()),
        panels.draw_hole_cards(
            ("As", "Kh", "Qd", "Jc", "2s", "Xx", "Th"),
            deck=DeckStyle.FOUR_COLOUR,
            wild=Wild(ranks=("2",)),
            down=(True, True),
        ),
    ]


def _theme_colours() -> list[tuple[int, int, int]]:
    from cards_art import panels, sprites

    colours = [
        sprites.INK,
        sprites.WHITE,
        sprites.MUTED,
        sprites.GOLD,
        sprites.GREEN_TEXT,
        sprites.RED_TEXT,
        sprites.LOW_BLUE,
        sprites.JOKER_COLOUR,
        sprites.BACKDROP,
        sprites.PLATE,
        sprites.PLATE_EDGE,
        (200, 40, 50),  # chip
        (196, 38, 50),  # all-in badge
        (200, 40, 40),  # urgent clock
        (150, 28, 48),  # card back
        (46, 170, 96),  # ledger gain
        (206, 64, 64),  # ledger loss
        (252, 252, 248),  # card face
        (214, 226, 246),  # down card face
        (44, 62, 110),  # down card band
        (120, 60, 0),  # wild star
        panels.SKIN,
        panels.SKIN_EDGE,
    ]
    colours += list(sprites.TWO_COLOUR.values()) + list(sprites.FOUR_COLOUR.values())
    colours += [c[:3] for c in panels.DECL_COLOURS.values()]
    return colours


_encode.set_reference(_reference_pictures, _theme_colours())

__all__ = [
    "NO_WILD",
    "ONLY_POT",
    "RESERVE",
    "Award",
    "DeckStyle",
    "Declaration",
    "Finisher",
    "Fist",
    "LedgerLine",
    "LedgerView",
    "Pot",
    "PotKind",
    "PotView",
    "Reading",
    "RenderedImage",
    "RevealView",
    "SeatView",
    "Second",
    "ShowdownView",
    "ShownHand",
    "Stakes",
    "StandingsView",
    "StoryLine",
    "StoryView",
    "Structure",
    "StudCard",
    "TableView",
    "Text",
    "Wild",
    "render_hole_cards",
    "render_ledger",
    "render_reveal",
    "render_showdown",
    "render_standings",
    "render_story",
    "render_table",
]
