"""Moving a player between tables (R-19.2): two idempotent commands under a log of moves.

The contract, for whoever balances or breaks a tournament's tables:

- ``Table.move_out(user, *, key, chips=None, transfer=None) -> Outcome`` stands him up
  without a cash-out: his whole stack leaves the table as a ``stood`` record carrying
  the transfer id (``transfer``, else ``key``), no ledger row. Only between hands for
  him: while he is dealt in it is refused (``deal.move.in_hand``) and nothing changes.
  ``chips``: the stack the move recorded; any other stack is refused
  (``deal.move.chips_differ``).
- ``Table.move_in(user, name, chips, seat, *, key, transfer=None) -> Outcome`` sits him
  with ``chips`` (a ``sat`` record carrying the transfer id, no buy-in, no ledger row),
  dealt in from the next deal; ``seat=None`` draws a free seat at random, a taken or
  missing seat is refused (``table.sit.taken``, ``table.sit.no_seat``).
- Both answer a repeated ``key`` (or a transfer id the table already did) with
  ``ok=True, duplicate=True`` and change nothing. Neither touches the cash ledger, and
  each table's own count (R-2.5) holds: chips moved in and out are counted beside the
  bought and cashed ones (``TableState.moves``).
- :class:`Mover` does one move in order: the ``move`` record first (in the reserved log
  :func:`moves_log` of the tournament, idempotent by the transfer id: "user X, chips C,
  from table A to table B"), then ``move_out`` (key ``<transfer>:out``), ``move_in``
  (``<transfer>:in``), then ``move_done``. After a crash :meth:`Mover.resume` re-issues
  both commands of every move not done, with the same keys: the one already done
  answers "already done", so nothing is applied twice and nothing is lost. Run it before
  dealing any of the tournament's tables again: a move pending from a table whose
  player's stack changed since is refused, never guessed.
- :func:`balance` checks chips over a set of tables and the moves log: every table's
  own count, each move out once and in once with the chips recorded, never in before
  out; its ``total`` (chips at the tables plus the moves in flight) is constant.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal, Protocol

from bot.poker.messages import Chips, Msg, Name, msg
from bot.table import log as tlog
from bot.table.errors import TableError
from bot.table.ownership import RESERVED_PREFIX
from bot.table.ports import DuplicateKey, StorePort
from bot.table.seating import Seat
from bot.table.state import TableState


class Answer(Protocol):
    """A table's answer to a command (``bot.table.table.Outcome``)."""

    @property
    def ok(self) -> bool: ...

    @property
    def duplicate(self) -> bool: ...

    @property
    def msg(self) -> Msg | None: ...


Leaving = Literal["moved", "out", "wait", "end", "cancel"]
"""Why a player leaves a table without a cash-out: moved to another table, out of the
tournament, waiting to rebuy (R-19.47), the tournament over (R-19.80) or called off
(R-19.42). Only the words said at the table differ."""
Arriving = Literal["moved", "seated"]
"""Why a player sits with chips he brings: moved from another table, or seated by the
tournament (the start, a late entry, a re-entry, a rebuy after a wait)."""
LEAVING: Final[Mapping[str, str]] = {
    "moved": "deal.moved_out",
    "out": "deal.left_out",
    "wait": "deal.left_wait",
    "end": "deal.left_end",
    "cancel": "deal.left_cancel",
}
ARRIVING: Final[Mapping[str, str]] = {"moved": "deal.moved_in", "seated": "deal.seated"}


class Table(Protocol):
    """What a move needs of a table (``bot.table.table.Table``, which imports this)."""

    @property
    def state(self) -> TableState: ...

    async def move_out(
        self,
        user: str,
        *,
        key: str | None,
        chips: int | None = None,
        transfer: str | None = None,
        why: Leaving = "moved",
    ) -> Answer: ...

    async def move_in(
        self,
        user: str,
        name: str,
        chips: int,
        seat: int | None = None,
        *,
        key: str | None,
        transfer: str | None = None,
        why: Arriving = "moved",
    ) -> Answer: ...


def moves_log(tournament: str) -> str:
    """The reserved log of a tournament's moves (no shard owns it: any process may
    append, R-19.2)."""
    return f"{RESERVED_PREFIX}moves:{tournament}"


def check_out(state: TableState, seat: Seat, chips: int | None) -> int:
    """The ``move_out`` command's checks: the chips that leave, or a refusal."""
    if state.dealt_in(seat.number):
        raise TableError(msg("deal.move.in_hand", who=Name(seat.name)))
    if chips is not None and chips != seat.stack:
        raise TableError(
            msg(
                "deal.move.chips_differ",
                who=Name(seat.name),
                stack=Chips(seat.stack),
                amount=Chips(chips),
            )
        )
    return seat.stack


def check_in_chips(chips: int) -> None:
    if type(chips) is not int or chips <= 0:
        raise TableError(msg("deal.move.no_chips"))


