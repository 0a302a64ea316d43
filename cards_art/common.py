"""Small helpers shared by the renderers: amounts, card names for alt text, pills."""

from __future__ import annotations

from PIL import Image, ImageDraw

from cards_art import fonts, sprites
from cards_art.model import BACK, JOKER

SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def amount(n: int) -> str:
    """Chips with thousands separators; millions shortened so plates stay narrow."""
    if abs(n) >= 10_000_000:
        if abs(n) >= 10_000_000_000:
            return f"{n / 1_000_000_000:.1f}B"
        return f"{n / 1_000_000:.1f}M"
    return f"{n:,}"


def card_text(card: str) -> str:
    """A card for alt text: "A♠", "10♥", "Joker", "hidden"."""
    if card == BACK:
        return "hidden"
    if card == JOKER:
        return "Joker"
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOL[card[1]]


def cards_text(cards: tuple[str, ...] | list[str]) -> str:
    return " ".join(card_text(c) for c in cards)


def display_name(name: str, seat: int) -> str:
    """The cleaned name, or "Seat N" when nothing drawable is left (all emoji)."""
    cleaned = fonts.clean(name)
    return cleaned if cleaned else _fallback(seat)


def _fallback(seat: int) -> str:
    return f"Seat {seat}" if seat > 0 else "Player"


def alt_name(name: str, seat: int) -> str:
    """A name for alt text: as typed (emoji included, screen readers say them), minus
    control characters; "Seat N" if nothing is left."""
    kept = "".join(ch for ch in name if ch.isprintable() or ch == " ").strip()
    return kept if kept else _fallback(seat)


def pill(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    centre: tuple[int, int],
    text: str,
    *,
    size: int,
    fill: sprites.RGBA,
    ink: sprites.Colour,
    outline: sprites.RGBA | None = None,
) -> tuple[int, int, int, int]:
    """Text on a rounded label centred at ``centre``; returns the label's box."""
    tw = round(fonts.width(text, size))
    # Widths rounded up to 8 px so the cache holds a few dozen boxes, not one per text.
    w, h = (tw + size + 7) // 8 * 8, round(size * 1.45)
    x0, y0 = centre[0] - w // 2, centre[1] - h // 2
    box = sprites.rounded_box((w, h), fill, outline)
    img.paste(box, (x0, y0), box)
    fonts.put_text(img, (x0 + w / 2, y0 + h / 2), text, size, ink, anchor="mm")
    return x0, y0, x0 + w, y0 + h
