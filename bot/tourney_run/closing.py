"""Broken tables closed (R-19.52): once the last player of a broken table has moved out
(every move from or to it carried out) and no hand is under way there, its service
table is closed, not left open with nobody at it. A closed table is not recovered at a
restart, and the runner opens no table the director has nobody at once it is broken,
so a restart never opens it again."""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping

from bot.table.errors import TableError
from bot.tournament.director import State
from bot.tournament.log import Moved
from bot.tourney_run.port import ServiceTable


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
    """Table ``number`` is not to be opened at a restart: broken, nobody there by the
    director, and not among the service's open tables (so closed, R-19.52)."""
    seated = {t for t, _ in state.seats.values()}
    return number in state.broken and number not in seated and not loaded


def close_key(tournament: str, number: int) -> str:
    return f"{tournament}:close:{number}"


async def close(port: ServiceTable, tournament: str) -> None:
    """Close the port's table (idempotent by its key)."""
    if port.table.state.closed:
        return
    answer = await port.table.close(port.director, key=close_key(tournament, port.number))
    if not answer.ok and not answer.duplicate:
        raise TableError(answer.msg)


__all__ = ["closable", "close", "close_key", "stays_closed"]
