"""Cards and decks: parsing, formatting, and the hand's fixed deck order (R-16.1).

A card is a two-character string, rank then suit: ``"As"``, ``"Td"``, ``"2c"``.
``"??"`` stands for a card nobody may see (PHH and public views); ``"Xx"`` is a joker.
Strings keep events, logs and PHH files readable; evaluators map them to integers.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Sequence

from bot.poker.messages import Cards, Msg, Name, debug, msg

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs < diamonds < hearts < spades, the suit order of
UNKNOWN = "??"
JOKER = "Xx"

Card = str

FULL_DECK: tuple[Card, ...] = tuple(r + s for r in RANKS for s in SUITS)
SHORT_DECK: tuple[Card, ...] = tuple(c for c in FULL_DECK if c[0] not in "2345")
"""Short-deck (six-plus) hold'em: 36 cards, sixes to aces."""
_VALID = frozenset(FULL_DECK) | {JOKER}
_CARD_RE = re.compile(r"[2-9TJQKA][cdhs]|\?\?|Xx")


class CardError(ValueError):
    """A card or card list that cannot be parsed: why, as a message (``msg``)."""

    def __init__(self, message: Msg) -> None:
        self.msg = message
        super().__init__(message.key)

    def __str__(self) -> str:
        return debug(self.msg)


def parse_card(text: str) -> Card:
    """Parse one card, accepting ``10`` for ``T`` and either case of the rank and suit."""
    t = text.strip()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2:
        raise CardError(msg("card.not_a_card", text=Name(repr(text))))
    if t == UNKNOWN:
        return UNKNOWN
    if t.lower() == "xx":
        return JOKER
    card = t[0].upper() + t[1].lower()
    if card not in _VALID:
        raise CardError(msg("card.not_a_card", text=Name(repr(text))))
    return card


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a run of cards such as ``"AcKd"``, ``"Ac Kd"`` or ``"????"``."""
    compact = re.sub(r"[\s,]+", "", text).replace("10", "T")
    out: list[Card] = []
    i = 0
    while i < len(compact):
        chunk = compact[i : i + 2]
        norm = chunk if chunk in (UNKNOWN, JOKER) else chunk[:1].upper() + chunk[1:].lower()
        if not _CARD_RE.fullmatch(norm):
            raise CardError(msg("card.not_cards", text=Name(repr(text)), at=Name(repr(chunk))))
        out.append(norm)
        i += 2
    return tuple(out)


def format_cards(cards: Iterable[Card]) -> str:
    return "".join(cards)


def rank_index(card: Card) -> int:
    """0 for a deuce … 12 for an ace."""
    return RANKS.index(card[0])


def suit_index(card: Card) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades (R-10.8)."""
    return SUITS.index(card[1])


def shuffled_deck(cards: Sequence[Card] = FULL_DECK) -> tuple[Card, ...]:
    """A deck order from a cryptographically secure shuffle (R-16.1)."""
    deck = list(cards)
    rng = secrets.SystemRandom()
    rng.shuffle(deck)
    return tuple(deck)


def validate_deck(deck: Sequence[Card]) -> None:
    """An explicit deck must be real cards without duplicates."""
    cards = set(deck)
    if len(cards) == len(deck) and cards <= _VALID:
        return
    seen: set[Card] = set()
    for card in deck:
        if card not in _VALID:
            raise CardError(msg("card.deck_not_a_card", card=Name(repr(card))))
        if card in seen and card != JOKER:
            raise CardError(msg("card.deck_twice", card=Cards((card,))))
        seen.add(card)


def stacked_deck(
    holes: Sequence[str],
    board: str = "",
    hole_count: int | None = None,
    *,
    full: Sequence[Card] = FULL_DECK,
) -> tuple[Card, ...]:
    """A deck order that deals these hole cards (PHH order, one string per player) and
    then this board, with the rest of ``full`` (the whole deck) after them. For tests and
    replays.

    Hole cards are dealt one at a time round the table, as the engine deals them.
    """
    hands = [list(parse_cards(h)) for h in holes]
    k = hole_count if hole_count is not None else max(len(h) for h in hands)
    order: list[Card] = []
    for j in range(k):
        for h in hands:
            order.append(h[j] if j < len(h) else UNKNOWN)
    order.extend(parse_cards(board))
    used = set(order)
    rest = [c for c in full if c not in used]
    out = [rest.pop(0) if c == UNKNOWN else c for c in order]
    return tuple(out + rest)
