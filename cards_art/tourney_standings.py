"""A tournament's final standings as a picture: its name and date, then each finisher's
place (shared places as a range), name, prize and bounties, in the reader's language
(the ``results`` catalogue) and the story's theme.

Pure and thread-safe like every picture here: callers run it in a worker thread, never
on the event loop. Names go through the shipped fonts' coverage (``display_name``): a
name in a script they lack becomes "Seat N" rather than tofu boxes; the alt text keeps
the name as typed.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

from babel.dates import format_date
from PIL import Image, ImageDraw

from bot.poker.messages import Count, Name, Number
from bot.words import DEFAULT, Locale
from cards_art import fonts, sprites
from cards_art.common import alt_name, display_name
from cards_art.encode import RenderedImage, encode
from cards_art.words import Words

W = 900
PAD = 24
ROW_H = 34
TOP = 128
MAX_ROWS = 30
"""Rows drawn; the rest are counted in one closing line (the alt text says them all)."""

# Columns: place (right-aligned), name, prize and bounties (right-aligned).
PLACE_X = PAD + 64
"""The place column's right edge when its places are short; wider places push it
right (:func:`place_edge`)."""
MARGIN = 8
"""The least room between the row's edge and a place."""
PLACE_GAP = 28
"""From the place column's right edge to the names."""
PRIZE_X = W - PAD - 180
BOUNTY_X = W - PAD - 12
LABEL_W = 150
"""The widest a column's label is drawn."""


@dataclass(frozen=True)
class Finisher:
    """One entry's result: places ``first..last`` (shared when they differ)."""

    first: int
    last: int
    name: str
    prize: int
    bounties: int = 0
    entry: int = 1
    """The entry's number among its player's (2 and up: a re-entry, drawn ``name #2``,
    R-19.59)."""

    def __post_init__(self) -> None:
        if not 1 <= self.first <= self.last or self.entry < 1:
            raise ValueError("places run from first to last, from 1")
        if self.prize < 0 or self.bounties < 0:
            raise ValueError("prizes and bounties are never negative")


@dataclass(frozen=True)
class StandingsView:
    """What the standings picture shows: the tournament's ``name`` (as its host wrote
    it), the day it was played, the entries and prize pool, and the finishers best
    first."""

    name: str
    day: datetime.date
    entries: int
    pool: int
    finishers: tuple[Finisher, ...]

    def __post_init__(self) -> None:
        places = [f.first for f in self.finishers]
        if places != sorted(places):
            raise ValueError("finishers are listed best first")


def _place(w: Words, f: Finisher) -> str:
    if f.first == f.last:
        return w("results.place", place=Number(f.first))
    return w("results.place.shared", first=Number(f.first), last=Number(f.last))


def place_edge(w: Words, shown: tuple[Finisher, ...]) -> int:
    """The place column's right edge: far enough from the left edge for the widest
    place drawn and the column's label in this language ("100.–112.", R-20.91)."""
    widest = max((fonts.width(_place(w, f), 18) for f in shown), default=0.0)
    label = min(fonts.width(w("results.col.place"), 15, bold=False), LABEL_W)
    return max(PLACE_X, PAD + MARGIN + math.ceil(max(widest, label)))


def row_name(w: Words, f: Finisher, row: int) -> str:
    """The finisher's name as drawn in row ``row`` (from 1): a name the fonts cannot
    draw is told apart by its row ("Player 3"), not one "Player" for every such entry
    (R-19.86); the alt text keeps the name as typed."""
    return display_name(f.name, 0, w, fallback=w("art.player.row", row=Number(row)))


