"""Small helpers shared by the renderers: amounts, card names for alt text, pills."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.poker.messages import Number
from cards_art import fonts, sprites
from cards_art.model import BACK, JOKER
from cards_art.words import ENGLISH, Words

SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def amount(n: int, w: Words = ENGLISH) -> str:
    """Chips with the locale's thousands separators; millions shortened so plates stay
    narrow."""
    return w.amount(n)


def card_text(card: str, w: Words = ENGLISH) -> str:
    """A card for alt text: "A♠", "10♥", "Joker", "hidden" (ranks and suits as every
    card room writes them; the joker and a hidden card in words)."""
    if card == BACK:
        return w("art.card.hidden")
    if card == JOKER:
        return w("art.card.joker")
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOL[card[1]]


def cards_text(cards: tuple[str, ...] | list[str], w: Words = ENGLISH) -> str:
    return " ".join(card_text(c, w) for c in cards)


def display_name(name: str, seat: int, w: Words = ENGLISH, fallback: str = "") -> str:
    """The cleaned name (what the fonts cannot draw dropped, never a tofu box), or
    "Seat N" (``fallback`` when given) when nothing drawable is left (all emoji), or
    when every letter was in a script the fonts lack ("李小龍🂡" would leave a lone card
    symbol)."""
    cleaned = fonts.clean(name)
    if not cleaned or _lost_its_letters(name, cleaned):
        return fallback or _fallback(seat, w)
    return cleaned


@lru_cache(maxsize=4096)
def _lost_its_letters(name: str, cleaned: str) -> bool:
    def letters(text: str) -> bool:
        return any(unicodedata.category(ch).startswith("L") for ch in text)

    return letters(name) and not letters(cleaned)


def _fallback(seat: int, w: Words) -> str:
    return w("art.seat", seat=Number(seat)) if seat > 0 else w("art.player")


def alt_name(name: str, seat: int, w: Words = ENGLISH) -> str:
    """A name for alt text: as typed (emoji included, screen readers say them), minus
    control characters; "Seat N" if nothing is left."""
    kept = "".join(ch for ch in name if ch.isprintable() or ch == " ").strip()
    return kept if kept else _fallback(seat, w)


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
