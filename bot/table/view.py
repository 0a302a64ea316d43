"""What one viewer may see of a table: frozen snapshots for presenters.

``build_view(state, viewer)`` is the only way a presenter reads a table. Cards come from
the engine's ``visible_cards`` for the viewer's own position (a spectator, ``None``, gets
only public cards), so a spectator snapshot holds nothing private (invariant 2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from bot.poker.cards import JOKER
from bot.poker.hand import Hand
from bot.poker.legal import ActionName, Legal, Phase, Turn
from bot.poker.messages import Count, Msg, Number, joined, msg
from bot.poker.pots import build_pots
from bot.poker.record import pot_state_to_dict
from bot.poker.variants import get_variant, street_title
from bot.table.levels import Level, at_level
from bot.table.seating import SeatState

# The stakes live in bot/table/stakes.py (the settings say them too); read from here too.
from bot.table.stakes import StakesView as StakesView
from bot.table.stakes import stakes_of as stakes_of
from bot.table.stakes import stakes_parts as stakes_parts
from bot.table.stakes import stakes_said as stakes_said
from bot.table.state import TableState

ViewPhase = Phase | Literal["waiting", "paused", "halted", "closed"]
"""The hand's phase (:data:`bot.poker.Phase`), or what the table is doing without one."""

PotSystem = Literal["normal", "two_to_win", "guts"]
"""The pot system of §15 (the engine's ``Rules.pot_system``)."""

SeatStatus = SeatState | Literal["folded", "all_in", "leaving"]
"""A seat as a presenter shows it: its seat state between deals (active, sitting out,
waiting), or in a hand active, folded or all in; leaving once he stood up (R-2.3)."""


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    user_id: str
    name: str
    stack: int
    bet: int
    state: SeatStatus
    """active, folded, all_in, sitting_out, waiting, leaving."""
    cards: tuple[str, ...]
    is_button: bool
    is_turn: bool
    time_bank: float
    marker: bool = False
    """Two to win (R-15.1): holds a marker; his next win collects the pot."""
    legs: int = 0
    """Guts with legs (R-15.3): legs held towards collecting the pot."""
    drew: tuple[int, ...] = ()
    """Draw games (R-16.4): cards drawn in each draw so far (0 = stood pat); public."""
    position: int | None = None
    """The seat's place in the hand's order (the engine's position, PHH order: 0 is the
    first to act after the button), None when not dealt in; public, like the button."""


@dataclass(frozen=True, slots=True)
class PotView:
    amount: int
    eligible_seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableView:
    table_id: str
    variant: str
    title_said: Msg
    """The game's title as a message ("declare" with it, R-13.1)."""
    stakes_data: StakesView
    """The stakes as data (a presenter says them with ``stakes_said``)."""
    seats: tuple[SeatView, ...]
    seat_count: int
    button: int | None
    to_act: int | None
    """Seat whose turn it is (None between hands and in a chip-fist declaration)."""
    deadline: float | None
    """When the running clock runs out, in seconds since the epoch (wall clock, as
    ``time.time()``): the turn of ``to_act``, the shared declaration or Guts clock, or
    between deals the dealer's time to choose the game (R-16.10). None: no clock runs.
    Settings changes reach it from the next deal (R-1.10)."""
    board: tuple[str, ...]
    pots: tuple[PotView, ...]
    pot_total: int
    phase: ViewPhase
    """waiting, betting, draw, declare, guts, showdown, over, paused, halted, closed."""
    hand_no: int
    turn: int
    legal: Legal | None
    """The viewer's legal actions, only when it is his turn."""
    declare_pending: int
    """How many players still have to declare or call at once (sealed, R-13.2, R-15.2)."""
    host: str
    halted: Msg | None
    """Why the table is stopped (None: it is not)."""
    pot_system: PotSystem = "normal"
    """normal, two_to_win or guts (§15) for the game on (or dealt next)."""
    reserve: int = 0
    """Guts maximum pot (R-15.3): chips waiting above the cap, not in play; they are
    inside ``pot_total`` but not in ``pots``."""
    legs_needed: int = 0
    """Guts legs option (R-15.3): legs that collect the pot (0: no legs)."""
    declare: bool = False
    """A hi-lo declare game (R-13.1): the game's name says so."""
    to_call: int = 0
    """What the player to act must add to call (public: it follows from the betting)."""
    actions: frozenset[ActionName] = frozenset()
    """The names of the player to act's legal actions (empty while his options depend
    on his cards, as ``options_said``)."""
    acting: Turn | None = None
    """How the players who may act now act (the engine's ``Hand.actors``): ``in_turn``
    (one seat, ``to_act``), ``sealed`` (``declare_pending`` players at once, each in
    private), or None (nobody: between hands)."""
    in_hand: bool = False
    """A hand is dealt and not yet ended (also while the table is paused or halted)."""
    session: int = 1
    """Which of its channel's tables this is (``TableState.incarnation``): a hand's
    number is said with it at a later table (R-20.84, :func:`bot.table.handlabel.hand_label`)."""
    draw_game: bool = False
    """The game on (or dealt next) has a draw (R-16.4), where "stand" may mean "stand
    pat"."""
    declared_hands: bool = False
    """The hand on is shown by statement (R-9.3 declared hands): the showdown asks each
    player to show (and may state his hand) or muck."""
    street_said: Msg | None = None
    """Where the hand is ("Flop", "Third street", "Draw 2 of 3", "After draw 1 of 3"),
    as a message (None between hands)."""
    last_said: Msg | None = None
    """The last action of the hand as a message (names in it; None: nothing yet this
    hand)."""
    options_said: Msg | None = None
    """What the player to act may do (:meth:`Legal.options`, e.g. "bring in for 1,
    complete to 2, or fold"; public, like ``to_call``, R-6.6). None while his options
    depend on his cards."""
    no_raise_said: Msg | None = None
    """Why the viewer may not bet or raise on his turn (capped, not reopened...), if so,
    as the engine's message."""
    board2: tuple[str, ...] = ()
    """The second board of a double-board bomb pot (R-20.5), as dealt so far."""


