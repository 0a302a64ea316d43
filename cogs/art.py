"""The table picture: the service's spectator snapshot as a ``cards_art`` view-model.

Only the spectator snapshot is drawn (hidden cards are "??" there), so the picture can
never show a private card. Rendering is blocking Pillow work: run it in a thread.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.table.view import TableView
from cards_art import PotView, SeatView, StudCard, render_table
from cards_art import TableView as ArtTable

log = logging.getLogger(__name__)

_STREETS = {"betting": "", "draw": "Draw", "declare": "Declare", "showdown": "Showdown"}


def picture_key(view: TableView) -> tuple[Any, ...]:
    """What the picture shows. It is drawn per street, not per action: seats, the chips
    each had when the street began (stack + this round's bet), folds, the board and the
    pots. Bets, whose turn it is and the clock are in the embed, which changes with every
    action; so a click's answer rarely needs a new picture (latency, upload size)."""
    seats = tuple(
        (s.seat, s.name, s.stack + s.bet, s.state, s.cards, s.is_button) for s in view.seats
    )
    return (view.hand_no, view.phase, view.board, seats, tuple(p.amount for p in view.pots))


def to_art(view: TableView) -> Any:
    by_seat = {s.seat: s for s in view.seats}
    seats = []
    count = max(2, min(10, max([view.seat_count, *by_seat])))
    for number in range(1, count + 1):
        s = by_seat.get(number)
        if s is None:
            seats.append(SeatView(seat=number, empty=True))
            continue
        hidden = sum(1 for c in s.cards if c == "??")
        shown = tuple(StudCard(c) for c in s.cards if c != "??")
        seats.append(
            SeatView(
                seat=number,
                name=s.name[:24],
                stack=s.stack + s.bet,  # the street's picture: chips before this round
                bet=0,
                folded=s.state == "folded",
                all_in=s.state == "all_in",
                sitting_out=s.state == "sitting_out",
                is_button=s.is_button,
                is_to_act=False,
                up_cards=shown[:8],
                hidden_cards=min(hidden, 7),
            )
        )
    labels = ["Main", *(f"Side {i}" for i in range(1, len(view.pots)))]
    pots = tuple(PotView(label, p.amount) for label, p in zip(labels, view.pots, strict=False))
    return ArtTable(
        variant=view.variant_name,
        stakes=view.stakes,
        seats=tuple(seats),
        board=tuple(c for c in view.board if c != "??")[:5],
        pots=pots,
        hand_number=view.hand_no or None,
        street=_STREETS.get(view.phase, ""),
    )


class PictureCache:
    """The last picture of each table and what it showed."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[tuple[Any, ...], Any]] = {}

    async def get(self, view: TableView) -> tuple[Any | None, bool]:
        """(image, is_new). A new image must be uploaded; an old one is already on the
        table message and is kept by an edit that sends no attachments."""
        key = picture_key(view)
        last = self._last.get(view.table_id)
        if last is not None and last[0] == key:
            return last[1], False
        image = await render(view)
        if image is not None:
            self._last[view.table_id] = (key, image)
        return image, True

    def current(self, view: TableView) -> tuple[Any | None, bool]:
        """Without drawing: (the last picture, whether it is still right for ``view``)."""
        last = self._last.get(view.table_id)
        if last is None:
            return None, False
        return last[1], last[0] == picture_key(view)

    def forget(self, table_id: str) -> None:
        self._last.pop(table_id, None)


async def render(view: TableView) -> Any | None:
    """The table image (``RenderedImage``), or None if the art failed (the embed still
    carries everything)."""
    try:
        return await asyncio.to_thread(render_table, to_art(view))
    except Exception:
        log.exception("could not draw table %s", view.table_id)
        return None
