"""The host's controls and the tournament's chip changes, carried out at the tables.

* Pause (R-19.41): every table stops dealing once its hand in progress is over, and
  deals again on resume; the director's clocks stop and run on.
* Cancel (R-19.42): a hand in progress is called off as a misdeal (each player gets
  back what he put in, so the stacks are those the director last heard of, which the
  refunds, R-19.39, are shared by); every player leaves his table with his chips as a
  transfer (no cash-out); every table is closed.
* Rebuys, the add-on and a chip race (R-19.43 to R-19.45): each stack change is one
  table command (``Table.change_chips``) under a transfer id naming the journal record
  and the entry, so a restart finishes what a crash cut short and never applies one
  twice; a table with a change still to make does not deal.

The functions take the runner whose journal holds the decision (:class:`Runner`, the
part of :class:`bot.tourney_run.runner.Runner` they use).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from bot.table.errors import TableError
from bot.table.log import ChipsChanged
from bot.table.service import TableService
from bot.table.table import Table
from bot.tournament import director
from bot.tournament.director import Decision, State
from bot.tournament.log import ChipRaced, Rebought, Record
from bot.tournament.structure import Break
from bot.tourney_run.port import ServiceTable
from bot.tourney_run.stakes import table_id


@dataclass(frozen=True, slots=True)
class Change:
    """One stack change the journal holds: ``amount`` chips to ``entry``'s stack."""

    transfer: str
    entry: str
    amount: int


class Runner(Protocol):
    """What these steps need of :class:`bot.tourney_run.runner.Runner`."""

    tournament: str
    service: TableService
    director: str
    rng: random.Random
    count: int
    ports: dict[int, ServiceTable]
    changes: list[Change]
    made: set[str]

    @property
    def st(self) -> State: ...

    async def apply(self, decision: Decision, key: str) -> bool: ...

    async def _table(self, number: int) -> ServiceTable: ...


def changes(tournament: str, before: State, record: Record, index: int) -> list[Change]:
    """The stack changes journal record ``index`` makes (``before``: the state it folds
    onto); none for other records."""
    if isinstance(record, Rebought) and record.entry in before.waiting:
        return []  # the stack comes with his seat (the Returned after it)
    if isinstance(record, Rebought):
        return [Change(f"{tournament}:chips:{index}:{record.entry}", record.entry, record.chips)]
    if isinstance(record, ChipRaced):
        return [
            Change(f"{tournament}:chips:{index}:{entry}", entry, chips - before.stacks[entry])
            for entry, chips in record.stacks
            if chips != before.stacks.get(entry, chips)
        ]
    return []


def _done(runner: Runner, transfer: str) -> bool:
    if transfer in runner.made:
        return True
    if any(transfer in p.table.state.moves for p in runner.ports.values()):
        runner.made.add(transfer)
        return True
    return False


async def recall_changes(runner: Runner) -> None:
    """At a restart: the changes made at tables the runner no longer opens (a broken
    table, closed once its players moved on) are known from those tables' logs, so they
    are never made again where their players sit now."""
    missing = {c.transfer for c in runner.changes if not _done(runner, c.transfer)}
    if not missing:
        return
    for number in sorted(set(runner.st.table_hands) - set(runner.ports)):
        for row in await runner.service.store.events(table_id(runner.tournament, number)):
            transfer = row.payload.get("transfer")
            if row.kind == ChipsChanged.KIND and transfer in missing:
                runner.made.add(str(transfer))


def pending(runner: Runner) -> list[Change]:
    """Stack changes recorded and not yet made at a table."""
    return [c for c in runner.changes if not _done(runner, c.transfer)]


def waiting_tables(runner: Runner) -> set[int]:
    """Tables that must not deal: a change still to make there, or a chip race due
    (every table waits between hands for it, R-19.45)."""
    state = runner.st
    if director.color_up_due(state) is not None:
        return set(runner.ports)
    return {state.seats[c.entry][0] for c in pending(runner) if c.entry in state.seats}


async def make_changes(runner: Runner) -> None:
    """Every recorded stack change not yet made, at the entry's table, between his
    hands (one dealt in now gets it when that hand is over)."""
    state = runner.st
    for change in pending(runner):
        if change.entry not in state.seats:
            continue
        port = runner.ports.get(state.seats[change.entry][0])
        if port is None or not port.between_hands():
            continue
        answer = await port.table.change_chips(
            port.user(change.entry), change.amount, key=change.transfer, transfer=change.transfer
        )
        if not answer.ok and not answer.duplicate:
            raise TableError(answer.msg)
        runner.made.add(change.transfer)


async def race_if_due(runner: Runner) -> None:
    """The chip race of a color-up the schedule has reached, once every table is
    between hands (R-19.45)."""
    state = runner.st
    unit = director.color_up_due(state)
    if unit is None or state.status != "running" or state.playing:
        return
    if any(not p.between_hands() for p in runner.ports.values()):
        return
    await runner.apply(director.color_up(state, unit, runner.rng), f"race:{unit}")


async def hold(runner: Runner) -> None:
    """Tables paused while the host's pause or a break lasts, and dealing again after.
    The host's pause waits for a hand in progress to finish (R-19.41); a table mid-hand
    is paused when :meth:`Runner.after_hand` hears of its end."""
    state = runner.st
    held = state.paused or isinstance(state.config.schedule.item(state.level), Break)
    for port in runner.ports.values():
        if state.paused and not port.between_hands():
            continue
        await port.set_paused(held, f"{runner.tournament}:hold:{runner.count}:{int(held)}")


def _open(runner: Runner, number: int) -> Table | None:
    table = runner.service.get(table_id(runner.tournament, number))
    return None if table is None or table.state.closed else table


async def wind_up(runner: Runner) -> None:
    """A cancelled tournament's tables emptied and closed (R-19.42): the hand in
    progress called off, every player out with his chips (a transfer, no cash-out),
    the table closed. Each step idempotent by its key, so a restart finishes it."""
    state = runner.st
    numbers = set(runner.ports) | set(state.table_hands) | {t for t, _ in state.seats.values()}
    t = runner.tournament
    for number in sorted(numbers):
        if _open(runner, number) is None:
            continue
        table = (await runner._table(number)).table  # known again after a restart
        if table.state.in_hand:
            hand = table.state.hand_no
            answer = await table.call_off(runner.director, key=f"{t}:call_off:{hand}")
            if not answer.ok and not answer.duplicate:
                raise TableError(answer.msg)
        for seat in list(table.state.seats.values()):
            key = f"{t}:cancel:{seat.user_id}"
            answer = await table.move_out(seat.user_id, key=key, transfer=key)
            if not answer.ok and not answer.duplicate:
                raise TableError(answer.msg)
        answer = await table.close(runner.director, key=f"{t}:close:{number}")
        if not answer.ok and not answer.duplicate:
            raise TableError(answer.msg)


def cashed_out(runner: Runner) -> int:
    """The chips the cancel took off the tables (all the chips in play, R-2.5)."""
    prefix = f"{runner.tournament}:cancel:"
    total = 0
    for port in runner.ports.values():
        total -= sum(v for k, v in port.table.state.moves.items() if k.startswith(prefix))
    return total


__all__ = [
    "Change",
    "Runner",
    "cashed_out",
    "changes",
    "hold",
    "make_changes",
    "pending",
    "race_if_due",
    "recall_changes",
    "waiting_tables",
    "wind_up",
]
