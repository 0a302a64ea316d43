"""The table picture: the service's spectator snapshot as a ``cards_art`` view-model.

Only the spectator snapshot is drawn (hidden cards are "??" there), so the picture can
never show a private card. Rendering is blocking Pillow work: run it in a thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.poker.messages import Msg, Number, msg
from bot.poker.showdown import read_hand
from bot.poker.variants import VARIANTS
from bot.table.handlabel import hand_label
from bot.table.view import SeatView as TableSeat
from bot.table.view import StakesView, TableView
from bot.words import Locale
from cards_art import (
    ONLY_POT,
    RESERVE,
    Award,
    Declaration,
    Pot,
    PotView,
    Reading,
    RenderedImage,
    SeatView,
    Second,
    ShowdownView,
    ShownHand,
    Stakes,
    Structure,
    StudCard,
    render_table,
)
from cards_art import TableView as ArtTable
from cards_art.words import Text
from cogs.names import plain

log = logging.getLogger(__name__)

_WHOLE_TABLE = ("declare", "showdown")  # phases named instead of the street
_NO_LOW = Msg("art.showdown.no_low")


_SeatKey = tuple[int, str, int, str, tuple[str, ...], bool, bool, int, tuple[int, ...]]
_Street = Msg | None
PictureKey = tuple[
    int, int, str, _Street, tuple[str, ...], tuple[_SeatKey, ...], tuple[int, ...], int
]
"""What a table picture shows (:func:`picture_key`), as data (the street as its message,
never its words): a new key, a new picture."""
_Key = tuple[Locale, PictureKey]


def picture_key(view: TableView) -> PictureKey:
    """What the picture shows. It is drawn per street, not per action: seats, the chips
    each had when the street began (stack + this round's bet), folds, the board and the
    pots. Bets, whose turn it is and the clock are in the embed, which changes with every
    action; so a click's answer rarely needs a new picture (latency, upload size)."""
    seats = tuple(
        (s.seat, s.name, s.stack + s.bet, s.state, s.cards, s.is_button, s.marker, s.legs, s.drew)
        for s in view.seats
    )
    pots = tuple(p.amount for p in view.pots)
    # The channel's table too: hand numbers start again at its next table.
    hand = (view.session, view.hand_no)
    return (*hand, view.phase, view.street_said, view.board, seats, pots, view.reserve)


def to_art(view: TableView) -> ArtTable:
    by_seat = {s.seat: s for s in view.seats}
    seats = []
    count = max(2, min(10, max([view.seat_count, *by_seat])))
    for number in range(1, count + 1):
        s = by_seat.get(number)
        if s is None:
            seats.append(SeatView(seat=number, empty=True))
            continue
        hidden = sum(1 for c in s.cards if c == "??")
        shown: tuple[StudCard, ...] = ()
        if hidden < len(s.cards):
            # Stud (or a shown hand): every card in deal order, down cards as backs, so
            # the table sees how many each player holds face down (seventh street).
            shown, hidden = tuple(StudCard(c, down=c == "??") for c in s.cards), 0
        seats.append(
            SeatView(
                seat=number,
                name=plain(s.name, 24),  # a picture is not markdown: as written
                stack=s.stack + s.bet,  # the street's picture: chips before this round
                bet=0,
                folded=s.state == "folded",
                all_in=s.state == "all_in",
                sitting_out=s.state == "sitting_out",
                is_button=s.is_button,
                is_to_act=False,
                up_cards=shown[:8],
                hidden_cards=min(hidden, 7),
                tags=_tags(view, s),
                drawn=s.drew[-1] if s.drew and s.state != "folded" else None,
            )
        )
    several = len(view.pots) > 1
    pots = tuple(
        PotView(Pot.index(i) if several else ONLY_POT, p.amount) for i, p in enumerate(view.pots)
    )
    if view.reserve:
        pots += (PotView(RESERVE, view.reserve),)  # not in play
    title, stakes = art_stakes(view.stakes_data)
    return ArtTable(
        variant=title,
        stakes=stakes,
        declare=view.declare,
        seats=tuple(seats),
        board=tuple(c for c in view.board if c != "??")[:5],
        pots=pots,
        hand_number=hand_label(view.session, view.hand_no) if view.hand_no else None,
        street=_street(view),
    )


def _street(view: TableView) -> Text:
    """The street (or the phase that is the whole table's) as a message: the picture says
    it in its language, never the view's English."""
    if view.phase in _WHOLE_TABLE:
        return Msg(f"art.phase.{view.phase}")
    return view.street_said if view.street_said is not None else ""


def _tags(view: TableView, seat: TableSeat) -> tuple[Text, ...]:
    """A seat's live pot-system marks (R-15.1 marker, R-15.3 legs) as messages; the
    cards drawn are the picture's own badge (``SeatView.drawn``)."""
    tags: list[Text] = []
    if seat.marker:
        tags.append(Msg("art.tag.marker"))
    if seat.legs:
        legs = Number(seat.legs)
        need = view.legs_needed
        tags.append(
            msg("art.tag.legs_of", legs=legs, need=Number(need))
            if need
            else msg("art.tag.legs", legs=legs)
        )
    return tuple(tags[:2])


class PictureCache:
    """The last picture of each table and what it showed, and the one being drawn."""

    def __init__(self) -> None:
        self.locale: Callable[[], Locale] = lambda: "en"
        """The table's language now (its channel sets it): a new language, a new picture."""
        self._last: dict[str, tuple[_Key, RenderedImage]] = {}
        # One drawing per table at a time: a click's answer and the refresh that both
        # want the new street's picture wait for the same render (cogs/channel.py).
        self._drawing: dict[str, tuple[_Key, asyncio.Task[RenderedImage | None]]] = {}

    async def get(self, view: TableView) -> tuple[RenderedImage | None, bool]:
        """(image, is_new). A new image must be uploaded; an old one is already on the
        table message and is kept by an edit that sends no attachments."""
        key = (self.locale(), picture_key(view))
        last = self._last.get(view.table_id)
        if last is not None and last[0] == key:
            return last[1], False
        drawing = self._drawing.get(view.table_id)
        if drawing is None or drawing[0] != key:
            drawing = (key, asyncio.create_task(self._draw(view, key)))
            self._drawing[view.table_id] = drawing
        # Shielded: a caller that stops waiting (a click out of time) leaves the drawing
        # to the others.
        return await asyncio.shield(drawing[1]), True

    async def _draw(self, view: TableView, key: _Key) -> RenderedImage | None:
        try:
            image = await render(view, key[0])
        finally:
            drawing = self._drawing.get(view.table_id)
            latest = drawing is not None and drawing[0] == key
            if latest:
                del self._drawing[view.table_id]
        if image is not None and latest:  # a newer street's drawing supersedes this one
            self._last[view.table_id] = (key, image)
        return image

    def current(self, view: TableView) -> tuple[RenderedImage | None, bool]:
        """Without drawing: (the last picture, whether it is still right for ``view``)."""
        last = self._last.get(view.table_id)
        if last is None:
            return None, False
        return last[1], last[0] == (self.locale(), picture_key(view))

    def forget(self, table_id: str) -> None:
        self._last.pop(table_id, None)
        drawing = self._drawing.pop(table_id, None)
        if drawing is not None:
            drawing[1].cancel()


async def render(view: TableView, locale: Locale = "en") -> RenderedImage | None:
    """The table image (``RenderedImage``) in the table's language, or None if the art
    failed (the embed still carries everything)."""
    try:
        return await asyncio.to_thread(lambda: render_table(to_art(view), locale=locale))
    except Exception:
        log.exception("could not draw table %s", view.table_id)
        return None


def art_stakes(data: StakesView | None) -> tuple[Text, Stakes]:
    """A picture's title (the game, ``game.<code>``: the picture says it in its
    language) and its stakes as data (the structure and amounts; the picture writes the
    line). Never a stakes sentence: a German table's picture reads German. Without data
    (a showdown noted before the table's view was read) no title and no stakes line."""
    if data is None:
        return "", Stakes()
    variant = VARIANTS.get(data.variant)
    title: Text = variant.title if variant is not None else data.variant
    if variant is not None and data.declare:
        title = msg("art.game.declare", game=variant.title)
    try:
        structure = Structure(data.structure) if data.structure is not None else None
    except ValueError:  # a structure this picture does not name: its amounts still show
        structure = None
    return title, Stakes(
        structure,
        blinds=data.blinds,
        bets=data.bets,
        bring_in=data.bring_in,
        ante=data.ante,
        stake=data.stake,
        max_pot=data.max_pot,
        ante_mode=data.ante_mode,
    )


@dataclass
class ShowdownNotes:
    """The public record of one hand that the showdown picture needs, collected by the
    presenter from public notices only (never a private card)."""

    stakes: StakesView | None = None
    """The stakes as data (``TableView.stakes_data``)."""
    code: str = ""
    """The game's code, to read each hand with the engine."""
    wild: str = "none"
    board: list[str] = field(default_factory=list)
    hands: list[tuple[int, str, list[str], tuple[Msg, ...]]] = field(default_factory=list)
    """(seat, name, cards shown, the engine's names of the hand, as messages)."""
    awards: list[tuple[int, int, str, int, str]] = field(default_factory=list)
    """(pot index: 0 the main pot, N side pot N; seat, name, amount, half)."""
    second: list[str] = field(default_factory=list)
    """The second board's cards as dealt (a run's: only those after the shared ones)."""
    second_why: str = ""
    """Why there is a second board: ``double_board`` (R-20.5) or ``run_twice`` (R-20.2)."""
    awards2: list[tuple[int, int, str, int, str]] = field(default_factory=list)
    """The awards on the second board or run, as ``awards``."""


def showdown_art(
    shown: ShowdownNotes, fists: list[tuple[int, str, int]] | None = None
) -> ShowdownView:
    """The showdown picture's view-model from the public record of one hand (the board,
    the hands the rules showed, the awards): each hand read by the engine
    (``read_hand``) with the cards it plays for high and for low, on the final board."""

    variant = VARIANTS.get(shown.code)
    board = tuple(shown.board)
    wild = shown.wild
    second = tuple(shown.second)
    if second and shown.second_why == "run_twice":
        # the second run starts from the board as it stood when it was run.
        second = board[: max(0, len(board) - len(second))] + second
    second = second[:5]

    def read(cards: list[str], on: tuple[str, ...]) -> tuple[Reading, ...]:
        assert variant is not None
        return tuple(
            Reading(
                # The hand's name as a message (the picture says it in its language).
                r.words if r.used or r.half != "low" else _NO_LOW,
                tuple(r.used),
                r.half,
            )
            for r in read_hand(variant, tuple(cards), on, wild)
            if r.words is not None
        )

    declared = {
        seat: (Declaration.LOW, Declaration.HIGH, Declaration.BOTH)[c] for seat, _, c in fists or ()
    }
    hands = []
    for seat, name, cards, names in shown.hands:
        readings: tuple[Reading, ...]
        readings2: tuple[Reading, ...] = ()
        if variant is not None:
            readings = read(cards, board)
            readings2 = read(cards, second) if second else ()
        else:  # an unknown game: the engine's names, no frames
            readings = tuple(Reading(n) for n in names)
        said = declared.get(seat)
        if said is not None and said is not Declaration.BOTH:
            # a hand plays only for the half it declared; the other half's
            # reading would frame cards that play for nothing.
            readings = tuple(r for r in readings if r.kind == said.value)
            readings2 = tuple(r for r in readings2 if r.kind == said.value)
        hand = ShownHand(seat, plain(name, 24), tuple(cards)[:8], readings, said, readings2)
        hands.append(hand)
    seen = {h.seat for h in hands}
    both = [(0, a) for a in shown.awards] + ([(1, a) for a in shown.awards2] if second else [])
    several = any(a[0] for _, a in both)
    title, stakes = art_stakes(shown.stakes)
    return ShowdownView(
        variant=title,
        stakes=stakes,
        hands=tuple(hands),
        board=board,
        awards=tuple(
            # Main pot first: the engine pays the last side pot first. One pot
            # alone is "the pot". The first board's (or run's) first.
            Award(Pot.index(pot) if several else ONLY_POT, seat, amount, half, b)
            for b, (pot, seat, _, amount, half) in sorted(both, key=lambda a: (a[0], a[1][0]))
        ),
        names=tuple(
            {seat: plain(name, 24) for _, (_, seat, name, _, _) in both if seat not in seen}.items()
        ),
        second=second,
        second_kind=Second.RUN if shown.second_why == "run_twice" else Second.BOARD,
    )
