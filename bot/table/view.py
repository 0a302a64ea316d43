"""What one viewer may see of a table: frozen snapshots for presenters.

``build_view(state, viewer)`` is the only way a presenter reads a table. Cards come from
the engine's ``visible_cards`` for the viewer's own position (a spectator, ``None``, gets
only public cards), so a spectator snapshot holds nothing private (invariant 2).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.poker.hand import Hand
from bot.poker.legal import Legal
from bot.poker.pots import build_pots
from bot.poker.variants import get_variant
from bot.table.state import TableState


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    user_id: str
    name: str
    stack: int
    bet: int
    state: str
    """active, folded, all_in, sitting_out, waiting, leaving."""
    cards: tuple[str, ...]
    is_button: bool
    is_turn: bool
    time_bank: float


@dataclass(frozen=True, slots=True)
class PotView:
    amount: int
    eligible_seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableView:
    table_id: str
    variant: str
    variant_name: str
    stakes: str
    seats: tuple[SeatView, ...]
    seat_count: int
    button: int | None
    to_act: int | None
    """Seat whose turn it is (None between hands and in a chip-fist declaration)."""
    deadline: float | None
    """When the running clock runs out, in seconds since the epoch (wall clock, as
    ``time.time()``): the turn of ``to_act``, the shared declaration or Guts clock, or
    between deals the dealer's time to choose the game (R-16.7). None: no clock runs.
    Settings changes reach it from the next deal (R-1.10)."""
    board: tuple[str, ...]
    pots: tuple[PotView, ...]
    pot_total: int
    phase: str
    """waiting, betting, draw, declare, showdown, over, paused, halted, closed."""
    hand_no: int
    last_action: str
    turn: int
    legal: Legal | None
    """The viewer's legal actions, only when it is his turn."""
    declare_pending: int
    host: str
    halted: str | None


def build_view(state: TableState, viewer: str | None, deadline: float | None) -> TableView:
    info = state.current if state.in_hand else None
    hand = state.hand
    viewer_seat = state.seat_of(viewer) if viewer is not None else None
    viewer_pos = info.position_of(viewer_seat.number) if info and viewer_seat else None
    visible = hand.visible_cards(viewer_pos) if hand is not None else []
    to_act_seat = None
    if hand is not None and info is not None and hand.to_act is not None:
        to_act_seat = info.order[hand.to_act]
    seats: list[SeatView] = []
    for number in sorted(state.seats):
        seat = state.seats[number]
        pos = info.position_of(number) if info is not None else None
        stack, bet = seat.stack, 0
        cards: tuple[str, ...] = ()
        status: str = seat.state
        if seat.leaving:
            status = "leaving"
        if hand is not None and pos is not None:
            stack, bet, cards = hand.stacks[pos], hand.bets[pos], visible[pos]
            if hand.folded[pos]:
                status, cards = "folded", ()
            elif hand.stacks[pos] == 0:
                status = "all_in"
            else:
                status = "active"
        seats.append(
            SeatView(
                seat=number,
                user_id=seat.user_id,
                name=seat.name,
                stack=stack,
                bet=bet,
                state=status,
                cards=tuple(cards),
                is_button=(info is not None and info.button == number)
                or (info is None and state.prev_button == number),
                is_turn=to_act_seat == number,
                time_bank=seat.bank,
            )
        )
    legal = None
    if hand is not None and viewer_pos is not None:
        if hand.phase == "declare" and viewer_pos in hand.declare_pending():
            legal = hand.declare_legal(viewer_pos)
        elif hand.phase == "guts" and viewer_pos in hand.guts_pending():
            legal = hand.guts_legal(viewer_pos)
        elif hand.to_act == viewer_pos:
            legal = hand.legal()
    # Between deals: the game dealt next (a rotation moves on every deal, R-16.2).
    variant, limit = (info.variant, info.limit) if info else state.next_game()
    if hand is not None and info is not None:
        pots = _pots(hand, info.order)
        phase: str = hand.phase
    else:
        pots = (PotView(state.carried, ()),) if state.carried else ()
        phase = "waiting"
    if state.paused:
        phase = "paused" if hand is None else phase
    if state.halted:
        phase = "halted"
    if state.closed:
        phase = "closed"
    return TableView(
        table_id=state.table_id,
        variant=variant,
        variant_name=get_variant(variant).name,
        stakes=state.settings.stakes_text(variant, limit),
        seats=tuple(seats),
        seat_count=state.settings.seats,
        button=info.button if info else state.prev_button,
        to_act=to_act_seat,
        deadline=deadline,
        board=tuple(hand.board) if hand is not None else (),
        pots=pots,
        pot_total=hand.pot_total() if hand is not None else state.carried,
        phase=phase,
        hand_no=state.hand_no,
        last_action=state.last_action,
        turn=state.turn,
        legal=legal,
        declare_pending=(
            len(hand.declare_pending()) + len(hand.guts_pending()) if hand is not None else 0
        ),
        host=state.host,
        halted=state.halted,
    )


def _pots(hand: Hand, order: tuple[int, ...]) -> tuple[PotView, ...]:
    """The pots in the middle, main first, without this round's bets (those are shown in
    front of each seat). Built by the engine's own pot builder (R-8.1); chips that belong
    to no level (a button ante, dead blinds, a carried pot) are in the main pot."""
    live = [not f for f in hand.folded]
    if hand.pots:
        pots = list(hand.pots)
    else:
        pots = build_pots([c - b for c, b in zip(hand.contrib, hand.bets, strict=True)], live)
    views = [PotView(p.amount, tuple(order[e] for e in p.eligible)) for p in pots]
    rest = hand.pot_total() - sum(hand.bets) - sum(p.amount for p in pots)
    if rest > 0 and not hand.pots:
        if views:
            views[0] = PotView(views[0].amount + rest, views[0].eligible_seats)
        else:
            views.append(PotView(rest, tuple(order[i] for i in range(hand.n) if live[i])))
    return tuple(views)


def render_text(view: TableView) -> str:
    """A plain-text picture of the view (the terminal presenter prints this)."""
    lines = [
        f"== {view.table_id}: {view.stakes} | hand #{view.hand_no} | {view.phase}"
        f" | turn {view.turn} =="
    ]
    if view.board:
        lines.append("Board: " + " ".join(view.board))
    if view.pot_total:
        pots = " + ".join(str(p.amount) for p in view.pots) if len(view.pots) > 1 else ""
        lines.append(f"Pot: {view.pot_total}" + (f" ({pots})" if pots else ""))
    for s in view.seats:
        marks = ("D " if s.is_button else "  ") + ("> " if s.is_turn else "  ")
        cards = " ".join(s.cards)
        bet = f" bet {s.bet}" if s.bet else ""
        lines.append(
            f"{marks}{s.seat:>2} {s.name:<12} {s.stack:>7}{bet} [{s.state}] {cards}".rstrip()
        )
    if view.last_action:
        lines.append(f"Last: {view.last_action}")
    if view.halted:
        lines.append(f"HALTED: {view.halted}")
    return "\n".join(lines)