def draw_standings(view: StandingsView, *, locale: Locale = DEFAULT) -> Image.Image:
    w = Words(locale)
    shown = view.finishers[:MAX_ROWS]
    more = len(view.finishers) - len(shown)
    place_x = place_edge(w, shown)
    name_x = place_x + PLACE_GAP
    name_w = PRIZE_X - name_x - LABEL_W
    height = TOP + ROW_H * (len(shown) + (1 if more else 0)) + PAD
    img = Image.new("RGB", (W, max(height, 260)), sprites.BACKDROP)
    draw = ImageDraw.Draw(img)
    title = fonts.clean(view.name) or w("results.untitled")
    fonts.put_text(img, (PAD, 16), fonts.fit(title, 28, W - 2 * PAD), 28, sprites.WHITE)
    day = format_date(view.day, format="long", locale=locale)
    sub = w(
        "results.subtitle", day=Name(day), entries=Count(view.entries), pool=w_amount(w, view.pool)
    )
    fonts.put_text(img, (PAD, 56), fonts.fit(sub, 18, W - 2 * PAD), 18, sprites.MUTED, bold=False)
    head_y = TOP - 22
    for x, key, anchor in (
        (place_x, "results.col.place", "rm"),
        (name_x, "results.col.name", "lm"),
        (PRIZE_X, "results.col.prize", "rm"),
        (BOUNTY_X, "results.col.bounties", "rm"),
    ):
        label = fonts.fit(w(key), 15, LABEL_W)
        fonts.put_text(img, (x, head_y), label, 15, sprites.MUTED, bold=False, anchor=anchor)
    draw.line((PAD, TOP - 8, W - PAD, TOP - 8), fill=sprites.PLATE_EDGE, width=2)
    for i, f in enumerate(shown):
        y = TOP + i * ROW_H + ROW_H // 2
        if i % 2 == 0:
            draw.rectangle((PAD, y - ROW_H // 2, W - PAD, y + ROW_H // 2 - 1), fill=sprites.PLATE)
        colour = sprites.GOLD if f.first == 1 else sprites.WHITE
        fonts.put_text(img, (place_x, y), _place(w, f), 18, colour, anchor="rm")
        name = fonts.fit(_entry(w, f, row_name(w, f, i + 1)), 18, name_w)
        fonts.put_text(img, (name_x, y), name, 18, colour, anchor="lm")
        prize_colour = sprites.GREEN_TEXT if f.prize else sprites.MUTED
        fonts.put_text(img, (PRIZE_X, y), w.amount(f.prize), 18, prize_colour, anchor="rm")
        bounty = w.amount(f.bounties) if f.bounties else "–"
        fonts.put_text(img, (BOUNTY_X, y), bounty, 18, sprites.MUTED, bold=False, anchor="rm")
    if more:
        y = TOP + len(shown) * ROW_H + ROW_H // 2
        line = w("results.more", more=Count(more))
        fonts.put_text(img, (name_x, y), line, 16, sprites.MUTED, bold=False, anchor="lm")
    return img


def _entry(w: Words, f: Finisher, name: str) -> str:
    """The finisher's name as drawn: a re-entry with its number (``results.entry``)."""
    return name if f.entry <= 1 else w("results.entry", name=Name(name), number=Number(f.entry))


def w_amount(w: Words, n: int) -> Name:
    """An amount in the picture's number format, as a parameter."""
    return Name(w.amount(n))


def standings_alt(view: StandingsView, *, locale: Locale = DEFAULT) -> str:
    w = Words(locale)
    parts = [
        w(
            "results.alt_line",
            place=Name(_place(w, f)),
            name=Name(_entry(w, f, alt_name(f.name, 0, w))),
            prize=w_amount(w, f.prize),
            bounties=w_amount(w, f.bounties),
        )
        for f in view.finishers
    ]
    title = alt_name(view.name, 0, w) if view.name.strip() else w("results.untitled")
    return w(
        "results.alt",
        title=Name(title),
        day=Name(format_date(view.day, format="long", locale=locale)),
        entries=Count(view.entries),
        lines=Name(w("art.list.semicolon").join(parts)),
    )


def render_standings(view: StandingsView, *, locale: Locale = DEFAULT) -> RenderedImage:
    """The final standings of a tournament, in ``locale``. Blocking (Pillow): call it
    in a worker thread."""
    return encode(
        draw_standings(view, locale=locale), "standings", standings_alt(view, locale=locale)
    )
