"""What one viewer may know of a finished hand: its events as the table showed them.

Every artifact a user can ask for after a hand (the PHH export, the terminal's ``phh`` and
``history``) is built from :func:`redact`, never from the engine's full record, so it
holds only what the table showed (invariant 2, docs/phh.md):

- public events (``audience is None``) as they are: forced bets, actions, the board,
  stud up cards, draw counts, shown and mucked hands, declarations as revealed;
- the viewer's own private events as they are (his own copy: his hole cards, his
  discards and draws, his own chip-fist choice);
- every other player's cards as :data:`HIDDEN` (``??``, PHH's unknown card), except up
  cards, and except the cards he showed: a hand shown at the showdown (or exposed for an
  all-in run-out) shows the cards dealt to him, in the order he got them, unless he drew
  (a draw replaces cards in place, and which ones is never told);
- another player's discards and draws as that many ``??``;
- another player's chip-fist or Guts choice not at all until it is revealed (the public
  ``DeclarationMade``/``DeclarationsRevealed`` and ``GutsCallMade``/``GutsCallsRevealed``
  events carry it then), and his run-it-twice answer likewise (``RunItTwiceDecided``
  carries every answer once all are in, R-20.1);
- the deck and the burn cards never (no event carries them).

``viewer`` is the position of the player whose copy this is, or ``None`` for the
spectator's copy (only what the whole table saw).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.poker.cards import UNKNOWN, Card
from bot.poker.events import (
    CardsDealt,
    DeclarationCommitted,
    DeclarationMade,
    DeclarationsRevealed,
    Drew,
    Event,
    GutsCallCommitted,
    GutsCallMade,
    GutsCallsRevealed,
    HandShown,
)

HIDDEN: Card = UNKNOWN
"""How a card the viewer never saw is written (PHH's unknown card, ``??``)."""


def redact(events: Sequence[Event], viewer: int | None) -> list[Event]:
    """The hand's events as ``viewer`` (a position, or ``None`` for a spectator) may
    know them once the hand is over. Private events of other players are dropped, except
    deals and draws, which stay with their cards hidden (the table saw that cards were
    dealt and drawn, and how many)."""
    shown = _shown_in_deal_order(events)
    dealt_so_far: dict[int, int] = {}
    out: list[Event] = []
    for e in events:
        if e.audience is None or e.audience == viewer:
            if isinstance(e, CardsDealt) and e.audience is not None:
                dealt_so_far[e.player] = dealt_so_far.get(e.player, 0) + len(e.cards)
            out.append(e)
            continue
        if isinstance(e, CardsDealt):
            start = dealt_so_far.get(e.player, 0)
            dealt_so_far[e.player] = start + len(e.cards)
            known = shown.get(e.player, ())
            cards = tuple(
                card if up else (known[start + k] if start + k < len(known) else HIDDEN)
                for k, (card, up) in enumerate(zip(e.cards, e.face_up, strict=True))
            )
            out.append(
                CardsDealt(player=e.player, cards=cards, face_up=e.face_up, audience=e.audience)
            )
        elif isinstance(e, Drew):
            out.append(
                Drew(
                    player=e.player,
                    count=e.count,
                    discarded=(HIDDEN,) * len(e.discarded),
                    received=(HIDDEN,) * len(e.received),
                    audience=e.audience,
                )
            )
        # Any other private event (a chip-fist choice, a Guts call) stays private.
    return out


def _shown_in_deal_order(events: Sequence[Event]) -> dict[int, tuple[Card, ...]]:
    """The cards each player showed, when they are exactly his dealt cards in the order
    dealt: a shown hand is the player's cards in that order unless he drew before showing
    (draws replace cards in place, and the table never learns which)."""
    drew: set[int] = set()
    out: dict[int, tuple[Card, ...]] = {}
    for e in events:
        if isinstance(e, Drew) and e.count > 0:
            drew.add(e.player)
        elif isinstance(e, HandShown) and e.player not in drew and e.player not in out:
            out[e.player] = e.cards
    return out


def declarations(events: Sequence[Event]) -> dict[int, str]:
    """Hi-lo declarations as the viewer of these (already redacted) events knows them."""
    out: dict[int, str] = {}
    for e in events:
        if isinstance(e, DeclarationCommitted | DeclarationMade):
            out[e.player] = e.choice
        elif isinstance(e, DeclarationsRevealed):
            out.update(dict(e.choices))
    return out


def guts_calls(events: Sequence[Event]) -> dict[int, bool]:
    """Guts in/out calls as the viewer of these (already redacted) events knows them."""
    out: dict[int, bool] = {}
    for e in events:
        if isinstance(e, GutsCallCommitted | GutsCallMade):
            out[e.player] = e.stay
        elif isinstance(e, GutsCallsRevealed):
            out.update(dict(e.calls))
    return out
