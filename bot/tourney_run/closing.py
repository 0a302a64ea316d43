"""Tables closed (R-19.52, R-19.80).

Broken tables: once the last player of a broken table has moved out (every move from or
to it carried out) and no hand is under way there, its service table is closed, not
left open with nobody at it. The final table: once the winner is known and the prizes
recorded, whoever still sits there stands up by a transfer (the winner with every chip
in play; no cash-out, tournament chips never enter the cash ledger) and it is closed.
A closed table is not recovered at a restart, and the runner opens no table the
director has nobody at once it is broken, nor any once the tournament is over, so a
restart never opens it again."""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping

from bot.table.errors import TableError
from bot.table.log import Stood
from bot.table.ports import StorePort
from bot.tournament.director import State
from bot.tournament.log import Moved
from bot.tourney_run.port import ServiceTable
from bot.tourney_run.stakes import table_id


def closable(
    state: State,
    ports: Mapping[int, ServiceTable],
    moves: Iterable[tuple[str, Moved]],
    done: Container[str],
) -> list[int]:
    """The broken tables to close now: nobody seated by the director or at the table,
    no move of theirs in flight, between hands."""
    seated = {t for t, _ in state.seats.values()}
    pending: set[int] = set()
    for transfer, m in moves:
        if transfer not in done:
            pending |= {m.from_table, m.to_table}
    return [
        n
        for n in sorted(state.broken)
        if n in ports
        and n not in seated
        and n not in pending
        and not ports[n].table.state.seats
        and ports[n].between_hands()
    ]


def stays_closed(state: State, number: int, loaded: bool) -> bool:
    """Table ``number`` is not to be opened at a restart: not among the service's open
    tables (so closed) and either broken with nobody there by the director (R-19.52) or
    the tournament over (R-19.80)."""
    seated = {t for t, _ in state.seats.values()}
    broken = number in state.broken and number not in seated
    return not loaded and (broken or state.status == "finished")


def close_key(tournament: str, number: int) -> str:
    return f"{tournament}:close:{number}"


async def close(port: ServiceTable, tournament: str) -> None:
    """Close the port's table (idempotent by its key)."""
    if port.table.state.closed:
        return
    answer = await port.table.close(port.director, key=close_key(tournament, port.number))
    if not answer.ok and not answer.duplicate:
        raise TableError(answer.msg)


def end_key(tournament: str, entry: str) -> str:
    return f"{tournament}:end:{entry}"


async def close_final(port: ServiceTable, tournament: str) -> int:
    """R-19.80: the tournament is over; everyone still at ``port``'s table stands up by
    a transfer (idempotent by its key), then the table is closed. Returns the chips
    taken off it (all the chips in play: the winner's)."""
    taken = 0
    for seat in list(port.table.state.seats.values()):
        taken += await port.move_out(seat.user_id, end_key(tournament, seat.user_id), "end")
    await close(port, tournament)
    return taken


def taken_at_end(port: ServiceTable, tournament: str) -> int:
    """The chips the end took off ``port``'s table (R-19.80), from the table's moves."""
    prefix = end_key(tournament, "")
    return -sum(v for k, v in port.table.state.moves.items() if k.startswith(prefix))


async def recall_taken(store: StorePort, tournament: str, numbers: Iterable[int]) -> int:
    """At a restart: the chips the end took off tables ``numbers`` already closed (not
    loaded), from their logs (R-19.80)."""
    prefix = end_key(tournament, "")
    taken = 0
    for number in numbers:
        for row in await store.events(table_id(tournament, number)):
            transfer = row.payload.get("transfer")
            if row.kind == Stood.KIND and str(transfer).startswith(prefix):
                taken += int(row.payload["amount"])
    return taken


__all__ = [
    "closable",
    "close",
    "close_final",
    "close_key",
    "end_key",
    "recall_taken",
    "stays_closed",
    "taken_at_end",
]
