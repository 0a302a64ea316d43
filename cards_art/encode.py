"""`RenderedImage` and the one place pictures are encoded to bytes.

Format (measured with ``python -m bench render``, 1000x600 table): a truecolour PNG of
the table is ~200 KB and takes ~25 ms even at ``compress_level=1``; lossless WebP is
~130 KB / ~20 ms; JPEG smears text. A 256-colour palette PNG is ~45 KB and encodes in
~2 ms, but computing an adaptive palette per picture costs ~15 ms. So the palette is
computed once, from reference renders that contain every colour the renderers use
(felt, both decks, plates, labels, chart bars), and each picture is only mapped onto
it (no dithering, so flat areas stay flat and text edges stay crisp). The output is a
PNG Discord shows inline, deterministic for a given Pillow version.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

ALT_TEXT_LIMIT = 1024  # Discord's attachment description limit


@dataclass(frozen=True)
class RenderedImage:
    """An encoded picture ready to attach: bytes, file name and alt text."""

    data: bytes
    filename: str
    alt_text: str
    width: int
    height: int


_lock = threading.Lock()
_palette: list[Image.Image] = []
_reference: list[Callable[[], list[Image.Image]]] = []
_reserved: list[tuple[int, int, int]] = []


def set_reference(
    build: Callable[[], list[Image.Image]], reserved: list[tuple[int, int, int]]
) -> None:
    """Register the function drawing the reference pictures and the theme colours
    that must be in the palette exactly (small saturated areas such as a badge or the
    joker would otherwise lose to the felt's many greens). Called by the package
    ``__init__``; a hook so this module imports no renderer."""
    _reference[:] = [build]
    _reserved[:] = list(dict.fromkeys(reserved))


def palette() -> Image.Image:
    """The shared palette image, built once under a lock on first use."""
    if _palette:
        return _palette[0]
    with _lock:
        if not _palette:
            pictures = _reference[0]() if _reference else []
            width = max((p.width for p in pictures), default=64)
            height = sum(p.height for p in pictures) or 64
            mosaic = Image.new("RGB", (width, height), (0, 0, 0))
            y = 0
            for p in pictures:
                mosaic.paste(p.convert("RGB"), (0, y))
                y += p.height
            learned = mosaic.quantize(256 - len(_reserved), method=Image.Quantize.MEDIANCUT)
            colours = learned.getpalette() or []
            colours = colours[: 3 * (256 - len(_reserved))]
            for rgb in _reserved:
                colours.extend(rgb)
            pal = Image.new("P", (1, 1))
            pal.putpalette(colours)
            _palette.append(pal)
        return _palette[0]


def encode(img: Image.Image, stem: str, alt_text: str) -> RenderedImage:
    """Map ``img`` onto the shared palette and PNG-encode it fast. No text chunks or
    timestamps, so the bytes depend only on the pixels."""
    indexed = img.convert("RGB").quantize(palette=palette(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    indexed.save(buf, format="PNG", compress_level=1)
    if len(alt_text) > ALT_TEXT_LIMIT:
        alt_text = alt_text[: ALT_TEXT_LIMIT - 1] + "…"
    return RenderedImage(
        data=buf.getvalue(),
        filename=f"{stem}.png",
        alt_text=alt_text,
        width=img.width,
        height=img.height,
    )