def build_view(state: TableState, viewer: str | None, deadline: float | None) -> TableView:
    info = state.current if state.in_hand else None
    hand = state.hand
    viewer_seat = state.seat_of(viewer) if viewer is not None else None
    viewer_pos = info.position_of(viewer_seat.number) if info and viewer_seat else None
    visible = hand.visible_cards(viewer_pos) if hand is not None else []
    to_act_seat = None
    if hand is not None and info is not None and hand.to_act is not None:
        to_act_seat = info.order[hand.to_act]
    # Between deals: the game dealt next (a rotation moves on every deal, R-16.2).
    variant, limit = (info.variant, info.limit) if info else state.next_game()
    system, markers, legs, reserve = _pot_system(state, hand, variant)
    seats: list[SeatView] = []
    for number in sorted(state.seats):
        seat = state.seats[number]
        pos = info.position_of(number) if info is not None else None
        stack, bet = seat.stack, 0
        cards: tuple[str, ...] = ()
        drew: tuple[int, ...] = ()
        status: SeatStatus = seat.state
        if seat.leaving:
            status = "leaving"
        if hand is not None and pos is not None:
            stack, bet, cards = hand.stacks[pos], hand.bets[pos], visible[pos]
            drew = tuple(hand.draws[pos])
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
                marker=seat.user_id in markers,
                legs=legs.get(seat.user_id, 0),
                drew=drew,
                position=pos,
            )
        )
    to_call, actions = 0, frozenset[ActionName]()
    options_said: Msg | None = None
    if hand is not None and hand.to_act is not None:
        public = hand.legal()
        to_call = public.to_call
        if not _options_private(hand):
            actions = public.actions
            options_said = public.options()
    legal = None
    no_raise_said: Msg | None = None
    if hand is not None and viewer_pos is not None:
        actor = hand.actor(viewer_pos)
        # A player who may only wait is not prompted: the table asks in turn.
        if actor is not None and actor.turn != "waiting":
            legal = actor.legal
            if actor.turn == "in_turn":
                no_raise_said = hand.no_raise_why()
    if hand is not None and info is not None:
        pots = _pots(hand, info.order)
        phase: ViewPhase = hand.phase
    else:
        pots = (PotView(state.carried, ()),) if state.carried else ()
        phase = "waiting"
    if reserve and pots:
        # The reserve is not in play: shown apart, never as part of the pot.
        main = pots[0]
        pots = (PotView(max(0, main.amount - reserve), main.eligible_seats), *pots[1:])
        pots = tuple(p for p in pots if p.amount) or ()
    if state.paused:
        phase = "paused" if hand is None else phase
    if state.halted:
        phase = "halted"
    if state.closed:
        phase = "closed"
    actors = hand.actors() if hand is not None else ()
    acting = actors[0].turn if actors else None
    declare = _declare(state, variant)
    game = get_variant(variant)
    # A hand is shown at the stakes it was dealt at (R-19.1: a tournament's level).
    dealt = state.settings
    if state.current is not None and not state.current.ended and state.current.level:
        dealt = at_level(dealt, Level.of(state.current.level))
    stakes_data = stakes_of(dealt, variant, limit, declare)
    # a declare game says so wherever the game is named.
    title = msg("table.stakes.declare", game=game.title) if declare else game.title
    street = street_said(hand) if hand is not None else None
    return TableView(
        table_id=state.table_id,
        variant=variant,
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
        turn=state.turn,
        legal=legal,
        declare_pending=sum(1 for a in actors if a.turn == "sealed"),
        host=state.host,
        halted=state.halted,
        acting=acting,
        pot_system=system,
        reserve=reserve,
        legs_needed=state.settings.value("guts_legs") if system == "guts" else 0,
        declare=declare,
        stakes_data=stakes_data,
        title_said=title,
        street_said=street,
        last_said=state.last_said,
        board2=tuple(hand.board2 or ()) if hand is not None else (),
        options_said=options_said,
        no_raise_said=no_raise_said,
        to_call=to_call,
        actions=actions,
        in_hand=hand is not None,
        session=max(1, state.incarnation),
        draw_game=any(street.draw for street in game.streets),
        declared_hands=hand is not None and hand.rules.declared_hands,
    )


