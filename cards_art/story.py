"""The session's story: a line chart of each player's stack after each hand of a
session, the session chart's companion (``panels.draw_ledger``), in the same theme.

Line colours are the theme's own (the shared palette holds them exactly, so adding this
picture changes no other picture's colours); a twentieth player reuses the first's.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.poker.messages import Count, Name, Number
from bot.words import DEFAULT, Locale
from cards_art import fonts, sprites
from cards_art.common import alt_name, display_name
from cards_art.encode import RenderedImage, encode
from cards_art.model import StoryView
from cards_art.words import Words

W, H = 900, 520
PAD = 20
LEGEND_W = 210
COLOURS: tuple[tuple[int, int, int], ...] = (
    sprites.GOLD,
    sprites.LOW_BLUE,
    sprites.GREEN_TEXT,
    sprites.RED_TEXT,
    (238, 190, 140),  # skin
    (120, 50, 170),  # joker
    sprites.WHITE,
    (46, 170, 96),  # ledger gain
    (206, 64, 64),  # ledger loss
    sprites.MUTED,
)


def draw_story(view: StoryView, *, locale: Locale = DEFAULT) -> Image.Image:
    w = Words(locale)
    rows = max(1, len(view.lines))
    height = max(H, 110 + rows * 26)
    img = Image.new("RGB", (W, height), sprites.BACKDROP)
    draw = ImageDraw.Draw(img)
    title = fonts.fit(w.text(view.title), 26, W - 2 * PAD)
    fonts.put_text(img, (PAD, 14), title, 26, sprites.WHITE)
    n = len(view.hands)
    sub = w("record.story.subtitle", hands=Count(n))
    fonts.put_text(img, (PAD, 50), fonts.fit(sub, 18, W - 2 * PAD), 18, sprites.MUTED, bold=False)
    left, right, top, bottom = PAD + 70, W - PAD - LEGEND_W, 90, height - 50
    values = [s for line in view.lines for s in line.stacks if s is not None]
    high = max(values, default=0) or 1
    # Axes: zero at the bottom, the highest stack at the top, a hand per step.
    draw.line((left, top, left, bottom), fill=sprites.PLATE_EDGE, width=2)
    draw.line((left, bottom, right, bottom), fill=sprites.PLATE_EDGE, width=2)
    for frac in (0.0, 0.5, 1.0):
        y = bottom - frac * (bottom - top)
        label = w.amount(round(high * frac))
        fonts.put_text(img, (left - 8, y), label, 15, sprites.MUTED, bold=False, anchor="rm")
        if frac:
            draw.line((left, y, right, y), fill=sprites.PLATE, width=1)

    def x_of(i: int) -> float:
        return left + (right - left) * (i / (n - 1) if n > 1 else 0.5)

    def y_of(stack: int) -> float:
        return bottom - (bottom - top) * stack / high

    if n:
        for i in (0, n - 1):
            fonts.put_text(
                img,
                (x_of(i), bottom + 16),
                str(view.hands[i]),
                15,
                sprites.MUTED,
                bold=False,
                anchor="mm",
            )
        axis = w("record.story.axis")
        fonts.put_text(
            img, ((left + right) / 2, bottom + 34), axis, 15, sprites.MUTED, bold=False, anchor="mm"
        )
    for k, line in enumerate(view.lines):
        colour = COLOURS[k % len(COLOURS)]
        run: list[tuple[float, float]] = []
        for i, stack in enumerate(line.stacks):
            if stack is None:
                _stroke(draw, run, colour)
                run = []
                continue
            run.append((x_of(i), y_of(stack)))
        _stroke(draw, run, colour)
        ly = top + k * 26
        draw.rounded_rectangle((right + 20, ly + 4, right + 36, ly + 16), radius=3, fill=colour)
        last = next((s for s in reversed(line.stacks) if s is not None), 0)
        name = fonts.fit(display_name(line.name, 0, w), 17, LEGEND_W - 110)
        fonts.put_text(img, (right + 44, ly + 10), name, 17, sprites.WHITE, anchor="lm")
        fonts.put_text(img, (W - PAD, ly + 10), w.amount(last), 17, colour, anchor="rm")
    return img


def _stroke(
    draw: ImageDraw.ImageDraw, run: list[tuple[float, float]], colour: tuple[int, int, int]
) -> None:
    if len(run) > 1:
        draw.line(run, fill=colour, width=3, joint="curve")
    elif run:
        x, y = run[0]
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)


def story_alt(view: StoryView, *, locale: Locale = DEFAULT) -> str:
    w = Words(locale)
    parts = []
    for line in view.lines:
        points = [s for s in line.stacks if s is not None]
        if points:
            parts.append(
                w(
                    "record.story.alt_line",
                    name=Name(alt_name(line.name, 0, w)),
                    first=Number(points[0]),
                    last=Number(points[-1]),
                )
            )
    lines = w("art.list.semicolon").join(parts)
    return w(
        "record.story.alt",
        title=Name(w.text(view.title)),
        hands=Count(len(view.hands)),
        lines=Name(lines),
    )


def render_story(view: StoryView, *, locale: Locale = DEFAULT) -> RenderedImage:
    """The session's story (each player's stack after each hand), in ``locale``."""
    return encode(draw_story(view, locale=locale), "story", story_alt(view, locale=locale))
