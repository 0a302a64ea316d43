"""Sprites: card faces and backs, chips, the dealer button, seat plates, the felt.

Everything here is drawn by the project with Pillow: suit pips are vector shapes (no
font with suit glyphs), drawn 4x larger and scaled down for smooth edges. Sprites are
costly to draw (milliseconds each) and cheap to paste, so each is built once and kept
in a dict guarded by a lock; the render functions only paste them and write text.
Cached images are never modified after they are stored, so threads may read them
concurrently (``Image.paste`` only reads its source).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from cards_art import fonts
from cards_art.model import BACK, JOKER, DeckStyle

SS = 4  # supersampling factor for shapes drawn once

Colour = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

# Palette: dark UI colours keep white text high-contrast at phone size.
INK = (24, 26, 31)
WHITE = (246, 246, 242)
MUTED = (150, 160, 172)
GOLD = (255, 200, 70)
GREEN_TEXT = (110, 220, 140)
RED_TEXT = (255, 110, 100)
BACKDROP = (17, 22, 29)
PLATE = (28, 34, 44)
PLATE_EDGE = (64, 76, 92)
FELT_CENTRE = (26, 122, 78)
FELT_EDGE = (12, 74, 47)
RAIL = (52, 34, 24)
RAIL_EDGE = (92, 62, 40)
LOW_BLUE = (90, 170, 255)

TWO_COLOUR: dict[str, Colour] = {
    "s": (20, 20, 24),
    "c": (20, 20, 24),
    "h": (206, 24, 40),
    "d": (206, 24, 40),
}
FOUR_COLOUR: dict[str, Colour] = {
    "s": (20, 20, 24),
    "h": (206, 24, 40),
    "d": (20, 92, 204),
    "c": (20, 138, 60),
}
JOKER_COLOUR = (120, 50, 170)


class Mark(StrEnum):
    """How a card is presented: plain, dimmed (not used at showdown), highlighted as
    one of the five used cards (high: gold, low: blue, both halves: gold outside a
    blue inner frame)."""

    PLAIN = "plain"
    DIM = "dim"
    HIGH = "high"
    LOW = "low"
    BOTH = "both"


# The fonts' lock: sprite builds draw text, and a card sprite builds its pip sprites.
_lock = fonts.FREETYPE_LOCK
_cache: dict[tuple[object, ...], Image.Image] = {}


def _cached(key: tuple[object, ...], build: Callable[[], Image.Image]) -> Image.Image:
    """Get or build a sprite. Building happens under the lock so two threads never
    build (or store) the same sprite at once; sprites are small, so the lock is
    held briefly and only the first time."""
    img = _cache.get(key)
    if img is not None:
        return img
    with _lock:
        img = _cache.get(key)
        if img is None:
            img = build()
            _cache[key] = img
        return img


# --- vector pips ------------------------------------------------------------------


def _pip_shape(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, s: float) -> None:
    """Fill a suit pip of height ``s`` centred at (cx, cy) with ink 255 on an L image."""

    def circle(x: float, y: float, r: float) -> None:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=255)

    if suit == "d":
        draw.polygon(
            [(cx, cy - s / 2), (cx + 0.38 * s, cy), (cx, cy + s / 2), (cx - 0.38 * s, cy)],
            fill=255,
        )
    elif suit == "h":
        r = 0.25 * s
        circle(cx - 0.22 * s, cy - 0.22 * s, r)
        circle(cx + 0.22 * s, cy - 0.22 * s, r)
        draw.polygon(
            [(cx - 0.465 * s, cy - 0.14 * s), (cx + 0.465 * s, cy - 0.14 * s), (cx, cy + 0.5 * s)],
            fill=255,
        )
        circle(cx, cy - 0.12 * s, 0.12 * s)
    elif suit == "s":
        r = 0.24 * s
        circle(cx - 0.21 * s, cy + 0.1 * s, r)
        circle(cx + 0.21 * s, cy + 0.1 * s, r)
        draw.polygon(
            [(cx - 0.445 * s, cy + 0.04 * s), (cx + 0.445 * s, cy + 0.04 * s), (cx, cy - 0.5 * s)],
            fill=255,
        )
        draw.polygon(
            [(cx, cy + 0.05 * s), (cx - 0.2 * s, cy + 0.5 * s), (cx + 0.2 * s, cy + 0.5 * s)],
            fill=255,
        )
    elif suit == "c":
        r = 0.21 * s
        circle(cx, cy - 0.27 * s, r)
        circle(cx - 0.245 * s, cy + 0.06 * s, r)
        circle(cx + 0.245 * s, cy + 0.06 * s, r)
        circle(cx, cy - 0.02 * s, 0.14 * s)
        draw.polygon(
            [(cx, cy - 0.05 * s), (cx - 0.19 * s, cy + 0.5 * s), (cx + 0.19 * s, cy + 0.5 * s)],
            fill=255,
        )
    else:  # joker / wild star
        _star(draw, cx, cy, s / 2)


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: int = 255) -> None:
    import math

    points = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    draw.polygon(points, fill=fill)


def pip(suit: str, size: int, colour: Colour) -> Image.Image:
    """An RGBA pip of ``size`` px height, antialiased."""

    def build() -> Image.Image:
        big = Image.new("L", (size * SS, size * SS), 0)
        _pip_shape(ImageDraw.Draw(big), suit, size * SS / 2, size * SS / 2, size * SS * 0.96)
        mask = big.resize((size, size), Image.Resampling.LANCZOS)
        img = Image.new("RGBA", (size, size), (*colour, 0))
        img.putalpha(mask)
        return img

    return _cached(("pip", suit, size, colour), build)


# --- cards --------------------------------------------------------------------------


def _rounded_mask(w: int, h: int, radius: float) -> Image.Image:
    big = Image.new("L", (w * SS, h * SS), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * SS - 1, h * SS - 1), radius=radius * SS, fill=255
    )
    return big.resize((w, h), Image.Resampling.LANCZOS)


def suit_colour(suit: str, deck: DeckStyle) -> Colour:
    table = FOUR_COLOUR if deck is DeckStyle.FOUR_COLOUR else TWO_COLOUR
    return table.get(suit, JOKER_COLOUR)


def _draw_face(card: str, w: int, h: int, deck: DeckStyle, down_owned: bool) -> Image.Image:
    """A card face at the final size. Layout favours the index (rank + suit in the
    corner, large) over decoration: at phone size the index is all anyone reads."""
    face = (214, 226, 246) if down_owned else (252, 252, 248)
    img = Image.new("RGBA", (w, h), (*face, 255))
    draw = ImageDraw.Draw(img)
    if card == JOKER:
        colour = JOKER_COLOUR
        rank_text = "JK"
        suit = "x"
    else:
        colour = suit_colour(card[1], deck)
        rank_text = "10" if card[0] == "T" else card[0]
        suit = card[1]
    pad = max(2, round(w * 0.07))
    left_pad = pad + (max(4, round(w * 0.1)) if down_owned else 0)
    rank_size = round(h * 0.34)
    face_font = fonts.font(rank_size, bold=True)
    # "10" is two glyphs; squeeze it a little so stud cards overlapped to their index
    # still show both digits.
    if rank_text in ("10", "JK"):
        face_font = fonts.font(round(rank_size * 0.86), bold=True)
    left, top, _, bottom = face_font.getbbox(rank_text)
    draw.text((left_pad - left + 1, pad - top), rank_text, font=face_font, fill=colour)
    index_pip = round(h * 0.22)
    rank_bottom = pad + round(bottom - top)
    small = pip(suit, index_pip, colour)
    rank_w = face_font.getlength(rank_text)
    img.alpha_composite(
        small,
        (max(0, left_pad + round(rank_w / 2) - index_pip // 2), rank_bottom + round(h * 0.05)),
    )
    big_size = round(h * 0.5)
    big = pip(suit, big_size, colour)
    img.alpha_composite(big, (w - big_size - pad, h - big_size - pad))
    if down_owned:
        # Marked "dealt down, hidden from others": a slate band along the left edge
        # (the part of an overlapped stud card that stays visible) under the index.
        band_w = max(4, round(w * 0.1))
        band = Image.new("RGBA", (band_w, h), (44, 62, 110, 255))
        img.alpha_composite(band, (0, 0))
    return img


def _draw_back(w: int, h: int) -> Image.Image:
    img = Image.new("RGBA", (w * SS, h * SS), (252, 252, 248, 255))
    draw = ImageDraw.Draw(img)
    inset = round(w * SS * 0.08)
    inner = (inset, inset, w * SS - inset - 1, h * SS - inset - 1)
    draw.rounded_rectangle(inner, radius=w * SS * 0.06, fill=(150, 28, 48))
    # A diamond lattice: reads as "card back" even when only a sliver shows.
    step = max(6, w * SS // 5)
    pattern = Image.new("L", img.size, 0)
    pd = ImageDraw.Draw(pattern)
    for x in range(-h * SS, w * SS + h * SS, step):
        pd.line((x, 0, x + h * SS, h * SS), fill=255, width=SS)
        pd.line((x, h * SS, x + h * SS, 0), fill=255, width=SS)
    clip = Image.new("L", img.size, 0)
    ImageDraw.Draw(clip).rounded_rectangle(inner, radius=w * SS * 0.06, fill=90)
    img.paste((230, 120, 130), (0, 0), ImageChops.multiply(pattern, clip))
    cx, cy = w * SS / 2, h * SS / 2
    r = w * SS * 0.18
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(252, 252, 248))
    _star_rgba(draw, cx, cy, r * 0.75, (150, 28, 48))
    return img.resize((w, h), Image.Resampling.LANCZOS)


def _star_rgba(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Colour) -> None:
    import math

    points = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    draw.polygon(points, fill=fill)


def _wild_badge(img: Image.Image) -> None:
    """Wild mark: a gold star badge in the top-right corner."""
    w = img.width
    d = round(w * 0.36)
    badge = Image.new("RGBA", (d * SS, d * SS), (0, 0, 0, 0))
    bd = ImageDraw.Draw(badge)
    bd.ellipse((0, 0, d * SS - 1, d * SS - 1), fill=(*GOLD, 255), outline=(140, 90, 0), width=SS)
    _star_rgba(bd, d * SS / 2, d * SS / 2, d * SS * 0.36, (120, 60, 0))
    badge = badge.resize((d, d), Image.Resampling.LANCZOS)
    img.alpha_composite(badge, (w - d - 1, 1))


def _frame(img: Image.Image, colour: Colour, width_px: int, inset: int = 0) -> None:
    w, h = img.size
    big = Image.new("L", (w * SS, h * SS), 0)
    i = inset * SS
    ImageDraw.Draw(big).rounded_rectangle(
        (i, i, w * SS - 1 - i, h * SS - 1 - i),
        radius=max(1.0, w * SS * 0.12 - i),
        outline=255,
        width=width_px * SS,
    )
    mask = big.resize((w, h), Image.Resampling.LANCZOS)
    img.paste((*colour, 255), (0, 0), mask)


def card(
    code: str,
    size: tuple[int, int],
    deck: DeckStyle = DeckStyle.TWO_COLOUR,
    *,
    wild: bool = False,
    down_owned: bool = False,
    mark: Mark = Mark.PLAIN,
) -> Image.Image:
    """The RGBA sprite of one card (``"??"`` is a back), cached per look."""
    w, h = size

    def build() -> Image.Image:
        if code == BACK:
            body = _draw_back(w, h)
        else:
            body = _draw_face(code, w, h, deck, down_owned)
            if wild:
                _wild_badge(body)
        if mark is Mark.HIGH:
            _frame(body, GOLD, max(3, w // 14))
        elif mark is Mark.LOW:
            _frame(body, LOW_BLUE, max(3, w // 14))
        elif mark is Mark.BOTH:
            _frame(body, GOLD, max(3, w // 14))
            _frame(body, LOW_BLUE, max(3, w // 14), inset=max(3, w // 14))
        else:
            _frame(body, (120, 120, 120), 1)
        body.putalpha(ImageChops.multiply(body.getchannel("A"), _rounded_mask(w, h, w * 0.12)))
        if mark is Mark.DIM:
            shade = Image.new("RGBA", (w, h), (17, 22, 29, 150))
            shade.putalpha(ImageChops.multiply(shade.getchannel("A"), body.getchannel("A")))
            body.alpha_composite(shade)
        return _with_shadow(body)

    deck_key = deck if code not in (BACK, JOKER) else None
    return _cached(("card", code, w, h, deck_key, wild, down_owned, mark), build)


SHADOW = 3  # px of drop shadow added right and below every card sprite


def _with_shadow(body: Image.Image) -> Image.Image:
    w, h = body.size
    out = Image.new("RGBA", (w + SHADOW, h + SHADOW), (0, 0, 0, 0))
    alpha = body.getchannel("A").point(lambda a: a * 90 // 255)
    shadow = Image.new("RGBA", body.size, (0, 0, 0, 255))
    shadow.putalpha(alpha)
    out.alpha_composite(shadow.filter(ImageFilter.BoxBlur(1)), (SHADOW, SHADOW))
    out.alpha_composite(body, (0, 0))
    return out


# --- chips, button, clock -----------------------------------------------------------


def chip(size: int, colour: Colour = (200, 40, 50)) -> Image.Image:
    """A casino chip seen from above: coloured disc, white edge spots, inner ring."""

    def build() -> Image.Image:
        import math

        s = size * SS
        img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
        d = ImageDraw.Draw(img)
        d.ellipse((0, 0, s - 1, s - 1), fill=(*colour, 255))
        for i in range(6):
            a = i * math.pi / 3
            x, y = s / 2 + s * 0.4 * math.cos(a), s / 2 + s * 0.4 * math.sin(a)
            r = s * 0.09
            d.ellipse((x - r, y - r, x + r, y + r), fill=(*WHITE, 255))
        r = s * 0.28
        d.ellipse(
            (s / 2 - r, s / 2 - r, s / 2 + r, s / 2 + r),
            outline=(*WHITE, 255),
            width=max(1, s // 24),
        )
        d.ellipse((0, 0, s - 1, s - 1), outline=(0, 0, 0, 160), width=max(1, s // 30))
        return img.resize((size, size), Image.Resampling.LANCZOS)

    return _cached(("chip", size, colour), build)


def dealer_button(size: int) -> Image.Image:
    def build() -> Image.Image:
        s = size * SS
        img = Image.new("RGBA", (s + 2 * SS, s + 2 * SS), (0, 0, 0, 0))
        d = ImageDraw.Draw(img)
        d.ellipse((2 * SS, 2 * SS, s + 2 * SS - 1, s + 2 * SS - 1), fill=(0, 0, 0, 110))
        d.ellipse((0, 0, s - 1, s - 1), fill=(250, 250, 245, 255), outline=(170, 170, 160, 255))
        f = fonts.font(round(s * 0.62), bold=True)
        d.text((s / 2, s / 2), "D", font=f, fill=(*INK, 255), anchor="mm")
        return img.resize((size + 2, size + 2), Image.Resampling.LANCZOS)

    return _cached(("button", size), build)


def clock_icon(size: int, colour: Colour) -> Image.Image:
    def build() -> Image.Image:
        s = size * SS
        img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
        d = ImageDraw.Draw(img)
        d.ellipse((SS, SS, s - SS, s - SS), outline=(*colour, 255), width=2 * SS)
        c = s / 2
        d.line((c, c, c, s * 0.24), fill=(*colour, 255), width=2 * SS)
        d.line((c, c, s * 0.72, c), fill=(*colour, 255), width=2 * SS)
        return img.resize((size, size), Image.Resampling.LANCZOS)

    return _cached(("clock", size, colour), build)


def rounded_box(
    size: tuple[int, int], fill: RGBA, outline: RGBA | None = None, width_px: int = 1
) -> Image.Image:
    """An antialiased rounded rectangle (seat plates, pills, panels)."""
    w, h = size

    def build() -> Image.Image:
        img = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
        ImageDraw.Draw(img).rounded_rectangle(
            (0, 0, w * SS - 1, h * SS - 1),
            radius=min(h, 24) * SS * 0.45,
            fill=fill,
            outline=outline,
            width=width_px * SS,
        )
        return img.resize((w, h), Image.Resampling.LANCZOS)

    return _cached(("box", w, h, fill, outline, width_px), build)


def glow(size: tuple[int, int], colour: Colour, spread: int) -> Image.Image:
    """A soft halo around a box of ``size``: the to-act highlight."""
    w, h = size

    def build() -> Image.Image:
        img = Image.new("RGBA", (w + 2 * spread, h + 2 * spread), (*colour, 0))
        mask = Image.new("L", img.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(
            (spread, spread, spread + w, spread + h), radius=h * 0.45, fill=200
        )
        img.putalpha(mask.filter(ImageFilter.GaussianBlur(spread / 2)))
        return img

    return _cached(("glow", w, h, colour, spread), build)


# --- the felt -----------------------------------------------------------------------


def felt(size: tuple[int, int], table_box: tuple[int, int, int, int]) -> Image.Image:
    """The room backdrop and the stadium-shaped table (rail and felt), RGB."""
    w, h = size

    def build() -> Image.Image:
        x0, y0, x1, y1 = table_box
        bg = Image.radial_gradient("L").resize((w, h))
        img = Image.composite(
            Image.new("RGB", (w, h), BACKDROP), Image.new("RGB", (w, h), (30, 38, 50)), bg
        )
        # Soft shadow under the table.
        shadow = Image.new("L", (w, h), 0)
        ImageDraw.Draw(shadow).rounded_rectangle(
            (x0 + 4, y0 + 10, x1 + 4, y1 + 10), radius=(y1 - y0) / 2, fill=150
        )
        img.paste((0, 0, 0), (0, 0), shadow.filter(ImageFilter.GaussianBlur(10)))
        rail = Image.new("L", (w * 2, h * 2), 0)
        ImageDraw.Draw(rail).rounded_rectangle(
            (x0 * 2, y0 * 2, x1 * 2, y1 * 2), radius=(y1 - y0), fill=255
        )
        img.paste(RAIL, (0, 0), rail.resize((w, h), Image.Resampling.LANCZOS))
        edge = Image.new("L", (w * 2, h * 2), 0)
        ImageDraw.Draw(edge).rounded_rectangle(
            (x0 * 2 + 6, y0 * 2 + 6, x1 * 2 - 6, y1 * 2 - 6),
            radius=(y1 - y0) - 6,
            outline=255,
            width=4,
        )
        img.paste(RAIL_EDGE, (0, 0), edge.resize((w, h), Image.Resampling.LANCZOS))
        inset = 18
        fx0, fy0, fx1, fy1 = x0 + inset, y0 + inset, x1 - inset, y1 - inset
        cloth_mask = Image.new("L", (w * 2, h * 2), 0)
        ImageDraw.Draw(cloth_mask).rounded_rectangle(
            (fx0 * 2, fy0 * 2, fx1 * 2, fy1 * 2), radius=(fy1 - fy0), fill=255
        )
        grad = Image.radial_gradient("L").resize((fx1 - fx0, fy1 - fy0))
        cloth = Image.composite(
            Image.new("RGB", grad.size, FELT_EDGE), Image.new("RGB", grad.size, FELT_CENTRE), grad
        )
        full = Image.new("RGB", (w, h), FELT_EDGE)
        full.paste(cloth, (fx0, fy0))
        img.paste(full, (0, 0), cloth_mask.resize((w, h), Image.Resampling.LANCZOS))
        # A faint betting line, like a real table.
        line = Image.new("L", (w * 2, h * 2), 0)
        li = 70
        ImageDraw.Draw(line).rounded_rectangle(
            ((fx0 + li) * 2, (fy0 + li) * 2, (fx1 - li) * 2, (fy1 - li) * 2),
            radius=(fy1 - fy0 - 2 * li),
            outline=255,
            width=3,
        )
        img.paste((60, 150, 105), (0, 0), line.resize((w, h), Image.Resampling.LANCZOS))
        return img

    return _cached(("felt", w, h, table_box), build)