@dataclass(frozen=True, slots=True)
class Balance:
    """Chips over a set of tables and their moves (R-2.5, R-19.2)."""

    at_tables: int
    """Stacks, pots and rake of every table (``TableState.chips_on_table``)."""
    in_flight: int
    """Chips of the moves out of one table and not yet into the other."""
    problems: tuple[tuple[str, str], ...]
    """(what, which): ``count`` (a table's own count is wrong), ``unknown`` (a table
    moved chips for a transfer the log lacks), ``amount`` (moved other chips than
    recorded), ``early`` (in before out), ``table`` (a move's table not given)."""

    @property
    def total(self) -> int:
        return self.at_tables + self.in_flight

    @property
    def ok(self) -> bool:
        return not self.problems


def balance(tables: Mapping[str, TableState], moves: Iterable[tlog.MoveRecorded]) -> Balance:
    """Check chips over ``tables`` (by id) and the ``moves`` recorded between them."""
    problems: list[tuple[str, str]] = []
    recorded = {m.transfer: m for m in moves}
    for table_id, state in tables.items():
        if state.conservation_error() is not None:
            problems.append(("count", table_id))
        for transfer in state.moves:
            if transfer not in recorded:
                problems.append(("unknown", transfer))
    in_flight = 0
    for transfer, m in recorded.items():
        source, target = tables.get(m.source), tables.get(m.target)
        if source is None or target is None:
            problems.append(("table", transfer))
            continue
        out = -source.moves.get(transfer, 0)
        came = target.moves.get(transfer, 0)
        if out not in (0, m.chips) or came not in (0, m.chips):
            problems.append(("amount", transfer))
        elif came and not out:
            problems.append(("early", transfer))
        else:
            in_flight += out - came
    at_tables = sum(state.chips_on_table() for state in tables.values())
    return Balance(at_tables, in_flight, tuple(problems))


@dataclass(frozen=True, slots=True)
class Moved:
    """What :meth:`Mover.move` did: the move as recorded, each table's answer (None: not
    reached), and the seat he sat in when both were done."""

    move: tlog.MoveRecorded | None
    out: Answer | None = None
    came: Answer | None = None
    seat: int | None = None

    @property
    def done(self) -> bool:
        return self.seat is not None


class Mover:
    """The moves of one tournament: ``table_of(id)`` gives a table of the service
    (``TableService.table``)."""

    def __init__(self, store: StorePort, tournament: str, table_of: Callable[[str], Table]) -> None:
        self.store = store
        self.log_id = moves_log(tournament)
        self.table_of = table_of

    async def recorded(self) -> tuple[list[tlog.MoveRecorded], set[str]]:
        """Every move recorded, and the transfer ids of those done."""
        rows = await self.store.events(self.log_id)
        moves = tlog.read_rows(rows, tlog.MoveRecorded, table_id=self.log_id)
        done = {d.transfer for d in tlog.read_rows(rows, tlog.MoveFinished, table_id=self.log_id)}
        return moves, done

    async def move(
        self, transfer: str, user: str, source: str, target: str, seat: int | None = None
    ) -> Moved:
        """Move ``user`` with his whole stack from ``source`` to ``target`` (R-19.2).
        Idempotent by ``transfer``: a second call finishes (or reports) the first."""
        moves, _ = await self.recorded()
        move = next((m for m in moves if m.transfer == transfer), None)
        if move is None:
            st = self.table_of(source).state
            found = st.seat_of(user)
            if found is None:
                refused = await self.table_of(source).move_out(user, key=None, transfer=transfer)
                return Moved(None, refused)
            move = tlog.MoveRecorded(transfer, user, found.name, found.stack, source, target, seat)
            try:
                await self.store.append(
                    self.log_id, move.kind, move.to_payload(), idem_key=f"move:{transfer}"
                )
            except DuplicateKey:  # recorded by a call that raced this one
                moves, _ = await self.recorded()
                move = next(m for m in moves if m.transfer == transfer)
        return await self._finish(move)

    async def resume(self) -> list[Moved]:
        """Finish every move recorded and not done (after a restart)."""
        moves, done = await self.recorded()
        return [await self._finish(m) for m in moves if m.transfer not in done]

    async def balance(self, table_ids: Sequence[str]) -> Balance:
        """:func:`balance` over ``table_ids`` and this tournament's moves."""
        moves, _ = await self.recorded()
        return balance({t: self.table_of(t).state for t in table_ids}, moves)

    async def _finish(self, move: tlog.MoveRecorded) -> Moved:
        out = await self.table_of(move.source).move_out(
            move.user, key=f"{move.transfer}:out", chips=move.chips, transfer=move.transfer
        )
        if not out.ok:
            return Moved(move, out)
        target = self.table_of(move.target)
        came = await target.move_in(
            move.user,
            move.name,
            move.chips,
            move.seat,
            key=f"{move.transfer}:in",
            transfer=move.transfer,
        )
        sat = target.state.seat_of(move.user)
        if not came.ok or sat is None:
            return Moved(move, out, came)
        done = tlog.MoveFinished(move.transfer, sat.number)
        with contextlib.suppress(DuplicateKey):  # finished by an earlier call
            await self.store.append(
                self.log_id, done.kind, done.to_payload(), idem_key=f"move_done:{move.transfer}"
            )
        return Moved(move, out, came, sat.number)