def _options_private(hand: Hand) -> bool:
    """R-12.2 jacks to open: before anyone opens, whether the player to act may open
    depends on his hole cards, so his options are his alone (invariant 2)."""
    return hand.rules.jacks_to_open and hand.opener is None and hand.street_index <= 0


HEADINGS = frozenset(
    {
        "preflop",
        "flop",
        "turn",
        "river",
        "second_street",
        "third_street",
        "fourth_street",
        "fifth_street",
        "sixth_street",
        "seventh_street",
    }
)
"""Streets with a heading of their own (``notice.heading.<code>``: "Flop", "Third
street"); the others are named by the engine's term."""


def street_said(hand: Hand) -> Msg | None:
    """Where the hand is, as a message: "Flop", "Third street", "Draw 2 of 3", "After
    the draw" (None for a game without streets to name)."""
    streets = hand.variant.streets
    i = min(max(hand.street_index, 0), len(streets) - 1)
    draws = [k for k, s in enumerate(streets) if s.draw]
    if not draws:
        if not any(s.betting for s in streets):
            return None
        code = streets[i].name.replace(" ", "_")
        if code in HEADINGS:
            return msg("notice.heading." + code)
        return street_title(streets[i].name)
    total = len(draws)
    if i not in draws:
        if total > 1:
            return msg("table.street.before_draws", count=Count(total))
        return msg("table.street.before_draw")
    n = draws.index(i) + 1
    now = hand.phase == "draw"
    if total > 1:
        key = "table.street.draw_n" if now else "table.street.after_draw_n"
        return msg(key, number=Number(n), total=Number(total))
    return msg("table.street.draw" if now else "table.street.after_draw")


def _declare(state: TableState, variant: str) -> bool:
    """R-13.1: is the game on (or dealt next) a hi-lo declare game?"""
    info = state.current if state.in_hand else None
    if info is not None:
        return info.start.rules.declare != "none"
    return state.settings.declare != "none" and get_variant(variant).hi_lo


def _pot_system(
    state: TableState, hand: Hand | None, variant: str
) -> tuple[PotSystem, frozenset[str], dict[str, int], int]:
    """(system, marker holders, legs by player id, reserve) of §15, live in the hand or
    carried between deals; nothing when the game played (or next) uses another system."""
    system: PotSystem = state.settings.pot_system_for(variant)
    if hand is not None:
        system = hand.rules.pot_system
    if hand is not None and hand.pot_state is not None:
        held: dict[str, object] = pot_state_to_dict(hand.pot_state)
    else:
        held = dict(state.pot_state or {})
    if system == "normal" or held.get("system") != system:
        return system, frozenset(), {}, 0
    markers = held.get("markers") or []
    legs = held.get("legs") or {}
    reserve = held.get("reserve") or 0
    assert isinstance(markers, list) and isinstance(legs, dict) and isinstance(reserve, int)
    return (
        system,
        frozenset(str(m) for m in markers),
        {str(k): int(v) for k, v in legs.items()},
        reserve,
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


def seconds_left(view: TableView, now: float | None) -> int | None:
    """Whole seconds until the turn (or the declaration) times out; None without a
    clock or without the time now."""
    if view.deadline is None or now is None:
        return None
    return max(0, math.ceil(view.deadline - now))


def seat_notes(view: TableView, seat: SeatView) -> list[Msg]:
    """What the table knows of a seat besides chips and cards, as messages: cards drawn
    in each draw (R-16.4, ``table.note.drew``), two-to-win markers and Guts legs while
    they are live (R-15.1, R-15.3)."""
    notes = []
    if seat.drew == (0,) and seat.state != "folded":
        notes.append(msg("table.note.stood_pat"))
    elif seat.drew and seat.state != "folded":
        drawn = tuple(
            msg("table.note.drawn", count=Count(n)) if n else msg("table.note.pat")
            for n in seat.drew
        )
        notes.append(msg("table.note.drew", draws=joined(drawn)))
    if seat.marker:
        notes.append(msg("table.note.marker"))
    if seat.legs:
        if view.legs_needed:
            legs = msg("table.note.legs_of", legs=Number(seat.legs), need=Number(view.legs_needed))
            notes.append(legs)
        else:
            notes.append(msg("table.note.legs", legs=Number(seat.legs)))
    return notes


def cards_words(cards: tuple[str, ...] | list[str]) -> str:
    """Cards for people: "As Kd", the joker as "Joker" (never its code "Xx")."""
    return " ".join("Joker" if c == JOKER else c for c in cards)
