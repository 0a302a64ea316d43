"""The seat draw and the balancing planner, following the TDA's rules 9 and 10.

:func:`plan` is pure: given every table as a :class:`TableShape` (its seats, the last
hand's button and blinds, whether it is between hands), it returns the moves to make now
(each from a table and seat to a table and seat), the tables breaking, the tables that
must wait, and the notices for players. Moves touch only tables between hands at both
ends (R-19.31); what cannot move now is planned again after the next hand.

Positions are the dead button's (R-1.4, the tournament default, R-19.37): the next big
blind is the first player clockwise after the last big blind; the next small blind is
the last big blind's seat and the next button the last small blind's.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

from bot.poker.messages import Count, Msg, Name, Number, msg

Kind: TypeAlias = Literal["blinds", "stud", "mixed_stud"]
"""``blinds``: a flop or draw game with blinds; ``stud``: a stud-only event;
``mixed_stud``: a mixed rotation in a stud round, its button frozen (R-19.28)."""


@dataclass(frozen=True, slots=True)
class TableShape:
    """One table as the planner sees it. Seats are 1..``seats``; ``players`` maps a seat
    to the entry sitting there. ``small_blind``/``big_blind`` are the last hand's seats
    (None before the first hand); ``button`` is the last hand's (before the first
    hand, the drawn one; in a mixed rotation's stud round, the frozen one).
    ``vacated``: seats emptied, oldest first (stud-only balancing fills the last one,
    R-19.27)."""

    table: int
    seats: int
    players: tuple[tuple[int, str], ...]
    button: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    between_hands: bool = True
    kind: Kind = "blinds"
    vacated: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return len(self.players)

    def occupied(self) -> dict[int, str]:
        return dict(self.players)

    def empty(self) -> list[int]:
        taken = self.occupied()
        return [s for s in range(1, self.seats + 1) if s not in taken]


@dataclass(frozen=True, slots=True)
class Move:
    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: Literal["balance", "break"]


@dataclass(frozen=True, slots=True)
class Plan:
    moves: tuple[Move, ...] = ()
    breaking: tuple[int, ...] = ()
    """Tables broken by this plan, or being broken (they deal no more; their players
    leave as seats allow, the rest at the next plan)."""
    halted: tuple[int, ...] = ()
    """Tables that may not deal until balanced (R-19.30) or while breaking."""
    final_table: int | None = None
    """The one table left, once every other is gone (announced, R-19.33)."""
    notices: tuple[Msg, ...] = field(default=())


def _after(seat: int, seats: int) -> Iterable[int]:
    """Every seat clockwise after ``seat`` (R-1.2), ``seat`` itself last."""
    for k in range(1, seats + 1):
        yield (seat - 1 + k) % seats + 1


def _between(seat: int, start: int, end: int, seats: int) -> bool:
    """``seat`` strictly between ``start`` and ``end`` going clockwise."""
    for s in _after(start, seats):
        if s == end:
            return False
        if s == seat:
            return True
    return False


def _anchor(t: TableShape) -> int | None:
    """The seat after which the next big blind falls: the last big blind; in a frozen
    stud round, the first player after the frozen button (the hold'em small blind to
    be, R-19.28)."""
    taken = t.occupied()
    if t.button is not None and (t.kind == "mixed_stud" or t.big_blind is None):
        if t.kind != "mixed_stud" and len(taken) == 2 and t.button in taken:
            return t.button  # heads-up: the button is the small blind
        return next((s for s in _after(t.button, t.seats) if s in taken), None)
    return t.big_blind


def due_big_blind(t: TableShape) -> list[int]:
    """The seated players in the order they will pay the big blind, next first."""
    taken = t.occupied()
    anchor = _anchor(t)
    start = anchor if anchor is not None else (t.button if t.button is not None else t.seats)
    return [s for s in _after(start, t.seats) if s in taken and s != anchor] + (
        [anchor] if anchor in taken else []
    )


def worst_seat(t: TableShape) -> int:
    """The empty seat that will pay the big blind soonest (TDA 10A; never the small
    blind: the next small blind is the last big blind, a taken or dead seat)."""
    empty = set(t.empty())
    if not empty:
        raise ValueError("no empty seat")
    anchor = _anchor(t)
    if anchor is None:
        return min(empty)
    # The last big blind's seat, if empty, is the next (dead) small blind: last choice.
    return next(s for s in _after(anchor, t.seats) if s in empty)


def dealable_seats(t: TableShape) -> list[int]:
    """Empty seats a newcomer (broken table, late registration, re-entry) may take and
    be dealt in at once: any but one between the small blind and the button (TDA 9).
    With none such, every empty seat: he sits there and waits for the button to pass."""
    empty = t.empty()
    if t.small_blind is None or t.big_blind is None:
        return empty
    # Next hand: button on the last small blind's seat, small blind on the last big's.
    dealt = [s for s in empty if not _between(s, t.small_blind, t.big_blind, t.seats)]
    return dealt or empty


def _stud_pick(src: TableShape, dst: TableShape, protected: frozenset[str]) -> tuple[int, int]:
    """Stud-only (TDA 10A): the seat filled is the short table's last seat to open, and
    the player moved sits in that seat number at the long table, or the first after it."""
    empty = dst.empty()
    opened = [s for s in dst.vacated if s in empty]
    to_seat = opened[-1] if opened else min(empty)
    taken = src.occupied()
    order = [s for s in _after(to_seat - 1 if to_seat > 1 else src.seats, src.seats)]
    movable = [s for s in order if s in taken and taken[s] not in protected]
    pick = movable[0] if movable else next(s for s in order if s in taken)
    return pick, to_seat


def _balance_pick(src: TableShape, dst: TableShape, protected: frozenset[str]) -> tuple[int, int]:
    if src.kind == "stud":
        return _stud_pick(src, dst, protected)
    taken = src.occupied()
    order = due_big_blind(src)
    # No ping-pong: a player just moved is passed over for the next one due.
    movable = [s for s in order if taken[s] not in protected]
    return (movable[0] if movable else order[0]), worst_seat(dst)


def _sit(t: TableShape, seat: int, player: str) -> TableShape:
    players = tuple(sorted((*t.players, (seat, player))))
    return replace(t, players=players)


def _stand(t: TableShape, seat: int) -> TableShape:
    players = tuple(p for p in t.players if p[0] != seat)
    return replace(t, players=players, vacated=(*t.vacated, seat))


def plan(
    tables: Sequence[TableShape],
    *,
    break_order: Sequence[int] = (),
    protected: frozenset[str] = frozenset(),
    names: Mapping[str, str] | None = None,
    rng: random.Random | None = None,
    tight: int = 1,
    broken: frozenset[int] = frozenset(),
) -> Plan:
    """What to do now so that table sizes differ by at most ``tight`` (R-19.26).

    ``break_order``: the order tables are broken in, first broken first (R-19.29;
    default: highest number first). ``protected``: players moved too recently to be
    moved again to balance (R-19.32). ``rng`` draws broken tables' players' seats.
    ``broken``: tables already being broken (finished first, announced once).
    """
    rng = rng or random.Random()
    names = names or {}
    live = {t.table: t for t in tables if t.players}
    at_start = len(live)
    if not live:
        return Plan()
    order = [n for n in sorted(live) if n in broken]
    order += [n for n in (list(break_order) or sorted(live, reverse=True)) if n not in order]
    order += [n for n in sorted(live, reverse=True) if n not in order]
    seats = max(t.seats for t in live.values())
    players = sum(t.size for t in live.values())
    moves: list[Move] = []
    notices: list[Msg] = []
    breaking: list[int] = []
    pending = False

    def move(src: int, seat: int, dst: int, to_seat: int, why: Literal["balance", "break"]) -> None:
        player = live[src].occupied()[seat]
        live[src] = _stand(live[src], seat)
        live[dst] = _sit(live[dst], to_seat, player)
        moves.append(Move(player, src, seat, dst, to_seat, why))
        notices.append(
            msg(
                "tournament.move",
                player=Name(names.get(player, player)),
                table=Number(dst),
                seat=Number(to_seat),
            )
        )

    # Break tables while the players fit in one fewer, one at a time.
    while len(live) > 1 and players <= (len(live) - 1) * seats:
        victim = next(n for n in order if n in live)
        others = [n for n in live if n != victim]
        breaking.append(victim)
        if victim not in broken:
            notices.append(msg("tournament.table_broken", table=Number(victim)))
        if not live[victim].between_hands:
            pending = True
            break
        # The balanced sizes of the tables left: the largest keep the extra players.
        base, extra = divmod(players, len(others))
        by_size = sorted(others, key=lambda n: (-live[n].size, n))
        target = {n: base + (1 if i < extra else 0) for i, n in enumerate(by_size)}
        leaving = list(live[victim].players)
        rng.shuffle(leaving)  # step one of the two-step draw: the order of the draw
        for seat, _ in leaving:
            open_tables = [
                n
                for n in others
                if live[n].between_hands and live[n].size < target[n] and dealable_seats(live[n])
            ]
            if not open_tables:
                break
            dst = rng.choice(sorted(open_tables))  # step two: a table, then a seat
            move(victim, seat, dst, rng.choice(dealable_seats(live[dst])), "break")
        if live[victim].players:
            pending = True
            break
        del live[victim]

    # Balance: the player due the big blind at the largest table to the worst seat at
    # the smallest, while they differ by more than ``tight``.
    if not pending:
        while True:
            # The giver is a largest table of all (if it is in a hand, wait for it,
            # ); the taker the smallest of those between hands.
            ready = [t for t in live.values() if t.between_hands]
            big = max(t.size for t in live.values())
            givers = [t for t in ready if t.size == big]
            if not givers or len(ready) < 2:
                break
            small = min(t.size for t in ready)
            if big - small <= tight:
                break
            src = next(
                n for n in order if n in live and live[n].between_hands and live[n].size == big
            )
            dst = next(
                n
                for n in reversed(order)
                if n in live and live[n].between_hands and live[n].size == small
            )
            seat, to_seat = _balance_pick(live[src], live[dst], protected)
            move(src, seat, dst, to_seat, "balance")

    largest = max(t.size for t in live.values())
    halted = sorted(
        {n for n, t in live.items() if largest - t.size >= 3 and len(live) > 1}
        | {n for n in breaking if n in live}
    )
    for n in halted:
        if n not in breaking:  # a breaking table's players are told where they go
            notices.append(msg("tournament.table_waits", table=Number(n)))
    final = None
    if len(live) == 1:
        final = next(iter(live))
        if at_start > 1:
            notices.append(msg("tournament.final_table", count=Count(players), table=Number(final)))
    return Plan(tuple(moves), tuple(breaking), tuple(halted), final, tuple(notices))


def draw_seats(
    players: Sequence[str], seats: int, rng: random.Random
) -> tuple[tuple[str, int, int], ...]:
    """The random seat draw at the start (R-19.26): as few tables as hold everyone, the
    players spread so sizes differ by at most one, each at a random seat of his table.
    Returns (player, table, seat); tables are numbered from 1."""
    if not players:
        return ()
    order = list(players)
    rng.shuffle(order)
    tables = -(-len(order) // seats)
    base, extra = divmod(len(order), tables)
    out: list[tuple[str, int, int]] = []
    i = 0
    for table in range(1, tables + 1):
        n = base + (1 if table <= extra else 0)
        chosen = rng.sample(range(1, seats + 1), n)
        for seat in chosen:
            out.append((order[i], table, seat))
            i += 1
    return tuple(out)


def place_newcomer(tables: Sequence[TableShape], rng: random.Random) -> tuple[int, int] | None:
    """A random table and seat for a late registrant or a re-entry (R-19.38): a table
    among the smallest, a seat he may be dealt in from (not between the small blind and
    the button). None when no seat is free."""
    live = [t for t in tables if dealable_seats(t)]
    if not live:
        return None
    least = min(t.size for t in live)
    table = rng.choice(sorted((t for t in live if t.size == least), key=lambda t: t.table))
    return table.table, rng.choice(dealable_seats(table))


__all__ = [
    "Kind",
    "Move",
    "Plan",
    "TableShape",
    "dealable_seats",
    "draw_seats",
    "due_big_blind",
    "place_newcomer",
    "plan",
    "worst_seat",
]
