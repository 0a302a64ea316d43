"""Fonts and text for the pictures: the shipped DejaVu faces, glyph coverage, fitting.

The project ships DejaVu Sans Condensed (regular and bold, Bitstream Vera / DejaVu
licence in ``fonts/DejaVu-LICENSE.txt``) so pictures look the same everywhere and never
depend on system fonts. DejaVu covers Latin (every accent of the six languages the bot
speaks), Greek, Cyrillic, Hebrew and Arabic, which ``tests/test_cards_art_words.py``
checks for every word of the ``art`` catalogue. It has no colour emoji and no CJK:
characters the font lacks are dropped from names rather than drawn as tofu boxes; a name
left with nothing, or with no letter where it had some, becomes "Seat N" at the call site
(``cards_art.common.display_name``), in the picture's language.

Right-to-left names are shaped and ordered by Pillow's Raqm layout engine when Pillow was
built with it (it is on the usual wheels); without Raqm the basic engine draws the
letters unshaped in logical order, which is still legible for Hebrew.
"""

from __future__ import annotations

import bisect
import struct
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

FONT_DIR = Path(__file__).parent / "fonts"
BOLD_FILE = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"
REGULAR_FILE = FONT_DIR / "DejaVuSansCondensed.ttf"
ELLIPSIS = "…"

_LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
_lock = threading.Lock()
# FreeType faces are shared by all threads; Pillow does not promise that one face may
# rasterize or measure on two threads at once, so every use of a face holds this lock.
# It is re-entrant because sprite building (which holds it) measures text too. Results
# are cached, so the lock is taken for real work only the first time a label appears.
FREETYPE_LOCK = threading.RLock()
_fonts: dict[tuple[bool, int], ImageFont.FreeTypeFont] = {}


def font(size: int, *, bold: bool = True) -> ImageFont.FreeTypeFont:
    """The shipped face at ``size`` px. Built once under a lock: FreeType faces are
    read-only after loading, so one object may serve every render thread."""
    key = (bold, size)
    cached = _fonts.get(key)
    if cached is not None:
        return cached
    with _lock:
        cached = _fonts.get(key)
        if cached is None:
            path = BOLD_FILE if bold else REGULAR_FILE
            cached = ImageFont.truetype(str(path), size, layout_engine=_LAYOUT)
            _fonts[key] = cached
        return cached


def _cmap_ranges(data: bytes) -> list[tuple[int, int]]:
    """Code point ranges of a TrueType font's Unicode cmap (format 12, else format 4).

    A small reader so the coverage check needs no fontTools; it is only used to decide
    which characters to keep, so a slightly generous answer is harmless."""
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap_offset = None
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_offset = offset
    if cmap_offset is None:
        return []
    count = struct.unpack_from(">H", data, cmap_offset + 2)[0]
    subtables: dict[tuple[int, int], int] = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap_offset + 4 + 8 * i)
        subtables[(platform, encoding)] = cmap_offset + offset
    ranges: list[tuple[int, int]] = []
    if (3, 10) in subtables:
        base = subtables[(3, 10)]
        groups = struct.unpack_from(">I", data, base + 12)[0]
        for g in range(groups):
            start, end, _ = struct.unpack_from(">III", data, base + 16 + 12 * g)
            ranges.append((start, end))
    elif (3, 1) in subtables:
        base = subtables[(3, 1)]
        seg_count = struct.unpack_from(">H", data, base + 6)[0] // 2
        ends = struct.unpack_from(f">{seg_count}H", data, base + 14)
        starts = struct.unpack_from(f">{seg_count}H", data, base + 16 + 2 * seg_count)
        ranges = [(s, e) for s, e in zip(starts, ends, strict=True) if s != 0xFFFF]
    ranges.sort()
    return ranges


@lru_cache(maxsize=1)
def _coverage() -> tuple[tuple[int, ...], tuple[int, ...]]:
    # Both shipped faces come from the same family; the bold one is the stricter.
    ranges = _cmap_ranges(BOLD_FILE.read_bytes())
    return tuple(s for s, _ in ranges), tuple(e for _, e in ranges)


def has_glyph(char: str) -> bool:
    starts, ends = _coverage()
    cp = ord(char)
    i = bisect.bisect_right(starts, cp) - 1
    return i >= 0 and cp <= ends[i]


@lru_cache(maxsize=4096)
def clean(text: str) -> str:
    """``text`` with what the font cannot draw removed: control characters, emoji and
    other missing glyphs (and the joiners/variation selectors that glue emoji), runs of
    spaces squeezed. Format characters that steer bidi text are kept."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(ch)
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
        elif cat == "Cc" or ch in "\u200d\ufe0e\ufe0f" or cat == "Cs":
            continue
        elif cat == "Cf" or has_glyph(ch):
            out.append(ch)
    return "".join(out).strip()


@lru_cache(maxsize=8192)
def fit(text: str, size: int, max_width: int, bold: bool = True) -> str:
    """``text`` cleaned and, if wider than ``max_width`` px, cut at a character boundary
    with an ellipsis. Cut on grapheme-ish boundaries (never after a combining mark's
    base) so accents and Arabic marks are not orphaned."""
    with FREETYPE_LOCK:
        return _fit(clean(text), font(size, bold=bold), max_width)


def _fit(text: str, face: ImageFont.FreeTypeFont, max_width: int) -> str:
    if face.getlength(text) <= max_width:
        return text
    # Binary search on the prefix length: getlength is the costly call.
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if face.getlength(text[:mid].rstrip() + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    while 0 < lo < len(text) and unicodedata.combining(text[lo]):
        lo -= 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


def size_to_fit(text: str, size: int, max_width: int, smallest: int = 15) -> int:
    """The largest size from ``size`` down to ``smallest`` px at which ``text`` fits in
    ``max_width`` (``smallest`` if none does: `fit` then cuts it). Some languages say a
    label in more letters; a little smaller reads better than cut short."""
    for smaller in range(size, smallest - 1, -1):
        if width(text, smaller) <= max_width:
            return smaller
    return smallest


@lru_cache(maxsize=8192)
def width(text: str, size: int, bold: bool = True) -> float:
    """Advance width of ``text`` as `put_text` draws it (cleaned)."""
    with FREETYPE_LOCK:
        return font(size, bold=bold).getlength(clean(text))


_text_lock = threading.Lock()
# FreeType faces are shared by all threads; Pillow does not promise that one face may
# rasterize or measure on two threads at once, so every use of a face holds this lock.
# It is re-entrant because sprite building (which holds it) measures text too. Results
# are cached, so the lock is taken for real work only the first time a label appears.
FREETYPE_LOCK = threading.RLock()
_text_cache: dict[tuple[object, ...], tuple[Image.Image, int, int]] = {}
_TEXT_CACHE_MAX = 4096


def text_sprite(
    text: str,
    size: int,
    fill: tuple[int, int, int],
    *,
    bold: bool = True,
    anchor: str = "la",
    stroke: int = 0,
    stroke_fill: tuple[int, int, int] = (0, 0, 0),
) -> tuple[Image.Image, int, int]:
    """A rendered label (RGBA) and its offset from the anchor point.

    Glyph rendering is the costliest part of a table render, and names, stacks and
    labels repeat from one action to the next, so labels are cached (bounded; cleared
    when full, which is cheap and keeps memory flat)."""
    key = (text, size, fill, bold, anchor, stroke, stroke_fill)
    hit = _text_cache.get(key)
    if hit is not None:
        return hit
    with FREETYPE_LOCK:
        face = font(size, bold=bold)
        box = face.getbbox(text, anchor=anchor, stroke_width=stroke)
        # Whole pixels: the label is pasted at an integer offset from the anchor.
        x0, y0, x1, y1 = (int(v // 1) if i < 2 else int(-(-v // 1)) for i, v in enumerate(box))
        w, h = max(1, x1 - x0), max(1, y1 - y0)
        fill_mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(fill_mask).text((-x0, -y0), text, font=face, fill=255, anchor=anchor)
        sprite = Image.new("RGBA", (w, h), (*fill, 0))
        if stroke:
            stroke_mask = Image.new("L", (w, h), 0)
            ImageDraw.Draw(stroke_mask).text(
                (-x0, -y0), text, font=face, fill=255, anchor=anchor, stroke_width=stroke
            )
            sprite = Image.new("RGBA", (w, h), (*stroke_fill, 0))
            sprite.putalpha(stroke_mask)
            top = Image.new("RGBA", (w, h), (*fill, 0))
            top.putalpha(fill_mask)
            sprite.alpha_composite(top)
        else:
            sprite.putalpha(fill_mask)
    result = (sprite, x0, y0)
    with _text_lock:
        if len(_text_cache) >= _TEXT_CACHE_MAX:
            _text_cache.clear()
        _text_cache[key] = result
    return result


def put_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    *,
    bold: bool = True,
    anchor: str = "la",
    stroke: int = 0,
    stroke_fill: tuple[int, int, int] = (0, 0, 0),
) -> None:
    """Draw ``text`` like ``ImageDraw.text`` but from the label cache. The text is
    cleaned first (see `clean`), so any user-supplied string is safe here."""
    text = clean(text)
    if not text:
        return
    sprite, dx, dy = text_sprite(
        text, size, fill, bold=bold, anchor=anchor, stroke=stroke, stroke_fill=stroke_fill
    )
    img.paste(sprite, (round(xy[0]) + dx, round(xy[1]) + dy), sprite)
